/**
 * A run stepped in windows of the lookahead with the partition's cut links deferred to each
 * window's end (issue 31; docs/architecture.md, "Parallel runs"): what a parallel run does
 * to the packets that cross partitions, in one process and one scheduler. Its results are
 * those of `simulate` byte for byte when the event order's keys are ones a partition computes
 * alone (test/threads.test.ts), so it tests the crossing and the keying without threads;
 * `bench/tie-order.ts` measures the same on a plain run.
 */
import { LocalCrossing } from '../net/crossing.js';
import { Simulation } from './simulate.js';
import type { SimInput, SimOutput } from './types.js';

export interface WindowedRun {
  output: SimOutput;
  /** links cut by the partition */
  cutLinks: number;
  /** windows run (idle stretches are skipped) */
  windows: number;
}

/**
 * Runs `input` with the links between partitions (`of`: partition of each node) cut, in
 * windows of `lookaheadPs` (at most the smallest delay of a cut link).
 */
export function simulateWindowed(input: SimInput, of: Int32Array, lookaheadPs: number): WindowedRun {
  if (!(lookaheadPs >= 1)) throw new Error(`simulateWindowed: lookahead ${lookaheadPs} ps: a cut link needs a delay`);
  const sim = new Simulation(input);
  const x = new LocalCrossing(sim.ctx, of);
  for (const p of sim.ctx.ports) {
    if (p.cross !== null && p.delayPs < lookaheadPs) throw new Error(`simulateWindowed: a cut link's delay ${p.delayPs} ps is below the lookahead ${lookaheadPs} ps`);
  }
  sim.crossPending = () => x.pending;
  let w = 0;
  let windows = 0;
  while (!sim.runUntil(w + lookaheadPs - 1)) {
    x.deliver();
    windows++;
    // skip ahead when nothing is due in the next window
    const next = sim.sched.peekTime();
    w = next === Infinity ? w + lookaheadPs : Math.max(w + lookaheadPs, next);
  }
  return { output: sim.finish(), cutLinks: x.cut, windows: windows + 1 };
}
