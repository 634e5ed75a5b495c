/**
 * Poseidon (Wang et al., SIGCOMM'23), as the OSCAR artifact runs it
 * (docs/algorithms.md §9.6, [O] `RoCEv2Poseidon`), with the short INT of docs/network-model.md §11.5:
 * every switch writes MPD = max(MPD, its queueing delay in whole us) into a
 * 12-B header on data packets, echoed in a 12-B header on ACKs
 * (`needs.mpd`; 1066-B data, 70-B ACKs in D-OSCAR).
 *
 * Per ACK (not on a D-OSCAR NACK, which carries no echo): r = min(1,
 * cwnd·8/delay/C) with delay the RTT of the acknowledged packet; a = ln(1/r);
 * target per-hop delay mpt = a·P/ln(maxRatio/minRatio) + K (us, Poseidon
 * Eq. 3); g = exp((mpt - MPD)·a·M/P) (Eq. 4). MPD <= mpt: multiplicative
 * increase spread over a window, cwnd·(1 + (g - 1)/ceil(cwnd/pkt)); otherwise
 * cwnd·g at most once per `delay`. cwnd <= baseBdp; the window is set as
 * ceil(cwnd) through the artifact's plumbing (doscar-window.ts).
 */
import { z } from 'zod';
import { timeParam } from '../engine/spec-fields.js';
import { setDoscarCwnd } from './doscar-window.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';

const params = z
  .object({
    m: z.number().positive().default(0.25).describe('M, step aggressiveness (OSCAR Fig1 uses 0.05)'),
    kUs: timeParam('us', { allowZero: true }).default(2).describe('K, target per-hop delay at line rate, us'),
    p: z.number().positive().default(40).describe('P, target delay spread over the rate range, us'),
    maxRateRatio: z.number().positive().max(1).default(1).describe('largest rate as a fraction of line rate'),
  })
  .strict();
type Params = z.infer<typeof params>;

/** Poseidon header: 2-B MPD + 10 B reserved, on data and ACKs (docs/network-model.md §8). */
const POSEIDON_HEADER_BYTES = 12;
const T_CAN_DECREASE = 0;

class Poseidon implements CcInstance {
  private cwnd: number;
  private canDecrease = true;
  private readonly mptOp: number;
  private readonly skipNacks: boolean;
  private lastMpt = 0;
  private lastMpd = 0;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    this.cwnd = f.baseBdpBytes;
    const minRatio = f.minRateBps / f.lineRateBps;
    this.mptOp = minRatio === 0 ? 0 : p.p / Math.log(p.maxRateRatio / minRatio);
    this.skipNacks = !f.net.transport.nackCarriesEcho;
  }

  onAck(ack: AckInfo): void {
    if (ack.isNack && this.skipNacks) return; // no echo header on a D-OSCAR NACK (§1.4)
    const f = this.f;
    const p = this.p;
    const mpd = ack.mpdUs;
    const delay = ack.nowPs - ack.sendTsPs;
    let cwnd = this.cwnd;
    const r = Math.min(1, (cwnd * 8 * 1e12) / delay / f.lineRateBps);
    const a = Math.log(p.maxRateRatio / r);
    const mpt = a * this.mptOp + p.kUs;
    const g = Math.exp(((mpt - mpd) * a * p.m) / p.p);
    this.lastMpt = mpt;
    this.lastMpd = mpd;
    if (mpd <= mpt) {
      const pkt = f.dataWireBytes;
      cwnd *= 1 + (g - 1) / Math.ceil(cwnd / pkt);
    } else if (this.canDecrease) {
      cwnd *= g;
      this.canDecrease = false;
      f.setTimer(T_CAN_DECREASE, delay);
    }
    if (cwnd > f.baseBdpBytes) cwnd = f.baseBdpBytes;
    this.cwnd = setDoscarCwnd(f, Math.ceil(cwnd));
  }

  onTimer(slot: number): void {
    if (slot === T_CAN_DECREASE) this.canDecrease = true;
  }

  traceState(out: Float64Array): void {
    out[0] = this.cwnd;
    out[1] = this.lastMpt;
    out[2] = this.lastMpd;
  }
}

export const poseidonCc: CcDefinition<typeof params> = {
  name: 'poseidon',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'Poseidon: window control from the max per-hop queueing delay (short INT, 12-B header)',
  reference: 'Wang et al. SIGCOMM\'23; docs/algorithms.md §9.6 (OSCAR artifact RoCEv2Poseidon), docs/network-model.md §11.5 (short INT); docs/baselines.md',
  params,
  needs: { mpd: true, ts: true },
  dataHeaderBytes: () => POSEIDON_HEADER_BYTES,
  ackHeaderBytes: () => POSEIDON_HEADER_BYTES,
  initialCwnd: (flow) => flow.baseBdpBytes,
  create: (flow, p) => new Poseidon(flow, p),
  traceFields: ['cwnd_bytes', 'mpt_us', 'mpd_us'],
};
