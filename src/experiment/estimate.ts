/**
 * What a run will cost, before it runs (`ccsim validate`): flows, data
 * packets, estimated events and wall time on this machine. The event count
 * and the event rate come from a short built-in measurement (`calibrate`: a
 * 16-host leaf-spine under web-search load for a fraction of a second of wall
 * time) rather than from constants, so the estimate follows the machine and
 * the simulator's current speed. It is an order-of-magnitude figure: events
 * per packet grow with path length, PFC and retransmissions, and the event
 * rate with the fabric's size (cache), so expect a factor of 2 either way.
 * Timers and samplers (deadlock checks, retransmission timers, metrics
 * samples) fire on their own clocks and are added from estimate-periodic.ts.
 */
import type { SimInput } from '../sim/types.js';
import { simulate } from '../sim/simulate.js';
import { periodicCosts, periodicTotals, type PeriodicCost } from './estimate-periodic.js';
import { dataPackets as packetsOf, parseSpec, resolveSpec } from './resolve.js';

export interface Calibration {
  /** simulator events per data packet of the calibration run */
  eventsPerPacket: number;
  /** events per second of wall time on this machine */
  eventsPerSec: number;
}

export interface CostEstimate extends Calibration {
  flows: number;
  packets: number;
  /** packet events plus timer and sampler events */
  events: number;
  wallSecs: number;
  /** the timers and samplers (deadlock checks, retransmission timers, metrics samples; estimate-periodic.ts) */
  periodic: PeriodicCost[];
  /** their events (part of `events`) and the rows the samplers write */
  timerEvents: number;
  sampleRows: number;
}

/** Above this estimated wall time `validate` warns. */
export const SLOW_RUN_SECS = 600;


const CALIBRATION = {
  name: 'calibration',
  topology: { type: 'spineLeaf', spines: 2, leaves: 4, hostsPerLeaf: 4, hostRate: '100Gbps', fabricRate: '100Gbps', delay: '1us' },
  cc: 'hpcc',
  workload: [{ type: 'poisson', cdf: 'websearch', load: 0.5, duration: '200us' }],
};

/** Runs the calibration workload (a few tenths of a second) and measures events per packet and per second. */
export function calibrate(): Calibration {
  const input = resolveSpec(parseSpec(CALIBRATION), process.cwd());
  simulate(input); // warm-up: JIT
  const t0 = performance.now();
  const out = simulate(input);
  const secs = (performance.now() - t0) / 1000;
  return { eventsPerPacket: out.events / packetsOf(input), eventsPerSec: secs > 0 ? out.events / secs : Infinity };
}

export interface SweepCostEstimate extends Calibration {
  points: number;
  flows: number;
  packets: number;
  events: number;
  /** workers the points share (at most one per point) */
  jobs: number;
  /** the longest point's estimated wall time: no number of workers finishes sooner */
  longestSecs: number;
  /** estimated wall time of the sweep on `jobs` workers */
  wallSecs: number;
}

/**
 * The cost of a sweep: the sum over its points (flows and data packets known
 * from planning), and the wall time on `jobs` workers, at least the longest
 * point's and at least the total divided among the workers. Each worker is
 * taken to run at the calibrated rate (fewer cores than workers make it longer).
 */
export function estimateSweepCost(points: readonly { flows: number; packets: number }[], jobs: number, cal: Calibration = calibrate()): SweepCostEstimate {
  let flows = 0;
  let packets = 0;
  let longest = 0;
  for (const p of points) {
    flows += p.flows;
    packets += p.packets;
    longest = Math.max(longest, p.packets);
  }
  const workers = Math.max(1, Math.min(jobs, points.length));
  const events = packets * cal.eventsPerPacket;
  const longestSecs = (longest * cal.eventsPerPacket) / cal.eventsPerSec;
  const wallSecs = Math.max(longestSecs, events / cal.eventsPerSec / workers);
  return { ...cal, points: points.length, flows, packets, events, jobs: workers, longestSecs, wallSecs };
}

export function estimateCost(input: SimInput, cal: Calibration = calibrate()): CostEstimate {
  const packets = packetsOf(input);
  const periodic = periodicCosts(input);
  const { events: timerEvents, rows: sampleRows } = periodicTotals(periodic);
  const events = packets * cal.eventsPerPacket + timerEvents;
  return { ...cal, flows: input.flows.length, packets, events, wallSecs: events / cal.eventsPerSec, periodic, timerEvents, sampleRows };
}
