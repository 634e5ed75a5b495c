/**
 * The arithmetic of the cost estimate (estimate.ts): flows and data packets
 * of a run or sweep, and events and wall time from a calibration. Kept apart
 * from the calibration run so `ccsim validate` with a cached calibration
 * (calibration-cache.ts) does not load the simulator.
 */
import type { SimInput } from '../sim/types.js';
import { periodicCosts, periodicTotals, type PeriodicCost } from './estimate-periodic.js';
import { dataPackets as packetsOf } from './resolve.js';

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
export function estimateSweepCost(points: readonly { flows: number; packets: number }[], jobs: number, cal: Calibration): SweepCostEstimate {
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
  return { eventsPerPacket: cal.eventsPerPacket, eventsPerSec: cal.eventsPerSec, points: points.length, flows, packets, events, jobs: workers, longestSecs, wallSecs };
}

/** The cost of one run at calibration `cal`. */
export function estimateCost(input: SimInput, cal: Calibration): CostEstimate {
  const packets = packetsOf(input);
  const periodic = periodicCosts(input);
  const { events: timerEvents, rows: sampleRows } = periodicTotals(periodic);
  const events = packets * cal.eventsPerPacket + timerEvents;
  return { eventsPerPacket: cal.eventsPerPacket, eventsPerSec: cal.eventsPerSec, flows: input.flows.length, packets, events, wallSecs: events / cal.eventsPerSec, periodic, timerEvents, sampleRows };
}
