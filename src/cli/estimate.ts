/**
 * The cost estimate as the CLI prints it: `validate` (in full), and `run`,
 * `sweep` and `reproduce` before they start (one line; they ask nothing and
 * go on). The numbers come from experiment/run/estimate-cost.ts with the cached
 * calibration of this machine (experiment/run/calibration-cache.ts).
 */
import { formatTime } from '../engine/units.js';
import type { CalibrationResult } from '../experiment/run/calibration-cache.js';
import type { CostEstimate, RunBasis, SweepCostEstimate } from '../experiment/run/estimate-cost.js';
import { fmtInt, out, plural } from './format.js';

/** 1.2k, 3.4M, 5.6G */
export function fmtCount(n: number): string {
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

/** Bytes as "95 MB", "1.3 GB". */
export function fmtMem(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
}

/** Where the event rate came from: a measurement just now, or the cached one. */
export function rateNote(c: { eventsPerSec: number; cached: boolean; measuredAt: string }): string {
  const rate = `${fmtCount(c.eventsPerSec)} events/s`;
  return c.cached ? `${rate}, measured ${c.measuredAt.slice(0, 10)} and cached, --recalibrate to measure again` : `${rate} measured just now`;
}

/** This machine's calibration (cached; measured once, most of a second, when there is none). */
export async function calibration(recalibrate?: boolean): Promise<CalibrationResult> {
  const { cachedCalibration } = await import('../experiment/run/calibration-cache.js');
  return await cachedCalibration({ recalibrate: recalibrate === true });
}

/** "(405k of 2.0M data packets before stop.at, 1 ms)" when the end cuts the flows short, else "". */
function cutNote(b: Pick<RunBasis, 'sentPackets' | 'packets' | 'endPs'>, endField: string): string {
  if (b.sentPackets >= 0.99 * b.packets) return '';
  return ` (~${fmtCount(b.sentPackets)} of them before ${endField} ${formatTime(b.endPs)} ends the run)`;
}

/** The spec field that ends the run. */
export function endFieldOf(stopAtPs: number | null): string {
  return stopAtPs !== null ? 'stop.at' : 'stop.maxTime';
}

/** `validate`'s cost lines for one run. */
export function printRunCost(e: CostEstimate, cal: CalibrationResult, endField: string): void {
  out(
    `  cost: ${plural(e.flows, 'flow')}, ${plural(e.packets, 'data packet')}${cutNote(e, endField)}, ~${fmtCount(e.events)} events (${e.runEventsPerPacket.toFixed(1)} per packet), ` +
      `~${fmtSecs(e.wallSecs)} of wall time here, ~${fmtMem(e.memoryBytes)} of memory (${rateNote(cal)}; a factor of 2 either way)`,
  );
  // a noticeable part of the cost: 5 % of the events, or rows enough to matter on disk
  const notable = e.periodic.filter((c) => c.events >= 0.05 * e.events || c.rows >= 100_000);
  if (notable.length > 0) {
    const items = notable.map((c) => `${fmtCount(c.firings)} ${c.what} every ${formatTime(c.periodPs)}${c.rows > 0 ? ` (${fmtCount(c.rows)} rows)` : ''}`);
    out(`  timers and samplers: ~${fmtCount(e.timerEvents)} of those events, ${fmtCount(e.sampleRows)} sample rows: ${items.join('; ')}`);
  }
}

/** `validate`'s cost line for a sweep. */
export function printSweepCost(e: SweepCostEstimate, cal: CalibrationResult): void {
  const cut = e.sentPackets < 0.99 * e.packets ? ` (~${fmtCount(e.sentPackets)} of them before the points' stop times)` : '';
  out(
    `  cost: ${plural(e.points, 'point')}, ${plural(e.flows, 'flow')}, ${plural(e.packets, 'data packet')}${cut}, ~${fmtCount(e.events)} events; ` +
      `~${fmtSecs(e.wallSecs)} of wall time here on ${plural(e.jobs, 'worker')} (longest point ~${fmtSecs(e.longestSecs)}), ~${fmtMem(e.memoryBytes)} of memory; ` +
      `${rateNote(cal)}; a factor of 2 either way`,
  );
}

/**
 * A warning when most of a run's flows cannot run: they start at or after the
 * run's end, or start so late that they cannot finish before it even at line
 * rate (Poisson arrivals over 1 s with `stop.at: 1ms`). Undefined when not.
 * Long flows that all start in time (a long-flow experiment's stop time) are
 * no reason to warn.
 */
export function cutShortWarning(b: Pick<RunBasis, 'flows' | 'startLate' | 'cannotFinish' | 'endPs'>, endField: string): string | undefined {
  const listed = b.flows;
  if (listed === 0 || b.startLate === 0) return undefined;
  if (b.startLate + b.cannotFinish <= 0.5 * listed) return undefined;
  return (
    `warning: ${fmtInt(b.startLate)} of ${plural(listed, 'flow')} start at or after ${endField} (${formatTime(b.endPs)}) and ${fmtInt(b.cannotFinish)} more cannot finish before it even at line rate; ` +
    `end the workload's arrivals (its duration) before ${endField}, or move ${endField} later`
  );
}

/** The one line `run` prints before it starts (±2x: a factor of 2 either way, as `validate` says). */
export async function printRunEstimate(basis: RunBasis, stopAtPs: number | null): Promise<void> {
  const { costOf } = await import('../experiment/run/estimate-cost.js');
  const cal = await calibration();
  const e = costOf(basis, cal);
  const field = endFieldOf(stopAtPs);
  process.stderr.write(
    `estimate: ~${fmtSecs(e.wallSecs)} wall time here, ~${fmtCount(e.events)} events, ~${fmtMem(e.memoryBytes)} memory, ` +
      `${fmtCount(e.sentPackets)} data packets${e.sentPackets < 0.99 * e.packets ? ` before ${field} ${formatTime(e.endPs)}` : ''} (±2x)\n`,
  );
  const w = cutShortWarning(basis, field);
  if (w !== undefined) process.stderr.write(`${w}\n`);
}

/** The one line `sweep` and `reproduce` print before they start: the points about to run on `jobs` workers. */
export async function printSweepEstimate(points: readonly { basis: RunBasis }[], jobs: number): Promise<void> {
  const { estimateSweepCost } = await import('../experiment/run/estimate-cost.js');
  const cal = await calibration();
  const e = estimateSweepCost(points, jobs, cal);
  process.stdout.write(
    `estimate: ~${fmtSecs(e.wallSecs)} wall time here on ${plural(e.jobs, 'worker')} (longest point ~${fmtSecs(e.longestSecs)}), ` +
      `~${fmtCount(e.events)} events, ~${fmtMem(e.memoryBytes)} memory (±2x)\n`,
  );
}
