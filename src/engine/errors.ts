/**
 * User-facing errors of the experiment layer.
 *
 * A `SpecError` carries one issue per problem found in a spec, each naming the
 * field path (`workload[0].load`), the offending value as written, and what is
 * wrong. Zod issues and errors thrown by builders and loaders during
 * resolution are both turned into this form, so the CLI can print every
 * problem at once, one line each, without a stack trace.
 */
import type { z } from 'zod';

export type PathSegment = string | number;

export interface SpecIssue {
  /** field path such as `workload[0].load`; '' for the spec as a whole */
  path: string;
  /** the value found at `path` in the raw input (undefined = missing) */
  value: unknown;
  message: string;
  /** false: the value is irrelevant to the message (e.g. a YAML syntax error) */
  showValue?: boolean;
}

/** An invalid experiment spec: one or more issues, each naming its field. */
export class SpecError extends Error {
  readonly issues: SpecIssue[];
  /** spec file the issues refer to, when known */
  readonly file: string | undefined;

  constructor(issues: SpecIssue[], file?: string) {
    super(formatIssues(issues));
    this.name = 'SpecError';
    this.issues = issues;
    this.file = file;
  }

  /** One line per issue. */
  lines(): string[] {
    return this.issues.map(formatIssue);
  }
}

/**
 * An expected failure that is not a spec problem (e.g. the spec file does not
 * exist, the output directory cannot be written). Printed without a stack.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `['workload', 0, 'load']` → `workload[0].load`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const s = String(seg);
      out += out === '' ? s : `.${s}`;
    }
  }
  return out;
}

/** Looks up the value at `path` in a raw (parsed YAML/JSON) input; undefined when absent. */
export function valueAtPath(raw: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = raw;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (Array.isArray(cur)) {
      if (typeof seg !== 'number') return undefined;
      cur = cur[seg];
    } else {
      if (typeof seg === 'symbol') return undefined;
      const rec = cur as Record<string, unknown>;
      const key = String(seg);
      if (!Object.prototype.hasOwnProperty.call(rec, key)) return undefined;
      cur = rec[key];
    }
  }
  return cur;
}

/** Short, single-line rendering of a value for error messages. */
export function formatValue(v: unknown): string {
  if (v === undefined) return '(missing)';
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || typeof v === 'bigint') return String(v);
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

export function formatIssue(i: SpecIssue): string {
  const path = i.path === '' ? '(spec)' : i.path;
  if (i.showValue === false) return `${path}: ${i.message}`;
  return `${path}: ${formatValue(i.value)} — ${i.message}`;
}

export function formatIssues(issues: readonly SpecIssue[]): string {
  return issues.map(formatIssue).join('\n');
}

/** Fields of a raw zod issue that the error map reads (zod v4 `$ZodRawIssue` subset). */
interface RawIssueLike {
  code?: string;
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  values?: readonly unknown[];
  options?: readonly unknown[];
  keys?: readonly string[];
  format?: string;
  divisor?: number;
  message?: string;
}

function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  return typeof v;
}

function describeExpected(expected: string | undefined): string {
  switch (expected) {
    case 'int':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'a mapping';
    case 'array':
    case 'tuple':
      return 'a list';
    case undefined:
      return 'a value';
    default:
      return expected;
  }
}

function showOption(v: unknown): string {
  return typeof v === 'string' ? v : String(v);
}

/**
 * The wording used for zod issues in specs (passed as the per-parse `error`
 * map, so messages written on schemas themselves take precedence).
 */
export function specIssueMessage(iss: RawIssueLike): string | undefined {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return `required (${describeExpected(iss.expected)})`;
      if (iss.expected === 'int') return 'must be an integer';
      if (typeof iss.input === 'number' && !Number.isFinite(iss.input)) return `must be a finite number, got ${String(iss.input)}`;
      return `expected ${describeExpected(iss.expected)}, got ${describeType(iss.input)}`;
    case 'too_small': {
      const m = String(iss.minimum);
      if (iss.origin === 'array' || iss.origin === 'set') return `must have at least ${m} item${m === '1' ? '' : 's'}`;
      if (iss.origin === 'string') return m === '1' ? 'must not be empty' : `must be at least ${m} characters`;
      return iss.inclusive === false ? `must be > ${m}` : `must be >= ${m}`;
    }
    case 'too_big': {
      const m = String(iss.maximum);
      if (iss.origin === 'array' || iss.origin === 'set') return `must have at most ${m} item${m === '1' ? '' : 's'}`;
      if (iss.origin === 'string') return `must be at most ${m} characters`;
      return iss.inclusive === false ? `must be < ${m}` : `must be <= ${m}`;
    }
    case 'invalid_value':
      return `must be one of ${(iss.values ?? []).map(showOption).join(', ')}`;
    case 'invalid_union':
      if (iss.options !== undefined && iss.options.length > 0) {
        return `must be one of ${iss.options.map(showOption).join(', ')}`;
      }
      return undefined;
    case 'not_multiple_of':
      return `must be a multiple of ${String(iss.divisor)}`;
    case 'unrecognized_keys':
      return `unknown key${(iss.keys ?? []).length === 1 ? '' : 's'}`;
    default:
      return undefined;
  }
}

/** Converts zod issues to spec issues, looking values up in `raw`. */
export function zodIssuesToSpecIssues(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  prefix: readonly PathSegment[] = [],
): SpecIssue[] {
  const out: SpecIssue[] = [];
  for (const iss of issues) {
    const path: PropertyKey[] = [...prefix, ...iss.path];
    if (iss.code === 'unrecognized_keys') {
      for (const key of iss.keys) {
        const p = [...path, key];
        out.push({ path: formatPath(p), value: valueAtPath(raw, p), message: 'unknown key' });
      }
      continue;
    }
    if (iss.code === 'invalid_union' && iss.errors.length > 0) {
      // a value that matched none of the alternatives: if one alternative got
      // inside the value (e.g. a list with one bad item), report its issues;
      // otherwise the union's own message ("expected a rate: ...").
      const nested = closestUnionBranch(iss.errors);
      if (nested !== undefined) {
        out.push(...zodIssuesToSpecIssues(nested, raw, path.filter(isSegment)));
        continue;
      }
    }
    out.push({ path: formatPath(path), value: valueAtPath(raw, path), message: iss.message });
  }
  return out;
}

function isSegment(p: PropertyKey): p is PathSegment {
  return typeof p === 'string' || typeof p === 'number';
}

/** How far into the value an issue points (an unknown key counts as inside the object). */
function issueDepth(i: z.core.$ZodIssue): number {
  return i.path.length + (i.code === 'unrecognized_keys' ? 1 : 0);
}

/**
 * The alternative of a failed union that matched the value best: the one whose
 * issues point deepest into the value, then the one with the fewest issues.
 * Undefined when every alternative failed at the value itself.
 */
function closestUnionBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] | undefined {
  let best: readonly z.core.$ZodIssue[] | undefined;
  let bestDepth = 0;
  for (const b of branches) {
    if (b.length === 0) continue;
    const depth = Math.min(...b.map(issueDepth));
    if (depth === 0) continue;
    if (best === undefined || depth > bestDepth || (depth === bestDepth && b.length < best.length)) {
      best = b;
      bestDepth = depth;
    }
  }
  return best;
}

/** A SpecError from a zod error, with values looked up in the raw input. */
export function zodToSpecError(err: z.ZodError, raw: unknown, file?: string): SpecError {
  return new SpecError(zodIssuesToSpecIssues(err.issues, raw), file);
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
