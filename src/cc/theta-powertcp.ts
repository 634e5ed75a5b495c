/**
 * θ-PowerTCP (Addanki et al., NSDI'22 §3.5, App. D Alg. 2): PowerTCP's control
 * law with the power measured from RTT alone, no switch support:
 *
 *   Γ_norm = (θ̇ + 1)·θ / τ                  (Eq. 8; θ = RTT, θ̇ = dRTT/dt)
 *   w ← γ·(w/Γ + β) + (1 − γ)·w             (Eq. 7 with w_old = w, once per RTT)
 *
 * Under a single busy bottleneck this equals the INT form (q/b = θ − τ,
 * q̇/b = θ̇), but it assumes the bottleneck always transmits at b: with an empty
 * queue Γ = 1, so there is no multiplicative increase and an under-used link
 * refills only by β per RTT (PowerTCP §3.5; docs/algorithms.md §4).
 *
 * Profiles (docs/algorithms.md §3, §4):
 * - `paper` (default): RTT from the echoed send timestamp (8-B TS header as
 *   TIMELY's, docs/network-model.md §8), NACKs give no sample (docs/algorithms.md §1);
 *   τ = the flow's own base RTT ([AMB-T3]); θ̇+1 ≥ 0.5 ([AMB-T2]); Γ smoothed
 *   on every ACK over min(Δt, τ); window updated once per RTT when
 *   `ack.seq ≥ lastUpdated` (Alg. 2 l.17), paced at cwnd/τ; β =
 *   0.006·HostBw·τ/8; start cwnd = HostBw·τ/8 at line rate.
 * - `oscarArtifact`: RTT = now − send time of the packet ending at the ACK's
 *   sequence, kept at the sender (no header; NACKs included); τ = own base
 *   RTT; no floor on θ̇+1; Δt ≤ τ; window once per RTT on `ack.seq >
 *   lastUpdateSeq`; D-OSCAR window plumbing (unpaced while cwnd ≥ one packet,
 *   docs/network-model.md §10.3); β = 0.006·BDP_base; cwnd ≤ BDP_base.
 * - `inetTub`: rate form updated on every ACK, R ← γ·(R_ref/Γ + 150 Mb/s) +
 *   (1−γ)·R_ref with γ = 0.7 and R_ref refreshed once per RTT; Γ normalised by
 *   1.05·τ_min, τ_min = min(max RTT, smallest RTT seen), Δt ≤ τ_min; θ̇+1 ≥ 0.5;
 *   the RTT of the packet ending at the ACK's sequence, each send time used
 *   once (a later ACK for the same sequence, e.g. a NACK, takes τ_min as its
 *   RTT); it runs inside the reference's HPCC path, so packets and ACKs carry
 *   the 42-B INT block; window = R·τ_min/8 bytes (the reference sizes a PowerTCP
 *   flow's window as rate × its base RTT, and θ-PowerTCP's base RTT is τ_min;
 *   PowerTCP §3.5, Alg. 2: w = rate·τ; docs/algorithms.md §4); no first-ACK skip.
 *
 * Overridable: gamma, beta, τ choice and its scale, the θ̇+1 floor, rate floor,
 * and the start rate (`initRateFraction`: CCC Fig 2 starts one flow at 0.1 C).
 *
 * State trace (metrics `ccTrace`, cc_trace.csv; CCC Fig 2, §3.1): what the
 * flow deduces about its bottleneck from the last ACK, taking the bottleneck
 * rate b as its line rate: the RTT θ, the inflight θ·b (bytes in the pipe and
 * the queue) and the aggregate arrival rate (θ̇ + 1)·b, with θ̇ the raw
 * per-ACK gradient before any floor (so it can be negative, DAC 3); then the
 * smoothed normalised power Γ, the rate, the window and an ACK counter.
 */
import { z } from 'zod';
import { bpsParam } from '../engine/spec-fields.js';
import { SEC } from '../engine/units.js';
import { setDoscarCwnd } from './doscar-window.js';
import { betaBytesOf, INT_HEADER_BYTES, POWER_FLOOR, powerLawRate, POWERTCP_PROFILES, shiftPacketRing } from './powertcp.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance, SendInfo } from './types.js';

/** Send-timestamp header of the paper profile (TIMELY's TS field, docs/network-model.md §8). */
const TS_HEADER_BYTES = 8;

const params = z
  .object({
    profile: z.enum(POWERTCP_PROFILES).default('paper').describe('named profile (docs/algorithms.md §3): paper, oscarArtifact, inetTub'),
    gamma: z.number().gt(0).max(1).optional().describe('EWMA weight of the new window, in (0, 1] (paper, oscarArtifact: 0.9; inetTub: 0.7)'),
    betaRatio: z.number().nonnegative().optional().describe('additive increase β as a fraction of HostBw·τ/8 bytes (paper, oscarArtifact: 0.006)'),
    betaRateBps: bpsParam({ allowZero: true }).optional().describe('additive increase β as a rate, bps (inetTub: 150 Mb/s)'),
    tau: z.enum(['flowBaseRtt', 'maxBaseRtt', 'minObserved']).optional().describe('τ = own base RTT (paper, oscarArtifact), topology max RTT, or min(max RTT, smallest RTT seen) (inetTub), docs/algorithms.md §4 [AMB-T3]'),
    tauScale: z.number().positive().optional().describe('Γ is normalised by tauScale·τ (inetTub: 1.05; others: 1)'),
    gradientFloor: z.union([z.number(), z.literal('none')]).optional().describe("floor on θ̇+1 (paper, inetTub: 0.5; oscarArtifact: 'none'), docs/algorithms.md §4 [AMB-T2]"),
    minRateBps: bpsParam().optional().describe('rate floor, bps (paper, oscarArtifact: 0.001·HostBw; inetTub: 100 Mb/s)'),
    initRateFraction: z.number().gt(0).max(1).default(1).describe('start rate (window) as a fraction of line rate (BDP); 1 = line rate, as every profile (CCC Fig 2: 0.1)'),
  })
  .strict()
  .refine((p) => p.betaRatio === undefined || p.betaRateBps === undefined, { message: 'give betaRatio or betaRateBps, not both', path: ['betaRateBps'] });
type Params = z.infer<typeof params>;

const TAU_FLOW = 0;
const TAU_MAX = 1;
const TAU_MIN_OBSERVED = 2;

function tauMode(p: Params): number {
  const t = p.tau ?? (p.profile === 'inetTub' ? 'minObserved' : 'flowBaseRtt');
  return t === 'flowBaseRtt' ? TAU_FLOW : t === 'maxBaseRtt' ? TAU_MAX : TAU_MIN_OBSERVED;
}

/** Initial τ, ps (minObserved starts at the topology max RTT). */
function tau0(flow: CcFlow, p: Params): number {
  return tauMode(p) === TAU_FLOW ? flow.pathBaseRttPs : flow.maxBaseRttPs;
}

const SAMPLE_ECHO = 0;
const SAMPLE_KEEP = 1;
const SAMPLE_ONCE = 2;

class ThetaPowerTcp implements CcInstance {
  private readonly inet: boolean;
  private readonly paper: boolean;
  private readonly sample: number;
  private readonly minObserved: boolean;
  private readonly gamma: number;
  private readonly beta: number;
  private readonly betaRate: number;
  private readonly tauScale: number;
  private readonly floor: number;
  private readonly minRate: number;
  private readonly minCwnd: number;
  private readonly maxCwnd: number;
  private readonly win: number;
  private readonly mtu: number;
  /** send times by packet index (sender-side RTT sample), ring of a power-of-two size */
  private readonly sent: Float64Array | null;
  private readonly mask: number;
  private tau: number;
  private cwnd: number;
  private rRef: number;
  private gs = 1;
  private prevRtt: number;
  private tPrev = 0;
  private lastUpdateSeq = 0;
  private initialized: boolean;
  private readonly initFrac: number;
  /** trace: last RTT sample (ps), last raw θ̇ + 1, ACKs seen */
  private lastRtt = 0;
  private lastA = 1;
  private acks = 0;

  constructor(
    private readonly f: CcFlow,
    p: Params,
  ) {
    const C = f.lineRateBps;
    this.inet = p.profile === 'inetTub';
    this.paper = p.profile === 'paper';
    this.sample = this.paper ? SAMPLE_ECHO : this.inet ? SAMPLE_ONCE : SAMPLE_KEEP;
    this.minObserved = tauMode(p) === TAU_MIN_OBSERVED;
    this.tau = tau0(f, p);
    this.gamma = p.gamma ?? (this.inet ? 0.7 : 0.9);
    this.beta = betaBytesOf(p, this.inet ? 150e6 : undefined, this.tau, C);
    this.betaRate = (this.beta * 8 * SEC) / this.tau;
    this.tauScale = p.tauScale ?? (this.inet ? 1.05 : 1);
    const fl = p.gradientFloor ?? (p.profile === 'oscarArtifact' ? 'none' : 0.5);
    this.floor = fl === 'none' ? -Infinity : fl;
    this.minRate = p.minRateBps ?? (this.inet ? 100e6 : 0.001 * C);
    this.maxCwnd = (C * this.tau) / SEC / 8;
    this.minCwnd = (this.minRate * this.tau) / SEC / 8;
    this.win = f.maxBaseBdpBytes;
    this.initFrac = p.initRateFraction;
    this.cwnd = (this.inet ? this.win : this.maxCwnd) * this.initFrac;
    this.rRef = C * this.initFrac;
    this.mtu = f.mtuBytes;
    this.prevRtt = f.maxBaseRttPs;
    // the inetTub reference has no first-ACK branch: its previous RTT / ACK time start from defaults
    this.initialized = this.inet;
    if (this.sample !== SAMPLE_ECHO) {
      // every packet in flight lies within one window cap (+ one) of sndUna
      const span = Math.ceil(Math.max(this.maxCwnd, this.win) / this.mtu) + 4;
      let size = 16;
      while (size < span) size *= 2;
      this.sent = new Float64Array(size).fill(-1);
      this.mask = size - 1;
    } else {
      this.sent = null;
      this.mask = 0;
    }
  }

  onStart(): void {
    if (this.initFrac === 1) return;
    const f = this.f;
    if (this.inet) {
      f.setRate(this.rRef);
      f.setCwnd(Math.max(1, Math.floor((f.rateBps * this.tau) / SEC / 8)));
    }
    else if (this.paper) {
      f.setCwnd(this.cwnd);
      f.setRate((this.cwnd * 8 * SEC) / this.tau);
    } else setDoscarCwnd(f, this.cwnd);
  }

  traceState(out: Float64Array): void {
    const b = this.f.lineRateBps;
    out[0] = this.lastRtt / 1e6;
    out[1] = (this.lastRtt * b) / SEC / 8;
    out[2] = this.lastA * b;
    out[3] = this.gs;
    out[4] = this.f.rateBps;
    out[5] = this.f.cwndBytes;
    out[6] = this.acks;
  }

  onSend(info: SendInfo): void {
    const s = this.sent;
    if (s !== null) s[Math.floor(info.seq / this.mtu) & this.mask] = info.nowPs;
  }

  shiftSeq(bytes: number): void {
    this.lastUpdateSeq += bytes;
    if (this.sent !== null) shiftPacketRing(this.sent, this.mask, bytes, this.mtu);
  }

  onAck(ack: AckInfo): void {
    const now = ack.nowPs;
    let rtt: number;
    if (this.sample === SAMPLE_ECHO) {
      if (ack.isNack) return; // NACKs give no RTT sample (docs/algorithms.md §1)
      rtt = now - ack.sendTsPs;
    } else {
      const s = this.sent!;
      const i = Math.floor((ack.seq - 1) / this.mtu) & this.mask;
      const t = s[i]!;
      if (t >= 0) {
        rtt = now - t;
        if (this.sample === SAMPLE_ONCE) s[i] = -1;
        if (this.minObserved && rtt < this.tau) this.tau = rtt;
      } else rtt = this.tau;
    }
    this.acks++;
    this.lastRtt = rtt;
    if (!this.initialized) {
      // first ACK: only remember (Alg. 2; OSCAR artifact)
      this.initialized = true;
      this.prevRtt = rtt;
      this.tPrev = now;
      this.lastUpdateSeq = ack.maxSentSeq;
      return;
    }
    const tau = this.tau;
    const dt = now - this.tPrev;
    if (dt > 0) {
      let a = (rtt - this.prevRtt) / dt + 1;
      this.lastA = a;
      if (a < this.floor) a = this.floor;
      const gn = (a * rtt) / (this.tauScale * tau);
      const d = dt < tau ? dt : tau;
      this.gs = (this.gs * (tau - d) + gn * d) / tau;
    }
    this.prevRtt = rtt;
    this.tPrev = now;
    let G = this.gs;
    if (!(G > POWER_FLOOR)) G = POWER_FLOOR;
    const g = this.gamma;
    const f = this.f;
    if (this.inet) {
      const r = powerLawRate(this.rRef, G, g, this.betaRate, this.minRate, f.lineRateBps);
      f.setRate(r);
      // the window is rate x τ, τ being the smallest RTT seen (PowerTCP §3.5 / Alg. 2: w = rate·τ)
      f.setCwnd(Math.max(1, Math.floor((f.rateBps * tau) / SEC / 8)));
      if (ack.seq > this.lastUpdateSeq) {
        this.rRef = r;
        this.lastUpdateSeq = ack.maxSentSeq;
      }
      return;
    }
    // once per RTT: Alg. 2 l.17 skips when ack.seq < lastUpdated; the OSCAR artifact needs ack.seq > lastUpdateSeq
    if (this.paper ? ack.seq < this.lastUpdateSeq : ack.seq <= this.lastUpdateSeq) return;
    let w = g * (this.cwnd / G + this.beta) + (1 - g) * this.cwnd;
    if (!(w >= this.minCwnd)) w = this.minCwnd;
    if (w > this.maxCwnd) w = this.maxCwnd;
    this.cwnd = w;
    if (this.paper) {
      f.setCwnd(w);
      f.setRate((w * 8 * SEC) / tau);
    } else setDoscarCwnd(f, w);
    this.lastUpdateSeq = ack.maxSentSeq;
  }
}

export const thetaPowertcpCc: CcDefinition<typeof params> = {
  name: 'theta-powertcp',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'θ-PowerTCP: delay-only PowerTCP from RTT and its gradient (profiles paper | oscarArtifact | inetTub)',
  reference: 'Addanki et al. NSDI\'22 §3.5, App. D Alg. 2; docs/algorithms.md §3-4 (profiles)',
  params,
  needs: { ts: true },
  traceFields: ['rtt_us', 'deduced_inflight_bytes', 'deduced_arrival_bps', 'gamma_norm', 'rate_bps', 'cwnd_bytes', 'acks'],
  dataHeaderBytes: (_net, p) => (p.profile === 'inetTub' ? INT_HEADER_BYTES : p.profile === 'paper' ? TS_HEADER_BYTES : 0),
  ackHeaderBytes: (_net, p) => (p.profile === 'inetTub' ? INT_HEADER_BYTES : p.profile === 'paper' ? TS_HEADER_BYTES : 0),
  // the line-rate window; a lower start (initRateFraction) is applied by onStart
  initialCwnd: (flow, p) => (p.profile === 'inetTub' ? flow.maxBaseBdpBytes : (flow.lineRateBps * tau0(flow, p)) / SEC / 8),
  fastForward: true, // lastUpdateSeq and the send times move with shiftSeq (test/fast-forward-ccs.test.ts)
  create: (flow, p) => new ThetaPowerTcp(flow, p),
};
