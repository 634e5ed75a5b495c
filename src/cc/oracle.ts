/**
 * `oracle`: a test instrument, not a congestion control. It reproduces the
 * scripted "oracle CC" of OSCAR §3.2 / Fig. 3 (the artifact's HPCC
 * `ExperimentMode`): every flow is told how many flows share its bottleneck
 * (the `script`, in absolute simulated time) and, `reactionDelayPs` (50 us)
 * after each change, jumps in one step to its share of the target state:
 * window (1 + targetQueueBdp)·BDP/n and rate C/n. A flow starts at line rate
 * with a one-BDP window, like HPCC, whatever the script said before it started. ACKs are ignored, so delay and delay
 * gradient can be observed without any CC reacting to them.
 *
 * It assumes every flow crosses the same single bottleneck; use it only in
 * micro-benchmarks built for it.
 */
import { z } from 'zod';
import { timeParam } from '../engine/spec-fields.js';
import { US } from '../engine/units.js';
import type { CcDefinition, CcFlow, CcInstance } from './types.js';

const params = z
  .object({
    script: z
      .array(z.object({ atPs: timeParam('ps', { allowZero: true }), flows: z.number().int().positive() }).strict())
      .default([])
      .describe('number of flows sharing the bottleneck from atPs on (ps, ascending)'),
    reactionDelayPs: timeParam('ps', { allowZero: true }).default(50 * US).describe('delay between a change and the one-step reaction, ps'),
    targetQueueBdp: z.number().nonnegative().default(1).describe('target standing queue, in base BDPs (OSCAR Fig. 3: 1)'),
  })
  .strict();
type Params = z.infer<typeof params>;

const T_STEP = 0;

class Oracle implements CcInstance {
  private next = 0;
  private readonly steps: { atPs: number; flows: number }[];

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    this.steps = [...p.script].sort((a, b) => a.atPs - b.atPs);
  }

  onStart(): void {
    const now = this.f.now();
    const d = this.p.reactionDelayPs;
    // a new flow starts like HPCC (line rate, one BDP) and reacts only to reactions still to come
    while (this.next < this.steps.length && this.steps[this.next]!.atPs + d <= now) this.next++;
    this.arm();
  }

  private arm(): void {
    if (this.next < this.steps.length) this.f.setTimer(T_STEP, this.steps[this.next]!.atPs + this.p.reactionDelayPs - this.f.now());
  }

  private apply(n: number): void {
    const f = this.f;
    f.setRate(f.lineRateBps / n);
    f.setCwnd(((1 + this.p.targetQueueBdp) * f.baseBdpBytes) / n);
  }

  onAck(): void {}

  onTimer(slot: number): void {
    if (slot !== T_STEP) return;
    this.apply(this.steps[this.next++]!.flows);
    this.arm();
  }
}

export const oracleCc: CcDefinition<typeof params> = {
  name: 'oracle',
  description: 'Test instrument: scripted one-step convergence to a target queue after a fixed reaction delay (OSCAR Fig. 3)',
  reference: 'OSCAR §3.2, Fig. 3 (oracle CC, artifact HPCC ExperimentMode); docs/algorithms.md §9.4; docs/baselines.md',
  params,
  needs: { ts: true },
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: (flow) => flow.baseBdpBytes,
  create: (flow, p) => new Oracle(flow, p),
};
