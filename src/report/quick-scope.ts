/**
 * What `reproduce <paper> --quick` can judge, known from the plans before
 * anything runs: each published claim's experiment either has no `quick:`
 * block (it runs at the paper's size, one replica), has one (reduced size:
 * the verdict is indicative only), or leaves out every point the claim needs
 * (`needs:` matches no quick point, or the experiment has no spec), so the
 * quick run cannot judge it. After the run, claims whose analysis gives no
 * value at quick size are listed as well (ClaimsView.unmeasured, in the CLI).
 */
import type { SweepPlan } from '../experiment/sweep.js';
import type { PublishedData } from './published.js';

export interface QuickScope {
  /** claims (not sensitivity rows) whose experiment runs at the paper's size under --quick */
  fullSize: string[];
  /** claims measured on reduced quick points: indicative verdicts */
  reduced: string[];
  /** claims none of whose points the quick sweeps run */
  cannot: string[];
}

/** Sorts the counted claims of `data` by what a quick run of `plans` (named by experiment) can say about them. */
export function quickScope(data: PublishedData, plans: ReadonlyMap<string, SweepPlan>): QuickScope {
  const scope: QuickScope = { fullSize: [], reduced: [], cannot: [] };
  for (const c of data.claims) {
    if (c.variantOf !== undefined) continue;
    const plan = plans.get(c.experiment);
    const re = c.needs !== undefined ? new RegExp(c.needs) : undefined;
    const points = plan === undefined ? [] : re === undefined ? plan.points : plan.points.filter((p) => re.test(p.label));
    if (points.length === 0) scope.cannot.push(c.id);
    else if (plan!.meta.quick === undefined) scope.fullSize.push(c.id);
    else scope.reduced.push(c.id);
  }
  return scope;
}

/** The scope in words, one sentence per kind (the CLI wraps them; the report shows them). */
export function quickScopeLines(s: QuickScope): string[] {
  const total = s.fullSize.length + s.reduced.length + s.cannot.length;
  const lines = [
    `quick size: of ${total} claims, ${s.fullSize.length} run at the paper's size (one replica), ${s.reduced.length} on reduced points ` +
      `(indicative only: fewer flows, one seed), ${s.cannot.length} cannot be judged (their points are not in the quick sweeps)`,
  ];
  if (s.cannot.length > 0) lines.push(`cannot be judged at quick size: ${s.cannot.join(', ')}`);
  return lines;
}
