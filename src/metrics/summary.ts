/**
 * FCT / slowdown summaries: overall, per flow-size bin of each chosen paper's
 * bin set (docs/network-model.md §12.4) and per flow tag (e.g. background vs incast,
 * OSCAR Fig10c).
 */
import { KB, KIB, MB, MIB } from '../engine/units.js';
import type { FctColumns, FctRow, SimOutput } from './types.js';
import { breakdownSummary, type BreakdownSummary } from './breakdown-summary.js';
import { mean, percentileLinear, percentileNearestRank, sortedCopy } from './stats.js';

/**
 * A flow-size bin: sizes in (minBytes, maxBytes]. Labels use one convention
 * throughout, the one specs use: KB/MB = 10^3/10^6 bytes, KiB/MiB = 2^10/2^20
 * bytes, "(" / ")" an open end, "[" / "]" a closed one.
 */
export interface SizeBin {
  label: string;
  /** exclusive lower bound, bytes */
  minBytes: number;
  /** inclusive upper bound, bytes (Infinity = unbounded; null in summary.json) */
  maxBytes: number;
}

/**
 * A named set of size bins as one paper reports them. The bins of a set may
 * overlap (OSCAR reports "long" and "very long" flows); a summary adds an
 * "outside" row for the flows in none of them, so every flow is accounted for.
 */
export interface BinSet {
  /** key used in specs (`metrics.binSets`) */
  name: string;
  /** heading, e.g. "OSCAR bins" */
  title: string;
  /** where the edges come from */
  source: string;
  bins: readonly SizeBin[];
}

/** Size units for the bin edges. */
const K = KB;
const M = MB;

/** The bin sets of the papers ccsim reproduces, by spec name. */
export const BIN_SETS: Readonly<Record<string, BinSet>> = {
  oscar: {
    name: 'oscar',
    title: 'OSCAR bins',
    source: 'OSCAR artifact notebooks (docs/network-model.md §12.4): short <= 150 KiB, long > 150 KiB, very long > 3 MiB (overlaps long)',
    bins: [
      { label: '(0, 150 KiB]', minBytes: 0, maxBytes: 150 * KIB },
      { label: '(150 KiB, inf)', minBytes: 150 * KIB, maxBytes: Infinity },
      { label: '(3 MiB, inf)', minBytes: 3 * MIB, maxBytes: Infinity },
    ],
  },
  powertcp: {
    name: 'powertcp',
    title: 'PowerTCP bins',
    source: 'PowerTCP §5 (Fig. 5-6): short < 10 KB, medium 100 KB - 1 MB, long > 1 MB; 10-100 KB is in no bin',
    bins: [
      { label: '(0, 10 KB)', minBytes: 0, maxBytes: 10 * K - 1 },
      { label: '[100 KB, 1 MB]', minBytes: 100 * K - 1, maxBytes: M },
      { label: '(1 MB, inf)', minBytes: M, maxBytes: Infinity },
    ],
  },
};

/** The bin sets a summary uses unless the spec chooses (`metrics.binSets`). */
export const DEFAULT_BIN_SETS: readonly string[] = ['oscar', 'powertcp'];

/** A spec's own bins (`metrics.bins`) as a set. */
export function customBinSet(bins: readonly SizeBin[]): BinSet {
  return { name: 'custom', title: 'spec bins', source: 'metrics.bins of the spec', bins };
}

/** The named sets (unknown names are rejected by the spec schema). */
export function binSetsByName(names: readonly string[]): BinSet[] {
  return names.map((n) => {
    const set = BIN_SETS[n];
    if (set === undefined) throw new Error(`unknown bin set "${n}" (known: ${Object.keys(BIN_SETS).join(', ')})`);
    return set;
  });
}

/** Flows in a bin: (minBytes, maxBytes]. */
function inBin(bytes: number, b: SizeBin): boolean {
  return bytes > b.minBytes && bytes <= b.maxBytes;
}

export type PercentileMethod = 'linear' | 'nearestRank';

/** Statistics of one group of finished flows. NaN (null in JSON) when count = 0. */
export interface FctStats {
  count: number;
  /** flows that finished faster than their ideal FCT (slowdown < 1; 0 when the profile clamps at 1) */
  belowOne: number;
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

export interface BinSetStats {
  name: string;
  title: string;
  source: string;
  bins: BinStats[];
  /** the finished flows in none of the set's bins */
  outside: FctStats;
}

export interface FctSummary {
  percentile: PercentileMethod;
  overall: FctStats;
  /** one entry per bin set, each accounting for every finished flow (bins + outside) */
  binSets: BinSetStats[];
  /** by FctRow.tag, keys sorted; an empty tag is reported as 'untagged' */
  tags: Record<string, FctStats>;
}

export interface SummarizeOptions {
  /** 'linear' (numpy, default) or 'nearestRank' (HPCC fct_analysis.py) */
  percentile?: PercentileMethod;
}

export function statsOf(rows: readonly FctRow[], method: PercentileMethod = 'linear'): FctStats {
  return statsOfValues(
    rows.map((r) => r.slowdown),
    rows.map((r) => r.fctPs),
    method,
  );
}

/** Statistics of one group given its slowdowns and FCTs (same order, any order). */
function statsOfValues(slowdowns: ArrayLike<number>, fcts: ArrayLike<number>, method: PercentileMethod): FctStats {
  const pct = method === 'nearestRank' ? percentileNearestRank : percentileLinear;
  const sd = sortedCopy(slowdowns);
  const fct = sortedCopy(fcts);
  let belowOne = 0;
  for (let i = 0; i < slowdowns.length; i++) if (slowdowns[i]! < 1) belowOne++;
  return {
    count: slowdowns.length,
    belowOne,
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

/** The summary's columns of FCT rows. */
export function fctColumnsOf(rows: readonly FctRow[]): FctColumns {
  const n = rows.length;
  const c: FctColumns = { count: n, bytes: new Float64Array(n), slowdown: new Float64Array(n), fctPs: new Float64Array(n), tag: new Int32Array(n), tags: [] };
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    c.bytes[i] = r.bytes;
    c.slowdown[i] = r.slowdown;
    c.fctPs[i] = r.fctPs;
    let t = index.get(r.tag);
    if (t === undefined) {
      t = c.tags.length;
      c.tags.push(r.tag);
      index.set(r.tag, t);
    }
    c.tag[i] = t;
  }
  return c;
}

/** Statistics of the flows (column indices) that `keep` selects. */
function groupStats(c: FctColumns, keep: (i: number) => boolean, method: PercentileMethod): FctStats {
  const sd: number[] = [];
  const fct: number[] = [];
  for (let i = 0; i < c.count; i++) {
    if (!keep(i)) continue;
    sd.push(c.slowdown[i]!);
    fct.push(c.fctPs[i]!);
  }
  return statsOfValues(sd, fct, method);
}

export function summarize(fct: readonly FctRow[] | FctColumns, sets: readonly BinSet[] = binSetsByName(DEFAULT_BIN_SETS), opts: SummarizeOptions = {}): FctSummary {
  const method = opts.percentile ?? 'linear';
  // statistics are taken over sorted values, so row order (completion order) does not matter
  const c = Array.isArray(fct) ? fctColumnsOf(fct as readonly FctRow[]) : (fct as FctColumns);
  const bytes = c.bytes;
  const binSets: BinSetStats[] = sets.map((set) => ({
    name: set.name,
    title: set.title,
    source: set.source,
    bins: set.bins.map((b) => ({
      label: b.label,
      minBytes: b.minBytes,
      maxBytes: b.maxBytes,
      ...groupStats(c, (i) => inBin(bytes[i]!, b), method),
    })),
    outside: groupStats(c, (i) => !set.bins.some((b) => inBin(bytes[i]!, b)), method),
  }));
  // tags in sorted order of their names; an empty tag is reported as UNTAGGED
  const names = c.tags.map((t) => (t === '' ? UNTAGGED : t));
  const tags: Record<string, FctStats> = {};
  for (const name of [...new Set(names)].sort()) tags[name] = groupStats(c, (i) => names[c.tag[i]!] === name, method);
  return { percentile: method, overall: groupStats(c, () => true, method), binSets, tags };
}

/** What summary.json holds: the FCT summary plus the run's totals (all deterministic). */
export interface RunSummary {
  fct: FctSummary;
  /** things a reader of the numbers should know (slowdowns below 1, throughput above line rate), deterministic */
  notes: string[];
  totals: SimOutput['totals'];
  unfinished: number;
  /** bytes of the unfinished flows, and how many of them were acknowledged (docs/network-model.md §11.8) */
  unfinishedBytes: number;
  unfinishedAckedBytes: number;
  /** simulated time reached, ps */
  endPs: number;
  /** only when the run ended on a PFC deadlock (net/deadlock.ts): when, the cycle, unfinished flows, drops ruled out */
  deadlock?: SimOutput['deadlock'];
  /** only when closed-loop workloads ran jobs (collectives): their iterations' durations (jobs.csv) */
  jobs?: JobSummary;
  /** only with metrics.breakdown: the FCT's parts overall, per tag and per size bin (metrics/breakdown-summary.ts) */
  breakdown?: BreakdownSummary;
  /** only with engine.fastForward (sim/fast-forward.ts): simulated time and estimated events skipped, and the skips */
  fastForward?: SimOutput['fastForward'];
}

/** Durations of the finished job iterations of a run, ps. */
export interface JobSummary {
  iterations: number;
  meanPs: number;
  p50Ps: number;
  p99Ps: number;
  maxPs: number;
  /** flows of the jobs (tagged with a job's tag) that finished within the run: OSCAR Fig 12's "completed flows in the window" */
  completedFlows: number;
}

/** The summary of job iterations (OSCAR §6.4 Fig 12 reports all-reduce times). */
export function jobSummary(jobs: NonNullable<SimOutput['jobs']>, method: PercentileMethod = 'linear', cols?: FctColumns): JobSummary {
  const pct = method === 'nearestRank' ? percentileNearestRank : percentileLinear;
  const d = sortedCopy(jobs.map((j) => j.finishPs - j.startPs));
  // a job is named by its entry's tag, or tag/group: its flows carry the tag
  const tags = new Set(jobs.map((j) => j.job.replace(/\/\d+$/, '')));
  let completedFlows = 0;
  if (cols !== undefined) {
    const isJob = cols.tags.map((t) => tags.has(t));
    for (let i = 0; i < cols.count; i++) if (isJob[cols.tag[i]!] === true) completedFlows++;
  }
  return { iterations: d.length, meanPs: mean(d), p50Ps: pct(d, 50), p99Ps: pct(d, 99), maxPs: d.length > 0 ? d[d.length - 1]! : NaN, completedFlows };
}

export function runSummary(out: SimOutput, sets: readonly BinSet[] = binSetsByName(DEFAULT_BIN_SETS), opts: SummarizeOptions = {}, notes: readonly string[] = []): RunSummary {
  const cols = out.fctColumns ?? fctColumnsOf(out.fct);
  const fct = summarize(cols, sets, opts);
  const all: string[] = [];
  if (fct.overall.belowOne > 0) {
    let min = Infinity;
    for (let i = 0; i < cols.count; i++) if (cols.slowdown[i]! < min) min = cols.slowdown[i]!;
    all.push(
      `${fct.overall.belowOne} of ${fct.overall.count} finished flows have slowdown < 1 (lowest ${+min.toFixed(3)}): ` +
        'they finished faster than the ideal FCT model (network.metrics.idealFct) says an unloaded network allows; ' +
        'check the ideal-FCT settings (docs/fidelity.md, "Ideal FCT")',
    );
  }
  all.push(...notes);
  let unfinishedBytes = 0;
  let unfinishedAckedBytes = 0;
  for (const u of out.unfinished) {
    unfinishedBytes += u.bytes;
    unfinishedAckedBytes += u.ackedBytes;
  }
  const s: RunSummary = {
    fct,
    notes: all,
    totals: { ...out.totals },
    unfinished: out.unfinished.length,
    unfinishedBytes,
    unfinishedAckedBytes,
    endPs: out.endPs,
  };
  if (out.deadlock !== undefined) s.deadlock = out.deadlock;
  if (out.jobs !== undefined && out.jobs.length > 0) s.jobs = jobSummary(out.jobs, fct.percentile, cols);
  if (out.breakdown !== undefined) s.breakdown = breakdownSummary(out.breakdown, sets);
  if (out.fastForward !== undefined) s.fastForward = out.fastForward;
  return s;
}

/** Every bin of every set, labelled "<set title> <bin label>", then each set's outside row. */
export function flatBins(fct: FctSummary): (FctStats & { label: string })[] {
  const out: (FctStats & { label: string })[] = [];
  for (const set of fct.binSets) {
    for (const b of set.bins) out.push({ ...b, label: `${set.title} ${b.label}` });
    out.push({ ...set.outside, label: `${set.title} outside` });
  }
  return out;
}

/**
 * Plain warnings about a run's losses (docs/network-model.md §11.8): packets dropped (by
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
