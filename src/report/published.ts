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
 * - undecided: only a lower bound was measured and it does not decide the claim,
 * - not run:  no measurement (experiment not run, not finished, or its analysis gave no value).
 * A lower-bound measurement (MeasuredClaim.bound, "had not happened by the run's end")
 * deviates when the bound alone is already above the band, holds for an at-least claim
 * it satisfies, and is otherwise undecided (a longer run would tell).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { UsageError } from '../experiment/errors.js';
import { readSpecFile } from '../experiment/resolve.js';
import { specErrorMap } from '../experiment/spec.js';
import { zodToSpecError } from '../experiment/errors.js';
import type { MeasuredClaim } from '../experiment/analysis.js';

/** Papers ccsim reproduces (experiments/<paper>/, data/published/<paper>.yaml). */
export const PAPERS = ['oscar', 'powertcp', 'acc', 'ccc', 'sqcc'] as const;
export type Paper = (typeof PAPERS)[number];

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
  })
  .strict();

export const publishedSchema = z
  .object({
    paper: z.enum(PAPERS as unknown as [string, ...string[]]),
    title: z.string().min(1),
    claims: z.array(claimSchema),
  })
  .strict()
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.claims.forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: 'custom', path: ['claims', i, 'id'], message: 'duplicate claim id' });
      seen.add(c.id);
    });
  });

export type PublishedClaim = z.output<typeof claimSchema>;
export type PublishedData = z.output<typeof publishedSchema>;

/** The installed package's root (holds package.json, data/, experiments/). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      try {
        if ((JSON.parse(readFileSync(p, 'utf8')) as { name?: unknown }).name === 'ccsim') return dir;
      } catch {
        // keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return process.cwd();
}

export function checkPaper(paper: string): Paper {
  if (!(PAPERS as readonly string[]).includes(paper)) throw new UsageError(`unknown paper "${paper}" (known: ${PAPERS.join(', ')})`);
  return paper as Paper;
}

/**
 * A claim's measurement as last written to a paper's README table, kept in the
 * committed record data/measured/<paper>.json. Full-size points take
 * CPU-hours and their result folders live outside the repository, so a table
 * regenerated on a machine that holds only some of them keeps the others'
 * last measurement, marked as recorded, instead of reverting them to "not run".
 */
const recordedClaimSchema = z
  .object({
    value: z.number().finite(),
    bound: z.literal('lower').optional(),
    /** the experiment's finished / total points when the value was measured, e.g. "15/30" */
    points: z.string().min(1),
  })
  .strict();

export const claimRecordSchema = z
  .object({
    paper: z.enum(PAPERS as unknown as [string, ...string[]]),
    /** keyed by `<experiment>/<claim id>` */
    claims: z.record(z.string(), recordedClaimSchema),
  })
  .strict();

export type RecordedClaim = z.output<typeof recordedClaimSchema>;
export type ClaimRecord = z.output<typeof claimRecordSchema>;

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

export type Verdict = 'holds' | 'deviates' | 'undecided' | 'not run';

export interface ClaimRow extends PublishedClaim {
  measured: number | null;
  /** 'lower' when measured is only a lower bound (the true value is above it) */
  bound?: 'lower';
  verdict: Verdict;
  /** set when `measured` is not from the results on disk but from the paper's record of earlier runs: the points finished then, e.g. "15/30" */
  recorded?: string;
}

export function verdictOf(c: PublishedClaim, measured: number | null, bound?: 'lower'): Verdict {
  if (measured === null || !Number.isFinite(measured)) return 'not run';
  const d = measured - c.published;
  if (bound === 'lower') {
    if (c.compare === 'atLeast') return d >= -c.tolerance ? 'holds' : 'undecided';
    return d > c.tolerance ? 'deviates' : 'undecided';
  }
  const ok = c.compare === 'atLeast' ? d >= -c.tolerance : c.compare === 'atMost' ? d <= c.tolerance : Math.abs(d) <= c.tolerance;
  return ok ? 'holds' : 'deviates';
}

/** Joins published claims with measured ones (by experiment, then claim id). */
export function compareClaims(data: PublishedData, measured: ReadonlyMap<string, readonly MeasuredClaim[]>): ClaimRow[] {
  return data.claims.map((c) => {
    const m = measured.get(c.experiment)?.find((x) => x.id === c.id);
    const value = m === undefined ? null : m.value;
    const bound = m?.bound;
    return { ...c, measured: value, ...(bound !== undefined ? { bound } : {}), verdict: verdictOf(c, value, bound) };
  });
}

/** Claims the data file names for experiments that do not exist (a typo or a missing spec). */
export function unknownExperiments(data: PublishedData, experiments: readonly string[]): string[] {
  return [...new Set(data.claims.map((c) => c.experiment))].filter((e) => !experiments.includes(e));
}

