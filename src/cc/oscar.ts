/**
 * OSCAR (NSDI'26): O(1)-step convergence from end-to-end delay and delay
 * gradient, no switch support. Implements OSCAR Alg. 1 (batched estimator,
 * §4.1) and Alg. 2 (control law, §4.2-4.3) as specified in docs/algorithms.md §2,
 * with the resolutions of its ambiguities (docs/algorithms.md §2) and the OSCAR-artifact
 * deviations of §1.8 available as named options.
 *
 * Per ACK (docs/algorithms.md §2): the sample (x = echoed send time, y = delay) is
 * added to a Batched-Least-Squares accumulator anchored at the batch's own
 * first sample (AMB-O2, artifact anchoring; `batchAnchor: previousClose` is Alg. 1's
 * anchor at the previous batch's closing sample); the packet count, the summed
 * in-flight stamps (the reference state measured over the same packets as the
 * signal, §4.1.2) and the acknowledged wire bytes are accumulated too. When
 * the batch spans more than tau of send time with at least nMin samples it
 * closes and yields the mean delay, the slope (gradient), the mean in-flight
 * and the delivered rate.
 *
 * Control law (docs/algorithms.md §2): an (almost) empty queue gives a hyper
 * increase u += U_HAI; otherwise the <delay, window> loop gives
 * u_w = infl / (delay·mu) and the <gradient, rate> loop u_r = rate / ((1+g)·mu);
 * below the target delay OSCAR takes max(u_w, u_r), at or above it
 * min(u_w, u_r), then adds U_AI. Window and rate keep the same ratio u to
 * their targets (Theorem 4.1): cwnd = min(u·D_target·mu/8, BDP_base),
 * rate = u·mu.
 *
 * Signal: RTT (default; paper and every artifact config) or one-way delay
 * (OSCAR-OWD, App. C.6). With OWD the sample is converted to the equivalent
 * RTT by adding the base reverse-path delay (baseRtt - baseOneWay), so
 * reverse-path queueing does not count as congestion while the window loop
 * keeps its RTT meaning (d = sum(w)/mu); the paper does not spell out OWD's
 * window law, so this is a reconstruction.
 *
 * ACK coalescing (App. A.1): an ACK covering `cnt` packets adds one
 * regression point, cnt packets and the receiver's sumInfl. The artifact's
 * "OSCAR-ACKC" emulation (ART-11: only the first, middle and last sample of a
 * batch enter the delay and gradient) is the `blsPoints: 'threePoint'` option.
 *
 * Time is kept in ps (engine clock) except inside the regression, which uses
 * ns offsets from the batch's first send time (exact centring, docs/algorithms.md §2).
 * Nothing is allocated per ACK.
 *
 * Which packet a sample describes (`rttRecord`): by default the one that
 * triggered the ACK (its echoed send time and in-flight stamp). `cumulative` is
 * the OSCAR artifact's bookkeeping under reordering (its `RttRecordStructure Map`,
 * set by the configs of the spraying runs, Fig 10b and Fig 12, and of Fig 10c;
 * OSCAR §6.4, App. A.3): the sender keeps the send time and in-flight stamp of
 * every packet it sends, by packet index, and takes the sample from the record
 * of the last packet the ACK's cumulative sequence covers, measured at the ACK's
 * arrival. With in-order delivery both are the same sample; under per-packet
 * spraying (receiver `retxMode: none`, every packet ACKed with the cumulative
 * sequence) an ACK that does not advance the sequence repeats that record with
 * a later arrival, so the delay grows with the reordering, and an ACK that fills
 * a gap gives the send time of the newest packet it covers. An ACK covering
 * nothing yet (cumulative 0) gives no sample here (the artifact then reads an
 * empty record, send time 0, its check compiled out in optimised builds).
 *
 * State trace (metrics `ccTrace`, cc_trace.csv): `OSCAR_TRACE_FIELDS`, the
 * current u and the estimates of the last closed batch, with a batch counter
 * so a sampled trace shows where each update happened.
 */
import { z } from 'zod';
import { bpsParam, bytesParam, timeParam } from '../engine/spec-fields.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance, SendInfo } from './types.js';

const params = z
  .object({
    targetQueueBytes: bytesParam({ allowZero: true })
      .default(75_000)
      .describe('Q_target: D_target = RTT_base + 8·Q_target/mu, one absolute value for every flow (docs/algorithms.md §2; artifact TargetQueueLength 75KB)'),
    targetDelayRttFactor: z
      .number()
      .min(1)
      .optional()
      .describe('paper form D_target = factor·RTT_base per flow (Table 4: 1.5); overrides targetQueueBytes when set'),
    tauNs: timeParam('ns').default(5000).describe('tau, batch period and update interval, ns (artifact BlsDuration 5 us, docs/algorithms.md §2)'),
    tauRttFraction: z.number().positive().optional().describe('paper form tau = fraction·RTT_base (0.5); overrides tauNs when set'),
    uAi: z.number().min(0).max(1).default(0.001).describe('U_AI, additive term after every MIMD step (§4.3)'),
    uHai: z.number().min(0).max(1).default(0.01).describe('U_HAI, hyper increase on an empty queue (§4.2)'),
    epsilonNs: timeParam('ns', { allowZero: true }).default(1000).describe('epsilon: delay < RTT_base + epsilon counts as an empty queue, ns (AMB-O3)'),
    nMin: z.number().int().min(2).default(3).describe('minimum samples per batch, the first included (Alg. 1 l.7)'),
    uInit: z.number().gt(0).max(1).default(1).describe('start ratio (1 = line rate, window BDP_base)'),
    uMin: z.number().gt(0).max(1).default(0.001).describe('lower clamp of u (artifact MinRateRatio, ART-10)'),
    uMax: z.number().gt(0).max(1).default(1).describe('upper clamp of u (ART-10)'),
    gMin: z.number().gt(-1).max(0).default(-0.9).describe('gradient floor (ART-10)'),
    hysteresisNs: timeParam('ns', { allowZero: true }).default(0).describe('h: max(u_w,u_r) only below D_target - h, ns (paper 0; artifact 500, ART-12)'),
    staleFactor: z.number().positive().default(3).describe('a batch spanning more than staleFactor·tau gives g = 0 and u_r = u_w (ART-9)'),
    artifactRateBias: z.boolean().default(false).describe('artifact rate n·pktWire/(last-first), over-estimating by n/(n-1) (ART-8, AMB-O2); default unbiased'),
    estimatorLineRateBps: bpsParam().optional().describe('line rate dividing the estimated rate in u_r (default mu; the artifact hard-codes 100e9, ART-8)'),
    signal: z.enum(['rtt', 'owd']).default('rtt').describe('delay signal: round-trip time or one-way delay (OSCAR-OWD, App. C.6)'),
    blsPoints: z.enum(['all', 'threePoint']).default('all').describe('regression points per batch: every ACK, or first/middle/last only (artifact OSCAR-ACKC, ART-11)'),
    batchAnchor: z
      .enum(['firstSample', 'previousClose'])
      .default('firstSample')
      .describe(
        "where a batch's span starts: its own first sample, closing when the span exceeds tau (artifact, AMB-O2: a batch spans tau plus one sample gap), or the previous batch's closing sample, closing when the span reaches tau (Alg. 1 l.7, l.12: startTs <- sendTs)",
      ),
    rttRecord: z
      .enum(['echo', 'cumulative'])
      .default('echo')
      .describe(
        "which packet each sample describes: the one that triggered the ACK (echoed send time and in-flight stamp), or the sender's record of the last packet the cumulative ACK covers (the artifact's RttRecordStructure Map of its spraying configs; differs only under reordering)",
      ),
  })
  .strict()
  .refine((p) => p.uMin <= p.uMax, { message: 'must be <= uMax', path: ['uMin'] })
  .refine((p) => p.uInit >= p.uMin && p.uInit <= p.uMax, { message: 'must lie in [uMin, uMax]', path: ['uInit'] });
type Params = z.infer<typeof params>;

/** sendTs u32 ns + pktInfl u16 on every data packet (docs/algorithms.md §2); ACKs fit in the 64-B minimum */
const OSCAR_DATA_HEADER_BYTES = 6;
/** three-point mode keeps at most this many samples per batch (the last slot is overwritten beyond) */
const POINT_CAP = 1024;

/**
 * cc_trace.csv columns: the unified ratio u and the pacing rate u·mu (bit/s);
 * the last closed batch's mean delay (ns), BLS gradient, mean in-flight (wire
 * bytes) and delivered rate (bit/s, -1 = stale batch); the number of batches
 * closed so far.
 */
const OSCAR_TRACE_FIELDS = ['u', 'rate_bps', 'delay_ns', 'gradient', 'inflight_bytes', 'batch_rate_bps', 'batches'] as const;

/** D_target of a flow, ps. */
function targetDelayPs(f: CcFlow, p: Params): number {
  if (p.targetDelayRttFactor !== undefined) return p.targetDelayRttFactor * f.baseRttPs;
  return f.baseRttPs + ((8 * p.targetQueueBytes) / f.lineRateBps) * 1e12;
}

/** cwnd of ratio u: min(u·D_target·mu/8, BDP_base) bytes (AMB-O1: min, not the paper's max). */
function windowOf(u: number, f: CcFlow, p: Params): number {
  const w = (u * targetDelayPs(f, p) * 1e-12 * f.lineRateBps) / 8;
  return w < f.baseBdpBytes ? w : f.baseBdpBytes;
}

class Oscar implements CcInstance {
  private u: number;
  // batch accumulators (docs/algorithms.md §2); firstX < 0 = no open batch
  private firstX = -1;
  private firstBytes = 0;
  /** previousClose anchoring: send time (ps) of the last batch's closing sample, -1 = none (Alg. 1 l.12) */
  private prevCloseX = -1;
  private nPts = 0;
  private sx = 0;
  private sy = 0;
  private sxx = 0;
  private sxy = 0;
  private nPkts = 0;
  private sumInfl = 0;
  private sumBytes = 0;
  // three-point mode: the batch's samples (x offset ns, y ps)
  private readonly px: Float64Array | null;
  private readonly py: Float64Array | null;

  private readonly mu: number;
  private readonly muEst: number;
  private readonly baseRttPs: number;
  private readonly dTargetPs: number;
  private readonly tauPs: number;
  private readonly stalePs: number;
  private readonly epsPs: number;
  private readonly hPs: number;
  private readonly owd: boolean;
  /** OWD mode: base reverse-path delay added to each one-way sample */
  private readonly reversePs: number;
  private readonly pktWire: number;
  private readonly mtu: number;
  private readonly anchorPrev: boolean;
  /** rttRecord cumulative: send time (ps) and in-flight stamp of every sent packet, by packet index (allocated at the first send) */
  private readonly cumulative: boolean;
  private recTs: Float64Array | null = null;
  private recInfl: Float64Array | null = null;

  /** last batch's estimates, for tests and traces */
  lastDelayPs = 0;
  lastGradient = 0;
  lastInflightBytes = 0;
  lastRateBps = 0;
  updates = 0;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    this.u = p.uInit;
    this.mu = f.lineRateBps;
    this.muEst = p.estimatorLineRateBps ?? f.lineRateBps;
    this.baseRttPs = f.baseRttPs;
    this.dTargetPs = targetDelayPs(f, p);
    this.tauPs = p.tauRttFraction !== undefined ? p.tauRttFraction * f.baseRttPs : p.tauNs * 1000;
    this.stalePs = p.staleFactor * this.tauPs;
    this.epsPs = p.epsilonNs * 1000;
    this.hPs = p.hysteresisNs * 1000;
    this.owd = p.signal === 'owd';
    this.reversePs = f.baseRttPs - f.baseOneWayPs;
    this.pktWire = f.dataWireBytes;
    this.mtu = f.mtuBytes;
    this.anchorPrev = p.batchAnchor === 'previousClose';
    this.cumulative = p.rttRecord === 'cumulative';
    const three = p.blsPoints === 'threePoint';
    this.px = three ? new Float64Array(POINT_CAP) : null;
    this.py = three ? new Float64Array(POINT_CAP) : null;
  }

  /** current unified ratio u */
  get ratio(): number {
    return this.u;
  }

  onStart(): void {
    this.apply();
  }

  traceState(out: Float64Array): void {
    out[0] = this.u;
    out[1] = this.u * this.mu;
    out[2] = this.lastDelayPs / 1000;
    out[3] = this.lastGradient;
    out[4] = this.lastInflightBytes;
    out[5] = this.lastRateBps;
    out[6] = this.updates;
  }

  /** pktInfl = packets in flight including this one x wire packet size (docs/algorithms.md §2, ART-13). */
  onSend(info: SendInfo): void {
    info.inflightStamp = Math.ceil(info.inflightStamp / this.mtu) * this.pktWire;
    if (this.cumulative) {
      if (this.recTs === null) {
        const n = Math.ceil(this.f.sizeBytes / this.mtu);
        this.recTs = new Float64Array(n);
        this.recInfl = new Float64Array(n);
      }
      // a resent packet overwrites its record (as the artifact's map)
      const k = Math.floor(info.seq / this.mtu);
      this.recTs[k] = info.nowPs;
      this.recInfl![k] = info.inflightStamp;
    }
  }

  onAck(ack: AckInfo): void {
    if (ack.isNack) {
      // no samples from NACKs; a go-back-N rewind restarts the batch (docs/algorithms.md §1 (i), (ii))
      this.resetBatch();
      this.prevCloseX = -1;
      return;
    }
    const cnt = ack.ackedPackets > 0 ? ack.ackedPackets : 1;
    let x = ack.sendTsPs;
    let sumInfl = ack.sumInflightBytes;
    if (this.cumulative) {
      // the record of the last packet below the cumulative sequence (class comment)
      const k = Math.ceil(ack.seq / this.mtu) - 1;
      if (k < 0 || this.recTs === null) return;
      x = this.recTs[k]!;
      sumInfl = this.recInfl![k]! * cnt;
    }
    const y = this.owd ? ack.rxTsPs - x + this.reversePs : ack.nowPs - x;
    const bytes = cnt * this.pktWire;
    if (this.firstX < 0) {
      if (this.anchorPrev && this.prevCloseX >= 0) {
        // Alg. 1: the span runs from the previous batch's closing sample, which is not in this batch
        this.firstX = this.prevCloseX;
        this.firstBytes = 0;
      } else {
        this.firstX = x;
        this.firstBytes = bytes;
      }
    }
    const spanPs = x - this.firstX;
    const xc = spanPs / 1000; // ns from the batch's first send time
    const px = this.px;
    if (px !== null) {
      const i = this.nPts < POINT_CAP ? this.nPts : POINT_CAP - 1;
      px[i] = xc;
      this.py![i] = y;
    } else {
      this.sx += xc;
      this.sy += y;
      this.sxx += xc * xc;
      this.sxy += xc * y;
    }
    this.nPts++;
    this.nPkts += cnt;
    this.sumInfl += sumInfl;
    this.sumBytes += bytes;
    const due = this.anchorPrev ? spanPs >= this.tauPs : spanPs > this.tauPs;
    if (due && this.nPts >= this.p.nMin) {
      this.closeBatch(spanPs);
      if (this.anchorPrev) this.prevCloseX = x;
    }
  }

  onRto(): void {
    this.resetBatch();
    this.prevCloseX = -1;
  }

  private closeBatch(spanPs: number): void {
    let n = this.nPts;
    let sx = this.sx;
    let sy = this.sy;
    let sxx = this.sxx;
    let sxy = this.sxy;
    const px = this.px;
    if (px !== null) {
      // first, middle and last sample only (ART-11)
      const py = this.py!;
      const last = n < POINT_CAP ? n - 1 : POINT_CAP - 1;
      const mid = last >> 1;
      sx = px[0]! + px[mid]! + px[last]!;
      sy = py[0]! + py[mid]! + py[last]!;
      sxx = px[0]! * px[0]! + px[mid]! * px[mid]! + px[last]! * px[last]!;
      sxy = px[0]! * py[0]! + px[mid]! * py[mid]! + px[last]! * py[last]!;
      n = 3;
    }
    const delayPs = sy / n;
    const den = n * sxx - sx * sx;
    // slope of y (ps) over x (ns), divided by 1000: dimensionless
    let grad = den !== 0 ? (n * sxy - sx * sy) / den / 1000 : 0;
    const infl = this.sumInfl / this.nPkts;
    let rate = this.p.artifactRateBias ? (8 * this.nPkts * this.pktWire * 1e12) / spanPs : (8 * (this.sumBytes - this.firstBytes) * 1e12) / spanPs;
    if (spanPs > this.stalePs) {
      // ART-9: the batch's own samples are too sparse for a gradient or a rate
      grad = 0;
      rate = -1;
    }
    this.resetBatch();
    this.lastDelayPs = delayPs;
    this.lastGradient = grad;
    this.lastInflightBytes = infl;
    this.lastRateBps = rate;
    this.updates++;
    this.control(delayPs, grad, infl, rate);
  }

  /** docs/algorithms.md §2 */
  private control(delayPs: number, grad: number, infl: number, rate: number): void {
    const p = this.p;
    let u = this.u;
    if (delayPs < this.baseRttPs + this.epsPs) {
      u += p.uHai; // hyper increase, no U_AI (AMB-O3, AMB-O4)
    } else {
      const uw = (8 * infl * 1e12) / (delayPs * this.mu);
      const g = grad > p.gMin ? grad : p.gMin;
      const ur = rate < 0 ? uw : rate / ((1 + g) * this.muEst);
      if (delayPs < this.dTargetPs - this.hPs) u = uw > ur ? uw : ur;
      else u = uw < ur ? uw : ur;
      u += p.uAi;
    }
    if (u < p.uMin) u = p.uMin;
    if (u > p.uMax) u = p.uMax;
    this.u = u;
    this.apply();
  }

  private apply(): void {
    const f = this.f;
    f.setRate(this.u * this.mu);
    f.setCwnd(windowOf(this.u, f, this.p));
  }

  private resetBatch(): void {
    this.firstX = -1;
    this.firstBytes = 0;
    this.nPts = 0;
    this.sx = 0;
    this.sy = 0;
    this.sxx = 0;
    this.sxy = 0;
    this.nPkts = 0;
    this.sumInfl = 0;
    this.sumBytes = 0;
  }
}

export const oscarCc: CcDefinition<typeof params> = {
  name: 'oscar',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'OSCAR: delay (window) and delay-gradient (rate) MIMD from batched least squares, O(1)-step convergence',
  reference: 'OSCAR NSDI\'26 Alg. 1-2, §4; docs/algorithms.md §2 (artifact deviations ART-1..15 as options)',
  params,
  needs: { ts: true, inflight: true, rxTs: true },
  dataHeaderBytes: () => OSCAR_DATA_HEADER_BYTES,
  ackHeaderBytes: () => OSCAR_DATA_HEADER_BYTES,
  initialCwnd: (flow, p) => windowOf(p.uInit, flow, p),
  create: (flow, p) => new Oscar(flow, p),
  traceFields: OSCAR_TRACE_FIELDS,
};

export { Oscar as OscarInstance };
