/**
 * The CLI's sweep, reproduce and claims commands (./main.ts parses the
 * command line and loads this module only for them; run and validate are in
 * ./run.ts, which loads less).
 */
import { UsageError } from '../engine/errors.js';
import { loadSpecPlugins } from '../experiment/run/plugins.js';
import { runSweep, type SweepOutcome } from '../experiment/run/sweep-run.js';
import { submitSlurm, sweepStatus, type SweepStatus } from '../experiment/run/slurm.js';
import { formatCell, formatTable } from '../report/text.js';
import { claimsSummaryLines, claimsView, formatCause, formatMeasured, provenanceText, quickLabel, reproduce, verdictCounts, writeClaimsReadme, type ClaimsView } from '../report/reproduce.js';
import { comparisonText, displayOrder } from '../report/published.js';
import { dirname, join } from 'node:path';
import { out } from './format.js';
import { fitTable, TERMINAL_COLUMNS, wrap } from './fit.js';
import { printSweepEstimate } from './estimate.js';
import type { Cell, FigureTable } from '../experiment/results/analysis.js';
import { readRunSummary } from '../experiment/results/results.js';
import { pointDir } from '../experiment/results/points.js';
import { PointsFailed } from './errors.js';
import '../../experiments/index.js';

// ---------------------------------------------------------------------------------------------
// commands




function printSweepOutcome(r: SweepOutcome): void {
  const secs = r.wallMs / 1000;
  const parts = [`${r.finished}/${r.plan.points.length} points finished`];
  if (r.skipped > 0) parts.push(`${r.skipped} skipped (already finished)`);
  if (r.failed.length > 0) parts.push(`${r.failed.length} failed`);
  out(`sweep ${r.plan.name}: ${parts.join(', ')}; ${r.ran} run in ${secs.toFixed(1)} s on ${r.jobs} worker${r.jobs === 1 ? '' : 's'}`);
  out(`  results: ${r.dir} (index: sweep.json, points.csv)`);
  const table = pointsTable(r);
  if (table.rows.length > 0) {
    out();
    for (const l of formatTable(table)) out(l);
  }
  const footer = `charts and tables: ccsim report ${r.dir}`;
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
  if (r.finished > 0) {
    out();
    out(footer);
  }
}

/**
 * One row per point: FCT slowdown mean and p99 over finished flows, unfinished flows (from each
 * point's summary.json), and the mean slowdown of each workload tag (an incast beside its
 * background traffic) when the points have tags.
 */
function pointsTable(r: SweepOutcome): FigureTable {
  const failed = new Map(r.failed.map((f) => [f.index, f.error]));
  const summaries = r.plan.points.map((p) => readRunSummary(pointDir(r.dir, p.id)));
  // a tag that holds every flow of every point (an incast alone) adds nothing to the overall columns
  const tags = [...new Set(summaries.flatMap((s) => Object.keys(s?.fct.tags ?? {})))].filter((t) =>
    summaries.some((s) => s !== undefined && (s.fct.tags[t]?.count ?? 0) < s.fct.overall.count),
  );
  const num = (x: number | null | undefined): Cell => (typeof x === 'number' && Number.isFinite(x) ? x : null);
  const rows: Cell[][] = r.plan.points.map((p, i) => {
    const s = summaries[i];
    if (s === undefined) return [p.label, null, null, null, ...tags.map(() => null), null, failed.has(p.index) ? 'failed' : 'not finished'];
    const o = s.fct.overall;
    return [p.label, s.totals.flows, num(o.meanSlowdown), num(o.p99Slowdown), ...tags.map((t) => num(s.fct.tags[t]?.meanSlowdown)), s.unfinished, 'done'];
  });
  return {
    title: 'FCT slowdown per point (over finished flows)',
    columns: ['point', 'flows', 'mean', 'p99', ...tags.map((t) => `mean ${t}`), 'unfinished', 'status'],
    rows,
  };
}

/**
 * The claims table in at most 120 columns (./fit.ts): causes, ids and values shortened with an
 * ellipsis, the full table in the report's claims.csv; quick sizes once per experiment below it,
 * and the claims a quick run cannot judge (their points are not in its quick sweep) in one line
 * instead of a warning each.
 */
function printClaims(view: ClaimsView, fullTable?: string): void {
  if (view.rows.length === 0) return;
  const ordered = displayOrder(view.rows);
  const rows = ordered.map((r) => [
    r.variantOf !== undefined ? `  sensitivity (${r.variant ?? 'variant'}): ${r.id}` : r.id,
    r.experiment,
    `${r.published}${r.unit ?? ''}`,
    comparisonText(r),
    formatMeasured(r) + (r.recorded !== undefined ? ' (rec.)' : ''),
    `${r.verdict}${r.basis !== undefined ? ` (${r.basis})` : ''}${r.spreadExceedsTolerance === true ? '!' : ''}${r.variantOf !== undefined ? '*' : ''}`,
  ]);
  // under its row, on a line of its own: where the value comes from, then why it is stale / partial or its cause
  const causes = ordered.map((r) => {
    if (r.measured === null) return r.cause !== undefined ? `      cause: ${formatCause(r)}` : undefined;
    const why = r.why !== undefined ? `; ${r.verdict}: ${r.why}` : r.cause !== undefined ? `; cause: ${formatCause(r)}` : '';
    return `      ${provenanceText(r)}${why}`;
  });
  const table = { title: `${view.data?.title ?? view.paper}: published vs measured${view.quick ? ' (quick)' : ''}`, columns: ['claim', 'experiment', 'published', 'comparison', 'measured', 'verdict'], rows };
  const shrink = [
    { col: 0, min: 36, middle: true },
    { col: 4, min: 20 },
    { col: 3, min: 14 },
    { col: 1, min: 12, middle: true },
    { col: 0, min: 24, middle: true },
  ];
  const lines = fitTable(table, shrink, TERMINAL_COLUMNS, causes);
  for (const l of lines) out(l);
  if (ordered.some((r) => r.variantOf !== undefined)) out('* a sensitivity row: a variant of the model, not counted');
  if (ordered.some((r) => r.basis !== undefined)) out('stale / partial (v): not counted; v is what the value would give');
  if (ordered.some((r) => r.spreadExceedsTolerance === true)) out('!: the replicas spread by more than the tolerance (the verdict rests on their interval)');
  if (ordered.some((r) => r.recorded !== undefined)) out('(rec.): recorded, not in the results on disk (below)');
  for (const l of wrap(verdictCounts(view.rows))) out(l);
  for (const x of claimsSummaryLines(view.rows)) for (const l of wrap(x)) out(l);
  const cut = lines.some((l) => l.includes('…'));
  if (cut) out(fullTable !== undefined ? `(shortened to ${TERMINAL_COLUMNS} columns; the full table: ${fullTable})` : `(shortened to ${TERMINAL_COLUMNS} columns; the full table: ccsim reproduce ${view.paper}${view.quick ? ' --quick' : ''} writes it to claims.csv)`);
  if (view.quick) {
    const measured = new Set(view.rows.filter((r) => r.measured !== null).map((r) => r.experiment));
    for (const e of view.experiments.filter((x) => measured.has(x.name))) for (const l of wrap(`quick ${e.name}: ${quickLabel(e.plan)}`, TERMINAL_COLUMNS, '    ')) out(l);
  }
  if (view.data?.defaultModel !== undefined) out(`default model: ${view.data.defaultModel}`);
  for (const u of view.unknown) out(`warning: the data file names experiment "${u}" which has no spec`);
  if (view.quick && view.unmeasured.length > 0) {
    // quick sweeps leave out points on purpose: say which claims this size cannot judge, once
    const ids = view.unmeasured.map((u) => u.id);
    for (const l of wrap(`not judged at quick size (${ids.length} claim${ids.length === 1 ? '' : 's'} whose points the quick sweeps leave out; run at full size): ${ids.join(', ')}`)) out(l);
  } else {
    for (const u of view.unmeasured) {
      for (const l of wrap(`warning: ${u.experiment} finished every point, but its analysis gives no value for claim "${u.id}" (check the id against the analysis's measured claims)`)) out(l);
    }
  }
  if (view.rows.some((r) => r.recorded !== undefined)) for (const l of wrap(`(recorded: not in the results on disk; the last measurement kept in ${view.recordFile ?? 'the record'})`)) out(l);
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




export interface SweepCommandOptions {
  out?: string;
  jobs?: number;
  quick?: boolean;
  quiet?: boolean;
  point?: number;
  slurm?: boolean;
  partition?: string;
  time?: string;
  mem?: string;
  status?: string;
}

export async function sweepCommand(spec: string | undefined, o: SweepCommandOptions): Promise<void> {
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
    await loadSpecPlugins(spec); // the job array's `ccsim sweep --point` runs load them again
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
    ...(o.quiet === true || o.point !== undefined ? {} : { beforeRun: printSweepEstimate }),
  });
  if (o.point === undefined) printSweepOutcome(r);
  else if (r.failed.length === 0) out(`point ${o.point}: ${r.ran > 0 ? 'done' : 'already finished'} (${r.dir})`);
  if (r.failed.length > 0) {
    process.stderr.write(`error: ${r.failed.length} of ${o.point === undefined ? r.plan.points.length : 1} points failed:\n`);
    for (const f of r.failed) process.stderr.write(`  point ${f.index} (${f.label}): ${f.error}\n`);
    throw new PointsFailed();
  }
}

export async function reproduceCommand(paper: string, o: { quick?: boolean; jobs?: number; out?: string; quiet?: boolean }): Promise<void> {
  const r = await reproduce(paper, {
    quick: o.quick === true,
    ...(o.jobs !== undefined ? { jobs: o.jobs } : {}),
    ...(o.out !== undefined ? { out: o.out } : {}),
    quiet: o.quiet === true,
    progress: process.stdout.isTTY === true && !process.env['CI'],
    ...(o.quiet === true ? {} : { beforeRun: printSweepEstimate, quickScope: (lines: readonly string[]) => lines.forEach((x) => wrap(x).forEach((l) => out(l))) }),
  });
  if (r.message !== undefined) out(r.message);
  printClaims(r.view, r.report !== undefined ? join(dirname(r.report), 'claims.csv') : undefined);
  if (r.report !== undefined) out(`report: ${r.report}`);
  if (r.failed > 0) {
    process.stderr.write(`error: ${r.failed} point${r.failed === 1 ? '' : 's'} failed (listed above and in the report)\n`);
    throw new PointsFailed();
  }
}

export function claimsCommand(paper: string, o: { quick?: boolean; out?: string; writeReadme?: boolean }): void {
  const view = claimsView(paper, { quick: o.quick === true, recorded: true, ...(o.out !== undefined ? { out: o.out } : {}) });
  if (view.data === undefined) out(`no published numbers for ${view.paper} yet (data/published/${view.paper}.yaml)`);
  printClaims(view);
  if (o.writeReadme === true) out(`updated ${writeClaimsReadme(view)}`);
}


/** `ccsim canary [--update]`: the model fingerprint check (report/canary.ts). */
export async function canaryCommand(o: { update?: boolean; jobs?: number }): Promise<void> {
  const { canaryDiff, loadModelFile, runCanaries, writeModelFile } = await import('../report/canary.js');
  const run = await runCanaries(o.jobs !== undefined ? { jobs: o.jobs } : {});
  const cur = loadModelFile();
  const moved = cur === undefined ? [] : canaryDiff(cur.canaries, run.values);
  out(`canary: ${Object.keys(run.values).length} values from build ${run.build} in ${run.cpuSeconds} CPU s; fingerprint ${run.fingerprint}${cur === undefined ? ' (no model file yet)' : cur.fingerprint === run.fingerprint ? ' (unchanged)' : ` (model file: ${cur.fingerprint})`}`);
  for (const m of moved) out(`  moved: ${m}`);
  if (o.update === true) {
    out(`wrote ${writeModelFile(run)}${moved.length > 0 ? ': records made on the old model are now stale' : ''}`);
    return;
  }
  if (cur === undefined || moved.length > 0) {
    process.stderr.write(`error: ${cur === undefined ? 'no data/measured/model.json' : `${moved.length} canary value${moved.length === 1 ? '' : 's'} moved`}: if the model change is deliberate, run \`ccsim canary --update\` and re-record the papers (their records become stale)\n`);
    process.exitCode = 1;
  }
}
