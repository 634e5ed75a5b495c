/**
 * Published numbers of a paper (data/published/<paper>.yaml) and their
 * comparison with measured claims.
 *
 * A data file lists claims: the id a figure analysis gives the measured value
 * (MeasuredClaim.id in experiments/<paper>/analysis*.ts), the experiment (spec file stem under
 * experiments/<paper>/) that measures it, the published value, a tolerance,
 * and where the paper states it. The verdict per claim is
 * - holds:    measured within the tolerance (or on the right side, for at-least / at-most claims),
 * - deviates: measured, outside the tolerance,
 * - inconclusive: measured over several seeds (`seeds:`), and the 95 % confidence interval of
 *   the mean straddles the tolerance band's edge,
 * - undecided: only a lower bound was measured and it does not decide the claim,
 * - stale:    measured, but on a model or spec other than the current one, or by a build no
 *             record names (./provenance.ts); never counted as holds or deviates,
 * - partial:  measured on fewer points than the claim needs (an unfinished sweep),
 * - not run:  no measurement (experiment not run, not finished, or its analysis gave no value).
 * A claim with a `direction` (the paper states the effect's sign: "A beats B by x %") holds
 * only when the measured interval also lies wholly on that side of zero: a zero or reversed
 * effect never passes, whatever the tolerance (issue 40).
 * Over n >= 2 seeds the claim holds when the whole interval is inside the band and deviates
 * when it is wholly outside; a single seed (n = 1, every record made before `seeds:`) is
 * judged on its value.
 *
 * One model per claim: a claim with `variantOf` measures a published claim again under a
 * labelled variant of the model (`variant`, e.g. SQCC's segment bursts); it is shown as a
 * sensitivity row under the claim it varies and is not counted as a verdict of its own.
 *
 * A deviating or inconclusive claim carries a `cause` (category, parameter, explanation):
 * on the claim itself or from the file's `causes:` list, whose entries name claim ids (a
 * trailing `*` matches a prefix).
 * A lower-bound measurement (MeasuredClaim.bound, "had not happened by the run's end")
 * deviates when the bound alone is already above the band, holds for an at-least claim
 * it satisfies, and is otherwise undecided (a longer run would tell).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../engine/errors.js';
import { readSpecFile } from '../experiment/spec/resolve.js';
import { specErrorMap } from '../experiment/spec/spec.js';
import { zodToSpecError } from '../engine/errors.js';
import type { MeasuredClaim } from '../experiment/results/analysis.js';
import { meanCi95 } from '../metrics/stats.js';
import { recordedClaimSchema, type Provenance } from './provenance.js';

/** Papers ccsim reproduces (experiments/<paper>/, data/published/<paper>.yaml). */
export const PAPERS = ['oscar', 'powertcp', 'acc', 'ccc', 'sqcc'] as const;
export type Paper = (typeof PAPERS)[number];

/**
 * Why a claim deviates (or is inconclusive). `reference agrees`: a public reference simulator of
 * the system (the paper's own, or the one it cites for a baseline: the PowerTCP authors' for
 * CCC's), run on the stated set-up, misses the published value as ccsim does, and ccsim gives the
 * reference's numbers on identical flows; the cause names the reference runs (under
 * data/anchors/), so the gap lies in what made the published figure, not in ccsim's model.
 */
export const CAUSE_CATEGORIES = ['reconstruction choice', 'reference agrees', 'reduced scale', 'model gap', 'paper inconsistency', 'unexplained'] as const;
export type CauseCategory = (typeof CAUSE_CATEGORIES)[number];

const causeShape = {
  category: z.enum(CAUSE_CATEGORIES),
  /** the parameter or feature involved, e.g. `pacing`, `workload[0].duration` */
  parameter: z.string().min(1),
  /** one line */
  explanation: z.string().min(1),
};
const causeSchema = z.object(causeShape).strict();
export type Cause = z.output<typeof causeSchema>;

const claimSchema = z
  .object({
    /** MeasuredClaim.id produced by the experiment's figure analysis */
    id: z.string().min(1),
    /** spec file stem under experiments/<paper>/ */
    experiment: z.string().min(1),
    /** what is measured, in words */
    metric: z.string().min(1),
    published: z.number(),
    unit: z.string().optional(),
    /** allowed distance from the published value, in the claim's unit */
    tolerance: z.number().min(0),
    /** within: |m - p| <= tol; atLeast: m >= p - tol; atMost: m <= p + tol */
    compare: z.enum(['within', 'atLeast', 'atMost']).default('within'),
    /** section / figure of the paper */
    source: z.string().min(1),
    note: z.string().optional(),
    /** why the claim deviates (or is inconclusive), when it does */
    cause: causeSchema.optional(),
    /**
     * the sign the paper states for the effect ("A better than B by x %": positive); the claim
     * holds only when the measured interval is wholly on that side of zero
     */
    direction: z.enum(['positive', 'negative']).optional(),
    /**
     * the points the claim needs, as a regular expression matched against point labels
     * (default: every point of the experiment); fewer finished makes the claim `partial`
     */
    needs: z
      .string()
      .min(1)
      .refine((x) => {
        try {
          new RegExp(x);
          return true;
        } catch {
          return false;
        }
      }, { message: 'is not a regular expression' })
      .optional(),
    /** a sensitivity row: the id of the published claim this one re-measures under `variant` */
    variantOf: z.string().min(1).optional(),
    /** what differs from the default model, e.g. "segment bursts" */
    variant: z.string().min(1).optional(),
  })
  .strict();

export const publishedSchema = z
  .object({
    paper: z.enum(PAPERS as unknown as [string, ...string[]]),
    title: z.string().min(1),
    /** which model the claims are checked against, and why (shown above the table) */
    defaultModel: z.string().min(1).optional(),
    claims: z.array(claimSchema),
    /** causes shared by several claims: `claims` lists ids, a trailing `*` matches an id prefix */
    causes: z.array(z.object({ claims: z.array(z.string().min(1)).min(1), ...causeShape }).strict()).optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.claims.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['claims', i, 'id'], message: 'duplicate claim id' });
      seen.add(c.id);
    });
    d.claims.forEach((c, i) => {
      if (c.direction !== undefined && c.published !== 0 && (c.published > 0) !== (c.direction === 'positive') && c.compare === 'within') {
        ctx.addIssue({ code: 'custom', path: ['claims', i, 'direction'], message: `is ${c.direction} but the published value ${c.published} is not` });
      }
      if (c.variantOf !== undefined && !seen.has(c.variantOf)) ctx.addIssue({ code: 'custom', path: ['claims', i, 'variantOf'], message: `no claim with id "${c.variantOf}"` });
      if (c.variantOf === c.id) ctx.addIssue({ code: 'custom', path: ['claims', i, 'variantOf'], message: 'a claim cannot be a variant of itself' });
      if ((c.variantOf === undefined) !== (c.variant === undefined)) ctx.addIssue({ code: 'custom', path: ['claims', i, c.variant === undefined ? 'variant' : 'variantOf'], message: 'variantOf and variant go together' });
    });
    (d.causes ?? []).forEach((g, i) =>
      g.claims.forEach((id, j) => {
        const hit = id.endsWith('*') ? d.claims.some((c) => c.id.startsWith(id.slice(0, -1))) : seen.has(id);
        if (!hit) ctx.addIssue({ code: 'custom', path: ['causes', i, 'claims', j], message: `matches no claim id` });
      }),
    );
  });

export type PublishedClaim = z.output<typeof claimSchema>;
export type PublishedData = z.output<typeof publishedSchema>;

/** The installed package's root (holds package.json, data/, experiments/). */
export { packageRoot } from '../workload/package-root.js';

export function checkPaper(paper: string): Paper {
  if (!(PAPERS as readonly string[]).includes(paper)) throw new UsageError(`unknown paper "${paper}" (known: ${PAPERS.join(', ')})`);
  return paper as Paper;
}

/** A data file checked against its schema (errors name the field, as spec errors do), or undefined when it does not exist. */
function loadChecked<S extends z.ZodType>(schema: S, file: string): z.output<S> | undefined {
  if (!existsSync(file)) return undefined;
  const raw = readSpecFile(file);
  const r = schema.safeParse(raw, { error: specErrorMap });
  if (!r.success) throw zodToSpecError(r.error, raw, file);
  return r.data;
}

/** A paper's record of earlier measurements, or undefined when it has none yet. */
export function loadClaimRecord(file: string): ClaimRecord | undefined {
  return loadChecked(claimRecordSchema, file);
}
/** A paper's record data/measured/<paper>.json: its claims' last measurements with their provenance (./provenance.ts). */
export const claimRecordSchema = z
  .object({
    paper: z.enum(PAPERS as unknown as [string, ...string[]]),
    /** keyed by `<experiment>/<claim id>` */
    claims: z.record(z.string(), recordedClaimSchema),
  })
  .strict();
export type ClaimRecord = z.output<typeof claimRecordSchema>;
export type { RecordedClaim } from './provenance.js';

/** The published-numbers file of a paper, or undefined when the paper has none yet. */
export function loadPublished(file: string): PublishedData | undefined {
  return loadChecked(publishedSchema, file);
}

/** Spec files of a paper's experiments (sorted), [] when the folder is missing. */
export function experimentFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/i.test(f))
    .sort()
    .map((f) => join(dir, f));
}

export function experimentName(file: string): string {
  return file.replace(/^.*[\\/]/, '').replace(/\.(ya?ml|json)$/i, '');
}

export type Verdict = 'holds' | 'deviates' | 'inconclusive' | 'undecided' | 'stale' | 'partial' | 'not run';

/** A measured claim over one or more seeds. */
export interface Measurement {
  value: number;
  bound?: 'lower';
  /** seeds (1 when unknown) */
  n: number;
  /** half-width of the 95 % confidence interval, n >= 2 */
  ci95?: number;
  /** each replica's value, in replica order (n >= 2) */
  values?: number[];
  /** each replica's name (`seed=2`, `perturb=1`; '' for the spec's own), with `values` */
  replicas?: string[];
}

export interface ClaimRow extends PublishedClaim {
  /** the mean over the seeds measured */
  measured: number | null;
  /** 'lower' when measured is only a lower bound (the true value is above it) */
  bound?: 'lower';
  /** seeds behind `measured` (absent when not measured) */
  n?: number;
  /** half-width of the 95 % confidence interval of the mean (n >= 2) */
  ci95?: number;
  verdict: Verdict;
  /** set when `measured` is not from the results on disk but from the paper's record of earlier runs: the points finished then, e.g. "15/30" */
  recorded?: string;
  /** the cause shown with a deviating or inconclusive verdict (the claim's own, else the file's `causes:`) */
  cause?: Cause;
  /** each replica's value and name (n >= 2) */
  values?: number[];
  replicas?: string[];
  /** where the measurement comes from: build, model, spec, points used / needed, CPU seconds */
  provenance?: Partial<Provenance>;
  /** for a stale or partial row: why, and the verdict its value would give */
  why?: string;
  basis?: Verdict;
  /** replicas of a deterministic experiment spread by more than the claim's tolerance */
  spreadExceedsTolerance?: boolean;
}

/** Verdict of a claim from a value (n = 1) or a mean with its 95 % interval (n >= 2). */
export function verdictOf(c: PublishedClaim, measured: number | null, bound?: 'lower', ci95?: number): Verdict {
  if (measured === null || !Number.isFinite(measured)) return 'not run';
  const d = measured - c.published;
  if (bound === 'lower') {
    if (c.compare === 'atLeast') return d >= -c.tolerance ? 'holds' : 'undecided';
    return d > c.tolerance ? 'deviates' : 'undecided';
  }
  const h = ci95 !== undefined && Number.isFinite(ci95) ? ci95 : 0;
  const lo = d - h;
  const hi = d + h;
  // the band of d that satisfies the claim
  const [bLo, bHi] = c.compare === 'atLeast' ? [-c.tolerance, Infinity] : c.compare === 'atMost' ? [-Infinity, c.tolerance] : [-c.tolerance, c.tolerance];
  const band: Verdict = lo >= bLo && hi <= bHi ? 'holds' : hi < bLo || lo > bHi ? 'deviates' : h > 0 ? 'inconclusive' : 'deviates';
  if (c.direction === undefined || band === 'deviates') return band;
  // the paper's sign: the interval of the measured value must lie wholly past zero on that side
  const [vLo, vHi] = c.direction === 'positive' ? [measured - h, measured + h] : [-(measured + h), -(measured - h)];
  if (vHi <= 0) return 'deviates';
  if (vLo <= 0) return h > 0 ? 'inconclusive' : 'deviates';
  return band;
}

/** The comparison a claim makes, as `claims` prints it: `within ±10 %`, `>= 0 %`, `<= 25 pkt`. */
export function comparisonText(c: Pick<PublishedClaim, 'published' | 'tolerance' | 'compare' | 'unit'>): string {
  const u = c.unit === undefined || c.unit === 'x' ? (c.unit ?? '') : ` ${c.unit}`;
  const n = (x: number): string => String(Math.round(x * 1e9) / 1e9);
  if (c.compare === 'atLeast') return `>= ${n(c.published - c.tolerance)}${u}`;
  if (c.compare === 'atMost') return `<= ${n(c.published + c.tolerance)}${u}`;
  return `within ±${n(c.tolerance)}${u}`;
}

/** A claim's cause: its own, else the first `causes:` entry naming it. */
export function causeOf(data: PublishedData, c: PublishedClaim): Cause | undefined {
  if (c.cause !== undefined) return c.cause;
  for (const g of data.causes ?? []) {
    if (g.claims.some((id) => (id.endsWith('*') ? c.id.startsWith(id.slice(0, -1)) : id === c.id))) {
      return { category: g.category, parameter: g.parameter, explanation: g.explanation };
    }
  }
  return undefined;
}

/** Mean ± 95 % CI of per-replica values of one claim (a bound on any replica makes the result a bound). */
export function aggregateSeeds(values: readonly { value: number; bound?: 'lower'; replica?: string }[]): Measurement | undefined {
  const xs = values.filter((v) => Number.isFinite(v.value));
  if (xs.length === 0) return undefined;
  const s = meanCi95(xs.map((v) => v.value));
  const bound = xs.some((v) => v.bound === 'lower') ? ('lower' as const) : undefined;
  const each = s.n >= 2 ? { values: xs.map((v) => v.value), replicas: xs.map((v) => v.replica ?? '') } : {};
  return { value: s.mean, n: s.n, ...(s.n >= 2 ? { ci95: s.half } : {}), ...(bound ? { bound } : {}), ...each };
}

/** A row with its measurement, verdict and (when deviating or inconclusive) cause. */
export function rowOf(data: PublishedData, c: PublishedClaim, m: Measurement | undefined, recorded?: string): ClaimRow {
  const value = m === undefined ? null : m.value;
  const verdict = verdictOf(c, value, m?.bound, m?.ci95);
  const cause = verdict === 'deviates' || verdict === 'inconclusive' || verdict === 'undecided' ? causeOf(data, c) : undefined;
  const spread = m?.values !== undefined && m.values.length >= 2 ? Math.max(...m.values) - Math.min(...m.values) : 0;
  return {
    ...c,
    measured: value,
    ...(m?.bound !== undefined ? { bound: m.bound } : {}),
    ...(m !== undefined ? { n: m.n } : {}),
    ...(m?.ci95 !== undefined ? { ci95: m.ci95 } : {}),
    ...(m?.values !== undefined ? { values: m.values, replicas: m.replicas ?? [] } : {}),
    ...(spread > c.tolerance && c.tolerance > 0 ? { spreadExceedsTolerance: true } : {}),
    verdict,
    ...(recorded !== undefined ? { recorded } : {}),
    ...(cause !== undefined ? { cause } : {}),
  };
}

/** One replica's claims: the replica's name (`seed=2 perturb=1`, '' for the spec's own) and its claim list. */
export type ReplicaClaims = readonly MeasuredClaim[] | { replica: string; claims: readonly MeasuredClaim[] };

/**
 * Joins published claims with measured ones (by experiment, then claim id). `perReplica`
 * holds, for experiments run with replicas (`seeds:`, `perturbations:`), one claim list per
 * replica analysed; their claims are the mean ± CI over the replicas (`measured` is then not
 * consulted).
 */
export function compareClaims(
  data: PublishedData,
  measured: ReadonlyMap<string, readonly MeasuredClaim[]>,
  perReplica: ReadonlyMap<string, readonly ReplicaClaims[]> = new Map(),
): ClaimRow[] {
  return data.claims.map((c) => {
    const lists = (perReplica.get(c.experiment) ?? [measured.get(c.experiment) ?? []]).map((l, i) => ('claims' in l ? l : { replica: `replica ${i + 1}`, claims: l }));
    const found = lists
      .map((l) => {
        const m = l.claims.find((x) => x.id === c.id);
        return m === undefined ? undefined : { ...m, replica: l.replica };
      })
      .filter((x): x is MeasuredClaim & { replica: string } => x !== undefined);
    return rowOf(data, c, aggregateSeeds(found));
  });
}

/** Rows in display order: each claim followed by its sensitivity rows (`variantOf`). */
export function displayOrder(rows: readonly ClaimRow[]): ClaimRow[] {
  const out: ClaimRow[] = [];
  for (const r of rows) {
    if (r.variantOf !== undefined && rows.some((x) => x.id === r.variantOf)) continue;
    out.push(r, ...rows.filter((x) => x.variantOf === r.id));
  }
  return out;
}

/** Claims the data file names for experiments that do not exist (a typo or a missing spec). */
export function unknownExperiments(data: PublishedData, experiments: readonly string[]): string[] {
  return [...new Set(data.claims.map((c) => c.experiment))].filter((e) => !experiments.includes(e));
}

