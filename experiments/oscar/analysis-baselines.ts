/**
 * OSCAR figures about the baselines and the micro-benchmarks (OSCAR §2-3,
 * App. A.2-A.3): Fig. 1/2 (a long flow through a 9-flow microburst), Fig. 3
 * (delay and delay gradient under the scripted oracle), the parking lot and
 * the queue-presence check (App. A.2), RTT fairness (Fig. 13) and spraying
 * with a halved spine link (Fig. 14). Each analysis reads the result files of
 * its points; the measurements are plain functions on the series
 * (`RunSeries`), so tests can apply them to a `simulate` result directly.
 *
 * Normalisations follow the paper: link rate C = 100 Gb/s and base RTT
 * T = 12 us unless a spec says otherwise (the D-OSCAR base RTT adds ~0.2 us of
 * serialization; the difference is below the precision of the claims).
 */
import { firstTime, loadRun, movingAverage, window, type RunSeries, type Series } from '../../src/experiment/results/series.js';
import { registerFigure, sweptCcName, type Cell, type FigureAnalysis, type FigureResult, type FigureTable, type MeasuredClaim, type PointResult } from '../../src/experiment/results/analysis.js';
import { mean } from '../../src/metrics/stats.js';
import { hpccU, measureBurst, tagged } from './burst.js';

const PS = 1e-12;
const US_PS = 1e6;

function label(p: PointResult): string {
  const cc = p.vars['cc'];
  if (typeof cc === 'string') return cc;
  if (cc !== null && typeof cc === 'object' && 'name' in cc) {
    const o = cc as { name: string; params?: Record<string, unknown> };
    const ps = Object.entries(o.params ?? {}).map(([k, v]) => `${k}=${String(v)}`);
    return ps.length > 0 ? `${o.name}(${ps.join(',')})` : o.name;
  }
  return p.label;
}

function ccName(p: PointResult): string {
  return sweptCcName(p) ?? p.label;
}

/** The point's varied fields other than cc, as "path=value ...". */
function otherVars(p: PointResult): string {
  return Object.entries(p.vars)
    .filter(([k]) => k !== 'cc')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;


function burstFigure(id: string, title: string, claimPrefix: string): FigureAnalysis {
  return {
    id,
    paper: 'oscar',
    title,
    analyze(points: readonly PointResult[]): FigureResult {
      const rows: Cell[][] = [];
      const claims: MeasuredClaim[] = [];
      for (const p of points) {
        const m = measureBurst(loadRun(p.dir), 100e9, 12 * US_PS, hpccU(p.dir));
        const name = label(p);
        rows.push([
          name,
          r3(m.burstStartPs / US_PS),
          r3(m.burstEndPs / US_PS),
          r3(m.uPeak),
          r3(m.uAfter),
          r3(m.miDelayRtts),
          r3(m.goodputAlone),
          r3(m.goodputVsFairShare),
          r3(m.aggregateGoodput),
          r3(m.decelUs),
          r3(m.accel50Us),
          r3(m.accelUs),
          r3(m.accelUs / 12),
        ]);
        const c = ccName(p);
        claims.push({ id: `${claimPrefix}.${c}.accel-us`, value: m.accelUs, unit: 'us' });
        claims.push({ id: `${claimPrefix}.${c}.decel-us`, value: m.decelUs, unit: 'us' });
        claims.push({ id: `${claimPrefix}.${c}.goodput-vs-fair-share`, value: m.goodputVsFairShare });
        if (c === 'hpcc') {
          claims.push({ id: `${claimPrefix}.hpcc.u-peak`, value: m.uPeak });
          claims.push({ id: `${claimPrefix}.hpcc.u-after`, value: m.uAfter });
          claims.push({ id: `${claimPrefix}.hpcc.mi-delay-rtts`, value: m.miDelayRtts });
          claims.push({ id: `${claimPrefix}.hpcc.aggregate-goodput`, value: m.aggregateGoodput });
        }
      }
      const table: FigureTable = {
        title,
        columns: ['cc', 'burst from us', 'burst to us', 'U peak', 'U after', 'MI after RTTs', 'alone/C', 'long/fair', 'all/C', 'decel us', 'accel 50% us', 'accel 90% us', 'accel 90% RTTs'],
        rows,
        notes: [
          'U: the long flow\'s U from INT as HPCC computes it per ACK before its EWMA (cc_trace.csv `u_int`) where traced, else txRate/C + q/(C·T) from 1-us samples of the bottleneck, T = 12 us; MI after: underutilisation onset (U < 0.9) to the multiplicative increase',
          'long/fair: the long flow in the second half of the burst vs C/10; all/C: every flow, i.e. the link goodput (footnote 2: 86%)',
          'decel: burst start until the long flow is within 1.2x of its in-burst goodput; accel: burst end until it is back at 50% / 90% of its pre-burst goodput (10-us goodput samples); a linear (O(delta)) ramp takes ~0.5x as long to 50% as to 90%, a multiplicative one much less',
        ],
      };
      return { tables: [table], claims };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Fig. 3: delay and delay gradient under the oracle (bottleneck queue sampled every 1 us)

export interface GradientMeasure {
  burstStartPs: number;
  burstEndPs: number;
  /** peak delay / T in the first 50 us of the burst */
  delayPeak: number;
  /** time from burst start until the delay is 90% of its peak, us */
  delayRiseUs: number;
  /** least-squares gradient over a sliding 5-sample window: max in the first 10 us, min in the 15 us after the end */
  gradOnset: number;
  gradEnd: number;
  /** mean |gradient| while window-bound (30-48 us into the burst, before the reaction at 50 us) */
  gradWindowBound: number;
  /** TIMELY's gradient on the same delay signal (once per RTT, EWMA 0.875, / T): value 10 us into the burst and 15 us after its end */
  timelyOnset: number;
  timelyEnd: number;
  /** time until TIMELY's gradient first reaches half the oracle gradient at onset / end, us */
  timelyLagOnsetUs: number;
  timelyLagEndUs: number;
  /** delay / T series and the two gradients, for plotting */
  delay: Series;
  gradient: Series;
  timely: Series;
}

/** Sliding least-squares slope of (t, y) over `w` samples ending at each sample. */
export function slidingSlope(s: Series, w: number): Series {
  const out: Series = { t: [], v: [] };
  for (let i = w - 1; i < s.t.length; i++) {
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    for (let k = i - w + 1; k <= i; k++) {
      const x = s.t[k]!;
      const y = s.v[k]!;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    const den = w * sxx - sx * sx;
    out.t.push(s.t[i]!);
    out.v.push(den === 0 ? 0 : (w * sxy - sx * sy) / den);
  }
  return out;
}

/**
 * TIMELY's gradient computation (docs/algorithms.md §9.3) applied to a delay
 * signal: one RTT sample per RTT (the next sample one measured RTT later),
 * rttDiff = EWMA(alpha on the new difference), gradient = rttDiff / minRtt.
 */
export function timelyGradient(delayPs: Series, minRttPs: number, alpha = 0.875): Series {
  const out: Series = { t: [], v: [] };
  if (delayPs.t.length === 0) return out;
  const at = (t: number): number => {
    let lo = 0;
    let hi = delayPs.t.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (delayPs.t[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return delayPs.v[lo]!;
  };
  const end = delayPs.t[delayPs.t.length - 1]!;
  let t = delayPs.t[0]!;
  let last = at(t);
  let diff = 0;
  t += last;
  while (t <= end) {
    const d = at(t);
    diff = (1 - alpha) * diff + alpha * (d - last);
    last = d;
    out.t.push(t);
    out.v.push(diff / minRttPs);
    t += d;
  }
  return out;
}

/** Value of a step series at time t (last sample at or before t). */
function valueAt(s: Series, t: number): number {
  let v = NaN;
  for (let i = 0; i < s.t.length && s.t[i]! <= t; i++) v = s.v[i]!;
  return v;
}

export function measureGradient(run: RunSeries, rateBps = 100e9, baseRttPs = 12 * US_PS): GradientMeasure {
  const b = tagged(run, 'short');
  const q = run.queue ?? { t: [], v: [] };
  const T = baseRttPs;
  const delayPs: Series = { t: q.t, v: q.v.map((x) => T + (x * 8) / rateBps / PS) };
  const delay: Series = { t: q.t, v: delayPs.v.map((d) => d / T) };
  const gradient = slidingSlope(delayPs, 5);
  const timely = timelyGradient(delayPs, T);
  const delayPeak = Math.max(...window(delay, b.start, b.start + 50 * US_PS));
  const delayRiseUs = (firstTime(delay, b.start, (v) => v >= 0.9 * delayPeak) - b.start) / US_PS;
  const gradOnset = Math.max(...window(gradient, b.start, b.start + 10 * US_PS));
  const gradEnd = Math.min(...window(gradient, b.end, b.end + 15 * US_PS));
  const wb = window(gradient, b.start + 30 * US_PS, b.start + 48 * US_PS);
  const gradWindowBound = mean(wb.map(Math.abs));
  const timelyOnset = valueAt(timely, b.start + 10 * US_PS);
  const timelyEnd = valueAt(timely, b.end + 15 * US_PS);
  const timelyLagOnsetUs = (firstTime(timely, b.start, (v) => v >= gradOnset / 2) - b.start) / US_PS;
  const timelyLagEndUs = (firstTime(timely, b.end, (v) => v <= gradEnd / 2) - b.end) / US_PS;
  return {
    burstStartPs: b.start,
    burstEndPs: b.end,
    delayPeak,
    delayRiseUs,
    gradOnset,
    gradEnd,
    gradWindowBound,
    timelyOnset,
    timelyEnd,
    timelyLagOnsetUs,
    timelyLagEndUs,
    delay,
    gradient,
    timely,
  };
}

const fig3: FigureAnalysis = {
  id: 'oscar-fig3',
  paper: 'oscar',
  title: 'OSCAR Fig. 3: delay and delay gradient under the oracle CC (1 long + 9 short flows)',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const m = measureGradient(loadRun(p.dir));
      rows.push([
        label(p),
        r3(m.delayPeak),
        r3(m.delayRiseUs),
        r3(m.gradOnset),
        r3(m.gradEnd),
        r3(m.gradWindowBound),
        r3(m.timelyOnset),
        r3(m.timelyEnd),
        r3(m.timelyLagOnsetUs),
        r3(m.timelyLagEndUs),
      ]);
      claims.push(
        { id: 'oscar.fig3.delay-peak-rtt', value: m.delayPeak },
        { id: 'oscar.fig3.gradient-onset', value: m.gradOnset },
        { id: 'oscar.fig3.gradient-end', value: m.gradEnd },
        { id: 'oscar.fig3.gradient-window-bound', value: m.gradWindowBound },
        { id: 'oscar.fig3.timely-lag-end-us', value: m.timelyLagEndUs, unit: 'us' },
      );
    }
    return {
      tables: [
        {
          title: this.title,
          columns: ['cc', 'delay peak /T', 'rise us', 'grad onset', 'grad end', '|grad| window-bound', 'TIMELY +10us', 'TIMELY end+15us', 'TIMELY lag onset us', 'TIMELY lag end us'],
          rows,
          notes: [
            'delay = T + q/C from the bottleneck queue sampled every 1 us; gradient = least-squares slope over 5 samples (the paper uses SWLS)',
            "TIMELY's gradient: its per-RTT EWMA (0.875) of RTT differences / minRTT (= T) on the same delay signal; lag = time to reach half the oracle's gradient",
          ],
        },
      ],
      claims,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// steady shares: parking lot (App. A.2) and RTT fairness (Fig. 13)

/** Mean goodput of each sampled flow over the second half of its samples, bps. */
export function steadyShares(run: RunSeries): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, s] of run.flows) out.set(id, mean(s.v.slice(Math.floor(s.v.length / 2))));
  return out;
}

const parkingLot: FigureAnalysis = {
  id: 'oscar-parking-lot',
  paper: 'oscar',
  title: 'OSCAR App. A.2 parking lot: three long flows, flow 3 crosses both bottlenecks',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const s = steadyShares(loadRun(p.dir));
      const g = [0, 1, 2].map((i) => (s.get(i) ?? NaN) / 1e9);
      const other = otherVars(p);
      rows.push([label(p), other, r3(g[0]!), r3(g[1]!), r3(g[2]!), r3(g[0]! + g[2]!), r3(g[1]! + g[2]!)]);
      const suffix = other === '' ? '' : `.${other.replace(/[^A-Za-z0-9.=-]+/g, '_')}`;
      g.forEach((v, i) => claims.push({ id: `oscar.parking-lot.${ccName(p)}${suffix}.flow${i + 1}-gbps`, value: v, unit: 'Gb/s' }));
      // flow 3's share of a bottleneck: free of the goodput / wire-rate question (published 25 of 98.5 Gb/s)
      claims.push({ id: `oscar.parking-lot.${ccName(p)}${suffix}.flow3-share`, value: g[2]! / (g[0]! + g[2]!) });
    }
    return {
      tables: [
        {
          title: this.title,
          columns: ['cc', 'point', 'flow 1 Gb/s', 'flow 2 Gb/s', 'flow 3 Gb/s', 'bottleneck 1 Gb/s', 'bottleneck 2 Gb/s'],
          rows,
          notes: [
            'goodput (acknowledged payload) over the second half of the run; x 1054/1000 (1096/1000 with INT) for wire rates; published (OSCAR): 73.5 / 73.5 / 25 Gb/s',
          ],
        },
      ],
      claims,
    };
  },
};

const rttFairness: FigureAnalysis = {
  id: 'oscar-fig13',
  paper: 'oscar',
  title: 'OSCAR Fig. 13: RTT fairness, converged throughput ratio long-RTT / short-RTT flow',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const s = steadyShares(loadRun(p.dir));
      const a = s.get(0) ?? NaN;
      const b = s.get(1) ?? NaN;
      const other = otherVars(p);
      rows.push([label(p), other, r3(a / 1e9), r3(b / 1e9), r3(b / a)]);
      claims.push({ id: `oscar.fig13.${ccName(p)}.${other.replace(/[^A-Za-z0-9.=-]+/g, '_')}.ratio`, value: b / a });
    }
    // OSCAR closer to 1 than Swift at each long-RTT point (1 = at every point)
    const byPoint = new Map<string, Map<string, number>>();
    for (const r of rows) {
      const m = byPoint.get(String(r[1])) ?? new Map<string, number>();
      m.set(String(r[0]), Math.abs(Math.log(Number(r[4]))));
      byPoint.set(String(r[1]), m);
    }
    const pairs = [...byPoint.values()].filter((m) => m.has('oscar') && m.has('swift'));
    if (pairs.length > 0) {
      claims.push({ id: 'oscar.fig13.oscar-closer-than-swift', value: pairs.filter((m) => m.get('oscar')! < m.get('swift')!).length / pairs.length });
    }
    return {
      tables: [
        {
          title: this.title,
          columns: ['cc', 'long RTT point', 'short-RTT flow Gb/s', 'long-RTT flow Gb/s', 'ratio long/short'],
          rows,
          notes: ['flow 0 has a 4 us base RTT, flow 1 the varied one; goodput over the second half of the run'],
        },
      ],
      claims,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// queue presence (App. A.2)

/** Fraction of the bottleneck queue samples with a queue (more than `minBytes` waiting). */
export function queuePresence(run: RunSeries, fromPs = 0, toPs = Infinity, minBytes = 0): number {
  const q = run.queue;
  if (q === undefined) return NaN;
  const v = window(q, fromPs, toPs);
  return v.filter((x) => x > minBytes).length / v.length;
}

/** Fraction of the bottleneck throughput samples above `busyFraction` of the rate (link busy). */
export function busyFraction(run: RunSeries, rateBps = 100e9, fromPs = 0, toPs = Infinity): number {
  const l = run.link;
  if (l === undefined) return NaN;
  const v = window(l, fromPs, toPs);
  return v.filter((x) => x > 0.5 * rateBps).length / v.length;
}

const queuePresenceFig: FigureAnalysis = {
  id: 'oscar-queue-presence',
  paper: 'oscar',
  title: 'OSCAR App. A.2: how often the bottleneck has a queue (10:1 star, WebSearch at 80% load)',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const run = loadRun(p.dir);
      const end = run.queue === undefined ? 0 : run.queue.t[run.queue.t.length - 1]!;
      const presence = queuePresence(run, 0, end);
      rows.push([label(p), r3(presence), r3(busyFraction(run, 100e9, 0, end))]);
      claims.push({ id: `oscar.queue-presence.${ccName(p)}`, value: presence });
    }
    return {
      tables: [
        {
          title: this.title,
          columns: ['cc', 'time with a queue', 'time link busy'],
          rows,
          notes: ['published: OSCAR 0.722, DCQCN 0.476 (80% offered load is the bound); queue sampled every 1 us, link busy = >50% of the rate in a 10-us sample'],
        },
      ],
      claims,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Fig. 14: spraying with a halved spine link

export interface FailureMeasure {
  /** aggregate goodput (all sampled flows), Gb/s: the 100 us before the failure, the second half of the failure, the last 500 us */
  before: number;
  during: number;
  after: number;
  /** lowest 50-us average aggregate during the failure / its target (< 1: over-cut) */
  minDuringVsTarget: number;
  /** time from the failure until the 50-us average aggregate is within 10% of its target, us */
  settleFailUs: number;
  /** time from the repair until the 50-us average aggregate, past its post-repair trough, is back at 90% of its pre-failure level, us (NaN: not within the run) */
  recoverUs: number;
  /** lowest 50-us average aggregate 50-300 us after the repair / the pre-failure level */
  troughAfterVsBefore: number;
}

export function measureFailure(run: RunSeries, failPs: number, recoverPs: number, targetDuringBps: number): FailureMeasure {
  const ids = [...run.flows.keys()];
  const first = run.flows.get(ids[0]!);
  const agg: Series = { t: first?.t ?? [], v: (first?.t ?? []).map((_, i) => ids.reduce((s, id) => s + (run.flows.get(id)!.v[i] ?? 0), 0)) };
  const smooth = movingAverage(agg, 5);
  const before = mean(window(agg, failPs - 100 * US_PS, failPs));
  const during = mean(window(agg, (failPs + recoverPs) / 2, recoverPs));
  const endT = agg.t[agg.t.length - 1] ?? recoverPs;
  const after = mean(window(agg, Math.max(recoverPs, endT - 500 * US_PS), endT + 1));
  const minDuring = Math.min(...window(smooth, failPs + 50 * US_PS, recoverPs));
  const settle = firstTime(smooth, failPs, (v) => Math.abs(v - targetDuringBps) <= 0.1 * targetDuringBps);
  // from 50 us after the repair: the 50-us average still holds failure-time samples before that
  const trough = Math.min(...window(smooth, recoverPs + 50 * US_PS, recoverPs + 300 * US_PS));
  const tTrough = firstTime(smooth, recoverPs + 50 * US_PS, (v) => v <= trough);
  const rec = firstTime(smooth, tTrough, (v) => v >= 0.9 * before);
  return {
    before: before / 1e9,
    during: during / 1e9,
    after: after / 1e9,
    minDuringVsTarget: minDuring / targetDuringBps,
    settleFailUs: (settle - failPs) / US_PS,
    recoverUs: (rec - recoverPs) / US_PS,
    troughAfterVsBefore: trough / before,
  };
}

const spraying: FigureAnalysis = {
  id: 'oscar-fig14',
  paper: 'oscar',
  title: 'OSCAR Fig. 14: packet spraying, one spine downlink at 50 Gb/s from 300 to 500 us',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const m = measureFailure(loadRun(p.dir), 300 * US_PS, 500 * US_PS, 200e9);
      rows.push([label(p), r3(m.before), r3(m.during), r3(m.after), r3(m.minDuringVsTarget), r3(m.settleFailUs), r3(m.troughAfterVsBefore), Number.isNaN(m.recoverUs) ? 'not in run' : r3(m.recoverUs)]);
      claims.push({ id: `oscar.fig14.${ccName(p)}.recover-us`, value: m.recoverUs, unit: 'us' }, { id: `oscar.fig14.${ccName(p)}.min-during-vs-target`, value: m.minDuringVsTarget });
    }
    return {
      tables: [
        {
          title: this.title,
          columns: ['cc', 'before Gb/s', 'during Gb/s', 'last 500us Gb/s', 'min during / 200G', 'settle us', 'trough after / before', 'recover us'],
          rows,
          notes: [
            'aggregate goodput of the 4 flows in 10-us samples; with spraying the end-to-end target during the failure is half the aggregate (the paper: 200 Gb/s)',
            'settle: failure until the 50-us average is within 10% of 200 Gb/s; trough: lowest 50-us average in the 300 us after the repair; recover: from that trough until 90% of the pre-failure level',
          ],
        },
      ],
      claims,
    };
  },
};

export const OSCAR_BASELINE_FIGURES: readonly FigureAnalysis[] = [
  burstFigure('oscar-fig1', 'OSCAR Fig. 1: a long flow through a 9-flow microburst (1-5 ms), DCQCN / Poseidon / HPCC', 'oscar.fig1'),
  burstFigure('oscar-fig2', 'OSCAR Fig. 2: HPCC through a 9-flow microburst (0.5-1.5 ms): U from INT and goodput', 'oscar.fig2'),
  fig3,
  parkingLot,
  queuePresenceFig,
  rttFairness,
  spraying,
];

registerFigure(...OSCAR_BASELINE_FIGURES);
