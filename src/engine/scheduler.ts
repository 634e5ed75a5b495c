/**
 * Discrete-event scheduler: a timing wheel of 1 ns buckets for the near future
 * (65.5 us ahead, where almost every packet event lands) backed by an indexed
 * 4-ary heap for later events (timeouts, flow starts, slow timers), all in
 * typed arrays; nothing is allocated per event.
 *
 * Order is (time, insertion time, inserting node, insertion sequence), link
 * arrivals before the sequence (docs/architecture.md, "Parallel runs"): work scheduled at an instant runs
 * after everything scheduled before it, as with ns-3's FIFO (docs/network-model.md
 * §9), and nodes that schedule for one instant at one instant go by node id, so
 * a partition of the network computes every key alone. An event inherits the
 * running handler's `node`; a port's direct kinds run at a node per slot
 * (`setSlotNode`). A bucket is a singly linked list sorted by the key: an insert
 * usually appends at the tail (one more comparison when the tail's time is
 * equal), events leave from the head, and a bitmap finds the next non-empty
 * bucket. Cancelling a wheel event only marks it. Heap events move into the
 * wheel as its window reaches them.
 *
 * An event is three integers: a handler kind (registered once), an element id
 * and a tag. Handles encode slot + generation, so a stale one never cancels a
 * recycled slot. The two per-packet kinds (a port's transmitter is free, its
 * link's head packet arrives) own one slot per port for good (`directSlot`,
 * 2 * element id + 0 / 1): posting one writes only its time, key and link, and
 * the slot number says what to call on which element.
 */

import { EventHeap } from './event-heap.js';
import { grown, type DirectTarget, type EventHandler } from './events.js';

export type { EventHandler, DirectTarget } from './events.js';

const SLOT_BITS = 24;
const SLOT_MASK = (1 << SLOT_BITS) - 1;
const SLOT_SPAN = 1 << SLOT_BITS;
/** generations wrap at 2^28 so that a handle (gen * 2^24 + slot) stays an exact double */
const GEN_MASK = (1 << 28) - 1;
/** A handle value that never names a pending event. */
export const NO_EVENT = -1;

/** bucket width, ps */
const W = 1000;
/** Bucket of a time: floor(t / W) as a multiplication (monotone, and the same everywhere: order stays correct). */
const INV_W = 1 / W;
/**
 * Ranks: the part of the order key after the insertion time, one exact double per event.
 * (node + 1) * RANK_SPAN, plus, for a link arrival, the port's global id (ports in the order of
 * their ids first), and for every other event RANK_SPAN - 1 (after them, in insertion order).
 * Node -1 is global work (flow-start chain, link events). Exact for 2^32 nodes and 2^20 - 1 ports.
 */
const RANK_SPAN = 1 << 20;
const INV_RANK_SPAN = 1 / RANK_SPAN;
/** The most port ids an arrival rank can hold. */
export const MAX_RANK_PORTS = RANK_SPAN - 1;

/** The rank of the events `node` schedules other than link arrivals (-1: global). */
export function otherRank(node: number): number {
  return (node + 1) * RANK_SPAN + (RANK_SPAN - 1);
}

/** The rank of the arrival on port `gid`'s link when `node` posts it. */
export function arrivalRank(node: number, gid: number): number {
  return (node + 1) * RANK_SPAN + gid;
}

/** The node of a rank (-1: global). */
export function rankNode(rank: number): number {
  return Math.floor(rank * INV_RANK_SPAN) - 1;
}

const WHEEL_BITS = 16;
const B = 1 << WHEEL_BITS;
const BMASK = B - 1;
const WORDS = B >> 5;

const FREE = 0;
const IN_WHEEL = 1;
const IN_HEAP = 2;
/** cancelled while in the wheel: stays linked until its bucket is reached, then is dropped */
const CANCELLED = 3;

export class Scheduler {
  /** Current simulated time in integer picoseconds. */
  now = 0;
  /** Number of events dispatched so far. */
  eventsProcessed = 0;
  /** events of no node run so far (every partition runs them); the direct slot running (-1: another event) */
  globalEvents = 0;
  running = -1;
  /** the rank (`otherRank`) of the node the running non-direct event acts for (`running` < 0) */
  private curRank = otherRank(-1);

  private cap: number;
  // per slot
  private kind: Uint8Array;
  private ids: Int32Array;
  private tags: Int32Array;
  private gen: Int32Array;
  private time: Float64Array;
  private where: Uint8Array;
  /** next slot in the same wheel bucket */
  private next: Int32Array;
  /** heap position of a slot in the overflow heap */
  private pos: Int32Array;
  /** the order key after the time: when the event was inserted, and its rank (`otherRank`, `arrivalRank`) */
  private insT: Float64Array;
  private rank: Float64Array;
  /** direct slots (`setPortNodes`): the rank of the node the event runs at (for what its handler schedules), the rank it is posted with, and an arrival's rank when its receiver posts it */
  private runRank: Float64Array;
  private postRank: Float64Array;
  private recvRank: Float64Array;
  private freeTop = 0;
  private free: Int32Array;
  private nextSeq = 0;

  // wheel: each bucket a singly linked list sorted by the order key
  private readonly head = new Int32Array(B).fill(-1);
  private readonly tail = new Int32Array(B).fill(-1);
  private readonly bits = new Uint32Array(WORDS);
  /** absolute bucket number of the wheel's first bucket */
  private cur = 0;
  /** entries linked in the wheel, cancelled ones included */
  private inWheel = 0;
  /** cancelled entries still linked in the wheel */
  private cancelledInWheel = 0;
  /** the wheel start bucket from which the heap's earliest event falls inside the window (Infinity: heap empty) */
  private migrateFrom = Infinity;

  /** overflow heap of the events beyond the wheel's window */
  private readonly hp: EventHeap;

  private readonly handlers: EventHandler[] = [];
  private readonly names: string[] = [];
  /** targets of the direct kinds, by element id */
  private direct: readonly DirectTarget[] = [];
  /** kind numbers dispatched to `direct[id].onTxDone()` / `.onArrive()` (-1: none) */
  private kDirectTx = -1;
  private kDirectArrive = -1;
  /** slots below this are direct slots (2 * id + 0 / 1; `directSlot`) */
  private directEnd = 0;
  /** 1 once `stop` was called in the running handler (a number: see Port's note on boolean fields) */
  private stopRequested = 0;

  constructor(initialCapacity = 1024) {
    const n = initialCapacity;
    this.cap = n;
    this.kind = new Uint8Array(n);
    this.ids = new Int32Array(n);
    this.tags = new Int32Array(n);
    this.gen = new Int32Array(n);
    this.time = new Float64Array(n);
    this.where = new Uint8Array(n);
    this.next = new Int32Array(n);
    this.pos = new Int32Array(n);
    this.insT = new Float64Array(n);
    this.rank = new Float64Array(n);
    this.runRank = new Float64Array(n).fill(otherRank(-1));
    this.postRank = new Float64Array(n).fill(otherRank(-1));
    this.recvRank = new Float64Array(n).fill(otherRank(-1));
    this.hp = new EventHeap(n);
    this.free = new Int32Array(n);
    for (let i = 0; i < n; i++) this.free[i] = n - 1 - i;
    this.freeTop = n;
  }

  /** Registers a handler, returns its kind (at most 255); `name`: the method reached, e.g. "Port.onArrive" (`kindNames`). */
  register(handler: EventHandler, name = 'unnamed'): number {
    if (this.handlers.length >= 255) throw new Error('too many event handler kinds');
    this.handlers.push(handler);
    this.names.push(name);
    return this.handlers.length - 1;
  }

  /** The two direct kinds (one pair): kind `tx`, id `id` calls `targets[id].onTxDone()`, `arrive` its `onArrive()`; `targets` may grow. */
  registerDirect(targets: readonly DirectTarget[], txName: string, arriveName: string): { tx: number; arrive: number } {
    if (this.kDirectTx >= 0) throw new Error('scheduler: direct kinds already registered');
    this.direct = targets;
    const unused: EventHandler = {
      fire: () => {
        throw new Error('scheduler: a direct kind reached its handler');
      },
    };
    this.kDirectTx = this.register(unused, txName);
    this.kDirectArrive = this.register(unused, arriveName);
    return { tx: this.kDirectTx, arrive: this.kDirectArrive };
  }

  /** The registered event kinds in kind order: the method each one reaches. */
  kindNames(): readonly string[] {
    return this.names;
  }

  /** Number of pending events. */
  get pending(): number {
    return this.inWheel - this.cancelledInWheel + this.hp.size;
  }

  /** Time of the earliest pending event, or Infinity. */
  peekTime(): number {
    this.dropCancelledHeads();
    if (this.inWheel > 0) return this.time[this.head[this.nextBucket()]!]!;
    return this.hp.size > 0 ? this.hp.t[0]! : Infinity;
  }

  /** Schedules an event at absolute time `at` (ps, >= now). Returns a cancellable handle. */
  schedule(at: number, kind: number, id: number, tag: number): number {
    const slot = this.insert(at < this.now ? this.now : at, kind, id, tag);
    return this.gen[slot]! * SLOT_SPAN + slot;
  }

  /** `schedule` keyed (`insTime` <= now, -1: first at its instant; `rank`): the flow-start chain. */
  scheduleKeyed(at: number, kind: number, id: number, tag: number, insTime: number, rank: number): number {
    if (this.freeTop === 0) this.grow();
    const slot = this.free[--this.freeTop]!;
    this.kind[slot] = kind;
    this.ids[slot] = id;
    this.tags[slot] = tag;
    this.where[slot] = IN_WHEEL;
    this.place(slot, at < this.now ? this.now : at, insTime, rank);
    return this.gen[slot]! * SLOT_SPAN + slot;
  }

  /**
   * Schedules an event at (now + a) + b ps (a, b >= 0), without a handle: a time in ps is not a small
   * integer and V8 boxes it at a call it does not inline; the delays `a` and `b` cross as they are.
   */
  post(a: number, b: number, kind: number, id: number, tag: number): void {
    this.insert(this.now + a + b, kind, id, tag);
  }

  /** Schedules an event at `times[i]` ps (>= now), without a handle; see `post`. */
  postAt(times: Float64Array, i: number, kind: number, id: number, tag: number): void {
    const at = times[i]!;
    this.insert(at < this.now ? this.now : at, kind, id, tag);
  }

  /** Links a new event at `at` (>= now) and returns its slot; the wheel and heap read its time from the slot. */
  private insert(at: number, kind: number, id: number, tag: number): number {
    if (this.freeTop === 0) this.grow();
    const slot = this.free[--this.freeTop]!;
    this.kind[slot] = kind;
    this.ids[slot] = id;
    this.tags[slot] = tag;
    this.link(slot, at);
    return slot;
  }

  /** Puts `slot` (kind, id, tag set) at `at` (>= now), keyed by the running event's node; only the heap keeps sequence numbers (`migrate`). */
  private link(slot: number, at: number): void {
    this.where[slot] = IN_WHEEL; // heapPush sets IN_HEAP instead
    this.place(slot, at, this.now, this.running >= 0 ? this.runRank[this.running]! : this.curRank);
  }

  /** Puts `slot` at time `at` with order key (insTime, rank) into the wheel or the heap. */
  private place(slot: number, at: number, insTime: number, rank: number): void {
    this.time[slot] = at;
    if (slot >= this.directEnd) this.rank[slot] = rank;
    const bn = Math.floor(at * INV_W);
    if (bn - this.cur < B) this.wheelAppend(slot, bn & BMASK);
    else this.heapPush(slot);
  }

  /**
   * A slot of its own, kept for good, for the one pending event of a direct
   * kind (`registerDirect`'s tx or arrive) of element `id`: posting and running
   * it write no kind, id, tag, generation or free list. Never two pending at
   * once, never cancelled; claimed in element order before any other event:
   * the slot is 2 * id + (0 for tx, 1 for arrive).
   */
  directSlot(kind: number, id: number): number {
    if (kind < 0 || (kind !== this.kDirectTx && kind !== this.kDirectArrive)) throw new Error('scheduler: directSlot takes a direct kind');
    if (id >= MAX_RANK_PORTS) throw new Error(`scheduler: at most ${MAX_RANK_PORTS} ports (element ${id}); the event order's rank holds a port id in 20 bits`);
    const want = 2 * id + (kind === this.kDirectArrive ? 1 : 0);
    if (this.freeTop === 0) this.grow();
    // the free list hands out 0, 1, 2, ... until the first slot is given back
    const slot = this.free[this.freeTop - 1]!;
    if (slot !== want || slot !== this.directEnd) {
      throw new Error(`scheduler: direct slots are claimed in element order before any other event (element ${id}'s ${kind === this.kDirectArrive ? 'arrive' : 'tx'} would get slot ${slot}, needs ${want})`);
    }
    // its kind, id, tag and state are never read: the slot number stands for them
    this.freeTop--;
    this.directEnd = slot + 1;
    return slot;
  }

  /**
   * Posts direct slot `slot` at (now + a) + b ps, keyed as posted now by the slot's own poster
   * (a port's node: `setPortNodes`; its rank is looked up here, so no double crosses a call); see
   * `post` and `directSlot`.
   */
  postSlot(slot: number, a: number, b: number): void {
    // (`| 0`: a small-integer check, where the wheel's stores would convert an unknown number through a double)
    const s = slot | 0;
    this.place(s, this.now + a + b, this.now, this.postRank[s]!);
  }

  /** Posts direct slot `slot` at `times[i]` ps (>= now); see `postSlot`. */
  postSlotAt(slot: number, times: Float64Array, i: number): void {
    const at = times[i]!;
    this.place(slot, at < this.now ? this.now : at, this.now, this.postRank[slot]!);
  }

  /** `postSlotAt` for an arrival slot, posted by its receiving node (`byReceiver`: the previous packet's arrival) or its sender (Port.onArrive). */
  postArrivalAt(slot: number, times: Float64Array, i: number, byReceiver: boolean): void {
    const at = times[i]!;
    this.place(slot, at < this.now ? this.now : at, this.now, byReceiver ? this.recvRank[slot]! : this.postRank[slot]!);
  }

  /** Posts direct slot `slot` at `at`, keyed as inserted at `insTime` by its poster (or its receiver): a cross-partition arrival, keyed as one thread posts it. */
  scheduleSlotKeyed(slot: number, at: number, insTime: number, byReceiver: boolean): void {
    this.place(slot, at < this.now ? this.now : at, insTime, byReceiver ? this.recvRank[slot]! : this.postRank[slot]!);
  }

  /** Posts direct slot `slot` at absolute time `at` (>= now); see `postSlot`. */
  scheduleSlot(slot: number, at: number): void {
    this.place(slot, at < this.now ? this.now : at, this.now, this.postRank[slot]!);
  }

  /** The running direct event's key after its time (insertion time, rank) into `out` (a finish's place, issue 31). */
  keyOfRunning(out: Float64Array): void {
    out[0] = this.running < 0 ? Infinity : this.insT[this.running]!;
    out[1] = this.running < 0 ? Infinity : this.rank[this.running]!;
  }

  /**
   * The nodes of port `gid`'s two direct slots (2 gid: transmission done, 2 gid + 1: its link's
   * arrival): the tx event runs at `node` and is posted by it; the arrival runs at `peer` and is
   * posted by `node` at a transmission's start or by `peer` at the previous arrival.
   */
  setPortNodes(gid: number, node: number, peer: number): void {
    const tx = 2 * gid;
    this.runRank[tx] = otherRank(node);
    this.postRank[tx] = otherRank(node);
    this.runRank[tx + 1] = otherRank(peer);
    this.postRank[tx + 1] = arrivalRank(node, gid);
    this.recvRank[tx + 1] = arrivalRank(peer, gid);
  }

  /** The node the running event acts for (-1: global, or outside `run`). */
  get node(): number {
    return rankNode(this.running >= 0 ? this.runRank[this.running]! : this.curRank);
  }

  /** Acts for `node` (a flow starting as work of its sender host) until `restoreActor(previous)`; returns the previous actor. */
  actAs(node: number): number {
    const was = this.running >= 0 ? this.running : -2 - rankNode(this.curRank);
    this.running = -1;
    this.curRank = otherRank(node);
    return was;
  }

  /** Undoes `actAs`, with the value it returned. */
  restoreActor(was: number): void {
    if (was >= 0) this.running = was;
    else {
      this.running = -1;
      this.curRank = otherRank(-2 - was);
    }
  }

  /** Schedules an event `delay` ps from now. */
  after(delay: number, kind: number, id: number, tag: number): number {
    return this.schedule(this.now + delay, kind, id, tag);
  }

  /**
   * `schedule(times[i], ...)` with the handle written to `handles[j]`: neither a handle (past generation
   * 127) nor a time in ps is a small integer, and V8 boxes either at a call it does not inline. For the
   * host's wake-up and the CC timers, cancelled and re-armed per ACK.
   */
  scheduleFrom(times: Float64Array, i: number, kind: number, id: number, tag: number, handles: Float64Array, j: number): void {
    const at = times[i]!;
    const slot = this.insert(at < this.now ? this.now : at, kind, id, tag);
    handles[j] = this.gen[slot]! * SLOT_SPAN + slot;
  }

  /** `isPending(handles[j])`; see `scheduleFrom`. */
  isPendingFrom(handles: Float64Array, j: number): boolean {
    const handle = handles[j]!;
    return handle >= 0 && this.pendingSlot(handle & SLOT_MASK, Math.floor(handle / SLOT_SPAN));
  }

  /** `cancel(handles[j])`; see `scheduleFrom`. */
  cancelFrom(handles: Float64Array, j: number): boolean {
    const handle = handles[j]!;
    return handle >= 0 && this.cancelSlot(handle & SLOT_MASK, Math.floor(handle / SLOT_SPAN));
  }

  /** True when the handle names an event that has not fired or been cancelled. */
  isPending(handle: number): boolean {
    return handle >= 0 && this.pendingSlot(handle & SLOT_MASK, Math.floor(handle / SLOT_SPAN));
  }

  /** Cancels a pending event (a stale or NO_EVENT handle is ignored); whether it removed one. A wheel event is only marked. */
  cancel(handle: number): boolean {
    return handle >= 0 && this.cancelSlot(handle & SLOT_MASK, Math.floor(handle / SLOT_SPAN));
  }

  // a handle as its slot and generation: small integers, which cross a call unboxed

  private pendingSlot(slot: number, gen: number): boolean {
    const w = this.where[slot]!;
    return (w === IN_WHEEL || w === IN_HEAP) && this.gen[slot]! === gen;
  }

  private cancelSlot(slot: number, gen: number): boolean {
    const w = this.where[slot]!;
    if ((w !== IN_WHEEL && w !== IN_HEAP) || this.gen[slot]! !== gen) return false;
    if (w === IN_WHEEL) {
      this.where[slot] = CANCELLED;
      this.gen[slot] = (this.gen[slot]! + 1) & GEN_MASK;
      this.cancelledInWheel++;
      return true;
    }
    this.heapRemoveAt(this.pos[slot]!);
    this.release(slot);
    return true;
  }

  /** Asks `run` to return after the current event. */
  stop(): void {
    this.stopRequested = 1;
  }

  /** Runs events with time <= `until` (ps). True if it stopped because the queue emptied, false at `until` or stopped. */
  run(until = Infinity): boolean {
    const r = this.runLoop(until);
    this.running = -1;
    this.curRank = otherRank(-1);
    return r;
  }

  private runLoop(until: number): boolean {
    this.stopRequested = 0;
    const handlers = this.handlers;
    const direct = this.direct;
    const head = this.head; // fixed size; the per-slot arrays may be reallocated by grow() inside a handler
    for (;;) {
      if (this.inWheel === 0) {
        if (this.hp.size === 0) return true;
        const t0 = this.hp.t[0]!;
        if (t0 > until) {
          this.now = until;
          return false;
        }
        this.cur = Math.floor(t0 * INV_W);
        this.migrate();
      }
      const cb = this.cur & BMASK;
      const b = head[cb]! >= 0 ? cb : this.nextBucket();
      const slot = head[b]!;
      // (before the wheel moves on: an event posted between two runs, at >= until, must find it behind)
      if (this.time[slot]! > until) {
        this.now = until;
        return false;
      }
      const d = (b - cb) & BMASK;
      if (d > 0) {
        this.cur += d;
        // heap events entering the window land after bucket b (they are >= B buckets past the old start)
        if (this.cur >= this.migrateFrom) this.migrate();
      }
      if (slot < this.directEnd) {
        // a direct slot (never cancelled) keeps its slot: its number says what to call, and its
        // `where` is not kept up to date (nothing reads it; it is never CANCELLED)
        const t = this.time[slot]!;
        this.popHead(b, slot);
        this.now = t;
        this.running = slot;
        this.eventsProcessed++;
        if ((slot & 1) !== 0) direct[slot >> 1]!.onArrive();
        else direct[slot >> 1]!.onTxDone();
        if (this.stopRequested !== 0) return false;
        continue;
      }
      this.popHead(b, slot);
      if (this.where[slot] === CANCELLED) {
        this.freeCancelled(slot);
        continue;
      }
      const t = this.time[slot]!;
      const kind = this.kind[slot]!;
      const id = this.ids[slot]!;
      this.now = t;
      this.running = -1;
      // (what it schedules is keyed by the node that inserted it: a non-direct event's rank is its node's `otherRank`)
      const r = this.rank[slot]!;
      this.curRank = r;
      if (r < RANK_SPAN) this.globalEvents++;
      this.eventsProcessed++;
      const tag = this.tags[slot]!;
      this.release(slot);
      handlers[kind]!.fire(id, tag);
      if (this.stopRequested !== 0) return false;
    }
  }

  /** Unlinks cancelled entries at the head of the earliest buckets, so the earliest head is live. */
  private dropCancelledHeads(): void {
    while (this.cancelledInWheel > 0 && this.inWheel > 0) {
      const b = this.nextBucket();
      const slot = this.head[b]!;
      if (this.where[slot] !== CANCELLED) return;
      this.popHead(b, slot);
      this.freeCancelled(slot);
    }
  }

  /** Unlinks `slot`, the head of bucket b. */
  private popHead(b: number, slot: number): void {
    const nx = this.next[slot]!;
    this.head[b] = nx;
    if (nx < 0) {
      this.tail[b] = -1;
      this.bits[b >> 5] = this.bits[b >> 5]! & ~(1 << (b & 31));
    }
    this.inWheel--;
  }

  /** Recycles an unlinked cancelled slot (its generation already moved on at cancel). */
  private freeCancelled(slot: number): void {
    this.cancelledInWheel--;
    this.where[slot] = FREE;
    this.free[this.freeTop++] = slot;
  }

  /** Index of the first non-empty bucket at or after the wheel's start (wheel must be non-empty). */
  private nextBucket(): number {
    const bits = this.bits;
    const start = this.cur & BMASK;
    let w = start >> 5;
    let word = bits[w]! & (0xffffffff << (start & 31));
    for (let k = 0; k <= WORDS; k++) {
      if (word !== 0) return (w << 5) + (31 - Math.clz32(word & -word));
      w = (w + 1) & (WORDS - 1);
      word = bits[w]!;
    }
    throw new Error('scheduler: wheel count out of sync');
  }

  /**
   * Links an event into bucket b after every entry whose key (time, insertion
   * time, rank) is <= its own: its place in the order, since every entry with
   * an equal key came before it (a new event's sequence is the largest yet;
   * for one from the heap see `migrate`). The caller sets `where`. The usual
   * case, an append at the tail, stays small here (this method is inlined into
   * every post, and TurboFan's inlining budget is shared with the hop's code);
   * a place inside the bucket is found out of line (`linkBefore`).
   */
  private wheelAppend(slot: number, b: number): void {
    const time = this.time;
    const t = time[slot]!;
    const tl = this.tail[b]!;
    if (tl < 0) {
      this.next[slot] = -1;
      this.head[b] = slot;
      this.tail[b] = slot;
      this.bits[b >> 5] = this.bits[b >> 5]! | (1 << (b & 31));
    } else if (time[tl]! < t || (time[tl]! === t && (slot >= this.directEnd || (tl < this.directEnd && tl < slot)))) {
      // the usual case: after everything in the bucket (at a tie of times, the tail was inserted earlier)
      this.next[slot] = -1;
      this.next[tl] = slot;
      this.tail[b] = slot;
    } else this.linkBefore(slot, b, t);
    this.inWheel++;
  }

  /** `wheelAppend`'s other cases, out of line: links `slot` (time t) after the last entry of bucket b whose key is not after its own. */
  private linkBefore(slot: number, b: number, t: number): void {
    const time = this.time;
    const next = this.next;
    const tl = this.tail[b]!;
    if (time[tl]! === t && this.keyNotAfter(tl, slot)) {
      next[slot] = -1;
      next[tl] = slot;
      this.tail[b] = slot;
      return;
    }
    let p = -1;
    let c = this.head[b]!;
    while (time[c]! < t || (time[c]! === t && this.keyNotAfter(c, slot))) {
      p = c;
      c = next[c]!;
    }
    next[slot] = c;
    if (p < 0) this.head[b] = slot;
    else next[p] = slot;
  }

  /**
   * Whether slot a's key after the time is <= s's: insertion time, then rank (`otherRank`,
   * `arrivalRank`): by node, and a node's link arrivals by port before its other events, which
   * keep insertion order. A cross-partition arrival, posted at the window's end, so takes its
   * one-thread place among its node's events of that instant.
   */
  private keyNotAfter(a: number, s: number): boolean {
    const de = this.directEnd;
    return a < de ? s >= de || a < s : s >= de;
  }

  /**
   * Moves heap events that now fall inside the wheel's window into the wheel,
   * in heap order, (time, sequence). Appending by key keeps the order, with
   * the sequence last: an event goes to the heap only while its bucket is
   * outside the window, and `run` migrates it the moment the window reaches that bucket, before
   * any handler runs. So nothing scheduled directly into the wheel can be in
   * its bucket yet, and events that migrated before it have smaller
   * sequences: every entry of the bucket with the same key precedes it in
   * sequence order too.
   */
  private migrate(): void {
    const end = this.cur + B;
    while (this.hp.size > 0) {
      const t = this.hp.t[0]!;
      const bn = Math.floor(t * INV_W);
      if (bn >= end) break;
      const slot = this.hp.slot[0]!;
      this.heapRemoveAt(0);
      this.wheelAppend(slot, bn & BMASK);
      this.where[slot] = IN_WHEEL;
    }
    this.updateMigrateFrom();
  }

  private updateMigrateFrom(): void {
    this.migrateFrom = this.hp.size > 0 ? Math.floor(this.hp.t[0]! * INV_W) - B + 1 : Infinity;
  }

  private release(slot: number): void {
    this.where[slot] = FREE;
    this.gen[slot] = (this.gen[slot]! + 1) & GEN_MASK;
    this.free[this.freeTop++] = slot;
  }

  // ---- overflow heap

  private heapPush(slot: number): void {
    this.where[slot] = IN_HEAP;
    this.hp.push(slot, this.time[slot]!, this.nextSeq++, this.pos);
    this.updateMigrateFrom();
  }

  private heapRemoveAt(i: number): void {
    this.hp.remove(i, this.pos);
    if (i === 0) this.updateMigrateFrom();
  }

  private grow(): void {
    const old = this.cap;
    const cap = old * 2;
    if (cap > SLOT_SPAN) throw new Error('event queue exceeded 16M pending events');
    this.kind = grown(cap, this.kind);
    this.where = grown(cap, this.where);
    this.ids = grown(cap, this.ids);
    this.tags = grown(cap, this.tags);
    this.next = grown(cap, this.next);
    this.pos = grown(cap, this.pos);
    this.gen = grown(cap, this.gen);
    this.time = grown(cap, this.time);
    this.insT = grown(cap, this.insT);
    this.rank = grown(cap, this.rank);
    this.runRank = grown(cap, this.runRank);
    this.runRank.fill(otherRank(-1), old);
    this.postRank = grown(cap, this.postRank);
    this.postRank.fill(otherRank(-1), old);
    this.recvRank = grown(cap, this.recvRank);
    this.recvRank.fill(otherRank(-1), old);
    this.hp.grow(cap);
    const free = new Int32Array(cap);
    free.set(this.free.subarray(0, this.freeTop));
    for (let s = cap - 1; s >= old; s--) free[this.freeTop++] = s;
    this.free = free;
    this.cap = cap;
  }
}
