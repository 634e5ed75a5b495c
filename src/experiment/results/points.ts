/**
 * A sweep folder's points: where they live and what state each is in, read from its files
 * (running a point: experiment/run/sweep-point.ts).
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
 * with the manifest last (./outdir.ts), so a killed run leaves no
 * half point that looks finished.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, UsageError } from '../../engine/errors.js';
import { isCompleteResultDir } from './outdir.js';

export function pointDir(sweepDir: string, id: string): string {
  return join(sweepDir, 'points', id);
}

/** The error record of a point whose last attempt failed. */
export function failedFile(sweepDir: string, id: string): string {
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
