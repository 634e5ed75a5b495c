/**
 * Patched TIMELY (Zhu et al., CoNEXT'16) as restated in SQCC Alg. 2 and
 * docs/algorithms.md §7 (SQCC §II-A, Alg. 2): TIMELY's gradient rule replaced,
 * between T_low and T_high, by a blend of an additive step and a decrease
 * proportional to the RTT error against RTT_ref, weighted by a clipped linear
 * function of the normalised gradient.
 *
 * Transmission model (docs/algorithms.md §7): data leaves in segments of `seg`
 * bytes; the packets of a segment go back to back at the NIC line rate and
 * segment starts are spaced 8·(segment wire bytes)/R, so R is the average
 * rate. The gap to the next segment is fixed when the segment's last packet
 * leaves (a later rate change applies from the next segment). Only the ACK
 * that completes a segment feeds the algorithm, with the TIMELY RTT sample
 * `t_ack - t_txStart(last packet) - its serialization at line rate`.
 * `pacing: packet` spaces every packet at R instead (a sensitivity check of
 * the transmission model; the rate still changes once per segment).
 *
 * Per segment-completion ACK:
 *   rttDiff = (1-α)·rttDiff + α·(newRTT - prevRTT);  g = rttDiff / D_minRTT
 *   newRTT < T_low:   R += δ
 *   newRTT > T_high:  R *= 1 - β·(1 - T_high/newRTT)
 *   otherwise:        w = clip(2g + 0.5, 0, 1);  R = δ·(1-w) + R·(1 - β·err·w)
 * with err = (newRTT - RTT_ref)/RTT_ref. SQCC (sqcc.ts) extends this class
 * with its own error function, T_low and δ.
 */
import { z } from 'zod';
import { bpsParam, bytesParam, timeParam } from '../engine/spec-fields.js';
import type { NetworkConfig } from '../net/config.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance, SendInfo } from './types.js';

export const timelyPatchedParams = z
  .object({
    alpha: z.number().min(0).max(1).default(0.875).describe('EWMA weight of the NEW RTT difference'),
    beta: z.number().min(0).max(1).default(0.008).describe('multiplicative decrease factor, a fraction (SQCC §IV: 0.008)'),
    tLowUs: timeParam('us').default(50).describe('T_low, us'),
    tHighUs: timeParam('us').default(500).describe('T_high, us'),
    rttRefUs: timeParam('us').default(50).describe('RTT_ref of the error function, us (SQCC §II-A)'),
    deltaBps: bpsParam({ allowZero: true }).default(10e6).describe('additive step delta, bps'),
    dMinRttUs: timeParam('us').default(20).describe('[AMB-S3] gradient normaliser D_minRTT, us (TIMELY default)'),
    segBytes: bytesParam({ int: true }).default(65_536).describe('[AMB-S2] segment size, bytes (64 KB; 62,500 gives seg/C = 50 us at 10 G)'),
    initRateFraction: z.number().positive().max(1).default(0.1).describe('R_init / C (unspecified; ns3-rdma default 0.1)'),
    minRateFraction: z.number().positive().max(1).default(1e-4).describe('[AMB-S4] R_min / C'),
    pacing: z
      .enum(['segment', 'packet'])
      .default('segment')
      .describe('segment: each segment back to back at line rate, segments spaced at R (docs/algorithms.md §7); packet: every packet paced at R (sensitivity check; updates stay per segment)'),
  })
  .strict();
export type TimelyPatchedParams = z.infer<typeof timelyPatchedParams>;

/** Send timestamp on data packets in the D-HPCC dialect (docs/network-model.md §8). */
const TS_HEADER_BYTES = 8;
const US_PS = 1e6;

export class SegmentedTimely implements CcInstance {
  protected readonly C: number;
  protected R: number;
  protected readonly rMin: number;
  protected readonly tHigh: number;
  /** current T_low and δ (SQCC adapts them per ACK) */
  protected tLow: number;
  protected delta: number;
  private readonly seg: number;
  private prevRtt = -1;
  private rttDiff = 0;
  protected lastRtt = 0;
  private lastAckSeq = 0;
  private segStartPs = 0;
  private segWire = 0;
  protected updates = 0;
  private readonly perPacket: boolean;

  constructor(
    protected readonly f: CcFlow,
    protected readonly p: TimelyPatchedParams,
  ) {
    this.C = f.lineRateBps;
    this.R = p.initRateFraction * this.C;
    this.rMin = p.minRateFraction * this.C;
    this.tHigh = p.tHighUs * US_PS;
    this.tLow = p.tLowUs * US_PS;
    this.delta = p.deltaBps;
    this.seg = p.segBytes;
    this.perPacket = p.pacing === 'packet';
  }

  /** Segment pacing: back to back inside a segment, the next segment 8·segWire/R after this one started. */
  onSend(info: SendInfo): void {
    if (this.perPacket) {
      info.nextGapPs = Math.round((info.wireBytes * 8e12) / this.R);
      return;
    }
    if (this.segWire === 0) this.segStartPs = info.nowPs;
    this.segWire += info.wireBytes;
    const end = info.seq + info.payloadBytes;
    const seg = this.seg;
    if (end >= this.f.sizeBytes || Math.floor(end / seg) > Math.floor(info.seq / seg)) {
      const next = this.segStartPs + (this.segWire * 8e12) / this.R;
      const lineGap = (info.wireBytes * 8e12) / this.C;
      const gap = next - info.nowPs;
      info.nextGapPs = Math.round(gap > lineGap ? gap : lineGap);
      this.segWire = 0;
    }
  }

  onAck(ack: AckInfo): void {
    if (ack.isNack) return;
    const seq = ack.seq;
    const seg = this.seg;
    const completes = Math.floor(seq / seg) > Math.floor(this.lastAckSeq / seg) || seq >= this.f.sizeBytes;
    if (seq > this.lastAckSeq) this.lastAckSeq = seq;
    if (!completes) return;
    // TIMELY RTT: completion - send start of the last packet - its serialization at line rate
    const newRtt = ack.nowPs - ack.sendTsPs - (this.f.dataWireBytes * 8e12) / this.C;
    this.lastRtt = newRtt;
    this.segmentAck(newRtt, ack);
  }

  private segmentAck(newRtt: number, ack: AckInfo): void {
    this.adapt(ack);
    if (this.prevRtt < 0) {
      this.prevRtt = newRtt;
      return;
    }
    const p = this.p;
    this.rttDiff = (1 - p.alpha) * this.rttDiff + p.alpha * (newRtt - this.prevRtt);
    this.prevRtt = newRtt;
    const g = this.rttDiff / (p.dMinRttUs * US_PS);
    let R = this.R;
    if (newRtt < this.tLow) R += this.delta;
    else if (this.aboveHigh(newRtt)) R *= 1 - p.beta * (1 - this.tHigh / newRtt);
    else {
      const w = g <= -0.25 ? 0 : g >= 0.25 ? 1 : 2 * g + 0.5;
      let factor = 1 - p.beta * this.error(newRtt) * w;
      // [AMB-S5]: a factor below 0 would make the rate negative
      if (factor < 0) factor = 0;
      R = this.delta * (1 - w) + R * factor;
    }
    if (!(R >= this.rMin)) R = this.rMin;
    if (R > this.C) R = this.C;
    this.R = R;
    this.updates++;
  }

  /** Hook for SQCC: adapt T_low and δ from the ACK before the update. */
  protected adapt(_ack: AckInfo): void {}

  /** Patched TIMELY takes the T_high branch strictly above T_high. */
  protected aboveHigh(rtt: number): boolean {
    return rtt > this.tHigh;
  }

  /** Decrease index between T_low and T_high: the RTT error against RTT_ref. */
  protected error(rtt: number): number {
    const ref = this.p.rttRefUs * US_PS;
    return (rtt - ref) / ref;
  }

  onNack(): void {
    this.segWire = 0;
  }

  onRto(): void {
    this.segWire = 0;
  }

  traceState(out: Float64Array): void {
    out[0] = this.R;
    out[1] = this.lastRtt / US_PS;
    out[2] = this.tLow / US_PS;
    out[3] = this.delta;
    out[4] = this.updates;
  }
}

export const TIMELY_TRACE_FIELDS = ['rate_bps', 'rtt_us', 't_low_us', 'delta_bps', 'updates'] as const;

/** Data-packet CC header of the timestamp-echo CCs. */
export const tsHeaderBytes = (net: NetworkConfig): number => (net.profile === 'hpcc' ? TS_HEADER_BYTES : 0);

export const timelyPatchedCc: CcDefinition<typeof timelyPatchedParams> = {
  name: 'timely-patched',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'Patched TIMELY: RTT-error decrease blended with an additive step by a clipped gradient weight, 64 KB segments',
  reference: 'Zhu et al. CoNEXT\'16 as SQCC Alg. 2; docs/algorithms.md §7',
  params: timelyPatchedParams,
  needs: { ts: true },
  dataHeaderBytes: tsHeaderBytes,
  ackHeaderBytes: () => 0,
  initialCwnd: () => Infinity,
  create: (flow, p) => new SegmentedTimely(flow, p),
  traceFields: TIMELY_TRACE_FIELDS,
};
