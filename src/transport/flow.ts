/**
 * One RoCEv2 reliable connection (a QP; docs/network-model.md §10.1): sender state,
 * receiver state and the CC instance. It is what a CC sees as `CcFlow`; the CC
 * writes only the rate and window through `setRate` / `setCwnd`, which the
 * transport clamps and applies to pacing (docs/network-model.md §10.2 ChangeRate, §10 pacingUpdate).
 */
import type { CcFlow, CcInstance } from '../cc/types.js';
import type { NetworkConfig } from '../net/config.js';
import type { NicFlow } from '../net/host.js';
import { StrategyState } from './strategy-state.js';
import type { Transport } from './transport.js';

export const CC_TIMER_SLOTS = 8;

export class Flow implements CcFlow, NicFlow {
  // identity
  readonly id: number;
  readonly src: number;
  readonly dst: number;
  readonly sizeBytes: number;
  readonly startPs: number;
  readonly prio: number;
  readonly tag: string;
  readonly net: NetworkConfig;
  sport = 0;
  dport = 0;
  hash = 0;
  ackHash = 0;

  // what the CC is told
  lineRateBps = 0;
  baseRttPs = 0;
  baseBdpBytes = 0;
  pathBaseRttPs = 0;
  maxBaseRttPs = 0;
  maxBaseBdpBytes = 0;
  baseOneWayPs = 0;
  pathRttPs = 0;
  dataWireBytes = 0;
  mtuBytes = 0;
  minRateBps = 0;
  /** per-packet header bytes (data) incl. CC extras */
  dataHeaderBytes = 0;
  ackWireBytes = 0;
  nackWireBytes = 0;
  idealFctPs = 0;

  // sender
  rateBps = 0;
  cwndBytes = Infinity;
  sndNxt = 0;
  sndUna = 0;
  maxSentSeq = 0;
  nextAvail = 0;
  /**
   * CC hold (ACC's source halt, docs/algorithms.md §1, §5 [AMB-A10]): no data
   * before this time. A deadline of its own: rate changes move `nextAvail`
   * only, never this.
   */
  holdUntilPs = 0;
  lastPktWire = 0;
  /**
   * Serialization time cache: `serPs` ps for `serBytes` wire bytes at `serRate`
   * bps (Transport.serPs). Most packets repeat the size and rate of the one
   * before, and the cache keeps the rate, a heap number, off a call.
   */
  serBytes = -1;
  serRate = -1;
  serPs = 0;
  started = false;
  finished = false;
  nicSlot = -1;
  finishPs = 0;
  rtoDeadline = 0;
  rtoPending = false;
  retxPackets = 0;
  timeouts = 0;
  dataPacketsSent = 0;
  readonly ccTimers = new Float64Array(CC_TIMER_SLOTS).fill(-1);
  cc!: CcInstance;

  // receiver
  rcvExpected = 0;
  /** in-order bytes at which the receiver tells the transport's received-listener, once (Infinity: never; a closed-loop workload's `NewFlow.notifyAtBytes`) */
  notifyAtBytes = Infinity;
  nackTimerPs = 0;
  lastNack = -1;
  nackArmed = true;
  ackCounter = 0;
  /** sum of the in-flight stamps of the packets the pending (coalesced) ACK covers */
  rcvSumInflight = 0;
  /** ACK coalescing timer: the newest packet the pending ACK covers (kept alive; -1: none), its deadline, an event pending */
  ackHeld = -1;
  ackFlushAt = 0;
  ackFlushPending = false;
  /**
   * The strategies' per-flow state (strategy-state.ts: the selective sender's
   * lost packets, the reorder buffer, grants, Homa's and NDP's words), null
   * until a strategy first needs it (`state()`). In the slot `rcvOoo` had at
   * 1c03877, so the default path's flow object keeps that build's layout; the
   * go-back-N sender-driven path reads it only when the flow completes.
   */
  strategy: StrategyState | null = null;
  cnpEcnSeen = false;
  cnpTimerRunning = false;

  // metrics
  lastSampledAcked = 0;

  constructor(
    private readonly sys: Transport,
    id: number,
    src: number,
    dst: number,
    sizeBytes: number,
    startPs: number,
    prio: number,
    tag: string,
  ) {
    this.id = id;
    this.src = src;
    this.dst = dst;
    this.sizeBytes = sizeBytes;
    this.startPs = startPs;
    this.prio = prio;
    this.tag = tag;
    this.net = sys.net;
  }

  now(): number {
    return this.sys.sched.now;
  }

  setRate(bps: number, adjustPacing = true): void {
    if (this.finished) return;
    let r = bps;
    if (!(r >= this.minRateBps)) r = this.minRateBps; // also catches NaN
    if (r > this.lineRateBps) r = this.lineRateBps;
    const old = this.rateBps;
    if (r === old) return;
    if (adjustPacing && this.sys.adjustPacing && this.lastPktWire > 0) {
      // txTime(wire, r) - txTime(wire, old), each read at the flow's rate (no rate crosses a call)
      const sys = this.sys;
      const before = sys.serPs(this, this.lastPktWire);
      this.rateBps = r;
      this.nextAvail += sys.serPs(this, this.lastPktWire) - before;
      sys.onPacingChanged(this);
    } else {
      this.rateBps = r;
    }
    // the rate moves the pacing time and, with a rate-scaled window, the window
    this.sys.touch(this);
  }

  /** Earliest time the pacer and the CC hold both allow the next packet. */
  readyAt(): number {
    return this.nextAvail > this.holdUntilPs ? this.nextAvail : this.holdUntilPs;
  }

  /**
   * The flow's part of the NIC's "may send" test: bytes left (new, or lost and
   * waiting to be resent) and the send driver's consent, by default the CC's
   * window (docs/network-model.md §10.2 / §10.3).
   */
  maySend(): boolean {
    const sys = this.sys;
    return (this.sndNxt < this.sizeBytes || (sys.lossList === true && this.lostBytes() > 0)) && sys.driver.mayPut(this);
  }

  /** The strategies' state of this flow, made at the first call (strategy-state.ts). */
  state(): StrategyState {
    let s = this.strategy;
    if (s === null) {
      s = new StrategyState();
      this.strategy = s;
    }
    return s;
  }

  /** Payload bytes known lost and waiting to be resent (0 unless a selective strategy marked some). */
  lostBytes(): number {
    const s = this.strategy;
    return s === null ? 0 : s.lostBytes;
  }

  buildPacket(): number {
    // the FCT breakdown (metrics.breakdown) accounts the wait before each packet (breakdown-sender.ts)
    const fa = this.sys.ctx.flowAcct;
    return fa === null ? this.sys.sendData(this) : fa.build(this);
  }

  setHold(atPs: number): void {
    if (this.finished) return;
    // times are integer ps: a fractional deadline woke the NIC at its floor, before the flow was
    // ready, again and again at the same instant (a livelock, ACC Fig. 19 with P_thresh 0)
    const untilPs = Math.ceil(atPs);
    const old = this.holdUntilPs;
    this.holdUntilPs = untilPs;
    if (untilPs !== old) this.sys.touch(this);
    if (untilPs < old) this.sys.onPacingChanged(this);
  }

  setCwnd(bytes: number): void {
    if (this.finished) return;
    const grew = bytes > this.cwndBytes;
    const changed = bytes !== this.cwndBytes;
    this.cwndBytes = bytes;
    if (changed) this.sys.touch(this);
    if (grew && this.started) this.sys.onWindowGrew(this);
  }

  // the handles stay in ccTimers and the time goes through the transport's scratch
  // array: neither is a small integer (see Scheduler.scheduleFrom)
  setTimer(slot: number, delayPs: number): void {
    if (this.finished) return;
    const sys = this.sys;
    const s = sys.sched;
    const timers = this.ccTimers;
    if (timers[slot]! >= 0) s.cancelFrom(timers, slot);
    const at = sys.timeArg;
    at[0] = s.now + delayPs;
    s.scheduleFrom(at, 0, sys.kCcTimer, this.id, slot, timers, slot);
  }

  cancelTimer(slot: number): void {
    const timers = this.ccTimers;
    if (timers[slot]! >= 0) {
      this.sys.sched.cancelFrom(timers, slot);
      timers[slot] = -1;
    }
  }

  timerPending(slot: number): boolean {
    return this.sys.sched.isPendingFrom(this.ccTimers, slot);
  }

  cancelAllTimers(): void {
    for (let i = 0; i < CC_TIMER_SLOTS; i++) this.cancelTimer(i);
  }
}
