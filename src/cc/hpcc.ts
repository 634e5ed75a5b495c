/**
 * HPCC (Li et al., SIGCOMM'19): rate control from in-band telemetry.
 * docs/algorithms.md §9.4: the HPCC simulator (`variant: hpcc`) and the OSCAR
 * artifact (`variant: oscar`); HPCC* (same section) is this CC with eta = 1.5.
 *
 * Per ACK, for every hop of the echoed INT stack:
 *   u_i = txRate_i / B_i + min(qlen_i, qlen_i^prev)·8 / (B_i·T)
 * with txRate from the txBytes and timestamp deltas against the previous ACK.
 * The maximum U (and its τ) feeds an EWMA u over τ/T; k = u/η. Multiplicative
 * decrease (or MI after maxStage AI rounds) `Rc/k + W_AI`, else additive
 * `Rc + W_AI`. The reference rate Rc and the stage only move once per RTT
 * (the ACK of the first packet sent after the last update); other ACKs only
 * "fast react" from Rc. Window = rate·T (bytes), so in-flight tracks the rate.
 *
 * INT values are exact here (ps timestamps, byte counters, bps rates), so the
 * references' modular field widths never wrap; when two ACKs carry the same hop
 * timestamp (τ = 0) the rate term of that hop is skipped (docs/algorithms.md §9.4).
 */
import { z } from 'zod';
import { bpsParam } from '../engine/spec-fields.js';
import type { NetworkConfig } from '../net/config.js';
import * as ccTypes from './types.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance, SendInfo } from './types.js';

// an imported constant as an own binding, which V8 folds (net/port.ts says why)
const { INT_MAX_HOPS } = ccTypes;

const params = z
  .object({
    variant: z.enum(['auto', 'hpcc', 'oscar']).default('auto').describe('hpcc = HPCC simulator, oscar = OSCAR artifact (docs/algorithms.md §9.4); auto by profile'),
    preset: z
      .enum(['auto', 'powertcp'])
      .default('auto')
      .describe('parameter column of the defaults: auto = W_AI 0.0005·C, floor 0.001·C; powertcp = the PowerTCP artifact\'s configs (RATE_AI 50 Mb/s, MIN_RATE 100 Mb/s; docs/algorithms.md §9.4)'),
    // η is a fraction of line rate (0.95, docs/algorithms.md §9); above 1 it holds a standing queue of (η - 1) BDP (HPCC*, OSCAR §6.1: 1.5)
    eta: z.number().gt(0).max(2).default(0.95).describe('target utilisation as a fraction, 0.95 = 95 % (HPCC* uses 1.5)'),
    maxStage: z.number().int().nonnegative().default(5).describe('additive rounds before multiplicative increase'),
    rateAiBps: bpsParam({ allowZero: true }).optional().describe('W_AI as a rate, bps (default: 0.0005·C, 50 Mb/s at 100 G; preset powertcp: 50 Mb/s)'),
    minRateBps: bpsParam().optional().describe('rate floor, bps (default 0.001·C; preset powertcp: 100 Mb/s)'),
    fastReact: z.boolean().default(true).describe('react on every ACK, not only once per RTT'),
    smoothU: z.boolean().default(true).describe('EWMA of U over tau/T (false = the artifact ImmediateMode, u = U; OSCAR Fig 8)'),
    reference: z
      .enum(['perRtt', 'synchronized'])
      .default('perRtt')
      .describe("reference rate Rc: updated once per RTT (HPCC) or the rate at the acked packet's send time (artifact RefFixMode, OSCAR §4.1.2 / Fig 8b)"),
    routeChange: z
      .enum(['compare', 'restart'])
      .default('compare')
      .describe('an ACK with another hop count than the last: compare hop by hop anyway (the references) or only remember its INT stack (a path that changes, PowerTCP §5)'),
    intDeltas: z
      .enum(['exact', 'wrapped'])
      .default('exact')
      .describe(
        "per-hop time and tx-byte deltas: exact (ccsim's INT) or wrapped, the HPCC simulator's IntHop fields (24-bit ns time, 20-bit count of 128 B) and its modular differences, which never go negative (a sensitivity for spraying, where successive ACKs carry different ports at a hop; issue 42 item 4)",
      ),
  })
  .strict();
type Params = z.infer<typeof params>;

/**
 * W_AI and the rate floor, bps: explicit values, else the preset's column. `powertcp` is
 * the PowerTCP artifact's workload and burst configs (RATE_AI 50Mb/s, MIN_RATE 100Mb/s
 * with 25 G NICs), which its HPCC runs used; `auto` keeps 0.0005·C and 0.001·C.
 */
export function hpccRates(p: { preset: 'auto' | 'powertcp'; rateAiBps?: number | undefined; minRateBps?: number | undefined }, lineRateBps: number): { rateAiBps: number; minRateBps: number } {
  const pt = p.preset === 'powertcp';
  return {
    rateAiBps: p.rateAiBps ?? (pt ? 50e6 : 0.0005 * lineRateBps),
    minRateBps: p.minRateBps ?? (pt ? 100e6 : 0.001 * lineRateBps),
  };
}

/** sampled state (metrics ccTrace): rate, reference rate Rc, EWMA utilisation u, AI stage */
/** `u`: the EWMA HPCC acts on; `u_int`: the last ACK's U from INT (max over hops, before the EWMA) */
const HPCC_TRACE_FIELDS = ['rate_bps', 'rc_bps', 'u', 'inc_stage', 'u_int'] as const;

/** The HPCC simulator's IntHop field widths (`intDeltas: wrapped`): time in ns mod 2^24, tx bytes in 128-B units mod 2^20. */
const TIME_MOD = 2 ** 24;
const BYTES_MOD = 2 ** 20;
const BYTE_UNIT = 128;

/** (a - b) of two counters truncated to whole units and stored mod m, as the reference's unsigned fields: in [0, m). */
export function modDelta(a: number, b: number, m: number): number {
  const d = (Math.floor(a) % m) - (Math.floor(b) % m);
  return d >= 0 ? d : d + m;
}

/** HPCC INT block (5 hops × 8 B + 2 B), on data and on ACKs (docs/network-model.md §8, §11.5). */
const INT_HEADER_BYTES = 42;

class Hpcc implements CcInstance {
  private rc: number;
  private incStage = 0;
  private u = 1;
  private uInt = 0;
  private lastUpdateSeq = 0;
  private initialized = false;
  private prevHops = 0;
  private readonly ts = new Float64Array(INT_MAX_HOPS);
  private readonly tx = new Float64Array(INT_MAX_HOPS);
  private readonly qlen = new Float64Array(INT_MAX_HOPS);
  private readonly T: number;
  private readonly rateAi: number;
  private readonly minRate: number;
  private readonly oscar: boolean;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
    net: NetworkConfig,
  ) {
    this.rc = f.lineRateBps;
    this.T = f.baseRttPs;
    const r = hpccRates(p, f.lineRateBps);
    this.rateAi = r.rateAiBps;
    this.minRate = r.minRateBps;
    this.oscar = p.variant === 'auto' ? net.profile === 'oscar' : p.variant === 'oscar';
  }

  onSend(info: SendInfo): void {
    // the packet carries its send-time rate, so the reference can be the state synchronised with its signal
    if (this.p.reference === 'synchronized') info.inflightStamp = this.f.rateBps;
  }

  private setRate(r: number): void {
    const f = this.f;
    f.setRate(r);
    // window follows the rate: cwnd = rate·T (D-HPCC VAR_WIN: max(1, floor(win·rate/C)))
    const w = (f.baseBdpBytes * f.rateBps) / f.lineRateBps;
    f.setCwnd(this.oscar ? w : Math.max(1, Math.floor(w)));
  }

  onAck(ack: AckInfo): void {
    const n = ack.intHops;
    if (n === 0) return; // a NACK without the echo header (D-OSCAR)
    const fast = !(ack.seq > this.lastUpdateSeq);
    if (!this.initialized) {
      this.copyHops(ack, n);
      this.initialized = true;
      this.lastUpdateSeq = ack.sndNxt;
      return;
    }
    if ((fast && !this.p.fastReact) || (n !== this.prevHops && this.p.routeChange === 'restart')) {
      this.copyHops(ack, n);
      return;
    }
    if (n > INT_MAX_HOPS) {
      // cannot happen with <= 5 switches; the reference skips the rate part
      this.copyHops(ack, INT_MAX_HOPS);
      return;
    }
    const T = this.T;
    let U = 0;
    let tauMax = 0;
    const wrapped = this.p.intDeltas === 'wrapped';
    for (let i = 0; i < n; i++) {
      const B = ack.intRateBps[i]!;
      const tau = wrapped ? modDelta(ack.intTsPs[i]! / 1000, this.ts[i]! / 1000, TIME_MOD) * 1000 : ack.intTsPs[i]! - this.ts[i]!;
      const bytes = wrapped ? modDelta(ack.intTxBytes[i]! / BYTE_UNIT, this.tx[i]! / BYTE_UNIT, BYTES_MOD) * BYTE_UNIT : ack.intTxBytes[i]! - this.tx[i]!;
      const q = Math.min(ack.intQlenBytes[i]!, this.qlen[i]!);
      let ui = (q * 8 * 1e12) / (B * T);
      if (tau > 0) ui += (bytes * 8 * 1e12) / tau / B;
      if (ui > U) {
        U = ui;
        tauMax = tau;
      }
    }
    this.copyHops(ack, n);
    this.uInt = U;
    const tau = tauMax < T ? tauMax : T;
    this.u = this.p.smoothU ? (this.u * (T - tau) + U * tau) / T : U;
    // synchronised reference: the rate this packet was sent at (stamped in onSend, echoed)
    if (this.p.reference === 'synchronized' && ack.inflightBytes > 0) this.rc = ack.inflightBytes;
    const k = this.u / this.p.eta;
    let newRate: number;
    let newStage: number;
    if (k >= 1 || this.incStage >= this.p.maxStage) {
      newRate = this.rc / k + this.rateAi;
      newStage = 0;
    } else {
      newRate = this.rc + this.rateAi;
      newStage = this.incStage + 1;
    }
    const C = this.f.lineRateBps;
    if (!(newRate >= this.minRate)) newRate = this.minRate;
    if (newRate > C) newRate = C;
    this.setRate(newRate);
    if (!fast) {
      this.rc = newRate;
      this.incStage = newStage;
      if (ack.sndNxt > this.lastUpdateSeq) this.lastUpdateSeq = ack.sndNxt;
    }
  }

  shiftSeq(bytes: number): void {
    this.lastUpdateSeq += bytes;
  }

  traceState(out: Float64Array): void {
    out[0] = this.f.rateBps;
    out[1] = this.rc;
    out[2] = this.u;
    out[3] = this.incStage;
    out[4] = this.uInt;
  }

  private copyHops(ack: AckInfo, n: number): void {
    this.prevHops = n;
    for (let i = 0; i < n; i++) {
      this.ts[i] = ack.intTsPs[i]!;
      this.tx[i] = ack.intTxBytes[i]!;
      this.qlen[i] = ack.intQlenBytes[i]!;
    }
  }
}

export const hpccCc: CcDefinition<typeof params> = {
  name: 'hpcc',
  parallel: true, // checked against one thread (test/threads.test.ts)
  fastForward: true, // lastUpdateSeq moves with shiftSeq (test/fast-forward.test.ts)
  description: 'HPCC: INT-based rate and window control toward eta utilisation (HPCC* with eta = 1.5)',
  reference: 'Li et al. SIGCOMM\'19; docs/algorithms.md §9.4 (HPCC simulator and OSCAR artifact variants, HPCC*)',
  params,
  // inflight: the echoed per-packet stamp carries the send-time rate in `reference: synchronized`
  needs: { int: true, inflight: true },
  dataHeaderBytes: () => INT_HEADER_BYTES,
  ackHeaderBytes: () => INT_HEADER_BYTES,
  initialCwnd: (flow) => flow.baseBdpBytes,
  create: (flow, p) => new Hpcc(flow, p, flow.net),
  traceFields: HPCC_TRACE_FIELDS,
};

const starParams = params.extend({
  eta: z.number().gt(0).max(2).default(1.5).describe('target utilisation: 1.5 = a 0.5-BDP standing queue, the target of OSCAR (OSCAR §6.1 HPCC*)'),
});

/**
 * HPCC* (docs/algorithms.md §9.4): HPCC with eta = 1.5, OSCAR's
 * `hpcc-target1.5.json`, listed under its own name so a sweep can name it.
 */
export const hpccStarCc: CcDefinition<typeof starParams> = {
  name: 'hpcc-star',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'HPCC* (alias): HPCC with eta = 1.5, the same 0.5-BDP target queue as OSCAR',
  reference: 'OSCAR §6.1 (HPCC*); docs/algorithms.md §9.4 (= hpcc with eta 1.5); docs/baselines.md',
  params: starParams,
  needs: hpccCc.needs,
  dataHeaderBytes: () => INT_HEADER_BYTES,
  ackHeaderBytes: () => INT_HEADER_BYTES,
  initialCwnd: (flow) => flow.baseBdpBytes,
  create: (flow, p) => new Hpcc(flow, p, flow.net),
  traceFields: HPCC_TRACE_FIELDS,
};
