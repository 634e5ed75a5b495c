/**
 * The shared-memory pieces of a parallel run's windows (issue 31; docs/architecture.md,
 * "Parallel runs: partitions and synchronisation"), for worker threads that each run one
 * partition's scheduler:
 *
 * - `WindowBarrier`: every worker arrives with the time of its next pending event and a
 *   count (flows finished, say); the last to arrive bumps a generation and wakes the others
 *   (Atomics.add / Atomics.notify; the others Atomics.wait), and every worker then reads the
 *   same reductions: the earliest next event (to skip idle windows) and the sum of the counts
 *   (the stop rule). Each generation's values sit in their own half of the buffer, so a
 *   worker that races ahead into the next window never overwrites what a slower one is
 *   still reading.
 * - `WindowRing`: one per ordered pair of partitions, the entries one worker sends to another
 *   during a window (doubles; net/crossing.ts writes them), in two halves by window parity:
 *   the sender fills the half of window k while the receiver drains the half of window k - 1,
 *   which it does before it arrives at the next barrier.
 *
 * Plain data in shared memory (`SharedArrayBuffer`); nothing here knows what an entry is.
 */

/** Int32 words of the barrier's control block: arrivals, generation, a partition failed. */
const ARRIVED = 0;
const GEN = 1;
const FAILED = 2;

export class WindowBarrier {
  private readonly ctl: Int32Array;
  private readonly vals: Float64Array;
  /** the reductions of the last completed barrier */
  minNext = Infinity;
  sum = 0;

  /** Bytes of shared memory a barrier of `workers` workers needs. */
  static bytes(workers: number): number {
    return 16 + 2 * 2 * workers * 8;
  }

  constructor(
    sab: SharedArrayBuffer,
    private readonly workers: number,
    private readonly me: number,
  ) {
    if (sab.byteLength < WindowBarrier.bytes(workers)) throw new Error('WindowBarrier: shared buffer too small');
    this.ctl = new Int32Array(sab, 0, 4);
    this.vals = new Float64Array(sab, 16, 4 * workers);
  }

  /** A partition failed: every worker waiting at (or coming to) the barrier throws instead of waiting for it. */
  static fail(sab: SharedArrayBuffer): void {
    const ctl = new Int32Array(sab, 0, 4);
    Atomics.store(ctl, FAILED, 1);
    Atomics.notify(ctl, GEN);
  }

  /** Arrives with this worker's next event time (Infinity: none) and count; returns once every worker has, with the reductions set. */
  arrive(nextPs: number, count: number): void {
    const ctl = this.ctl;
    const gen = Atomics.load(ctl, GEN);
    const half = (gen & 1) * 2 * this.workers;
    this.vals[half + 2 * this.me] = nextPs;
    this.vals[half + 2 * this.me + 1] = count;
    if (Atomics.add(ctl, ARRIVED, 1) === this.workers - 1) {
      Atomics.store(ctl, ARRIVED, 0);
      Atomics.add(ctl, GEN, 1);
      Atomics.notify(ctl, GEN);
    } else {
      while (Atomics.load(ctl, GEN) === gen) {
        if (Atomics.load(ctl, FAILED) !== 0) throw new Error('parallel run: another partition failed');
        Atomics.wait(ctl, GEN, gen);
      }
    }
    let min = Infinity;
    let sum = 0;
    for (let w = 0; w < this.workers; w++) {
      const t = this.vals[half + 2 * w]!;
      if (t < min) min = t;
      sum += this.vals[half + 2 * w + 1]!;
    }
    this.minNext = min;
    this.sum = sum;
  }
}

export class WindowRing {
  /** entry counts of the two halves */
  private readonly counts: Int32Array;
  private readonly halves: [Float64Array, Float64Array];

  /** Bytes of shared memory for `capacity` doubles per window. */
  static bytes(capacity: number): number {
    return 8 + 2 * capacity * 8;
  }

  constructor(
    sab: SharedArrayBuffer,
    /** doubles one window may hold */
    readonly capacity: number,
  ) {
    if (sab.byteLength < WindowRing.bytes(capacity)) throw new Error('WindowRing: shared buffer too small');
    this.counts = new Int32Array(sab, 0, 2);
    this.halves = [new Float64Array(sab, 8, capacity), new Float64Array(sab, 8 + capacity * 8, capacity)];
  }

  /** The sender's half for window `k` (write entries from index 0, then `publish`). */
  half(k: number): Float64Array {
    return this.halves[k & 1]!;
  }

  /** The sender, at the end of window k: `doubles` written into `half(k)`. */
  publish(k: number, doubles: number): void {
    if (doubles > this.capacity) throw new Error(`WindowRing: ${doubles} doubles in one window, capacity ${this.capacity}`);
    Atomics.store(this.counts, k & 1, doubles);
  }

  /** The receiver, after the barrier that ends window k: the doubles sent in it (read them before the next barrier). */
  received(k: number): Float64Array {
    return this.halves[k & 1]!.subarray(0, Atomics.load(this.counts, k & 1));
  }
}
