/**
 * Discrete-event scheduler: an indexed binary heap kept in typed arrays.
 *
 * Events are ordered by (time, insertion sequence), the same FIFO tie-break
 * as ns-3, so handlers that schedule zero-delay work see it run after every
 * event already queued for that instant (network-model.md §1.6).
 *
 * An event is three integers: a handler kind (registered once), an element id
 * and a tag. Nothing is allocated per event: slots are recycled through a free
 * list and the arrays only grow (doubling) when more events are pending at once
 * than ever before. Handles returned by `schedule` encode slot + generation so a
 * stale handle can never cancel a recycled slot.
 */

/** Receives events of one registered kind. */
export interface EventHandler {
  fire(id: number, tag: number): void;
}

const SLOT_BITS = 24;
const SLOT_MASK = (1 << SLOT_BITS) - 1;
const SLOT_SPAN = 1 << SLOT_BITS;
/** A handle value that never names a pending event. */
export const NO_EVENT = -1;

export class Scheduler {
  /** Current simulated time in integer picoseconds. */
  now = 0;
  /** Number of events dispatched so far. */
  eventsProcessed = 0;

  private cap: number;
  private time: Float64Array;
  private seq: Float64Array;
  private kind: Uint8Array;
  private ids: Int32Array;
  private tags: Int32Array;
  private gen: Float64Array;
  /** heap position of each slot, -1 when the slot is free */
  private pos: Int32Array;
  /** heap of slot numbers */
  private heap: Int32Array;
  private size = 0;
  private freeTop = 0;
  private free: Int32Array;
  private nextSeq = 0;
  private readonly handlers: EventHandler[] = [];
  private stopRequested = false;

  constructor(initialCapacity = 1024) {
    this.cap = initialCapacity;
    this.time = new Float64Array(initialCapacity);
    this.seq = new Float64Array(initialCapacity);
    this.kind = new Uint8Array(initialCapacity);
    this.ids = new Int32Array(initialCapacity);
    this.tags = new Int32Array(initialCapacity);
    this.gen = new Float64Array(initialCapacity);
    this.pos = new Int32Array(initialCapacity).fill(-1);
    this.heap = new Int32Array(initialCapacity);
    this.free = new Int32Array(initialCapacity);
    for (let i = 0; i < initialCapacity; i++) this.free[i] = initialCapacity - 1 - i;
    this.freeTop = initialCapacity;
  }

  /** Registers a handler and returns its kind number (at most 255 kinds). */
  register(handler: EventHandler): number {
    if (this.handlers.length >= 255) throw new Error('too many event handler kinds');
    this.handlers.push(handler);
    return this.handlers.length - 1;
  }

  /** Number of pending events. */
  get pending(): number {
    return this.size;
  }

  /** Time of the earliest pending event, or Infinity. */
  peekTime(): number {
    return this.size === 0 ? Infinity : this.time[this.heap[0]!]!;
  }

  /** Schedules an event at absolute time `at` (ps, >= now). Returns a cancellable handle. */
  schedule(at: number, kind: number, id: number, tag: number): number {
    if (at < this.now) at = this.now;
    if (this.freeTop === 0) this.grow();
    const slot = this.free[--this.freeTop]!;
    this.time[slot] = at;
    this.seq[slot] = this.nextSeq++;
    this.kind[slot] = kind;
    this.ids[slot] = id;
    this.tags[slot] = tag;
    const g = this.gen[slot]!;
    let i = this.size++;
    // sift up
    const heap = this.heap;
    const time = this.time;
    const seq = this.seq;
    const s = this.seq[slot]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const ps = heap[p]!;
      const pt = time[ps]!;
      if (pt < at || (pt === at && seq[ps]! < s)) break;
      heap[i] = ps;
      this.pos[ps] = i;
      i = p;
    }
    heap[i] = slot;
    this.pos[slot] = i;
    return g * SLOT_SPAN + slot;
  }

  /** Schedules an event `delay` ps from now. */
  after(delay: number, kind: number, id: number, tag: number): number {
    return this.schedule(this.now + delay, kind, id, tag);
  }

  /** True when the handle names an event that has not fired or been cancelled. */
  isPending(handle: number): boolean {
    if (handle < 0) return false;
    const slot = handle & SLOT_MASK;
    return this.pos[slot]! >= 0 && this.gen[slot]! === Math.floor(handle / SLOT_SPAN);
  }

  /** Cancels a pending event; a stale or NO_EVENT handle is ignored. Returns whether it removed one. */
  cancel(handle: number): boolean {
    if (handle < 0) return false;
    const slot = handle & SLOT_MASK;
    const i = this.pos[slot]!;
    if (i < 0 || this.gen[slot]! !== Math.floor(handle / SLOT_SPAN)) return false;
    this.removeAt(i);
    this.release(slot);
    return true;
  }

  /** Asks `run` to return after the current event. */
  stop(): void {
    this.stopRequested = true;
  }

  /**
   * Runs events with time <= `until` (ps). Returns true if it stopped because the
   * queue emptied, false if it reached `until` or was stopped.
   */
  run(until = Infinity): boolean {
    this.stopRequested = false;
    while (this.size > 0) {
      const slot = this.heap[0]!;
      const t = this.time[slot]!;
      if (t > until) {
        this.now = until;
        return false;
      }
      this.removeAt(0);
      const kind = this.kind[slot]!;
      const id = this.ids[slot]!;
      const tag = this.tags[slot]!;
      this.release(slot);
      this.now = t;
      this.eventsProcessed++;
      this.handlers[kind]!.fire(id, tag);
      if (this.stopRequested) return false;
    }
    return true;
  }

  private release(slot: number): void {
    this.pos[slot] = -1;
    this.gen[slot] = this.gen[slot]! + 1;
    this.free[this.freeTop++] = slot;
  }

  private removeAt(i: number): void {
    const heap = this.heap;
    const last = heap[--this.size]!;
    if (i === this.size) return;
    heap[i] = last;
    this.pos[last] = i;
    // the moved element may need to go up or down
    const time = this.time;
    const seq = this.seq;
    const lt = time[last]!;
    const ls = seq[last]!;
    if (i > 0) {
      const p = (i - 1) >> 1;
      const ps = heap[p]!;
      const pt = time[ps]!;
      if (lt < pt || (lt === pt && ls < seq[ps]!)) {
        // sift up
        let j = i;
        while (j > 0) {
          const q = (j - 1) >> 1;
          const qs = heap[q]!;
          const qt = time[qs]!;
          if (qt < lt || (qt === lt && seq[qs]! < ls)) break;
          heap[j] = qs;
          this.pos[qs] = j;
          j = q;
        }
        heap[j] = last;
        this.pos[last] = j;
        return;
      }
    }
    // sift down
    const n = this.size;
    let j = i;
    for (;;) {
      const l = 2 * j + 1;
      if (l >= n) break;
      let c = l;
      let cs = heap[l]!;
      let ct = time[cs]!;
      const r = l + 1;
      if (r < n) {
        const rs = heap[r]!;
        const rt = time[rs]!;
        if (rt < ct || (rt === ct && seq[rs]! < seq[cs]!)) {
          c = r;
          cs = rs;
          ct = rt;
        }
      }
      if (lt < ct || (lt === ct && ls < seq[cs]!)) break;
      heap[j] = cs;
      this.pos[cs] = j;
      j = c;
    }
    heap[j] = last;
    this.pos[last] = j;
  }

  private grow(): void {
    const old = this.cap;
    const cap = old * 2;
    if (cap > SLOT_SPAN) throw new Error('event queue exceeded 16M pending events');
    const growF = (a: Float64Array): Float64Array => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    const growI = (a: Int32Array): Int32Array => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.time = growF(this.time);
    this.seq = growF(this.seq);
    this.gen = growF(this.gen);
    const k = new Uint8Array(cap);
    k.set(this.kind);
    this.kind = k;
    this.ids = growI(this.ids);
    this.tags = growI(this.tags);
    const pos = new Int32Array(cap).fill(-1);
    pos.set(this.pos);
    this.pos = pos;
    this.heap = growI(this.heap);
    const free = new Int32Array(cap);
    free.set(this.free.subarray(0, this.freeTop));
    for (let s = cap - 1; s >= old; s--) free[this.freeTop++] = s;
    this.free = free;
    this.cap = cap;
  }
}
