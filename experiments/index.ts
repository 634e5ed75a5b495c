/**
 * Every paper's figure analyses: importing this module registers them with
 * the experiment layer's registry (src/experiment/results/analysis.ts), which is what
 * makes the `figure:` ids of the specs in this folder known to `ccsim sweep`,
 * `reproduce`, `report` and `claims`. The CLI imports it; so do the tests
 * that plan or analyse a paper's sweep. The order here is the order
 * `figureNames()` lists them in.
 */
import './oscar/analysis.js';
import './oscar/analysis-baselines.js';
import './oscar/analysis-training.js';
import './ccc/analysis.js';
import './ccc/analysis-training.js';
import './sqcc/analysis.js';
import './powertcp/analysis.js';
import './powertcp/analysis-homa.js';
import './powertcp/analysis-fig8.js';
import './powertcp/analysis-window.js';
import './acc/analysis.js';
