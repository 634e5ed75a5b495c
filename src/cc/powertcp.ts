/**
 * PowerTCP (Addanki et al., NSDI'22): per-ACK window control from the
 * normalised power of the most loaded hop, measured with INT.
 *
 *   Γ_norm = λ·(q + b·τ) / (b²·τ)          (PowerTCP §3.1 Eq. 5–6, Alg. 1 l.8–24)
 *   w ← γ·(w_old/Γ + β) + (1 − γ)·w        (Eq. 7, Alg. 1 UPDATEWINDOW)
 *
 * λ is the arrival rate into the hop's egress queue (txRate + q̇ from the INT
 * txBytes / qlen deltas, or the delta of the rx-byte counter), Γ is smoothed
 * over τ with the time-weighted EWMA of Alg. 1 l.24 and w_old is the window
 * remembered once per RTT. By Property 1 (Γ = b·Σw) the update resets the
 * aggregate window to b·τ in one step; β adds the standing queue N·β
 * (App. A, Theorem 1).
 *
 * Three named profiles (docs/algorithms.md §3) fix every knob the paper leaves open
 * the way one code base did:
 * - `paper` (`powertcp-paper`, the default; docs/algorithms.md §3): window form
 *   paced at cwnd/τ; τ = topology-wide max base RTT (PowerTCP §4.1); λ =
 *   txRate + q̇; no λ floor; Δt ≤ τ; 100 % target; (1−γ)·cwnd with the current
 *   window; β = 0.006·HostBw·τ/8 (N ≈ 167 flows per NIC, §3.3 "Parameters");
 *   start cwnd = HostBw·τ/8 at line rate; first ACK (and a hop-count change)
 *   only remembers the INT stack.
 * - `oscarArtifact` (`powertcp-oscarArtifact`, every OSCAR figure): window form
 *   on the D-OSCAR plumbing (docs/network-model.md §10.3: unpaced at line rate while
 *   cwnd ≥ one packet, paced at (cwnd/BDP)·μ below it, window ≥ 0.001·BDP);
 *   τ = the flow's own base RTT; no λ floor, no Δt clamp (so the EWMA weight
 *   Δt/τ may exceed 1, as in the artifact's `DeltaTBound false` runs); Γ/0.95;
 *   (1−γ)·w_old (`GammaOld`); β = 0.006·BDP_base; cwnd ≤ BDP_base.
 * - `inetTub` (`powertcp-inetTub`, the PowerTCP authors' simulator, PowerTCP's
 *   own figures and CCC's baselines): rate form R ← γ·(R_ref/Γ + 150 Mb/s) +
 *   (1−γ)·R_ref with R_ref refreshed once per RTT (HPCC's fast-react
 *   structure), window = max(1, floor(maxBdp·R/C)); τ = max RTT; λ from the
 *   rx-byte counter, no floor; Δt ≤ τ; Γ/0.95; rate ≥ 100 Mb/s; the first
 *   ACK only remembers the INT stack: the simulator as it made the paper's figures
 *   and the reference runs (data/anchors/ns3-w10); its 2025 update (λ floored at
 *   0.5·b, first update from a zeroed reference) is `lambdaFloorRatio: 0.5,
 *   firstAck: update` (docs/algorithms.md §3).
 *
 * Individual knobs can be overridden (gamma, beta, target, λ source and floor,
 * Δt clamp, τ choice, rate floor); the realisation, law and start follow the
 * profile. The references' ACK-order differences do not reach this CC: the
 * once-per-RTT marker is always `maxSentSeq` (docs/algorithms.md §1).
 *
 * `intDeltas: artifact` replaces the exact INT arithmetic with the OSCAR artifact's
 * (modular fields, unguarded divisions; smoothPowerArtifact): a sensitivity for Fig. 10b's
 * per-packet spraying (OSCAR §6.4, App. A.3; experiments/oscar/README.md F7).
 *
 * Guards the papers leave implicit: a hop whose timestamp did not advance
 * (Δt ≤ 0) is skipped, and Γ is floored at 1e-3 before the division
 * (docs/algorithms.md §3 [AMB-P2]). oscarArtifact divides by its raw Γ as the
 * artifact does: without the Δt clamp the EWMA weight Δt/τ can exceed 1 and
 * turn Γ negative; a resulting negative (or infinite) window is taken as the
 * window cap, which is what the artifact's cast of a negative double to an
 * unsigned window (a huge value on common hardware) followed by the
 * BDP_base cap amounts to.
 */
import { z } from 'zod';
import { bpsParam } from '../engine/spec-fields.js';
import { SEC } from '../engine/units.js';
import { setDoscarCwnd } from './doscar-window.js';
import { modDelta } from './hpcc.js';
import * as ccTypes from './types.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance, SendInfo } from './types.js';

// an imported constant as an own binding, which V8 folds (net/port.ts says why)
const { INT_MAX_HOPS } = ccTypes;

export const POWERTCP_PROFILES = ['paper', 'oscarArtifact', 'inetTub'] as const;
export type PowerTcpProfile = (typeof POWERTCP_PROFILES)[number];

/** HPCC-format INT block (5 hops × 8 B + 2 B) on data packets and ACKs (docs/network-model.md §8, §11.5). */
export const INT_HEADER_BYTES = 42;

/** `intDeltas: artifact` (OSCAR artifact IntHop): time field mod 2^24 ns; tx bytes in 128-B units mod 2^20; queue in 80-B units mod 2^16. */
const ART_TIME_MOD = 2 ** 24;
const ART_BYTES_MOD = 2 ** 20;
const ART_BYTE_UNIT = 128;
const ART_QLEN_MOD = 2 ** 16;
const ART_QLEN_UNIT = 80;

/** Γ floor before the division (docs/algorithms.md §3 [AMB-P2]). */
export const POWER_FLOOR = 1e-3;

/**
 * Fast-forward moved a flow's sequence space by `bytes` (whole packets of `mtu`): a ring of
 * per-packet values indexed by packet number (seq / mtu, `mask` = size - 1) moves with it, so
 * that the packet now numbered i + bytes / mtu finds what was stored for i.
 */
export function shiftPacketRing(ring: Float64Array, mask: number, bytes: number, mtu: number): void {
  const k = Math.round(bytes / mtu) & mask;
  if (k === 0) return;
  const old = ring.slice();
  for (let i = 0; i <= mask; i++) ring[(i + k) & mask] = old[i]!;
}

const params = z
  .object({
    profile: z.enum(POWERTCP_PROFILES).default('paper').describe('named profile (docs/algorithms.md §3): paper = the NSDI paper law, oscarArtifact = OSCAR artifact, inetTub = PowerTCP authors\' simulator'),
    gamma: z.number().gt(0).max(1).default(0.9).describe('EWMA weight of the new window, in (0, 1] (PowerTCP §3.3: 0.9)'),
    gammaOld: z
      .boolean()
      .optional()
      .describe('window forms: the (1 - γ) term takes w_old, the window remembered once per RTT (oscarArtifact: on, the artifact\'s GammaOld), or the current window (paper: off; the OSCAR artifact\'s Fig 10b config powertcp-new.json sets no GammaOld)'),
    betaRatio: z.number().nonnegative().optional().describe('additive increase β as a fraction of HostBw·τ/8 bytes (paper, oscarArtifact: 0.006, docs/algorithms.md §3)'),
    betaRateBps: bpsParam({ allowZero: true }).optional().describe('additive increase β as a rate, bps; β = betaRateBps·τ/8 bytes (inetTub: 150 Mb/s)'),
    targetUtil: z.number().gt(0).max(1).optional().describe('Γ is divided by this (paper: 1; oscarArtifact, inetTub: 0.95, docs/algorithms.md §3 [AMB-P4])'),
    lambdaSource: z.enum(['txBytes', 'rxBytes']).optional().describe('λ = txRate + q̇ from INT txBytes (paper, oscarArtifact) or Δrx-bytes/Δt (inetTub), docs/algorithms.md §3'),
    lambdaFloorRatio: z.number().min(0).max(1).optional().describe('λ ≥ this · b (every profile: 0; 0.5 is the reference simulator\'s 2025 update), docs/algorithms.md §3 [AMB-P2]'),
    firstAck: z
      .enum(['remember', 'update'])
      .optional()
      .describe('first ACK and a hop-count change: only remember the INT stack (every profile; the reference simulator before its 2025 update) or update from a zeroed per-hop reference (that update), docs/algorithms.md §3'),
    deltaTClamp: z.boolean().optional().describe('clamp the EWMA interval Δt to τ (paper, inetTub: on; oscarArtifact: off), docs/algorithms.md §3 [AMB-P1]'),
    tau: z.enum(['maxBaseRtt', 'flowBaseRtt']).optional().describe('τ = topology-wide max base RTT (paper, inetTub) or the flow\'s own base RTT (oscarArtifact)'),
    minRateBps: bpsParam().optional().describe('rate floor, bps (paper, oscarArtifact: 0.001·HostBw; inetTub: 100 Mb/s)'),
    windowReference: z
      .enum(['perRtt', 'atSend'])
      .default('perRtt')
      .describe('window forms: w_old = the window remembered once per RTT (docs/algorithms.md §3, every profile) or the window when the acknowledged packet was sent (Eq. 7 w(t − θ) read literally)'),
    intDeltas: z
      .enum(['exact', 'artifact'])
      .default('exact')
      .describe(
        "per-hop INT arithmetic: exact (ccsim's counters; a hop whose timestamp did not advance is skipped) or artifact, the OSCAR artifact's IntHop fields (24-bit ns time, 20-bit count of 128 B, 16-bit count of 80 B queue) differenced modulo the field and divided as IEEE doubles with no guard: a negative time delta reads ~16.8 ms, a zero one an infinite or NaN power whose NaN stays in Γ (window at its cap); OSCAR §6.4 Fig. 10b, App. A.3, a sensitivity for spraying (issue 42 item 4)",
      ),
    updates: z
      .enum(['perAck', 'perRtt'])
      .default('perAck')
      .describe('window forms: set the window on every ACK (Alg. 1) or only once per RTT, Γ still smoothed on every ACK (PowerTCP §5, for parity with reTCP)'),
  })
  .strict()
  .refine((p) => p.betaRatio === undefined || p.betaRateBps === undefined, { message: 'give betaRatio or betaRateBps, not both', path: ['betaRateBps'] })
  .refine((p) => p.intDeltas !== 'artifact' || lambdaSourceOf(p) === 'txBytes', {
    message: 'intDeltas artifact models the txBytes INT fields: use lambdaSource txBytes (inetTub defaults to rxBytes)',
    path: ['intDeltas'],
  });
type Params = z.infer<typeof params>;

/** λ's INT source: the parameter, else the profile's (inetTub: the rx-byte counter). */
function lambdaSourceOf(p: { lambdaSource?: 'txBytes' | 'rxBytes' | undefined; profile: PowerTcpProfile }): 'txBytes' | 'rxBytes' {
  return p.lambdaSource ?? (p.profile === 'inetTub' ? 'rxBytes' : 'txBytes');
}

/** Per-profile defaults of the overridable knobs (docs/algorithms.md §3). */
interface Knobs {
  rxBytes: boolean;
  lambdaFloor: number;
  clamp: boolean;
  targetUtil: number;
  flowTau: boolean;
  /** β in bytes, given τ (ps) and the line rate */
  betaBytes: (tauPs: number, lineRateBps: number) => number;
  minRateBps: (lineRateBps: number) => number;
}

function knobs(p: Params): Knobs {
  const inet = p.profile === 'inetTub';
  const oscar = p.profile === 'oscarArtifact';
  return {
    rxBytes: lambdaSourceOf(p) === 'rxBytes',
    lambdaFloor: p.lambdaFloorRatio ?? 0,
    clamp: p.deltaTClamp ?? !oscar,
    targetUtil: p.targetUtil ?? (p.profile === 'paper' ? 1 : 0.95),
    flowTau: (p.tau ?? (oscar ? 'flowBaseRtt' : 'maxBaseRtt')) === 'flowBaseRtt',
    betaBytes: (tauPs, C) => betaBytesOf(p, inet ? 150e6 : undefined, tauPs, C),
    minRateBps: (C) => p.minRateBps ?? (inet ? 100e6 : 0.001 * C),
  };
}

/** τ of a flow under the profile, ps. */
function tauOf(flow: CcFlow, p: Params): number {
  return knobs(p).flowTau ? flow.pathBaseRttPs : flow.maxBaseRttPs;
}

/**
 * The rate form of the law ([P] `UpdateRatePower`): R = γ·(R_ref/Γ + β_rate) +
 * (1−γ)·R_ref, clamped to [minRate, line rate]. Shared by θ-PowerTCP.
 */
export function powerLawRate(rRef: number, G: number, gamma: number, betaRateBps: number, minRateBps: number, lineRateBps: number): number {
  const r = gamma * (rRef / G + betaRateBps) + (1 - gamma) * rRef;
  if (!(r >= minRateBps)) return minRateBps;
  return r > lineRateBps ? lineRateBps : r;
}

/**
 * β in bytes for a τ (ps): `betaRateBps·τ/8` if a rate is given (or defaulted by
 * the profile), else `betaRatio·HostBw·τ/8` (default ratio 0.006, docs/algorithms.md §3).
 */
export function betaBytesOf(p: { betaRatio?: number | undefined; betaRateBps?: number | undefined }, rateDefaultBps: number | undefined, tauPs: number, lineRateBps: number): number {
  const rate = p.betaRateBps ?? (p.betaRatio === undefined ? rateDefaultBps : undefined);
  return rate !== undefined ? (rate * tauPs) / SEC / 8 : ((p.betaRatio ?? 0.006) * lineRateBps * tauPs) / SEC / 8;
}

/** D-HPCC rate-scaled window (`VAR_WIN 1`, docs/network-model.md §10.2): max(1, floor(win·rate/C)). Shared by θ-PowerTCP. */
export function setRateHpcc(f: CcFlow, r: number, winBytes: number): void {
  f.setRate(r);
  f.setCwnd(Math.max(1, Math.floor((winBytes * f.rateBps) / f.lineRateBps)));
}

const FORM_PAPER = 0;
const FORM_OSCAR = 1;
const FORM_RATE = 2;

class PowerTcp implements CcInstance {
  private readonly form: number;
  private readonly tau: number;
  private readonly gamma: number;
  private readonly gammaOld: boolean;
  private readonly skipFirst: boolean;
  /** window forms: the window moves only once per RTT (`updates: perRtt`, PowerTCP §5) */
  private readonly perRtt: boolean;
  private readonly rx: boolean;
  /** `intDeltas: artifact`: the OSCAR artifact's IntHop arithmetic (smoothPowerArtifact) */
  private readonly art: boolean;
  private readonly lambdaFloor: number;
  private readonly clamp: boolean;
  private readonly targetUtil: number;
  private readonly beta: number;
  private readonly betaRate: number;
  private readonly minRate: number;
  private readonly minCwnd: number;
  private readonly maxCwnd: number;
  /** window the rate form scales by rate/C (maxBdp) */
  private readonly win: number;
  private cwnd: number;
  private cwndOld: number;
  private rRef: number;
  private gs = 1;
  private lastUpdateSeq = 0;
  private initialized = false;
  private prevHops = 0;
  /** windowReference atSend: the window at each packet's send time, by packet index (ring) */
  private readonly wAtSend: Float64Array | null;
  private readonly mask: number;
  private readonly mtu: number;
  private readonly pTs = new Float64Array(INT_MAX_HOPS);
  private readonly pQ = new Float64Array(INT_MAX_HOPS);
  private readonly pB = new Float64Array(INT_MAX_HOPS);

  constructor(
    private readonly f: CcFlow,
    p: Params,
  ) {
    const k = knobs(p);
    const C = f.lineRateBps;
    this.form = p.profile === 'paper' ? FORM_PAPER : p.profile === 'oscarArtifact' ? FORM_OSCAR : FORM_RATE;
    this.tau = tauOf(f, p);
    this.gamma = p.gamma;
    this.gammaOld = p.gammaOld ?? p.profile === 'oscarArtifact';
    this.skipFirst = (p.firstAck ?? 'remember') === 'remember';
    this.perRtt = p.updates === 'perRtt';
    this.rx = k.rxBytes;
    this.art = p.intDeltas === 'artifact';
    this.lambdaFloor = k.lambdaFloor;
    this.clamp = k.clamp;
    this.targetUtil = k.targetUtil;
    this.beta = k.betaBytes(this.tau, C);
    this.betaRate = (this.beta * 8 * SEC) / this.tau;
    this.minRate = k.minRateBps(C);
    this.maxCwnd = (C * this.tau) / SEC / 8;
    this.minCwnd = (this.minRate * this.tau) / SEC / 8;
    this.win = f.maxBaseBdpBytes;
    this.cwnd = this.form === FORM_RATE ? this.win : this.maxCwnd;
    this.cwndOld = this.cwnd;
    this.rRef = C;
    this.mtu = f.mtuBytes;
    if (p.windowReference === 'atSend' && this.form !== FORM_RATE) {
      // every packet in flight lies within one window cap (+ one packet) of sndUna
      const span = Math.ceil(this.maxCwnd / this.mtu) + 4;
      let size = 16;
      while (size < span) size *= 2;
      this.wAtSend = new Float64Array(size).fill(this.cwnd);
      this.mask = size - 1;
    } else {
      this.wAtSend = null;
      this.mask = 0;
    }
  }

  onSend(info: SendInfo): void {
    const w = this.wAtSend;
    if (w !== null) w[Math.floor(info.seq / this.mtu) & this.mask] = this.cwnd;
  }

  shiftSeq(bytes: number): void {
    this.lastUpdateSeq += bytes;
    if (this.wAtSend !== null) shiftPacketRing(this.wAtSend, this.mask, bytes, this.mtu);
  }

  onAck(ack: AckInfo): void {
    const n = ack.intHops < INT_MAX_HOPS ? ack.intHops : INT_MAX_HOPS;
    if (n === 0) return; // a D-OSCAR NACK carries no INT (docs/network-model.md §8)
    if (this.skipFirst && (!this.initialized || n !== this.prevHops)) {
      // first ACK or a route change: remember the stack, no update (docs/algorithms.md §3)
      this.remember(ack, n);
      if (!this.initialized) {
        this.initialized = true;
        this.cwndOld = this.cwnd;
        this.lastUpdateSeq = ack.maxSentSeq;
      }
      return;
    }
    if (this.art) this.smoothPowerArtifact(ack, n);
    else this.smoothPower(ack, n);
    const ws = this.wAtSend;
    if (ws !== null) this.cwndOld = ws[Math.floor((ack.seq - 1) / this.mtu) & this.mask]!;
    let G = this.gs / this.targetUtil;
    // the artifact divides by its raw Γ (negative without the Δt clamp); the others floor it
    if (this.form !== FORM_OSCAR && !(G > POWER_FLOOR)) G = POWER_FLOOR; // also catches NaN
    const full = ack.seq > this.lastUpdateSeq;
    const g = this.gamma;
    const f = this.f;
    if (this.form === FORM_RATE) {
      const r = powerLawRate(this.rRef, G, g, this.betaRate, this.minRate, f.lineRateBps);
      setRateHpcc(f, r, this.win);
      if (full) {
        this.rRef = r;
        this.lastUpdateSeq = ack.maxSentSeq;
      }
      return;
    }
    if (this.perRtt && !full) return;
    let w = g * (this.cwndOld / G + this.beta) + (1 - g) * (this.gammaOld ? this.cwndOld : this.cwnd);
    // artifact: a negative or infinite window becomes huge when cast to an unsigned
    // integer (two's complement on common hardware), i.e. the cap below
    if (this.form === FORM_OSCAR && !(w >= 0 && w < Infinity)) w = this.maxCwnd;
    if (!(w >= this.minCwnd)) w = this.minCwnd;
    if (w > this.maxCwnd) w = this.maxCwnd;
    this.cwnd = w;
    if (this.form === FORM_OSCAR) setDoscarCwnd(f, w);
    else {
      f.setCwnd(w);
      f.setRate((w * 8 * SEC) / this.tau); // pacing at cwnd/τ (Alg. 1 l.6)
    }
    if (full) {
      if (ws === null) this.cwndOld = w;
      this.lastUpdateSeq = ack.maxSentSeq;
    }
  }

  /** NORMPOWER (Alg. 1 l.8–24): max normalised power over the hops, then the time-weighted EWMA. */
  private smoothPower(ack: AckInfo, n: number): void {
    const tau = this.tau;
    const rx = this.rx;
    let gn = 0;
    let dtSel = 0;
    for (let i = 0; i < n; i++) {
      const dt = ack.intTsPs[i]! - this.pTs[i]!;
      if (!(dt > 0)) continue;
      const b = ack.intRateBps[i]!;
      const q = ack.intQlenBytes[i]!;
      const bytes = rx ? ack.intRxBytes[i]! - this.pB[i]! : ack.intTxBytes[i]! - this.pB[i]! + (q - this.pQ[i]!);
      const gi = this.hopPower((bytes * 8 * SEC) / dt, b, q, tau);
      if (gi > gn) {
        gn = gi;
        dtSel = dt;
      }
    }
    this.remember(ack, n);
    if (dtSel > 0) this.fold(gn, dtSel);
  }

  /** One hop's normalised power: λ (floored at lambdaFloor·b) / b × (1 + q / (b·τ)). */
  private hopPower(lambda: number, b: number, q: number, tau: number): number {
    const floor = this.lambdaFloor * b;
    return ((lambda < floor ? floor : lambda) / b) * (1 + (q * 8 * SEC) / (b * tau));
  }

  /** Γ_s ← (Γ_s (τ − Δt) + Γ Δt) / τ over the selected hop's interval, Δt ≤ τ when clamped. */
  private fold(gn: number, dtSel: number): void {
    const tau = this.tau;
    const dt = this.clamp && dtSel > tau ? tau : dtSel;
    this.gs = (this.gs * (tau - dt) + gn * dt) / tau;
  }

  /**
   * NORMPOWER as the OSCAR artifact computes it (`intDeltas: artifact`; its PowerTCP NormPower
   * over HPCC-style IntHop fields): time in whole ns mod 2^24, tx bytes in 128-B units mod 2^20,
   * queue in 80-B units mod 2^16, each delta taken modulo its field (never negative), and
   * λ = Δbytes·8/Δt + Δq·8/Δt divided as IEEE doubles without a guard. Under ECMP every delta
   * is one port's and this equals the exact form to the units' rounding; under per-packet
   * spraying successive ACKs carry other ports at a hop (OSCAR App. A.3), a negative time delta
   * becomes ~16.8 ms and a zero one gives an infinite or NaN λ. An infinite power selected with
   * Δt = 0 makes the EWMA Γ·(1 − 0) + ∞·0 = NaN, which stays in Γ for the rest of the flow and
   * (as a negative Γ does) holds the window at its cap. λ may still be floored (lambdaFloorRatio),
   * Δt clamped (deltaTClamp) as the profile says; the rx-byte source is not modelled here.
   */
  private smoothPowerArtifact(ack: AckInfo, n: number): void {
    const tau = this.tau;
    let gn = 0;
    let dtSel = 0;
    for (let i = 0; i < n; i++) {
      const dt = modDelta(ack.intTsPs[i]! / 1000, this.pTs[i]! / 1000, ART_TIME_MOD) * 1000; // ps
      const s = dt / SEC;
      const b = ack.intRateBps[i]!;
      const q = (Math.floor(ack.intQlenBytes[i]! / ART_QLEN_UNIT) % ART_QLEN_MOD) * ART_QLEN_UNIT;
      const qOld = (Math.floor(this.pQ[i]! / ART_QLEN_UNIT) % ART_QLEN_MOD) * ART_QLEN_UNIT;
      const bytes = modDelta(ack.intTxBytes[i]! / ART_BYTE_UNIT, this.pB[i]! / ART_BYTE_UNIT, ART_BYTES_MOD) * ART_BYTE_UNIT;
      const gi = this.hopPower((bytes * 8) / s + ((q - qOld) * 8) / s, b, q, tau);
      if (gi > gn) {
        gn = gi;
        dtSel = dt;
      }
    }
    this.remember(ack, n);
    if (gn > 0) this.fold(gn, dtSel); // ∞·0 = NaN when dtSel = 0, as the artifact
  }

  private remember(ack: AckInfo, n: number): void {
    const src = this.rx ? ack.intRxBytes : ack.intTxBytes;
    for (let i = 0; i < n; i++) {
      this.pTs[i] = ack.intTsPs[i]!;
      this.pQ[i] = ack.intQlenBytes[i]!;
      this.pB[i] = src[i]!;
    }
    this.prevHops = n;
  }
}

export const powertcpCc: CcDefinition<typeof params> = {
  name: 'powertcp',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'PowerTCP: INT power-based window control (profiles paper | oscarArtifact | inetTub)',
  reference: 'Addanki et al. NSDI\'22 §3.3 Alg. 1, App. A; docs/algorithms.md §3 (profiles)',
  params,
  needs: { int: true },
  dataHeaderBytes: () => INT_HEADER_BYTES,
  ackHeaderBytes: () => INT_HEADER_BYTES,
  initialCwnd: (flow, p) => (p.profile === 'inetTub' ? flow.maxBaseBdpBytes : (flow.lineRateBps * tauOf(flow, p)) / SEC / 8),
  fastForward: true, // lastUpdateSeq and the windows at send move with shiftSeq (test/fast-forward-ccs.test.ts)
  create: (flow, p) => new PowerTcp(flow, p),
};
