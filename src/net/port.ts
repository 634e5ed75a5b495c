/**
 * An egress port and the link direction it drives: store and forward, one pending "transmission
 * done" event per port and one pending arrival per link (docs/network-model.md §2; docs/architecture.md
 * rule 3); an idle, empty port schedules nothing. Eight priority queues plus a control FIFO (PFC frames,
 * served first, never paused), then the urgent queues (`urgentMask`), then the port's discipline
 * (queue-discipline.ts) over the unpaused, non-empty data queues. Queues and the in-flight FIFO are
 * rings of small entries in the context's shared arena (docs/architecture.md, "Ports and rings"); a
 * packet that finds its switch port idle and empty skips the ring. A fabric link holds what it sends
 * until the window's end (`releaseHeld`); one cut by a partition hands it to its `cross` sink.
 */
import * as packet from './packet.js';
import type { PacketStore } from './packet.js';
import type { NetContext } from './context.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { PortOwner } from './port-owner.js';
import type { CrossSink } from './crossing.js';
import * as disciplines from './queue-discipline.js';
import type { QueueDiscipline, SplitQueues } from './queue-discipline.js';

// V8 reads an imported binding through a cell (with a hole check) at every use, an own const is folded
// in: the hot path's imported constants are copied into own bindings (docs/journal.md, 2026-11-26).
const { NIL } = packet;
const { DISC_CUSTOM, DISC_RR, DISC_STRICT } = disciplines;

export type { PortOwner } from './port-owner.js';

/** Words per data queue in the port's queue block (arena at `Port.qb`), and their offsets: a 32-byte half line per queue. */
const Q_STRIDE = 8;
/** ring index of the queue's head entry */
const Q_HEAD = 0;
/** ring capacity - 1, in entries (-1 until the queue's first packet gives it a ring) */
const Q_MASK = 1;
const Q_BYTES = 2;
const Q_PKTS = 3;
/** arena offset of the queue's ring */
const Q_RING = 4;

/**
 * An entry of a data queue's ring and of the in-flight ring: the words a hop needs of a packet, so a
 * switch hop reads a record only to mark it. Eight int32 words (two entries a cache line): packet, meta
 * word, destination, wire size, ECMP hash, ingress port (a switch's queues), and as a double in words 6-7 the arrival
 * time in the in-flight ring, and in a queue's ring (only with the FCT breakdown, net/queue-account.ts) the time it was queued.
 */
const E_SHIFT = 3;
const E_PKT = 0;
const E_META = 1;
const E_DST = 2;
const E_SIZE = 3;
const E_HASH = 4;
const E_IN = 5;
/** index of an entry's time in `arenaF`: (entry's word offset >> 1) + T_OFF */
const T_OFF = 3;
/** entries of a queue's first ring, and of the in-flight ring */
const RING0 = 16;

export class Port {
  // Field order and initializers are part of the hot path's speed (docs/performance.md, "Field layout
  // of Port"): hop fields first, initializers of their own kind, booleans tested as `=== true` / `=== false`.

  // the link in flight: a ring of entries with their arrival times, and its arrival event
  private readonly sched: Scheduler = this.ctx.sched;
  private lCount = 0;
  /** packets after the `lCount` visible ones that a held link took this window (`releaseHeld`) */
  private lHeld = 0;
  /** a fabric link whose packets wait for the window's end (`holdLink`) */
  private held = false;
  private lHead = 0;
  /** arena offset of the in-flight ring */
  private lBase = 0;
  private lCap = RING0;
  /** the node at the link's other end (its own owner until the network wires the link) */
  peer: PortOwner = this.owner;
  peerPort = -1;
  private arrivePending = false;
  private readonly arriveSlot: number = -1;

  // the transmitter
  /** whether a "transmission done" event is pending */
  private txPending = false;
  private ser: Float64Array | null = null;
  busyUntil = 0;
  /** the scheduler slots of this port's two events (Scheduler.directSlot) */
  private readonly txSlot: number = -1;
  // (the owner, which `kick` asks for the next packet, is the second parameter property)

  // egress queues
  totalPkts = 0;
  private ctrlCount = 0;
  private ctrlHead = NIL;
  pausedMask = 0;
  /** bit q set: data queue q is urgent, served before the discipline's queues and never paused (queue-discipline.ts) */
  urgentMask = 0;
  /** the service discipline: DISC_STRICT, DISC_RR or DISC_CUSTOM (`custom`) */
  private disc = DISC_STRICT;
  private rr = 0;
  /** bit q set: queue q non-empty / paused */
  nonEmpty = 0;
  /** a data class split into physical queues (`split`; BFC, bfc.ts), -1: none; enqueue and dequeue test it */
  splitCls = -1;
  /** queue index of the packet most recently returned by dequeue() (-1 = control) */
  lastQueue = -1;
  /** arena offset of the eight data queues' words (Q_STRIDE each; read with `queueBytes` / `queuePkts`) */
  readonly qb: number = 0;
  /**
   * the entry of the packet the last dequeue() returned from a data queue (`dqPkt` NIL after a control frame and
   * once transmitted): read by the switch's dequeue processing; marking policies keep `dqMeta` equal to the record's
   */
  dqPkt = NIL;
  dqMeta = 0;
  dqDst = 0;
  dqSize = 0;
  dqHash = 0;
  dqIn = -1;
  totalBytes = 0;

  // per-packet counters, and two constants read per packet
  /** bytes ever enqueued into the data queues (the receive-side INT counter, docs/network-model.md §11.5) */
  rxBytes = 0;
  maxQueueBytes = 0;
  txBytes = 0;
  txPackets = 0;
  readonly delayPs: number = 0;
  /** port number at the owning node */
  readonly index: number = 0;

  // identity, PFC state of the classes, statistics
  /** index in NetContext.ports */
  readonly gid: number = 0;
  readonly node: number = 0;
  peerNode = -1;
  rateBps = 0;
  private ctrlTail = NIL;
  private readonly pk: PacketStore = this.ctx.pool;
  /** PFC state of this port's classes, set by frames from the peer */
  readonly paused = new Uint8Array(8);
  readonly pausedUntil = new Float64Array(8);
  /** time (ps) class q was last paused (OFF since then while `paused[q]`) */
  readonly pauseStartPs = new Float64Array(8);
  /** time (ps) class q last went OFF->ON (resume or quanta expiry); -Infinity if never paused (TCD, ACC §2.2) */
  readonly lastOnStartPs = new Float64Array(8).fill(-Infinity);
  pausesSent = 0;
  pausesReceived = 0;
  resumesSent = 0;
  resumesReceived = 0;
  drops = 0;
  ecnMarked = 0;
  /** data packets this port marked TCD CE / UE (docs/algorithms.md §5) */
  tcdCe = 0;
  tcdUe = 0;
  /** data packets an admission policy trimmed to their header on the way to this port (admission.ts) */
  trimmed = 0;
  /** the discipline object when `disc` is DISC_CUSTOM */
  private custom: QueueDiscipline | null = null;
  /** the split class's storage (BFC, bfc.ts; `splitCls`) and its blocked bit (also in pausedMask) */
  split: SplitQueues | null = null;
  blockedMask = 0;
  /** The link direction is down (`setDown`, docs/network-model.md §2.1): `ser` is null, so `kick` and `idleFor` start nothing. */
  private down = false;
  /** the port that serves this one's queues while its link is down (a circuit's packet network, net/rdcn.ts); else null */
  spill: Port | null = null;
  /** a link cut by a partition: where `drainCut` sends its in-flight packets at a window's end (net/crossing.ts); else null */
  cross: CrossSink | null = null;

  constructor(
    readonly ctx: NetContext,
    gid: number,
    node: number,
    index: number,
    public owner: PortOwner, // (a reconfigurable fabric wraps some ports' owners, net/rdcn.ts)
    rateBps: number,
    delayPs: number,
  ) {
    this.gid = gid;
    this.node = node;
    this.index = index;
    this.rateBps = rateBps;
    this.delayPs = delayPs;
    this.ser = rateBps > 0 ? ctx.serTable(rateBps) : null;
    this.qb = ctx.alloc(8 * Q_STRIDE);
    for (let q = 0; q < 8; q++) ctx.arena[this.qb + q * Q_STRIDE + Q_MASK] = -1;
    this.lBase = ctx.alloc(RING0 << E_SHIFT);
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

  /** Sets the service discipline: a built-in id (DISC_STRICT, DISC_RR), or DISC_CUSTOM with its object. */
  setDiscipline(id: number, custom: QueueDiscipline | null = null): void {
    if (id === DISC_CUSTOM && custom === null) throw new Error('Port.setDiscipline: DISC_CUSTOM needs a discipline object');
    this.disc = id;
    this.custom = id === DISC_CUSTOM ? custom : null;
    this.rr = 0;
  }

  /** Name of the service discipline (diagnostics and tests). */
  get discipline(): string {
    return this.disc === DISC_STRICT ? 'strict' : this.disc === DISC_RR ? 'rr' : this.custom!.name;
  }

  /** Bytes / packets queued in data queue q. */
  queueBytes(q: number): number {
    return this.ctx.arena[this.qb + q * Q_STRIDE + Q_BYTES]!;
  }
  queuePkts(q: number): number {
    return this.ctx.arena[this.qb + q * Q_STRIDE + Q_PKTS]!;
  }

  /** Wire size of the packet at the head of data queue q, 0 when it is empty (what a discipline such as DRR reads; queue-discipline.ts). */
  headSize(q: number): number {
    const a = this.ctx.arena;
    const b = this.qb + q * Q_STRIDE;
    return a[b + Q_PKTS] === 0 ? 0 : a[a[b + Q_RING]! + (a[b + Q_HEAD]! << E_SHIFT) + E_SIZE]!;
  }

  /** Changes the link's rate; 0 stops it like `setDown`. A down link takes the rate and keeps it for when it is up. */
  setRate(rateBps: number): void {
    this.rateBps = rateBps;
    this.ser = rateBps > 0 && this.down === false ? this.ctx.serTable(rateBps) : null;
    if (this.ser !== null) this.kick();
  }

  /**
   * Takes this link direction down or up (a circuit, PowerTCP §5; docs/network-model.md §2.1). Down: no
   * transmission starts; queued packets wait, lossless; one on the wire arrives. Up: it resumes at the rate.
   */
  setDown(down: boolean): void {
    if (down === this.down) return;
    this.down = down;
    this.ser = down === false && this.rateBps > 0 ? this.ctx.serTable(this.rateBps) : null;
    if (this.ser !== null) this.kick();
  }

  /** Whether the link direction is down (`setDown`). */
  get isDown(): boolean {
    return this.down;
  }

  /** Appends to data queue q (a host's; reads the packet's record) and starts transmission if the port is idle. */
  enqueue(pkt: number, q: number, size: number): void {
    const pk = this.pk;
    this.enqueueEntry(pkt, q, size, pk.meta(pkt), pk.dst(pkt), pk.hash(pkt), -1);
  }

  /**
   * Appends to data queue q the packet with its per-hop words (`inPort`: the switch port it arrived on) and
   * starts transmission if the port is idle. Never the split class (a BFC switch's `enqueueOrSplit` tests it).
   */
  enqueueEntry(pkt: number, q: number, size: number, meta: number, dst: number, hash: number, inPort: number): void {
    const b = this.qb + q * Q_STRIDE;
    let a = this.ctx.arena;
    const n = a[b + Q_PKTS]!;
    if (n === 0) this.nonEmpty |= 1 << q;
    let mask = a[b + Q_MASK]!;
    if (n > mask) {
      mask = this.growQueue(q);
      a = this.ctx.arena;
    }
    const e = a[b + Q_RING]! + (((a[b + Q_HEAD]! + n) & mask) << E_SHIFT);
    // `| 0`: the words arrive as arguments of unknown number type, which a typed-array
    // store would convert through a double; `| 0` checks for a small integer instead
    a[e + E_PKT] = pkt | 0;
    a[e + E_META] = meta | 0;
    a[e + E_DST] = dst | 0;
    a[e + E_SIZE] = size | 0;
    a[e + E_HASH] = hash | 0;
    a[e + E_IN] = inPort | 0;
    if (this.ctx.acct !== null) this.ctx.arenaF[(e >> 1) + T_OFF] = this.sched.now;
    a[b + Q_BYTES] = a[b + Q_BYTES]! + size;
    a[b + Q_PKTS] = n + 1;
    this.totalBytes += size;
    this.totalPkts++;
    this.rxBytes += size;
    if (this.totalBytes > this.maxQueueBytes) this.maxQueueBytes = this.totalBytes;
    this.kick();
  }

  /**
   * Whether a packet for data queue q would be transmitted at once: the port is idle (no transmission in
   * progress or pending, link up), nothing queued, q not paused: a switch then sends it straight through.
   */
  idleFor(q: number): boolean {
    return (
      this.totalPkts === 0 &&
      this.ctrlCount === 0 &&
      this.txPending === false &&
      this.ser !== null &&
      this.sched.now >= this.busyUntil &&
      (((this.pausedMask & ~this.urgentMask) >> q) & 1) === 0
    );
  }

  /**
   * The enqueue and dequeue of a packet that goes straight through (`idleFor(q)`): the counters as if it was
   * queued and dequeued, its words in the dq fields (read by the switch's dequeue processing, `transmitDq`).
   */
  startThrough(pkt: number, q: number, size: number, meta: number, dst: number, hash: number, inPort: number): void {
    this.rxBytes += size;
    if (size > this.maxQueueBytes) this.maxQueueBytes = size;
    this.dqPkt = pkt;
    this.dqMeta = meta;
    this.dqDst = dst;
    this.dqSize = size;
    this.dqHash = hash;
    this.dqIn = inPort;
    this.lastQueue = q;
    const d = this.disc;
    if (d !== DISC_STRICT && ((this.urgentMask >> q) & 1) === 0) {
      if (d === DISC_RR) this.rr = q;
      else this.custom!.served(q);
    }
  }

  /** Gives data queue q a ring (at its first packet) or one twice the size (when full), keeping the order; returns the new mask. */
  private growQueue(q: number): number {
    const ctx = this.ctx;
    const b = this.qb + q * Q_STRIDE;
    const a = ctx.arena;
    const oldCap = a[b + Q_MASK]! + 1;
    const cap = oldCap === 0 ? RING0 : oldCap * 2;
    const r = ctx.regrowRing(a[b + Q_RING]!, a[b + Q_HEAD]!, a[b + Q_PKTS]!, oldCap, cap, E_SHIFT); // (may grow the arena)
    ctx.arena[b + Q_RING] = r;
    ctx.arena[b + Q_HEAD] = 0;
    ctx.arena[b + Q_MASK] = cap - 1;
    return cap - 1;
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

  /** Whether PFC frames wait in the control FIFO. */
  get hasCtrl(): boolean { return this.ctrlCount > 0; }

  /** True when a packet could be dequeued now (ignoring the transmitter). */
  hasQueued(): boolean {
    return this.ctrlCount > 0 || this.totalPkts > 0;
  }

  /** Removes and returns the next packet by the service policy, or NIL if everything left is paused. Sets `lastQueue`. */
  dequeue(): number {
    if (this.ctrlHead !== NIL) {
      const pk = this.pk;
      const p = this.ctrlHead;
      this.ctrlHead = pk.next(p);
      if (this.ctrlHead === NIL) this.ctrlTail = NIL;
      this.ctrlCount--;
      this.lastQueue = -1;
      this.dqPkt = NIL;
      return p;
    }
    if (this.totalPkts === 0) return NIL;
    let q: number;
    const u = this.nonEmpty & this.urgentMask;
    if (u !== 0) q = 31 - Math.clz32(u);
    else {
      // (the urgent queues are empty here)
      const c = this.nonEmpty & ~this.pausedMask;
      if (c === 0) return NIL;
      const d = this.disc;
      if (d === DISC_STRICT) q = 31 - Math.clz32(c);
      else if (d === DISC_RR) {
        // per-packet round robin: the first candidate after the last served queue, wrapping
        const after = c & (0xff << (this.rr + 1));
        const pick = after !== 0 ? after : c;
        q = 31 - Math.clz32(pick & -pick);
        this.rr = q;
      } else q = this.custom!.pick(c);
    }
    if (q === this.splitCls) return this.split!.pop(this, q);
    const ctx = this.ctx;
    const qs = ctx.arena;
    const b = this.qb + q * Q_STRIDE;
    const h = qs[b + Q_HEAD]!;
    const e = qs[b + Q_RING]! + (h << E_SHIFT);
    const p = qs[e + E_PKT]!;
    if (ctx.acct !== null) ctx.acct.at = ctx.arenaF[(e >> 1) + T_OFF]!;
    const size = qs[e + E_SIZE]!;
    this.dqPkt = p;
    this.dqMeta = qs[e + E_META]!;
    this.dqDst = qs[e + E_DST]!;
    this.dqSize = size;
    this.dqHash = qs[e + E_HASH]!;
    this.dqIn = qs[e + E_IN]!;
    const n = qs[b + Q_PKTS]! - 1;
    // an emptied queue starts again at entry 0: a queue that rarely holds more than a packet or two stays on one line
    if (n === 0) {
      this.nonEmpty &= ~(1 << q);
      qs[b + Q_HEAD] = 0;
    } else qs[b + Q_HEAD] = (h + 1) & qs[b + Q_MASK]!;
    qs[b + Q_BYTES] = qs[b + Q_BYTES]! - size;
    qs[b + Q_PKTS] = n;
    this.totalBytes -= size;
    this.totalPkts--;
    this.lastQueue = q;
    return p;
  }

  /** Whether data queue q holds a packet that arrived on ingress port `inPort` (deadlock diagnosis; walks the queue). */
  queueHolds(q: number, inPort: number): boolean {
    if (q === this.splitCls) return this.split!.holds(this, inPort);
    const a = this.ctx.arena;
    const b = this.qb + q * Q_STRIDE;
    for (let k = 0; k < a[b + Q_PKTS]!; k++) {
      if (a[a[b + Q_RING]! + (((a[b + Q_HEAD]! + k) & a[b + Q_MASK]!) << E_SHIFT) + E_IN] === inPort) return true;
    }
    return false;
  }

  /** Starts a transmission now if the port is idle, or makes sure it wakes when it frees up. */
  kick(): void {
    if (this.txPending === true) return; // a completion is pending
    if (this.ser === null) {
      if (this.spill !== null) this.spill.kick(); // the link is down: another port may take its packets
      return;
    }
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

  /**
   * Starts transmitting `pkt` now (the port is idle): a queued or straight-through packet,
   * its words in the dq fields; or a host's packet or a control frame, words from its record.
   */
  transmit(pkt: number): void {
    if (pkt !== this.dqPkt) {
      const pk = this.pk;
      this.dqPkt = pkt;
      this.dqSize = pk.size(pkt);
      this.dqMeta = pk.meta(pkt);
      this.dqDst = pk.dst(pkt);
      this.dqHash = pk.hash(pkt);
    }
    this.transmitDq();
  }

  /**
   * Starts transmitting the packet whose words are in the dq fields (`dqPkt`) now (the port
   * is idle). A switch calls it directly: the words come from fields, small integers to V8.
   */
  transmitDq(): void {
    const sched = this.sched;
    const pkt = this.dqPkt;
    const size = this.dqSize;
    const meta = this.dqMeta;
    const dst = this.dqDst;
    const hash = this.dqHash;
    this.dqPkt = NIL; // the id may come back as another packet
    const ser = this.serPs(size);
    // the same sums as before: done = now + ser, arrival = done + delay
    const done = sched.now + ser;
    this.busyUntil = done;
    this.txBytes += size;
    this.txPackets++;
    const n = this.lCount + this.lHeld;
    if (n === this.lCap) this.growLink();
    const ctx = this.ctx;
    if (ctx.acct !== null) ctx.acct.hop(this.gid, pkt, meta, ser, this.delayPs);
    const lW = ctx.arena;
    const w = this.lBase + (((this.lHead + n) & (this.lCap - 1)) << E_SHIFT);
    lW[w + E_PKT] = pkt;
    lW[w + E_META] = meta;
    lW[w + E_DST] = dst;
    lW[w + E_SIZE] = size;
    lW[w + E_HASH] = hash;
    ctx.arenaF[(w >> 1) + T_OFF] = done + this.delayPs;
    if (this.held === false) {
      this.lCount++;
      if (this.arrivePending === false) {
        this.arrivePending = true;
        sched.postSlot(this.arriveSlot, ser, this.delayPs);
      }
    } else if (this.lHeld++ === 0) ctx.markHeld(this.gid);
    if (this.owner.hasMore(this)) {
      this.txPending = true;
      sched.postSlot(this.txSlot, ser, 0);
    }
  }

  /** Makes this a held link (a fabric link, `NetContext.holdGridPs`): its packets join the in-flight FIFO at the end of the window they were sent in. */
  holdLink(): void {
    this.held = true;
  }

  /**
   * The end of a window (`NetContext.releaseHeld`): the packets this held link took in the window join the
   * in-flight FIFO, and the head's arrival is posted if none is pending. Every partition of a parallel run
   * does this for its links in the same port order at the same instants, so its events keep the one-thread
   * order (docs/architecture.md, "Parallel runs").
   */
  releaseHeld(): void {
    const n = this.lHeld;
    if (n === 0) return;
    this.lHeld = 0;
    this.lCount += n;
    if (this.arrivePending === false) {
      this.arrivePending = true;
      this.sched.postSlotAt(this.arriveSlot, this.ctx.arenaF, ((this.lBase + (this.lHead << E_SHIFT)) >> 1) + T_OFF);
    }
  }

  /** A packet sent on this link in another partition (net/crossing.ts) joins the held packets, in send order. */
  acceptCrossing(pkt: number, meta: number, dst: number, size: number, hash: number, arrival: number): void {
    const n = this.lCount + this.lHeld;
    if (n === this.lCap) this.growLink();
    const ctx = this.ctx;
    const w = this.lBase + (((this.lHead + n) & (this.lCap - 1)) << E_SHIFT);
    const lW = ctx.arena;
    lW[w + E_PKT] = pkt;
    lW[w + E_META] = meta;
    lW[w + E_DST] = dst;
    lW[w + E_SIZE] = size;
    lW[w + E_HASH] = hash;
    ctx.arenaF[(w >> 1) + T_OFF] = arrival;
    if (this.lHeld++ === 0) ctx.markHeld(this.gid);
  }

  /** Cuts this held port's link (a partition boundary, net/crossing.ts): `drainCut` sends its held packets to `sink`. */
  cutLink(sink: CrossSink): void {
    if (this.held === false) throw new Error(`port ${this.gid}: only a held (fabric) link can be cut`);
    this.cross = sink;
  }

  /** A window's end: hands every packet this cut link held to its sink, in send order (it never has visible ones). */
  drainCut(): void {
    const sink = this.cross!;
    const ctx = this.ctx;
    while (this.lHeld > 0) {
      const w = this.lBase + (this.lHead << E_SHIFT);
      this.lHead = (this.lHead + 1) & (this.lCap - 1);
      this.lHeld--;
      const lW = ctx.arena;
      sink.send(this, lW[w + E_PKT]!, lW[w + E_META]!, lW[w + E_DST]!, lW[w + E_SIZE]!, lW[w + E_HASH]!, ctx.arenaF[(w >> 1) + T_OFF]!);
    }
    this.lHead = 0;
  }

  private growLink(): void {
    const cap = this.lCap;
    this.lBase = this.ctx.regrowRing(this.lBase, this.lHead, this.lCount + this.lHeld, cap, cap * 2, E_SHIFT);
    this.lCap = cap * 2;
    this.lHead = 0;
  }

  /** Event: the head of the in-flight FIFO reached the peer. */
  onArrive(): void {
    const now = this.sched.now;
    const ctx = this.ctx;
    // the arena is read again after each hand-off (the receiver may grow it)
    while (this.lCount > 0) {
      const h = this.lHead;
      const w = this.lBase + (h << E_SHIFT);
      if (ctx.arenaF[(w >> 1) + T_OFF]! > now) break;
      // an emptied ring starts again at entry 0 (fewer lines touched on a lightly loaded link)
      this.lHead = (--this.lCount | this.lHeld) === 0 ? 0 : (h + 1) & (this.lCap - 1);
      const lW = ctx.arena;
      this.peer.arrive(lW[w + E_PKT]!, this.peerPort, lW[w + E_META]!, lW[w + E_DST]!, lW[w + E_SIZE]!, lW[w + E_HASH]!);
    }
    if (this.lCount > 0) this.sched.postSlotAt(this.arriveSlot, ctx.arenaF, ((this.lBase + (this.lHead << E_SHIFT)) >> 1) + T_OFF);
    else this.arrivePending = false;
  }
}
