/**
 * PowerTCP (NSDI'22) Fig. 8, §5: reTCP, HPCC and PowerTCP on a reconfigurable datacenter
 * (experiments/powertcp/fig8.yaml). Per point, from the second week of the circuit
 * schedule on (the first has no reTCP prebuffering):
 * - circuit utilisation: bytes the sampled circuit (ToR 0 -> ToR 1) carried over
 *   (circuit rate x day) summed over its days in the window;
 * - the VOQ of that ToR pair (the circuit port's queue): mean, 99th percentile, and its
 *   mean during the circuit's days;
 * - queuing latency: each byte's wait in the VOQ, from the sampled backlog Q(t) and the
 *   VOQ's departures (circuit port plus the ToR's packet-network port, which serves only
 *   this VOQ in the experiment): a byte that arrives at t leaves when the departures
 *   after t reach Q(t) (FIFO). Its distribution weights each sample by the bytes that
 *   arrived in it; the tail is the 99th percentile.
 * The measurements are plain functions on the series, so tests apply them too.
 */
import { percentileLinear } from '../../src/metrics/stats.js';
import { readRunManifest } from '../../src/experiment/results/results.js';
import { loadRun, type Series } from '../../src/experiment/results/series.js';
import { registerFigure, sweptCcName, type Cell, type FigureAnalysis, type MeasuredClaim, type PointResult } from '../../src/experiment/results/analysis.js';
import { rotationMatchings } from '../../src/engine/rotation.js';

const US_PS = 1e6;

/** The circuit days of ToR `from` -> ToR `to` as [start, end) ps, up to `endPs`. */
export function circuitDays(c: { day: number; night: number; start: number; matchings: number[][] }, from: number, to: number, endPs: number): [number, number][] {
  const period = c.day + c.night;
  const out: [number, number][] = [];
  for (let k = 0; ; k++) {
    const s = c.start + k * period + c.night;
    if (s >= endPs) break;
    if (c.matchings[k % c.matchings.length]![from] === to) out.push([s, s + c.day]);
  }
  return out;
}

export interface Fig8Measure {
  circuitUtil: number;
  voqMeanBytes: number;
  voqP99Bytes: number;
  voqDayMeanBytes: number;
  latP50Us: number;
  latP99Us: number;
  latP999Us: number;
  days: number;
}

/** Sum of the samples of `s` (bps, each the mean over the `dt` before its time) in (from, to], in bytes. */
function bytesIn(s: Series, fromPs: number, toPs: number, dtPs: number): number {
  let b = 0;
  for (let i = 0; i < s.t.length; i++) if (s.t[i]! > fromPs && s.t[i]! <= toPs) b += (s.v[i]! * dtPs) / 8e12;
  return b;
}

/** Weighted percentile: the smallest value whose cumulative weight reaches p % of the total. */
function weightedPercentile(values: number[], weights: number[], p: number): number {
  const idx = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  let total = 0;
  for (const w of weights) total += w;
  if (!(total > 0)) return NaN;
  let acc = 0;
  for (const i of idx) {
    acc += weights[i]!;
    if (acc >= (p / 100) * total) return values[i]!;
  }
  return values[idx[idx.length - 1]!]!;
}

/**
 * The measures of one run: `voq` the VOQ's backlog samples (bytes at instants),
 * `circuit` and `packet` the throughput of its two server ports (bps over the interval
 * before each sample), `days` the circuit's days, `fromPs` the start of the window.
 */
export function measureFig8(voq: Series, circuit: Series, packet: Series, days: [number, number][], circuitBps: number, fromPs: number, endPs: number): Fig8Measure {
  const dt = voq.t.length > 1 ? voq.t[1]! - voq.t[0]! : 1 * US_PS;
  const inWindow = days.filter(([s, e]) => s >= fromPs && e <= endPs);
  let carried = 0;
  for (const [s, e] of inWindow) carried += bytesIn(circuit, s, e + dt, dt);
  const offered = (inWindow.length * (inWindow[0] !== undefined ? inWindow[0][1] - inWindow[0][0] : 0) * circuitBps) / 8e12;
  // departures per queue sample interval (t_{k-1}, t_k], from both ports
  const dep = new Map<number, number>();
  for (const s of [circuit, packet]) for (let i = 0; i < s.t.length; i++) dep.set(s.t[i]!, (dep.get(s.t[i]!) ?? 0) + (s.v[i]! * dt) / 8e12);
  const n = voq.t.length;
  const cum = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) cum[k + 1] = cum[k]! + (k > 0 ? (dep.get(voq.t[k]!) ?? 0) : 0);
  const qs: number[] = [];
  const dayQs: number[] = [];
  const lat: number[] = [];
  const wts: number[] = [];
  let d = 0;
  for (let k = 1; k < n; k++) {
    const t = voq.t[k]!;
    if (t < fromPs || t > endPs) continue;
    const q = voq.v[k]!;
    qs.push(q);
    while (d < days.length && days[d]![1] <= t) d++;
    if (d < days.length && days[d]![0] <= t) dayQs.push(q);
    // bytes that arrived in (t_{k-1}, t_k]: departures plus the backlog's growth
    const arrived = (cum[k + 1]! - cum[k]!) + q - voq.v[k - 1]!;
    if (!(arrived > 0)) continue;
    // the first m with departures after t_k reaching q: the FIFO wait of a byte that arrived at t_k
    let lo = k + 1;
    let hi = n;
    const target = cum[k + 1]! + q;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid + 1]! >= target) hi = mid;
      else lo = mid + 1;
    }
    const w = q <= 0 ? 0 : lo >= n ? voq.t[n - 1]! - t : voq.t[lo]! - t;
    lat.push(w / US_PS);
    wts.push(arrived);
  }
  const mean = (xs: number[]): number => (xs.length > 0 ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN);
  return {
    circuitUtil: offered > 0 ? carried / offered : NaN,
    voqMeanBytes: mean(qs),
    voqP99Bytes: qs.length > 0 ? percentileLinear([...qs].sort((a, b) => a - b), 99) : NaN,
    voqDayMeanBytes: mean(dayQs),
    latP50Us: weightedPercentile(lat, wts, 50),
    latP99Us: weightedPercentile(lat, wts, 99),
    latP999Us: weightedPercentile(lat, wts, 99.9),
    days: inWindow.length,
  };
}

interface RdcnSpecTopology {
  type: string;
  circuitRate: number;
  tors: number;
  circuits: { day: number; night: number; start?: number; matchings: 'roundRobin' | number[][] };
}

/** The label of a point: the CC, with reTCP's prebuffering. */
function labelOf(p: PointResult): string {
  const name = sweptCcName(p) ?? p.label;
  const cc = p.vars['cc'] as { params?: { prebufferUs?: number } } | undefined;
  const pre = typeof cc === 'object' && cc !== null ? cc.params?.prebufferUs : undefined;
  return name === 'retcp' && pre !== undefined ? `retcp-${pre}` : name;
}

/** Measures a point's folder (the first sampled queue and the two sampled ports of fig8.yaml). */
export function measurePoint(dir: string): Fig8Measure | undefined {
  const m = readRunManifest(dir);
  const topo = m?.spec?.topology as RdcnSpecTopology | undefined;
  const stop = (m?.spec as { stop?: { at?: number } } | undefined)?.stop?.at;
  if (topo?.type !== 'rdcn' || stop === undefined) return undefined;
  const run = loadRun(dir);
  if (run.queue === undefined || run.links.length < 2) return undefined;
  const c = topo.circuits;
  const matchings = c.matchings === 'roundRobin' ? rotationMatchings(topo.tors) : c.matchings;
  const sched = { day: c.day, night: c.night, start: c.start ?? 0, matchings };
  const week = matchings.length * (c.day + c.night);
  const days = circuitDays(sched, 0, 1, stop);
  return measureFig8(run.queue, run.links[0]!, run.links[1]!, days, topo.circuitRate, sched.start + week, stop);
}

const r1 = (x: number): number => Math.round(x * 10) / 10;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

const fig8: FigureAnalysis = {
  id: 'powertcp-fig8',
  paper: 'powertcp',
  title: 'PowerTCP Fig. 8: circuit utilisation, VOQ and tail queuing latency on a reconfigurable datacenter',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    const byLabel = new Map<string, Fig8Measure>();
    for (const p of points) {
      const m = measurePoint(p.dir);
      if (m === undefined) continue;
      const label = labelOf(p);
      byLabel.set(label, m);
      rows.push([label, m.days, r3(m.circuitUtil), r1(m.voqMeanBytes / 1000), r1(m.voqDayMeanBytes / 1000), r1(m.voqP99Bytes / 1000), r1(m.latP50Us), r1(m.latP99Us), r1(m.latP999Us)]);
    }
    const pt = byLabel.get('powertcp');
    const hp = byLabel.get('hpcc');
    const push = (id: string, v: number, unit?: string): void => {
      if (Number.isFinite(v)) claims.push(unit === undefined ? { id, value: v } : { id, value: v, unit });
    };
    if (pt !== undefined) {
      push('fig8.powertcp.circuit-util', pt.circuitUtil);
      push('fig8.powertcp.voq-mean-kb', pt.voqMeanBytes / 1000, 'KB');
      for (const pre of [1800, 600]) {
        const re = byLabel.get(`retcp-${pre}`);
        if (re !== undefined) push(`fig8.retcp${pre}-vs-powertcp.tail-latency-ratio`, re.latP99Us / pt.latP99Us);
      }
    }
    if (hp !== undefined) {
      push('fig8.hpcc.circuit-util', hp.circuitUtil);
      push('fig8.hpcc.voq-mean-kb', hp.voqMeanBytes / 1000, 'KB');
    }
    return {
      tables: [
        {
          title: 'Rack 0 -> rack 1 from the second week on',
          columns: ['cc', 'circuit days', 'circuit util', 'VOQ mean KB', 'VOQ mean in day KB', 'VOQ p99 KB', 'queuing p50 us', 'queuing p99 us', 'queuing p99.9 us'],
          rows,
          notes: ['queuing latency: the FIFO wait of each byte in the VOQ, from the 1-us backlog and departure samples, weighted by the bytes arriving in each sample'],
        },
      ],
      claims,
    };
  },
};

registerFigure(fig8);
