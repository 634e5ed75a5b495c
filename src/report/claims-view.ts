/**
 * The published-vs-measured view of a paper (`ccsim claims`, `ccsim reproduce`): each claim's
 * measurement from the results on disk, else from the paper's record (data/measured/<paper>.json),
 * with its provenance (./provenance.ts) and a verdict that counts only current, complete
 * measurements (issue 40): a measurement on another model, spec or an unknown build is
 * `stale`, one on fewer points than the claim needs is `partial`.
 */
import { existsSync } from 'node:fs';
import type { SweepPlan } from '../experiment/run/sweep.js';
import { analyzeSweep, type FailedPoint, type SweepAnalysis } from '../experiment/run/sweep-run.js';
import { pointState, type PointState } from '../experiment/results/points.js';
import type { MeasuredClaim } from '../experiment/results/analysis.js';
import { experimentName, rowOf, type ClaimRecord, type ClaimRow, type Paper, type PublishedData, type RecordedClaim, type ReplicaClaims } from './published.js';
import { currentModel, isPartial, specHashOf, staleReason, type Provenance } from './provenance.js';

/** One point of an experiment, with what the claims need to know of it. */
export interface PointInfo {
  label: string;
  hash: string;
  done: boolean;
  build?: string;
  model?: string;
  cpuSeconds: number;
}

export interface ExperimentState {
  name: string;
  file: string;
  plan: SweepPlan;
  dir: string;
  finished: number;
  total: number;
  figure?: SweepAnalysis;
  failed: FailedPoint[];
  points: PointInfo[];
}

export interface ClaimsView {
  paper: Paper;
  data: PublishedData | undefined;
  experiments: ExperimentState[];
  rows: ClaimRow[];
  /** experiments named by the data file that have no spec */
  unknown: string[];
  /** claims of experiments whose every point finished but whose analysis gave no value for them (an id the analysis does not produce) */
  unmeasured: { experiment: string; id: string }[];
  quick: boolean;
  /** the record file consulted (claimsView with `recorded`), whether or not it exists yet */
  recordFile?: string;
  /** the record as loaded (its entries are carried over unchanged by a README rewrite) */
  record?: ClaimRecord;
}

export const recordKey = (experiment: string, id: string): string => `${experiment}/${id}`;

/** Measured claims of one experiment from its sweep folder (figure.json, or the analysis run now). */
export function experimentState(file: string, plan: SweepPlan, dir: string, failed: FailedPoint[] = []): ExperimentState {
  const there = existsSync(dir);
  const states = new Map<number, PointState>(plan.points.map((p) => [p.index, there ? pointState(dir, p.id, p.hash) : ({ status: 'pending' } as const)]));
  const points: PointInfo[] = plan.points.map((p) => {
    const st = states.get(p.index);
    if (st?.status !== 'done') return { label: p.label, hash: p.hash, done: false, cpuSeconds: 0 };
    return { label: p.label, hash: p.hash, done: true, ...(st.build !== undefined ? { build: st.build } : {}), ...(st.model !== undefined ? { model: st.model } : {}), cpuSeconds: st.cpuSeconds ?? 0 };
  });
  const finished = points.filter((p) => p.done).length;
  const st: ExperimentState = { name: experimentName(file), file, plan, dir, finished, total: plan.points.length, failed, points };
  if (plan.figure !== undefined && finished > 0) st.figure = analyzeSweep(dir, plan, states);
  return st;
}

export function measuredMap(exps: readonly ExperimentState[]): Map<string, MeasuredClaim[]> {
  return new Map(exps.map((e) => [e.name, e.figure?.result?.claims ?? []]));
}

/** Experiments run with replicas (`seeds:`, `perturbations:`): their claims per replica. */
export function perReplicaMap(exps: readonly ExperimentState[]): Map<string, ReplicaClaims[]> {
  const m = new Map<string, ReplicaClaims[]>();
  for (const e of exps) {
    const per = e.figure?.perReplica;
    if (per === undefined) continue;
    // a replica's name: the keys the experiment varies (`seed=2 perturb=1`)
    const name = (x: { seed: number; perturb: number }): string =>
      [e.plan.meta.seeds !== undefined ? `seed=${x.seed}` : '', e.plan.meta.perturbations !== undefined ? `perturb=${x.perturb}` : ''].filter((s) => s !== '').join(' ');
    m.set(e.name, per.map((x) => ({ replica: name(x), claims: x.claims })));
  }
  return m;
}

/** Claims of experiments that finished every point whose analysis gave them no value: an id it does not produce. */
export function unmeasuredOf(exps: readonly ExperimentState[], rows: readonly ClaimRow[]): { experiment: string; id: string }[] {
  const complete = new Set(exps.filter((e) => e.total > 0 && e.finished === e.total && e.figure?.result !== undefined).map((e) => e.name));
  return rows.filter((r) => r.measured === null && complete.has(r.experiment)).map((r) => ({ experiment: r.experiment, id: r.id }));
}

/** The points of an experiment a claim needs (`needs:` selects them by label; default all). */
function neededPoints(e: ExperimentState, claim: Pick<ClaimRow, 'needs'>): PointInfo[] {
  if (claim.needs === undefined) return e.points;
  const re = new RegExp(claim.needs);
  return e.points.filter((p) => re.test(p.label));
}

const joinSet = (xs: readonly (string | undefined)[]): string => [...new Set(xs.map((x) => x ?? 'unknown'))].sort().join(',');

/** The provenance of a measurement from the results on disk: the needed points' manifests. */
function diskProvenance(e: ExperimentState, claim: Pick<ClaimRow, 'needs'>): Provenance {
  const need = neededPoints(e, claim);
  const used = need.filter((p) => p.done);
  return {
    build: joinSet(used.map((p) => p.build)),
    model: joinSet(used.map((p) => p.model)),
    spec: specHashOf(need.map((p) => p.hash)),
    points: `${used.length}/${need.length}`,
    cpuSeconds: Math.round(used.reduce((s, p) => s + p.cpuSeconds, 0) * 10) / 10,
  };
}

/** A row judged with its provenance: stale or partial rows keep the verdict their value would give as `basis`. */
function judged(row: ClaimRow, prov: Partial<Provenance>, specNow: string | undefined, recorded: boolean): ClaimRow {
  const withProv: ClaimRow = { ...row, provenance: prov };
  if (row.measured === null) return withProv;
  const stale = staleReason(prov, specNow, recorded);
  if (stale !== undefined) return { ...withProv, verdict: 'stale', basis: row.verdict, why: stale };
  if (isPartial(prov.points)) return { ...withProv, verdict: 'partial', basis: row.verdict, why: `measured on ${prov.points} of the points it needs` };
  return withProv;
}

/** Rows measured on disk get their provenance and, when not current or complete, the stale / partial verdict. */
export function withProvenance(rows: readonly ClaimRow[], exps: readonly ExperimentState[]): ClaimRow[] {
  const byName = new Map(exps.map((e) => [e.name, e]));
  return rows.map((r) => {
    const e = byName.get(r.experiment);
    if (e === undefined || r.measured === null) return r;
    const prov = diskProvenance(e, r);
    return judged(r, prov, prov.spec, false);
  });
}

/** Rows without a measurement on disk take the recorded one, if any, judged with its provenance. */
export function withRecorded(data: PublishedData | undefined, rows: ClaimRow[], record: ClaimRecord | undefined, exps: readonly ExperimentState[]): ClaimRow[] {
  if (record === undefined || data === undefined) return rows;
  const byName = new Map(exps.map((e) => [e.name, e]));
  return rows.map((r) => {
    if (r.measured !== null) return r;
    const rec = record.claims[recordKey(r.experiment, r.id)];
    if (rec === undefined) return r;
    const m = {
      value: rec.value,
      n: rec.n ?? 1,
      ...(rec.bound !== undefined ? { bound: rec.bound } : {}),
      ...(rec.ci95 !== undefined ? { ci95: rec.ci95 } : {}),
      ...(rec.values !== undefined ? { values: rec.values, replicas: rec.replicas ?? [] } : {}),
    };
    const { measured: _m, bound: _b, n: _n, ci95: _c, verdict: _v, recorded: _r, cause: _k, values: _vs, replicas: _rs, provenance: _p, why: _w, basis: _s, spreadExceedsTolerance: _x, ...claim } = r;
    const e = byName.get(r.experiment);
    const specNow = e === undefined ? undefined : specHashOf(neededPoints(e, claim).map((p) => p.hash));
    const prov: Partial<Provenance> = {
      points: rec.points,
      ...(rec.build !== undefined ? { build: rec.build } : {}),
      ...(rec.model !== undefined ? { model: rec.model } : {}),
      ...(rec.spec !== undefined ? { spec: rec.spec } : {}),
      ...(rec.cpuSeconds !== undefined ? { cpuSeconds: rec.cpuSeconds } : {}),
    };
    return judged(rowOf(data, claim, m, rec.points), prov, specNow, true);
  });
}

/** The record after a README rewrite: every row measured on disk with its provenance; recorded rows carried over as they were. */
export function recordOf(view: ClaimsView): ClaimRecord {
  const claims: Record<string, RecordedClaim> = {};
  for (const r of view.rows) {
    if (r.measured === null) continue;
    const key = recordKey(r.experiment, r.id);
    const old = view.record?.claims[key];
    if (r.recorded !== undefined && old !== undefined) {
      claims[key] = old;
      continue;
    }
    const p = r.provenance ?? {};
    claims[key] = {
      value: r.measured,
      ...(r.bound !== undefined ? { bound: r.bound } : {}),
      points: p.points ?? '?',
      ...(r.n !== undefined && r.n > 1 ? { n: r.n } : {}),
      ...(r.ci95 !== undefined ? { ci95: r.ci95 } : {}),
      ...(r.values !== undefined ? { values: r.values, replicas: r.replicas ?? [] } : {}),
      ...(p.build !== undefined ? { build: p.build } : {}),
      ...(p.model !== undefined ? { model: p.model } : {}),
      ...(p.spec !== undefined ? { spec: p.spec } : {}),
      ...(p.cpuSeconds !== undefined ? { cpuSeconds: p.cpuSeconds } : {}),
    };
  }
  return { paper: view.paper, claims };
}

/** The current model's fingerprint, for the summary line. */
export function modelNow(): string {
  return currentModel() ?? 'none (no data/measured/model.json)';
}
