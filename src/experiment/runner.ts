/**
 * One experiment end to end: load + validate + resolve the spec (every error
 * before anything is simulated or written), simulate, summarize, write the
 * result directory.
 */
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { formatTime } from '../engine/units.js';
import { DEFAULT_BINS, runSummary, type RunSummary, type SizeBin } from '../metrics/summary.js';
import { checkOutDir, writeResults } from './output.js';
import { loadAndResolve } from './resolve.js';
import { simulate } from './simulate.js';
import type { Spec } from './spec.js';
import type { SimInput, SimOutput } from './types.js';

export interface RunOptions {
  /** result directory; default results/<spec name> */
  out?: string;
  /** overrides the spec's seed */
  seed?: number;
  /** show a progress bar (the CLI passes stdout.isTTY && !CI) */
  progress?: boolean;
  /** no progress output at all */
  quiet?: boolean;
  /** apply the spec's `quick:` block */
  quick?: boolean;
}

export interface RunResult {
  outDir: string;
  output: SimOutput;
  summary: RunSummary;
  spec: Spec;
  input: SimInput;
  /** names of the files written in outDir */
  files: string[];
}

/** The summary size bins a spec asks for (metrics.bins), or the defaults. */
export function specBins(spec: Spec): readonly SizeBin[] {
  const bins = spec.metrics.bins;
  if (bins === undefined) return DEFAULT_BINS;
  return bins.map((b) => {
    const max = b.max === 'inf' ? Infinity : b.max;
    return { label: b.label ?? `(${b.min},${max === Infinity ? 'inf' : max}]`, minBytes: b.min, maxBytes: max };
  });
}

/** Default result directory of a spec. */
export function defaultOutDir(spec: Spec): string {
  return join('results', spec.name);
}

interface Progress {
  onProgress: (nowPs: number, endPs: number, events: number) => void;
  /** the run completed: show 100% and release the terminal */
  finish: (endPs: number, events: number) => void;
  /** the run failed: leave the bar where it stood */
  abort: () => void;
}

/**
 * A progress bar over simulated time. With a hard stop the bar runs to the
 * stop time; when running until every flow finished it runs to the last flow
 * arrival (the end is unknown), and jumps to 100% when the run completes.
 */
function makeProgress(input: SimInput): Progress {
  const untilDone = input.stopAtPs === null;
  const lastArrival = input.flows.reduce((m, f) => Math.max(m, f.startPs), 0);
  const bar = new cliProgress.SingleBar(
    {
      format: untilDone
        ? 'simulating {bar} {percentage}% | {sim} simulated (last arrival at {end}) | {eps} events/s'
        : 'simulating {bar} {percentage}% | {sim} / {end} simulated | {eps} events/s',
      hideCursor: true,
      clearOnComplete: false,
      barsize: 30,
    },
    cliProgress.Presets.shades_classic,
  );
  const t0 = performance.now();
  let started = false;
  const show = (nowPs: number, refPs: number, events: number, value: number): void => {
    const secs = (performance.now() - t0) / 1000;
    const payload = {
      sim: formatTime(nowPs),
      end: formatTime(refPs),
      eps: secs > 0 ? Math.round(events / secs).toLocaleString('en-US') : '-',
    };
    if (!started) {
      bar.start(1000, value, payload);
      started = true;
    } else bar.update(value, payload);
  };
  return {
    onProgress(nowPs, endPs, events) {
      const ref = untilDone ? Math.max(lastArrival, 1) : endPs;
      // until done: never show 100% before the run has actually finished
      const cap = untilDone ? 999 : 1000;
      show(nowPs, ref, events, ref > 0 ? Math.min(cap, Math.round((nowPs / ref) * 1000)) : 0);
    },
    finish(endPs, events) {
      if (!started) return;
      show(endPs, untilDone ? lastArrival : (input.stopAtPs ?? endPs), events, 1000);
      bar.stop();
    },
    abort() {
      if (started) bar.stop();
    },
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
  const { loaded, input } = loadAndResolve(specPath, opts.seed !== undefined ? { seed: opts.seed } : {}, { quick: opts.quick === true });
  const outDir = opts.out ?? defaultOutDir(loaded.spec);
  checkOutDir(outDir);

  const progress = opts.progress === true && opts.quiet !== true ? makeProgress(input) : undefined;
  let ok = false;
  try {
    const r = runResolved(loaded.spec, loaded.raw, input, outDir, {
      specPath,
      startedAt,
      t0,
      ...(progress ? { onProgress: progress.onProgress } : {}),
    });
    ok = true;
    progress?.finish(r.output.endPs, r.output.events);
    return r;
  } finally {
    if (!ok) progress?.abort();
  }
}

export interface ResolvedRunOptions {
  specPath?: string;
  startedAt: Date;
  /** performance.now() when loading started (for the manifest's total wall time) */
  t0: number;
  onProgress?: SimInput['onProgress'];
  /** sweep point description recorded in the manifest */
  sweep?: Record<string, unknown>;
}

/** Simulates a resolved spec, summarizes it and writes its result directory (atomically). */
export function runResolved(spec: Spec, raw: unknown, input: SimInput, outDir: string, o: ResolvedRunOptions): RunResult {
  const output = simulate(o.onProgress ? { ...input, onProgress: o.onProgress } : input);
  const summary = runSummary(output, specBins(spec), { percentile: spec.metrics.percentile });
  const files = writeResults(outDir, {
    spec,
    raw,
    input,
    output,
    summary,
    info: {
      ...(o.specPath !== undefined ? { specPath: o.specPath } : {}),
      startedAt: o.startedAt,
      totalWallMs: Math.round(performance.now() - o.t0),
      ...(o.sweep !== undefined ? { sweep: o.sweep } : {}),
    },
  });
  return { outDir, output, summary, spec, input, files };
}
