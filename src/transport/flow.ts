/**
 * One RoCEv2 reliable connection (a QP; docs/network-model.md §10.1): sender state,
 * receiver state and the CC instance. It is what a CC sees as `CcFlow`; the CC
 * writes only the rate and window through `setRate` / `setCwnd`, which the
 * transport clamps and applies to pacing (docs/network-model.md §10.2 ChangeRate, §10 pacingUpdate).
 */
import type { CcFlow, CcInstance } from '../cc/types.js';
import type { NetworkConfig } from '../net/config.js';
import type { NicFlow } from '../net/host.js';
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
  /**
   * Selective retransmission (selective.ts): payload bytes known lost and
   * waiting to be resent (0 under go-back-N), not counted in flight; read on
   * every send, so it sits with the sender's words (the lost map is at the end)
   */
  lostBytes = 0;
  timeouts = 0;
  dataPacketsSent = 0;
  readonly ccTimers = new Float64Array(CC_TIMER_SLOTS).fill(-1);
  cc!: CcInstance;

  // receiver
  rcvExpected = 0;
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
  /** retxMode none / selective: packets received beyond rcvExpected, by packet index (allocated at the first reordering) */
  rcvOoo: Uint8Array | null = null;
  cnpEcnSeen = false;
  cnpTimerRunning = false;

  // metrics
  lastSampledAcked = 0;

  // the transport strategies' words, after the go-back-N sender's and receiver's (V8 lays fields
  // out in declaration order: these stay off the lines the default path touches; docs/performance.md)
  /** selective: the lost packets by index (allocated at the first loss) and where `takeLost` looks first */
  lostMap: Uint8Array | null = null;
  lostScan = 0;
  /** payload bytes of the data packets this flow resent */
  retxBytes = 0;
  /** receiver-driven sending (receiver-grant.ts): the sender may start packets below this byte; the receiver's initial credit */
  grantLimit = Infinity;
  grantWindowBytes = 0;
  /** payload bytes held in `rcvOoo` (received beyond rcvExpected) */
  rcvOooBytes = 0;
  /** selective: one past the highest byte received */
  rcvHighest = 0;
  /**
   * Homa (homa.ts). Sender: the unscheduled bytes, their level, the scheduled
   * level of the latest grant. Receiver: the offset granted so far, the bytes
   * left to receive, the level of the message's rank, its place in the host's
   * SRPT list (-1: not listed yet, -2: needs no more grants).
   */
  homaUnsched = 0;
  homaUnschedPrio = 0;
  homaSchedPrio = 0;
  homaGranted = 0;
  homaLeft = 0;
  homaRxPrio = 0;
  homaIdx = -1;
  /** Homa sender: held back for a paused class, waiting for the NIC's next resume */
  homaBlocked = false;
  /**
   * `ndpPull` (ndp-pull.ts). Sender: the data packets (resent ones too) it may
   * have sent in all, and the part of that not from PULLs (initial window,
   * returned headers, timeouts). Receiver: the PULLs sent for this flow (the
   * PULL counter).
   */
  pullCredit = 0;
  pullBase = 0;
  pullsSent = 0;

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
    return (this.sndNxt < this.sizeBytes || this.lostBytes > 0) && this.sys.driver.mayPut(this);
  }

  buildPacket(): number {
    return this.sys.sendData(this);
  }

  setHold(untilPs: number): void {
    if (this.finished) return;
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
