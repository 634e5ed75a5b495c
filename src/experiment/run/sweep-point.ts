/**
 * Running one sweep point into its folder (the folder's layout and reading a point's state:
 * experiment/results/points.ts).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage, SpecError } from '../../engine/errors.js';
import { parseSpec, resolveSpec } from '../spec/resolve.js';
import { STAGING_PREFIX } from '../results/outdir.js';
import { failedFile, pointDir, writeFileAtomic } from '../results/points.js';
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

/**
 * Removes what a killed attempt at this point left behind: staging folders
 * inside the point folder (`.ccsim-staging-*`, experiment/results/outdir.ts) and
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
