/**
 * The scheduler's overflow heap (src/engine/scheduler.ts): a 4-ary min-heap of
 * event slots keyed by (time, sequence), for events beyond the timing wheel's
 * window (timeouts, flow starts, slow timers). Keys are stored inline in heap
 * order, so a sift compares without loading the slot's record; the
 * scheduler's per-slot `pos` array (passed in) tracks where each slot sits.
 * Typed arrays only: nothing is allocated per event.
 */
export class EventHeap {
  /** number of events in the heap */
  size = 0;
  /** slot at each heap position */
  slot: Int32Array;
  /** time key at each heap position */
  t: Float64Array;
  /** sequence key at each heap position (ties of time) */
  seq: Float64Array;

  constructor(cap: number) {
    this.slot = new Int32Array(cap);
    this.t = new Float64Array(cap);
    this.seq = new Float64Array(cap);
  }

  /** Adds `slot` with key (t, s); `pos[slot]` becomes its position. */
  push(slot: number, t: number, s: number, pos: Int32Array): void {
    this.siftUp(this.size++, slot, t, s, pos);
  }

  /** Removes the event at position i. */
  remove(i: number, pos: Int32Array): void {
    const last = --this.size;
    if (i === last) return;
    const slot = this.slot[last]!;
    const t = this.t[last]!;
    const s = this.seq[last]!;
    if (i > 0) {
      const p = (i - 1) >> 2;
      const pt = this.t[p]!;
      if (t < pt || (t === pt && s < this.seq[p]!)) {
        this.siftUp(i, slot, t, s, pos);
        return;
      }
    }
    this.siftDown(i, slot, t, s, pos);
  }

  /** Grows the arrays to `cap` positions. */
  grow(cap: number): void {
    const slot = new Int32Array(cap);
    slot.set(this.slot);
    this.slot = slot;
    const t = new Float64Array(cap);
    t.set(this.t);
    this.t = t;
    const seq = new Float64Array(cap);
    seq.set(this.seq);
    this.seq = seq;
  }

  private siftUp(i0: number, slot: number, t: number, s: number, pos: Int32Array): void {
    const heap = this.slot;
    const hT = this.t;
    const hS = this.seq;
    let i = i0;
    while (i > 0) {
      const p = (i - 1) >> 2;
      const pt = hT[p]!;
      if (pt < t || (pt === t && hS[p]! < s)) break;
      const ps = heap[p]!;
      heap[i] = ps;
      hT[i] = pt;
      hS[i] = hS[p]!;
      pos[ps] = i;
      i = p;
    }
    heap[i] = slot;
    hT[i] = t;
    hS[i] = s;
    pos[slot] = i;
  }

  private siftDown(i0: number, slot: number, t: number, s: number, pos: Int32Array): void {
    const heap = this.slot;
    const hT = this.t;
    const hS = this.seq;
    const n = this.size;
    let i = i0;
    for (;;) {
      const c0 = 4 * i + 1;
      if (c0 >= n) break;
      let c = c0;
      let ct = hT[c0]!;
      let cs = hS[c0]!;
      const end = c0 + 4 < n ? c0 + 4 : n;
      for (let j = c0 + 1; j < end; j++) {
        const jt = hT[j]!;
        if (jt < ct || (jt === ct && hS[j]! < cs)) {
          c = j;
          ct = jt;
          cs = hS[j]!;
        }
      }
      if (t < ct || (t === ct && s < cs)) break;
      const slotC = heap[c]!;
      heap[i] = slotC;
      hT[i] = ct;
      hS[i] = cs;
      pos[slotC] = i;
      i = c;
    }
    heap[i] = slot;
    hT[i] = t;
    hS[i] = s;
    pos[slot] = i;
  }
}
