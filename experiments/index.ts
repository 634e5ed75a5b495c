/**
 * Every paper's figure analyses: importing this module registers them with
 * the experiment layer's registry (src/experiment/analysis.ts), which is what
 * makes the `figure:` ids of the specs in this folder known to `ccsim sweep`,
 * `reproduce`, `report` and `claims`. The CLI imports it; so do the tests
 * that plan or analyse a paper's sweep.
 */
import { registerFigure } from '../src/experiment/analysis.js';
import { OSCAR_FIGURES } from './oscar/analysis.js';
import { OSCAR_BASELINE_FIGURES } from './oscar/analysis-baselines.js';
import { SQCC_FIGURES } from './sqcc/analysis.js';
import { CCC_FIGURES } from './ccc/analysis.js';
import { POWERTCP_FIGURES } from './powertcp/analysis.js';
import { ACC_FIGURES } from './acc/analysis.js';

registerFigure(...OSCAR_FIGURES, ...OSCAR_BASELINE_FIGURES, ...CCC_FIGURES, ...SQCC_FIGURES, ...POWERTCP_FIGURES, ...ACC_FIGURES);
