/**
 * The honest summary of a paper's claims (issue 40): verdict counts with stale and partial
 * apart, the replicas behind the measured claims, the builds they ran on, and the deviations
 * by cause category. `ccsim claims`, the reproduction report and the README table print it.
 */
import { CAUSE_CATEGORIES, type ClaimRow, type Verdict } from './published.js';

const ORDER: readonly Verdict[] = ['holds', 'deviates', 'inconclusive', 'undecided', 'stale', 'partial', 'not run'];

/** Counts per verdict over the published claims (sensitivity rows are not counted). */
export function verdictTally(all: readonly ClaimRow[]): Record<Verdict, number> & { claims: number; sensitivity: number } {
  const rows = all.filter((r) => r.variantOf === undefined);
  const t = Object.fromEntries(ORDER.map((v) => [v, rows.filter((r) => r.verdict === v).length])) as Record<Verdict, number>;
  return { ...t, claims: rows.length, sensitivity: all.length - rows.length };
}

/** Verdict counts over the published claims, as one line (sensitivity rows are listed apart). */
export function verdictCounts(all: readonly ClaimRow[]): string {
  const t = verdictTally(all);
  const opt = (n: number, text: string): string => (n > 0 ? `${n} ${text}, ` : '');
  return (
    `${t.claims} claims: ${t.holds} hold, ${t.deviates} deviate, ${opt(t.inconclusive, 'inconclusive (the 95 % interval straddles the tolerance or zero)')}` +
    `${opt(t.undecided, 'undecided (run too short for a lower bound to decide)')}${opt(t.stale, 'stale (measured on another model, spec or an unrecorded build)')}` +
    `${opt(t.partial, 'partial (fewer points than the claim needs)')}${t['not run']} not run` +
    (t.sensitivity > 0 ? `; ${t.sensitivity} sensitivity row${t.sensitivity === 1 ? '' : 's'} (a variant of the model, not counted)` : '')
  );
}

/** Measured published claims (not sensitivity rows) per replica count, most replicas first. */
function replicaCounts(all: readonly ClaimRow[]): [n: number, claims: number][] {
  const byN = new Map<number, number>();
  for (const r of all) if (r.variantOf === undefined && r.measured !== null) byN.set(r.n ?? 1, (byN.get(r.n ?? 1) ?? 0) + 1);
  return [...byN.entries()].sort((a, b) => b[0] - a[0]);
}

/** Counted deviating and inconclusive claims per cause category ("no cause yet" last, when any). */
function causeCounts(all: readonly ClaimRow[]): [cause: string, claims: number][] {
  const dev = all.filter((r) => r.variantOf === undefined && (r.verdict === 'deviates' || r.verdict === 'inconclusive'));
  const out: [string, number][] = CAUSE_CATEGORIES.map((c): [string, number] => [c, dev.filter((r) => r.cause?.category === c).length]).filter(([, n]) => n > 0);
  const none = dev.filter((r) => r.cause === undefined).length;
  if (none > 0) out.push(['no cause yet', none]);
  return out;
}

/** Lines under the counts: replicas, builds, why rows are stale, deviations by cause category. */
export function claimsSummaryLines(all: readonly ClaimRow[]): string[] {
  const rows = all.filter((r) => r.variantOf === undefined && r.measured !== null);
  const lines: string[] = [];
  if (rows.length === 0) return lines;
  lines.push(`replicas per measured claim: ${replicaCounts(all).map(([n, c]) => `${c} with n=${n}`).join(', ')}`);
  const builds = new Map<string, number>();
  for (const r of rows) {
    const b = r.provenance?.build ?? 'none recorded';
    builds.set(b, (builds.get(b) ?? 0) + 1);
  }
  lines.push(`builds: ${[...builds.entries()].sort((a, b) => b[1] - a[1]).map(([b, c]) => `${b} (${c})`).join(', ')}`);
  const why = new Map<string, number>();
  for (const r of rows) {
    if (r.verdict !== 'stale' || r.why === undefined) continue;
    const w = r.why.replace(/ \(recorded on .*$/, '');
    why.set(w, (why.get(w) ?? 0) + 1);
  }
  if (why.size > 0) lines.push(`stale: ${[...why.entries()].map(([w, c]) => `${c} ${w}`).join('; ')}`);
  const causes = causeCounts(all);
  if (causes.length > 0) lines.push(`deviating / inconclusive by cause: ${causes.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  const spread = rows.filter((r) => r.spreadExceedsTolerance === true).length;
  if (spread > 0) lines.push(`${spread} claim${spread === 1 ? '' : 's'} whose replicas spread by more than the tolerance (the verdict rests on the interval)`);
  return lines;
}

/** Measured claims (not sensitivity rows) per replica count, e.g. "26 × n=3, 46 × n=1"; "-" when none. */
export function replicasCell(all: readonly ClaimRow[]): string {
  const c = replicaCounts(all);
  return c.length === 0 ? '-' : c.map(([n, k]) => `${k} × n=${n}`).join(', ');
}

/** Counted deviations and inconclusive claims per cause category, e.g. "unexplained 6, model gap 2"; "-" when none. */
export function causesCell(all: readonly ClaimRow[]): string {
  const c = causeCounts(all);
  return c.length === 0 ? '-' : c.map(([k, n]) => `${k} ${n}`).join(', ');
}

/** The paper's row of the README's "How close to the papers" table. */
export function paperRow(title: string, all: readonly ClaimRow[]): string {
  const t = verdictTally(all);
  return `| ${title} | ${t.claims} | ${t.holds} | ${t.deviates} | ${t.inconclusive + t.undecided} | ${t.stale} | ${t.partial} | ${t['not run']} | ${replicasCell(all)} | ${causesCell(all)} |`;
}
