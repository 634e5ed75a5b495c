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
import type { SimInput } from '../../sim/types.js';
import { simulate } from '../../sim/simulate.js';
import { dataPackets as packetsOf, parseSpec, resolveSpec } from '../spec/resolve.js';
import { CALIBRATION_SPEC as CALIBRATION, estimateCost as costAt, estimateSweepCost as sweepCostAt, type Calibration, type CostEstimate, type RunBasis, type SweepCostEstimate } from './estimate-cost.js';

export { SLOW_RUN_SECS, runBasis, costOf, type Calibration, type CostEstimate, type RunBasis, type SweepCostEstimate } from './estimate-cost.js';

/** Measured runs of the calibration workload (after as many unmeasured ones to warm the JIT up); the median rate counts. */
const CALIBRATION_REPS = 3;

/**
 * Runs the calibration workload (most of a second) and measures events per
 * packet and per second. The first runs in a process are slow (the JIT has
 * not compiled the hot path yet), so the rate is the median of the measured
 * runs after as many warm-up runs.
 */
export function calibrate(): Calibration {
  const input = resolveSpec(parseSpec(CALIBRATION), process.cwd());
  for (let i = 0; i < CALIBRATION_REPS; i++) simulate(input);
  const rates: number[] = [];
  let events = 0;
  for (let i = 0; i < CALIBRATION_REPS; i++) {
    const t0 = performance.now();
    const out = simulate(input);
    const secs = (performance.now() - t0) / 1000;
    events = out.events;
    rates.push(secs > 0 ? out.events / secs : Infinity);
  }
  rates.sort((a, b) => a - b);
  return { eventsPerPacket: events / packetsOf(input), eventsPerSec: rates[Math.floor(rates.length / 2)]! };
}

/** The calibration run's events per data packet alone (one run, nothing timed): the same on every machine. */
export function calibrationEventsPerPacket(): number {
  const input = resolveSpec(parseSpec(CALIBRATION), process.cwd());
  return simulate(input).events / packetsOf(input);
}

/**
 * The cost of a sweep: the sum over its points (flows and data packets known
 * from planning), and the wall time on `jobs` workers (estimate-cost.ts);
 * calibrated now unless `cal` is given.
 */
export function estimateSweepCost(points: readonly { basis: RunBasis }[], jobs: number, cal: Calibration = calibrate()): SweepCostEstimate {
  return sweepCostAt(points, jobs, cal);
}

/** The cost of one run (estimate-cost.ts), calibrated now unless `cal` is given. */
export function estimateCost(input: SimInput, cal: Calibration = calibrate()): CostEstimate {
  return costAt(input, cal);
}
