/**
 * CCC: CiD-sensitive delay-based congestion control (NSDI'26, §4; Alg. 1;
 * Eq. 1-9), as specified in docs/algorithms.md §6 with its reconstructions kept as
 * parameters ([AMB-C1] region boundaries q_L and q_H, [AMB-C2] the analytical
 * step with the smoothing factor capped at 1, the v_ai cap).
 *
 * Per ACK k (no switch support, only the echoed send time):
 *   q    = max(RTT - RTT_min, 0)                           queueing delay (Eq. 2)
 *   q_v  = γ·q_v + (1-γ)·ΔRTT/Itv                           delay gradient (Eq. 4, γ on the old value)
 *   δ    = 0.5·log2(q_B/q) - q_v                           congestion criterion (Eq. 5)
 *   Irr  = R_l·max(0, 1 - q/q_B)                           independent reference rate (Eq. 6)
 *   sm   = min(Itv/RTT_min, 1)                             smoothing factor (§4.3.4)
 * The point (q, q_v) falls in one of six regions (docs/algorithms.md §6): on the
 * increase side (δ > 0) A^i (analytical, Eq. 8) or the probing regions H1^i /
 * H2^i (u = sm·v_ai·w_ai·f·S); on the decrease side A^d, H1^d, H2^d share the
 * probing decrease u = sm·w_md·f·r. f is the fairness factor (Eq. 9), S the
 * adaptive basis (mean of the last 5 rates seen with |q_v| < 0.05, taken when
 * the state leaves A for H^i), v_ai = 2^n for n RTTs of under-utilisation.
 * The window is r·RTT_min with the flow's own RTT_min (§5 of the paper).
 *
 * The state (region, q, q_v, S, v_ai, rate, δ and counts of analytical /
 * all ACKs) can be sampled per flow with metrics `ccTrace` (CCC Figs 6, 7, 10).
 */
import { z } from 'zod';
import { bytesParam, timeParam } from '../engine/spec-fields.js';
import type { NetworkConfig } from '../net/config.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';

/** Region codes as written to cc_trace.csv. */
export const CCC_REGION = { Ai: 0, Ad: 1, H1i: 2, H2i: 3, H1d: 4, H2d: 5 } as const;
const AI = CCC_REGION.Ai;
const AD = CCC_REGION.Ad;
const H1I = CCC_REGION.H1i;
const H2I = CCC_REGION.H2i;
const H1D = CCC_REGION.H1d;
const H2D = CCC_REGION.H2d;

const params = z
  .object({
    qBUs: timeParam('us').default(5).describe('destination queueing delay q_B, us (CCC §6.1: 5 us in simulation, 20 us on the testbed)'),
    gamma: z.number().min(0).max(1).default(0.2).describe('EWMA weight of the previous q_v (Eq. 4)'),
    qLRttFraction: z.number().positive().default(0.05).describe('[AMB-C1] reconstruction: A^i / H^i boundary q_L = this x RTT_min'),
    qLUs: timeParam('us').optional().describe('[AMB-C1] alternative: an absolute q_L in us (e.g. q_B), overrides qLRttFraction'),
    qHFactor: z.number().positive().default(4).describe('[AMB-C1] reconstruction: H2^d boundary q_H = this x q_B'),
    underUtilRttFraction: z.number().positive().default(0.05).describe('v_ai: q below this x RTT_min counts as under-utilisation (§4.3.4)'),
    h1iWeight: z.number().nonnegative().default(0.5).describe('w_ai in H1^i = this x Irr/R_l x max(0, 1 - 2r/R_l)'),
    h2iWeight: z.number().nonnegative().default(0.1).describe('w_ai in H2^i = this x Irr/R_l'),
    mdWeight: z.number().min(0).max(1).default(0.25).describe('w_md = -this x min(|q - q_B|/q_B, 1)'),
    stableQv: z.number().positive().default(0.05).describe('rates are recorded for S while |q_v| < this'),
    sRecords: z.number().int().positive().default(5).describe('rates averaged into the basis S'),
    vaiMaxExponent: z.number().int().nonnegative().default(16).describe('reconstruction: v_ai = 2^min(n, this) (overflow guard)'),
    initRateFraction: z.number().positive().max(1).default(1).describe('r_init / R_l (unspecified; line-rate start)'),
    minRateFraction: z.number().positive().max(1).default(0.001).describe('r_min / R_l (unspecified)'),
    sInitFraction: z.number().positive().max(1).default(0.1).describe('S_init / R_l (unspecified)'),
    packetBytes: bytesParam().optional().describe('M of the analytical rule (Eq. 8), bytes; default the MTU payload'),
    eq8Gain: z.number().positive().default(1).describe('diagnostic only: multiplies the analytical step of Eq. 8 (the paper: 1; issue 28 6e limit-cycle sweep, experiments/ccc/ccc-limit-cycle.yaml)'),
    qvBound: z.number().default(-1).describe('[AMB-C1] A^i lower bound on q_v (the paper: q_v = -1 bounds A^i); below it the point is H1^i'),
    h1iQvMargin: z.number().nonnegative().default(1e-9).describe('[AMB-C1] H1^i / H2^i split below q_L: H1^i when q_v < -this, else H2^i (default 1e-9: the sign of q_v, with the residue of Eq. 4\'s EWMA on an emptied link counted as 0; 0 = the bare sign, the default until 2026-11-28; docs/algorithms.md §6)'),
    rttMin: z.enum(['path', 'base']).default('path').describe("RTT_min: 'path' = the flow's own unloaded RTT, 'base' = the profile's base RTT"),
  })
  .strict();
type Params = z.infer<typeof params>;

/** Send timestamp carried on data packets in the D-HPCC dialect (docs/network-model.md §8, TIMELY's TS field). */
const TS_HEADER_BYTES = 8;

const LN2 = Math.LN2;
/** floor of q inside log2(q_B/q): 1 ns (docs/algorithms.md §6) */
const Q_FLOOR_PS = 1000;

class Ccc implements CcInstance {
  private readonly Rl: number;
  private readonly rttMin: number;
  private readonly qB: number;
  private readonly qL: number;
  private readonly qH: number;
  private readonly underUtil: number;
  private readonly rMin: number;
  /** 8·M, bits */
  private readonly bitsM: number;
  private readonly gamma: number;
  private readonly qvBound: number;
  private readonly h1iQv: number;
  /** 8·M·eq8Gain, bits (Eq. 8's M; eq8Gain is a diagnostic, 1 by default) */
  private readonly stepBits: number;
  private r: number;
  private S: number;
  private qv = 0;
  private q = 0;
  private delta = 0;
  private prevRtt = 0;
  private prevT = 0;
  private started = false;
  private region = -1;
  private vai = 1;
  private uu = false;
  private tU = 0;
  private readonly rec: Float64Array;
  private recN = 0;
  private recI = 0;
  private analyticalAcks = 0;
  private acks = 0;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    this.Rl = f.lineRateBps;
    this.rttMin = p.rttMin === 'path' ? f.pathRttPs : f.baseRttPs;
    this.qB = p.qBUs * 1e6;
    this.qL = p.qLUs !== undefined ? p.qLUs * 1e6 : p.qLRttFraction * this.rttMin;
    this.qH = p.qHFactor * this.qB;
    this.underUtil = p.underUtilRttFraction * this.rttMin;
    this.rMin = p.minRateFraction * this.Rl;
    this.bitsM = 8 * (p.packetBytes ?? f.mtuBytes);
    this.gamma = p.gamma;
    this.qvBound = p.qvBound;
    this.h1iQv = -p.h1iQvMargin;
    this.stepBits = this.bitsM * p.eq8Gain;
    this.r = p.initRateFraction * this.Rl;
    this.S = p.sInitFraction * this.Rl;
    this.rec = new Float64Array(p.sRecords);
  }

  onStart(): void {
    this.apply();
  }

  private apply(): void {
    const f = this.f;
    f.setRate(this.r);
    f.setCwnd((this.r * this.rttMin) / 8e12);
  }

  onAck(ack: AckInfo): void {
    // RTT samples only from ACKs of delivered packets (docs/algorithms.md §1)
    if (ack.isNack) return;
    const now = ack.nowPs;
    const rtt = now - ack.sendTsPs;
    this.acks++;
    const rttMin = this.rttMin;
    const qRaw = rtt - rttMin;
    const q = qRaw > 0 ? qRaw : 0;
    this.q = q;
    if (!this.started) {
      // first ACK: no gradient yet, no rate change (docs/algorithms.md §6)
      this.started = true;
      this.prevRtt = rtt;
      this.prevT = now;
      this.qv = 0;
      this.delta = this.criterion(q, 0);
      return;
    }
    const itv = now - this.prevT;
    if (itv > 0) this.qv = this.gamma * this.qv + ((1 - this.gamma) * (rtt - this.prevRtt)) / itv;
    this.prevRtt = rtt;
    this.prevT = now;
    const qv = this.qv;
    const qB = this.qB;
    const Rl = this.Rl;
    const delta = this.criterion(q, qv);
    this.delta = delta;
    const irr = q < qB ? Rl * (1 - q / qB) : 0;
    const sm = itv >= rttMin ? 1 : itv / rttMin;
    const r = this.r;

    // region judgement (docs/algorithms.md §6, [AMB-C1])
    let region: number;
    if (delta > 0) {
      if (q < this.qL) region = qv < this.h1iQv ? H1I : H2I;
      else region = qv >= this.qvBound ? AI : H1I;
    } else if (q > this.qH) region = H2D;
    else if (qv > 0) region = H1D;
    else region = AD;

    const fair = delta * (irr - r) > 0 ? 1 : 0;
    // basis S: record rates near the equilibrium, take their mean when A is left for H^i
    if (Math.abs(qv) < this.p.stableQv) {
      this.rec[this.recI] = r;
      this.recI = (this.recI + 1) % this.rec.length;
      if (this.recN < this.rec.length) this.recN++;
    }
    const prev = this.region;
    if ((prev === AI || prev === AD) && (region === H1I || region === H2I) && this.recN > 0) {
      let s = 0;
      for (let i = 0; i < this.recN; i++) s += this.rec[i]!;
      this.S = s / this.recN;
    }
    // v_ai = 2^n, n = whole RTTs of under-utilisation so far (at most doubles once per RTT)
    if (q >= this.underUtil) {
      this.uu = false;
      this.vai = 1;
    } else if (!this.uu) {
      this.uu = true;
      this.tU = now;
      this.vai = 1;
    } else {
      const n = Math.floor((now - this.tU) / rttMin);
      this.vai = 2 ** (n < this.p.vaiMaxExponent ? n : this.p.vaiMaxExponent);
    }
    this.region = region;

    let u: number;
    if (region === AI) {
      // Eq. 8 with the capped smoothing factor ([AMB-C2]): (…)·8M/Itv·min(Itv/RTT_min, 1) = (…)·8M/max(Itv, RTT_min)
      const qpRaw = q + itv * qv;
      const qp = qpRaw > this.qL ? qpRaw : this.qL;
      const span = itv > rttMin ? itv : rttMin;
      u = ((0.5 * Math.log(qB / qp)) / LN2 - qv) * ((this.stepBits * 1e12) / span);
      this.analyticalAcks++;
    } else if (region === H1I || region === H2I) {
      let wai: number;
      if (region === H1I) {
        const room = 1 - (2 * r) / Rl;
        wai = this.p.h1iWeight * (irr / Rl) * (room > 0 ? room : 0);
      } else wai = this.p.h2iWeight * (irr / Rl);
      u = sm * this.vai * wai * fair * this.S;
    } else {
      const dev = Math.abs(q - qB) / qB;
      const wmd = -this.p.mdWeight * (dev < 1 ? dev : 1);
      u = sm * wmd * fair * r;
    }
    let nr = r + u;
    if (!(nr >= this.rMin)) nr = this.rMin;
    if (nr > Rl) nr = Rl;
    if (nr !== r) {
      this.r = nr;
      this.apply();
    }
  }

  /** δ = 0.5·log2(q_B / max(q, 1 ns)) - q_v (Eq. 5). */
  private criterion(q: number, qv: number): number {
    return (0.5 * Math.log(this.qB / (q > Q_FLOOR_PS ? q : Q_FLOOR_PS))) / LN2 - qv;
  }

  traceState(out: Float64Array): void {
    out[0] = this.region;
    out[1] = this.q / 1e6;
    out[2] = this.qv;
    out[3] = this.delta;
    out[4] = this.S;
    out[5] = this.vai;
    out[6] = this.r;
    out[7] = this.analyticalAcks;
    out[8] = this.acks;
  }
}

export const cccCc: CcDefinition<typeof params> = {
  name: 'ccc',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'CCC: delay-based, analytical sliding-mode rule where the delay signal is trustworthy, adaptive probing elsewhere',
  reference: 'CCC (NSDI\'26) §4.3, Alg. 1, Eq. 1-9; docs/algorithms.md §6 (reconstructed regions [AMB-C1], Eq. 8 with capped smoothing [AMB-C2])',
  params,
  needs: { ts: true },
  dataHeaderBytes: (net: NetworkConfig) => (net.profile === 'hpcc' ? TS_HEADER_BYTES : 0),
  ackHeaderBytes: () => 0,
  initialCwnd: (flow, p) => (p.initRateFraction * flow.lineRateBps * (p.rttMin === 'path' ? flow.pathRttPs : flow.baseRttPs)) / 8e12,
  create: (flow, p) => new Ccc(flow, p),
  // region codes: CCC_REGION (0 A^i, 1 A^d, 2 H1^i, 3 H2^i, 4 H1^d, 5 H2^d)
  traceFields: ['region', 'q_us', 'qv', 'delta', 's_bps', 'vai', 'rate_bps', 'analytical_acks', 'acks'],
};
