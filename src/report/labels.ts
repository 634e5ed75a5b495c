/**
 * Legend names of a report's runs, built from the values a sweep varies: only
 * the fields whose values differ between the runs shown, each as
 * `key=value`, a CC with parameters spelled as everywhere else
 * (`cc=dcqcn[variant=paper]`, src/experiment/run/sweep.ts `ccText`), and any other object value as its compact JSON when
 * short, else as `#n` (its n-th distinct value, listed in a note).
 */
import type { RunData } from '../experiment/results/results.js';
import { ccText } from '../experiment/run/sweep.js';

/** The short key of a varied field path (`workload[0].load` -> `load`), the full path when two would clash. */
export function shortKeys(paths: readonly string[]): Map<string, string> {
  const last = (p: string): string => {
    const names = p.split(/[.[\]]+/).filter((s) => s !== '' && !/^\d+$/.test(s));
    return names[names.length - 1] ?? p;
  };
  const short = paths.map(last);
  return new Map(paths.map((p, i) => [p, short.filter((s) => s === short[i]).length > 1 ? p : short[i]!]));
}

/** Scalars as written; objects as `{k=v,...}`, arrays as `[a,b]`. */
function compact(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `[${v.map(compact).join(',')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${compact(x)}`).join(',')}}`;
  return String(v);
}

const MAX_INLINE = 40;

export interface Legends {
  /** legend name per run, in run order */
  names: string[];
  /** `#n` values explained, e.g. `ports #1 = [...]` */
  notes: string[];
}

/**
 * Legend names for the runs: the varied fields that differ between them, all
 * but `exclude` (the field a chart puts on its x axis). A single run is named
 * by its CC.
 */
export function legendNames(runs: readonly RunData[], fields: readonly string[], exclude?: string): Legends {
  const keys = shortKeys(fields);
  const notes: string[] = [];
  const texts = new Map<string, string[]>();
  const used = fields.filter((f) => f !== exclude);
  for (const f of used) {
    const distinct: string[] = [];
    const raw = runs.map((r) => r.vars[f]);
    const full = raw.map((v) => ccText(v) ?? (typeof v === 'object' && v !== null ? compact(v) : String(v)));
    for (const t of full) if (!distinct.includes(t)) distinct.push(t);
    if (distinct.length < 2) continue;
    const long = distinct.some((t) => t.length > MAX_INLINE && !raw.some((v) => ccText(v) === t));
    if (long) {
      distinct.forEach((t, i) => notes.push(`${keys.get(f)} #${i + 1} = ${t}`));
      texts.set(f, full.map((t) => `#${distinct.indexOf(t) + 1}`));
    } else texts.set(f, full);
  }
  const names = runs.map((r, i) => {
    const parts = [...texts.entries()].map(([f, t]) => `${keys.get(f)}=${t[i]}`);
    return parts.length > 0 ? parts.join(' ') : runs.length === 1 || exclude !== undefined ? r.cc : r.label;
  });
  return { names, notes };
}
