/**
 * Mixture-of-experts all-to-all for `type: collective`, `op: alltoall` with
 * `experts:` (issue 25; OSCAR §6.2 Fig 6d/e and §6.4 Fig 12 pick each
 * all-to-all destination from the expert-selection distribution of FasterMoE,
 * OSCAR's reference [46]). Host k of a group hosts expert k. In every pass
 * each host makes `draws` independent draws from the distribution (each
 * carrying bytes/draws); draws that pick the host itself stay local, the
 * others are summed per destination into one flow each.
 *
 * The distribution is data: `weights` (one relative popularity per expert,
 * in group order) or `zipf: s` (expert k has weight 1/(k+1)^s). FasterMoE
 * reports skewed, shifting expert popularity but no table that could be
 * copied, so the skew is a parameter (experiments/oscar/README.md, Fig 12).
 * Draws use the entry's seeded stream: the same spec and seed give the same
 * destinations.
 */
import { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import { posInt } from '../engine/spec-fields.js';

export const expertsSchema = z
  .object({
    weights: z.array(z.number().min(0)).min(2).optional(),
    zipf: z.number().min(0).optional(),
    draws: posInt.default(1),
  })
  .strict();

export type ExpertsSpec = z.output<typeof expertsSchema>;

/** The selection probabilities of the `n` experts (cumulative, last = 1), or a message saying what is wrong. */
export function expertCdf(e: ExpertsSpec, n: number): Float64Array | string {
  if ((e.weights === undefined) === (e.zipf === undefined)) return 'give weights or zipf (one of them)';
  const w = e.weights ?? Array.from({ length: n }, (_, k) => 1 / (k + 1) ** e.zipf!);
  if (w.length !== n) return `${w.length} weights for a group of ${n} hosts (one weight per expert)`;
  let sum = 0;
  for (const x of w) sum += x;
  if (!(sum > 0)) return 'the weights add up to 0';
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let k = 0; k < n; k++) {
    acc += w[k]!;
    cdf[k] = acc / sum;
  }
  cdf[n - 1] = 1;
  return cdf;
}

/** One draw from a cumulative distribution. */
export function drawExpert(cdf: Float64Array, rng: Rng): number {
  const u = rng.next();
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (u < cdf[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One pass of source `src` (a group position): bytes per destination position
 * (0 for itself and for experts it did not pick), into `out`.
 */
export function moePass(cdf: Float64Array, src: number, bytes: number, draws: number, rng: Rng, out: Float64Array): void {
  out.fill(0);
  const base = Math.floor(bytes / draws);
  for (let d = 0; d < draws; d++) {
    const k = drawExpert(cdf, rng);
    // the last draw carries the remainder so a pass sends `bytes` in total
    out[k]! += d === draws - 1 ? bytes - base * (draws - 1) : base;
  }
  out[src] = 0;
}
