/**
 * CCC Fig 12 (CCC §6.4): AlexNet trained with parameter servers on a
 * 128-host leaf-spine. Per CC: PFC pause frames sent (summary.json totals)
 * and the mean time of one training iteration (jobs.csv). Claims: CCC's
 * pauses against the production CCs (DCQCN, TIMELY, Swift) as
 * (X - CCC)/X, the smallest and the largest of the three ("85.7 % ~
 * 95.1 % lower"), and whether CCC has the lowest iteration time.
 */
import { mean } from '../../src/metrics/stats.js';
import { readColumns, readRunSummary } from '../../src/experiment/results/results.js';
import { registerFigure, sweptCcName, type Cell, type FigureAnalysis, type MeasuredClaim } from '../../src/experiment/results/analysis.js';

const PRODUCTION = ['dcqcn', 'timely', 'swift'];

const fig12: FigureAnalysis = {
  id: 'ccc-fig12',
  paper: 'ccc',
  title: 'CCC Fig 12: AlexNet with 4 parameter servers and 124 workers, PFC pauses and iteration time',
  analyze(points) {
    const by = new Map<string, { pauses: number; iterPs: number | null; iterations: number }>();
    for (const p of points) {
      const cc = sweptCcName(p) ?? p.label;
      const s = readRunSummary(p.dir);
      const jobs = readColumns(p.dir, 'jobs').numbers('duration_ps');
      by.set(cc, { pauses: s?.totals?.pausesSent ?? 0, iterPs: jobs.length > 0 ? mean(jobs) : null, iterations: jobs.length });
    }
    const rows: Cell[][] = [...by].map(([cc, v]) => [cc, v.pauses, v.iterPs === null ? null : Math.round(v.iterPs / 1e6) / 1e3, v.iterations]);
    const claims: MeasuredClaim[] = [];
    const c = by.get('ccc');
    if (c !== undefined) {
      const cuts = PRODUCTION.filter((x) => by.has(x) && by.get(x)!.pauses > 0).map((x) => ((by.get(x)!.pauses - c.pauses) / by.get(x)!.pauses) * 100);
      if (cuts.length > 0) {
        claims.push({ id: 'ccc.fig12.pause-reduction.min', value: Math.min(...cuts), unit: '%' });
        claims.push({ id: 'ccc.fig12.pause-reduction.max', value: Math.max(...cuts), unit: '%' });
      }
      const others = [...by].filter(([cc, v]) => cc !== 'ccc' && v.iterPs !== null);
      if (c.iterPs !== null && others.length > 0) {
        claims.push({ id: 'ccc.fig12.ccc-fastest-share', value: others.filter(([, v]) => v.iterPs! >= c.iterPs!).length / others.length });
      }
    }
    return {
      tables: [
        {
          title: 'Fig 12: PFC pause frames sent and mean iteration time',
          columns: ['cc', 'PFC pauses', 'iteration (ms)', 'iterations'],
          rows,
          notes: ['published: CCC triggers 85.7 % ~ 95.1 % fewer PFC pauses than DCQCN, TIMELY and Swift, as few as the INT-based CCs, and the lowest iteration time'],
        },
      ],
      claims,
    };
  },
};

export const CCC_TRAINING_FIGURES: readonly FigureAnalysis[] = [fig12];

registerFigure(...CCC_TRAINING_FIGURES);
