/**
 * Helpers shared by the CCC figure analyses (./analysis.ts,
 * ./analysis-dynamics.ts): the points' manifests and summaries, sampled
 * series by column name, CCC's cc_trace.csv per flow, and the RTT from queue
 * samples (docs/network-model.md §14).
 */
import type { RunSummary } from '../../src/metrics/summary.js';
import { readTable, requireRunManifest, requireRunSummary, type RunManifest, type TableRow } from '../../src/experiment/results/results.js';
import type { PointResult } from '../../src/experiment/results/analysis.js';
import { percentileLinear, sortedCopy } from '../../src/metrics/stats.js';

export const US_PS = 1e6;
/** host downlink rate of the CCC topologies (25 G hosts) */
export const C = 25e9;
/** maximum unloaded RTT of ccc250 and the 5-us-link stars, us (docs/network-model.md §14) */
export const RTT_MIN_US = 20.16;

const manifestOf = (dir: string): RunManifest => requireRunManifest(dir);
export const summaryOf = (dir: string): RunSummary => requireRunSummary(dir);

export interface Series {
  t: number[];
  v: number[];
}

export function series(dir: string, base: string, col: string): Series {
  const rows = readTable(dir, base) ?? [];
  return { t: rows.map((r) => Number(r['t_ps'])), v: rows.map((r) => Number(r[col])) };
}

/** The p-th percentile (p in percent) of unsorted samples. */
export const percentile = (xs: readonly number[], p: number): number => percentileLinear(sortedCopy(xs), p);
export const r1 = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);
export const r3 = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

/** Point label: the CC and any CC parameter the sweep varied (e.g. q_B). */
export function ccLabel(p: PointResult): string {
  const cc = manifestOf(p.dir).resolved.cc;
  const q = cc.params['qBUs'];
  return q !== undefined && Object.keys(p.vars).some((k) => k.includes('qBUs')) ? `${cc.name} q_B=${String(q)}us` : cc.name;
}

/** RTT (us) samples from queue bytes. */
export const rttUs = (qBytes: number): number => RTT_MIN_US + ((qBytes * 8) / C) * 1e6;

/** First time >= from at which `ok` holds for `hold` consecutive samples. */
export function firstSustained(s: Series, from: number, hold: number, ok: (v: number) => boolean): number | null {
  let run = 0;
  for (let i = 0; i < s.t.length; i++) {
    if (s.t[i]! < from) continue;
    if (ok(s.v[i]!)) {
      run++;
      if (run >= hold) return s.t[i - hold + 1]!;
    } else run = 0;
  }
  return null;
}

// CCC cc_trace.csv per flow (fairness, Figs 8-10)

export interface TraceData {
  fields: string[];
  byFlow: Map<number, { t: number[]; rows: TableRow[] }>;
}

export function traceOf(dir: string): TraceData {
  const rows = readTable(dir, 'cc_trace') ?? [];
  const byFlow = new Map<number, { t: number[]; rows: TableRow[] }>();
  for (const r of rows) {
    const f = Number(r['flow']);
    let e = byFlow.get(f);
    if (e === undefined) byFlow.set(f, (e = { t: [], rows: [] }));
    e.t.push(Number(r['t_ps']));
    e.rows.push(r);
  }
  return { fields: rows.length > 0 ? Object.keys(rows[0]!) : [], byFlow };
}
