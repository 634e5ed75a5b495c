/**
 * OSCAR Fig. 1 / Fig. 2 measurements (OSCAR §2-3.1): one long flow (id 0) through a burst of
 * short flows (tag 'short'); the analyses in ./analysis-baselines.ts read them. Plain functions
 * on the series (`RunSeries`), so tests can apply them to a `simulate` result directly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { firstTime, movingAverage, window, type RunSeries, type Series } from '../../src/experiment/results/series.js';
import { readColumns, type ResultColumns } from '../../src/experiment/results/results.js';
import { mean } from '../../src/metrics/stats.js';

const PS = 1e-12;
const US_PS = 1e6;

/** the first start and last finish of the flows with a tag, and how many there are */
export function tagged(run: RunSeries, tag: string): { start: number; end: number; count: number } {
  const rows = run.fct.filter((r) => r.tag === tag);
  return { start: Math.min(...rows.map((r) => r.startPs)), end: Math.max(...rows.map((r) => r.finishPs)), count: rows.length };
}


export interface BurstMeasure {
  /** short flows' first start and last finish, ps */
  burstStartPs: number;
  burstEndPs: number;
  shortFlows: number;
  /** HPCC's U computed from the bottleneck samples: txRate/C + q/(C·T); peak in the first 3 RTTs of the burst */
  uPeak: number;
  /** lowest U around the burst's end (5 RTTs either side): the long flow alone at its in-burst rate */
  uAfter: number;
  /** time from the start of the underutilisation that leads to uAfter (U < 0.9 from then on) to the first jump of U to twice uAfter, in base RTTs */
  miDelayRtts: number;
  /** long-flow goodput over the second half of the burst / fair share C/(n+1) */
  goodputVsFairShare: number;
  /** goodput of all sampled flows over the second half of the burst / C */
  aggregateGoodput: number;
  /** long-flow goodput before the burst / C */
  goodputAlone: number;
  /** time from burst start until the long flow's goodput first falls to 1.2 x its in-burst level, us */
  decelUs: number;
  /** time from burst end until the long flow's goodput (50-us average, after its post-burst trough) first reaches 90% of its pre-burst level, us */
  accelUs: number;
  /** the same to 50%: linear (O(delta)) recovery needs about half of accelUs, multiplicative much less */
  accel50Us: number;
}

/** HPCC's utilisation signal from paired queue / throughput samples. */
export function utilization(run: RunSeries, rateBps: number, baseRttPs: number): Series {
  const u: Series = { t: [], v: [] };
  const q = run.queue;
  const link = run.link;
  if (q === undefined || link === undefined) return u;
  const tp = new Map<number, number>();
  for (let i = 0; i < link.t.length; i++) tp.set(link.t[i]!, link.v[i]!);
  for (let i = 0; i < q.t.length; i++) {
    const x = tp.get(q.t[i]!);
    if (x === undefined) continue;
    u.t.push(q.t[i]!);
    u.v.push(x / rateBps + (q.v[i]! * 8) / (rateBps * baseRttPs * PS));
  }
  return u;
}

/**
 * HPCC's U for the long flow (flow 0) as it obtains it from INT (OSCAR §3.1, Fig. 2's lower
 * panels): the `u_int` column of cc_trace.csv, each ACK's U (max over hops of txRate/B +
 * q/(B·T)) before HPCC's EWMA, or undefined when the point did not trace it.
 */
export function hpccU(dir: string): Series | undefined {
  if (!existsSync(join(dir, 'cc_trace.csv'))) return undefined;
  const c = readColumns(dir, 'cc_trace');
  if (!c.has('u_int')) return undefined;
  const out = flowSeries(c, 0, 'u_int');
  return out.t.length > 1 ? out : undefined;
}

/** A time series of one flow of a per-flow table (flow_throughput: goodput `bps`; cc_trace: a traced field). */
export function flowSeries(c: ResultColumns, flow: number, value: string): { t: number[]; v: number[] } {
  const flows = c.numbers('flow');
  const ts = c.numbers('t_ps');
  const vs = c.numbers(value);
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < c.length; i++) {
    if (flows[i] !== flow) continue;
    t.push(ts[i]!);
    v.push(vs[i]!);
  }
  return { t, v };
}

/**
 * `uSeries`: HPCC's own U (hpccU); without it U is rebuilt from 1-us samples of the bottleneck
 * (txRate/C + q/(C·T)), which at a rate of about one packet per microsecond reads 0 in a sample
 * that happens to hold no departure.
 */
export function measureBurst(run: RunSeries, rateBps = 100e9, baseRttPs = 12 * US_PS, uSeries?: Series): BurstMeasure {
  const b = tagged(run, 'short');
  const long = run.flows.get(0);
  const T = baseRttPs;
  const u = uSeries ?? utilization(run, rateBps, T);
  const uPeak = Math.max(...window(u, b.start, b.start + 3 * T));
  const uAfter = Math.min(...window(u, b.end - 5 * T, b.end + 5 * T));
  const mid = (b.start + b.end) / 2;
  // the last stretch of underutilisation before the lowest U: from the last sample with U >= 0.9
  const tMin = firstTime(u, b.end - 5 * T, (v) => v <= 1.1 * uAfter);
  let onset = NaN;
  for (let i = 0; i < u.t.length && u.t[i]! < tMin; i++) if (u.v[i]! >= 0.9 && i + 1 < u.t.length) onset = u.t[i + 1]!;
  const tMi = firstTime(u, tMin, (v) => v >= 2 * uAfter);
  const miDelayRtts = (tMi - onset) / T;
  let goodputVsFairShare = NaN;
  let goodputAlone = NaN;
  let decelUs = NaN;
  let accelUs = NaN;
  let accel50Us = NaN;
  // second half of the burst, without its last fifth (short flows finish over a few tens of us)
  const to = b.end - 0.2 * (b.end - mid);
  let agg = 0;
  for (const s of run.flows.values()) agg += mean(window(s, mid, to)) || 0;
  if (long !== undefined) {
    const fair = rateBps / (b.count + 1);
    const inBurst = mean(window(long, mid, to));
    goodputVsFairShare = inBurst / fair;
    const before = mean(window(long, Math.max(0, b.start - 200 * US_PS), b.start));
    goodputAlone = before / rateBps;
    decelUs = (firstTime(long, b.start, (v) => v <= 1.2 * inBurst) - b.start) / US_PS;
    // from the post-burst trough (DCQCN keeps cutting while the burst's queue drains), on a 50-us moving average
    const trough = window(long, b.end, b.end + 500 * US_PS);
    const tTrough = firstTime(long, b.end, (v) => v <= Math.min(...trough));
    const after: Series = { t: [], v: [] };
    for (let i = 0; i < long.t.length; i++) if (long.t[i]! >= tTrough) (after.t.push(long.t[i]!), after.v.push(long.v[i]!));
    const smooth = movingAverage(after, 5);
    accelUs = (firstTime(smooth, tTrough, (v) => v >= 0.9 * before) - b.end) / US_PS;
    accel50Us = (firstTime(smooth, tTrough, (v) => v >= 0.5 * before) - b.end) / US_PS;
  }
  return {
    burstStartPs: b.start,
    burstEndPs: b.end,
    shortFlows: b.count,
    uPeak,
    uAfter,
    miDelayRtts,
    goodputVsFairShare,
    aggregateGoodput: agg / rateBps,
    goodputAlone,
    decelUs,
    accelUs,
    accel50Us,
  };
}
