/**
 * Per-tag results in reports: a run whose workload entries carry tags (an
 * incast over background traffic) has FCT statistics per tag in its
 * summary.json; the report shows them as rows beside the run's overall ones,
 * so an incast's slowdown is never averaged away.
 */
import type { Cell, FigureTable } from '../experiment/results/analysis.js';
import type { RunData } from '../experiment/results/results.js';
import type { FctStats } from '../metrics/summary.js';
import { formatCell } from './text.js';

const r3 = (x: number): Cell => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

/** One row per run and tag (and the run's overall row), or undefined when no run has tags. */
export function tagTable(runs: readonly RunData[], names: readonly string[]): FigureTable | undefined {
  if (!runs.some((r) => Object.keys(r.summary.fct.tags ?? {}).length > 0)) return undefined;
  // a p99 of fewer than 100 flows is shown and marked, never left out (as the charts' faint bars and hollow markers)
  const p99 = (s: FctStats): Cell => {
    const v = r3(s.p99Slowdown);
    return s.count >= 100 || v === null ? v : `${formatCell(v)} (n<100)`;
  };
  const row = (name: string, tag: string, s: FctStats): Cell[] => [name, tag, s.count, r3(s.meanSlowdown), r3(s.p50Slowdown), r3(s.p95Slowdown), p99(s)];
  const rows: Cell[][] = [];
  runs.forEach((r, i) => {
    const tags = Object.entries(r.summary.fct.tags ?? {});
    if (tags.length === 0) return;
    rows.push(row(names[i]!, 'all flows', r.summary.fct.overall));
    for (const [tag, s] of tags) rows.push(row(names[i]!, tag, s));
  });
  return {
    title: 'FCT slowdown per workload tag',
    columns: ['run', 'tag', 'finished flows', 'mean', 'p50', 'p95', 'p99'],
    rows,
    notes: ['a tag is a workload entry\'s `tag:` (docs/guide.md); (n<100): a p99 of fewer than the 100 finished flows a reliable p99 needs'],
  };
}
