/**
 * Running one sweep point into its folder, and reading a sweep folder's state.
 *
 * Layout of a sweep folder (`results/<name>` by default):
 *   sweep.json            the plan: varied fields and every point (index, id, vars, hash)
 *   points.csv            one row per point: status, varied fields, events, wall time, error
 *   points/<id>/          a finished point: the run's result files; its manifest.json
 *                         carries `sweep: { index, id, vars, hash }`
 *   points/<id>.failed.json  the error of a point whose last attempt failed
 *
 * A point is finished when points/<id>/manifest.json exists with the point's
 * hash, is not marked `incomplete` and every file it lists is there: files are staged and renamed into place
 * with the manifest last (experiment/outdir.ts), so a killed run leaves no
 * half point that looks finished.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, SpecError, UsageError } from '../../engine/errors.js';
import { parseSpec, resolveSpec } from '../spec/resolve.js';
import { STAGING_PREFIX, isCompleteResultDir } from '../results/outdir.js';
import { runResolved } from './runner.js';
import type { SweepPoint } from './sweep.js';

/** What a worker needs to run one point. */
export type PointJob = Pick<SweepPoint, 'index' | 'id' | 'hash' | 'vars' | 'label' | 'raw'> & {
  /** unique within one pool (several sweeps may share a pool) */
  key: number;
  specPath: string;
  specDir: string;
  sweepName: string;
  /** the sweep folder */
  sweepDir: string;
};

export type WorkerReply =
  | { type: 'progress'; key: number; events: number; finishedFlows: number }
  | { type: 'done'; key: number; events: number; wallMs: number; simulatedPs: number }
  | { type: 'failed'; key: number; error: string };

export function pointDir(sweepDir: string, id: string): string {
  return join(sweepDir, 'points', id);
}

function failedFile(sweepDir: string, id: string): string {
  return join(sweepDir, 'points', `${id}.failed.json`);
}

/** Writes a small file atomically (temporary file + rename). */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the folder itself is missing or not a folder: nothing was written
    }
    // an OS error (a full disk, a read-only folder) names the file it was writing
    if (typeof (e as NodeJS.ErrnoException).code === 'string') throw new UsageError(`cannot write ${path}: ${errorMessage(e)}`);
    throw e;
  }
}

/** What a finished point's manifest says of the build it ran on (issue 40: claims carry it). */
export interface PointProvenance {
  build?: string;
  model?: string;
  /** wall time of the run x threads used, seconds */
  cpuSeconds: number;
}

export type PointState =
  // a state read from the folder has its provenance; one set in memory right after a run may not
  | ({ status: 'done'; events: number | null; wallMs: number | null } & Partial<PointProvenance>)
  | { status: 'failed'; error: string }
  | { status: 'pending' };

/** The state of a point in a sweep folder, from its files. */
export function pointState(sweepDir: string, id: string, hash: string): PointState {
  const manifest = join(pointDir(sweepDir, id), 'manifest.json');
  if (existsSync(manifest)) {
    try {
      const m = JSON.parse(readFileSync(manifest, 'utf8')) as {
        sweep?: { hash?: unknown };
        run?: { events?: unknown; wallMs?: unknown; totalWallMs?: unknown };
        threads?: { used?: unknown };
        build?: unknown;
        model?: unknown;
        incomplete?: unknown;
      };
      // an `incomplete` manifest is the one outdir.ts writes before moving the files in: not finished; nor is a
      // point that lost one of the files its manifest lists (it is run again and its files restored)
      if (m.sweep?.hash === hash && m.incomplete !== true && isCompleteResultDir(pointDir(sweepDir, id))) {
        const events = typeof m.run?.events === 'number' ? m.run.events : null;
        const wallMs = typeof m.run?.wallMs === 'number' ? m.run.wallMs : null;
        const totalMs = typeof m.run?.totalWallMs === 'number' ? m.run.totalWallMs : 0;
        const used = typeof m.threads?.used === 'number' ? m.threads.used : 1;
        return {
          status: 'done',
          events,
          wallMs,
          ...(typeof m.build === 'string' ? { build: m.build } : {}),
          ...(typeof m.model === 'string' ? { model: m.model } : {}),
          cpuSeconds: (totalMs * used) / 1000,
        };
      }
    } catch {
      // unreadable manifest: not finished
    }
  }
  const failed = failedFile(sweepDir, id);
  if (existsSync(failed)) {
    try {
      const f = JSON.parse(readFileSync(failed, 'utf8')) as { hash?: unknown; error?: unknown };
      if (f.hash === hash && typeof f.error === 'string') return { status: 'failed', error: f.error };
    } catch {
      // ignore
    }
  }
  return { status: 'pending' };
}

/**
 * Removes what a killed attempt at this point left behind: staging folders
 * inside the point folder (`.ccsim-staging-*`, experiment/outdir.ts) and
 * temporary siblings of its failure record (`<id>.failed.json.tmp-<pid>-<hex>`).
 * Only names ccsim generates are touched; a point is run by one process at a
 * time (one worker, or one Slurm array task).
 */
export function removeStaleTemp(sweepDir: string, id: string): void {
  const dir = join(sweepDir, 'points');
  if (!existsSync(dir)) return;
  const esc = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^${esc}\\.failed\\.json\\.tmp-\\d+-[0-9a-f]{8}$`);
  for (const e of readdirSync(dir)) if (re.test(e)) rmSync(join(dir, e), { force: true });
  const pdir = pointDir(sweepDir, id);
  if (!existsSync(pdir)) return;
  for (const e of readdirSync(pdir)) if (e.startsWith(STAGING_PREFIX)) rmSync(join(pdir, e), { recursive: true, force: true });
}

/**
 * Runs one point: validates and resolves its spec, simulates, writes its
 * folder atomically. Never throws: a failure is returned (and recorded in
 * points/<id>.failed.json).
 */
export function runPoint(job: PointJob, onProgress?: (events: number, finishedFlows: number) => void): WorkerReply {
  const startedAt = new Date();
  const t0 = performance.now();
  try {
    removeStaleTemp(job.sweepDir, job.id);
    const spec = parseSpec(job.raw, job.specPath);
    const input = resolveSpec(spec, job.specDir, {}, { raw: job.raw, file: job.specPath });
    const r = runResolved(spec, job.raw, input, pointDir(job.sweepDir, job.id), {
      specPath: job.specPath,
      startedAt,
      t0,
      ...(onProgress ? { onProgress: (_now: number, _end: number, events: number, finished: number) => onProgress(events, finished) } : {}),
      sweep: { name: job.sweepName, index: job.index, id: job.id, label: job.label, vars: job.vars, hash: job.hash },
    });
    rmSync(failedFile(job.sweepDir, job.id), { force: true });
    return { type: 'done', key: job.key, events: r.output.events, wallMs: r.output.wallMs, simulatedPs: r.output.endPs };
  } catch (e) {
    const error = e instanceof SpecError ? e.lines().join('; ') : errorMessage(e);
    try {
      writeFileAtomic(
        failedFile(job.sweepDir, job.id),
        JSON.stringify({ index: job.index, id: job.id, hash: job.hash, error, at: new Date().toISOString() }, null, 2) + '\n',
      );
    } catch {
      // the error is still returned
    }
    return { type: 'failed', key: job.key, error };
  }
}
