/**
 * Swift (Kumar et al., SIGCOMM'20), window-based, as the OSCAR artifact runs
 * it (docs/algorithms.md §9.5, [PP≈O] `RoCEv2Swift`), with OSCAR's
 * `swift-25.json` parameters as defaults.
 *
 * Per ACK, delay = now - send time of the acknowledged packet (the echoed send
 * timestamp; for in-order ACKs this is the artifact's ts[ackPsn - 1]). Target
 * delay = baseRtt + BaseTarget + r·BaseTarget with flow scaling
 * r = clamp(Range·γ·(1/sqrt(min(1, cwnd/BDP)) - 1), 0, Range),
 * γ = 1/(1/sqrt(ScalingMin) - 1) (Swift's fs_range term with fs_max = BDP and
 * windows normalised to BDP; no per-hop term). Below target: additive increase
 * ai·BDP/cwndPackets per ACK (about ai·BDP per RTT). Above: multiplicative
 * decrease by min(β·(delay - target)/delay, MaxMdf), at most once per `delay`.
 * Window plumbing as the artifact (doscar-window.ts): a sub-packet window is
 * paced, otherwise the flow sends at line rate within its window.
 *
 * `form: rate` is the older rate-based Swift of the same framework
 * (docs/network-model.md §16): the same law on the rate ratio u instead of the
 * window (AI u += ai/⌈u·BDP/pkt⌉ per ACK, MD u·(1 - f), flow scaling on u), no
 * window. Used to test why the window form recovers at once in OSCAR Fig. 14.
 */
import { z } from 'zod';
import { timeParam } from '../engine/spec-fields.js';
import { US } from '../engine/units.js';
import { setDoscarCwnd } from './doscar-window.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';

const params = z
  .object({
    aiBdpFraction: z.number().positive().max(1).default(0.001).describe('additive increase per RTT as a fraction of the base BDP (RateAIRatio; artifact default 0.005)'),
    beta: z.number().positive().max(1).default(0.8).describe('multiplicative decrease gain'),
    maxMdf: z.number().positive().max(1).default(0.5).describe('largest decrease fraction per RTT (artifact default 0.4)'),
    baseTargetPs: timeParam('ps').default(25 * US).describe('target queueing delay above the base RTT, ps'),
    targetScaling: z.boolean().default(true).describe('flow-based target scaling (fs_range)'),
    range: z.number().nonnegative().default(4).describe('fs_range, in units of baseTarget'),
    scalingMin: z.number().positive().lt(1).default(0.1).describe('fs_min window as a fraction of the base BDP'),
    form: z.enum(['window', 'rate']).default('window').describe("'window' = OSCAR artifact (IsLimiting), 'rate' = the older rate-based Swift (docs/network-model.md §16)"),
  })
  .strict();
type Params = z.infer<typeof params>;

const T_CAN_DECREASE = 0;

class Swift implements CcInstance {
  private cwnd: number;
  /** rate form: rate ratio */
  private u = 1;
  private canDecrease = true;
  private readonly gamma: number;
  private readonly rateForm: boolean;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    this.cwnd = f.baseBdpBytes;
    this.gamma = 1 / (1 / Math.sqrt(p.scalingMin) - 1);
    this.rateForm = p.form === 'rate';
  }

  private targetDelay(): number {
    const p = this.p;
    const base = this.f.baseRttPs + p.baseTargetPs;
    if (!p.targetScaling) return base;
    const x = this.rateForm ? this.u : Math.min(1, this.cwnd / this.f.baseBdpBytes);
    let r = p.range * this.gamma * (1 / Math.sqrt(x) - 1);
    if (r < 0) r = 0;
    else if (r > p.range) r = p.range;
    return base + r * p.baseTargetPs;
  }

  onAck(ack: AckInfo): void {
    const f = this.f;
    const p = this.p;
    const delay = ack.nowPs - ack.sendTsPs;
    const tgt = this.targetDelay();
    const bdp = f.baseBdpBytes;
    if (this.rateForm) {
      this.onAckRate(delay, tgt);
      return;
    }
    if (delay < tgt) {
      const pkt = f.dataWireBytes;
      let n = (this.cwnd + pkt - 1) / pkt;
      if (n < 1) n = 1;
      this.cwnd = setDoscarCwnd(f, this.cwnd + (p.aiBdpFraction * bdp) / n);
    } else if (this.canDecrease) {
      const md = Math.min((p.beta * (delay - tgt)) / delay, p.maxMdf);
      this.cwnd = setDoscarCwnd(f, Math.max(Math.floor(this.cwnd * (1 - md)), Math.floor(1e-4 * bdp)));
      this.canDecrease = false;
      f.setTimer(T_CAN_DECREASE, delay);
    }
  }

  private onAckRate(delay: number, tgt: number): void {
    const f = this.f;
    const p = this.p;
    const minU = f.minRateBps / f.lineRateBps;
    if (delay < tgt) {
      const pkt = f.dataWireBytes;
      let n = (this.u * f.baseBdpBytes + pkt - 1) / pkt;
      if (n < 1) n = 1;
      this.u = Math.min(1, this.u + p.aiBdpFraction / n);
    } else if (this.canDecrease) {
      const md = Math.min((p.beta * (delay - tgt)) / delay, p.maxMdf);
      this.u = Math.max(minU, this.u * (1 - md));
      this.canDecrease = false;
      f.setTimer(T_CAN_DECREASE, delay);
    } else return;
    f.setRate(this.u * f.lineRateBps);
  }

  onTimer(slot: number): void {
    if (slot === T_CAN_DECREASE) this.canDecrease = true;
  }

  traceState(out: Float64Array): void {
    out[0] = this.rateForm ? this.u * this.f.baseBdpBytes : this.cwnd;
    out[1] = this.targetDelay();
  }
}

export const swiftCc: CcDefinition<typeof params> = {
  name: 'swift',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'Swift: delay-target window control with flow scaling (OSCAR artifact form, swift-25.json defaults)',
  reference: 'Kumar et al. SIGCOMM\'20; docs/algorithms.md §9.5 (OSCAR artifact RoCEv2Swift, swift-25.json); docs/baselines.md',
  params,
  needs: { ts: true },
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: (flow, p) => (p.form === 'rate' ? Infinity : flow.baseBdpBytes),
  create: (flow, p) => new Swift(flow, p),
  traceFields: ['cwnd_bytes', 'target_delay_ps'],
};
