/**
 * FCT / slowdown summaries: overall, per flow-size bin (network-model.md §5.5)
 * and per flow tag (e.g. background vs incast, OSCAR Fig10c).
 */
import { KB, KIB, MB, MIB } from '../engine/units.js';
import type { FctRow, SimOutput } from '../experiment/types.js';
import { mean, percentileLinear, percentileNearestRank, sortedCopy } from './stats.js';

/** A flow-size bin: sizes in (minBytes, maxBytes]. */
export interface SizeBin {
  label: string;
  /** exclusive lower bound, bytes */
  minBytes: number;
  /** inclusive upper bound, bytes (Infinity = unbounded) */
  maxBytes: number;
}

/**
 * Default bins: OSCAR's (0, 150 KiB], (150 KiB, ∞), (3 MiB, ∞), and
 * PowerTCP's short < 10 KB, medium 100 KB–1 MB, long > 1 MB.
 */
export const DEFAULT_BINS: readonly SizeBin[] = [
  { label: '(0,150KiB]', minBytes: 0, maxBytes: 150 * KIB },
  { label: '(150KiB,inf)', minBytes: 150 * KIB, maxBytes: Infinity },
  { label: '(3MiB,inf)', minBytes: 3 * MIB, maxBytes: Infinity },
  { label: '<10KB', minBytes: 0, maxBytes: 10 * KB - 1 },
  { label: '100KB-1MB', minBytes: 100 * KB - 1, maxBytes: MB },
  { label: '>1MB', minBytes: MB, maxBytes: Infinity },
];

export type PercentileMethod = 'linear' | 'nearestRank';

/** Statistics of one group of finished flows. NaN (null in JSON) when count = 0. */
export interface FctStats {
  count: number;
  meanSlowdown: number;
  p50Slowdown: number;
  p95Slowdown: number;
  p99Slowdown: number;
  p999Slowdown: number;
  meanFctPs: number;
  p99FctPs: number;
  p999FctPs: number;
}

export interface BinStats extends FctStats {
  label: string;
  minBytes: number;
  maxBytes: number;
}

export interface FctSummary {
  percentile: PercentileMethod;
  overall: FctStats;
  bins: BinStats[];
  /** by FctRow.tag, keys sorted; an empty tag is reported as 'untagged' */
  tags: Record<string, FctStats>;
}

export interface SummarizeOptions {
  /** 'linear' (numpy, default) or 'nearestRank' (HPCC fct_analysis.py) */
  percentile?: PercentileMethod;
}

export function statsOf(rows: readonly FctRow[], method: PercentileMethod = 'linear'): FctStats {
  const pct = method === 'nearestRank' ? percentileNearestRank : percentileLinear;
  const sd = sortedCopy(rows.map((r) => r.slowdown));
  const fct = sortedCopy(rows.map((r) => r.fctPs));
  return {
    count: rows.length,
    meanSlowdown: mean(sd),
    p50Slowdown: pct(sd, 50),
    p95Slowdown: pct(sd, 95),
    p99Slowdown: pct(sd, 99),
    p999Slowdown: pct(sd, 99.9),
    meanFctPs: mean(fct),
    p99FctPs: pct(fct, 99),
    p999FctPs: pct(fct, 99.9),
  };
}

/** Untagged flows are grouped under this name. */
export const UNTAGGED = 'untagged';

export function summarize(fct: readonly FctRow[], bins: readonly SizeBin[] = DEFAULT_BINS, opts: SummarizeOptions = {}): FctSummary {
  const method = opts.percentile ?? 'linear';
  // statistics are taken over sorted values, so row order (completion order) does not matter
  const rows = fct;
  const binStats: BinStats[] = bins.map((b) => ({
    label: b.label,
    minBytes: b.minBytes,
    maxBytes: b.maxBytes,
    ...statsOf(
      rows.filter((r) => r.bytes > b.minBytes && r.bytes <= b.maxBytes),
      method,
    ),
  }));
  const byTag = new Map<string, FctRow[]>();
  for (const r of rows) {
    const t = r.tag === '' ? UNTAGGED : r.tag;
    let list = byTag.get(t);
    if (list === undefined) byTag.set(t, (list = []));
    list.push(r);
  }
  const tags: Record<string, FctStats> = {};
  for (const t of [...byTag.keys()].sort()) tags[t] = statsOf(byTag.get(t)!, method);
  return { percentile: method, overall: statsOf(rows, method), bins: binStats, tags };
}

/** What summary.json holds: the FCT summary plus the run's totals (all deterministic). */
export interface RunSummary {
  fct: FctSummary;
  totals: SimOutput['totals'];
  unfinished: number;
  /** bytes of the unfinished flows, and how many of them were acknowledged (network-model.md §3.9) */
  unfinishedBytes: number;
  unfinishedAckedBytes: number;
  /** simulated time reached, ps */
  endPs: number;
  /** only when the run ended on a PFC deadlock (net/deadlock.ts): when, the cycle, unfinished flows, drops ruled out */
  deadlock?: SimOutput['deadlock'];
}

export function runSummary(out: SimOutput, bins: readonly SizeBin[] = DEFAULT_BINS, opts: SummarizeOptions = {}): RunSummary {
  let unfinishedBytes = 0;
  let unfinishedAckedBytes = 0;
  for (const u of out.unfinished) {
    unfinishedBytes += u.bytes;
    unfinishedAckedBytes += u.ackedBytes;
  }
  const s: RunSummary = {
    fct: summarize(out.fct, bins, opts),
    totals: { ...out.totals },
    unfinished: out.unfinished.length,
    unfinishedBytes,
    unfinishedAckedBytes,
    endPs: out.endPs,
  };
  if (out.deadlock !== undefined) s.deadlock = out.deadlock;
  return s;
}

/**
 * Plain warnings about a run's losses (network-model.md §3.9): packets dropped (by
 * reason) and flows left unfinished with the bytes they got acknowledged. A profile
 * without a retransmission timeout (the PowerTCP MMU can drop at egress) leaves a flow
 * whose dropped packet is never NACKed unfinished, so the FCT tables then cover only
 * the flows that finished. Empty when nothing was lost.
 */
export function lossWarnings(out: SimOutput, s: RunSummary): string[] {
  const lines: string[] = [];
  const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
  if (out.totals.drops > 0) {
    const reasons = new Map<string, number>();
    for (const n of out.nodes) for (const [r, v] of Object.entries(n.dropsByReason)) reasons.set(r, (reasons.get(r) ?? 0) + v);
    const by = [...reasons.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([r, v]) => `${r} ${fmt(v)}`);
    lines.push(`WARNING: ${fmt(out.totals.drops)} packets dropped in the network${by.length > 0 ? ` (${by.join(', ')})` : ''}`);
  }
  if (s.unfinished > 0) {
    lines.push(
      `WARNING: ${fmt(s.unfinished)} of ${fmt(out.totals.flows)} flows unfinished at the end of the run; ` +
        `${fmt(s.unfinishedAckedBytes)} of their ${fmt(s.unfinishedBytes)} bytes acknowledged (unfinished.csv); FCT statistics cover finished flows only`,
    );
  }
  return lines;
}
