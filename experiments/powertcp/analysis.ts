/**
 * PowerTCP (NSDI'22) figure analyses, §4.2: Fig. 4 (incast reaction: throughput and
 * buffer at the bottleneck), Fig. 5 (fairness as flows arrive and leave), Fig. 6 / 7a / 7b
 * (99.9th-percentile FCT per size bucket against load), Fig. 7g / 7h (CDF of the ToR
 * buffer samples of docs/network-model.md §13.3) and Fig. 7c-f (tails under query bursts).
 *
 * "X cuts the tail FCT by g % compared to Y" is g = (Y - X) / Y of the 99.9th-percentile
 * FCT (negative g: X is worse). Size buckets as PT §4.2: short < 10 KB, medium
 * 100 KB - 1 MB, long > 1 MB. The measurements are plain functions on the series, so
 * tests apply them to `simulate` results directly.
 */
import type { SimOutput } from '../../src/metrics/types.js';
import { jainIndex, percentileLinear, sortedCopy } from '../../src/metrics/stats.js';
import { parseBytes } from '../../src/engine/units.js';
import { readFctRecords, readRunManifest, readRunSummary, readTable, type FctRecord } from '../../src/experiment/results/results.js';
import { loadRun, runSeries, type RunSeries, type Series } from '../../src/experiment/results/series.js';

/**
 * The fields of a spec's `flows` and `incast` workload entries read here, as the manifest records
 * them (workload/flows.ts and workload/incast.ts define the entries; an analysis reads the result
 * files, not the simulator's types).
 */
interface FlowsEntry {
  type: 'flows';
  flows: { start: number; tag?: string }[];
}
interface IncastEntry {
  type: 'incast';
  at?: number[];
}
import { registerFigure, sweptCcName, type Cell, type FigureAnalysis, type FigureTable, type MeasuredClaim, type PointResult } from '../../src/experiment/results/analysis.js';

const US_PS = 1e6;
/** host link rate of the PowerTCP trees */
const HOST_BPS = 25e9;

// ---------------------------------------------------------------------------------------------
// point helpers

function ccOf(p: PointResult): { name: string; label: string } {
  const name = sweptCcName(p) ?? p.label;
  return { name, label: name };
}

/** A swept number, or a swept size written with its unit (`requestSize: 2MB`) in bytes. */
function varOf(p: PointResult, suffix: string): number | undefined {
  for (const [k, v] of Object.entries(p.vars)) {
    if (!k.endsWith(suffix)) continue;
    if (typeof v === 'number') return v;
    if (typeof v === 'string') {
      try {
        return parseBytes(v);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const r1 = (x: number): number => Math.round(x * 10) / 10;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** g = (other - mine) / other in %, or NaN. */
export function gainPct(mine: number, other: number): number {
  return other > 0 && Number.isFinite(mine) ? ((other - mine) / other) * 100 : NaN;
}

function pushClaim(claims: MeasuredClaim[], id: string, value: number, unit?: string): void {
  if (Number.isFinite(value)) claims.push(unit === undefined ? { id, value } : { id, value, unit });
}

// ---------------------------------------------------------------------------------------------
// Fig. 4: incast reaction

export interface IncastMeasure {
  /** queue peak after the incast, bytes */
  peakBytes: number;
  /** us from the incast until the queue first falls below 10 KB after its peak (NaN: never) */
  drainUs: number;
  /** mean queue over the last half of the run after the incast, bytes */
  queueAfterBytes: number;
  /** lowest link utilisation in 50-us bins from the incast to the end */
  minUtilAfter: number;
  /** mean link utilisation from the incast to the end */
  meanUtilAfter: number;
  /** link utilisation before the incast (lone flow), mean over the last 200 us */
  utilBefore: number;
}

/** Time of the incast: the latest start among flows tagged incast/query (else the second flow start). */
function incastTime(run: RunSeries): number {
  const tagged = run.fct.filter((r) => r.tag === 'incast' || r.tag === 'query').map((r) => r.startPs);
  if (tagged.length > 0) return Math.min(...tagged);
  const starts = [...new Set(run.fct.map((r) => r.startPs))].sort((a, b) => a - b);
  return starts[1] ?? starts[0] ?? 0;
}

function binMeans(s: Series, fromPs: number, binPs: number): number[] {
  const bins: number[][] = [];
  for (let i = 0; i < s.t.length; i++) {
    if (s.t[i]! <= fromPs) continue;
    const k = Math.floor((s.t[i]! - fromPs - 1) / binPs);
    (bins[k] ??= []).push(s.v[i]!);
  }
  return bins.filter((b) => b !== undefined && b.length > 0).map((b) => b.reduce((a, x) => a + x, 0) / b.length);
}

/**
 * Measures a Fig. 4 run: queue and throughput series of the bottleneck port, the incast
 * instant `atPs`. Throughput bins shorter than the run's last full bin are dropped.
 */
export function measureIncast(run: RunSeries, atPs: number, rateBps = HOST_BPS): IncastMeasure {
  const q = run.queue ?? { t: [], v: [] };
  const link = run.link ?? { t: [], v: [] };
  let peak = 0;
  let peakAt = atPs;
  for (let i = 0; i < q.t.length; i++) if (q.t[i]! >= atPs && q.v[i]! > peak) [peak, peakAt] = [q.v[i]!, q.t[i]!];
  let drain = NaN;
  for (let i = 0; i < q.t.length; i++) {
    if (q.t[i]! >= peakAt && q.v[i]! < 10_000) {
      drain = (q.t[i]! - atPs) / US_PS;
      break;
    }
  }
  const end = q.t.length > 0 ? q.t[q.t.length - 1]! : atPs;
  const half = atPs + (end - atPs) / 2;
  const tail = q.v.filter((_, i) => q.t[i]! >= half);
  const util = binMeans(link, atPs, 50 * US_PS).map((x) => x / rateBps);
  const full = util.length > 1 ? util.slice(0, -1) : util;
  const before = link.v.filter((_, i) => link.t[i]! <= atPs && link.t[i]! > atPs - 200 * US_PS);
  const after = link.v.filter((_, i) => link.t[i]! > atPs);
  return {
    peakBytes: peak,
    drainUs: drain,
    queueAfterBytes: tail.length > 0 ? tail.reduce((a, x) => a + x, 0) / tail.length : NaN,
    minUtilAfter: full.length > 0 ? Math.min(...full) : NaN,
    meanUtilAfter: after.length > 0 ? after.reduce((a, x) => a + x, 0) / after.length / rateBps : NaN,
    utilBefore: before.length > 0 ? before.reduce((a, x) => a + x, 0) / before.length / rateBps : NaN,
  };
}

/** The same on an in-memory result. */
export function measureIncastOutput(out: SimOutput, atPs: number, rateBps = HOST_BPS): IncastMeasure {
  return measureIncast(runSeries(out), atPs, rateBps);
}

const fig4: FigureAnalysis = {
  id: 'powertcp-fig4',
  paper: 'powertcp',
  title: 'PowerTCP Fig. 4: buffer and throughput at the bottleneck through an incast',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    const by = new Map<string, IncastMeasure>();
    // the bottom row (10:1 + 255:1) has an incast entry besides the 10:1 flows
    const row = points.some((p) => hasIncastEntry(p.dir)) ? 'fig4-255' : 'fig4-10';
    for (const p of points) {
      const run = loadRun(p.dir);
      const unfinished = readUnfinished(p.dir);
      const at = run.fct.length > 0 ? incastTime(run) : incastTimeFromSpec(p.dir);
      const m = measureIncast(run, at);
      const cc = ccOf(p).name;
      by.set(cc, m);
      rows.push([cc, r1(m.peakBytes / 1000), r1(m.drainUs), r1(m.queueAfterBytes / 1000), r3(m.utilBefore), r3(m.minUtilAfter), r3(m.meanUtilAfter), readDrops(p.dir), unfinished]);
      pushClaim(claims, `${row}.${cc}.peak-kb`, m.peakBytes / 1000, 'KB');
      pushClaim(claims, `${row}.${cc}.queue-after-kb`, m.queueAfterBytes / 1000, 'KB');
      pushClaim(claims, `${row}.${cc}.min-util-after`, m.minUtilAfter);
    }
    const pt = by.get('powertcp');
    const hp = by.get('hpcc');
    if (pt !== undefined && hp !== undefined) pushClaim(claims, `${row}.hpcc-vs-powertcp.peak-ratio`, hp.peakBytes / pt.peakBytes);
    const ho = by.get('homa');
    if (pt !== undefined && ho !== undefined) pushClaim(claims, `${row}.homa-minus-powertcp.peak-kb`, (ho.peakBytes - pt.peakBytes) / 1000, 'KB');
    return {
      tables: [
        {
          title: 'Bottleneck (ToR port to the receiver) through the incast',
          columns: ['cc', 'peak KB', 'drain <10KB us', 'queue 2nd half KB', 'util before', 'min util (50us) after', 'mean util after', 'drops', 'unfinished'],
          rows,
          notes: ['paper: PowerTCP near-zero queue without losing throughput; HPCC ~2x PowerTCP\'s buffer and loses throughput after the incast'],
        },
      ],
      claims,
    };
  },
};

export function readDrops(dir: string): number | null {
  const s = readRunSummary(dir);
  return s?.totals?.drops ?? null;
}

function readUnfinished(dir: string): number | null {
  const s = readRunSummary(dir);
  return s?.unfinished ?? null;
}

function hasIncastEntry(dir: string): boolean {
  const m = readRunManifest(dir);
  return (m?.spec?.workload ?? []).some((w) => w.type === 'incast');
}

/** With infinite flows nothing finishes: the incast instant comes from the spec's flows. */
export function incastTimeFromSpec(dir: string): number {
  const m = readRunManifest(dir);
  let best = Infinity;
  for (const w of m?.spec?.workload ?? []) {
    if (w.type === 'flows') for (const f of (w['flows'] as FlowsEntry['flows'])) if (f.tag === 'incast' || f.tag === 'query') best = Math.min(best, f.start);
    if (w.type === 'incast') for (const t of (w['at'] as IncastEntry['at']) ?? []) best = Math.min(best, t);
  }
  return Number.isFinite(best) ? best : 0;
}

// ---------------------------------------------------------------------------------------------
// Fig. 5: fairness as flows arrive and leave

export interface FairnessPhase {
  fromPs: number;
  toPs: number;
  active: number;
  /** Jain index of the active flows' goodput over the second half of the phase */
  jain: number;
  /** sum of their goodput / link rate over the second half */
  util: number;
  /** us from the phase start until the Jain index (per sample) first reaches 0.95 (NaN: never) */
  convergeUs: number;
}

/** Jain index of goodput shares; NaN (not 1) when no flow moved a byte (see JainOptions). */
const jain = (x: readonly number[]): number => jainIndex(x, { allZero: NaN });

/**
 * Phases between flow arrivals and departures (from the flows' start and finish times;
 * flows not finished count as running to the end). `flows` maps flow id to its goodput.
 */
export function measureFairness(run: RunSeries, starts: ReadonlyMap<number, number>, endPs: number, rateBps = HOST_BPS): FairnessPhase[] {
  const finish = new Map<number, number>();
  for (const r of run.fct) finish.set(r.id, r.finishPs);
  const edges = new Set<number>([endPs]);
  for (const [id, s] of starts) {
    edges.add(s);
    const f = finish.get(id);
    if (f !== undefined) edges.add(f);
  }
  const times = [...edges].filter((t) => t <= endPs).sort((a, b) => a - b);
  const phases: FairnessPhase[] = [];
  for (let k = 0; k + 1 < times.length; k++) {
    const from = times[k]!;
    const to = times[k + 1]!;
    if (to - from < 100 * US_PS) continue;
    const active = [...starts.keys()].filter((id) => starts.get(id)! <= from && (finish.get(id) ?? Infinity) >= to);
    if (active.length === 0) continue;
    const mid = from + (to - from) / 2;
    const means: number[] = [];
    for (const id of active) {
      const s = run.flows.get(id);
      const w = s === undefined ? [] : s.v.filter((_, i) => s.t[i]! > mid && s.t[i]! <= to);
      means.push(w.length > 0 ? w.reduce((a, x) => a + x, 0) / w.length : 0);
    }
    let converge = NaN;
    const ref = run.flows.get(active[0]!);
    if (ref !== undefined) {
      for (let i = 0; i < ref.t.length; i++) {
        const t = ref.t[i]!;
        if (t <= from || t > to) continue;
        const xs = active.map((id) => {
          const s = run.flows.get(id)!;
          const j = s.t.indexOf(t);
          return j >= 0 ? s.v[j]! : 0;
        });
        if (jain(xs) >= 0.95) {
          converge = (t - from) / US_PS;
          break;
        }
      }
    }
    phases.push({ fromPs: from, toPs: to, active: active.length, jain: jain(means), util: means.reduce((a, x) => a + x, 0) / rateBps, convergeUs: converge });
  }
  return phases;
}

export function flowStarts(dir: string): Map<number, number> {
  const m = readRunManifest(dir);
  const starts = new Map<number, number>();
  // flow ids are start-time order, ties in listing order (resolve.ts)
  const list: number[] = [];
  for (const w of m?.spec?.workload ?? []) if (w.type === 'flows') for (const f of (w['flows'] as FlowsEntry['flows'])) list.push(f.start);
  list
    .map((s, k) => ({ s, k }))
    .sort((a, b) => a.s - b.s || a.k - b.k)
    .forEach((x, id) => starts.set(id, x.s));
  return starts;
}

const fig5: FigureAnalysis = {
  id: 'powertcp-fig5',
  paper: 'powertcp',
  title: 'PowerTCP Fig. 5: bandwidth shares as flows arrive and leave',
  analyze(points) {
    const tables: FigureTable[] = [];
    const claims: MeasuredClaim[] = [];
    const summary: Cell[][] = [];
    for (const p of points) {
      const run = loadRun(p.dir);
      const s = readRunSummary(p.dir);
      const phases = measureFairness(run, flowStarts(p.dir), s?.endPs ?? Infinity);
      const cc = ccOf(p).name;
      tables.push({
        title: `${cc}: phases`,
        columns: ['from ms', 'to ms', 'flows', 'Jain (2nd half)', 'goodput/C (2nd half)', 'Jain >= 0.95 after us'],
        rows: phases.map((ph) => [r3(ph.fromPs / 1e9), r3(ph.toPs / 1e9), ph.active, r3(ph.jain), r3(ph.util), r1(ph.convergeUs)]),
      });
      const multi = phases.filter((ph) => ph.active > 1);
      const minJain = multi.length > 0 ? Math.min(...multi.map((ph) => ph.jain)) : NaN;
      const conv = multi.map((ph) => ph.convergeUs);
      const maxConv = conv.length > 0 && conv.every(Number.isFinite) ? Math.max(...conv) : NaN;
      const minUtil = phases.length > 0 ? Math.min(...phases.map((ph) => ph.util)) : NaN;
      summary.push([cc, r3(minJain), r1(maxConv), r3(minUtil)]);
      pushClaim(claims, `fig5.${cc}.min-jain`, minJain);
      pushClaim(claims, `fig5.${cc}.max-converge-us`, maxConv, 'us');
      pushClaim(claims, `fig5.${cc}.min-util`, minUtil);
    }
    tables.unshift({
      title: 'Fairness summary (phases with more than one flow)',
      columns: ['cc', 'min Jain', 'slowest convergence to Jain 0.95, us (- = never)', 'min goodput/C'],
      rows: summary,
      notes: ['paper: PowerTCP "stabilizes to a fair share of bandwidth quickly, both when flows arrive and leave" (qualitative)'],
    });
    return { tables, claims };
  },
};

// ---------------------------------------------------------------------------------------------
// Fig. 6 / 7: tail FCT per size bucket, ToR buffer CDF

export const PT_BUCKETS = [
  { label: 'short', min: 0, max: 10_000 },
  { label: 'medium', min: 100_000, max: 1_000_000 },
  { label: 'long', min: 1_000_000, max: Infinity },
] as const;
export type BucketLabel = (typeof PT_BUCKETS)[number]['label'];

/** The fct columns tailByBucket reads. */
export type FctRowLite = Pick<FctRecord, 'bytes' | 'fctPs' | 'tag'>;

export interface TailStats {
  count: number;
  p999Us: number;
}

/** 99.9th-percentile FCT (us) per bucket of the flows whose tag is `tag` (all flows if undefined). */
export function tailByBucket(rows: readonly FctRowLite[], tag?: string): Record<BucketLabel, TailStats> {
  const out = {} as Record<BucketLabel, TailStats>;
  for (const b of PT_BUCKETS) {
    const sel = rows.filter((r) => (tag === undefined || r.tag === tag) && r.bytes > b.min && (b.label === 'short' ? r.bytes < b.max : r.bytes <= b.max));
    const v = sortedCopy(sel.map((r) => r.fctPs));
    out[b.label] = { count: sel.length, p999Us: percentileLinear(v, 99.9) / US_PS };
  }
  return out;
}

/** Samples of switch_buffer.csv (max-of-block total egress bytes), all sampled switches. */
function bufferSamples(dir: string): number[] {
  return (readTable(dir, 'switch_buffer') ?? []).map((r) => Number(r['max_bytes']));
}

export function bufferPercentile(samples: readonly number[], p: number): number {
  return percentileLinear(sortedCopy(samples), p);
}

interface TailPoint {
  cc: string;
  x: number;
  tails: Record<BucketLabel, TailStats>;
  buf: number[];
  unfinished: number | null;
  drops: number | null;
}

function tailPoints(points: readonly PointResult[], xSuffix: string): TailPoint[] {
  return points.map((p) => ({
    cc: ccOf(p).name,
    x: varOf(p, xSuffix) ?? NaN,
    tails: tailByBucket(readFctRecords(p.dir), 'background'),
    buf: bufferSamples(p.dir),
    unfinished: readUnfinished(p.dir),
    drops: readDrops(p.dir),
  }));
}

function tailTable(title: string, xName: string, pts: readonly TailPoint[]): FigureTable {
  return {
    title,
    columns: ['cc', xName, 'short n', 'short p99.9 us', 'medium n', 'medium p99.9 us', 'long n', 'long p99.9 us', 'buffer p99 KB', 'drops', 'unfinished'],
    rows: pts.map((t) => [
      t.cc,
      t.x,
      t.tails.short.count,
      r1(t.tails.short.p999Us),
      t.tails.medium.count,
      r1(t.tails.medium.p999Us),
      t.tails.long.count,
      r1(t.tails.long.p999Us),
      t.buf.length > 0 ? r1(bufferPercentile(t.buf, 99) / 1000) : null,
      t.drops,
      t.unfinished,
    ]),
    notes: ['99.9th-percentile FCT of background (WebSearch) flows per PowerTCP bucket: short < 10 KB, medium 100 KB-1 MB, long > 1 MB'],
  };
}

function find(pts: readonly TailPoint[], cc: string, x: number): TailPoint | undefined {
  return pts.find((t) => t.cc === cc && Math.abs(t.x - x) < 1e-9);
}

/**
 * A "mean over loads / rates / sizes" claim needs this many swept values: with fewer
 * (a single finished point, or a partial sweep) the mean would stand for one or two
 * points and be compared with a published average over the whole range.
 */
const MIN_POINTS_FOR_MEAN = 3;

/** Gains of `cc` over `other` in bucket b at x, and their mean over all x present for both. */
function gains(pts: readonly TailPoint[], cc: string, other: string, b: BucketLabel): { at: Map<number, number>; mean: number } {
  const at = new Map<number, number>();
  for (const t of pts) {
    if (t.cc !== cc) continue;
    const o = find(pts, other, t.x);
    if (o === undefined) continue;
    const g = gainPct(t.tails[b].p999Us, o.tails[b].p999Us);
    if (Number.isFinite(g)) at.set(t.x, g);
  }
  const vs = [...at.values()];
  return { at, mean: vs.length > 0 ? vs.reduce((a, x) => a + x, 0) / vs.length : NaN };
}

function bufferGain(pts: readonly TailPoint[], cc: string, other: string, x: number, p: number): number {
  const a = find(pts, cc, x);
  const b = find(pts, other, x);
  if (a === undefined || b === undefined || a.buf.length === 0 || b.buf.length === 0) return NaN;
  return gainPct(bufferPercentile(a.buf, p), bufferPercentile(b.buf, p));
}

const CCS = ['powertcp', 'theta-powertcp'] as const;
const OTHERS = ['hpcc', 'timely', 'dcqcn', 'homa'] as const;

function gainTable(title: string, xName: string, pts: readonly TailPoint[]): FigureTable {
  const xs = [...new Set(pts.map((t) => t.x))].sort((a, b) => a - b);
  const rows: Cell[][] = [];
  for (const cc of CCS) {
    for (const o of OTHERS) {
      for (const b of ['short', 'medium', 'long'] as const) {
        const g = gains(pts, cc, o, b);
        if (g.at.size === 0) continue;
        rows.push([`${cc} vs ${o}`, b, ...xs.map((x) => (g.at.has(x) ? r1(g.at.get(x)!) : null)), r1(g.mean)]);
      }
    }
  }
  const notes = ['g = (other - cc) / other of the p99.9 FCT, %; negative: cc is worse'];
  if (xs.length < MIN_POINTS_FOR_MEAN) notes.push(`mean over ${xs.length} ${xName} value${xs.length === 1 ? '' : 's'} only: not compared with the published averages (needs ${MIN_POINTS_FOR_MEAN})`);
  return { title, columns: ['pair', 'bucket', ...xs.map((x) => `${xName}=${x}`), 'mean'], rows, notes };
}

const fig67ab: FigureAnalysis = {
  id: 'powertcp-fig6-7ab',
  paper: 'powertcp',
  title: 'PowerTCP Fig. 6, 7a, 7b, 7g: tail FCT per size bucket against WebSearch load; ToR buffer at 80%',
  analyze(points) {
    const pts = tailPoints(points, 'load');
    const claims: MeasuredClaim[] = [];
    for (const cc of CCS) {
      for (const o of OTHERS) {
        for (const b of ['short', 'medium', 'long'] as const) {
          const g = gains(pts, cc, o, b);
          for (const [x, v] of g.at) pushClaim(claims, `fig6-7.${cc}-vs-${o}.${b}.load${x}`, v, '%');
          if (g.at.size >= MIN_POINTS_FOR_MEAN) pushClaim(claims, `fig7.${cc}-vs-${o}.${b}.mean`, g.mean, '%');
        }
      }
      pushClaim(claims, `fig7g.${cc}-vs-hpcc.buffer-p99.load0.8`, bufferGain(pts, cc, 'hpcc', 0.8, 99), '%');
    }
    return {
      tables: [tailTable('99.9th-percentile FCT per bucket', 'load', pts), gainTable('Tail-FCT gains', 'load', pts)],
      claims,
    };
  },
};

const fig7cf: FigureAnalysis = {
  id: 'powertcp-fig7cdh',
  paper: 'powertcp',
  title: 'PowerTCP Fig. 7c, 7d, 7h: 80% WebSearch plus 2 MB queries at 1-16 requests/s per server',
  analyze(points) {
    const pts = tailPoints(points, 'requestRate');
    const claims: MeasuredClaim[] = [];
    for (const cc of CCS) {
      for (const b of ['short', 'long'] as const) {
        const g = gains(pts, cc, 'hpcc', b);
        for (const [x, v] of g.at) pushClaim(claims, `fig7cd.${cc}-vs-hpcc.${b}.rate${x}`, v, '%');
        if (g.at.size >= MIN_POINTS_FOR_MEAN) pushClaim(claims, `fig7cd.${cc}-vs-hpcc.${b}.mean`, g.mean, '%');
      }
      pushClaim(claims, `fig7h.${cc}-vs-hpcc.buffer-p99.rate16`, bufferGain(pts, cc, 'hpcc', 16, 99), '%');
    }
    return { tables: [tailTable('99.9th-percentile FCT per bucket', 'req/s', pts), gainTable('Tail-FCT gains over HPCC', 'rate', pts)], claims };
  },
};

const fig7ef: FigureAnalysis = {
  id: 'powertcp-fig7ef',
  paper: 'powertcp',
  title: 'PowerTCP Fig. 7e, 7f: 80% WebSearch plus queries of 1-8 MB at 4 requests/s per server',
  analyze(points) {
    const pts = tailPoints(points, 'requestSize');
    const claims: MeasuredClaim[] = [];
    for (const cc of CCS) {
      for (const b of ['short', 'long'] as const) {
        const g = gains(pts, cc, 'hpcc', b);
        for (const [x, v] of g.at) pushClaim(claims, `fig7ef.${cc}-vs-hpcc.${b}.size${x}`, v, '%');
        if (g.at.size >= MIN_POINTS_FOR_MEAN) pushClaim(claims, `fig7ef.${cc}-vs-hpcc.${b}.mean`, g.mean, '%');
      }
    }
    return { tables: [tailTable('99.9th-percentile FCT per bucket', 'request bytes', pts), gainTable('Tail-FCT gains over HPCC', 'size', pts)], claims };
  },
};

export const POWERTCP_FIGURES: readonly FigureAnalysis[] = [fig4, fig5, fig67ab, fig7cf, fig7ef];

registerFigure(...POWERTCP_FIGURES);
