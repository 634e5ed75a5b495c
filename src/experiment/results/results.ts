/**
 * The one reader of result folders (docs/architecture.md rule 8: analyses and
 * reports read files, never live simulator objects): a run folder's
 * manifest.json (`readRunManifest`, typed as plain records in ./manifest.ts, which the writer's
 * type extends: experiment/run/output.ts),
 * summary.json, its tables by column name (`readTable` as rows of named cells,
 * `readColumns` column-wise for large tables, `readFctRecords` typed), and a
 * run or sweep folder as a whole (`loadResults`: sweep.json with finished
 * points under points/). Figure analyses (./analysis.ts) and reports use it,
 * so they work on any finished result.
 */
import { existsSync, statSync } from 'node:fs';
import { parseJsonBounded, readTextFileCapped } from '../../engine/io.js';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { UsageError } from '../../engine/errors.js';
import { pointState } from './points.js';
import type { RunSummary } from '../../metrics/summary.js';
import type { PointResult } from './analysis.js';
import type { RunManifest } from './manifest.js';

export type { RunManifest };

export type TableRow = Record<string, string | number>;

/**
 * The largest result table read (an FCT table of several million flows): the
 * same input rule as specs (engine/io.ts: regular files only, bounded), with
 * a bound that fits a JavaScript string.
 */
export const RESULT_TABLE_MAX_BYTES = 480 * 1024 * 1024;
/** The largest JSON record of a result folder read (manifest.json, summary.json, sweep.json, figure.json). */
export const RESULT_JSON_MAX_BYTES = 64 * 1024 * 1024;

/** A result file's text under the input rule; a UsageError naming the file and the limit otherwise. */
export function readResultText(path: string, maxBytes: number = RESULT_TABLE_MAX_BYTES): string {
  try {
    return readTextFileCapped(path, 'result file', maxBytes);
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message.replace(' (limits.fileBytes)', '') : String(e));
  }
}

/** ccsim's text for a non-finite number (nan / inf / -inf) as that number; other text as is. */
function nonFinite(value: string): string | number {
  if (value === 'nan') return NaN;
  if (value === 'inf') return Infinity;
  if (value === '-inf') return -Infinity;
  return value;
}

/** CSV cell text: numbers as numbers (also nan / inf / -inf); other cells stay text. */
function castText(value: string): string | number {
  const v = nonFinite(value);
  if (typeof v === 'number') return v;
  if (value !== '' && /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value)) return Number(value);
  return value;
}

/** castText for csv-parse: the header and quoted cells stay text. */
function castCell(value: string, ctx: { quoting: boolean; header: boolean }): string | number {
  return ctx.header || ctx.quoting ? value : castText(value);
}

/** A result table as its column names and rows of cell text, in file order. */
export interface RawTable {
  header: string[];
  rows: string[][];
}

/**
 * Lines of a CSV text without a quote character: with no quotes there is no
 * escaping, so splitting on line ends and commas parses it exactly, and an
 * order of magnitude faster than csv-parse (which matters for FCT tables of
 * 10^5 - 10^6 flows). A row whose cell count differs from the header's is an
 * error naming the file and line, as csv-parse would raise.
 */
function splitPlainCsv(text: string, file: string): RawTable {
  const lines = text.split('\n');
  const header = (lines[0] ?? '').replace(/\r$/, '').split(',');
  const rows: string[][] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line === '') continue;
    const cells = line.split(',');
    if (cells.length !== header.length) throw new UsageError(`${file} line ${i + 1}: ${cells.length} cells, the header has ${header.length}`);
    rows.push(cells);
  }
  return { header, rows };
}

function readJsonl(path: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of readResultText(path).split('\n')) if (line.trim() !== '') out.push(parseJsonBounded(line, 'result file', path) as Record<string, unknown>);
  return out;
}

/**
 * A result table (`<base>.csv` or `<base>.jsonl`) as rows of named cells;
 * undefined when absent. CSV cells that read as numbers are numbers, a
 * quoted cell stays text; JSONL values keep their JSON type. In both, the
 * text nan / inf / -inf (how ccsim writes non-finite numbers) is that number.
 */
export function readTable(dir: string, base: string): TableRow[] | undefined {
  const csv = join(dir, `${base}.csv`);
  if (existsSync(csv)) {
    const text = readResultText(csv);
    if (text.includes('"')) return parseCsv(text, { columns: true, cast: castCell, skip_empty_lines: true }) as TableRow[];
    const { header, rows } = splitPlainCsv(text, csv);
    return rows.map((cells) => {
      const r: TableRow = {};
      for (let j = 0; j < header.length; j++) r[header[j]!] = castText(cells[j]!);
      return r;
    });
  }
  const jsonl = join(dir, `${base}.jsonl`);
  if (existsSync(jsonl)) {
    return readJsonl(jsonl).map((o) => {
      const r: TableRow = {};
      for (const [k, v] of Object.entries(o)) r[k] = typeof v === 'string' ? nonFinite(v) : (v as number);
      return r;
    });
  }
  return undefined;
}

/**
 * A result table as column names and cell text (no casting); undefined when
 * absent. JSONL rows give their keys in the first row's order.
 */
function readRawTable(dir: string, base: string): RawTable | undefined {
  const csv = join(dir, `${base}.csv`);
  if (existsSync(csv)) {
    const text = readResultText(csv);
    if (!text.includes('"')) return splitPlainCsv(text, csv);
    const [header = [], ...rows] = parseCsv(text, { skip_empty_lines: true }) as string[][];
    return { header, rows };
  }
  const jsonl = join(dir, `${base}.jsonl`);
  if (existsSync(jsonl)) {
    const objs = readJsonl(jsonl);
    const header = Object.keys(objs[0] ?? {});
    return { header, rows: objs.map((o) => header.map((h) => String(o[h] ?? ''))) };
  }
  return undefined;
}

/** A result table read column by column, by column name (for tables of 10^5 - 10^6 rows). */
export interface ResultColumns {
  /** column names in file order; empty when the table is absent */
  readonly columns: readonly string[];
  /** rows */
  readonly length: number;
  has(column: string): boolean;
  /** the cell text of a column; a UsageError naming the file when a present table lacks the column */
  text(column: string): string[];
  /** the column's cells as numbers (`Number` of the cell text) */
  numbers(column: string): number[];
}

/**
 * A result table (`<base>.csv` or `<base>.jsonl`) column-wise: an absent
 * table has no rows, so every column reads as empty.
 */
export function readColumns(dir: string, base: string): ResultColumns {
  const raw = readRawTable(dir, base);
  const header = raw?.header ?? [];
  const rows = raw?.rows ?? [];
  const index = (column: string): number => {
    const i = header.indexOf(column);
    if (i < 0 && raw !== undefined) throw new UsageError(`${join(dir, base)} has no column ${column} (columns: ${header.join(', ')})`);
    return i;
  };
  const text = (column: string): string[] => {
    if (raw === undefined) return [];
    const i = index(column);
    return rows.map((r) => r[i]!);
  };
  return {
    columns: header,
    length: rows.length,
    has: (column) => header.includes(column),
    text,
    numbers: (column) => text(column).map(Number),
  };
}

/** One row of a result folder's fct table (FCT_COLUMNS, src/experiment/run/output.ts), typed. */
export interface FctRecord {
  id: number;
  bytes: number;
  startPs: number;
  finishPs: number;
  fctPs: number;
  slowdown: number;
  tag: string;
}

/** The finished flows of a result folder (fct.csv / fct.jsonl); empty when it has none. */
export function readFctRecords(dir: string): FctRecord[] {
  return (readTable(dir, 'fct') ?? []).map((r) => ({
    id: Number(r['id']),
    bytes: Number(r['bytes']),
    startPs: Number(r['start_ps']),
    finishPs: Number(r['finish_ps']),
    fctPs: Number(r['fct_ps']),
    slowdown: Number(r['slowdown']),
    tag: String(r['tag'] ?? ''),
  }));
}

/**
 * A JSON file of a result folder (manifest.json, summary.json, ...); undefined
 * when absent; a UsageError naming the file when it is not a JSON object
 * (corrupt, truncated, or not ccsim's).
 */
export function readResultJson<T = Record<string, unknown>>(dir: string, name: string): T | undefined {
  const f = join(dir, name);
  if (!existsSync(f)) return undefined;
  let v: unknown;
  try {
    v = parseJsonBounded(readResultText(f, RESULT_JSON_MAX_BYTES), 'result file', f);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${f} is corrupt (not valid JSON: ${e instanceof Error ? e.message : String(e)})`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`${f} is corrupt (not a JSON object)`);
  return v as T;
}

/** A point of a sweep.json as readers use it. */
export interface SweepIndexPoint {
  index: number;
  id: string;
  dir: string;
  label: string;
  vars: Record<string, unknown>;
  hash: string;
}

/** Checks the parsed sweep.json `v` has the shape readers rely on; a UsageError naming `file` otherwise. */
export function checkSweepIndex(v: unknown, file: string): { name?: string; specPath?: string; quick?: boolean; figure?: string | null; fields?: string[]; points: SweepIndexPoint[] } {
  const bad = (why: string): UsageError => new UsageError(`${file} is corrupt: ${why}`);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad('not a JSON object');
  const o = v as Record<string, unknown>;
  if (!Array.isArray(o['points'])) throw bad('no points list');
  o['points'].forEach((p: unknown, i) => {
    const q = p as Record<string, unknown> | null;
    if (q === null || typeof q !== 'object' || !Number.isInteger(q['index']) || typeof q['id'] !== 'string' || typeof q['dir'] !== 'string' || typeof q['hash'] !== 'string') {
      throw bad(`points[${i}] is not { index, id, dir, hash, ... }`);
    }
    if (!/^points\/[^/\\]+$/.test(q['dir']) || q['dir'] === 'points/..' || q['dir'] === 'points/.') throw bad(`points[${i}].dir ${JSON.stringify(q['dir'])} is not a point folder`);
    if (typeof q['label'] !== 'string') q['label'] = q['id'];
    if (q['vars'] === null || typeof q['vars'] !== 'object') q['vars'] = {};
  });
  if (o['fields'] !== undefined && !(Array.isArray(o['fields']) && o['fields'].every((f) => typeof f === 'string'))) throw bad('fields is not a list of field paths');
  for (const k of ['name', 'specPath', 'figure'] as const) if (o[k] !== undefined && o[k] !== null && typeof o[k] !== 'string') throw bad(`${k} is not a string`);
  return o as ReturnType<typeof checkSweepIndex>;
}

/** As readResultJson, for a file every finished result has: a UsageError naming it when absent. */
export function requireResultJson<T = Record<string, unknown>>(dir: string, name: string): T {
  const v = readResultJson<T>(dir, name);
  if (v === undefined) throw new UsageError(`${join(dir, name)} is missing: ${dir} is not a finished result folder`);
  return v;
}

/** manifest.json of a run folder; undefined when absent. */
export function readRunManifest(dir: string): RunManifest | undefined {
  return readResultJson<RunManifest>(dir, 'manifest.json');
}

/** As readRunManifest, for a finished result: a UsageError naming the file when absent. */
export function requireRunManifest(dir: string): RunManifest {
  return requireResultJson<RunManifest>(dir, 'manifest.json');
}

/** summary.json of a run folder (src/metrics/summary.ts; non-finite numbers are null); undefined when absent. */
export function readRunSummary(dir: string): RunSummary | undefined {
  return readResultJson<RunSummary>(dir, 'summary.json');
}

/** As readRunSummary, for a finished result: a UsageError naming the file when absent. */
export function requireRunSummary(dir: string): RunSummary {
  return requireResultJson<RunSummary>(dir, 'summary.json');
}

export interface RunData {
  dir: string;
  /** e.g. "cc=hpcc load=0.8", or the CC name of a single run */
  label: string;
  cc: string;
  vars: Record<string, unknown>;
  manifest: RunManifest;
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
  /** a sweep run with --quick (its spec's `quick:` sizes; sweep.json) */
  quick?: boolean;
}

/** A summary.json whose counts and statistics are not numbers (null = a non-finite one) is corrupt: a report of NaN helps nobody. */
function checkSummaryNumbers(summary: Record<string, unknown>, file: string): void {
  const fct = summary['fct'] as Record<string, unknown> | null | undefined;
  const groups: [string, unknown][] = [
    ['totals', summary['totals']],
    ['fct.overall', fct !== null && typeof fct === 'object' ? fct['overall'] : undefined],
  ];
  for (const [name, group] of groups) {
    if (group === undefined) continue;
    if (group === null || typeof group !== 'object' || Array.isArray(group)) throw new UsageError(`${file} is corrupt: ${name} is not an object (run it again)`);
    for (const [k, v] of Object.entries(group as Record<string, unknown>)) {
      if (v !== null && typeof v !== 'number') throw new UsageError(`${file} is corrupt: ${name}.${k} is ${JSON.stringify(v)?.slice(0, 40) ?? String(v)}, not a number (run it again)`);
    }
  }
  for (const k of ['unfinished', 'unfinishedBytes', 'endPs']) {
    const v = summary[k];
    if (v !== undefined && v !== null && typeof v !== 'number') throw new UsageError(`${file} is corrupt: ${k} is ${JSON.stringify(v)?.slice(0, 40) ?? String(v)}, not a number (run it again)`);
  }
}

/** Every file the manifest lists must be there: a result that lost its fct.csv is not reported as if it had no flows. */
function checkListedFiles(manifest: Record<string, unknown>, dir: string): void {
  const files = manifest['files'];
  if (!Array.isArray(files)) return; // an older writer's manifest
  for (const f of files) {
    if (typeof f !== 'string' || f === '' || /[/\\]/.test(f)) continue;
    if (!existsSync(join(dir, f))) throw new UsageError(`${dir} is incomplete: ${f}, listed in its manifest.json, is missing (run it again)`);
  }
}

function loadRun(dir: string, label: string | undefined, vars: Record<string, unknown>): RunData {
  const manifest = requireRunManifest(dir);
  const summary0 = requireRunSummary(dir) as unknown as Record<string, unknown>;
  if (summary0['totals'] === null || typeof summary0['totals'] !== 'object') throw new UsageError(`${join(dir, 'summary.json')} is corrupt (no totals): run it again`);
  if ((manifest as unknown as Record<string, unknown>)['incomplete'] === true) {
    throw new UsageError(`${join(dir, 'manifest.json')} is marked incomplete: the run that wrote ${dir} did not finish writing it (run it again)`);
  }
  checkSummaryNumbers(summary0, join(dir, 'summary.json'));
  checkListedFiles(manifest as unknown as Record<string, unknown>, dir);
  const summary = requireRunSummary(dir);
  // a manifest of an older or foreign writer may lack fields
  const cc = (manifest.resolved as Partial<RunManifest['resolved']> | undefined)?.cc?.name ?? 'unknown';
  return { dir, label: label ?? cc, cc, vars, manifest, summary };
}

/** Loads a run or sweep folder; a UsageError when it holds no results. */
export function loadResults(dir: string): ResultSet {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`not a result folder: ${dir} does not exist or is not a directory`);
  if (existsSync(join(dir, 'sweep.json'))) {
    const index = checkSweepIndex(requireResultJson(dir, 'sweep.json'), join(dir, 'sweep.json'));
    const runs: RunData[] = [];
    const missing: ResultSet['missing'] = [];
    for (const p of index.points ?? []) {
      const pdir = join(dir, p.dir);
      const done = pointState(dir, p.id, p.hash).status === 'done';
      if (done) runs.push(loadRun(pdir, p.label, p.vars));
      else {
        const failed = readResultJson(join(dir, 'points'), `${p.id}.failed.json`);
        if (failed !== undefined) missing.push({ label: p.label, status: 'failed', error: String(failed['error'] ?? '') });
        else missing.push({ label: p.label, status: 'pending' });
      }
    }
    if (runs.length === 0) throw new UsageError(`no finished points in sweep folder ${dir} (run \`ccsim sweep\` first)`);
    return { kind: 'sweep', dir, name: index.name ?? 'sweep', runs, missing, figure: index.figure ?? undefined, fields: index.fields ?? [], ...(index.quick === true ? { quick: true } : {}) };
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
