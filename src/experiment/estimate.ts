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
import { parseSpec, resolveSpec } from './resolve.js';

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

function packetsOf(input: SimInput): number {
  const mtu = input.net.transport.mtuBytes;
  let n = 0;
  for (const f of input.flows) n += Math.max(1, Math.ceil(f.bytes / mtu));
  return n;
}

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

export function estimateCost(input: SimInput, cal: Calibration = calibrate()): CostEstimate {
  const packets = packetsOf(input);
  const periodic = periodicCosts(input);
  const { events: timerEvents, rows: sampleRows } = periodicTotals(periodic);
  const events = packets * cal.eventsPerPacket + timerEvents;
  return { ...cal, flows: input.flows.length, packets, events, wallSecs: events / cal.eventsPerSec, periodic, timerEvents, sampleRows };
}
