/**
 * Small statistics used by the summaries (docs/network-model.md §13.2, §13.5) and
 * by the figure analyses (experiments/<paper>/analysis*.ts): one implementation of each, so
 * a paper's number and the run summary are computed the same way.
 * Percentile functions take an ascending sorted array and p in [0, 100] (a
 * percent, not a fraction: the 99.9th percentile is p = 99.9); on an empty
 * array they return NaN.
 */

/**
 * Linear-interpolation percentile, as numpy.percentile's default ('linear')
 * method: virtual index (n-1)·p/100, and the same two-sided lerp numpy uses
 * so results agree to the last bit.
 */
export function percentileLinear(sorted: ArrayLike<number>, p: number): number {
  checkP(p);
  const n = sorted.length;
  if (n === 0) return NaN;
  const idx = (n - 1) * (p / 100);
  const lo = Math.floor(idx);
  const hi = Math.min(lo + 1, n - 1);
  const t = idx - lo;
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  if (t === 0) return a;
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

/**
 * Nearest-rank percentile of the HPCC analysis script (`get_pctl`):
 * sorted[int(n·p/100)], clamped to the last element.
 */
export function percentileNearestRank(sorted: ArrayLike<number>, p: number): number {
  checkP(p);
  const n = sorted.length;
  if (n === 0) return NaN;
  const i = Math.min(Math.floor(n * (p / 100)), n - 1);
  return sorted[i]!;
}

function checkP(p: number): void {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be in [0, 100], got ${p}`);
}

/** Arithmetic mean; NaN for an empty array. */
export function mean(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return NaN;
  let s = 0;
  for (let i = 0; i < n; i++) s += xs[i]!;
  return s / n;
}

export interface JainOptions {
  /**
   * The index when every value is 0, where (Σx)² / (n·Σx²) is 0/0. Default 1
   * (all shares equal). The figure analyses pass NaN: a sample in which no
   * flow moves a byte says nothing about fairness, and counting it as
   * perfectly fair would let a stall pass a "Jain >= 0.95" convergence test.
   */
  allZero?: number;
}

/**
 * Jain's fairness index (Σx)² / (n·Σx²), in (0, 1]. NaN for an empty array;
 * `opts.allZero` (default 1) when every value is 0.
 */
export function jainIndex(xs: ArrayLike<number>, opts: JainOptions = {}): number {
  const n = xs.length;
  if (n === 0) return NaN;
  let s = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const x = xs[i]!;
    s += x;
    s2 += x * x;
  }
  if (s2 === 0) return opts.allZero ?? 1;
  return (s * s) / (n * s2);
}

/** Ascending numeric sort into a new Float64Array. */
export function sortedCopy(xs: ArrayLike<number>): Float64Array {
  const a = Float64Array.from(xs);
  a.sort();
  return a;
}
