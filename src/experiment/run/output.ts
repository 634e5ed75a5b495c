/**
 * Result files of one run, written through outdir.ts: staged, then renamed
 * into the result folder with the manifest last, so a failed run never leaves
 * half-written files and never touches files ccsim did not write.
 *
 * Every file except manifest.json depends only on the spec and the seed and is
 * byte-identical across runs; wall time, versions, timestamps and memory use
 * are kept in manifest.json alone.
 */
import { closeSync, copyFileSync, mkdtempSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageVersion } from '../../workload/package-root.js';
import type { RunSummary } from '../../metrics/summary.js';
import { findCc } from '../../cc/registry.js';
import { ccNetworkSettings } from '../../cc/network-settings.js';
import { DROP_REASONS } from '../../net/mmu.js';
import { UNTAGGED } from '../../metrics/summary.js';
import { buildId, currentModel } from '../results/build-id.js';
import { commitResultFiles, stagingPrefix, type OutDirPlan } from '../results/outdir.js';
import type { Spec } from '../spec/spec.js';
import type { RunManifest } from '../results/manifest.js';
import type { FctRow, SimInput, SimOutput } from '../../sim/types.js';
import { BREAKDOWN_PARTS } from '../../metrics/breakdown.js';
import type { BreakdownOutput } from '../../metrics/types.js';

export type OutputFormat = 'csv' | 'jsonl';

type Cell = string | number;

/** Deterministic number text: shortest round-trip form; nan / inf / -inf for non-finite values. */
export function formatNumber(n: number): string {
  if (Number.isFinite(n)) return Object.is(n, -0) ? '0' : String(n);
  if (Number.isNaN(n)) return 'nan';
  return n > 0 ? 'inf' : '-inf';
}

function csvCell(c: Cell): string {
  if (typeof c === 'number') return formatNumber(c);
  return /[",\n\r]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c;
}

function jsonCell(c: Cell): string {
  if (typeof c === 'number' && !Number.isFinite(c)) return JSON.stringify(formatNumber(c));
  return JSON.stringify(c);
}

/** Buffered synchronous file writer. */
class Sink {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= 1 << 20) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}

/** One table file written row by row: CSV (header line + rows) or JSON Lines (one object per row). */
class TableWriter {
  private readonly sink: Sink;
  private readonly keys: string[];

  constructor(
    path: string,
    private readonly format: OutputFormat,
    columns: readonly string[],
  ) {
    this.sink = new Sink(path);
    this.keys = columns.map((c) => JSON.stringify(c) + ':');
    if (format === 'csv') this.sink.write(columns.join(',') + '\n');
  }

  row(r: readonly Cell[]): void {
    if (this.format === 'csv') {
      this.sink.write(r.map(csvCell).join(',') + '\n');
      return;
    }
    const keys = this.keys;
    let line = '{';
    for (let i = 0; i < keys.length; i++) line += (i > 0 ? ',' : '') + keys[i] + jsonCell(r[i]!);
    this.sink.write(line + '}\n');
  }

  close(): void {
    this.sink.close();
  }
}

/** Writes a table as CSV (header line + rows) or JSON Lines (one object per row). Returns the file name. */
function writeTable(dir: string, base: string, format: OutputFormat, columns: readonly string[], rows: Iterable<readonly Cell[]>): string {
  const file = `${base}.${format}`;
  const w = new TableWriter(join(dir, file), format, columns);
  try {
    for (const r of rows) w.row(r);
  } finally {
    w.close();
  }
  return file;
}

function writeJson(dir: string, file: string, value: unknown): string {
  const sink = new Sink(join(dir, file));
  try {
    sink.write(JSON.stringify(value, jsonReplacer, 2) + '\n');
  } finally {
    sink.close();
  }
  return file;
}

/** JSON numbers stay numbers: NaN (a statistic of no flows) and Infinity (an open bin bound) become null. */
function jsonReplacer(_key: string, v: unknown): unknown {
  if (typeof v !== 'number' || Number.isFinite(v)) return v;
  return null;
}

// ---------------------------------------------------------------------------------------------
// version / environment

/** ccsim's version from its package.json ('unknown' if it cannot be found). */
export const ccsimVersion: () => string = packageVersion;

/** The manifest's `model` field: the build's model fingerprint, when it has one. */
const modelField = (): { model?: string } => {
  const m = currentModel();
  return m === undefined ? {} : { model: m };
};

// ---------------------------------------------------------------------------------------------
// result files

export interface RunInfo {
  /** spec file path as given */
  specPath?: string;
  /** run start, for the manifest */
  startedAt: Date;
  /** wall time of load + resolve + simulate, ms (result writing excluded) */
  totalWallMs: number;
  /** the sweep point this run is (index, id, varied fields), recorded in the manifest */
  sweep?: Record<string, unknown>;
  /** threads asked for and used, partitions, lookahead (sim/parallel/threads.ts `threadRecord`) */
  threads?: Record<string, unknown>;
}

export interface ResultData {
  spec: Spec;
  raw: unknown;
  input: SimInput;
  output: SimOutput;
  summary: RunSummary;
  info: RunInfo;
  /** the FCT table already written during the run (else it is written from output.fct) */
  fctStream?: FctStream;
}

export const FCT_COLUMNS = ['id', 'src', 'dst', 'bytes', 'start_ps', 'finish_ps', 'fct_ps', 'ideal_fct_ps', 'slowdown', 'tag'] as const;

/** Untagged flows are named as in summary.json. */
function tagName(tag: string): string {
  return tag === '' ? UNTAGGED : tag;
}

/** fct's columns with `metrics.breakdown` (docs/guide.md, "Why a flow was slow"), after FCT_COLUMNS. */
export const FCT_BREAKDOWN_COLUMNS = [...BREAKDOWN_PARTS.map((p) => `${p}_ps`), 'worst_node', 'worst_port', 'worst_role', 'worst_queue_ps'] as const;

function fctCells(r: FctRow): Cell[] {
  const cells: Cell[] = [r.id, r.src, r.dst, r.bytes, r.startPs, r.finishPs, r.fctPs, r.idealFctPs, r.slowdown, tagName(r.tag)];
  const b = r.breakdown;
  if (b !== undefined) cells.push(...b.parts, b.worstNode, b.worstPort, b.worstRole, b.worstQueuePs);
  return cells;
}

function* fctRows(out: SimOutput): Iterable<Cell[]> {
  for (const r of out.fct) yield fctCells(r);
}

/**
 * The FCT table written while the run goes (`SimInput.fctSink`), into a
 * scratch folder of its own; `writeResults` moves it into the result folder.
 */
export class FctStream {
  readonly path: string;
  private readonly dir: string;
  private readonly w: TableWriter;
  private open = true;

  /**
   * The scratch file lives in `parent` (the result folder, so it is on the
   * result's filesystem, moved into place by a rename, and a killed run's
   * leftover is removed by the next run there: outdir.ts removeStaleStaging),
   * or in the system temp folder when no parent is given.
   */
  constructor(format: OutputFormat, parent?: string, breakdown = false) {
    this.dir = parent !== undefined ? mkdtempSync(join(parent, `${stagingPrefix()}fct-`)) : mkdtempSync(join(tmpdir(), 'ccsim-fct-'));
    this.path = join(this.dir, `fct.${format}`);
    this.w = new TableWriter(this.path, format, breakdown ? [...FCT_COLUMNS, ...FCT_BREAKDOWN_COLUMNS] : FCT_COLUMNS);
  }

  /** The sink to give the simulation. */
  readonly sink = (row: FctRow): void => this.w.row(fctCells(row));

  /** Flushes and closes the file (idempotent). */
  close(): void {
    if (!this.open) return;
    this.open = false;
    this.w.close();
  }

  /** Removes the scratch folder. */
  dispose(): void {
    this.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** breakdown_ports: per port, the queueing its flows met, the time it was paused, the pause time it caused upstream (ps). */
function writeBreakdownPorts(dir: string, format: OutputFormat, bd: BreakdownOutput): string {
  const cols = ['node', 'port', 'peer', 'role', 'queue_ps', 'paused_ps', 'pause_caused_ps'];
  return writeTable(dir, 'breakdown_ports', format, cols, bd.ports.map((p) => [p.node, p.port, p.peer, p.role, p.queuePs, p.pausedPs, p.pauseCausedPs]));
}

function* unfinishedRows(out: SimOutput): Iterable<Cell[]> {
  for (const r of out.unfinished) yield [r.id, r.src, r.dst, r.bytes, r.ackedBytes, r.startPs, tagName(r.tag)];
}

function* seriesRows(series: SimOutput['queues']): Iterable<Cell[]> {
  for (const s of series) for (let i = 0; i < s.t.length; i++) yield [s.node, s.port, s.t[i]!, s.v[i]!];
}

function* flowSeriesRows(series: SimOutput['flowThroughput']): Iterable<Cell[]> {
  for (const s of series) for (let i = 0; i < s.t.length; i++) yield [s.flow, s.t[i]!, s.v[i]!];
}

function* switchBufferRows(series: NonNullable<SimOutput['switchBuffer']>): Iterable<Cell[]> {
  for (const s of series) for (let i = 0; i < s.t.length; i++) yield [s.node, s.t[i]!, s.v[i]!];
}

function* ccTraceRows(trace: NonNullable<SimOutput['ccTrace']>): Iterable<Cell[]> {
  const k = trace.fields.length;
  for (const s of trace.series) {
    for (let i = 0; i < s.t.length; i++) yield [s.flow, s.t[i]!, ...s.v.slice(i * k, i * k + k)];
  }
}

/** jobs.csv: one row per finished iteration of a job (docs/guide.md, "Collective workloads"). */
export const JOB_COLUMNS = ['job', 'iteration', 'start_ps', 'finish_ps', 'duration_ps', 'bytes'] as const;

function* jobRows(jobs: NonNullable<SimOutput['jobs']>): Iterable<Cell[]> {
  for (const j of jobs) yield [j.job, j.iteration, j.startPs, j.finishPs, j.finishPs - j.startPs, j.bytes];
}

/** The names of the files a run of `spec` may write (manifest.json included), known before it runs. */
export function resultFileNames(spec: Spec, input: SimInput): string[] {
  const f = spec.output.format;
  const names = [`fct.${f}`, `unfinished.${f}`, 'summary.json', `counters_nodes.${f}`, `counters_ports.${f}`, `queues.${f}`, `throughput.${f}`];
  if (input.metrics.flowThroughput !== null) names.push(`flow_throughput.${f}`);
  if (input.metrics.ccTrace !== null) names.push(`cc_trace.${f}`);
  if (input.metrics.switchBuffer !== undefined) names.push(`switch_buffer.${f}`);
  if (input.metrics.breakdown === true) names.push(`breakdown_ports.${f}`);
  // jobs.csv: only runs with a driver that reports job iterations (a collective) may write it
  if (input.drivers?.some((d) => d.report !== undefined) === true) names.push(`jobs.${f}`);
  names.push('manifest.json');
  return names;
}

/**
 * Writes all result files of a run into the folder checked by prepareOutDir,
 * replacing only files an earlier ccsim run wrote there. Returns the file names
 * written.
 */
export function writeResults(plan: OutDirPlan, d: ResultData): string[] {
  const format: OutputFormat = d.spec.output.format;
  return commitResultFiles(plan, (dir) => {
    const files: string[] = [];
    const out = d.output;
    if (d.fctStream !== undefined) {
      d.fctStream.close();
      const file = `fct.${format}`;
      // the same filesystem when the stream lives in the result folder: a rename, no second copy on disk
      try {
        renameSync(d.fctStream.path, join(dir, file));
      } catch {
        copyFileSync(d.fctStream.path, join(dir, file));
      }
      files.push(file);
    } else files.push(writeTable(dir, 'fct', format, out.breakdown !== undefined ? [...FCT_COLUMNS, ...FCT_BREAKDOWN_COLUMNS] : FCT_COLUMNS, fctRows(out)));
    if (out.breakdown !== undefined) files.push(writeBreakdownPorts(dir, format, out.breakdown));
    files.push(writeTable(dir, 'unfinished', format, ['id', 'src', 'dst', 'bytes', 'acked_bytes', 'start_ps', 'tag'], unfinishedRows(out)));
    files.push(writeJson(dir, 'summary.json', d.summary));

    // one column per drop reason, always (the columns do not depend on what happened)
    const reasons = DROP_REASONS;
    files.push(
      writeTable(
        dir,
        'counters_nodes',
        format,
        [
          'node',
          'name',
          'layer',
          'pauses_sent',
          'pauses_received',
          'resumes_sent',
          'resumes_received',
          'drops',
          'tx_bytes',
          'ecn_marked',
          ...reasons.map((r) => `drops_${r}`),
        ],
        out.nodes.map((n) => [
          n.node,
          n.name,
          n.layer,
          n.pausesSent,
          n.pausesReceived,
          n.resumesSent,
          n.resumesReceived,
          n.drops,
          n.txBytes,
          n.ecnMarked,
          ...reasons.map((r) => n.dropsByReason[r] ?? 0),
        ]),
      ),
    );
    files.push(
      writeTable(
        dir,
        'counters_ports',
        format,
        ['node', 'port', 'peer', 'pauses_sent', 'pauses_received', 'drops', 'tx_bytes', 'tx_packets', 'max_queue_bytes'],
        out.ports.map((p) => [p.node, p.port, p.peer, p.pausesSent, p.pausesReceived, p.drops, p.txBytes, p.txPackets, p.maxQueueBytes]),
      ),
    );
    files.push(writeTable(dir, 'queues', format, ['node', 'port', 't_ps', 'bytes'], seriesRows(out.queues)));
    files.push(writeTable(dir, 'throughput', format, ['node', 'port', 't_ps', 'bps'], seriesRows(out.throughput)));
    if (d.input.metrics.flowThroughput !== null) {
      files.push(writeTable(dir, 'flow_throughput', format, ['flow', 't_ps', 'bps'], flowSeriesRows(out.flowThroughput)));
    }
    if (d.input.metrics.ccTrace !== null && out.ccTrace !== undefined) {
      files.push(writeTable(dir, 'cc_trace', format, ['flow', 't_ps', ...out.ccTrace.fields], ccTraceRows(out.ccTrace)));
    }
    if (d.input.metrics.switchBuffer !== undefined && out.switchBuffer !== undefined) {
      files.push(writeTable(dir, 'switch_buffer', format, ['node', 't_ps', 'max_bytes'], switchBufferRows(out.switchBuffer)));
    }
    if (out.jobs !== undefined && out.jobs.length > 0) files.push(writeTable(dir, 'jobs', format, JOB_COLUMNS, jobRows(out.jobs)));
    return files;
  }, (files) => JSON.parse(JSON.stringify(buildManifest(d, files), jsonReplacer)) as Record<string, unknown>);
}

/**
 * The CC parameters a run used: the spec's params with the schema defaults
 * applied and, for a CC that takes values from a preset or the profile, the
 * value of every parameter (per host line rate when hosts differ).
 */
export function resolvedCcParams(input: SimInput): Record<string, unknown> {
  const def = findCc(input.cc.name);
  if (def === undefined) return input.cc.params;
  const parsed = def.params.parse(input.cc.params ?? {}) as Record<string, unknown>;
  if (def.resolvedParams === undefined) return parsed;
  const rates = new Set<number>();
  const h = input.topology.hostCount;
  for (const l of input.topology.links) {
    if (l.a < h) rates.add(l.rateBps);
    if (l.b < h) rates.add(l.rateBps);
  }
  const list = [...rates].sort((a, b) => a - b);
  if (list.length === 1) return def.resolvedParams(parsed as never, input.net, list[0]!);
  return { ...parsed, byHostLineRateBps: Object.fromEntries(list.map((r) => [String(r), def.resolvedParams!(parsed as never, input.net, r)])) };
}

/** The network settings the run's CC turned on (cc/network-settings.ts), for the manifest; {} when none. */
function ccNetworkRecord(input: SimInput): { ccNetwork?: { field: string; value: unknown; why: string }[] } {
  const def = findCc(input.cc.name);
  if (def?.network === undefined) return {};
  const settings = ccNetworkSettings(def, def.params.parse(input.cc.params ?? {}), input.net);
  return settings.length === 0 ? {} : { ccNetwork: settings.map((x) => ({ field: `network.${x.path.join('.')}`, value: x.value, why: x.why })) };
}

/**
 * manifest.json as this writer types it: the reader's RunManifest (experiment/results/manifest.ts)
 * with the simulator's own types where the reader sees plain records; a field the writer
 * changes that the reader's type no longer describes does not compile here.
 */
export interface WrittenManifest extends RunManifest {
  resolved: Omit<RunManifest['resolved'], 'cc' | 'net' | 'linkEvents' | 'metrics'> & {
    cc: SimInput['cc'];
    net: SimInput['net'];
    linkEvents: SimInput['linkEvents'];
    metrics: SimInput['metrics'];
  };
  spec: Spec;
}

/** The manifest: everything needed to know what ran, plus the non-deterministic facts of this run. */
export function buildManifest(d: ResultData, files: readonly string[]): WrittenManifest {
  const { input, output } = d;
  const switches = input.topology.nodes.length - input.topology.hostCount;
  const simWallMs = output.wallMs;
  return {
    ccsim: ccsimVersion(),
    build: buildId(),
    ...modelField(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    startedAt: d.info.startedAt.toISOString(),
    specPath: d.info.specPath ?? null,
    name: d.spec.name,
    /** the seed the run used (`--seed` overrides the spec's; spec.seed below is this one too) */
    seed: input.seed,
    seedFrom: input.seed === d.spec.seed ? 'spec' : 'override',
    run: {
      wallMs: Math.round(simWallMs * 10) / 10,
      totalWallMs: d.info.totalWallMs,
      events: output.events,
      eventsPerSec: simWallMs > 0 ? Math.round(output.events / (simWallMs / 1000)) : null,
      simulatedPs: output.endPs,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      ...(output.fastForward !== undefined
        ? { fastForward: { skippedPs: output.fastForward.skippedPs, skippedEventsEstimate: output.fastForward.skippedEventsEstimate, skips: output.fastForward.skips } }
        : {}),
    },
    resolved: {
      topology: { name: input.topology.name, hosts: input.topology.hostCount, switches, links: input.topology.links.length },
      flows: input.flows.length,
      cc: { ...input.cc, params: resolvedCcParams(input) },
      net: input.net,
      stopAtPs: input.stopAtPs,
      maxTimePs: input.maxTimePs,
      linkEvents: input.linkEvents,
      metrics: input.metrics,
      ...ccNetworkRecord(input),
    },
    ...(d.info.sweep !== undefined ? { sweep: d.info.sweep } : {}),
    ...(d.info.threads !== undefined ? { threads: d.info.threads } : {}),
    spec: { ...d.spec, seed: input.seed },
    raw: d.raw,
    files: [...files],
  };
}
