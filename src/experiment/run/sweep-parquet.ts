/**
 * One columnar file per sweep: `flows.parquet` in the sweep folder, one row per
 * flow of every finished point, with the sweep's varied fields as columns, so
 * the whole sweep is one table for DuckDB, pandas or polars:
 *
 *   SELECT cc, avg(slowdown), quantile_cont(slowdown, 0.99)
 *   FROM 'results/x/flows.parquet' WHERE finished GROUP BY cc
 *
 * Written with hyparquet-writer from the points' result files (fct, unfinished,
 * manifest), so it can be rebuilt at any time from a sweep folder. Schema in
 * docs/guide.md ("Sweep table (Parquet)").
 */
import { FCT_BREAKDOWN_COLUMNS } from './output.js';
import { renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { pointState } from '../results/points.js';
import type { SweepPlan } from './sweep.js';
import { pointValueText } from './sweep.js';
import { readTable } from '../results/results.js';

/** Fixed columns (before the varied fields' columns). */
export const PARQUET_FIXED_COLUMNS = [
  'point',
  'point_id',
  'cc',
  'cc_name',
  'seed',
  'flow',
  'src',
  'dst',
  'bytes',
  'start_ps',
  'finish_ps',
  'fct_ps',
  'ideal_fct_ps',
  'slowdown',
  'tag',
  'finished',
] as const;

type ColType = 'STRING' | 'DOUBLE' | 'INT64' | 'INT32' | 'BOOLEAN';

interface Column {
  name: string;
  type: ColType;
  data: unknown[];
}

/** Column name of a varied field: its short key (`load` for workload[0].load), unless that clashes. */
function fieldColumns(plan: SweepPlan): { path: string; name: string }[] {
  const fixed = new Set<string>(PARQUET_FIXED_COLUMNS);
  const used = new Set<string>();
  // cc and seed are fixed columns already
  return plan.fields.filter((f) => f.path !== 'cc' && f.path !== 'seed').map((f) => {
    let name = f.key.replace(/[^A-Za-z0-9_]/g, '_');
    if (fixed.has(name) || used.has(name)) name = f.path.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_|_$/g, '');
    while (fixed.has(name) || used.has(name)) name = `${name}_`;
    used.add(name);
    return { path: f.path, name };
  });
}

const big = (x: unknown): bigint | null => (typeof x === 'number' && Number.isFinite(x) ? BigInt(Math.round(x)) : null);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const int = (x: unknown): number | null => (typeof x === 'number' && Number.isInteger(x) ? x : null);

/**
 * Writes <dir>/flows.parquet from the sweep's finished points (atomically).
 * Returns the file and the number of rows, or undefined when no point is finished.
 */
export function writeSweepParquet(dir: string, plan: SweepPlan): { file: string; rows: number } | undefined {
  const fields = fieldColumns(plan);
  // a varied field is numeric when every value is a finite number
  const numeric = new Map(fields.map((f) => [f.path, plan.points.every((p) => typeof p.vars[f.path] === 'number')]));
  const cols: Record<string, unknown[]> = {};
  for (const c of PARQUET_FIXED_COLUMNS) cols[c] = [];
  for (const f of fields) cols[f.name] = [];
  // metrics.breakdown's fct columns (docs/guide.md, "Why a flow was slow"): null where a point has none
  const bd: Record<string, unknown[]> = {};
  for (const c of FCT_BREAKDOWN_COLUMNS) bd[c] = [];
  let anyBreakdown = false;
  let rows = 0;
  for (const p of plan.points) {
    if (pointState(dir, p.id, p.hash).status !== 'done') continue;
    const pdir = join(dir, 'points', p.id);
    const seed = typeof p.spec.seed === 'number' ? p.spec.seed : null;
    const add = (r: Record<string, string | number>, finished: boolean): void => {
      cols['point']!.push(p.index);
      cols['point_id']!.push(p.id);
      cols['cc']!.push(pointValueText(p.raw['cc']));
      cols['cc_name']!.push(p.spec.cc.name);
      cols['seed']!.push(seed === null ? null : BigInt(seed));
      cols['flow']!.push(big(r['id']));
      cols['src']!.push(int(r['src']));
      cols['dst']!.push(int(r['dst']));
      cols['bytes']!.push(big(r['bytes']));
      cols['start_ps']!.push(big(r['start_ps']));
      cols['finish_ps']!.push(finished ? big(r['finish_ps']) : null);
      cols['fct_ps']!.push(finished ? big(r['fct_ps']) : null);
      cols['ideal_fct_ps']!.push(finished ? big(r['ideal_fct_ps']) : null);
      cols['slowdown']!.push(finished ? num(r['slowdown']) : null);
      cols['tag']!.push(typeof r['tag'] === 'string' ? r['tag'] : String(r['tag'] ?? ''));
      cols['finished']!.push(finished);
      for (const f of fields) {
        const v = p.vars[f.path];
        cols[f.name]!.push(numeric.get(f.path) ? v : pointValueText(v));
      }
      if (finished && r['tx_ps'] !== undefined) anyBreakdown = true;
      for (const c of FCT_BREAKDOWN_COLUMNS) {
        const v = finished ? r[c] : undefined;
        bd[c]!.push(c === 'worst_role' ? (v === undefined ? null : String(v)) : c === 'worst_node' || c === 'worst_port' ? int(v) : big(v));
      }
      rows++;
    };
    for (const r of readTable(pdir, 'fct') ?? []) add(r, true);
    for (const r of readTable(pdir, 'unfinished') ?? []) add(r, false);
  }
  if (rows === 0) return undefined;
  const types: Record<string, ColType> = {
    point: 'INT32',
    point_id: 'STRING',
    cc: 'STRING',
    cc_name: 'STRING',
    seed: 'INT64',
    flow: 'INT64',
    src: 'INT32',
    dst: 'INT32',
    bytes: 'INT64',
    start_ps: 'INT64',
    finish_ps: 'INT64',
    fct_ps: 'INT64',
    ideal_fct_ps: 'INT64',
    slowdown: 'DOUBLE',
    tag: 'STRING',
    finished: 'BOOLEAN',
  };
  const columnData: Column[] = [
    ...PARQUET_FIXED_COLUMNS.map((c) => ({ name: c, type: types[c]!, data: cols[c]! })),
    ...fields.map((f) => ({ name: f.name, type: (numeric.get(f.path) ? 'DOUBLE' : 'STRING') as ColType, data: cols[f.name]! })),
    ...(anyBreakdown
      ? FCT_BREAKDOWN_COLUMNS.map((c) => ({ name: c, type: (c === 'worst_role' ? 'STRING' : c === 'worst_node' || c === 'worst_port' ? 'INT32' : 'INT64') as ColType, data: bd[c]! }))
      : []),
  ];
  const file = join(dir, 'flows.parquet');
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    parquetWriteFile({ filename: tmp, columnData });
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  return { file, rows };
}
