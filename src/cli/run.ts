/** `ccsim run` and `ccsim validate`: they load the spec modules, and the simulator or sweep planner only when used. */
import { loadSpecPlugins } from '../experiment/plugins.js';
import { loadAndResolve, readSpecFile } from '../experiment/resolve.js';
import { formatTime } from '../engine/units.js';
import type { CalibrationResult } from '../experiment/calibration-cache.js';
import { fmtInt, out, plural, printRunSummary } from './format.js';

/** The spec file's data, or undefined when it cannot be read (loading it again reports why). */
function readRaw(path: string): { raw: unknown } | undefined {
  try {
    return { raw: readSpecFile(path) };
  } catch {
    return undefined;
  }
}

/** Does the spec data have a `sweep:` block? */
function isSweep(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'sweep' in raw;
}

export async function runCommand(
  spec: string,
  o: { out?: string; seed?: number; quiet?: boolean; quick?: boolean; threads?: number; explainPartition?: boolean },
): Promise<void> {
  const quiet = o.quiet === true;
  if (o.explainPartition === true) {
    await loadSpecPlugins(spec);
    const { loaded, input } = loadAndResolve(spec, o.seed !== undefined ? { seed: o.seed } : {}, { quick: o.quick === true });
    const { planThreads, partitionTable } = await import('../experiment/threads.js');
    const requested = o.threads ?? loaded.spec.threads;
    for (const line of partitionTable(input.topology, planThreads(input.topology, requested, o.threads !== undefined ? 'option' : 'spec'))) out(line);
    return;
  }
  const { runExperiment } = await import('../experiment/runner.js');
  const r = await runExperiment(spec, {
    ...(o.out !== undefined ? { out: o.out } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.threads !== undefined ? { threads: o.threads } : {}),
    quick: o.quick === true,
    quiet,
    progress: !quiet && process.stderr.isTTY === true && !process.env['CI'],
    progressLines: !quiet && (process.stderr.isTTY !== true || process.env['CI'] !== undefined),
  });
  if (!quiet) printRunSummary(r, r.input.cc.name);
}

/** 1.2k, 3.4M, 5.6G */
function fmtCount(n: number): string {
  if (!Number.isFinite(n)) return '-';
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

/** Seconds as "0.4 s", "42 s", "3.1 min", "2.5 h". */
export function fmtSecs(s: number): string {
  if (!Number.isFinite(s)) return '-';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${(s / 60).toFixed(1)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

/** Where the event rate came from: a measurement just now, or the cached one (experiment/calibration-cache.ts). */
function rateNote(c: { eventsPerSec: number; cached: boolean; measuredAt: string }): string {
  const rate = `${fmtCount(c.eventsPerSec)} events/s`;
  return c.cached ? `${rate}, measured ${c.measuredAt.slice(0, 10)} and cached, --recalibrate to measure again` : `${rate} measured just now`;
}

async function calibration(recalibrate: boolean | undefined): Promise<CalibrationResult> {
  const { cachedCalibration } = await import('../experiment/calibration-cache.js');
  return await cachedCalibration({ recalibrate: recalibrate === true });
}

export async function validateCommand(
  spec: string,
  o: { seed?: number; quick?: boolean; estimate?: boolean; jobs?: number; recalibrate?: boolean },
): Promise<void> {
  await loadSpecPlugins(spec); // the spec's own CCs, workloads, ... before it is checked (experiment/plugins.ts)
  const read = readRaw(spec);
  if (read !== undefined && isSweep(read.raw)) {
    await import('../../experiments/index.js');
    const { planSweep } = await import('../experiment/sweep.js');
    const plan = planSweep(spec, { quick: o.quick === true });
    const flows = plan.points.reduce((a, p) => a + p.flows, 0);
    out(`ok: ${plan.name}: sweep of ${plan.points.length} points over ${plan.fields.map((f) => f.path).join(', ')} (${fmtInt(flows)} flows in all)`);
    if (o.estimate === false) return;
    const { estimateSweepCost, SLOW_RUN_SECS } = await import('../experiment/estimate-cost.js');
    const { availableParallelism } = await import('node:os');
    const cal = await calibration(o.recalibrate);
    const e = estimateSweepCost(plan.points, o.jobs ?? Math.max(1, availableParallelism() - 1), cal);
    out(
      `  cost: ${plural(e.points, 'point')}, ${plural(e.flows, 'flow')}, ${plural(e.packets, 'data packet')}, ~${fmtCount(e.events)} events; ` +
        `~${fmtSecs(e.wallSecs)} of wall time here on ${plural(e.jobs, 'worker')} (longest point ~${fmtSecs(e.longestSecs)}; ` +
        `${rateNote(cal)}; a factor of 2 either way)`,
    );
    if (e.wallSecs > SLOW_RUN_SECS) {
      out(`  warning: this sweep would take more than ${SLOW_RUN_SECS / 60} minutes; check durations, loads and sizes (a \`quick:\` block and --quick for trials)`);
    }
    return;
  }
  const { loaded, input } = loadAndResolve(spec, o.seed !== undefined ? { seed: o.seed } : {}, { quick: o.quick === true, ...read });
  const hosts = input.topology.hostCount;
  const switches = input.topology.nodes.length - hosts;
  out(`ok: ${loaded.spec.name}: ${plural(hosts, 'host')}, ${plural(switches, 'switch', 'switches')}, ${plural(input.flows.length, 'flow')}, cc ${input.cc.name}`);
  if (o.estimate === false) return;
  const { estimateCost, SLOW_RUN_SECS } = await import('../experiment/estimate-cost.js');
  const cal = await calibration(o.recalibrate);
  const e = estimateCost(input, cal);
  out(
    `  cost: ${plural(e.flows, 'flow')}, ${plural(e.packets, 'data packet')}, ~${fmtCount(e.events)} events (${e.eventsPerPacket.toFixed(1)} per packet), ` +
      `~${fmtSecs(e.wallSecs)} of wall time here (${rateNote(cal)}; a factor of 2 either way)`,
  );
  const notable = e.periodic.filter((c) => c.events >= 0.01 * e.events || c.rows >= 100_000);
  if (notable.length > 0) {
    const items = notable.map((c) => `${fmtCount(c.firings)} ${c.what} every ${formatTime(c.periodPs)}${c.rows > 0 ? ` (${fmtCount(c.rows)} rows)` : ''}`);
    out(`  timers and samplers: ~${fmtCount(e.timerEvents)} of those events, ${fmtCount(e.sampleRows)} sample rows: ${items.join('; ')}`);
  }
  if (e.wallSecs > SLOW_RUN_SECS) {
    out(`  warning: this run would take more than ${SLOW_RUN_SECS / 60} minutes; check durations, loads and sizes (a shorter \`duration\`, or a \`quick:\` block for trials)`);
  }
}
