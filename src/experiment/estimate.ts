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
import { dataPackets as packetsOf, parseSpec, resolveSpec } from './resolve.js';
import { estimateCost as costAt, estimateSweepCost as sweepCostAt, type Calibration, type CostEstimate, type SweepCostEstimate } from './estimate-cost.js';

export { SLOW_RUN_SECS, type Calibration, type CostEstimate, type SweepCostEstimate } from './estimate-cost.js';

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

/**
 * The cost of a sweep: the sum over its points (flows and data packets known
 * from planning), and the wall time on `jobs` workers (estimate-cost.ts);
 * calibrated now unless `cal` is given.
 */
export function estimateSweepCost(points: readonly { flows: number; packets: number }[], jobs: number, cal: Calibration = calibrate()): SweepCostEstimate {
  return sweepCostAt(points, jobs, cal);
}

/** The cost of one run (estimate-cost.ts), calibrated now unless `cal` is given. */
export function estimateCost(input: SimInput, cal: Calibration = calibrate()): CostEstimate {
  return costAt(input, cal);
}
