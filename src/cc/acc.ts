/**
 * ACC, ACK-driven congestion control for lossless Ethernet (ACC NSDI'24 §4,
 * Alg. 1; specified in docs/algorithms.md §5), on TCD ternary marks
 * (CE / UE / NO, docs/algorithms.md §5) echoed per packet in ACKs that travel at
 * high priority (ACC §4.3).
 *
 * Every period T (the flow's own base RTT, ACC §4.2 "one period T (i.e., base
 * RTT)", §6.1 never smaller) the sender classifies the flow from the ACKs of
 * the period:
 *  - congested (CE on more than 90 % of the ACKs, ACC §4.1): measure the ACK
 *    arrival rate R, switch the pacer to R and halt the source for
 *    (ΔS − ΔA)/R, ΔS = bytes sent in the previous period, ΔA = bytes acked in
 *    this one (Eq. 1, §4.2); one period later extend the halt by the excess
 *    sent while the decision was in flight (Alg. 1 l.7–9). Only ACKs of
 *    packets sent after the halt began ("eligible", §4.2) may start a new
 *    halt or set the rate;
 *  - some CE but not above 90 %: hold (docs/algorithms.md §5 [AMB-A3]);
 *  - UE only (victim, §4.4): keep the rate; halve it once more than P_thresh
 *    consecutive periods were victim periods;
 *  - no mark: increase R += (lineRate − R)/lineRate · RI, RI = RI_Low for the
 *    first 2 periods, then RI_High (§4.3).
 * The halt is a transport hold (`CcFlow.setHold`), a deadline of its own that
 * rate changes never move earlier (docs/algorithms.md §5 [AMB-A10]).
 *
 * `acc-nohalt` is the paper's ablation "ACC w/o halt" (§6.4, Fig. 16): a
 * congested flow directly takes the ACK arrival rate, without a halt.
 *
 * Reconstructed choices (docs/algorithms.md §5), each a parameter: the CE fraction
 * threshold, P_thresh, RI_Low/RI_High, R_min (lineRate/1000), whether the ACK
 * rate is counted in wire or payload bytes (`ackRateBytes`), the period
 * (`periodPs`, default the flow's path base RTT), and which periods measure R
 * (`ackRateSpan`). R = 8 dA_elig / T (Alg. 1 l.3) is measured only from a
 * period whose every ACK is eligible (default `full`): in the period in which
 * the first post-halt ACK arrives the eligible ACKs cover only part of T, and
 * dividing by T there reads e.g. 2.5 Gb/s for a 10 Gb/s share, so the flow
 * collapses and halts again (`period`, ACC Fig. 10 setup: 82 % utilization at
 * 1 us links, 65 % at 5 us; `full`: ~100 %). `eligible` divides by the
 * post-halt part of the period instead and over-reads on bunched ACKs
 * (experiments/acc/README.md "R after a halt").
 *
 * ACC has no window (docs/algorithms.md §5 [AMB-A8]): a new flow sends at line rate
 * until its first decision, and a flow whose ACKs stop keeps its rate. `window`
 * ('bdp', 'rate') adds the in-flight limit the HPCC simulator gives HPCC, only
 * as a diagnostic of ACC Table 2 (experiments/acc/README.md); default 'none'.
 * `traceFields` expose the per-flow state to metrics.ccTrace.
 */
import { z } from 'zod';
import { bpsParam, timeParam } from '../engine/spec-fields.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';
import { TCD_CE, TCD_UE } from './types.js';

const params = z
  .object({
    periodPs: timeParam('ps').optional().describe("control period T, ps (default: the flow's own base RTT, ACC §4.2)"),
    ceFraction: z.number().min(0).max(1).default(0.9).describe('a period is congested when CE marks are strictly above this fraction of its ACKs (ACC §4.1)'),
    pThresh: z.number().int().min(0).default(1).describe('P_thresh: consecutive victim (UE) periods tolerated before halving (ACC §4.4)'),
    riLowBps: bpsParam().optional().describe('RI_Low, bps: increase step of the first 2 uncongested periods (default RI_High/10, 400 Mb/s at 100 G)'),
    riHighBps: bpsParam().optional().describe('RI_High, bps: later increase step (default lineRate/25, 4 Gb/s at 100 G, ACC §6.1)'),
    lowStagePeriods: z.number().int().min(0).default(2).describe('uncongested periods at RI_Low before RI_High (ACC §4.3)'),
    minRateBps: bpsParam().optional().describe('R_min, bps (default lineRate/1000, docs/algorithms.md §5 [AMB-A8])'),
    ackRateBytes: z.enum(['wire', 'payload']).default('wire').describe('ACK arrival rate counted in wire bytes of the acked packets (paper: recvNum x MTU / T) or payload bytes'),
    window: z
      .enum(['none', 'bdp', 'rate'])
      .default('none')
      .describe(
        "in-flight limit (docs/algorithms.md §5 [AMB-A8]: ACC has none): 'none' = pure rate + halt; 'bdp' = a fixed window of the flow's base BDP (D-HPCC HAS_WIN); 'rate' = BDP x R_s / lineRate (VAR_WIN), at least 1 byte",
      ),
    halt: z.boolean().default(true).describe('source halt on congestion; false = ACC w/o halt (ACC §6.4, Fig. 16)'),
    haltRate: z
      .enum(['measured', 'atLeastMinRate'])
      .default('measured')
      .describe(
        "R in the halt time (ΔS − ΔA)/R and its extension (ACC Alg. 1): 'measured' = the ACK arrival rate as measured, even below R_min; 'atLeastMinRate' = max(R, R_min), the rate the flow resumes at (the paper is silent when R < R_min; under heavy PFC a measured R of ~18 Mb/s gave a 130 ms halt, experiments/acc/README.md)",
      ),
    ackRateSpan: z
      .enum(['full', 'period', 'eligible'])
      .default('full')
      .describe(
        "which periods measure the ACK arrival rate R = 8 dA_elig / T (ACC Alg. 1 l.3): 'full' (default) = only a period all of whose ACKs are eligible (the first packet sent after the last halt was acked before the period began: Alg. 1 l.2 read at the period's start); a congested period that straddles the first eligible ACK is partly ACK-less, measures nothing and holds. 'period' = any period with eligible ACKs (docs/algorithms.md §5 as first written: under-reads R in the period a halt ends, 82 % utilization in ACC Fig. 10); 'eligible' = divide by the part of the period after (end of the last halt + T) instead of T (over-reads on bunched ACKs: PAUSEs at SW2/SW3 in ACC Fig. 11)",
      ),
  })
  .strict();
type Params = z.infer<typeof params>;

const T_PERIOD = 0;

/** last period decision, trace field `last_class` */
const CLS_NONE = 0;
const CLS_CONGESTED = 1;
const CLS_HOLD = 2;
const CLS_UNDETERMINED = 3;
const CLS_UNCONGESTED = 4;
const CLS_NO_ACK = 5;

const ACC_TRACE_FIELDS = ['rate_bps', 'halted', 'n_u', 'n_v', 'last_class', 'last_ack_rate_bps', 'inflight_bytes', 'no_ack_periods', 'sent_bytes'] as const;

class Acc implements CcInstance {
  private readonly T: number;
  private readonly C: number;
  private readonly rMin: number;
  private readonly riLow: number;
  private readonly riHigh: number;
  /** wire bytes per payload byte of a full packet (1 with ackRateBytes: payload) */
  private readonly wf: number;
  private readonly useHalt: boolean;
  /** ackRateSpan 'full': only periods whose every ACK is eligible measure R */
  private readonly spanFull: boolean;

  private rS: number;
  private rPre = 0;
  private rHalt = 0;
  private halt = false;
  private extPending = false;
  private haltUntil = 0;
  private sndNxtStart = 0;
  private nU = 0;
  private nV = 0;
  private started = false;
  // period bookkeeping
  private periodStartNxt = 0;
  private periodStartUna = 0;
  private ackCnt = 0;
  private ceCnt = 0;
  private ueCnt = 0;
  private ackElig = 0;
  private ceElig = 0;
  /** arrival time of the latest ACK, -1 before the first (no inter-arrival time yet) */
  private tLastAck = -1;
  private tPrevAck = -1;
  private periodStartPs = 0;
  private dSPrev = 0;
  private una = 0;
  // trace only
  private lastClass = CLS_NONE;
  private lastR = 0;
  private noAckPeriods = 0;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    const C = f.lineRateBps;
    this.C = C;
    this.T = p.periodPs ?? f.pathBaseRttPs;
    this.rMin = p.minRateBps ?? C / 1000;
    this.riHigh = p.riHighBps ?? C / 25;
    this.riLow = p.riLowBps ?? this.riHigh / 10;
    this.wf = p.ackRateBytes === 'wire' ? f.dataWireBytes / f.mtuBytes : 1;
    this.useHalt = p.halt;
    this.spanFull = p.ackRateSpan === 'full';
    this.rS = C;
  }

  onAck(ack: AckInfo): void {
    const now = ack.nowPs;
    // snd_una after this ACK, whatever the profile's ACK order
    const una = ack.isNack || ack.seq < ack.sndUna ? ack.sndUna : ack.seq;
    if (!this.started) {
      // ACC §5: the period timer starts at the first ACK; everything sent before is the "previous period" ([AMB-A7])
      this.started = true;
      const f = this.f;
      this.dSPrev = f.maxSentSeq;
      this.periodStartNxt = f.maxSentSeq;
      this.periodStartUna = una - ack.newlyAckedBytes;
      this.periodStartPs = now;
      this.f.setTimer(T_PERIOD, this.T);
    }
    this.una = una;
    const ce = ack.tcd === TCD_CE;
    this.ackCnt++;
    if (ce) this.ceCnt++;
    else if (ack.tcd === TCD_UE) this.ueCnt++;
    this.tPrevAck = this.tLastAck;
    this.tLastAck = now;
    // eligibility per ACK (ACC §4.2 last bullet, [AMB-A9])
    if (una > this.sndNxtStart) {
      this.ackElig++;
      if (ce) this.ceElig++;
    }
  }

  onTimer(slot: number): void {
    if (slot !== T_PERIOD) return;
    const f = this.f;
    const now = f.now();
    const sent = f.maxSentSeq;
    const una = this.una > f.sndUna ? this.una : f.sndUna;
    const dSCur = sent - this.periodStartNxt;
    if (this.ackCnt === 0) {
      this.dSPrev += dSCur; // ΔS accumulates until an ACK arrives; no decision
      this.lastClass = CLS_NO_ACK;
      this.noAckPeriods++;
    } else {
      this.noAckPeriods = 0;
      let tEff = this.T;
      // sparse ACKs (ACC §4.3): one ACK whose inter-arrival time exceeds T gives the rate over that
      // time; the flow's first ACK has no inter-arrival time (not the time since t = 0)
      if (this.ackCnt === 1 && this.tPrevAck >= 0 && this.tLastAck - this.tPrevAck > this.T) tEff = this.tLastAck - this.tPrevAck;
      const from = this.periodStartUna > this.sndNxtStart ? this.periodStartUna : this.sndNxtStart;
      const dAElig = una > from ? una - from : 0;
      const thr = this.p.ceFraction;
      if (this.p.ackRateSpan === 'eligible' && this.ackElig > 0) {
        // eligible ACKs acknowledge packets sent after the last halt ended, so none arrives before haltEnd + T
        const from = this.haltUntil + this.T;
        if (from > this.periodStartPs && now - from < tEff && now > from) tEff = now - from;
      }
      if (this.ceCnt > thr * this.ackCnt) {
        this.lastClass = CLS_CONGESTED;
        // 'full': a period that began before the first post-halt packet was acked is partly ACK-less and would
        // under-read R; it measures nothing (before any halt, sndNxtStart = 0, every period measures)
        if (this.spanFull && this.sndNxtStart > 0 && this.periodStartUna <= this.sndNxtStart) this.ackElig = 0;
        this.congested(tEff, dAElig, now, thr);
      } else if (this.ceCnt > 0) {
        this.lastClass = CLS_HOLD;
        this.hold();
      } else if (this.ueCnt > 0) {
        this.lastClass = CLS_UNDETERMINED;
        this.undetermined();
      } else {
        this.lastClass = CLS_UNCONGESTED;
        this.uncongested();
      }
      this.dSPrev = dSCur;
    }
    if (this.halt && !this.extPending && now >= this.haltUntil) this.halt = false;
    this.ackCnt = 0;
    this.ceCnt = 0;
    this.ueCnt = 0;
    this.ackElig = 0;
    this.ceElig = 0;
    this.periodStartNxt = sent;
    this.periodStartUna = una;
    this.periodStartPs = now;
    f.setTimer(T_PERIOD, this.T);
  }

  private setRate(r: number): void {
    this.rS = r < this.rMin ? this.rMin : r > this.C ? this.C : r;
    const f = this.f;
    f.setRate(this.rS);
    if (this.p.window === 'rate') {
      const w = Math.floor((f.baseBdpBytes * this.rS) / this.C);
      f.setCwnd(w > 1 ? w : 1);
    }
  }

  private congested(tEff: number, dAElig: number, now: number, thr: number): void {
    this.nU = 0;
    this.nV = 0;
    const f = this.f;
    if (!this.halt) {
      if (this.ackElig > 0 && dAElig > 0 && this.ceElig > thr * this.ackElig) {
        const wf = this.wf;
        const R = (8 * dAElig * wf) / (tEff / 1e12); // ACK arrival rate, bps
        this.rPre = this.rS;
        this.rHalt = this.p.haltRate === 'atLeastMinRate' && R < this.rMin ? this.rMin : R;
        this.lastR = R;
        if (!this.useHalt) {
          // ACC w/o halt: straight to the ACK arrival rate
          this.setRate(R);
          this.sndNxtStart = f.maxSentSeq;
          return;
        }
        const excess = this.dSPrev - dAElig;
        const base = f.nextAvail > now ? f.nextAvail : now; // the pacer's pending send (Eq. 1: t_NextPkt + t_Halt)
        this.setRate(R);
        if (excess > 0) {
          const tHalt = ((8 * excess * wf) / this.rHalt) * 1e12;
          this.haltUntil = Math.ceil(base + tHalt);
          f.setHold(this.haltUntil);
          this.halt = true;
          this.extPending = true;
          this.sndNxtStart = f.maxSentSeq;
        }
      }
    } else if (this.extPending) {
      // one period later: the excess sent during the decision period at R_pre (Alg. 1 l.7-9, [AMB-A4/A5])
      const r = this.dSPrev * this.wf * (1 - this.rHalt / this.rPre);
      if (r > 0) {
        this.haltUntil = Math.ceil(this.haltUntil + ((8 * r) / this.rHalt) * 1e12);
        f.setHold(this.haltUntil);
      }
      this.extPending = false;
    }
  }

  private hold(): void {
    this.nU = 0;
    this.nV = 0;
    this.extPending = false;
  }

  private undetermined(): void {
    this.nU = 0;
    this.nV++;
    this.extPending = false;
    if (this.nV > this.p.pThresh) this.setRate(this.rS / 2);
  }

  private uncongested(): void {
    this.nV = 0;
    this.extPending = false;
    const ri = this.nU < this.p.lowStagePeriods ? this.riLow : this.riHigh;
    this.setRate(this.rS + ((this.C - this.rS) / this.C) * ri);
    this.nU++;
  }

  traceState(out: Float64Array): void {
    const f = this.f;
    out[0] = this.rS;
    out[1] = f.now() < this.haltUntil ? 1 : 0;
    out[2] = this.nU;
    out[3] = this.nV;
    out[4] = this.lastClass;
    out[5] = this.lastR;
    out[6] = f.maxSentSeq - f.sndUna;
    out[7] = this.noAckPeriods;
    out[8] = f.maxSentSeq;
  }

  onRto(): void {
    // lossy operation is outside ACC's design (footnote 1); restart the period bookkeeping
    this.dSPrev = 0;
    this.ackCnt = this.ceCnt = this.ueCnt = this.ackElig = this.ceElig = 0;
    this.sndNxtStart = this.f.sndNxt;
  }
}

function definition(name: string, description: string, halt: boolean): CcDefinition<typeof params> {
  return {
    name,
    parallel: true, // checked against one thread (test/threads.test.ts)
    description,
    reference: 'ACC NSDI\'24 §4 Alg. 1 (halt), §4.3 (increase), §4.4 (victims); docs/algorithms.md §5; TCD marks docs/algorithms.md §5',
    params,
    needs: { tcd: true, highPriorityAcks: true },
    dataHeaderBytes: () => 0,
    ackHeaderBytes: () => 0,
    initialCwnd: (flow, p) => (p.window === 'none' ? Infinity : flow.baseBdpBytes),
    create: (flow, p) => new Acc(flow, halt ? p : { ...p, halt: false }),
    traceFields: ACC_TRACE_FIELDS,
  };
}

export const accCc = definition('acc', 'ACC: ACK-driven rate control with source halt on TCD marks (lossless Ethernet)', true);
export const accNoHaltCc = definition('acc-nohalt', 'ACC without the source halt (ACC Fig. 16 ablation): congested flows take the ACK arrival rate directly', false);
