/**
 * An egress port and the link direction it drives.
 *
 * A transmission that starts at t occupies the port for the serialization time
 * and arrives whole at the peer at t + ser + prop (store and forward,
 * docs/network-model.md §2). The port keeps at most one pending "transmission
 * done" event and the link at most one pending "arrival" event for the head of
 * its in-flight FIFO (architecture.md rule 3), so the heap holds O(ports)
 * events whatever the number of packets in flight. When nothing is queued the
 * port schedules no completion event at all: the next enqueue checks
 * `busyUntil` instead.
 *
 * Eight priority queues plus a control FIFO (PFC frames) that is served first
 * and never paused. Which data queue goes next is `service`: strict priority
 * (highest index first, D-OSCAR) or per-packet round robin (D-HPCC), skipping
 * paused and empty queues; with `queue0Control` queue 0 is strict and never
 * paused (D-HPCC control queue).
 */
import { NIL, type PacketStore } from './packet.js';
import type { NetContext } from './context.js';
import type { Scheduler } from '../engine/scheduler.js';

export interface PortOwner {
  /** The port is idle: return the next packet (id) to transmit, or NIL. */
  pull(port: Port): number;
  /** Whether the owner may have more to send when the port frees up. */
  hasMore(port: Port): boolean;
  /** A packet arrived at this node on port number `port`. */
  receive(pkt: number, port: number): void;
}

/** Words per data queue in `Port.qs`, and their offsets. */
export const Q_STRIDE = 4;
const Q_HEAD = 0;
const Q_TAIL = 1;
export const Q_BYTES = 2;
export const Q_PKTS = 3;

export class Port {
  /** index in NetContext.ports */
  readonly gid: number;
  readonly node: number;
  /** port number at the owning node */
  readonly index: number;
  readonly owner: PortOwner;
  peer!: PortOwner;
  peerNode = -1;
  peerPort = -1;
  rateBps: number;
  readonly delayPs: number;
  private ser: Float64Array | null;

  busyUntil = 0;
  /** whether a "transmission done" event is pending */
  private txPending = false;

  // egress queues
  /**
   * the eight data queues in one block, Q_STRIDE words per queue (head and
   * tail packet, bytes, packets): enqueue and dequeue touch one line of it
   * instead of one line in each of four arrays. Read bytes and packets with
   * `queueBytes` / `queuePkts` (or `qs[q * Q_STRIDE + Q_BYTES]`).
   */
  readonly qs = new Int32Array(8 * Q_STRIDE);
  totalBytes = 0;
  totalPkts = 0;
  private ctrlHead = NIL;
  private ctrlTail = NIL;
  private ctrlCount = 0;
  private readonly pk: PacketStore;
  /** PFC state of this port's classes, set by frames from the peer */
  readonly paused = new Uint8Array(8);
  readonly pausedUntil = new Float64Array(8);
  /** time (ps) class q was last paused (OFF since then while `paused[q]`) */
  readonly pauseStartPs = new Float64Array(8);
  /** time (ps) class q last went OFF->ON (resume or quanta expiry); -Infinity if never paused (TCD, ACC §2.2) */
  readonly lastOnStartPs = new Float64Array(8).fill(-Infinity);
  /** bit q set: queue q non-empty / paused */
  private nonEmpty = 0;
  private pausedMask = 0;
  private rr = 0;
  /** queue index of the packet most recently returned by dequeue() (-1 = control) */
  lastQueue = -1;
  queue0Control = false;
  strict = true;

  // link in flight: a ring of packets with their arrival times (FIFO: constant delay, serial transmissions)
  private lPk = new Int32Array(16);
  private lT = new Float64Array(16);
  private lHead = 0;
  private lCount = 0;
  private arrivePending = false;
  private readonly sched: Scheduler;
  /** the scheduler slots of this port's two events (Scheduler.directSlot) */
  private readonly txSlot: number;
  private readonly arriveSlot: number;

  // counters
  txBytes = 0;
  /** bytes ever enqueued into the data queues (the receive-side INT counter, docs/network-model.md §11.5) */
  rxBytes = 0;
  txPackets = 0;
  maxQueueBytes = 0;
  pausesSent = 0;
  pausesReceived = 0;
  resumesSent = 0;
  resumesReceived = 0;
  drops = 0;
  ecnMarked = 0;
  /** data packets this port marked TCD CE / UE (docs/algorithms.md §5) */
  tcdCe = 0;
  tcdUe = 0;

  constructor(
    private readonly ctx: NetContext,
    gid: number,
    node: number,
    index: number,
    owner: PortOwner,
    rateBps: number,
    delayPs: number,
  ) {
    this.gid = gid;
    this.node = node;
    this.index = index;
    this.owner = owner;
    this.rateBps = rateBps;
    this.delayPs = delayPs;
    this.ser = rateBps > 0 ? ctx.serTable(rateBps) : null;
    this.pk = ctx.pool;
    for (let q = 0; q < 8; q++) {
      this.qs[q * Q_STRIDE + Q_HEAD] = NIL;
      this.qs[q * Q_STRIDE + Q_TAIL] = NIL;
    }
    this.sched = ctx.sched;
    this.txSlot = ctx.sched.directSlot(ctx.kPortTx, gid);
    this.arriveSlot = ctx.sched.directSlot(ctx.kLinkArrive, gid);
  }

  /** Serialization time of `bytes` on this port, ps. */
  serPs(bytes: number): number {
    const t = this.ser!;
    if (bytes < t.length) {
      let v = t[bytes]!;
      if (v < 0) {
        v = this.ctx.txTime(bytes, this.rateBps);
        t[bytes] = v;
      }
      return v;
    }
    return this.ctx.txTime(bytes, this.rateBps);
  }

  /** Bytes queued in data queue q. */
  queueBytes(q: number): number {
    return this.qs[q * Q_STRIDE + Q_BYTES]!;
  }

  /** Packets queued in data queue q. */
  queuePkts(q: number): number {
    return this.qs[q * Q_STRIDE + Q_PKTS]!;
  }

  setRate(rateBps: number): void {
    this.rateBps = rateBps;
    this.ser = rateBps > 0 ? this.ctx.serTable(rateBps) : null;
    if (rateBps > 0) this.kick();
  }

  /** Appends to data queue q and starts transmission if the port is idle. */
  enqueue(pkt: number, q: number, size: number): void {
    const pk = this.pk;
    pk.setNext(pkt, NIL);
    const qs = this.qs;
    const b = q * Q_STRIDE;
    const tail = qs[b + Q_TAIL]!;
    if (tail === NIL) {
      qs[b + Q_HEAD] = pkt;
      this.nonEmpty |= 1 << q;
    } else pk.setNext(tail, pkt);
    qs[b + Q_TAIL] = pkt;
    qs[b + Q_BYTES] = qs[b + Q_BYTES]! + size;
    qs[b + Q_PKTS] = qs[b + Q_PKTS]! + 1;
    this.totalBytes += size;
    this.totalPkts++;
    this.rxBytes += size;
    if (this.totalBytes > this.maxQueueBytes) this.maxQueueBytes = this.totalBytes;
    this.kick();
  }

  /** Appends a control frame (PFC); served before every data queue, never paused. */
  enqueueCtrl(pkt: number): void {
    this.pk.setNext(pkt, NIL);
    if (this.ctrlTail === NIL) this.ctrlHead = pkt;
    else this.pk.setNext(this.ctrlTail, pkt);
    this.ctrlTail = pkt;
    this.ctrlCount++;
    this.kick();
  }

  /** True when a packet could be dequeued now (ignoring the transmitter). */
  hasQueued(): boolean {
    return this.ctrlCount > 0 || this.totalPkts > 0;
  }

  /**
   * Removes and returns the next packet by the service policy, or NIL if
   * everything left is paused. Sets `lastQueue`.
   */
  dequeue(): number {
    const pk = this.pk;
    if (this.ctrlHead !== NIL) {
      const p = this.ctrlHead;
      this.ctrlHead = pk.next(p);
      if (this.ctrlHead === NIL) this.ctrlTail = NIL;
      this.ctrlCount--;
      this.lastQueue = -1;
      return p;
    }
    if (this.totalPkts === 0) return NIL;
    let q: number;
    if (this.queue0Control && (this.nonEmpty & 1) !== 0) q = 0;
    else {
      const c = this.nonEmpty & ~this.pausedMask & (this.queue0Control ? 0xfe : 0xff);
      if (c === 0) return NIL;
      if (this.strict) q = 31 - Math.clz32(c);
      else {
        // per-packet round robin: the first candidate after the last served queue, wrapping
        const after = c & (0xff << (this.rr + 1));
        const pick = after !== 0 ? after : c;
        q = 31 - Math.clz32(pick & -pick);
        this.rr = q;
      }
    }
    const qs = this.qs;
    const b = q * Q_STRIDE;
    const p = qs[b + Q_HEAD]!;
    const nx = pk.next(p);
    qs[b + Q_HEAD] = nx;
    if (nx === NIL) {
      qs[b + Q_TAIL] = NIL;
      this.nonEmpty &= ~(1 << q);
    }
    const size = pk.size(p);
    qs[b + Q_BYTES] = qs[b + Q_BYTES]! - size;
    qs[b + Q_PKTS] = qs[b + Q_PKTS]! - 1;
    this.totalBytes -= size;
    this.totalPkts--;
    this.lastQueue = q;
    return p;
  }

  /** Whether data queue q holds a packet that arrived on ingress port `inPort` (deadlock diagnosis; walks the queue). */
  queueHolds(q: number, inPort: number): boolean {
    const pk = this.pk;
    for (let p = this.qs[q * Q_STRIDE + Q_HEAD]!; p !== NIL; p = pk.next(p)) if (pk.inPort(p) === inPort) return true;
    return false;
  }

  /** Starts a transmission now if the port is idle, or makes sure it wakes when it frees up. */
  kick(): void {
    if (this.txPending || this.ser === null) return; // a completion is pending, or the link is down
    const sched = this.sched;
    if (sched.now < this.busyUntil) {
      this.txPending = true;
      // as the remaining time (a small integer) when now + it is exactly busyUntil, which
      // it is for integer ps: busyUntil is not, and V8 boxes it at a call it does not inline
      const d = this.busyUntil - sched.now;
      if (sched.now + d === this.busyUntil) sched.postSlot(this.txSlot, d, 0);
      else sched.scheduleSlot(this.txSlot, this.busyUntil);
      return;
    }
    const pkt = this.owner.pull(this);
    if (pkt !== NIL) this.transmit(pkt);
  }

  /** Event: the transmitter is free. */
  onTxDone(): void {
    this.txPending = false;
    this.kick();
  }

  private transmit(pkt: number): void {
    const sched = this.sched;
    const size = this.pk.size(pkt);
    const ser = this.serPs(size);
    // the same sums as before: done = now + ser, arrival = done + delay
    const done = sched.now + ser;
    this.busyUntil = done;
    this.txBytes += size;
    this.txPackets++;
    if (this.lCount === this.lPk.length) this.growLink();
    const i = (this.lHead + this.lCount) & (this.lPk.length - 1);
    this.lPk[i] = pkt;
    this.lT[i] = done + this.delayPs;
    this.lCount++;
    if (!this.arrivePending) {
      this.arrivePending = true;
      sched.postSlot(this.arriveSlot, ser, this.delayPs);
    }
    if (this.owner.hasMore(this)) {
      this.txPending = true;
      sched.postSlot(this.txSlot, ser, 0);
    }
  }

  private growLink(): void {
    const cap = this.lPk.length;
    const pk = new Int32Array(cap * 2);
    const t = new Float64Array(cap * 2);
    for (let k = 0; k < this.lCount; k++) {
      const j = (this.lHead + k) & (cap - 1);
      pk[k] = this.lPk[j]!;
      t[k] = this.lT[j]!;
    }
    this.lPk = pk;
    this.lT = t;
    this.lHead = 0;
  }

  /** Event: the head of the in-flight FIFO reached the peer. */
  onArrive(): void {
    const now = this.sched.now;
    const lT = this.lT;
    const lPk = this.lPk;
    const mask = lPk.length - 1;
    while (this.lCount > 0 && lT[this.lHead]! <= now) {
      const h = this.lHead;
      const p = lPk[h]!;
      this.lHead = (h + 1) & mask;
      this.lCount--;
      this.peer.receive(p, this.peerPort);
    }
    if (this.lCount > 0) this.sched.postSlotAt(this.arriveSlot, lT, this.lHead);
    else this.arrivePending = false;
  }

  /** PFC frame received on this port from the peer: pause or resume class `cls`. */
  setPaused(cls: number, pause: boolean, untilPs: number): void {
    if (pause) {
      this.pausesReceived++;
      if (this.paused[cls] === 0) this.pauseStartPs[cls] = this.sched.now;
      this.paused[cls] = 1;
      this.pausedMask |= 1 << cls;
      this.pausedUntil[cls] = untilPs;
    } else {
      this.resumesReceived++;
      if (this.paused[cls] === 1) this.lastOnStartPs[cls] = this.sched.now;
      this.paused[cls] = 0;
      this.pausedMask &= ~(1 << cls);
      this.pausedUntil[cls] = 0;
      this.kick();
    }
  }

  /** Quanta-mode expiry check for class `cls`. */
  onPauseExpiry(cls: number): void {
    if (this.paused[cls] === 1 && this.pausedUntil[cls]! > 0 && this.sched.now >= this.pausedUntil[cls]!) {
      this.lastOnStartPs[cls] = this.sched.now;
      this.paused[cls] = 0;
      this.pausedMask &= ~(1 << cls);
      this.pausedUntil[cls] = 0;
      this.kick();
    }
  }
}
