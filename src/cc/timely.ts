/**
 * TIMELY (Mittal et al., SIGCOMM'15): rate control from the RTT and its
 * gradient, once per RTT. Two reference forms:
 *
 * - `hpcc` (docs/algorithms.md §9.3, the HPCC simulator's CC_MODE 7): an update
 *   on the ACK of the first packet sent after the previous update; gradient =
 *   EWMA(α on the new sample) of RTT differences / minRTT (20 us); RTT < T_low:
 *   increase; RTT > T_high: rate·(1 - β(1 - T_high/RTT)); gradient <= 0:
 *   increase; else rate·max(0, 1 - β·gradient). Increases add RATE_AI, or
 *   RATE_HAI after 5 consecutive increase decisions. 8-B timestamp header on
 *   data (1056-B packets), inside the ACK padding.
 * - `oscar` (the OSCAR artifact's RoCEv2Timely, per RTT): δ = 0.0005·C,
 *   minRTT = the flow's base RTT, T_low / T_high from OSCAR's micro-benchmark
 *   configs (32 us / 16 us as written there, which look swapped: with T_low
 *   tested first the gradient band is empty, so the rate rises by δ below 32 us
 *   and is cut by the T_high rule above it), hyper increase of MaxStage·δ after
 *   MaxStage consecutive gradient increases, the T_low increase is a plain δ.
 *   The artifact's T_high cut multiplies by 1 - β·T_high/RTT; docs/algorithms.md §9.3 says not to
 *   copy that, so both forms use 1 - β(1 - T_high/RTT).
 *
 * The RTT sample is now minus the echoed send time of the data packet that
 * triggered the ACK (its transmission start).
 */
import { z } from 'zod';
import { bpsParam, timeParam } from '../engine/spec-fields.js';
import { US } from '../engine/units.js';
import type { NetworkConfig } from '../net/config.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';

export const timelyParams = z
  .object({
    variant: z.enum(['auto', 'hpcc', 'oscar']).default('auto').describe('hpcc = HPCC simulator, oscar = OSCAR artifact (docs/algorithms.md §9.3); auto by profile'),
    preset: z.enum(['auto', 'hpcc', 'powertcp']).default('auto').describe('hpcc variant column: run.py (10/50 Mb/s per 10 G) or the PowerTCP authors\' simulator (50/100 Mb/s steps, 100 Mb/s floor, new rate assigned without moving the scheduled packet)'),
    alpha: z.number().positive().max(1).default(0.875).describe('EWMA weight of the new RTT-difference sample'),
    beta: z.number().positive().max(1).default(0.8).describe('multiplicative decrease factor'),
    tLowPs: timeParam('ps').optional().describe('T_low, ps (default 50 us hpcc, 32 us oscar)'),
    tHighPs: timeParam('ps').optional().describe('T_high, ps (default 500 us hpcc, 16 us oscar)'),
    minRttPs: timeParam('ps').optional().describe('gradient normaliser minRTT, ps (default 20 us hpcc, the base RTT oscar)'),
    rateAiBps: bpsParam({ allowZero: true }).optional().describe('additive step delta, bps'),
    rateHaiBps: bpsParam({ allowZero: true }).optional().describe('hyper-increase step, bps (oscar: maxStage x delta)'),
    maxStage: z.number().int().positive().default(5).describe('consecutive increases before the hyper step'),
    minRateBps: bpsParam().optional().describe('rate floor, bps (default 0.001·C; preset powertcp: 100 Mb/s)'),
    window: z
      .enum(['none', 'bdp'])
      .default('none')
      .describe("'bdp' = a one-BDP window (line rate x base RTT), scaled by rate / line rate under the profile's VAR_WIN, as the PowerTCP authors' simulator gives every queue pair (ns-3.35; ns-3.39 only with windowCheck 1); default none"),
  })
  .strict();
type Params = z.infer<typeof timelyParams>;
const params = timelyParams;

const isOscar = (p: Params, net: NetworkConfig): boolean => (p.variant === 'auto' ? net.profile === 'oscar' : p.variant === 'oscar');

/** HPCC simulator TS header on data packets (docs/network-model.md §8). */
const TS_HEADER_BYTES = 8;

export class Timely implements CcInstance {
  protected rate: number;
  private incStage = 0;
  private lastRtt = 0;
  private rttDiff = 0;
  private lastUpdateSeq = 0;
  private readonly oscar: boolean;
  private readonly tLow: number;
  private readonly tHigh: number;
  private readonly minRtt: number;
  private readonly ai: number;
  private readonly hai: number;
  private readonly minRate: number;
  /** the PowerTCP authors' simulator's rules (preset powertcp): its floor, and the rate assigned without ChangeRate */
  private readonly refRules: boolean;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    const C = f.lineRateBps;
    this.oscar = isOscar(p, f.net);
    this.rate = C;
    // the artifact counts stages from 1 (RoCEv2Timely::Init)
    this.incStage = this.oscar ? 1 : 0;
    this.tLow = p.tLowPs ?? (this.oscar ? 32 * US : 50 * US);
    this.tHigh = p.tHighPs ?? (this.oscar ? 16 * US : 500 * US);
    this.minRtt = p.minRttPs ?? (this.oscar ? f.baseRttPs : 20 * US);
    if (this.oscar) {
      this.ai = p.rateAiBps ?? 0.0005 * C;
      this.hai = p.rateHaiBps ?? p.maxStage * this.ai;
    } else {
      const pt = p.preset === 'powertcp';
      this.ai = p.rateAiBps ?? (pt ? 50e6 : 10e6 * (C / 10e9));
      this.hai = p.rateHaiBps ?? (pt ? 100e6 : 50e6 * (C / 10e9));
    }
    // preset powertcp: the reference's MIN_RATE (100 Mb/s) and its direct rate assignment
    // (UpdateRateTimely sets the rate without ChangeRate, so the packet already scheduled
    // keeps its send time); docs/fidelity.md, "TIMELY"
    this.refRules = !this.oscar && p.preset === 'powertcp';
    this.minRate = p.minRateBps ?? (this.refRules ? 100e6 : 0.001 * C);
  }

  onAck(ack: AckInfo): void {
    const rtt = ack.nowPs - ack.sendTsPs;
    if (!(ack.seq > this.lastUpdateSeq)) return;
    if (this.lastUpdateSeq !== 0) this.update(rtt);
    this.lastUpdateSeq = ack.sndNxt;
    this.lastRtt = rtt;
    this.windowClosed();
  }

  /** Whether this update may decrease the rate (TIMELY+TCD suppresses it for victim flows). */
  protected allowDecrease(): boolean {
    return true;
  }

  /** Called after every ACK that ends an update window (once per RTT). */
  protected windowClosed(): void {}

  private update(rtt: number): void {
    const p = this.p;
    const d = (1 - p.alpha) * this.rttDiff + p.alpha * (rtt - this.lastRtt);
    this.rttDiff = d;
    const grad = d / this.minRtt;
    const C = this.f.lineRateBps;
    let r: number;
    if (rtt < this.tLow) {
      if (this.oscar) r = this.rate + this.ai;
      else r = this.rate + (this.incStage < p.maxStage ? this.ai : this.hai);
      if (!this.oscar) this.incStage++;
    } else if (rtt > this.tHigh) {
      r = this.allowDecrease() ? this.rate * (1 - p.beta * (1 - this.tHigh / rtt)) : this.rate;
      if (!this.oscar) this.incStage = 0;
    } else if (grad <= 0) {
      if (this.oscar) {
        this.incStage++;
        if (this.incStage > p.maxStage) {
          r = this.rate + this.hai;
          this.incStage = p.maxStage;
        } else r = this.rate + this.ai;
      } else {
        r = this.rate + (this.incStage < p.maxStage ? this.ai : this.hai);
        this.incStage++;
      }
    } else {
      r = this.allowDecrease() ? this.rate * Math.max(0, 1 - p.beta * grad) : this.rate;
      this.incStage = this.oscar ? 1 : 0;
    }
    if (r > C) r = C;
    if (!(r >= this.minRate)) r = this.minRate;
    this.rate = r;
    this.f.setRate(r, !this.refRules);
  }

  shiftSeq(bytes: number): void {
    // 0 marks "no RTT sample yet" (onAck): only a marker already set moves
    if (this.lastUpdateSeq !== 0) this.lastUpdateSeq += bytes;
  }

  traceState(out: Float64Array): void {
    out[0] = this.rate;
    out[1] = this.rttDiff / this.minRtt;
    out[2] = this.lastRtt;
  }
}

export const timelyCc: CcDefinition<typeof params> = {
  name: 'timely',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'TIMELY: RTT-gradient rate control, once per RTT (HPCC-simulator or OSCAR-artifact form)',
  reference: 'Mittal et al. SIGCOMM\'15; docs/algorithms.md §9.3 (HPCC simulator and OSCAR artifact variants); docs/baselines.md',
  params,
  needs: { ts: true, rateScaledWindow: true },
  dataHeaderBytes: (net, p) => (isOscar(p, net) ? 0 : TS_HEADER_BYTES),
  ackHeaderBytes: (net, p) => (isOscar(p, net) ? 0 : TS_HEADER_BYTES),
  initialCwnd: (flow, p) => (p.window === 'bdp' ? flow.baseBdpBytes : Infinity),
  create: (flow, p) => new Timely(flow, p),
  traceFields: ['rate_bps', 'gradient', 'rtt_ps'],
};
