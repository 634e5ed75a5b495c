/**
 * `ccsim compare`: a ccsim run against another simulator's per-flow output on
 * the same flows.
 *
 * The other simulator's flows come from
 * - `fct-txt`: the HPCC / PowerTCP ns-3 simulators' fct.txt, one flow per line,
 *   whitespace-separated `sip dip sport dport size start fct base_fct` (times in ns;
 *   addresses either as the simulators' hex IPs, 0x0b000001 + (id / 256)·2^16 +
 *   (id mod 256)·2^8, or as decimal host ids), or
 * - `csv`: any CSV with a header naming source, destination, size, start and FCT
 *   columns (names given as options; the defaults also accept the `_B`, `_ns`,
 *   `_ps`, `_us` suffixed names the reference runs in data/anchors/ use).
 *
 * A flow matches when source, destination, size and start time (to the ns) are
 * equal; flows on either side without a partner are counted, never guessed.
 * Both sides' slowdowns divide the FCT by the same ideal FCT (by default
 * ccsim's ideal FCT of the matched flow, docs/network-model.md §13.1, so the
 * two columns differ only by their FCTs), and are summarised per size bin
 * (mean, p50, p95, p99, linear-interpolation percentiles as the run summaries).
 */
import { existsSync } from 'node:fs';
import { readTextFileCapped } from '../engine/io.js';
import { UsageError, errorMessage } from '../engine/errors.js';
import { readTable } from '../experiment/results/results.js';
import type { FigureTable } from '../experiment/results/analysis.js';
import { mean, percentileLinear, sortedCopy } from '../metrics/stats.js';
import { axis, frame, heightFor, type Chart, type Option } from './charts.js';

/** One finished flow of either simulator. Times in ns. */
export interface FlowOutcome {
  src: number;
  dst: number;
  bytes: number;
  startNs: number;
  fctNs: number;
  /** the simulator's own ideal FCT, when its output has one */
  idealNs?: number;
}

export type ReferenceFormat = 'auto' | 'fct-txt' | 'csv';
export type TimeUnit = 'ps' | 'ns' | 'us' | 'ms' | 's';
const UNIT_NS: Record<TimeUnit, number> = { ps: 1e-3, ns: 1, us: 1e3, ms: 1e6, s: 1e9 };

export interface CsvColumns {
  src: string;
  dst: string;
  size: string;
  start: string;
  fct: string;
  /** optional: the simulator's ideal FCT */
  ideal?: string;
}

export interface ReadReferenceOptions {
  format?: ReferenceFormat;
  /** CSV column names (each defaults to the first of its candidates the header has) */
  columns?: Partial<CsvColumns>;
  /** unit of CSV time columns whose name has no unit suffix; default ns */
  timeUnit?: TimeUnit;
}

const CANDIDATES: Record<keyof CsvColumns, string[]> = {
  src: ['src', 'source', 'sip'],
  dst: ['dst', 'destination', 'dip'],
  size: ['size', 'size_B', 'bytes', 'size_bytes'],
  start: ['start', 'start_ns', 'start_ps', 'start_us', 'start_time'],
  fct: ['fct', 'fct_ns', 'fct_ps', 'fct_us'],
  ideal: ['ideal', 'base_fct_ns', 'ideal_fct_ps', 'ideal_fct_ns', 'standalone_fct', 'base_fct'],
};

/** A column's time unit from its name's suffix (`start_ps`), else the default. */
function unitOf(column: string, dflt: TimeUnit): number {
  const m = /_(ps|ns|us|ms|s)$/.exec(column);
  return UNIT_NS[(m ? m[1] : dflt) as TimeUnit];
}

/** The HPCC simulators' host address (0x0b000001 + id/256·2^16 + id%256·2^8) or a decimal id. */
function hostOf(tok: string, file: string, line: number): number {
  if (/^0b[0-9a-f]{6}$/i.test(tok)) {
    const ip = parseInt(tok, 16);
    return ((ip >>> 16) & 0xff) * 256 + ((ip >>> 8) & 0xff);
  }
  const v = Number(tok);
  if (!Number.isInteger(v) || v < 0) throw new UsageError(`${file}:${line}: host "${tok}" is neither a host id nor an HPCC-simulator address (0b......)`);
  return v;
}

function num(tok: string | undefined, what: string, file: string, line: number): number {
  const v = Number(tok);
  if (tok === undefined || tok.trim() === '' || !Number.isFinite(v) || v < 0) throw new UsageError(`${file}:${line}: ${what} "${tok ?? ''}" is not a non-negative number`);
  return v;
}

function readFctTxt(text: string, file: string): FlowOutcome[] {
  const out: FlowOutcome[] = [];
  text.split('\n').forEach((raw, i) => {
    const l = raw.trim();
    if (l === '' || l.startsWith('#')) return;
    const t = l.split(/\s+/);
    if (t.length < 7) throw new UsageError(`${file}:${i + 1}: expected "sip dip sport dport size start fct [base_fct]", got ${t.length} fields`);
    const f: FlowOutcome = {
      src: hostOf(t[0]!, file, i + 1),
      dst: hostOf(t[1]!, file, i + 1),
      bytes: num(t[4], 'size', file, i + 1),
      startNs: num(t[5], 'start', file, i + 1),
      fctNs: num(t[6], 'fct', file, i + 1),
    };
    if (t[7] !== undefined) f.idealNs = num(t[7], 'base fct', file, i + 1);
    out.push(f);
  });
  return out;
}

function splitCsv(line: string): string[] {
  return line.split(',').map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
}

function readCsv(text: string, file: string, opts: ReadReferenceOptions): FlowOutcome[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) throw new UsageError(`${file}: empty file`);
  const header = splitCsv(lines[0]!);
  const col = (k: keyof CsvColumns): string | undefined => {
    const named = opts.columns?.[k];
    if (named !== undefined) {
      if (!header.includes(named)) throw new UsageError(`${file}: no column "${named}" (the ${k} column; header: ${header.join(', ')})`);
      return named;
    }
    const found = CANDIDATES[k].find((c) => header.includes(c));
    if (found === undefined && k !== 'ideal') throw new UsageError(`${file}: no ${k} column (tried ${CANDIDATES[k].join(', ')}; name it with --col-${k}; header: ${header.join(', ')})`);
    return found;
  };
  const unit = opts.timeUnit ?? 'ns';
  const names = { src: col('src')!, dst: col('dst')!, size: col('size')!, start: col('start')!, fct: col('fct')!, ideal: col('ideal') };
  const idx = (c: string): number => header.indexOf(c);
  const [is, id, iz, it, ic] = [idx(names.src), idx(names.dst), idx(names.size), idx(names.start), idx(names.fct)];
  const ii = names.ideal !== undefined ? idx(names.ideal) : -1;
  const [us, uc, ui] = [unitOf(names.start, unit), unitOf(names.fct, unit), names.ideal !== undefined ? unitOf(names.ideal, unit) : 1];
  return lines.slice(1).map((l, j) => {
    const c = splitCsv(l);
    const line = j + 2;
    const f: FlowOutcome = {
      src: hostOf(c[is] ?? '', file, line),
      dst: hostOf(c[id] ?? '', file, line),
      bytes: num(c[iz], names.size, file, line),
      startNs: num(c[it], names.start, file, line) * us,
      fctNs: num(c[ic], names.fct, file, line) * uc,
    };
    if (ii >= 0 && c[ii] !== undefined && c[ii] !== '') f.idealNs = num(c[ii], names.ideal!, file, line) * ui;
    return f;
  });
}

/** The largest reference file `compare` reads: an ns-3 fct.txt of about 4 million flows. */
export const REFERENCE_MAX_BYTES = 256 * 1024 * 1024;

/** Another simulator's finished flows from `file` (format from the option, else from the content). */
export function readReferenceFlows(file: string, opts: ReadReferenceOptions = {}): FlowOutcome[] {
  if (!existsSync(file)) throw new UsageError(`reference file not found: ${file}`);
  let text: string;
  try {
    // the input rule of every file ccsim reads (engine/io.ts): a regular file (a FIFO would block), bounded
    text = readTextFileCapped(file, 'reference file', REFERENCE_MAX_BYTES);
  } catch (e) {
    throw new UsageError(errorMessage(e).replace(' (limits.fileBytes)', ''));
  }
  let format = opts.format ?? 'auto';
  if (format === 'auto') format = /^\s*[^\s,]+(\s+[^\s,]+){6,}\s*$/.test(text.split('\n', 1)[0] ?? '') ? 'fct-txt' : 'csv';
  return format === 'fct-txt' ? readFctTxt(text, file) : readCsv(text, file, opts);
}

/** A ccsim run folder's finished flows (fct.csv / fct.jsonl). */
export function readCcsimFlows(dir: string): FlowOutcome[] {
  const rows = readTable(dir, 'fct');
  if (rows === undefined) throw new UsageError(`no fct.csv or fct.jsonl in ${dir}: not a ccsim run folder`);
  return rows.map((r) => ({
    src: Number(r['src']),
    dst: Number(r['dst']),
    bytes: Number(r['bytes']),
    startNs: Number(r['start_ps']) / 1000,
    fctNs: Number(r['fct_ps']) / 1000,
    idealNs: Number(r['ideal_fct_ps']) / 1000,
  }));
}

// ---------------------------------------------------------------------------------------------
// matching and statistics

export interface Stats {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface BinComparison {
  /** e.g. "[10 KB, 100 KB)", or "all" */
  bin: string;
  ours: Stats;
  theirs: Stats;
  /** (ours − theirs) / theirs, percent */
  diffPct: { mean: number; p50: number; p95: number; p99: number };
}

export interface Comparison {
  labels: { ours: string; theirs: string };
  /** what is compared: slowdown (FCT / ideal FCT) or FCT in µs */
  metric: 'slowdown' | 'fct';
  /** whose ideal FCT the slowdowns divide by */
  ideal: 'ours' | 'theirs';
  matched: number;
  /** our finished flows without a partner in the reference output */
  unmatchedOurs: number;
  /** reference flows without a partner among our finished flows */
  unmatchedTheirs: number;
  /** overall first, then one row per size bin */
  bins: BinComparison[];
  /** per matched flow: size, our value, their value (for the CDFs and callers' own statistics) */
  pairs: { bytes: number; ours: number; theirs: number }[];
}

export interface CompareOptions {
  labels?: { ours: string; theirs: string };
  /** bin edges in bytes, ascending; default 10 KB, 100 KB, 1 MB */
  binEdges?: readonly number[];
  metric?: 'slowdown' | 'fct';
  ideal?: 'ours' | 'theirs';
}

export const DEFAULT_BIN_EDGES: readonly number[] = [10_000, 100_000, 1_000_000];

const keyOf = (f: FlowOutcome): string => `${f.src}>${f.dst}:${f.bytes}@${Math.round(f.startNs)}`;

function stats(xs: number[]): Stats {
  const s = sortedCopy(xs);
  return { n: xs.length, mean: mean(s), p50: percentileLinear(s, 50), p95: percentileLinear(s, 95), p99: percentileLinear(s, 99) };
}

const pct = (a: number, b: number): number => (b === 0 || !Number.isFinite(a) || !Number.isFinite(b) ? NaN : (100 * (a - b)) / b);

function sizeLabel(b: number): string {
  if (b >= 1e6 && b % 1e5 === 0) return `${b / 1e6} MB`;
  if (b >= 1e3 && b % 100 === 0) return `${b / 1e3} KB`;
  return `${b} B`;
}

/** Matches the flows of both sides and summarises them per size bin. */
export function compareFlows(ours: readonly FlowOutcome[], theirs: readonly FlowOutcome[], opts: CompareOptions = {}): Comparison {
  const metric = opts.metric ?? 'slowdown';
  const ideal = opts.ideal ?? 'ours';
  const edges = [...(opts.binEdges ?? DEFAULT_BIN_EDGES)];
  for (let i = 1; i < edges.length; i++) if (!(edges[i]! > edges[i - 1]!)) throw new UsageError(`size bin edges must ascend: ${edges.join(', ')}`);
  const waiting = new Map<string, FlowOutcome[]>();
  for (const f of theirs) {
    const k = keyOf(f);
    const l = waiting.get(k);
    if (l) l.push(f);
    else waiting.set(k, [f]);
  }
  const pairs: Comparison['pairs'] = [];
  let unmatchedOurs = 0;
  let missingIdeal = false;
  for (const o of ours) {
    const l = waiting.get(keyOf(o));
    const t = l?.shift();
    if (t === undefined) {
      unmatchedOurs++;
      continue;
    }
    if (metric === 'fct') {
      pairs.push({ bytes: o.bytes, ours: o.fctNs / 1000, theirs: t.fctNs / 1000 });
      continue;
    }
    const base = ideal === 'ours' ? o.idealNs : t.idealNs;
    if (base === undefined || !(base > 0)) {
      missingIdeal = true;
      continue;
    }
    pairs.push({ bytes: o.bytes, ours: o.fctNs / base, theirs: t.fctNs / base });
  }
  if (missingIdeal) throw new UsageError(`slowdowns need an ideal FCT per flow from ${ideal === 'ours' ? 'the ccsim run' : 'the reference (an ideal / base_fct column)'}; use --ideal ${ideal === 'ours' ? 'theirs' : 'ours'} or --metric fct`);
  const matched = pairs.length;
  const unmatchedTheirs = theirs.length - matched;
  const bounds: [number, number, string][] = [[0, Infinity, 'all']];
  const cuts = [0, ...edges, Infinity];
  for (let i = 0; i + 1 < cuts.length; i++) bounds.push([cuts[i]!, cuts[i + 1]!, `[${sizeLabel(cuts[i]!)}, ${cuts[i + 1] === Infinity ? 'inf' : sizeLabel(cuts[i + 1]!)})`]);
  const bins = bounds.map(([lo, hi, bin]) => {
    const inBin = pairs.filter((p) => p.bytes >= lo && p.bytes < hi);
    const a = stats(inBin.map((p) => p.ours));
    const b = stats(inBin.map((p) => p.theirs));
    return { bin, ours: a, theirs: b, diffPct: { mean: pct(a.mean, b.mean), p50: pct(a.p50, b.p50), p95: pct(a.p95, b.p95), p99: pct(a.p99, b.p99) } };
  });
  return { labels: opts.labels ?? { ours: 'ccsim', theirs: 'reference' }, metric, ideal, matched, unmatchedOurs, unmatchedTheirs, bins, pairs };
}

// ---------------------------------------------------------------------------------------------
// rendering

const r3 = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);
const r1 = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);

/** A line saying how many flows matched and how many did not. */
export function matchLine(c: Comparison): string {
  return `${c.matched} flows matched; ${c.unmatchedTheirs} ${c.labels.theirs} flow${c.unmatchedTheirs === 1 ? '' : 's'} and ${c.unmatchedOurs} ${c.labels.ours} flow${c.unmatchedOurs === 1 ? '' : 's'} without a partner (unfinished on the other side, or not the same flow)`;
}

/** The per-bin table (both sides' statistics and their differences in %). */
export function comparisonTable(c: Comparison): FigureTable {
  const what = c.metric === 'slowdown' ? `slowdown (FCT / ${c.ideal === 'ours' ? c.labels.ours : c.labels.theirs} ideal FCT)` : 'FCT (µs)';
  const { ours: A, theirs: B } = c.labels;
  return {
    title: `${what}: ${A} vs ${B}, per size bin`,
    columns: ['size bin', 'flows', `${A} mean`, `${B} mean`, 'Δ mean %', `${A} p50`, `${B} p50`, 'Δ p50 %', `${A} p95`, `${B} p95`, 'Δ p95 %', `${A} p99`, `${B} p99`, 'Δ p99 %'],
    rows: c.bins.map((b) => [
      b.bin,
      b.ours.n,
      r3(b.ours.mean),
      r3(b.theirs.mean),
      r1(b.diffPct.mean),
      r3(b.ours.p50),
      r3(b.theirs.p50),
      r1(b.diffPct.p50),
      r3(b.ours.p95),
      r3(b.theirs.p95),
      r1(b.diffPct.p95),
      r3(b.ours.p99),
      r3(b.theirs.p99),
      r1(b.diffPct.p99),
    ]),
    notes: [matchLine(c)],
  };
}

/** The comparison as plain JSON (pairs left out unless asked for). */
export function comparisonJson(c: Comparison, withPairs = false): Record<string, unknown> {
  const { pairs, ...rest } = c;
  return withPairs ? { ...rest, pairs } : rest;
}

/** Both sides' CDFs of the compared metric over the matched flows (log x axis). */
export function comparisonCdf(c: Comparison, id = 'compare-cdf'): Chart | undefined {
  if (c.pairs.length === 0) return undefined;
  const line = (name: string, xs: number[]): Record<string, unknown> => {
    const s = [...xs].sort((a, b) => a - b);
    const step = Math.max(1, Math.floor(s.length / 600));
    const pts: [number, number][] = [];
    for (let i = 0; i < s.length; i += step) pts.push([Math.round(s[i]! * 1e4) / 1e4, Math.round(((i + 1) / s.length) * 1e4) / 1e4]);
    pts.push([Math.round(s[s.length - 1]! * 1e4) / 1e4, 1]);
    return { name, type: 'line', showSymbol: false, step: 'end', data: pts };
  };
  const xName = c.metric === 'slowdown' ? 'slowdown (log)' : 'FCT, µs (log)';
  const title = `CDF of ${c.metric === 'slowdown' ? 'slowdown' : 'FCT'}: ${c.labels.ours} vs ${c.labels.theirs} (${c.matched} matched flows)`;
  const legend = [c.labels.ours, c.labels.theirs];
  const option: Option = {
    ...frame(title, legend, true),
    xAxis: axis('log', xName, { axisLabel: { margin: 14 }, nameGap: 38, ...(c.metric === 'slowdown' ? { min: 1 } : {}) }),
    yAxis: axis('value', 'fraction of flows', { min: 0, max: 1, nameGap: 46 }),
    series: [line(c.labels.ours, c.pairs.map((p) => p.ours)), line(c.labels.theirs, c.pairs.map((p) => p.theirs))],
  };
  return { id, title, option, height: heightFor(legend) };
}
