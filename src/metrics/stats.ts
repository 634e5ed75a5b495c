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

/** Two-sided 95 % quantiles t(0.975, df) of Student's t-distribution for df = 1..30. */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** t(0.975, df): the table up to 30, then 40 / 60 / 120 steps, 1.96 beyond. */
export function tQuantile975(df: number): number {
  if (!(df >= 1)) return NaN;
  if (df <= 30) return T975[Math.floor(df) - 1]!;
  return df < 40 ? 2.042 : df < 60 ? 2.021 : df < 120 ? 2.0 : df < 1000 ? 1.98 : 1.96;
}

/** Mean and the half-width of its 95 % confidence interval (t-distribution, sample sd); half-width NaN for n < 2. */
export function meanCi95(xs: readonly number[]): { n: number; mean: number; sd: number; half: number } {
  const n = xs.length;
  const m = mean(xs);
  if (n < 2) return { n, mean: m, sd: NaN, half: NaN };
  let ss = 0;
  for (const x of xs) ss += (x - m) * (x - m);
  const sd = Math.sqrt(ss / (n - 1));
  return { n, mean: m, sd, half: (tQuantile975(n - 1) * sd) / Math.sqrt(n) };
}
