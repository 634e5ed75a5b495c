/**
 * One experiment end to end: load + validate + resolve the spec (every error
 * before anything is simulated or written), simulate, summarize, write the
 * result directory.
 */
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { formatTime } from '../../engine/units.js';
import { binSetsByName, customBinSet, runSummary, type BinSet, type RunSummary } from '../../metrics/summary.js';
import { throughputNotes } from '../../sim/notes.js';
import { UsageError, errorMessage } from '../../engine/errors.js';
import { ensureOutDir, prepareOutDir, removeCreatedDirs, type OutDirPlan } from '../results/outdir.js';
import { FctStream, resultFileNames, writeResults } from './output.js';
import { loadSpecPlugins, loadedPluginFiles } from './plugins.js';
import { entryUrl } from '../../workload/package-root.js';
import { loadAndResolve } from '../spec/resolve.js';
import { simulate } from '../../sim/simulate.js';
import { parallelUnsupported, runParallel } from '../../sim/parallel/parallel.js';
import { MAX_THREADS, type Spec } from '../spec/spec.js';
import type { SimInput, SimOutput } from '../../sim/types.js';
import { planThreads, threadRecord, type ThreadPlan } from '../../sim/parallel/threads.js';

export interface RunOptions {
  /** plug-in modules to load before the spec is checked, relative to the working folder (besides the spec's own `plugins:`) */
  plugins?: readonly string[];
  /** result folder; default results/<spec name> (results/<name>-seed<n> with another seed) */
  out?: string;
  /** overrides the spec's seed */
  seed?: number;
  /** show a progress bar (the CLI passes stdout.isTTY && !CI) */
  progress?: boolean;
  /** without a progress bar: a progress line at each 10 % (the CLI passes it when stderr is no terminal) */
  progressLines?: boolean;
  /** no progress output at all */
  quiet?: boolean;
  /** where the progress bar goes (default process.stderr) */
  progressStream?: NodeJS.WritableStream;
  /** apply the spec's `quick:` block */
  quick?: boolean;
  /** worker threads for this run; overrides the spec's `threads` (sim/parallel/threads.ts) */
  threads?: number;
  /** turn on the per-flow FCT breakdown, as `metrics: { breakdown: true }` does */
  breakdown?: boolean;
  /** called with the resolved input before it runs (the CLI prints its cost estimate) */
  beforeRun?: (input: SimInput) => void | Promise<void>;
}

export interface RunResult {
  outDir: string;
  output: SimOutput;
  summary: RunSummary;
  spec: Spec;
  input: SimInput;
  /** names of the files written in outDir */
  files: string[];
  /** the threads asked for and used (sim/parallel/threads.ts) */
  threads: ThreadPlan;
}

/** The bin sets a spec asks for: the named ones (metrics.binSets), then its own bins (metrics.bins) if any. */
export function specBinSets(spec: Spec): BinSet[] {
  const sets = binSetsByName(spec.metrics.binSets);
  const bins = spec.metrics.bins;
  if (bins !== undefined) {
    sets.push(
      customBinSet(
        bins.map((b) => {
          const max = b.max === 'inf' ? Infinity : b.max;
          return { label: b.label ?? `(${b.min} B, ${max === Infinity ? 'inf)' : `${max} B]`}`, minBytes: b.min, maxBytes: max };
        }),
      ),
    );
  }
  return sets;
}

/**
 * Default result folder of a spec run with `seed`: results/<name> for the
 * spec's own seed, results/<name>-seed<n> for any other, so runs that differ
 * only in their seed keep their own results.
 */
export function defaultOutDir(spec: Spec, seed: number = spec.seed): string {
  return join('results', seed === spec.seed ? spec.name : `${spec.name}-seed${seed}`);
}

interface Progress {
  onProgress: NonNullable<SimInput['onProgress']>;
  /** the run completed: show 100% */
  finish: (endPs: number, events: number) => void;
  /** the run failed: leave the bar where it stood */
  abort: () => void;
}

/**
 * A progress bar. With a hard stop (`stop.at`) it measures simulated time
 * against the stop time; when running until every flow has finished it
 * measures the work done: payload bytes acknowledged out of all flows' bytes
 * (flows not yet started count as outstanding), so it does not sit near the
 * end while the last flows drain. The bar changes no terminal modes (cursor
 * and line wrap stay as they are), so an interrupted run (Ctrl-C) leaves the
 * terminal as it found it.
 */
function makeProgress(input: SimInput, stream: NodeJS.WritableStream): Progress {
  const untilDone = input.stopAtPs === null;
  const bar = new cliProgress.SingleBar(
    {
      format: untilDone
        ? 'simulating {bar} {percentage}% of bytes delivered | ETA {eta_formatted} | {sim} simulated | {flows} flows left | {eps} events/s'
        : 'simulating {bar} {percentage}% | ETA {eta_formatted} | {sim} / {end} simulated | {eps} events/s',
      hideCursor: false,
      linewrap: true,
      clearOnComplete: false,
      barsize: 30,
      stream,
    },
    cliProgress.Presets.shades_classic,
  );
  const t0 = performance.now();
  let started = false;
  let lastFlowsLeft = input.flows.length;
  const show = (nowPs: number, endPs: number, events: number, flowsLeft: number, value: number): void => {
    const secs = (performance.now() - t0) / 1000;
    const payload = {
      sim: formatTime(nowPs),
      end: formatTime(endPs),
      flows: flowsLeft.toLocaleString('en-US'),
      eps: secs > 0 ? Math.round(events / secs).toLocaleString('en-US') : '-',
    };
    if (!started) {
      bar.start(1000, value, payload);
      started = true;
    } else bar.update(value, payload);
  };
  return {
    onProgress(nowPs, endPs, events, finished, total, ackedBytes, totalBytes) {
      lastFlowsLeft = total - finished;
      const frac = untilDone ? (totalBytes > 0 ? ackedBytes / totalBytes : 0) : endPs > 0 ? nowPs / endPs : 0;
      // until done: never show 100% before the run has actually finished
      const cap = untilDone ? 999 : 1000;
      show(nowPs, endPs, events, lastFlowsLeft, Math.min(cap, Math.round(frac * 1000)));
    },
    finish(endPs, events) {
      if (!started) return;
      show(endPs, input.stopAtPs ?? endPs, events, lastFlowsLeft, 1000);
      bar.stop();
    },
    abort() {
      if (started) bar.stop();
    },
  };
}

/** Seconds as "42 s", "3 min 5 s", "1 h 2 min". */
function formatSecs(s: number): string {
  if (!Number.isFinite(s)) return '-';
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/**
 * Progress without a terminal (a log file, a batch job): one line at each
 * 10 % of the work (as the bar measures it) with the time left at the rate so far.
 */
function makeLineProgress(input: SimInput, stream: NodeJS.WritableStream): Progress {
  const untilDone = input.stopAtPs === null;
  const t0 = performance.now();
  let next = 1;
  return {
    onProgress(nowPs, endPs, events, finished, total, ackedBytes, totalBytes) {
      const frac = untilDone ? (totalBytes > 0 ? ackedBytes / totalBytes : 0) : endPs > 0 ? nowPs / endPs : 0;
      const tenth = Math.floor(Math.min(frac, 0.999) * 10);
      if (tenth < next) return;
      next = tenth + 1;
      const secs = (performance.now() - t0) / 1000;
      const eta = frac > 0 ? (secs * (1 - frac)) / frac : Infinity;
      stream.write(
        `progress: ${tenth * 10}% ${untilDone ? 'of bytes delivered' : 'of simulated time'}, ${formatTime(nowPs)} simulated, ` +
          `${(total - finished).toLocaleString('en-US')} flows left, ${events.toLocaleString('en-US')} events, ${formatSecs(secs)} elapsed, ETA ${formatSecs(eta)}\n`,
      );
    },
    finish() {},
    abort() {},
  };
}

/**
 * Runs the experiment described by the spec file at `specPath` and writes its
 * result directory. Spec problems throw SpecError before anything runs; a
 * failure while simulating or writing leaves any previous result untouched.
 */
export async function runExperiment(specPath: string, opts: RunOptions = {}): Promise<RunResult> {
  const startedAt = new Date();
  const t0 = performance.now();
  if (opts.threads !== undefined && !(Number.isInteger(opts.threads) && opts.threads >= 1 && opts.threads <= MAX_THREADS)) {
    throw new UsageError(`--threads: must be an integer from 1 to ${MAX_THREADS}, got ${opts.threads}`);
  }
  // plug-in modules before the spec's names are checked (experiment/run/plugins.ts)
  await loadSpecPlugins(specPath, opts.plugins);
  const { loaded, input } = loadAndResolve(specPath, { ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.breakdown === true ? { breakdown: true } : {}) }, { quick: opts.quick === true });
  const spec = loaded.spec;
  const outDir = opts.out ?? defaultOutDir(spec, input.seed);
  // before simulating: the folder can be created and written, and nothing there is someone else's
  const plan = prepareOutDir(outDir, resultFileNames(spec, input));
  await opts.beforeRun?.(input);

  const stream = opts.progressStream ?? process.stderr;
  const threads = planThreads(input.topology, opts.threads ?? spec.threads, opts.threads !== undefined ? 'option' : 'spec', undefined, parallelUnsupported(input));
  if (opts.quiet !== true) for (const n of threads.notes) stream.write(`threads: ${n}\n`);
  const notesBefore = threads.notes.length;
  const progress =
    opts.quiet === true ? undefined : opts.progress === true ? makeProgress(input, stream) : opts.progressLines === true ? makeLineProgress(input, stream) : undefined;
  let ok = false;
  try {
    const r = runResolved(spec, loaded.raw, input, plan, {
      specPath,
      startedAt,
      t0,
      threads,
      ...(progress ? { onProgress: progress.onProgress } : {}),
    });
    ok = true;
    progress?.finish(r.output.endPs, r.output.events);
    // notes of the run itself (starved threads, a fallback to one thread)
    if (opts.quiet !== true) for (const n of threads.notes.slice(notesBefore)) stream.write(`threads: ${n}\n`);
    return r;
  } finally {
    if (!ok) progress?.abort();
  }
}

/**
 * A note when the run's threads got much less processor time than their number (another
 * process held a core: the window barrier then makes every thread wait for the slowest,
 * issue 45): below 60 % of `threads` cores over a run of 2 s or more. Undefined otherwise.
 */
export function starvationNote(wallMs: number, cpu: NodeJS.CpuUsage, threads: number): string | undefined {
  if (wallMs < 2000) return undefined;
  const cores = (cpu.user + cpu.system) / 1000 / wallMs;
  if (cores >= 0.6 * threads) return undefined;
  return `the ${threads} threads got ${cores.toFixed(1)} cores' time over ${(wallMs / 1000).toFixed(1)} s (the others were busy, e.g. with another process): a run on starved threads waits at every window; --threads 1 may be faster on this machine now`;
}

/**
 * `simulate` on the plan's threads: the parallel engine when the plan uses more than one, on
 * one thread when it does not, or when a worker needs the whole network (the plan says so).
 */
function simulateThreads(input: SimInput, threads: ThreadPlan): SimOutput {
  if (threads.used > 1 && threads.partitioning !== null) {
    const wall0 = performance.now();
    const cpu0 = process.cpuUsage();
    // the worker threads load the plug-in modules this thread loaded (./parallel-worker.ts)
    const workerUrl = entryUrl(import.meta.url, './parallel-worker.js', './parallel-worker.mjs');
    const out = runParallel(input, threads.partitioning, undefined, { workerUrl, workerSetup: { plugins: loadedPluginFiles() } });
    const starved = starvationNote(performance.now() - wall0, process.cpuUsage(cpu0), threads.used);
    if (starved !== undefined) threads.notes.push(starved);
    if (out !== null) return out;
    threads.notes.push('a switch port met the deadlock check\'s precondition, which needs the whole network: the run was done again on one thread');
    threads.used = 1;
  }
  return simulate(input);
}

export interface ResolvedRunOptions {
  specPath?: string;
  startedAt: Date;
  /** performance.now() when loading started (for the manifest's total wall time) */
  t0: number;
  onProgress?: SimInput['onProgress'];
  /** sweep point description recorded in the manifest */
  sweep?: Record<string, unknown>;
  /** the thread plan (default: the spec's `threads`) */
  threads?: ThreadPlan;
}

/**
 * Simulates a resolved spec, summarizes it and writes its result folder
 * (outdir.ts rules). A folder path is checked before simulating; a plan from
 * prepareOutDir has been checked already.
 */
export function runResolved(spec: Spec, raw: unknown, input: SimInput, out: string | OutDirPlan, o: ResolvedRunOptions): RunResult {
  const plan = typeof out === 'string' ? prepareOutDir(out, resultFileNames(spec, input)) : out;
  const outDir = plan.shown;
  const threads = o.threads ?? planThreads(input.topology, spec.threads, 'spec', undefined, parallelUnsupported(input));
  // FCT rows go to a scratch file in the result folder as flows finish, so a run of millions of flows never holds them
  const createdTop = ensureOutDir(plan);
  let fct: FctStream;
  try {
    fct = new FctStream(spec.output.format, plan.dir, input.metrics.breakdown === true);
  } catch (e) {
    removeCreatedDirs(plan, createdTop);
    throw new UsageError(`cannot write results to ${outDir}: ${errorMessage(e)}`);
  }
  let ok = false;
  try {
    const output = simulateThreads({ ...input, fctSink: fct.sink, ...(o.onProgress ? { onProgress: o.onProgress } : {}) }, threads);
    const summary = runSummary(output, specBinSets(spec), { percentile: spec.metrics.percentile }, throughputNotes(input, output));
    const files = writeResults(plan, {
      spec,
      raw,
      input,
      output,
      summary,
      fctStream: fct,
      info: {
        ...(o.specPath !== undefined ? { specPath: o.specPath } : {}),
        startedAt: o.startedAt,
        totalWallMs: Math.round(performance.now() - o.t0),
        ...(o.sweep !== undefined ? { sweep: o.sweep } : {}),
        threads: threadRecord(threads),
      },
    });
    ok = true;
    return { outDir, output, summary, spec, input, files, threads };
  } catch (e) {
    // a write error of the scratch stream (a full disk) names the folder
    if (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && !(e instanceof UsageError)) {
      throw new UsageError(`cannot write results to ${outDir}: ${errorMessage(e)}`);
    }
    throw e;
  } finally {
    fct.dispose();
    if (!ok) removeCreatedDirs(plan, createdTop);
  }
}
