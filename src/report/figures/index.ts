/**
 * Registers the papers' figure analyses with the experiment layer's registry
 * (src/experiment/analysis.ts). Importing this module is what makes their ids
 * known to `ccsim sweep`, `reproduce`, `report` and `claims`.
 */
import { findFigure, registerFigure } from '../../experiment/analysis.js';
import { OSCAR_FIGURES } from './oscar.js';
import { OSCAR_BASELINE_FIGURES } from './oscar-baselines.js';
import { SQCC_FIGURES } from './sqcc.js';
import { CCC_FIGURES } from './ccc.js';
import { POWERTCP_FIGURES } from './powertcp.js';
import { ACC_FIGURES } from './acc.js';

registerFigure(...OSCAR_FIGURES, ...OSCAR_BASELINE_FIGURES, ...CCC_FIGURES, ...SQCC_FIGURES, ...POWERTCP_FIGURES, ...ACC_FIGURES);

export { findFigure };
