/**
 * SQCC (Stable Queue CC; Tang et al., SQCC Alg. 3, §III) as specified in
 * docs/algorithms.md §8: patched TIMELY (timely-patched.ts, same segments, α, β,
 * T_high, gradient weight and T_high branch) with
 *  (1) the decrease index error = T_high·(RTT - T_low) / (T_low·(T_high - RTT)),
 *      0 at T_low and unbounded toward T_high, so the stable queue stays
 *      between q_low and q_high for any incast degree N (Eq. 16);
 *  (2) T_low = k·8·seg/C and δ = min(deltaCap, (C/N)·(k/N)), k = max(1, floor(log10 N))
 *      (Eq. 25 / Alg. 3 l.5; [AMB-S1] floor, `kRounding: ceil` for Eq. 25's ceiling;
 *      [AMB-S8] deltaCap = 10 Mb/s, null = Eq. 25 literally), from the number N
 *      of flows the receiver is currently receiving, written into every ACK by
 *      the receiver hook (`receiverEcho`, [AMB-S7]).
 * Ablations (SQCC §IV-A..C): `tLowMode: fixed` keeps T_low = tLowUs and k = 1
 * in δ (Table II "W/O T_low", δ = C/N²); `deltaMode: fixed` keeps δ = deltaBps;
 * both fixed = the error function only ("W/O δ & T_low"). Before the first ACK
 * T_low = tLowUs and δ = deltaBps (SQCC §IV "initialized value").
 */
import { z } from 'zod';
import { bpsParam, bytesParam } from '../engine/spec-fields.js';
import { SegmentedTimely, TIMELY_TRACE_FIELDS, timelyPatchedParams, tsHeaderBytes, type TimelyPatchedParams } from './timely-patched.js';
import type { AckInfo, CcDefinition, CcFlow } from './types.js';

const params = timelyPatchedParams
  .extend({
    tLowMode: z.enum(['adaptive', 'fixed']).default('adaptive').describe('adaptive: T_low = k·seg/C; fixed: T_low = tLowUs and k = 1 in δ'),
    deltaMode: z.enum(['adaptive', 'fixed']).default('adaptive').describe('adaptive: δ = min(deltaCap, C·k/N²); fixed: δ = deltaBps'),
    kRounding: z.enum(['floor', 'ceil']).default('floor').describe('[AMB-S1] k = max(1, floor|ceil(log10 N))'),
    deltaCapBps: bpsParam().nullable().default(10e6).describe('[AMB-S8] upper bound of the adaptive δ, bps; null = Eq. 25 literally'),
    segBytes: bytesParam({ int: true }).default(65_536).describe('[AMB-S2] segment size, bytes (62,500 reproduces Table II: seg/C = 50 us at 10 G)'),
  })
  .strict();
type Params = z.infer<typeof params>;

class Sqcc extends SegmentedTimely {
  private readonly tUnit: number;
  private n = 0;

  constructor(f: CcFlow, private readonly q: Params) {
    super(f, q as TimelyPatchedParams);
    this.tUnit = (q.segBytes * 8e12) / f.lineRateBps;
  }

  protected override adapt(ack: AckInfo): void {
    const N = ack.receiverEcho >= 1 ? ack.receiverEcho : 1;
    this.n = N;
    const q = this.q;
    const lg = Math.log10(N);
    const kAdaptive = Math.max(1, q.kRounding === 'floor' ? Math.floor(lg + 1e-12) : Math.ceil(lg - 1e-12));
    const k = q.tLowMode === 'adaptive' ? kAdaptive : 1;
    this.tLow = q.tLowMode === 'adaptive' ? k * this.tUnit : q.tLowUs * 1e6;
    if (q.deltaMode === 'adaptive') {
      const d = (this.C / N) * (k / N);
      this.delta = q.deltaCapBps !== null && d > q.deltaCapBps ? q.deltaCapBps : d;
    } else this.delta = q.deltaBps;
  }

  /** RTT = T_high goes to the T_high branch ([AMB-S6]: err would be infinite). */
  protected override aboveHigh(rtt: number): boolean {
    return rtt >= this.tHigh;
  }

  /** SQCC's decrease index (Eq. 16): 0 at T_low, unbounded toward T_high. */
  protected override error(rtt: number): number {
    return (this.tHigh * (rtt - this.tLow)) / (this.tLow * (this.tHigh - rtt));
  }

  override traceState(out: Float64Array): void {
    super.traceState(out);
    out[5] = this.n;
  }
}

export const sqccCc: CcDefinition<typeof params> = {
  name: 'sqcc',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'SQCC: patched TIMELY with an unbounded error function and T_low, delta adapted to the receiver-reported flow count',
  reference: 'SQCC Alg. 3, Eq. 16, 25, §IV; docs/algorithms.md §8 ([AMB-S1..S8])',
  params,
  needs: { ts: true },
  dataHeaderBytes: tsHeaderBytes,
  ackHeaderBytes: () => 0,
  initialCwnd: () => Infinity,
  create: (flow, p) => new Sqcc(flow, p),
  // the receiver writes the number of flows it is receiving into every ACK (SQCC §III)
  receiverEcho: (rx) => rx.activeFlowsAtHost,
  traceFields: [...TIMELY_TRACE_FIELDS, 'n'],
};
