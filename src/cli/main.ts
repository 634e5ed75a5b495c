#!/usr/bin/env node
/**
 * The `ccsim` command line: run, sweep, validate, list.
 *
 * Exit codes: 0 ok; 2 invalid spec or other user error (message only, no
 * stack trace); 3 some sweep points failed (each reported); 1 unexpected
 * internal error (set CCSIM_DEBUG=1 for its stack).
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { CC_REGISTRY } from '../cc/registry.js';
import { PROFILE_NAMES, profileDefaults } from '../net/config.js';
import { formatTime } from '../engine/units.js';
import { SpecError, UsageError, errorMessage } from '../experiment/errors.js';
import { loadAndResolve, readSpecFile } from '../experiment/resolve.js';
import { planSweep } from '../experiment/sweep.js';
import { defaultJobs, runSweep, type SweepOutcome } from '../experiment/sweep-run.js';
import { submitSlurm, sweepStatus, type SweepStatus } from '../experiment/slurm.js';
import { formatCell, formatTable } from '../report/text.js';
import { writeReport } from '../report/html.js';
import { PAPERS } from '../report/published.js';
import { claimsView, formatMeasured, reproduce, writeClaimsReadme, type ClaimsView } from '../report/reproduce.js';
import { runExperiment, type RunResult } from '../experiment/runner.js';
import { lossWarnings, type FctStats } from '../metrics/summary.js';
import { TOPOLOGY_FILE_FORMATS, TOPOLOGY_PRESETS, TOPOLOGY_TYPES } from '../net/topology/index.js';
import { listWorkloads } from '../workload/index.js';
import { workloadDefinitions } from '../workload/registry.js';
import { ccsimVersion } from '../experiment/output.js';
import '../../experiments/index.js';

// ---------------------------------------------------------------------------------------------
// output helpers

function out(line = ''): void {
  process.stdout.write(line + '\n');
}

function fmtNum(x: number, digits = 3): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '-';
}

function fmtInt(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

function pad(s: string, w: number, left = false): string {
  return left ? s.padEnd(w) : s.padStart(w);
}

function statsLine(label: string, s: FctStats, labelWidth: number): string {
  return (
    '  ' +
    pad(label, labelWidth, true) +
    pad(fmtInt(s.count), 9) +
    pad(fmtNum(s.meanSlowdown), 9) +
    pad(fmtNum(s.p50Slowdown), 9) +
    pad(fmtNum(s.p95Slowdown), 9) +
    pad(fmtNum(s.p99Slowdown), 9) +
    pad(fmtNum(s.p999Slowdown), 9)
  );
}

/** "1 switch", "2 switches". */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmtInt(n)} ${n === 1 ? one : many}`;
}

function printRunSummary(r: RunResult, cc: string): void {
  const { summary, output } = r;
  const t = summary.totals;
  out(`${r.spec.name}: cc ${cc}, seed ${r.input.seed}`);
  out(`  flows finished ${fmtInt(t.finished)}/${fmtInt(t.flows)}${summary.unfinished > 0 ? ` (${fmtInt(summary.unfinished)} unfinished)` : ''}`);
  const dl = summary.deadlock;
  if (dl !== undefined) {
    out(`  PFC DEADLOCK found at ${formatTime(dl.detectedAtPs)}: cycle ${dl.cycle.map((p) => `${p.name}->${p.peerName}`).join(', ')} (class ${dl.cycle[0]!.cls}); run ended there`);
    out(
      `  ${fmtInt(dl.unfinishedFlows)} unfinished flows, ${fmtInt(dl.unfinishedWithDrops)} of them lost packets (drops in the run: ${fmtInt(dl.drops)})` +
        (dl.dropsRuledOut ? '; drops ruled out as their cause' : ''),
    );
  }
  const fct = summary.fct;
  const labels = [
    'overall',
    ...fct.binSets.flatMap((s) => [...s.bins.map((b) => b.label), 'outside these bins']),
    ...Object.keys(fct.tags).map((k) => `tag ${k}`),
  ];
  const w = Math.max(16, ...labels.map((l) => l.length + 4));
  const header = (title: string): void =>
    out('  ' + pad(title, w, true) + pad('flows', 9) + pad('mean', 9) + pad('p50', 9) + pad('p95', 9) + pad('p99', 9) + pad('p99.9', 9));
  header('slowdown');
  out(statsLine('overall', fct.overall, w));
  for (const [k, s] of Object.entries(fct.tags)) out(statsLine(`tag ${k}`, s, w));
  if (fct.binSets.length > 0) out('  flow sizes: KB = 1000 B, KiB = 1024 B; "(" open, "[" closed end; a set\'s bins may overlap');
  for (const set of fct.binSets) {
    header(set.title);
    for (const b of set.bins) out(statsLine('  ' + b.label, b, w));
    out(statsLine('  outside these bins', set.outside, w));
  }
  const secs = output.wallMs / 1000;
  out(
    `  drops ${fmtInt(t.drops)}, PFC pauses ${fmtInt(t.pausesSent)}, timeouts ${fmtInt(t.timeouts)}, ` +
      `retransmitted packets ${fmtInt(t.retransmittedPackets)}`,
  );
  out(
    `  events ${fmtInt(output.events)}, simulated ${formatTime(output.endPs)}, wall ${secs.toFixed(2)} s` +
      (secs > 0 ? ` (${fmtInt(output.events / secs)} events/s)` : ''),
  );
  for (const w of lossWarnings(output, summary)) out(`  ${w}`);
  for (const n of summary.notes) out(`  note: ${n}`);
  out(`  results: ${r.outDir}`);
}

// ---------------------------------------------------------------------------------------------
// `list`: CC parameter descriptions from the zod schemas

interface ParamInfo {
  name: string;
  type: string;
  default: unknown;
  hasDefault: boolean;
  optional: boolean;
  description: string;
}

function typeName(s: z.ZodType): string {
  if (s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
    return typeName(s.unwrap() as z.ZodType);
  }
  if (s instanceof z.ZodEnum) return s.options.map((o) => JSON.stringify(o)).join(' | ');
  if (s instanceof z.ZodLiteral) return [...s.values].map((v) => JSON.stringify(v)).join(' | ');
  if (s instanceof z.ZodUnion) return (s.options as readonly z.ZodType[]).map(typeName).join(' | ');
  if (s instanceof z.ZodArray) return `${typeName(s.element as z.ZodType)}[]`;
  return s._zod.def.type;
}

function describeParams(schema: z.ZodType): ParamInfo[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const out: ParamInfo[] = [];
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    let s: z.ZodType = field;
    let description = s.description;
    let hasDefault = false;
    let optional = false;
    let dflt: unknown;
    for (let i = 0; i < 8; i++) {
      if (s instanceof z.ZodDefault) {
        hasDefault = true;
        dflt = s._zod.def.defaultValue;
        s = s.unwrap() as z.ZodType;
      } else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
        optional ||= s instanceof z.ZodOptional;
        s = s.unwrap() as z.ZodType;
      } else break;
      description ??= s.description;
    }
    out.push({ name, type: typeName(field), default: dflt, hasDefault, optional, description: description ?? '' });
  }
  return out;
}

function listTopologies(): void {
  out('topology types (spec `topology.type`):');
  for (const t of TOPOLOGY_TYPES) out(`  ${pad(t.name, 12, true)} ${t.description}`);
  out(`  ${pad('preset', 12, true)} a named topology: topology: { type: preset, preset: <name> }`);
  out(`  ${pad('file', 12, true)} a topology file: path, format (${TOPOLOGY_FILE_FORMATS.join(', ')}), linkConfig for oscar`);
  out('topology presets:');
  const w = Math.max(...TOPOLOGY_PRESETS.map((p) => p.name.length));
  for (const p of TOPOLOGY_PRESETS) out(`  ${pad(p.name, w, true)}  ${p.description}`);
}

function listWorkloadCdfs(): void {
  out('workload types (spec `workload[i].type`):');
  const defs = workloadDefinitions();
  const tw = Math.max(...defs.map((d) => d.type.length));
  for (const d of defs) out(`  ${pad(d.type, tw, true)}  ${d.summary}`);
  out('workloads (flow-size distributions, spec `cdf`):');
  const list = listWorkloads();
  const w = Math.max(...list.map((x) => x.name.length));
  for (const x of list) {
    out(`  ${pad(x.name, w, true)}  mean ${pad(fmtInt(x.meanBytes), 11)} B, max ${pad(fmtInt(x.maxBytes), 13)} B  ${x.description}`);
  }
}

function listCcs(): void {
  out('congestion control (spec `cc`):');
  for (const cc of CC_REGISTRY) {
    out(`  ${cc.name}: ${cc.description}`);
    out(`    reference: ${cc.reference}`);
    const params = describeParams(cc.params);
    if (params.length === 0) continue;
    out('    params:');
    for (const p of params) {
      const d = p.hasDefault ? ` = ${JSON.stringify(p.default)}` : '';
      const kind = p.optional && !p.hasDefault ? `${p.type}, optional` : p.type;
      out(`      ${p.name}${d}  (${kind})${p.description ? `  ${p.description}` : ''}`);
    }
    listResolved(cc, params);
  }
}

/** A resolved parameter value, with the unit its name carries. */
function showValue(name: string, v: unknown): string {
  if (typeof v !== 'number') return JSON.stringify(v);
  if (name.endsWith('Bps')) return v >= 1e9 ? `${+(v / 1e9).toPrecision(6)} Gbps` : `${+(v / 1e6).toPrecision(6)} Mbps`;
  if (name.endsWith('Ps')) return formatTime(v);
  if (name.endsWith('Bytes')) return `${fmtInt(v)} B`;
  return String(+v.toPrecision(6));
}

/**
 * For a CC whose optional parameters take their values from a preset or the
 * profile: the value each takes, per preset (or per profile), at 100 Gbps.
 */
function listResolved(cc: (typeof CC_REGISTRY)[number], params: readonly ParamInfo[]): void {
  if (cc.resolvedParams === undefined) return;
  const rows = params.filter((p) => p.optional && !p.hasDefault).map((p) => p.name);
  if (rows.length === 0) return;
  const preset = params.find((p) => p.name === 'preset' && p.type.includes('|'));
  const presetValues = preset === undefined ? [] : [...preset.type.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((v) => v !== 'auto');
  const columns =
    presetValues.length > 0
      ? presetValues.map((v) => ({ label: `preset ${v}`, raw: { preset: v }, net: profileDefaults('oscar') }))
      : PROFILE_NAMES.map((pr) => ({ label: `profile ${pr}`, raw: {}, net: profileDefaults(pr) }));
  const values = columns.map((c) => cc.resolvedParams!(cc.params.parse(c.raw), c.net, 100e9));
  out(`    values the optional params take (at 100 Gbps line rate; rates scale with it where the preset says so)${
    preset !== undefined ? `; preset auto: ${preset.description}` : ''
  }:`);
  const w0 = Math.max(...rows.map((r) => r.length)) + 2;
  const cells = rows.map((r) => values.map((v) => showValue(r, v[r])));
  const ws = columns.map((c, j) => Math.max(c.label.length, ...cells.map((row) => row[j]!.length)) + 2);
  out('      ' + pad('', w0, true) + columns.map((c, j) => pad(c.label, ws[j]!)).join(''));
  rows.forEach((r, i) => out('      ' + pad(r, w0, true) + cells[i]!.map((c, j) => pad(c, ws[j]!)).join('')));
}

// ---------------------------------------------------------------------------------------------
// commands

function parsePositive(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer >= 1');
  return n;
}

/** Does the spec file have a `sweep:` block? (false when it cannot be read: the command reports that) */
function isSweepFile(path: string): boolean {
  let raw: unknown;
  try {
    raw = readSpecFile(path);
  } catch {
    return false;
  }
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'sweep' in raw;
}

/** Some sweep points failed (already reported): exit code 3. */
class PointsFailed extends Error {}

function printSweepOutcome(r: SweepOutcome): void {
  const secs = r.wallMs / 1000;
  const parts = [`${r.finished}/${r.plan.points.length} points finished`];
  if (r.skipped > 0) parts.push(`${r.skipped} skipped (already finished)`);
  if (r.failed.length > 0) parts.push(`${r.failed.length} failed`);
  out(`sweep ${r.plan.name}: ${parts.join(', ')}; ${r.ran} run in ${secs.toFixed(1)} s on ${r.jobs} worker${r.jobs === 1 ? '' : 's'}`);
  out(`  results: ${r.dir} (index: sweep.json, points.csv)`);
  if (r.figure !== undefined) {
    if (r.figure.error !== undefined) {
      out(`  figure ${r.figure.id}: not analyzed: ${r.figure.error}`);
    } else if (r.figure.result !== undefined) {
      for (const t of r.figure.result.tables) {
        out();
        for (const l of formatTable(t)) out(l);
      }
      if (r.figure.result.claims.length > 0) {
        out();
        out('measured claims:');
        for (const c of r.figure.result.claims) out(`  ${c.id}: ${c.bound === 'lower' ? '> ' : ''}${formatCell(c.value)}${c.unit !== undefined ? ` ${c.unit}` : ''}`);
      }
    }
  }
}

function printClaims(view: ClaimsView): void {
  if (view.rows.length === 0) return;
  const rows = view.rows.map((r) => [r.id, r.experiment, `${r.published}${r.unit ?? ''}`, formatMeasured(r) + (r.recorded !== undefined ? ' (recorded)' : ''), r.verdict]);
  for (const l of formatTable({ title: `${view.data?.title ?? view.paper}: published vs measured${view.quick ? ' (quick)' : ''}`, columns: ['claim', 'experiment', 'published', 'measured', 'verdict'], rows })) out(l);
  for (const u of view.unknown) out(`warning: the data file names experiment "${u}" which has no spec`);
  if (view.rows.some((r) => r.recorded !== undefined)) out(`(recorded: not in the results on disk; the last measurement kept in ${view.recordFile ?? 'the record'})`);
}

function printStatus(st: SweepStatus): void {
  const c = st.counts;
  out(
    `sweep ${st.name} (${st.dir}): ${st.points.length} points: ${c.done} done, ${c.running} running, ${c.queued} queued, ${c.failed} failed, ${c['not started']} not started`,
  );
  if (st.squeue === 'unavailable') out('  (squeue is not available here: running / queued are unknown)');
  for (const p of st.points) {
    if (p.status === 'failed') out(`  failed: point ${p.index} (${p.label}): ${p.error ?? ''}`);
    else if (p.status === 'running') out(`  running: point ${p.index} (${p.label})`);
  }
  if (st.completed.length > 0) out(`  all points done: wrote ${st.completed.join(', ')}`);
}

function parseSeed(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be an integer >= 0');
  return n;
}

function buildProgram(): Command {
  const program = new Command();
  program
    .name('ccsim')
    .description('Packet-level datacenter congestion-control simulator')
    .version(ccsimVersion())
    .showHelpAfterError()
    // usage errors come back as CommanderError (inherited by the subcommands below)
    .exitOverride();

  program
    .command('run')
    .description('run an experiment spec and write its result directory')
    .argument('<spec>', 'experiment spec (.yaml, .yml or .json)')
    .option('-o, --out <dir>', 'result folder (default results/<spec name>, or results/<name>-seed<n> with --seed n)')
    .option('-s, --seed <n>', "override the spec's seed", parseSeed)
    .option('-q, --quiet', 'no progress bar and no summary')
    .option('--quick', "apply the spec's `quick:` block (reduced sizes)")
    .action(async (spec: string, o: { out?: string; seed?: number; quiet?: boolean; quick?: boolean }) => {
      const quiet = o.quiet === true;
      const r = await runExperiment(spec, {
        ...(o.out !== undefined ? { out: o.out } : {}),
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        quick: o.quick === true,
        quiet,
        progress: !quiet && process.stderr.isTTY === true && !process.env['CI'],
      });
      if (!quiet) printRunSummary(r, r.input.cc.name);
    });

  program
    .command('validate')
    .description('check a spec (and build its topology and flows) without running it')
    .argument('<spec>', 'experiment spec (.yaml, .yml or .json)')
    .option('-s, --seed <n>', "override the spec's seed", parseSeed)
    .option('--quick', "apply the spec's `quick:` block (reduced sizes)")
    .action((spec: string, o: { seed?: number; quick?: boolean }) => {
      if (isSweepFile(spec)) {
        const plan = planSweep(spec, { quick: o.quick === true });
        const flows = plan.points.reduce((a, p) => a + p.flows, 0);
        out(`ok: ${plan.name}: sweep of ${plan.points.length} points over ${plan.fields.map((f) => f.path).join(', ')} (${fmtInt(flows)} flows in all)`);
        return;
      }
      const { loaded, input } = loadAndResolve(spec, o.seed !== undefined ? { seed: o.seed } : {}, { quick: o.quick === true });
      const hosts = input.topology.hostCount;
      const switches = input.topology.nodes.length - hosts;
      out(`ok: ${loaded.spec.name}: ${plural(hosts, 'host')}, ${plural(switches, 'switch', 'switches')}, ${plural(input.flows.length, 'flow')}, cc ${input.cc.name}`);
    });

  program
    .command('sweep')
    .description('run every point of a spec with a `sweep:` block on worker threads or as a Slurm job array (resumes a killed sweep)')
    .argument('[spec]', 'experiment spec with a sweep block (.yaml, .yml or .json)')
    .option('-o, --out <dir>', 'sweep folder (default results/<spec name>, results/<spec name>-quick with --quick)')
    .option('-j, --jobs <n>', `worker threads (default cores - 1 = ${defaultJobs()})`, parsePositive)
    .option('--quick', "apply the spec's `quick:` block (reduced sizes)")
    .option('-q, --quiet', 'print only the final summary')
    .option('--point <i>', 'run only point i, in this process (what each Slurm array task runs)', parseSeed)
    .option('--slurm', 'submit the unfinished points as one Slurm job array (sbatch) instead of running them here')
    .option('--partition <p>', 'with --slurm: sbatch --partition')
    .option('--time <t>', 'with --slurm: sbatch --time per point, e.g. 2:00:00')
    .option('--mem <m>', 'with --slurm: sbatch --mem per point, e.g. 8G')
    .option('--status <dir>', 'show done / running / queued / failed points of a sweep folder')
    .action(
      async (
        spec: string | undefined,
        o: { out?: string; jobs?: number; quick?: boolean; quiet?: boolean; point?: number; slurm?: boolean; partition?: string; time?: string; mem?: string; status?: string },
      ) => {
        if (o.status !== undefined) {
          if (spec !== undefined) throw new UsageError('--status takes a sweep folder, not a spec: ccsim sweep --status <dir>');
          printStatus(sweepStatus(o.status));
          return;
        }
        if (spec === undefined) throw new UsageError('missing <spec> (or --status <dir>)');
        const slurmOnly = (['partition', 'time', 'mem'] as const).filter((k) => o[k] !== undefined);
        if (o.slurm !== true && slurmOnly.length > 0) throw new UsageError(`--${slurmOnly[0]} needs --slurm`);
        if (o.slurm === true) {
          if (o.point !== undefined) throw new UsageError('--slurm and --point do not go together');
          const r = submitSlurm(spec, {
            quick: o.quick === true,
            ...(o.out !== undefined ? { out: o.out } : {}),
            ...(o.partition !== undefined ? { partition: o.partition } : {}),
            ...(o.time !== undefined ? { time: o.time } : {}),
            ...(o.mem !== undefined ? { mem: o.mem } : {}),
          });
          if (r.jobId === undefined) out(`nothing to submit: all ${r.skipped} points are finished (${r.dir})`);
          else {
            out(`submitted job array ${r.jobId}: ${r.points.length} point${r.points.length === 1 ? '' : 's'}${r.skipped > 0 ? ` (${r.skipped} already finished)` : ''}; script ${r.script}`);
            out(`  follow it with: ccsim sweep --status ${r.dir}`);
          }
          return;
        }
        const r = await runSweep(spec, {
          ...(o.out !== undefined ? { out: o.out } : {}),
          ...(o.jobs !== undefined ? { jobs: o.jobs } : {}),
          ...(o.point !== undefined ? { only: [o.point], inline: true } : {}),
          quick: o.quick === true,
          quiet: o.quiet === true,
          progress: o.point === undefined && process.stderr.isTTY === true && !process.env['CI'],
        });
        if (o.point === undefined) printSweepOutcome(r);
        else if (r.failed.length === 0) out(`point ${o.point}: ${r.ran > 0 ? 'done' : 'already finished'} (${r.dir})`);
        if (r.failed.length > 0) {
          process.stderr.write(`error: ${r.failed.length} of ${o.point === undefined ? r.plan.points.length : 1} points failed:\n`);
          for (const f of r.failed) process.stderr.write(`  point ${f.index} (${f.label}): ${f.error}\n`);
          throw new PointsFailed();
        }
      },
    );

  program
    .command('report')
    .description('write one self-contained HTML report (charts downloadable as SVG) of a run or sweep folder')
    .argument('<dir>', 'a run folder (manifest.json) or a sweep folder (sweep.json)')
    .option('-o, --out <file>', 'HTML file (default <dir>/report.html)')
    .action((dir: string, o: { out?: string }) => {
      const r = writeReport(dir, o.out);
      out(`report: ${r.file} (${r.charts} charts, ${r.set.runs.length} run${r.set.runs.length === 1 ? '' : 's'})`);
    });

  program
    .command('reproduce')
    .description(`run a paper's experiments (experiments/<paper>/) as one sweep and write a report with the published numbers and a verdict per claim`)
    .argument('<paper>', PAPERS.join(' | '))
    .option('--quick', 'reduced sizes (each spec\'s `quick:` block): minutes on 2 cores')
    .option('-j, --jobs <n>', `worker threads (default cores - 1 = ${defaultJobs()})`, parsePositive)
    .option('-o, --out <dir>', 'results root: sweep folders and reproduce-<paper>/ go under it (default results)')
    .option('-q, --quiet', 'print only the final summary')
    .action(async (paper: string, o: { quick?: boolean; jobs?: number; out?: string; quiet?: boolean }) => {
      const r = await reproduce(paper, {
        quick: o.quick === true,
        ...(o.jobs !== undefined ? { jobs: o.jobs } : {}),
        ...(o.out !== undefined ? { out: o.out } : {}),
        quiet: o.quiet === true,
        progress: process.stdout.isTTY === true && !process.env['CI'],
      });
      if (r.message !== undefined) out(r.message);
      printClaims(r.view);
      if (r.report !== undefined) out(`report: ${r.report}`);
      if (r.failed > 0) {
        process.stderr.write(`error: ${r.failed} point${r.failed === 1 ? '' : 's'} failed (listed above and in the report)\n`);
        throw new PointsFailed();
      }
    });

  program
    .command('claims')
    .description("a paper's published numbers next to the latest results on disk (runs nothing); --write-readme regenerates the table in experiments/<paper>/README.md")
    .argument('<paper>', PAPERS.join(' | '))
    .option('--quick', 'use the --quick results')
    .option('-o, --out <dir>', 'results root (default results)')
    .option('--write-readme', 'rewrite the generated table in experiments/<paper>/README.md (and, at full size, the record data/measured/<paper>.json)')
    .action((paper: string, o: { quick?: boolean; out?: string; writeReadme?: boolean }) => {
      const view = claimsView(paper, { quick: o.quick === true, recorded: true, ...(o.out !== undefined ? { out: o.out } : {}) });
      if (view.data === undefined) out(`no published numbers for ${view.paper} yet (data/published/${view.paper}.yaml)`);
      printClaims(view);
      if (o.writeReadme === true) out(`updated ${writeClaimsReadme(view)}`);
    });

  program
    .command('list')
    .description('list topologies, workloads and congestion-control algorithms')
    .argument('[what]', 'topologies | workloads | ccs (default: all)')
    .action((what: string | undefined) => {
      const all = what === undefined;
      const known = ['topologies', 'workloads', 'ccs'];
      if (!all && !known.includes(what)) throw new UsageError(`list: unknown "${what}" (use ${known.join(', ')})`);
      if (all || what === 'topologies') listTopologies();
      if (all) out();
      if (all || what === 'workloads') listWorkloadCdfs();
      if (all) out();
      if (all || what === 'ccs') listCcs();
    });

  return program;
}

/** Prints an error the way the CLI does and returns the exit code. */
function reportError(e: unknown): number {
  if (e instanceof CommanderError) {
    // commander has already printed the message (or the help / version text)
    return e.exitCode === 0 ? 0 : 2;
  }
  if (e instanceof SpecError) {
    process.stderr.write(`invalid spec${e.file !== undefined ? ` ${e.file}` : ''}:\n`);
    for (const line of e.lines()) process.stderr.write(`  ${line}\n`);
    return 2;
  }
  if (e instanceof PointsFailed) return 3;
  if (e instanceof UsageError) {
    process.stderr.write(`error: ${e.message}\n`);
    return 2;
  }
  process.stderr.write(`error: ${errorMessage(e)}\n`);
  if (process.env['CCSIM_DEBUG'] && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  return 1;
}

async function main(argv: readonly string[] = process.argv): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return 0;
  } catch (e) {
    return reportError(e);
  }
}

// `ccsim list | head`: a closed pipe ends the output quietly
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = await main();
