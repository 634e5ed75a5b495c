/**
 * OSCAR App. C.2, Figs 17 and 18: OSCAR against BFC (Goyal et al., NSDI'22) and
 * OSCAR over BFC (docs/network-model.md §11.9), on three workloads. Fig 17 is the
 * small / large breakdown under CacheFollower and WebSearch, Fig 18 the mean and
 * p99 slowdown under all three (Hadoop+incast: the Hadoop flows). Claims
 * `fig17-18.<workload>.<a>-vs-<b>.<group>.<mean|p99>` = (X_b - X_a) / X_b in %,
 * "a better than b by" (docs/experiments.md §1). Registered by ./analysis.ts.
 */
import { readRunSummary } from '../../src/experiment/results/results.js';
import type { Cell, FigureAnalysis, FigureTable, MeasuredClaim, PointResult } from '../../src/experiment/results/analysis.js';
import { SIZE_GROUPS, TAG_GROUPS, pct, pointCc, r3, readFct, stats, type Group, type Stats } from './fct.js';

/**
 * The fabric of a point: `oscar+pfc`, `bfc-<n>` (line-rate hosts) or `oscar+bfc-<n>`, from a
 * swept `network.switch` block (fig17-18.yaml) or a swept `network.switch.bfc.queues`
 * (fig17-18-flowtable.yaml).
 */
export function fabricOf(p: PointResult): string {
  const sw = p.vars['network.switch'];
  const queues = p.vars['network.switch.bfc.queues'];
  const bfc = sw !== null && typeof sw === 'object' ? (sw as { bfc?: { queues?: number } }).bfc : typeof queues === 'number' ? { queues } : undefined;
  const cc = pointCc(p);
  if (bfc === undefined) return `${cc}+pfc`;
  const n = `bfc-${bfc.queues ?? 32}`;
  return cc === 'none' ? n : `${cc}+${n}`;
}

/** The workload of a point, by its first entry's CDF. */
export function workloadOf(p: PointResult): string {
  const w = p.vars['workload'];
  const first = Array.isArray(w) ? (w[0] as { cdf?: unknown } | undefined) : undefined;
  return typeof first?.cdf === 'string' ? first.cdf : 'cachefollower';
}

const WORKLOADS = ['cachefollower', 'websearch', 'hadoop'] as const;
const FABRICS = ['oscar+pfc', 'bfc-32', 'bfc-128', 'oscar+bfc-32'] as const;
/** Fig 18's Hadoop statistic is over the Hadoop flows of the Hadoop+incast mix */
const fig18Group = (w: string): Group => (w === 'hadoop' ? TAG_GROUPS[1]! : SIZE_GROUPS[0]!);

/** The pairs the paper compares (a better than b), with the groups it compares them on. */
const PAIRS: readonly [string, string][] = [
  ['oscar+pfc', 'bfc-32'],
  ['bfc-128', 'bfc-32'],
  ['oscar+bfc-32', 'bfc-128'],
  ['oscar+bfc-32', 'oscar+pfc'],
  ['oscar+bfc-32', 'bfc-32'],
];

const gain = (a: number | null, b: number | null): number | null => (a !== null && b !== null && b > 0 ? ((b - a) / b) * 100 : null);

const figure: FigureAnalysis = {
  id: 'oscar-fig17-18',
  paper: 'oscar',
  title: 'OSCAR Figs 17/18: OSCAR vs BFC-32/128 and OSCAR over BFC-32 (CacheFollower 50 %, WebSearch 50 %, Hadoop 30 % + incast 15 %)',
  analyze(points) {
    // (workload, fabric) -> stats of the groups: all, small, large, Hadoop flows
    const groups: Group[] = [...SIZE_GROUPS, TAG_GROUPS[1]!];
    const st = new Map<string, Map<string, Stats[]>>();
    // per point: drops and, with BFC, its pauses, shared queue assignments and busiest port (issue 42)
    const counters: Cell[][] = [];
    for (const p of points) {
      const d = readFct(p.dir);
      const w = workloadOf(p);
      const t = readRunSummary(p.dir)?.totals;
      counters.push([w, fabricOf(p), t?.drops ?? null, t?.bfcPauses ?? null, t?.bfcSharedAssignments ?? null, t?.bfcMaxQueuesInUse ?? null]);
      if (!st.has(w)) st.set(w, new Map());
      st.get(w)!.set(
        fabricOf(p),
        groups.map((g) => stats(d, (i) => g.keep(d, i))),
      );
    }
    const at = (w: string, f: string, g: Group): Stats | undefined => st.get(w)?.get(f)?.[groups.indexOf(g)];
    const tables: FigureTable[] = [];
    const claims: MeasuredClaim[] = [];
    const fabrics = (w: string): string[] => FABRICS.filter((f) => st.get(w)?.has(f) === true);
    // Fig 17: small / large breakdown, CacheFollower and WebSearch
    const rows17: Cell[][] = [];
    for (const w of WORKLOADS.slice(0, 2)) {
      for (const f of fabrics(w)) {
        const row: Cell[] = [w, f, at(w, f, SIZE_GROUPS[0]!)!.n];
        for (const g of SIZE_GROUPS.slice(1)) row.push(r3(at(w, f, g)!.mean), r3(at(w, f, g)!.p99));
        rows17.push(row);
      }
    }
    tables.push({
      title: 'Fig 17: FCT slowdown by flow size at 50 % load',
      columns: ['workload', 'fabric', 'flows', 'mean <=150KiB', 'p99 <=150KiB', 'mean >150KiB', 'p99 >150KiB'],
      rows: rows17,
      notes: ['published: BFC-32 worse than OSCAR+PFC for small flows, better for large; BFC-128 better than BFC-32 for small; OSCAR+BFC-32 better than BFC-128 for small, comparable for large'],
    });
    // Fig 18: mean and p99 per workload
    const rows18: Cell[][] = [];
    for (const w of WORKLOADS) {
      const g = fig18Group(w);
      for (const f of fabrics(w)) rows18.push([w, f, at(w, f, g)!.n, r3(at(w, f, g)!.mean), r3(at(w, f, g)!.p99)]);
    }
    tables.push({
      title: 'Fig 18: mean and p99 FCT slowdown (Hadoop: the Hadoop flows of Hadoop 30 % + incast 15 %)',
      columns: ['workload', 'fabric', 'flows', 'mean', 'p99'],
      rows: rows18,
      notes: ['published: OSCAR+PFC 11 % better than BFC-32 (CacheFollower), 19 % worse (WebSearch), 1.14x worse (Hadoop); OSCAR+BFC-32 41 % / 48 % better than OSCAR+PFC / BFC-32 (CacheFollower)'],
    });
    // gains of the compared pairs
    const gRows: Cell[][] = [];
    for (const w of WORKLOADS) {
      const gs = w === 'hadoop' ? [fig18Group(w)] : SIZE_GROUPS;
      for (const [a, b] of PAIRS) {
        if (st.get(w)?.has(a) !== true || st.get(w)?.has(b) !== true) continue;
        const row: Cell[] = [w, `${a} vs ${b}`];
        for (const g of SIZE_GROUPS) {
          const k = gs.includes(g) ? g : w === 'hadoop' && g === SIZE_GROUPS[0] ? fig18Group(w) : null;
          for (const m of ['mean', 'p99'] as const) {
            const v = k === null ? null : gain(at(w, a, k)![m], at(w, b, k)![m]);
            row.push(pct(v));
            if (v !== null) claims.push({ id: `fig17-18.${w}.${a}-vs-${b}.${k!.key}.${m}`, value: v, unit: '%' });
          }
        }
        gRows.push(row);
      }
    }
    tables.push({
      title: 'Figs 17/18: a better than b by (X_b - X_a) / X_b, %',
      columns: ['workload', 'a vs b', 'mean all %', 'p99 all %', 'mean <=150KiB %', 'p99 <=150KiB %', 'mean >150KiB %', 'p99 >150KiB %'],
      rows: gRows,
      notes: ['Hadoop: the "all" columns are over the Hadoop flows (Fig 18); reduced (--quick) runs have 3 % of the arrivals: compare with the published numbers only at full size'],
    });
    const order = (list: readonly string[], c: Cell): number => list.indexOf(String(c));
    counters.sort((a, b) => order(WORKLOADS, a[0]!) - order(WORKLOADS, b[0]!) || order(FABRICS, a[1]!) - order(FABRICS, b[1]!));
    tables.push({
      title: 'Drops and BFC counters per point',
      columns: ['workload', 'fabric', 'drops', 'BFC pauses', 'shared queue assignments', 'most queues in use at a port'],
      rows: counters,
      notes: ['BFC-32 and BFC-128 can differ only where some port had more than 32 flows queued at once (shared queue assignments > 0 under BFC-32); a BFC fabric without PFC should drop nothing'],
    });
    return { tables, claims };
  },
};

/**
 * The flow-table sensitivity of the Hadoop + incast runs (fig17-18-flowtable.yaml): per
 * fabric and table size, the Hadoop flows' mean and p99 slowdown, the drops at the DT
 * threshold, the timeouts and the flows that shared a queue. No claims: it backs the causes of the fig17-18.hadoop.* claims.
 */
const flowTable: FigureAnalysis = {
  id: 'oscar-fig17-18-flowtable',
  paper: 'oscar',
  title: 'OSCAR Figs 17/18, Hadoop 30 % + incast 15 % under BFC: flow tables of 1 024 and 65 536 entries',
  analyze(points) {
    const rows: Cell[][] = [];
    for (const p of points) {
      const size = p.vars['network.switch.bfc.flowTableSize'];
      const d = readFct(p.dir);
      const h = stats(d, (i) => TAG_GROUPS[1]!.keep(d, i));
      const t = readRunSummary(p.dir)?.totals;
      rows.push([fabricOf(p), typeof size === 'number' ? size : null, h.n, r3(h.mean), r3(h.p99), t?.drops ?? null, t?.timeouts ?? null, t?.bfcSharedAssignments ?? null]);
    }
    rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
    return {
      tables: [
        {
          title: 'BFC flow-table size: Hadoop flows of Hadoop 30 % + incast 15 %',
          columns: ['fabric', 'flow-table entries', 'Hadoop flows', 'mean', 'p99', 'drops', 'timeouts', 'shared queue assignments'],
          rows,
          notes: ['flows whose IDs collide in the table share its entry and so its physical queue, but each is paused on its own (issue 42); 5 ms of arrivals at full size (fig17-18.yaml: 10 ms), 1 ms with --quick'],
        },
      ],
      claims: [],
    };
  },
};

export const BFC_FIGURES: readonly FigureAnalysis[] = [figure, flowTable];
