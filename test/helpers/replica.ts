/**
 * The points of a plan's first replica (the spec's own seed and perturb; issue 40's `seeds:` and
 * `perturbations:` add the others): tests that count or inspect an experiment's points use these.
 */
export function ownReplica<P extends { seed: number; perturb: number }>(points: readonly P[]): P[] {
  const first = points[0];
  return first === undefined ? [] : points.filter((p) => p.seed === first.seed && p.perturb === first.perturb);
}
