/**
 * Registry of figure analyses (see types.ts). Adding one = a function in the
 * paper's file in this folder + one entry here.
 */
import { slowdownTable } from './generic.js';
import type { FigureAnalysis } from './types.js';
import { OSCAR_FIGURES } from './oscar.js';
import { OSCAR_BASELINE_FIGURES } from './oscar-baselines.js';
import { SQCC_FIGURES } from './sqcc.js';
import { CCC_FIGURES } from './ccc.js';
import { POWERTCP_FIGURES } from './powertcp.js';
import { ACC_FIGURES } from './acc.js';

export const FIGURES: readonly FigureAnalysis[] = [slowdownTable, ...OSCAR_FIGURES, ...OSCAR_BASELINE_FIGURES, ...CCC_FIGURES, ...SQCC_FIGURES, ...POWERTCP_FIGURES, ...ACC_FIGURES];

export function findFigure(id: string): FigureAnalysis | undefined {
  return FIGURES.find((f) => f.id === id);
}
