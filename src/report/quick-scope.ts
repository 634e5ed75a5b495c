/**
 * What `reproduce <paper> --quick` can judge, known from the plans before
 * anything runs: each published claim's experiment either has no `quick:`
 * block (it runs at the paper's size, one replica), has one (reduced size:
 * the verdict is indicative only), or leaves out every point the claim needs
 * (`needs:` matches no quick point, or the experiment has no spec), so the
 * quick run cannot judge it. After the run, claims whose analysis gives no
 * value at quick size are listed as well (ClaimsView.unmeasured, in the CLI).
 */
import { splitExperiment } from '../experiment/spec/meta.js';
import { readSpecFile } from '../experiment/spec/resolve.js';
import type { SweepPlan } from '../experiment/run/sweep.js';
import type { PublishedData } from './published.js';

export interface QuickScope {
  /** claims (not sensitivity rows) whose experiment runs at the paper's size under --quick */
  fullSize: string[];
  /** claims measured on reduced quick points: indicative verdicts */
  reduced: string[];
  /** claims without `needs:` on an experiment whose quick sweep has fewer points than its full one: judged when its analysis finds what it needs */
  thinned: string[];
  /** claims none of whose points the quick sweeps run */
  cannot: string[];
}

/** Points of a `sweep:` block (before seeds): the product of its lists' and zip groups' lengths. */
function sweepSize(sweep: unknown): number {
  if (sweep === null || typeof sweep !== 'object') return 1;
  let n = 1;
  for (const [k, v] of Object.entries(sweep as Record<string, unknown>)) {
    if (k !== 'zip') n *= Array.isArray(v) ? v.length : 1;
    else for (const g of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) n *= Math.max(1, ...Object.values(g as Record<string, unknown[]>).map((x) => (Array.isArray(x) ? x.length : 1)));
  }
  return n;
}

/** Whether the quick sweep leaves out points of the full one (fewer combinations of swept values). */
function thinnedByQuick(plan: SweepPlan): boolean {
  if (plan.meta.quick === undefined) return false;
  const full = splitExperiment(readSpecFile(plan.specPath), plan.specPath, false).meta;
  return sweepSize(plan.meta.sweep) < sweepSize(full.sweep);
}

/** Sorts the counted claims of `data` by what a quick run of `plans` (named by experiment) can say about them. */
export function quickScope(data: PublishedData, plans: ReadonlyMap<string, SweepPlan>): QuickScope {
  const scope: QuickScope = { fullSize: [], reduced: [], thinned: [], cannot: [] };
  const thinned = new Map([...plans.entries()].map(([name, plan]) => [name, thinnedByQuick(plan)]));
  for (const c of data.claims) {
    if (c.variantOf !== undefined) continue;
    const plan = plans.get(c.experiment);
    const re = c.needs !== undefined ? new RegExp(c.needs) : undefined;
    const points = plan === undefined ? [] : re === undefined ? plan.points : plan.points.filter((p) => re.test(p.label));
    if (points.length === 0) scope.cannot.push(c.id);
    else if (plan!.meta.quick === undefined) scope.fullSize.push(c.id);
    else if (re === undefined && thinned.get(c.experiment) === true) scope.thinned.push(c.id);
    else scope.reduced.push(c.id);
  }
  return scope;
}

/** The scope in words, one sentence per kind (the CLI wraps them; the report shows them). */
export function quickScopeLines(s: QuickScope): string[] {
  const total = s.fullSize.length + s.reduced.length + s.thinned.length + s.cannot.length;
  const lines = [
    `quick size: of ${total} claims, ${s.fullSize.length} run at the paper's size (one replica), ${s.reduced.length} on reduced points ` +
      `(indicative only: fewer flows, one seed), ${s.thinned.length} on quick sweeps with fewer points (judged where the analysis finds the points it needs; ` +
      `the others are named after the run), ${s.cannot.length} cannot be judged (their points are not in the quick sweeps)`,
  ];
  if (s.cannot.length > 0) lines.push(`cannot be judged at quick size: ${s.cannot.join(', ')}`);
  return lines;
}
