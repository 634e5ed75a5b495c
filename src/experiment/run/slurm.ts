/**
 * Sweeps on a Slurm cluster: `ccsim sweep <spec> --slurm` submits the points
 * still to do as one job array through `sbatch`; task i runs
 * `ccsim sweep <spec> --out <dir> --point i` into the shared sweep folder, with
 * the same rules as a local sweep (a point is finished only when its folder is
 * in place; finished points are skipped on resubmission). `ccsim sweep
 * --status <dir>` tells done / running / queued / failed from the folder and
 * `squeue`, and completes the folder (points.csv, flows.parquet, figure.json)
 * once every point is done.
 *
 * The sweep folder, the spec, node and ccsim must be visible at the same
 * paths on the compute nodes (a shared filesystem, as usual on clusters).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryUrl } from '../../workload/package-root.js';
import { findFigure } from '../results/analysis.js';
import { writeSweepParquet } from './sweep-parquet.js';
import { UsageError, errorMessage } from '../../engine/errors.js';
import { planSweep } from './sweep.js';
import { analyzeSweep, defaultSweepDir, prepareSweep, writePointsCsv } from './sweep-run.js';
import { pointState, writeFileAtomic, type PointState } from '../results/points.js';
import { checkSweepIndex } from '../results/results.js';

export interface SlurmOptions {
  out?: string;
  quick?: boolean;
  partition?: string;
  /** sbatch --time, e.g. 1:00:00 */
  time?: string;
  /** sbatch --mem, e.g. 4G */
  mem?: string;
}

export interface SlurmSubmission {
  dir: string;
  jobId: string | undefined;
  /** point indices submitted */
  points: number[];
  script: string;
  /** points already finished (not submitted) */
  skipped: number;
}

/** Absolute path of an executable on the PATH, or undefined. */
export function which(cmd: string, path = process.env['PATH'] ?? ''): string | undefined {
  for (const d of path.split(delimiter)) {
    if (d === '') continue;
    const p = join(d, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** 0,1,2,5,7,8 → "0-2,5,7-8" (sbatch --array syntax). */
export function arrayRanges(xs: readonly number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    out.push(i === j ? String(s[i]) : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

function shq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** the CLI the job array runs: this ccsim, from the TypeScript output or the bundle */
const CLI = fileURLToPath(entryUrl(import.meta.url, '../../cli/main.js', './ccsim.mjs'));

interface JobRecord {
  jobId: string;
  submittedAt: string;
  points: number[];
}

function jobsFile(dir: string): string {
  return join(dir, 'slurm', 'jobs.json');
}

function readJobs(dir: string): JobRecord[] {
  try {
    const v = JSON.parse(readFileSync(jobsFile(dir), 'utf8')) as unknown;
    return Array.isArray(v) ? (v as JobRecord[]) : [];
  } catch {
    return [];
  }
}

/** Submits the sweep's unfinished points as one Slurm job array. */
export function submitSlurm(specPath: string, opts: SlurmOptions = {}): SlurmSubmission {
  const sbatch = which('sbatch');
  if (sbatch === undefined) {
    throw new UsageError('--slurm: sbatch is not on the PATH (run on a Slurm login node, or load its module); nothing was submitted');
  }
  for (const [k, v] of [
    ['partition', opts.partition],
    ['time', opts.time],
    ['mem', opts.mem],
  ] as const) {
    if (v !== undefined && !/^[A-Za-z0-9:_.,+-]+$/.test(v)) throw new UsageError(`--${k}: "${v}" is not a valid sbatch value`);
  }
  const plan = planSweep(specPath, { quick: opts.quick === true });
  const target = prepareSweep(plan, opts.out ?? defaultSweepDir(plan));
  const dir = resolvePath(target.dir);
  const points = target.todo.map((p) => p.index);
  const slurmDir = join(dir, 'slurm');
  mkdirSync(slurmDir, { recursive: true });
  const script = join(slurmDir, 'job.sh');
  if (points.length === 0) return { dir, jobId: undefined, points, script, skipped: target.skipped };
  const lines = [
    '#!/bin/bash',
    `# ccsim sweep ${plan.name}: one array task per point (task id = point index, see ../sweep.json)`,
    // the job name and the log path (which may hold spaces) are given on sbatch's command line, as
    // single arguments: #SBATCH lines split their values on white space
    `#SBATCH --array=${arrayRanges(points)}`,
    '#SBATCH --ntasks=1',
    '#SBATCH --cpus-per-task=1',
    ...(opts.partition !== undefined ? [`#SBATCH --partition=${opts.partition}`] : []),
    ...(opts.time !== undefined ? [`#SBATCH --time=${opts.time}`] : []),
    ...(opts.mem !== undefined ? [`#SBATCH --mem=${opts.mem}`] : []),
    `exec ${shq(process.execPath)} ${shq(CLI)} sweep ${shq(resolvePath(specPath))} --out ${shq(dir)} --point "$SLURM_ARRAY_TASK_ID"${opts.quick === true ? ' --quick' : ''}`,
    '',
  ];
  writeFileSync(script, lines.join('\n'), { mode: 0o755 });
  const sbatchArgs = ['--parsable', `--job-name=ccsim-${plan.name.replace(/[^A-Za-z0-9._-]/g, '_')}`, `--output=${join(slurmDir, '%A_%a.out')}`, script];
  const r = spawnSync(sbatch, sbatchArgs, { encoding: 'utf8', cwd: dir });
  if (r.error !== undefined) throw new UsageError(`sbatch could not be run: ${errorMessage(r.error)}`);
  if (r.status !== 0) throw new UsageError(`sbatch refused the job array (exit ${r.status}): ${(r.stderr || r.stdout).trim()}`);
  const jobId = r.stdout.trim().split(';')[0]!;
  const jobs = readJobs(dir);
  jobs.push({ jobId, submittedAt: new Date().toISOString(), points });
  writeFileAtomic(jobsFile(dir), JSON.stringify(jobs, null, 2) + '\n');
  return { dir, jobId, points, script, skipped: target.skipped };
}

export type PointStatus = 'done' | 'running' | 'queued' | 'failed' | 'not started';

export interface SweepStatus {
  name: string;
  dir: string;
  points: { index: number; label: string; status: PointStatus; error?: string }[];
  counts: Record<PointStatus, number>;
  /** squeue's answer was not available (no Slurm here, or no jobs recorded) */
  squeue: 'ok' | 'unavailable' | 'no jobs';
  /** files written because every point is done */
  completed: string[];
}

interface IndexPoint {
  index: number;
  id: string;
  label: string;
  hash: string;
  vars: Record<string, unknown>;
}

/** Array tasks of the recorded jobs that Slurm still knows, by point index. */
function slurmTasks(dir: string): { state: 'ok' | 'unavailable' | 'no jobs'; tasks: Map<number, 'running' | 'queued'> } {
  const tasks = new Map<number, 'running' | 'queued'>();
  const jobs = readJobs(dir);
  if (jobs.length === 0) return { state: 'no jobs', tasks };
  const squeue = which('squeue');
  if (squeue === undefined) return { state: 'unavailable', tasks };
  const r = spawnSync(squeue, ['-h', '-r', '-j', jobs.map((j) => j.jobId).join(','), '-o', '%i %T'], { encoding: 'utf8' });
  if (r.status !== 0 && !/Invalid job id/i.test(r.stderr)) return { state: 'unavailable', tasks };
  for (const line of r.stdout.split('\n')) {
    const m = /^(\d+)_(\d+)\s+(\S+)/.exec(line.trim());
    if (m === null) continue;
    const st = m[3]!;
    const idx = Number(m[2]);
    if (['RUNNING', 'COMPLETING', 'CONFIGURING'].includes(st)) tasks.set(idx, 'running');
    else if (['PENDING', 'REQUEUED', 'RESIZING', 'SUSPENDED'].includes(st)) tasks.set(idx, 'queued');
  }
  return { state: 'ok', tasks };
}

/** Status of a sweep folder (local or Slurm). Completes the folder when every point is done. */
export function sweepStatus(dirArg: string): SweepStatus {
  const dir = resolvePath(dirArg);
  const indexFile = join(dir, 'sweep.json');
  if (!existsSync(indexFile)) throw new UsageError(`not a sweep folder: ${dirArg} has no sweep.json`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(indexFile, 'utf8'));
  } catch (e) {
    throw new UsageError(`${indexFile} is not readable: ${errorMessage(e)}`);
  }
  const index: { name?: string; specPath?: string; quick?: boolean; figure?: string | null; points?: IndexPoint[] } = checkSweepIndex(raw, indexFile);
  const pts = index.points ?? [];
  const { state, tasks } = slurmTasks(dir);
  const counts: Record<PointStatus, number> = { done: 0, running: 0, queued: 0, failed: 0, 'not started': 0 };
  const points: SweepStatus['points'] = [];
  const states = new Map<number, PointState>();
  for (const p of pts) {
    const st = pointState(dir, p.id, p.hash);
    states.set(p.index, st);
    let status: PointStatus;
    if (st.status === 'done') status = 'done';
    else if (tasks.has(p.index)) status = tasks.get(p.index)!;
    else if (st.status === 'failed') status = 'failed';
    else status = 'not started';
    counts[status]++;
    points.push({ index: p.index, label: p.label, status, ...(st.status === 'failed' && status === 'failed' ? { error: st.error } : {}) });
  }
  const completed: string[] = [];
  if (pts.length > 0 && counts.done === pts.length && index.specPath !== undefined && existsSync(index.specPath)) {
    try {
      const plan = planSweep(index.specPath, { quick: index.quick === true });
      if (plan.points.length === pts.length && plan.points.every((p, i) => p.hash === pts[i]!.hash)) {
        writePointsCsv(dir, plan, states);
        completed.push('points.csv');
        if (writeSweepParquet(dir, plan) !== undefined) completed.push('flows.parquet');
        if (plan.figure !== undefined && findFigure(plan.figure) !== undefined) {
          const f = analyzeSweep(dir, plan, states);
          if (f.result !== undefined) completed.push('figure.json');
        }
      }
    } catch {
      // the spec changed or is unreadable: the status is still right, the folder is not completed
    }
  }
  return { name: index.name ?? 'sweep', dir, points, counts, squeue: state, completed };
}
