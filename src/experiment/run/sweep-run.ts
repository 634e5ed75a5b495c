/**
 * `ccsim sweep`: runs the points of a sweep on worker threads with one progress
 * bar for the whole sweep, skips points already finished (resume after a
 * kill), records failures without stopping the other points, and runs the
 * figure analysis the spec names on the finished points.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { entryUrl } from '../../workload/package-root.js';
import { loadSpecPlugins, loadedPluginFiles } from './plugins.js';
import { findFigure } from '../results/analysis.js';
import { writeSweepParquet } from './sweep-parquet.js';
import type { FigureResult, PointResult } from '../results/analysis.js';
import { UsageError, errorMessage } from '../../engine/errors.js';
import { ccsimVersion } from './output.js';
import { acquireSweepLock, makeDirs, releaseSweepLock } from '../results/outdir.js';
import { planSweep, pointValueText, type SweepPlan, type SweepPoint } from './sweep.js';
import { readOwnedRecord, sealJson } from '../results/ownership.js';
import { pointDir, pointState, writeFileAtomic, type PointState } from '../results/points.js';
import { runPoint, type PointJob, type WorkerReply } from './sweep-point.js';

export interface SweepOptions {
  /** sweep folder; default results/<name> (results/<name>-quick with quick) */
  out?: string;
  /** worker threads; default cores - 1 (at least 1) */
  jobs?: number;
  /** apply the spec's `quick:` block */
  quick?: boolean;
  /** show a progress bar (TTY) instead of one line per point */
  progress?: boolean;
  /** print nothing while running */
  quiet?: boolean;
  /** run the points in this thread (no workers); used by `--point` */
  inline?: boolean;
  /** run only these point indices */
  only?: readonly number[];
  /** called with the points about to run and the workers, before any runs (the CLI prints their cost estimate) */
  beforeRun?: (points: readonly SweepPoint[], jobs: number) => void | Promise<void>;
  /** plug-in modules to load before the spec is checked, relative to the working folder (besides the spec's own `plugins:`) */
  plugins?: readonly string[];
}

export interface FailedPoint {
  index: number;
  label: string;
  error: string;
}

export interface SweepOutcome {
  plan: SweepPlan;
  dir: string;
  /** points run now and finished */
  ran: number;
  /** points finished earlier and skipped */
  skipped: number;
  failed: FailedPoint[];
  /** points finished in total (run now or before) */
  finished: number;
  events: number;
  wallMs: number;
  jobs: number;
  figure?: { id: string; result?: FigureResult; error?: string };
}

export function defaultJobs(): number {
  return Math.max(1, availableParallelism() - 1);
}

export function defaultSweepDir(plan: Pick<SweepPlan, 'name' | 'quick'>): string {
  return join('results', plan.quick ? `${plan.name}-quick` : plan.name);
}

/**
 * A sweep folder may be created, or reused when it is one (its sweep.json is a
 * sealed ccsim record of kind `sweep`: experiment/results/ownership.ts) or empty;
 * anything else is refused, so a mistyped --out never mixes points into
 * unrelated files, and a hand-made sweep.json does not make a folder ccsim's.
 */
export function checkSweepDir(dir: string): void {
  const abs = resolvePath(dir);
  if (!existsSync(abs)) return;
  if (!statSync(abs).isDirectory()) throw new UsageError(`sweep output path exists and is not a directory: ${dir}`);
  const entries = readdirSync(abs);
  if (entries.length === 0) return;
  if (!entries.includes('sweep.json')) {
    throw new UsageError(`output directory ${dir} is not empty and is not a ccsim sweep (no sweep.json); refusing to write into it`);
  }
  if (readOwnedRecord(join(abs, 'sweep.json'), SWEEP_KIND, 'points') === undefined) {
    throw new UsageError(
      `${join(dir, 'sweep.json')} is not a sweep index written by ccsim (no valid ccsim seal: hand-made, edited, or from an older ccsim); refusing to write into ${dir}`,
    );
  }
}

/** The `kind` of a sealed sweep.json. */
export const SWEEP_KIND = 'sweep';

/** A varied value in points.csv: as the point label spells it (a CC with parameters: `dcqcn[variant=paper]`). */
function cellValue(v: unknown): unknown {
  return v !== null && typeof v === 'object' ? pointValueText(v) : v;
}

function csvCell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** sweep.json: the plan (no statuses, no times: the same spec gives the same file). */
export function writeSweepIndex(dir: string, plan: SweepPlan): void {
  const index = {
    ccsim: ccsimVersion(),
    kind: SWEEP_KIND,
    name: plan.name,
    specPath: plan.specPath,
    quick: plan.quick,
    figure: plan.figure ?? null,
    fields: plan.fields.map((f) => f.path),
    points: plan.points.map((p) => ({ index: p.index, id: p.id, dir: `points/${p.id}`, label: p.label, vars: p.vars, hash: p.hash, flows: p.flows, ...(plan.meta.seeds !== undefined ? { seed: p.seed } : {}), ...(plan.meta.perturbations !== undefined ? { perturb: p.perturb } : {}) })),
  };
  writeFileAtomic(join(dir, 'sweep.json'), JSON.stringify(sealJson(index), null, 2) + '\n');
}

/** points.csv: one row per point with its current status. */
export function writePointsCsv(dir: string, plan: SweepPlan, states: ReadonlyMap<number, PointState>): void {
  const head = ['index', 'id', 'status', ...plan.fields.map((f) => f.path), 'events', 'wall_s', 'error'];
  const lines = [head.map(csvCell).join(',')];
  for (const p of plan.points) {
    const st = states.get(p.index) ?? { status: 'pending' };
    const events = st.status === 'done' ? st.events : null;
    const wall = st.status === 'done' && st.wallMs !== null ? Math.round(st.wallMs) / 1000 : null;
    const error = st.status === 'failed' ? st.error : null;
    lines.push([p.index, p.id, st.status, ...plan.fields.map((f) => cellValue(p.vars[f.path])), events, wall, error].map(csvCell).join(','));
  }
  writeFileAtomic(join(dir, 'points.csv'), lines.join('\n') + '\n');
}

function jobOf(key: number, plan: SweepPlan, p: SweepPoint, dir: string): PointJob {
  return {
    key,
    index: p.index,
    id: p.id,
    hash: p.hash,
    vars: p.vars,
    label: p.label,
    raw: p.raw,
    specPath: plan.specPath,
    specDir: plan.specDir,
    sweepName: plan.name,
    sweepDir: dir,
  };
}

interface Reporter {
  progress(finishedFlows: number, events: number): void;
  line(text: string): void;
  pointEnded(ok: boolean): void;
  stop(): void;
}

function fmtCount(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

/** A point's done line fits a 120-column terminal: its label is cut (points.csv and the report have it in full). */
const DONE_LINE_COLUMNS = 120;

function shortLabel(label: string, room: number): string {
  const w = Math.max(24, room);
  return label.length <= w ? label : `${label.slice(0, w - 1)}…`;
}

function makeReporter(opts: SweepOptions, todo: number, totalFlows: number): Reporter {
  const t0 = performance.now();
  if (opts.quiet === true) return { progress() {}, line() {}, pointEnded() {}, stop() {} };
  if (opts.progress !== true) {
    return {
      progress() {},
      line: (text) => process.stdout.write(text + '\n'),
      pointEnded() {},
      stop() {},
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      format: 'sweep {bar} {percentage}% | {done}/{todo} points{failedText} | {eps} events/s | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      barsize: 30,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let done = 0;
  let failed = 0;
  let lastFlows = 0;
  let lastEvents = 0;
  const payload = (): Record<string, string | number> => {
    const secs = (performance.now() - t0) / 1000;
    return { done, todo, failedText: failed > 0 ? ` (${failed} failed)` : '', eps: secs > 0 ? fmtCount(lastEvents / secs) : '-' };
  };
  const bar = multi.create(Math.max(1, totalFlows), 0, payload());
  return {
    progress(finishedFlows, events) {
      lastFlows = finishedFlows;
      lastEvents = events;
      bar.update(Math.min(finishedFlows, totalFlows), payload());
    },
    line: (text) => multi.log(text + '\n'),
    pointEnded(ok) {
      done++;
      if (!ok) failed++;
      bar.update(Math.min(lastFlows, totalFlows), payload());
    },
    stop() {
      multi.stop();
    },
  };
}

/** A planned sweep bound to its folder, with the state of its points. */
export interface SweepTarget {
  plan: SweepPlan;
  dir: string;
  states: Map<number, PointState>;
  /** points to run now */
  todo: SweepPoint[];
  /** selected points already finished */
  skipped: number;
  /** `--point`: only these points, and the index files are left alone */
  partial: boolean;
}

/**
 * Checks the sweep folder, writes its plan (sweep.json) and reads which points
 * are finished. Throws UsageError for a folder that is not a sweep's.
 */
export function prepareSweep(plan: SweepPlan, dir: string, only?: readonly number[]): SweepTarget {
  checkSweepDir(dir);
  if (only !== undefined) {
    for (const i of only) {
      if (!Number.isInteger(i) || i < 0 || i >= plan.points.length) {
        throw new UsageError(`point ${i} does not exist (the sweep has points 0..${plan.points.length - 1})`);
      }
    }
  }
  const pts = join(dir, 'points');
  if (existsSync(pts) && !statSync(pts).isDirectory()) throw new UsageError(`cannot write the sweep to ${dir}: ${pts} exists and is not a folder`);
  try {
    makeDirs(pts); // not mkdirSync(recursive), which says ENOENT on a read-only filesystem
  } catch (e) {
    throw new UsageError(`cannot write the sweep to ${dir}: ${errorMessage(e)}`);
  }
  // one whole sweep per folder at a time (`--point` tasks of a Slurm array share the folder by design)
  if (only === undefined) acquireSweepLock(dir);
  try {
    writeSweepIndex(dir, plan);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot write the sweep to ${dir}: ${errorMessage(e)}`);
  }
  const states = new Map<number, PointState>();
  for (const p of plan.points) states.set(p.index, pointState(dir, p.id, p.hash));
  const selected = only !== undefined ? plan.points.filter((p) => only.includes(p.index)) : plan.points;
  const todo = selected.filter((p) => states.get(p.index)!.status !== 'done');
  return { plan, dir, states, todo, skipped: selected.length - todo.length, partial: only !== undefined };
}

export interface TargetOutcome {
  ran: number;
  failed: FailedPoint[];
  events: number;
}

/**
 * Runs the points to do of one or more sweeps in one pool of worker threads
 * (or inline), with one progress display; updates each sweep's points.csv as
 * points end. Failures are collected, never thrown.
 */
export async function executeSweeps(targets: readonly SweepTarget[], opts: SweepOptions & { jobs: number }): Promise<TargetOutcome[]> {
  const jobs: PointJob[] = [];
  const owner: { t: number; point: SweepPoint }[] = [];
  targets.forEach((t, ti) => {
    for (const p of t.todo) {
      owner.push({ t: ti, point: p });
      jobs.push(jobOf(jobs.length, t.plan, p, t.dir));
    }
  });
  const outcomes: TargetOutcome[] = targets.map(() => ({ ran: 0, failed: [], events: 0 }));
  const totalFlows = owner.reduce((s, o) => s + o.point.flows, 0);
  const rep = makeReporter(opts, jobs.length, totalFlows);
  const many = targets.length > 1;
  let doneEvents = 0;
  let doneFlows = 0;
  let ended = 0;
  const live = new Map<number, { events: number; flows: number }>();

  const onProgress = (key: number, events: number, flows: number): void => {
    live.set(key, { events, flows });
    let e = doneEvents;
    let f = doneFlows;
    for (const v of live.values()) {
      e += v.events;
      f += v.flows;
    }
    rep.progress(f, e);
  };
  const onEnd = (r: Exclude<WorkerReply, { type: 'progress' }>): void => {
    const { t, point: p } = owner[r.key]!;
    const target = targets[t]!;
    const out = outcomes[t]!;
    live.delete(r.key);
    ended++;
    doneFlows += p.flows;
    const tag = `[${ended}/${jobs.length}]`;
    const name = many ? `${target.plan.name} ` : '';
    if (r.type === 'done') {
      out.ran++;
      out.events += r.events;
      doneEvents += r.events;
      target.states.set(p.index, { status: 'done', events: r.events, wallMs: r.wallMs });
      const secs = r.wallMs / 1000;
      const head = `${tag} done   ${name}point ${p.index} (`;
      const tail = `): ${secs.toFixed(2)} s, ${fmtCount(secs > 0 ? r.events / secs : 0)} events/s`;
      rep.line(head + shortLabel(p.label, DONE_LINE_COLUMNS - head.length - tail.length) + tail);
    } else {
      out.failed.push({ index: p.index, label: p.label, error: r.error });
      target.states.set(p.index, { status: 'failed', error: r.error });
      rep.line(`${tag} FAILED ${name}point ${p.index} (${p.label}): ${r.error}`);
    }
    rep.pointEnded(r.type === 'done');
    rep.progress(doneFlows, doneEvents);
    if (!target.partial) writePointsCsv(target.dir, target.plan, target.states);
  };

  try {
    if (opts.inline === true) {
      for (const job of jobs) {
        onEnd(runPoint(job, (events, flows) => onProgress(job.key, events, flows)) as Exclude<WorkerReply, { type: 'progress' }>);
      }
    } else {
      await runOnWorkers(jobs, opts.jobs, onProgress, onEnd);
    }
  } finally {
    rep.stop();
  }
  for (const t of targets) {
    if (t.partial) continue;
    writePointsCsv(t.dir, t.plan, t.states);
    try {
      writeSweepParquet(t.dir, t.plan);
    } catch (e) {
      rep.line(`warning: ${t.plan.name}: flows.parquet not written: ${errorMessage(e)}`);
    }
  }
  return outcomes;
}

/** Worker threads to use for `todo` points. */
export function jobsFor(todo: number, requested?: number): number {
  return Math.max(1, Math.min(requested ?? defaultJobs(), todo));
}

/**
 * Runs the sweep of the experiment file at `specPath`. Spec problems throw
 * SpecError before anything runs or is written. Failed points do not stop the
 * others; they are listed in the outcome.
 */
export async function runSweep(specPath: string, opts: SweepOptions = {}): Promise<SweepOutcome> {
  const t0 = performance.now();
  // plug-in modules before the points are checked; the workers load the same files (experiment/run/plugins.ts)
  await loadSpecPlugins(specPath, opts.plugins);
  const plan = planSweep(specPath, { quick: opts.quick === true });
  const target = prepareSweep(plan, opts.out ?? defaultSweepDir(plan), opts.only);
  const jobs = jobsFor(target.todo.length, opts.jobs);
  if (opts.quiet !== true && opts.only === undefined) {
    const parts = [`${plan.points.length} point${plan.points.length === 1 ? '' : 's'}`];
    if (target.skipped > 0) parts.push(`${target.skipped} already finished`);
    const where = opts.inline === true ? 'this thread' : `${jobs} worker thread${jobs === 1 ? '' : 's'}`;
    process.stdout.write(`sweep ${plan.name}: ${parts.join(', ')}; running ${target.todo.length} on ${where} -> ${target.dir}\n`);
  }
  if (target.todo.length > 0) await opts.beforeRun?.(target.todo, jobs);
  const [r] = await executeSweeps([target], { ...opts, jobs });
  const outcome: SweepOutcome = {
    plan,
    dir: target.dir,
    ran: r!.ran,
    skipped: target.skipped,
    failed: r!.failed,
    finished: [...target.states.values()].filter((s) => s.status === 'done').length,
    events: r!.events,
    wallMs: performance.now() - t0,
    jobs,
  };
  if (plan.figure !== undefined && !target.partial) outcome.figure = analyzeSweep(target.dir, plan, target.states);
  releaseSweepLock(target.dir);
  return outcome;
}

/** Runs the sweep's figure analysis on its finished points and writes figure.json. */
export interface SweepAnalysis {
  id: string;
  result?: FigureResult;
  error?: string;
  /**
   * with `seeds:` or `perturbations:` (issue 40): the claims of each replica's points analysed
   * on their own, in plan order (replicas without finished points left out)
   */
  perReplica?: { seed: number; perturb: number; claims: FigureResult['claims'] }[];
}

/** A point's label without the replica part planSweep appends (` seed=<n>`, then ` perturb=<k>`). */
function withoutReplica(p: { label: string; seed: number; perturb: number }): string {
  let l = p.label;
  for (const tag of [`perturb=${p.perturb}`, `seed=${p.seed}`]) {
    if (l === tag) l = '';
    else if (l.endsWith(` ${tag}`)) l = l.slice(0, l.length - tag.length - 1);
  }
  return l || 'single point';
}

/**
 * Runs the plan's figure analysis on its finished points and writes figure.json. With
 * replicas (`seeds:`, `perturbations:`) the tables come from the first replica's points, and
 * the analysis runs once more per replica for the claims (`perReplica`), which the claims view
 * aggregates into a mean with its 95 % interval.
 */
export function analyzeSweep(dir: string, plan: SweepPlan, states: ReadonlyMap<number, PointState>): SweepAnalysis {
  const id = plan.figure!;
  const fig = findFigure(id);
  if (fig === undefined) return { id, error: `unknown figure analysis ${id}` };
  const done = plan.points.filter((p) => states.get(p.index)?.status === 'done');
  const replicated = plan.meta.seeds !== undefined || plan.meta.perturbations !== undefined;
  const replicas: { seed: number; perturb: number }[] = [];
  for (const p of plan.points) if (!replicas.some((r) => r.seed === p.seed && r.perturb === p.perturb)) replicas.push({ seed: p.seed, perturb: p.perturb });
  // every replica's points carry the labels of the first replica's, so claim ids match across replicas
  const labelOf = (p: (typeof done)[number]): string => (replicated ? withoutReplica(p) : p.label);
  const of = (pts: typeof done): PointResult[] => pts.map((p) => ({ dir: pointDir(dir, p.id), vars: p.vars, label: labelOf(p) }));
  const isRep = (r: { seed: number; perturb: number }) => (p: (typeof done)[number]): boolean => p.seed === r.seed && p.perturb === r.perturb;
  const points = of(replicated ? done.filter(isRep(replicas[0]!)) : done);
  if (points.length === 0) return { id, error: replicated ? `no finished points of the first replica (seed ${replicas[0]!.seed}, perturb ${replicas[0]!.perturb}) to analyze` : 'no finished points to analyze' };
  try {
    const result = fig.analyze(points);
    const out: SweepAnalysis = { id, result };
    if (replicated) {
      out.perReplica = replicas
        .map((r, i) => ({ ...r, i, pts: done.filter(isRep(r)) }))
        .filter((x) => x.pts.length > 0)
        .map((x) => ({ seed: x.seed, perturb: x.perturb, claims: x.i === 0 ? result.claims : fig.analyze(of(x.pts)).claims }));
    }
    writeFileAtomic(join(dir, 'figure.json'), JSON.stringify({ id, title: fig.title, paper: fig.paper, ...result, ...(out.perReplica ? { perReplica: out.perReplica } : {}) }, null, 2) + '\n');
    return out;
  } catch (e) {
    return { id, error: errorMessage(e) };
  }
}

/** A pool of worker threads fed from a queue; a crashed worker fails its point and is replaced. */
function runOnWorkers(
  queue: PointJob[],
  jobs: number,
  onProgress: (key: number, events: number, flows: number) => void,
  onEnd: (r: Exclude<WorkerReply, { type: 'progress' }>) => void,
): Promise<void> {
  const pending = [...queue];
  let active = 0;
  return new Promise<void>((resolveAll) => {
    if (pending.length === 0) {
      resolveAll();
      return;
    }
    const spawn = (): void => {
      const job = pending.shift();
      if (job === undefined) {
        if (active === 0) resolveAll();
        return;
      }
      active++;
      const w = new Worker(entryUrl(import.meta.url, './sweep-worker.js', './sweep-worker.mjs'), { workerData: { plugins: loadedPluginFiles() } });
      let current: PointJob | undefined = job;
      const next = (): void => {
        current = pending.shift();
        if (current !== undefined) w.postMessage(current);
        else {
          void w.terminate();
        }
      };
      w.on('message', (r: WorkerReply) => {
        if (r.type === 'progress') onProgress(r.key, r.events, r.finishedFlows);
        else {
          onEnd(r);
          next();
        }
      });
      w.on('error', (e) => {
        if (current !== undefined) {
          onEnd({ type: 'failed', key: current.key, error: `worker crashed: ${errorMessage(e)}` });
          current = undefined;
        }
      });
      w.on('exit', () => {
        active--;
        if (current !== undefined) {
          onEnd({ type: 'failed', key: current.key, error: 'worker exited unexpectedly' });
          current = undefined;
        }
        // a crashed worker's queue share goes to a fresh worker
        if (pending.length > 0) spawn();
        else if (active === 0) resolveAll();
      });
      w.postMessage(job);
    };
    for (let i = 0; i < jobs; i++) spawn();
  });
}
