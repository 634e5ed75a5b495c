/**
 * Sweeps: an experiment file whose `sweep:` block varies fields of its spec.
 *
 * ```yaml
 * sweep:
 *   cc: [hpcc, dcqcn]               # each entry: a field path and its values
 *   workload[0].load: [0.5, 0.8]
 *   zip:                            # fields that vary together (equal lengths)
 *     size: { workload[1].fanIn: [8, 16], workload[1].size: [64KB, 32KB] }
 * ```
 *
 * The points are the cartesian product of the entries (a zip group counts as
 * one entry), first entry outermost. Planning a sweep validates every point
 * (schema, then topology / flow resolution) before anything runs, naming the
 * point and the field of every problem, and gives each point a stable folder
 * name from its values and a hash of its spec, so a re-run can tell finished
 * points from changed ones.
 */
import { createHash } from 'node:crypto';
import { dirname, relative, resolve as resolvePath, sep } from 'node:path';
import { recordFileReads } from '../../engine/io.js';
import { figureNames, findFigure } from '../results/analysis.js';
import { ccsimVersion } from './output.js';
import { SpecError, formatPath, formatValue, type PathSegment, type SpecIssue } from '../../engine/errors.js';
import { parseFieldPath, setFieldPath, splitExperiment } from '../spec/meta.js';
import { dataPackets, parseSpec, readSpecFile, resolveSpec } from '../spec/resolve.js';
import { ccEventFactor, runBasis, type RunBasis } from './estimate-cost.js';
import type { ExperimentMeta, Spec } from '../spec/spec.js';

/** One varied field. */
export interface SweepField {
  /** as written, e.g. `workload[0].load` */
  path: string;
  segments: PathSegment[];
  /** short name used in point labels and folder names */
  key: string;
}

/** One entry of the product: a single field, or a zip group of fields varying together. */
interface Axis {
  fields: SweepField[];
  /** values[i][f] = value of fields[f] at step i */
  steps: unknown[][];
}

export interface SweepPoint {
  index: number;
  /** folder name under points/ (stable: from the values, not the index) */
  id: string;
  /** varied field path → value as written */
  vars: Record<string, unknown>;
  /** e.g. "cc=hpcc load=0.8" */
  label: string;
  /** the point's run spec, raw (as a spec file would contain it) */
  raw: Record<string, unknown>;
  spec: Spec;
  /** sha256 (16 hex) of the point's raw spec: identifies a finished point on resume */
  hash: string;
  /** flows the point generates (known from validation; used for the ETA) */
  flows: number;
  /** data packets of those flows */
  packets: number;
  /** what the point will simulate (the cost estimate of `ccsim validate`, `sweep` and `reproduce`; estimate-cost.ts) */
  basis: RunBasis;
  /** the point's seed (spec `seed`, or one of the experiment's `seeds`) */
  seed: number;
  /** the point's tie-order perturbation (spec `perturb`, or one of the experiment's `perturbations`) */
  perturb: number;
}

export interface SweepPlan {
  name: string;
  /** absolute spec file path */
  specPath: string;
  specDir: string;
  quick: boolean;
  meta: ExperimentMeta;
  fields: SweepField[];
  points: SweepPoint[];
  /** the figure analysis named by `figure:`, if any */
  figure: string | undefined;
}

/** The most points one sweep may have (each is a folder and a row of sweep.json). */
export const MAX_SWEEP_POINTS = 100_000;

/** Canonical JSON (sorted keys) for hashing. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const rec = v as Record<string, unknown>;
    return `{${Object.keys(rec)
      .sort()
      .filter((k) => rec[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(rec[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function hashOf(v: unknown): string {
  return createHash('sha256').update(canonical(v)).digest('hex').slice(0, 16);
}

/** Value text in labels and folder names. */
export function pointValueText(v: unknown): string {
  return showVar(v);
}

/** Scalars as written; objects as `{k=v,...}`, arrays as `[a,b]`. */
function compactText(v: unknown): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `[${v.map(compactText).join(',')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${compactText(x)}`).join(',')}}`;
  return String(v);
}

/**
 * A CC value (`{ name, params }`) in the one spelling used in point labels,
 * folder names, points.csv, flows.parquet and report legends:
 * `name[k=v,...]` (nested objects as `{k=v}`); undefined for other values.
 */
export function ccText(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as { name?: unknown; params?: unknown };
  if (typeof o.name !== 'string') return undefined;
  if (o.params === null || typeof o.params !== 'object') return o.name;
  const inner = Object.entries(o.params as Record<string, unknown>).map(([k, x]) => `${k}=${compactText(x)}`);
  return inner.length === 0 ? o.name : `${o.name}[${inner.join(',')}]`;
}

function showVar(v: unknown): string {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  return ccText(v) ?? hashOf(v).slice(0, 8);
}

function shortKeys(fields: readonly { path: string; segments: PathSegment[] }[]): string[] {
  const last = (segs: PathSegment[]): string => String([...segs].reverse().find((s) => typeof s === 'string') ?? segs.join('.'));
  const short = fields.map((f) => last(f.segments));
  return fields.map((f, i) => (short.filter((s) => s === short[i]).length > 1 ? f.path : short[i]!));
}

/** A point folder name: the label's spelling (`cc=dcqcn[variant=paper],load=0.5`), other characters as `_`. */
function folderSafe(s: string): string {
  return s.replace(/[^A-Za-z0-9._+~=,[\]-]/g, '_');
}

/**
 * Plans the sweep in the experiment file at `specPath`: validates the sweep
 * block and every point. Throws SpecError (every problem, each naming the point
 * and field) when anything is wrong.
 */
export function planSweep(specPath: string, opts: { quick?: boolean } = {}): SweepPlan {
  const quick = opts.quick === true;
  const abs = resolvePath(specPath);
  const specDir = dirname(abs);
  const rawFile = readSpecFile(specPath);
  if (rawFile === null || rawFile === undefined) throw new SpecError([{ path: '', value: rawFile, message: 'the spec file is empty' }], specPath);
  const { base, meta, raw } = splitExperiment(rawFile, specPath, quick);
  const issues: SpecIssue[] = [];
  const fail = (): never => {
    throw new SpecError(issues, specPath);
  };

  if (meta.figure !== undefined && findFigure(meta.figure) === undefined) {
    const known = figureNames();
    issues.push({ path: 'figure', value: meta.figure, message: `unknown figure analysis (known: ${known.length > 0 ? known.join(', ') : 'none yet'})` });
  }

  // --- axes
  const axes: Axis[] = [];
  const fields: { path: string; segments: PathSegment[]; where: string }[] = [];
  const addField = (path: string, where: string): PathSegment[] | undefined => {
    const segments = parseFieldPath(path);
    if (segments === undefined) {
      issues.push({ path: where, value: path, message: 'not a field path (e.g. cc, cc.params.eta, workload[0].load, network.switch.bufferBytes)', showValue: false });
      return undefined;
    }
    const canon = formatPath(segments);
    const dup = fields.find((f) => formatPath(f.segments) === canon);
    if (dup !== undefined) {
      issues.push({ path: where, value: path, message: `varied twice (also at ${dup.where})`, showValue: false });
      return undefined;
    }
    if (segments[0] === 'name') {
      issues.push({ path: where, value: path, message: 'the spec name cannot be swept (it names the sweep folder)', showValue: false });
      return undefined;
    }
    fields.push({ path, segments, where });
    return segments;
  };

  const sweep = meta.sweep;
  if (sweep !== undefined) {
    const { zip, ...single } = sweep;
    // axes in the order written: a zip block stands where it is in the file
    const rawSweep = (raw as { sweep?: unknown }).sweep;
    const order = rawSweep !== null && typeof rawSweep === 'object' ? Object.keys(rawSweep) : [];
    const keysInOrder = [...order.filter((k) => k === 'zip' || k in single), ...Object.keys(single).filter((k) => !order.includes(k))];
    if (zip !== undefined && !keysInOrder.includes('zip')) keysInOrder.push('zip');
    for (const key of keysInOrder) {
      if (key !== 'zip') {
        const path = key;
        const values = single[key]!;
        const segs = addField(path, `sweep.${path}`);
        if (segs !== undefined) axes.push({ fields: [{ path, segments: segs, key: '' }], steps: values.map((v) => [v]) });
        continue;
      }
      const groups: [string, Record<string, unknown[]>][] =
        zip === undefined ? [] : Array.isArray(zip) ? zip.map((g, i) => [`zip[${i}]`, g]) : Object.entries(zip).map(([n, g]) => [`zip.${n}`, g]);
      for (const [gname, group] of groups) {
        const entries = Object.entries(group);
        if (entries.length === 0) {
          issues.push({ path: `sweep.${gname}`, value: group, message: 'an empty zip group: list the fields that vary together' });
          continue;
        }
        const len = entries[0]![1].length;
        const bad = entries.find(([, v]) => v.length !== len);
        if (bad !== undefined) {
          issues.push({
            path: `sweep.${gname}`,
            value: undefined,
            showValue: false,
            message: `the lists of a zip group must have equal lengths (${entries.map(([p, v]) => `${p}: ${v.length}`).join(', ')})`,
          });
          continue;
        }
        const gf: SweepField[] = [];
        for (const [path] of entries) {
          const segs = addField(path, `sweep.${gname}.${path}`);
          if (segs !== undefined) gf.push({ path, segments: segs, key: '' });
        }
        if (gf.length !== entries.length) continue;
        axes.push({ fields: gf, steps: Array.from({ length: len }, (_, i) => entries.map(([, v]) => v[i])) });
      }
    }
    if (axes.length === 0 && issues.length === 0) {
      issues.push({ path: 'sweep', value: sweep, message: 'an empty sweep: vary at least one field (e.g. `cc: [hpcc, dcqcn]`)' });
    }
  }
  if (meta.seeds !== undefined && fields.some((f) => formatPath(f.segments) === 'seed')) {
    issues.push({ path: 'seeds', value: meta.seeds, message: 'the sweep varies `seed` as well: use one of the two' });
  }
  if (meta.perturbations !== undefined && fields.some((f) => formatPath(f.segments) === 'perturb')) {
    issues.push({ path: 'perturbations', value: meta.perturbations, message: 'the sweep varies `perturb` as well: use one of the two' });
  }
  if (issues.length > 0) fail();

  const allFields = axes.flatMap((a) => a.fields);
  const keys = shortKeys(allFields);
  allFields.forEach((f, i) => (f.key = keys[i]!));

  // --- does every swept field exist in the spec? (checked once, with each field's first value)
  for (const axis of axes) {
    axis.fields.forEach((f, fi) => {
      const set = setFieldPath(base, f.segments, axis.steps[0]![fi]);
      if (!set.ok) {
        issues.push({ path: `sweep.${f.path}`, value: undefined, showValue: false, message: `does not exist in the spec: ${set.error}` });
        return;
      }
      try {
        parseSpec(set.value);
      } catch (e) {
        if (!(e instanceof SpecError)) throw e;
        const unknown = e.issues.find((i) => i.message === 'unknown key' && isUnder(i.path, f.segments));
        if (unknown !== undefined) {
          issues.push({ path: `sweep.${f.path}`, value: undefined, showValue: false, message: `does not exist in the spec (${unknown.path}: unknown key)` });
        }
      }
    });
  }
  if (issues.length > 0) fail();

  // --- points
  const count = axes.reduce((n, a) => n * a.steps.length, 1);
  if (count > MAX_SWEEP_POINTS) {
    issues.push({ path: 'sweep', value: undefined, showValue: false, message: `has ${count.toLocaleString('en-US')} points, above the limit of ${MAX_SWEEP_POINTS.toLocaleString('en-US')}: split it into several sweeps` });
    fail();
  }
  let combos: unknown[][][] = [[]];
  for (const axis of axes) {
    const next: unknown[][][] = [];
    for (const c of combos) for (const step of axis.steps) next.push([...c, step]);
    combos = next;
  }
  const name = typeof base['name'] === 'string' ? base['name'] : 'sweep';
  const points: SweepPoint[] = [];
  const pointIssues = new Map<string, { issue: SpecIssue; points: string[] }>();
  const addPointIssue = (label: string, i: SpecIssue): void => {
    const key = `${i.path}\u0000${formatValue(i.value)}\u0000${i.message}`;
    const e = pointIssues.get(key);
    if (e) e.points.push(label);
    else pointIssues.set(key, { issue: i, points: [label] });
  };
  const usedIds = new Set<string>();
  // resolution (topology, flows) depends on everything but the CC: resolve once per distinct rest
  // (the cost basis too, but for the CC's events per packet, set per point)
  const resolved = new Map<string, { flows: number; packets: number; basis: RunBasis } | SpecError>();
  const inputDigests = new Map<string, Record<string, string>>();

  // the spec's own seed keeps the point's raw spec, folder and hash; other `seeds:` add `seed=` points
  const baseSeed = typeof base['seed'] === 'number' ? base['seed'] : 1;
  const seedList = meta.seeds ?? [baseSeed];
  // likewise the spec's own `perturb` (default 0); other `perturbations:` add `perturb=` points
  const basePerturb = typeof base['perturb'] === 'number' ? base['perturb'] : 0;
  const perturbList = meta.perturbations ?? [basePerturb];
  const runs = combos.flatMap((combo) => seedList.flatMap((seed) => perturbList.map((perturb) => [combo, seed, perturb] as const)));
  runs.forEach(([combo, seed, perturb], index) => {
    let pointRaw: unknown = seed === baseSeed ? base : { ...base, seed };
    if (perturb !== basePerturb) pointRaw = { ...(pointRaw as Record<string, unknown>), perturb };
    const vars: Record<string, unknown> = {};
    axes.forEach((axis, ai) => {
      axis.fields.forEach((f, fi) => {
        const v = combo[ai]![fi];
        vars[f.path] = v;
      });
    });
    // shorter paths first, so `cc` then `cc.params.x` compose
    for (const f of [...allFields].sort((a, b) => a.segments.length - b.segments.length)) {
      const set = setFieldPath(pointRaw, f.segments, vars[f.path]);
      if (!set.ok) {
        addPointIssue(`${index}`, { path: f.path, value: vars[f.path], message: set.error });
        return;
      }
      pointRaw = set.value;
    }
    const parts = allFields.map((f) => `${f.key}=${showVar(vars[f.path])}`);
    if (seed !== baseSeed) parts.push(`seed=${seed}`);
    if (perturb !== basePerturb) parts.push(`perturb=${perturb}`);
    const label = parts.join(' ') || 'single point';
    let id = folderSafe(parts.join(',')) || 'point';
    if (id.length > 100) id = `${id.slice(0, 80)}~${hashOf(vars).slice(0, 8)}`;
    // unique, also where different values map to one folder name (`x/`, `x?`, a literal `x_~2`) and on
    // case-insensitive filesystems
    const baseId = id;
    for (let k = 0; usedIds.has(id.toLowerCase()); k++) id = k === 0 ? `${baseId}~${index}` : `${baseId}~${index}.${k}`;
    usedIds.add(id.toLowerCase());
    const ref = `point ${index} (${label})`;
    let spec: Spec;
    try {
      spec = parseSpec(pointRaw);
    } catch (e) {
      if (!(e instanceof SpecError)) throw e;
      for (const i of e.issues) addPointIssue(ref, i);
      return;
    }
    const { cc: _cc, ...rest } = pointRaw as Record<string, unknown>;
    void _cc;
    const rkey = hashOf(rest);
    let r = resolved.get(rkey);
    if (r === undefined) {
      const { value, files } = recordFileReads((): { flows: number; packets: number; basis: RunBasis } | SpecError => {
        try {
          const input = resolveSpec(spec, specDir, {}, { raw: pointRaw });
          return { flows: input.flows.length, packets: dataPackets(input), basis: runBasis(input) };
        } catch (e) {
          if (!(e instanceof SpecError)) throw e;
          return e;
        }
      });
      r = value;
      resolved.set(rkey, r);
      // keyed by the path relative to the spec's folder, so the same results are current from any checkout
      const rel = [...files].map(([f, d]): [string, string] => [relative(specDir, f).split(sep).join('/'), d]);
      inputDigests.set(rkey, Object.fromEntries(rel.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
    }
    if (r instanceof SpecError) {
      for (const i of r.issues) addPointIssue(ref, i);
      return;
    }
    // the hash covers the point's spec, the contents of the files it reads (CDFs, topology files) and the
    // ccsim version: a point finished before any of them changed is run again. Not `threads`: it never
    // changes a result (sim/parallel/threads.ts), so a point finished with another thread count is kept
    const { threads: _threads, ...hashed } = pointRaw as Record<string, unknown>;
    void _threads;
    const hash = hashOf({ spec: hashed, inputs: inputDigests.get(rkey) ?? {}, ccsim: ccsimVersion() });
    points.push({ index, id, vars, label, raw: pointRaw as Record<string, unknown>, spec, hash, flows: r.flows, packets: r.packets, basis: { ...r.basis, eventFactor: ccEventFactor(spec.cc.name) }, seed, perturb });
  });

  for (const { issue, points: refs } of pointIssues.values()) {
    const where = refs.length === 1 ? refs[0]! : refs.length === runs.length ? `all ${refs.length} points, e.g. ${refs[0]}` : `${refs.length} points, e.g. ${refs[0]}`;
    issues.push({ ...issue, path: `${where}: ${issue.path === '' ? '(spec)' : issue.path}` });
  }
  if (issues.length > 0) fail();
  return {
    name,
    specPath: abs,
    specDir,
    quick,
    meta,
    fields: allFields,
    points,
    figure: meta.figure,
  };
}

/** Is the issue path (as text) the field path or inside it? */
function isUnder(issuePath: string, segs: readonly PathSegment[]): boolean {
  const p = formatPath(segs);
  return issuePath === p || issuePath.startsWith(`${p}.`) || issuePath.startsWith(`${p}[`);
}
