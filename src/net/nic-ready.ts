/**
 * The per-NIC set of sending flows for round-robin arbitration (D-HPCC
 * `rrPerPacket`, docs/network-model.md §10.2), built so that picking the next flow
 * does not look at every flow.
 *
 * Flows hold slots in the order they joined (slot numbers only grow; the
 * table is compacted, order kept, when it fills). A flow is in one of three
 * states, per traffic class:
 * - due: it may send and its ready time has passed (a bit in the class's
 *   bitset);
 * - waiting: it may send once its ready time comes (a binary heap by ready
 *   time);
 * - blocked: no bytes left or window closed (in neither).
 * A flow's state is re-evaluated only when something that decides it changed
 * (`touch`: rate, window, hold, acknowledgement, a packet sent); touched
 * flows are re-evaluated at the next pick, from the state at that time, and
 * waiting flows become due as time passes. The pick is the first due flow of
 * an unpaused class at or after the cursor (one past the last served slot),
 * wrapping: the same flow a scan of all flows in join order from the last
 * served one finds, and the wake-up time is the earliest ready time among
 * waiting flows of unpaused classes: the same time such a scan finds.
 *
 * Earliest-ready-first arbitration (`fifoWhenQueueEmpty`, D-OSCAR) uses the
 * same slots and touches, but keeps every flow that may send, due or not, in
 * its class's heap, ordered by (ready time, slot). The pick is, among the heap
 * tops of the unpaused classes with ready time <= now, the earliest ready
 * time; flows that tie on it are taken in slot order from the cursor,
 * wrapping: the flow a scan from one past the last served flow finds when it
 * keeps the first strictly earlier flow. Within a class the tied flows are
 * found in the heap (each node's children sort after it): the top if its slot
 * is at or after the cursor, else the smallest tied slot at or after the
 * cursor, else the top. The wake-up time is the earliest heap top of an
 * unpaused class, as for round robin.
 */
import type { NicFlow } from './host.js';

const BLOCKED = 0;
const DUE = 1;
const WAITING = 2;

export class NicReadySet {
  /** flows by slot (null: free) */
  private flow: (NicFlow | null)[] = [];
  private cls = new Uint8Array(0);
  private state = new Uint8Array(0);
  private dirty = new Uint8Array(0);
  /** ready time of a waiting flow */
  private key = new Float64Array(0);
  /** position of a waiting flow in its class's heap */
  private hpos = new Int32Array(0);
  private cap = 0;
  /** next free slot (slots below it are taken or freed) */
  private end = 0;
  count = 0;
  /** the next pick starts at this slot */
  private cursor = 0;
  /** per class: bitset of due slots, heap of waiting slots (allocated for classes in use) */
  private readonly due: (Uint32Array | null)[] = [null, null, null, null, null, null, null, null];
  private readonly dueCount = new Int32Array(8);
  private readonly heap: (Int32Array | null)[] = [null, null, null, null, null, null, null, null];
  private readonly heapSize = new Int32Array(8);
  private usedClasses = 0;
  private readonly touched: NicFlow[] = [];

  /** `fifo`: earliest-ready-first arbitration (else round robin) */
  constructor(readonly fifo = false) {}

  /**
   * Takes flows in join order (the set must be empty), with the pick to start
   * at `flows[start]` (start = flows.length: the next flow to join, else the first).
   */
  load(flows: readonly NicFlow[], start: number): void {
    for (const f of flows) this.add(f);
    // slots are 0..n-1 here (the table was empty)
    this.cursor = start;
  }

  /**
   * Empties the set. Returns its flows in join order and the index in that
   * list of the last served one (-1: start at the first), for a scan.
   */
  drain(): { flows: NicFlow[]; lastServed: number } {
    const flows: NicFlow[] = [];
    let before = 0;
    for (let s = 0; s < this.end; s++) {
      const f = this.flow[s];
      if (f === null || f === undefined) continue;
      if (s < this.cursor) before++;
      flows.push(f);
      f.nicSlot = -1;
      this.flow[s] = null;
    }
    this.end = 0;
    this.count = 0;
    this.cursor = 0;
    this.touched.length = 0;
    let used = this.usedClasses;
    while (used !== 0) {
      const c = 31 - Math.clz32(used);
      used &= ~(1 << c);
      this.due[c]!.fill(0);
      this.dueCount[c] = 0;
      this.heapSize[c] = 0;
    }
    this.dirty.fill(0);
    this.state.fill(BLOCKED);
    return { flows, lastServed: before - 1 };
  }

  add(f: NicFlow): void {
    if (this.end === this.cap) this.makeRoom();
    const s = this.end++;
    const c = f.prio;
    if ((this.usedClasses & (1 << c)) === 0) {
      this.usedClasses |= 1 << c;
      this.due[c] = new Uint32Array(this.cap >>> 5);
      this.heap[c] = new Int32Array(this.cap);
    }
    this.flow[s] = f;
    this.cls[s] = c;
    this.state[s] = BLOCKED;
    this.dirty[s] = 0;
    f.nicSlot = s;
    this.count++;
    this.touch(f);
  }

  remove(f: NicFlow): void {
    const s = f.nicSlot;
    if (s < 0 || this.flow[s] !== f) return;
    this.setBlocked(s);
    this.flow[s] = null;
    this.dirty[s] = 0;
    f.nicSlot = -1;
    this.count--;
  }

  /** Something that decides whether f may send, or when, changed: look again at the next pick. */
  touch(f: NicFlow): void {
    const s = f.nicSlot;
    if (s < 0 || this.dirty[s] === 1) return;
    this.dirty[s] = 1;
    this.touched.push(f);
  }

  /**
   * The flow to serve now (it becomes the last served), or null. With null,
   * `wakeTime` is the earliest ready time of a waiting flow of an unpaused
   * class (Infinity if none).
   */
  pick(now: number, paused: Uint8Array): NicFlow | null {
    if (this.fifo) return this.pickEarliest(now, paused);
    this.refresh(now);
    let best = -1;
    let bestDist = Infinity;
    const cap = this.cap;
    for (let c = 0; c < 8; c++) {
      if ((this.usedClasses & (1 << c)) === 0 || paused[c] !== 0 || this.dueCount[c] === 0) continue;
      const s = this.firstDue(this.due[c]!, this.cursor);
      const d = s >= this.cursor ? s - this.cursor : s + cap - this.cursor;
      if (d < bestDist) {
        bestDist = d;
        best = s;
      }
    }
    if (best < 0) {
      let t = Infinity;
      for (let c = 0; c < 8; c++) {
        if ((this.usedClasses & (1 << c)) === 0 || paused[c] !== 0 || this.heapSize[c] === 0) continue;
        const k = this.key[this.heap[c]![0]!]!;
        if (k < t) t = k;
      }
      this.wakeTime = t;
      return null;
    }
    return this.serve(best);
  }

  wakeTime = Infinity;

  /** Makes slot s the last served and returns its flow (sending changes its window and ready time). */
  private serve(s: number): NicFlow {
    this.cursor = s + 1;
    const f = this.flow[s]!;
    this.touch(f);
    return f;
  }

  /** `pick` for earliest-ready-first: see the file comment. */
  private pickEarliest(now: number, paused: Uint8Array): NicFlow | null {
    this.refreshEarliest();
    const cursor = this.cursor;
    const cap = this.cap;
    const key = this.key;
    let best = -1;
    let bestT = Infinity;
    let bestDist = Infinity;
    let wake = Infinity;
    for (let c = 0; c < 8; c++) {
      if ((this.usedClasses & (1 << c)) === 0 || paused[c] !== 0 || this.heapSize[c] === 0) continue;
      const h = this.heap[c]!;
      const top = h[0]!;
      const t = key[top]!;
      if (t > now) {
        if (t < wake) wake = t;
        continue;
      }
      if (t > bestT) continue;
      let s = top;
      if (top < cursor) {
        const ahead = this.firstTiedFrom(h, this.heapSize[c]!, 0, t, cursor);
        if (ahead >= 0) s = ahead;
      }
      const d = s >= cursor ? s - cursor : s + cap - cursor;
      if (t < bestT || d < bestDist) {
        best = s;
        bestT = t;
        bestDist = d;
      }
    }
    if (best < 0) {
      this.wakeTime = wake;
      return null;
    }
    return this.serve(best);
  }

  /**
   * In the subtree of heap position i: the smallest slot at or after `from`
   * among slots with ready time t (-1: none). A node sorts before its
   * children, so a subtree whose root has a later time holds none, and a
   * subtree whose root qualifies holds no smaller one.
   */
  private firstTiedFrom(h: Int32Array, size: number, i: number, t: number, from: number): number {
    const s = h[i]!;
    if (this.key[s] !== t) return -1;
    if (s >= from) return s;
    const l = 2 * i + 1;
    if (l >= size) return -1;
    const a = this.firstTiedFrom(h, size, l, t, from);
    if (l + 1 >= size) return a;
    const b = this.firstTiedFrom(h, size, l + 1, t, from);
    return a < 0 ? b : b < 0 || a < b ? a : b;
  }

  /** Earliest-ready-first: re-evaluates touched flows (a flow that may send waits in its heap, due or not). */
  private refreshEarliest(): void {
    const list = this.touched;
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      const s = f.nicSlot;
      if (s < 0 || this.dirty[s] === 0) continue;
      this.dirty[s] = 0;
      if (!f.maySend()) {
        if (this.state[s] === WAITING) this.heapRemove(s);
        continue;
      }
      const r = f.readyAt();
      if (this.state[s] === WAITING) {
        if (this.key[s] === r) continue;
        this.heapRemove(s);
      }
      this.heapPush(s, r);
    }
    list.length = 0;
  }

  /** Re-evaluates touched flows, then moves waiting flows whose time has come to due. */
  private refresh(now: number): void {
    const list = this.touched;
    for (let i = 0; i < list.length; i++) {
      const f = list[i]!;
      const s = f.nicSlot;
      if (s < 0 || this.dirty[s] === 0) continue;
      this.dirty[s] = 0;
      if (!f.maySend()) {
        this.setBlocked(s);
        continue;
      }
      const r = f.readyAt();
      if (r <= now) {
        if (this.state[s] === WAITING) this.heapRemove(s);
        if (this.state[s] !== DUE) this.setDue(s);
      } else {
        if (this.state[s] === DUE) this.clearDue(s);
        if (this.state[s] === WAITING) {
          if (this.key[s] !== r) {
            this.heapRemove(s);
            this.heapPush(s, r);
          }
        } else this.heapPush(s, r);
      }
    }
    list.length = 0;
    let used = this.usedClasses;
    while (used !== 0) {
      const c = 31 - Math.clz32(used);
      used &= ~(1 << c);
      const h = this.heap[c]!;
      while (this.heapSize[c]! > 0 && this.key[h[0]!]! <= now) {
        const s = h[0]!;
        this.heapRemove(s);
        this.setDue(s);
      }
    }
  }

  private setBlocked(s: number): void {
    const st = this.state[s];
    if (st === DUE) this.clearDue(s);
    else if (st === WAITING) this.heapRemove(s);
  }

  private setDue(s: number): void {
    const c = this.cls[s]!;
    this.due[c]![s >>> 5] |= 1 << (s & 31);
    this.dueCount[c]++;
    this.state[s] = DUE;
  }

  private clearDue(s: number): void {
    const c = this.cls[s]!;
    this.due[c]![s >>> 5] &= ~(1 << (s & 31));
    this.dueCount[c]--;
    this.state[s] = BLOCKED;
  }

  /** First set bit at or after `from`, wrapping (the bitset has at least one). */
  private firstDue(bits: Uint32Array, from: number): number {
    const words = bits.length;
    let w = from >>> 5;
    if (w < words) {
      const m = bits[w]! & (~0 << (from & 31));
      if (m !== 0) return (w << 5) + (31 - Math.clz32(m & -m));
      for (w++; w < words; w++) {
        const b = bits[w]!;
        if (b !== 0) return (w << 5) + (31 - Math.clz32(b & -b));
      }
    }
    for (w = 0; ; w++) {
      const b = bits[w]!;
      if (b !== 0) return (w << 5) + (31 - Math.clz32(b & -b));
    }
  }

  // ---- binary heap of waiting slots by (ready time, slot), per class

  private heapPush(s: number, t: number): void {
    const c = this.cls[s]!;
    const h = this.heap[c]!;
    this.key[s] = t;
    this.state[s] = WAITING;
    let i = this.heapSize[c]!++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const ps = h[p]!;
      const pt = this.key[ps]!;
      if (pt < t || (pt === t && ps < s)) break;
      h[i] = ps;
      this.hpos[ps] = i;
      i = p;
    }
    h[i] = s;
    this.hpos[s] = i;
  }

  private heapRemove(s: number): void {
    const c = this.cls[s]!;
    const h = this.heap[c]!;
    const n = --this.heapSize[c]!;
    const i = this.hpos[s]!;
    this.state[s] = BLOCKED;
    if (i === n) return;
    const last = h[n]!;
    const t = this.key[last]!;
    // sift `last` into position i: up if smaller than its parent, else down
    let j = i;
    while (j > 0) {
      const p = (j - 1) >> 1;
      const ps = h[p]!;
      const pt = this.key[ps]!;
      if (pt < t || (pt === t && ps < last)) break;
      h[j] = ps;
      this.hpos[ps] = j;
      j = p;
    }
    if (j === i) {
      for (;;) {
        const l = 2 * j + 1;
        if (l >= n) break;
        const r = l + 1;
        let cIdx = l;
        if (r < n) {
          const lt = this.key[h[l]!]!;
          const rt = this.key[h[r]!]!;
          if (rt < lt || (rt === lt && h[r]! < h[l]!)) cIdx = r;
        }
        const cs = h[cIdx]!;
        const ct = this.key[cs]!;
        if (ct > t || (ct === t && cs > last)) break;
        h[j] = cs;
        this.hpos[cs] = j;
        j = cIdx;
      }
    }
    h[j] = last;
    this.hpos[last] = j;
  }

  // ---- slots

  /** The table is full: compact it (order kept) if at most half is in use, else double it. */
  private makeRoom(): void {
    const oldCap = this.cap;
    const cap = oldCap === 0 ? 64 : this.count * 2 <= oldCap ? oldCap : oldCap * 2;
    const flow: (NicFlow | null)[] = new Array<NicFlow | null>(cap).fill(null);
    const cls = new Uint8Array(cap);
    const state = new Uint8Array(cap);
    const dirty = new Uint8Array(cap);
    const key = new Float64Array(cap);
    let n = 0;
    let cursor = -1;
    for (let s = 0; s < this.end; s++) {
      if (s === this.cursor) cursor = n;
      const f = this.flow[s];
      if (f === null || f === undefined) continue;
      flow[n] = f;
      cls[n] = this.cls[s]!;
      state[n] = this.state[s]!;
      dirty[n] = this.dirty[s]!;
      key[n] = this.key[s]!;
      f.nicSlot = n;
      n++;
    }
    this.cursor = cursor >= 0 ? cursor : n;
    this.flow = flow;
    this.cls = cls;
    this.state = state;
    this.dirty = dirty;
    this.key = key;
    this.hpos = new Int32Array(cap);
    this.cap = cap;
    this.end = n;
    let used = this.usedClasses;
    while (used !== 0) {
      const c = 31 - Math.clz32(used);
      used &= ~(1 << c);
      this.due[c] = new Uint32Array(cap >>> 5);
      this.dueCount[c] = 0;
      this.heap[c] = new Int32Array(cap);
      this.heapSize[c] = 0;
    }
    for (let s = 0; s < n; s++) {
      const st = this.state[s];
      if (st === DUE) this.setDue(s);
      else if (st === WAITING) this.heapPush(s, this.key[s]!);
    }
  }
}
