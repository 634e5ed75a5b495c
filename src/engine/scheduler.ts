/**
 * Discrete-event scheduler: a timing wheel of 1 ns buckets for the near future
 * (65.5 us ahead, where almost every packet event lands) backed by an indexed
 * 4-ary heap for later events (timeouts, flow starts, slow timers). Both live
 * in typed arrays; nothing is allocated per event.
 *
 * Order is (time, insertion sequence), the same FIFO tie-break as ns-3, so
 * handlers that schedule zero-delay work see it run after every event already
 * queued for that instant (docs/network-model.md §9). A bucket is a singly linked
 * list kept sorted by (time, sequence): in the common case an insert appends at
 * the tail in O(1), and events leave from the head; a bitmap finds the next
 * non-empty bucket in a few word operations. Cancelling a wheel event only
 * marks it; the mark is dropped when its bucket comes up. Events move from the
 * heap into the wheel as the wheel's window reaches them.
 *
 * An event is three integers: a handler kind (registered once), an element id
 * and a tag. Handles returned by `schedule` encode slot + generation so a stale
 * handle never cancels a recycled slot. The two per-packet kinds (a port's
 * transmitter is free, its link's head packet arrives) each own one slot per
 * port for good (`directSlot`): an element has at most one such event pending,
 * so posting one writes only its time and link. These slots are the first
 * ones, 2 * element id + (0 for tx, 1 for arrive), so running one reads only
 * its time and link: the slot number says what to call on which element.
 */

import { EventHeap } from './event-heap.js';

/** Receives events of one registered kind. */
export interface EventHandler {
  fire(id: number, tag: number): void;
}

/**
 * An element that receives the two per-packet event kinds (its transmitter is
 * free; the head of its link's in-flight FIFO arrives). The run loop calls
 * these two methods directly (`registerDirect`) instead of through a handler:
 * they are most of the events, and one call site per method stays
 * monomorphic where a shared `fire` call is not.
 */
export interface DirectTarget {
  onTxDone(): void;
  onArrive(): void;
}

const SLOT_BITS = 24;
const SLOT_MASK = (1 << SLOT_BITS) - 1;
const SLOT_SPAN = 1 << SLOT_BITS;
/** generations wrap at 2^28 so that a handle (gen * 2^24 + slot) stays an exact double */
const GEN_MASK = (1 << 28) - 1;
/** A handle value that never names a pending event. */
export const NO_EVENT = -1;

/** bucket width, ps */
const W = 1000;
/**
 * Bucket of a time: floor(t / W) computed as a multiplication. Any monotone
 * non-decreasing map from time to bucket keeps the order correct, and this one
 * is monotone and the same everywhere it is used.
 */
const INV_W = 1 / W;
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
  private freeTop = 0;
  private free: Int32Array;
  private nextSeq = 0;

  // wheel: each bucket a singly linked list sorted by (time, seq)
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
    this.hp = new EventHeap(n);
    this.free = new Int32Array(n);
    for (let i = 0; i < n; i++) this.free[i] = n - 1 - i;
    this.freeTop = n;
  }

  /**
   * Registers a handler and returns its kind number (at most 255 kinds).
   * `name` names the method the events reach, e.g. "Port.onArrive"
   * (`kindNames()` lists them; docs/network-model.md's event table).
   */
  register(handler: EventHandler, name = 'unnamed'): number {
    if (this.handlers.length >= 255) throw new Error('too many event handler kinds');
    this.handlers.push(handler);
    this.names.push(name);
    return this.handlers.length - 1;
  }

  /**
   * Registers the two direct kinds (at most one pair per scheduler): an event
   * of kind `tx` with element id `id` calls `targets[id].onTxDone()`, one of
   * kind `arrive` calls `targets[id].onArrive()`. `targets` may grow after
   * this call (it is read at dispatch).
   */
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

  /**
   * Schedules an event at (now + a) + b ps (a, b >= 0: the sum a caller would
   * form itself), without a handle. For the per-packet events: a time in ps
   * is not a small integer, so V8 boxes it (allocates) whenever it crosses a
   * call it does not inline, while the serialization and link delays `a` and
   * `b` are small integers that cross as they are.
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

  /**
   * Puts `slot` (its kind, id and tag set) into the wheel or the heap at time
   * `at` (>= now). Only the heap keeps sequence numbers: in the wheel, arrival
   * order is the sequence order (see `migrate`).
   */
  private link(slot: number, at: number): void {
    this.where[slot] = IN_WHEEL; // heapPush sets IN_HEAP instead
    this.linkDirect(slot, at);
  }

  /** `link` without `where`, which a direct slot does not keep (see `run`). */
  private linkDirect(slot: number, at: number): void {
    this.time[slot] = at;
    const bn = Math.floor(at * INV_W);
    if (bn - this.cur < B) this.wheelAppend(slot, bn & BMASK);
    else this.heapPush(slot);
  }

  /**
   * A slot of its own for the one pending event of a direct kind (`kind` is
   * the `tx` or `arrive` of `registerDirect`) of element `id`: kept for good,
   * so posting it and running it write no kind, id, tag, generation or free
   * list. The element must never have two such events pending at once, and
   * its events are never cancelled. Slots are claimed in order (element 0's
   * tx, then its arrive, then element 1's, ...) before any other event is
   * scheduled: the slot is 2 * id + (0 for tx, 1 for arrive).
   */
  directSlot(kind: number, id: number): number {
    if (kind < 0 || (kind !== this.kDirectTx && kind !== this.kDirectArrive)) throw new Error('scheduler: directSlot takes a direct kind');
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

  /** Posts direct slot `slot` at (now + a) + b ps; see `post` and `directSlot`. */
  postSlot(slot: number, a: number, b: number): void {
    // (`| 0`: a small-integer check, where the wheel's stores would convert an unknown number through a double)
    this.linkDirect(slot | 0, this.now + a + b);
  }

  /** Posts direct slot `slot` at `times[i]` ps (>= now); see `postAt` and `directSlot`. */
  postSlotAt(slot: number, times: Float64Array, i: number): void {
    const at = times[i]!;
    this.linkDirect(slot, at < this.now ? this.now : at);
  }

  /** Posts direct slot `slot` at absolute time `at` (>= now); see `directSlot`. */
  scheduleSlot(slot: number, at: number): void {
    this.linkDirect(slot, at < this.now ? this.now : at);
  }

  /** Schedules an event `delay` ps from now. */
  after(delay: number, kind: number, id: number, tag: number): number {
    return this.schedule(this.now + delay, kind, id, tag);
  }

  /**
   * `schedule(times[i], ...)` with the handle written to `handles[j]`. A
   * handle is not a small integer once its slot's generation passes 127, nor
   * is a time in ps: V8 boxes either (allocates) at every call it does not
   * inline, and through typed arrays neither crosses a call. For the host's
   * wake-up and the CC timers, which are cancelled and re-armed per ACK.
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

  /**
   * Cancels a pending event; a stale or NO_EVENT handle is ignored. Returns
   * whether it removed one. A wheel event is only marked (its slot is recycled
   * when its bucket comes up); a heap event is removed at once.
   */
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

  /**
   * Runs events with time <= `until` (ps). Returns true if it stopped because the
   * queue emptied, false if it reached `until` or was stopped.
   */
  run(until = Infinity): boolean {
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
      const t = this.time[slot]!;
      // (before the wheel moves on: what is posted between two runs, at > until, must find it behind)
      if (t > until) {
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
        this.popHead(b, slot);
        this.now = t;
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
      const kind = this.kind[slot]!;
      const id = this.ids[slot]!;
      this.now = t;
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
   * Links an event into bucket b after every entry whose time is <= its own:
   * its place in (time, sequence) order, since every such entry came before
   * it (a new event's sequence is the largest yet; for one from the heap see
   * `migrate`). The caller sets `where`.
   */
  private wheelAppend(slot: number, b: number): void {
    const time = this.time;
    const next = this.next;
    const t = time[slot]!;
    const tl = this.tail[b]!;
    if (tl < 0) {
      next[slot] = -1;
      this.head[b] = slot;
      this.tail[b] = slot;
      this.bits[b >> 5] = this.bits[b >> 5]! | (1 << (b & 31));
    } else if (time[tl]! <= t) {
      // the usual case: not earlier than anything in the bucket
      next[slot] = -1;
      next[tl] = slot;
      this.tail[b] = slot;
    } else {
      let p = -1;
      let c = this.head[b]!;
      while (time[c]! <= t) {
        p = c;
        c = next[c]!;
      }
      next[slot] = c;
      if (p < 0) this.head[b] = slot;
      else next[p] = slot;
    }
    this.inWheel++;
  }

  /**
   * Moves heap events that now fall inside the wheel's window into the wheel,
   * in heap order. Appending by time alone keeps the (time, sequence) order:
   * an event goes to the heap only while its bucket is outside the window,
   * and `run` migrates it the moment the window reaches that bucket, before
   * any handler runs. So nothing scheduled directly into the wheel can be in
   * its bucket yet, and events that migrated before it have smaller
   * sequences: every entry of the bucket at the same time precedes it in
   * (time, sequence) order too.
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
    const gF = (a: Float64Array): Float64Array => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    const gI = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    const gU = (a: Uint8Array): Uint8Array => {
      const b = new Uint8Array(cap);
      b.set(a);
      return b;
    };
    this.kind = gU(this.kind);
    this.where = gU(this.where);
    this.ids = gI(this.ids);
    this.tags = gI(this.tags);
    this.next = gI(this.next);
    this.pos = gI(this.pos);
    this.gen = gI(this.gen);
    this.time = gF(this.time);
    this.hp.grow(cap);
    const free = new Int32Array(cap);
    free.set(this.free.subarray(0, this.freeTop));
    for (let s = cap - 1; s >= old; s--) free[this.freeTop++] = s;
    this.free = free;
    this.cap = cap;
  }
}
