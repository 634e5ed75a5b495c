/**
 * Reading result folders for reports: a run folder (manifest.json) or a sweep
 * folder (sweep.json with finished points under points/). Reports read files
 * only, never live simulator objects, so they work on any finished result.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { UsageError } from '../experiment/errors.js';
import { pointState } from '../experiment/sweep-point.js';
import type { RunSummary } from '../metrics/summary.js';
import type { PointResult } from './figures/types.js';

export type TableRow = Record<string, string | number>;

/** Numbers as numbers (ccsim writes nan / inf / -inf for non-finite ones); quoted cells stay text. */
function castCell(value: string, ctx: { quoting: boolean; header: boolean }): string | number {
  if (ctx.header || ctx.quoting) return value;
  if (value === 'nan') return NaN;
  if (value === 'inf') return Infinity;
  if (value === '-inf') return -Infinity;
  if (value !== '' && /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value)) return Number(value);
  return value;
}

/** A result table (`<base>.csv` or `<base>.jsonl`) as rows of named cells; undefined when absent. */
export function readTable(dir: string, base: string): TableRow[] | undefined {
  const csv = join(dir, `${base}.csv`);
  if (existsSync(csv)) return parseCsv(readFileSync(csv, 'utf8'), { columns: true, cast: castCell, skip_empty_lines: true }) as TableRow[];
  const jsonl = join(dir, `${base}.jsonl`);
  if (existsSync(jsonl)) {
    const out: TableRow[] = [];
    for (const line of readFileSync(jsonl, 'utf8').split('\n')) if (line.trim() !== '') out.push(JSON.parse(line) as TableRow);
    return out;
  }
  return undefined;
}

export interface RunData {
  dir: string;
  /** e.g. "cc=hpcc load=0.8", or the CC name of a single run */
  label: string;
  cc: string;
  vars: Record<string, unknown>;
  manifest: Record<string, unknown>;
  summary: RunSummary;
}

export interface ResultSet {
  kind: 'run' | 'sweep';
  dir: string;
  name: string;
  runs: RunData[];
  /** sweep points not finished (failed or pending), by label */
  missing: { label: string; status: string; error?: string }[];
  /** the figure analysis the spec names, if any */
  figure: string | undefined;
  /** varied fields of a sweep */
  fields: string[];
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

function loadRun(dir: string, label: string | undefined, vars: Record<string, unknown>): RunData {
  const manifest = readJson(join(dir, 'manifest.json'));
  const summary = readJson(join(dir, 'summary.json')) as unknown as RunSummary;
  const resolved = manifest['resolved'] as { cc?: { name?: string } } | undefined;
  const cc = resolved?.cc?.name ?? 'unknown';
  return { dir, label: label ?? cc, cc, vars, manifest, summary };
}

/** Loads a run or sweep folder; a UsageError when it holds no results. */
export function loadResults(dir: string): ResultSet {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`not a result folder: ${dir} does not exist or is not a directory`);
  if (existsSync(join(dir, 'sweep.json'))) {
    const index = readJson(join(dir, 'sweep.json')) as {
      name?: string;
      figure?: string | null;
      fields?: string[];
      points?: { id: string; dir: string; label: string; vars: Record<string, unknown>; hash: string }[];
    };
    const runs: RunData[] = [];
    const missing: ResultSet['missing'] = [];
    for (const p of index.points ?? []) {
      const pdir = join(dir, p.dir);
      const done = pointState(dir, p.id, p.hash).status === 'done';
      if (done) runs.push(loadRun(pdir, p.label, p.vars));
      else {
        const failed = join(dir, 'points', `${p.id}.failed.json`);
        if (existsSync(failed)) missing.push({ label: p.label, status: 'failed', error: String(readJson(failed)['error'] ?? '') });
        else missing.push({ label: p.label, status: 'pending' });
      }
    }
    if (runs.length === 0) throw new UsageError(`no finished points in sweep folder ${dir} (run \`ccsim sweep\` first)`);
    return { kind: 'sweep', dir, name: index.name ?? 'sweep', runs, missing, figure: index.figure ?? undefined, fields: index.fields ?? [] };
  }
  if (existsSync(join(dir, 'manifest.json')) && existsSync(join(dir, 'summary.json'))) {
    const run = loadRun(dir, undefined, {});
    return { kind: 'run', dir, name: String(run.manifest['name'] ?? 'run'), runs: [run], missing: [], figure: undefined, fields: [] };
  }
  throw new UsageError(`no results in ${dir}: expected a run folder (manifest.json, summary.json) or a sweep folder (sweep.json)`);
}

/** The finished points as the figure analyses take them. */
export function pointResults(set: ResultSet): PointResult[] {
  return set.runs.map((r) => ({ dir: r.dir, vars: r.vars, label: r.label }));
}
