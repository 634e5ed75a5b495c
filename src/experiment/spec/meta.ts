/**
 * The experiment keys around a run spec (`sweep:`, `figure:`, `quick:`) and the
 * field paths they use.
 *
 * An experiment file is a run spec plus optional keys:
 * - `sweep:` varies fields of the spec (see sweep.ts);
 * - `figure:` names the figure analysis run on the results (registered through
 *   analysis.ts; the papers' analyses are in experiments/<paper>/);
 * - `quick:` a partial spec merged over the file when `--quick` is given, for
 *   reduced sizes. Its keys are spec keys (deep-merged; lists are replaced as a
 *   whole) or field paths such as `workload[0].duration` (set in place).
 *
 * Field paths are written as in error messages: `cc.params.eta`,
 * `workload[0].load`, `network.switch.bufferBytes`.
 */
import { SpecError, formatPath, type PathSegment, zodToSpecError } from '../../engine/errors.js';
import { EXPERIMENT_KEYS, experimentMetaSchema, specErrorMap, type ExperimentMeta } from './spec.js';

/** A field path: `workload[0].load` → ['workload', 0, 'load']; undefined when malformed. */
export function parseFieldPath(path: string): PathSegment[] | undefined {
  const out: PathSegment[] = [];
  const re = /^(?:\.?([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\])/;
  let rest = path.trim();
  if (rest === '' || rest.startsWith('.') || rest.startsWith('[')) return undefined;
  while (rest.length > 0) {
    const m = re.exec(rest);
    if (m === null) return undefined;
    out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
    rest = rest.slice(m[0].length);
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * A copy of `raw` with the value at `path` replaced (containers on the way are
 * copied, missing mapping keys created). Returns an error text when the path
 * cannot exist: a list index out of range, or a step into a plain value. A
 * `cc` written as a name becomes `{ name }` when a path goes into it.
 */
export function setFieldPath(raw: unknown, path: readonly PathSegment[], value: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (path.length === 0) return { ok: true, value };
  const [head, ...tail] = path as [PathSegment, ...PathSegment[]];
  let cur: unknown = raw;
  if (typeof head === 'number') {
    if (!Array.isArray(cur)) return { ok: false, error: `${formatPath([head])}: not a list` };
    if (head >= cur.length) return { ok: false, error: `index ${head} out of range (the list has ${cur.length} entr${cur.length === 1 ? 'y' : 'ies'})` };
    const inner = setFieldPath(cur[head], tail, value);
    if (!inner.ok) return inner;
    const copy = [...cur];
    copy[head] = inner.value;
    return { ok: true, value: copy };
  }
  if (cur === undefined) cur = {};
  if (!isRecord(cur)) return { ok: false, error: `cannot set "${head}" inside ${Array.isArray(cur) ? 'a list' : `the value ${JSON.stringify(cur)}`}` };
  let child = cur[head];
  // `cc: hpcc` with a path into it (cc.params.x): the { name, params } form
  if (head === 'cc' && typeof child === 'string' && tail.length > 0) child = { name: child };
  const inner = setFieldPath(child, tail, value);
  if (!inner.ok) return inner;
  return { ok: true, value: { ...cur, [head]: inner.value } };
}

/** Deep merge for `quick`: mappings merge key by key, anything else (lists too) replaces. */
export function mergeRaw(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in out ? mergeRaw(out[k], v) : v;
  return out;
}

export interface SplitExperiment {
  /** the run spec (raw data) without the experiment keys, `quick` applied if asked */
  base: Record<string, unknown>;
  meta: ExperimentMeta;
  /** the whole file after `quick` was applied (raw data), for messages */
  raw: Record<string, unknown>;
}

/**
 * Separates the experiment keys from the run spec, validates them, and applies
 * `quick` when `quick` is true. Throws SpecError naming the field.
 */
export function splitExperiment(raw: unknown, file: string | undefined, quick: boolean): SplitExperiment {
  if (!isRecord(raw)) {
    // not a mapping: let the spec schema report it
    return { base: raw as Record<string, unknown>, meta: {}, raw: raw as Record<string, unknown> };
  }
  const r0 = experimentMetaSchema.safeParse(pickMeta(raw), { error: specErrorMap });
  if (!r0.success) throw zodToSpecError(r0.error, raw, file);
  let whole: Record<string, unknown> = raw;
  if (quick && r0.data.quick !== undefined) {
    for (const [key, value] of Object.entries(r0.data.quick)) {
      if (/[.[]/.test(key)) {
        const path = parseFieldPath(key);
        const set = path === undefined ? undefined : setFieldPath(whole, path, value);
        if (path === undefined || set === undefined || !set.ok) {
          const why = path === undefined ? 'not a field path such as workload[0].duration' : set !== undefined && !set.ok ? set.error : '';
          throw new SpecError([{ path: `quick.${key}`, value, message: why }], file);
        }
        whole = set.value as Record<string, unknown>;
      } else if ((EXPERIMENT_KEYS as readonly string[]).includes(key) && key !== 'sweep') {
        throw new SpecError([{ path: `quick.${key}`, value, message: `\`${key}\` cannot be changed by quick` }], file);
      } else {
        whole = mergeRaw(whole, { [key]: value }) as Record<string, unknown>;
      }
    }
  }
  const r = quick ? experimentMetaSchema.safeParse(pickMeta(whole), { error: specErrorMap }) : r0;
  if (!r.success) throw zodToSpecError(r.error, whole, file);
  // a quick run is one replica per point (the spec's own seed and perturb): replicas are for the
  // intervals of full-size verdicts, and quick verdicts are indicative only (docs/guide.md)
  if (quick) {
    delete r.data.seeds;
    delete r.data.perturbations;
  }
  const base: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(whole)) if (!(EXPERIMENT_KEYS as readonly string[]).includes(k)) base[k] = v;
  return { base, meta: r.data, raw: whole };
}

function pickMeta(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of EXPERIMENT_KEYS) if (k in raw) out[k] = raw[k];
  return out;
}
