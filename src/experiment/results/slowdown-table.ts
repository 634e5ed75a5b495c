/**
 * Paper-independent figure analysis: the overall FCT slowdown of every point
 * (from its summary.json), as a table and as claims `<point label>.<stat>`.
 * Useful for ad-hoc sweeps (`figure: slowdown-table`) and as the smallest
 * example of the analysis contract.
 */
import { requireResultJson } from './results.js';
import type { Cell, FigureAnalysis, MeasuredClaim } from './analysis.js';

interface Overall {
  count: number;
  meanSlowdown: number | null;
  p50Slowdown: number | null;
  p99Slowdown: number | null;
  p999Slowdown: number | null;
}

const STATS = [
  ['mean', 'meanSlowdown'],
  ['p50', 'p50Slowdown'],
  ['p99', 'p99Slowdown'],
  ['p999', 'p999Slowdown'],
] as const;

export const slowdownTable: FigureAnalysis = {
  id: 'slowdown-table',
  paper: 'generic',
  title: 'Overall FCT slowdown per point',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const s = requireResultJson<{ fct: { overall: Overall } }>(p.dir, 'summary.json');
      const o = s.fct.overall;
      rows.push([p.label, o.count, ...STATS.map(([, k]) => o[k])]);
      for (const [name, k] of STATS) {
        const v = o[k];
        if (typeof v === 'number' && Number.isFinite(v)) claims.push({ id: `${p.label}.${name}`, value: v });
      }
    }
    return { tables: [{ title: 'Overall FCT slowdown', columns: ['point', 'flows', 'mean', 'p50', 'p99', 'p99.9'], rows }], claims };
  },
};
