/**
 * SQCC paper figures (experiments/sqcc/): steady-state queue statistics of
 * N:1 incasts on the 10 Gb/s dumbbell, in packets as the paper reports them
 * (one packet = 1000 B payload + headers + 8 B timestamp on the wire).
 * "Steady state" is the second half of each run (the paper does not say how
 * it windows it, docs/experiments.md §6); "oscillation range" is reported
 * as max - min over that window and, less sensitive to single spikes, p95 - p5.
 */
import { mean as meanOf, percentileLinear, sortedCopy } from '../../src/metrics/stats.js';
import { readTable, requireRunManifest } from '../../src/experiment/results/results.js';
import { registerFigure, type Cell, type FigureAnalysis, type FigureResult, type FigureTable, type MeasuredClaim, type PointResult } from '../../src/experiment/results/analysis.js';

export interface QueueStats {
  n: number;
  scheme: string;
  /** packets */
  mean: number;
  sd: number;
  min: number;
  max: number;
  p5: number;
  p95: number;
  /** fraction of samples with an empty queue */
  empty: number;
  /** mean bottleneck throughput / 10 Gb/s in the window */
  util: number;
  /** round-trip propagation delay, us */
  dUs: number;
  /** the sender paced every packet (cc params pacing: packet) instead of segment bursts */
  paced: boolean;
}


/** SQCC §IV's initial δ (10 Mb/s), the error-only scheme's fixed step. */
const SQCC_INITIAL_DELTA_BPS = 10e6;

/** The scheme a point ran, named as the SQCC paper names them. */
export function sqccScheme(cc: { name: string; params: Record<string, unknown> }): string {
  if (cc.name === 'timely-patched') return 'patched TIMELY';
  if (cc.name !== 'sqcc') return cc.name;
  const t = cc.params['tLowMode'] === 'fixed';
  const d = cc.params['deltaMode'] === 'fixed';
  // both fixed: the error function alone at SQCC §IV's δ of 10 Mb/s, or W/O T_low with Table II's constant δ (0.04 Mb/s)
  if (t && d) return cc.params['deltaBps'] === undefined || cc.params['deltaBps'] === SQCC_INITIAL_DELTA_BPS ? 'SQCC error only' : 'SQCC W/O T_low';
  if (t) return 'SQCC W/O T_low';
  if (d) return 'SQCC W/O delta';
  return 'SQCC';
}

/** Steady-state queue statistics of one point (second half of the run). */
export function queueStats(dir: string): QueueStats {
  const m = requireRunManifest(dir);
  const t = m.resolved.net.transport;
  const pkt = t.mtuBytes + t.dataHeaderBytes + 8;
  const end = m.resolved.stopAtPs ?? Infinity;
  const from = end / 2;
  const q = (readTable(dir, 'queues') ?? []).filter((r) => Number(r['t_ps']) >= from).map((r) => Number(r['bytes']) / pkt);
  const tp = (readTable(dir, 'throughput') ?? []).filter((r) => Number(r['t_ps']) >= from).map((r) => Number(r['bps']));
  const mean = meanOf(q);
  const sd = Math.sqrt(q.reduce((a, b) => a + (b - mean) ** 2, 0) / q.length);
  const sorted = sortedCopy(q);
  const topo = m.spec.topology;
  const delayPs = Number(('delay' in topo ? topo.delay : undefined) ?? NaN);
  return {
    n: m.resolved.flows,
    scheme: sqccScheme(m.resolved.cc),
    mean,
    sd,
    min: sorted[0] ?? NaN,
    max: sorted.at(-1) ?? NaN,
    p5: percentileLinear(sorted, 5),
    p95: percentileLinear(sorted, 95),
    empty: q.filter((x) => x < 1).length / q.length,
    util: meanOf(tp) / 10e9,
    // 3 links (host - A - B - receiver), both directions
    dUs: (6 * delayPs) / 1e6,
    paced: m.resolved.cc.params['pacing'] === 'packet',
  };
}

const r1 = (x: number): number => Math.round(x * 10) / 10;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function statsTable(title: string, stats: QueueStats[], notes: string[]): FigureTable {
  return {
    title,
    columns: ['N', 'scheme', 'mean queue (pkt)', 'sd (pkt)', 'max-min (pkt)', 'p95-p5 (pkt)', 'empty', 'utilisation'],
    rows: stats.map((s): Cell[] => [s.n, s.scheme, r1(s.mean), r1(s.sd), r1(s.max - s.min), r1(s.p95 - s.p5), r3(s.empty), r3(s.util)]),
    notes,
  };
}

/** Claim id root: `sqcc`, or `sqcc-paced` for the per-packet-paced sensitivity runs. */
const root = (stats: QueueStats[]): string => (stats.some((s) => s.paced) ? 'sqcc-paced' : 'sqcc');

const sortStats = (points: readonly PointResult[]): QueueStats[] => points.map((p) => queueStats(p.dir)).sort((a, b) => a.n - b.n || a.scheme.localeCompare(b.scheme));
const find = (s: QueueStats[], n: number, scheme: string): QueueStats | undefined => s.find((x) => x.n === n && x.scheme === scheme);

const WINDOW_NOTE = 'steady state = second half of each run; queue sampled every 10 us at the A->B egress; 1 pkt = 1056 B on the wire';

/** Patched TIMELY's fixed point (SQCC Eq. 6): q* = q' + N·δ·q'/(βC), q' = C·(RTT_ref - D), in packets. */
export function timelyFixedPointPkts(n: number, dUs: number, pkt = 1056, C = 10e9, delta = 10e6, beta = 0.008, rttRefUs = 50): number {
  const qp = (C * (rttRefUs - dUs) * 1e-6) / 8;
  return (qp + (n * delta * qp) / (beta * C)) / pkt;
}

const theory: FigureAnalysis = {
  id: 'sqcc-theory',
  paper: 'sqcc',
  title: 'SQCC §II-B: patched TIMELY stable queue vs N against its fixed point; breakdown near N = 60-80',
  analyze(points): FigureResult {
    const stats = sortStats(points);
    const qHighPkts = (d: number): number => (10e9 * (500 - d) * 1e-6) / 8 / 1056;
    const rows: Cell[][] = stats.map((s) => {
      const q = timelyFixedPointPkts(s.n, s.dUs);
      const stable = s.mean < qHighPkts(s.dUs);
      return [s.n, r1(s.dUs), r1(q), r1(s.mean), r1(s.sd), r1(s.max), stable ? 'yes' : 'no'];
    });
    const unstable = stats.filter((s) => !(s.mean < qHighPkts(s.dUs))).map((s) => s.n);
    const claims: MeasuredClaim[] = [];
    if (unstable.length > 0) claims.push({ id: 'sqcc.theory.first-unstable-n', value: Math.min(...unstable) });
    for (const s of stats) claims.push({ id: `sqcc.theory.n${s.n}.queue-over-fixed-point`, value: r3(s.mean / timelyFixedPointPkts(s.n, s.dUs)) });
    return {
      tables: [
        {
          title: 'patched TIMELY: steady queue vs the fixed point q* = q\' + N·δ·q\'/(βC)',
          columns: ['N', 'D (us)', 'q* theory (pkt)', 'mean queue (pkt)', 'sd (pkt)', 'max (pkt)', 'stable (mean < q_high)'],
          rows,
          notes: [WINDOW_NOTE, 'q_high = C·(T_high - D); the paper: q* reaches q_high at N >= 80 in theory, no stable state from N ~ 60 in simulation'],
        },
      ],
      claims,
    };
  },
};

/** Claim-id form of a scheme name: sqcc, error-only, w-o-t-low, ... */
const schemeKey = (s: QueueStats): string => (s.scheme === 'SQCC' ? 'sqcc' : s.scheme.replace(/^SQCC /, '').replace(/[^A-Za-z0-9]+/g, '-').toLowerCase());

/** Reduction of `b` relative to `a`, percent: (a - b)/a. */
const cut = (a: number, b: number): number => (100 * (a - b)) / a;

const fig1: FigureAnalysis = {
  id: 'sqcc-fig1',
  paper: 'sqcc',
  title: 'SQCC Fig 1: error function only vs patched TIMELY, 2/40/60:1',
  analyze(points): FigureResult {
    const stats = sortStats(points);
    const claims: MeasuredClaim[] = [];
    const rows: Cell[][] = [];
    for (const n of [...new Set(stats.map((s) => s.n))]) {
      const a = find(stats, n, 'patched TIMELY');
      const b = find(stats, n, 'SQCC error only');
      if (a === undefined || b === undefined) continue;
      rows.push([n, r1(a.mean), r1(b.mean), r1(cut(a.mean, b.mean)), r1(a.max - a.min), r1(b.max - b.min)]);
      claims.push({ id: `${root(stats)}.fig1.n${n}.queue-reduction`, value: r1(cut(a.mean, b.mean)), unit: '%' });
    }
    return {
      tables: [
        statsTable('steady-state queue per point', stats, [WINDOW_NOTE]),
        { title: 'average stable queue, SQCC (error function only) vs patched TIMELY', columns: ['N', 'patched TIMELY (pkt)', 'SQCC error only (pkt)', 'reduction %', 'TIMELY max-min', 'SQCC max-min'], rows },
      ],
      claims,
    };
  },
};

/** Fig 2 and Table II / Fig 3 share one comparison: schemes against the error-only baseline. */
function versusErrorOnly(id: string, label: string, stats: QueueStats[]): { table: FigureTable; claims: MeasuredClaim[] } {
  const rows: Cell[][] = [];
  const claims: MeasuredClaim[] = [];
  for (const s of stats) {
    const base = find(stats, s.n, 'SQCC error only');
    if (base === undefined || s === base) continue;
    rows.push([s.n, s.scheme, r1(base.mean), r1(s.mean), r1(cut(base.mean, s.mean)), r1(base.max - base.min), r1(s.max - s.min), r1(cut(base.max - base.min, s.max - s.min))]);
    const key = schemeKey(s);
    claims.push({ id: `${id}.n${s.n}.${key}.queue-reduction`, value: r1(cut(base.mean, s.mean)), unit: '%' });
    claims.push({ id: `${id}.n${s.n}.${key}.range-reduction`, value: r1(cut(base.max - base.min, s.max - s.min)), unit: '%' });
  }
  return {
    table: {
      title: label,
      columns: ['N', 'scheme', 'error-only mean (pkt)', 'mean (pkt)', 'queue reduction %', 'error-only max-min', 'max-min', 'range reduction %'],
      rows,
    },
    claims,
  };
}

const fig2: FigureAnalysis = {
  id: 'sqcc-fig2',
  paper: 'sqcc',
  title: 'SQCC Fig 2: adapting delta (6.25 Mb/s at 40:1, 2.7 Mb/s at 60:1) on top of the error function',
  analyze(points): FigureResult {
    const stats = sortStats(points);
    const v = versusErrorOnly(`${root(stats)}.fig2`, 'delta adaptation vs error function only', stats);
    return { tables: [statsTable('steady-state queue per point', stats, [WINDOW_NOTE]), v.table], claims: v.claims };
  },
};

const table2: FigureAnalysis = {
  id: 'sqcc-table2',
  paper: 'sqcc',
  title: 'SQCC Fig 3 / Table II: 500:1 incast, error only / W/O T_low / SQCC',
  analyze(points): FigureResult {
    const stats = sortStats(points);
    const claims: MeasuredClaim[] = [];
    for (const s of stats) {
      const key = schemeKey(s);
      claims.push({ id: `${root(stats)}.table2.${key}.mean`, value: r1(s.mean), unit: 'pkt' });
      claims.push({ id: `${root(stats)}.table2.${key}.sd`, value: r1(s.sd), unit: 'pkt' });
      claims.push({ id: `${root(stats)}.table2.${key}.empty`, value: r3(s.empty) });
    }
    return { tables: [statsTable('Table II: average queue and standard deviation at steady state', stats, [WINDOW_NOTE])], claims };
  },
};

const fig4: FigureAnalysis = {
  id: 'sqcc-fig4',
  paper: 'sqcc',
  title: 'SQCC Fig 4: full SQCC at 60/100/500/1000:1 (stable queue 100-200 pkt, oscillation 1-25 pkt)',
  analyze(points): FigureResult {
    const stats = sortStats(points);
    const claims: MeasuredClaim[] = [];
    for (const s of stats) {
      claims.push({ id: `${root(stats)}.fig4.n${s.n}.mean`, value: r1(s.mean), unit: 'pkt' });
      claims.push({ id: `${root(stats)}.fig4.n${s.n}.range`, value: r1(s.max - s.min), unit: 'pkt' });
      claims.push({ id: `${root(stats)}.fig4.n${s.n}.utilisation`, value: r3(s.util) });
    }
    return { tables: [statsTable('full SQCC, steady-state queue', stats, [WINDOW_NOTE])], claims };
  },
};

export const SQCC_FIGURES: readonly FigureAnalysis[] = [theory, fig1, fig2, table2, fig4];

registerFigure(...SQCC_FIGURES);
