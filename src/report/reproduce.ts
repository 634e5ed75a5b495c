/**
 * `ccsim reproduce <paper>`: runs every experiment spec of a paper
 * (experiments/<paper>/*.yaml) as one sweep, i.e. all their points in one pool
 * under one progress bar, then writes one report that shows each figure's
 * tables and charts next to the paper's published numbers
 * (data/published/<paper>.yaml) with a verdict per claim.
 *
 * `ccsim claims <paper>` builds the same published-vs-measured table from the
 * latest results on disk without running anything, and with `--write-readme`
 * regenerates the table in experiments/<paper>/README.md.
 *
 * Each experiment's sweep folder is the one `ccsim sweep` uses
 * (results/<spec name>, results/<spec name>-quick), so points finished by an
 * earlier `ccsim sweep` or `reproduce` are reused.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { SpecError, UsageError, type SpecIssue } from '../engine/errors.js';
import { planSweep, type SweepPlan, type SweepPoint } from '../experiment/run/sweep.js';
import { defaultSweepDir, executeSweeps, jobsFor, prepareSweep, type SweepOptions } from '../experiment/run/sweep-run.js';
import { writeFileAtomic } from '../experiment/results/points.js';
import { experimentState, measuredMap, perReplicaMap, recordOf, unmeasuredOf, withProvenance, withRecorded, type ClaimsView, type ExperimentState } from './claims-view.js';
import { commitResultFiles, prepareOutDir } from '../experiment/results/outdir.js';
import { sealHtml } from '../experiment/results/ownership.js';
import { ccsimVersion } from '../experiment/run/output.js';
import { esc, renderPage, standardSections, type ReportSection } from './html.js';
import { loadResults } from '../experiment/results/results.js';
import {
  checkPaper,
  compareClaims,
  comparisonText,
  displayOrder,
  experimentFiles,
  experimentName,
  loadClaimRecord,
  loadPublished,
  packageRoot,
  unknownExperiments,
  type ClaimRow,
  type Paper,
} from './published.js';
import { formatCell } from './text.js';
import { claimsSummaryLines, paperRow, verdictCounts } from './claims-summary.js';
import { quickScope, quickScopeLines } from './quick-scope.js';

export interface ReproduceOptions {
  quick?: boolean;
  jobs?: number;
  /** results root (sweep folders and the report go under it); default results */
  out?: string;
  /** experiment specs folder; default <package>/experiments/<paper> */
  experiments?: string;
  /** published numbers file; default <package>/data/published/<paper>.yaml */
  published?: string;
  progress?: boolean;
  quiet?: boolean;
  /**
   * full size only: a claim without a result on disk takes its value from the
   * paper's record of earlier measurements (data/measured/<paper>.json,
   * see `RecordedClaim`), marked as such
   */
  recorded?: boolean;
  /** the record file; default <package>/data/measured/<paper>.json, none when `experiments` or `published` is overridden */
  record?: string;
  /** called with what a --quick run can judge (quick-scope.ts), before any runs (the CLI prints it) */
  quickScope?: (lines: readonly string[]) => void;
  /** called with the points about to run and the workers, before any runs (the CLI prints their cost estimate) */
  beforeRun?: (points: readonly SweepPoint[], jobs: number) => void | Promise<void>;
}

export { experimentState, recordOf, type ClaimsView, type ExperimentState } from './claims-view.js';

function paths(paper: Paper, opts: ReproduceOptions): { expDir: string; publishedFile: string; root: string } {
  const pkg = packageRoot();
  return {
    expDir: opts.experiments ?? join(pkg, 'experiments', paper),
    publishedFile: opts.published ?? join(pkg, 'data', 'published', `${paper}.yaml`),
    root: opts.out ?? 'results',
  };
}

/** Plans every experiment of the paper; all spec problems at once, each prefixed with its file. */
function planAll(files: readonly string[], quick: boolean): SweepPlan[] {
  const plans: SweepPlan[] = [];
  const issues: SpecIssue[] = [];
  for (const f of files) {
    try {
      plans.push(planSweep(f, { quick }));
    } catch (e) {
      if (!(e instanceof SpecError)) throw e;
      for (const i of e.issues) issues.push({ ...i, path: `${experimentName(f)}: ${i.path === '' ? '(spec)' : i.path}` });
    }
  }
  if (issues.length > 0) throw new SpecError(issues);
  return plans;
}

function sweepDirOf(plan: SweepPlan, root: string): string {
  return join(root, defaultSweepDir(plan).replace(/^results[\\/]/, ''));
}

/** The published-vs-measured view from the latest results on disk (runs nothing). */
export function claimsView(paperName: string, opts: ReproduceOptions = {}): ClaimsView {
  const paper = checkPaper(paperName);
  const quick = opts.quick === true;
  const { expDir, publishedFile, root } = paths(paper, opts);
  const data = loadPublished(publishedFile);
  const files = experimentFiles(expDir);
  const plans = planAll(files, quick);
  const experiments = plans.map((plan, i) => experimentState(files[i]!, plan, sweepDirOf(plan, root)));
  const fresh = data ? withProvenance(compareClaims(data, measuredMap(experiments), perReplicaMap(experiments)), experiments) : [];
  const recordFile = opts.record ?? (opts.experiments === undefined && opts.published === undefined ? join(packageRoot(), 'data', 'measured', `${paper}.json`) : undefined);
  const useRecord = opts.recorded === true && !quick && recordFile !== undefined;
  const record = useRecord ? loadClaimRecord(recordFile!) : undefined;
  const rows = useRecord ? withRecorded(data, fresh, record, experiments) : fresh;
  return {
    paper,
    data,
    experiments,
    rows,
    unknown: data ? unknownExperiments(data, experiments.map((e) => e.name)) : [],
    unmeasured: unmeasuredOf(experiments, fresh),
    quick,
    ...(useRecord ? { recordFile } : {}),
    ...(record !== undefined ? { record } : {}),
  };
}

export interface ReproduceOutcome {
  view: ClaimsView;
  /** report file, or undefined when the paper has neither experiments nor published numbers */
  report: string | undefined;
  failed: number;
  ran: number;
  /** a message for papers without experiments */
  message?: string;
}

/** Runs the paper's experiments as one sweep and writes the report. */
export async function reproduce(paperName: string, opts: ReproduceOptions = {}): Promise<ReproduceOutcome> {
  const paper = checkPaper(paperName);
  const quick = opts.quick === true;
  const { expDir, publishedFile, root } = paths(paper, opts);
  const data = loadPublished(publishedFile);
  const files = experimentFiles(expDir);
  const reportDir = join(root, `reproduce-${paper}${quick ? '-quick' : ''}`);
  // a report folder that is not ccsim's fails now, not after the sweeps ran
  prepareOutDir(reportDir, REPRODUCE_FILES);
  if (files.length === 0) {
    const message = `no experiments for ${paper} yet: ${expDir} has no experiment specs${data ? `; its ${data.claims.length} published claims are all "not run"` : ''}`;
    const view: ClaimsView = { paper, data, experiments: [], rows: data ? compareClaims(data, new Map()) : [], unknown: [], unmeasured: [], quick };
    const report = data ? writeReproduceReport(view, reportDir, [message]) : undefined;
    return { view, report, failed: 0, ran: 0, message };
  }
  const plans = planAll(files, quick);
  const targets = plans.map((plan) => prepareSweep(plan, sweepDirOf(plan, root)));
  const todo = targets.reduce((s, t) => s + t.todo.length, 0);
  const jobs = jobsFor(todo, opts.jobs);
  const sweepOpts: SweepOptions & { jobs: number } = { jobs, ...(opts.progress !== undefined ? { progress: opts.progress } : {}), ...(opts.quiet !== undefined ? { quiet: opts.quiet } : {}) };
  if (opts.quiet !== true) {
    const total = plans.reduce((s, p) => s + p.points.length, 0);
    process.stdout.write(
      `reproduce ${paper}${quick ? ' (quick)' : ''}: ${plans.length} experiment${plans.length === 1 ? '' : 's'}, ${total} points, ${total - todo} already finished; running ${todo} on ${jobs} worker thread${jobs === 1 ? '' : 's'}\n`,
    );
  }
  // what a quick run can judge, before it runs (and in the report)
  const scope = quick && data ? quickScopeLines(quickScope(data, new Map(plans.map((p, i) => [experimentName(files[i]!), p])))) : [];
  if (opts.quiet !== true && scope.length > 0) opts.quickScope?.(scope);
  if (todo > 0) await opts.beforeRun?.(targets.flatMap((t) => t.todo), jobs);
  const outcomes = await executeSweeps(targets, sweepOpts);
  const experiments = targets.map((t, i) => experimentState(files[i]!, t.plan, t.dir, outcomes[i]!.failed));
  const rows = data ? withProvenance(compareClaims(data, measuredMap(experiments), perReplicaMap(experiments)), experiments) : [];
  const view: ClaimsView = { paper, data, experiments, rows, unknown: data ? unknownExperiments(data, experiments.map((e) => e.name)) : [], unmeasured: unmeasuredOf(experiments, rows), quick };
  const notes = data ? scope : [`no published numbers for ${paper} yet (${relative(process.cwd(), publishedFile)} is missing): the report shows the measured figures only`];
  const report = writeReproduceReport(view, reportDir, notes);
  return { view, report, failed: outcomes.reduce((s, o) => s + o.failed.length, 0), ran: outcomes.reduce((s, o) => s + o.ran, 0) };
}

/** A claim's measured value as shown in tables: '-' when none, '> x<unit>' for a lower bound, 'm ± h' over seeds. */
export function formatMeasured(r: Pick<ClaimRow, 'measured' | 'bound' | 'unit' | 'n' | 'ci95'>): string {
  if (r.measured === null) return '-';
  const v = (x: number): string => formatCell(Math.round(x * 1000) / 1000);
  const ci = r.ci95 !== undefined && Number.isFinite(r.ci95) ? ` ± ${v(r.ci95)}` : '';
  return `${r.bound === 'lower' ? '> ' : ''}${v(r.measured)}${ci}${r.unit ?? ''} (n=${r.n ?? 1})`;
}

/** A cause as one cell: `category (parameter): explanation`. */
export function formatCause(r: Pick<ClaimRow, 'cause'>): string {
  return r.cause === undefined ? '' : `${r.cause.category} (${r.cause.parameter}): ${r.cause.explanation}`;
}

/** What an experiment's `quick:` block changes, in short (`--quick` rows are labelled with it). */
export function quickLabel(plan: SweepPlan): string {
  const parts: string[] = [];
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) parts.push(`${path} ${v.map((x) => (typeof x === 'object' && x !== null ? '{..}' : String(x))).join('/')}`);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, path === '' ? k : `${path}.${k}`);
    else parts.push(`${path} ${String(v)}`);
  };
  walk(plan.meta.quick ?? {}, '');
  const text = parts.filter((p) => !/^sweep\.cc\b/.test(p)).join(', ');
  return text.length > 90 ? `${text.slice(0, 89)}…` : text === '' ? 'as full size' : text;
}

const CLAIM_COLUMNS = ['claim', 'experiment', 'metric', 'published', 'comparison', 'measured', 'verdict', 'cause', 'provenance', 'source'];

/** A row's verdict as shown: stale and partial rows say why and what their value would give. */
export function verdictText(r: Pick<ClaimRow, 'verdict' | 'basis' | 'why' | 'variantOf' | 'spreadExceedsTolerance'>): string {
  let v: string = r.verdict;
  if ((r.verdict === 'stale' || r.verdict === 'partial') && r.basis !== undefined) v = `${r.verdict} (value would give: ${r.basis}; ${r.why ?? ''})`;
  if (r.spreadExceedsTolerance === true) v += ' [replicas spread > tolerance]';
  return r.variantOf !== undefined ? `(${v}; not counted)` : v;
}

/** Where a measurement comes from: build, points used / needed, replicas, CPU time. */
export function provenanceText(r: Pick<ClaimRow, 'provenance' | 'replicas' | 'measured'>): string {
  if (r.measured === null) return '';
  const p = r.provenance ?? {};
  const parts = [`build ${p.build ?? 'none recorded'}`];
  if (p.points !== undefined) parts.push(`${p.points} points`);
  if (r.replicas !== undefined && r.replicas.length > 0) parts.push(`replicas ${r.replicas.map((x) => x || 'spec').join(', ')}`);
  if (p.cpuSeconds !== undefined) parts.push(`${p.cpuSeconds >= 3600 ? `${(p.cpuSeconds / 3600).toFixed(2)} CPU h` : `${Math.round(p.cpuSeconds)} CPU s`}`);
  return parts.join('; ');
}

function claimCells(r: ClaimRow, view: Pick<ClaimsView, 'quick' | 'experiments'>): string[] {
  let measured = formatMeasured(r) + (r.recorded !== undefined ? ` (recorded, ${r.recorded} points)` : '');
  if (view.quick && r.measured !== null) {
    const plan = view.experiments.find((e) => e.name === r.experiment)?.plan;
    if (plan !== undefined) measured += ` [quick: ${quickLabel(plan)}]`;
  }
  const sens = r.variantOf !== undefined;
  const claim = sens ? `sensitivity (${r.variant ?? 'variant'}) of ${r.variantOf}: ${r.id}` : r.id;
  return [claim, r.experiment, r.metric, `${r.published}${r.unit ?? ''}`, comparisonText(r), measured, verdictText(r), formatCause(r), provenanceText(r), r.source];
}

function claimsTableHtml(view: ClaimsView, rows: readonly ClaimRow[], title: string): string {
  const head = `<thead><tr>${CLAIM_COLUMNS.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead>`;
  const body = displayOrder(rows)
    .map((r) => {
      const cells = claimCells(r, view);
      const cls = `verdict-${r.verdict.replace(' ', '-')}${r.variantOf !== undefined ? ' sensitivity' : ''}`;
      return `<tr class="${cls}">${cells.map((c, i) => `<td${i === 3 || i === 5 ? ' class="num"' : ''}>${esc(c)}</td>`).join('')}</tr>`;
    })
    .join('');
  return `<table class="claims-table" data-claims="${rows.length}"><caption>${esc(title)}</caption>${head}<tbody>${body}</tbody></table>`;
}

export { claimsSummaryLines, paperRow, verdictCounts, verdictTally } from './claims-summary.js';

function writeClaimFiles(dir: string, view: ClaimsView): string[] {
  const cols = ['id', 'experiment', 'metric', 'published', 'unit', 'tolerance', 'compare', 'direction', 'measured', 'bound', 'n', 'ci95', 'values', 'replicas', 'verdict', 'basis', 'why', 'variantOf', 'variant', 'cause', 'build', 'model', 'spec', 'points', 'cpuSeconds', 'source'];
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : typeof v === 'object' ? formatCause({ cause: v as ClaimRow['cause'] }) : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const flat = (r: ClaimRow): Record<string, unknown> => ({ ...r, ...(r.provenance ?? {}) });
  const lines = [cols.join(','), ...view.rows.map((r) => cols.map((c) => cell(flat(r)[c])).join(','))];
  writeFileSync(join(dir, 'claims.csv'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'claims.json'), JSON.stringify({ paper: view.paper, quick: view.quick, claims: view.rows }, null, 2) + '\n');
  return ['claims.csv', 'claims.json'];
}

/** The reproduction report: verdict table, then per experiment its figure, claims and charts. */
export function writeReproduceReport(view: ClaimsView, dir: string, notes: readonly string[] = []): string {
  // the report folder is a ccsim result folder (experiment/results/outdir.ts): checked, staged, sealed manifest
  const plan = prepareOutDir(dir, REPRODUCE_FILES);
  const sections: ReportSection[] = [];
  const title = view.data?.title ?? view.paper;
  if (view.data !== undefined) {
    const unknown = view.unknown.length > 0 ? `<p class="error">the data file names experiments without a spec: ${esc(view.unknown.join(', '))}</p>` : '';
    sections.push({
      id: 'claims',
      title: 'Published vs measured',
      html: `<div><p>${esc(verdictCounts(view.rows))}${view.quick ? ' (quick run: reduced sizes, verdicts are indicative only)' : ''}</p>${view.data.defaultModel !== undefined ? `<p>${esc(`Default model: ${view.data.defaultModel}`)}</p>` : ''}${unknown}${claimsTableHtml(view, view.rows, `${title}: published numbers (data/published/${view.paper}.yaml) and this run`)}</div>`,
    });
  }
  for (const e of view.experiments) {
    const pre = `${e.name}-`;
    const parts: string[] = [`<p class="meta">${esc(`${relative(process.cwd(), e.file)}: ${e.finished}/${e.total} points finished${e.failed.length > 0 ? `, ${e.failed.length} failed` : ''}; results in ${e.dir}`)}</p>`];
    for (const f of e.failed) parts.push(`<p class="error">${esc(`point ${f.index} (${f.label}) failed: ${f.error}`)}</p>`);
    const mine = view.rows.filter((r) => r.experiment === e.name);
    if (mine.length > 0) parts.push(claimsTableHtml(view, mine, `${e.name}: published vs measured`));
    let inner = '';
    if (e.finished > 0) {
      const set = loadResults(e.dir);
      inner = standardSections(set, pre)
        .map((s) => `<h3 id="${esc(s.id)}">${esc(s.title)}</h3><div class="charts">${s.html}</div>`)
        .join('');
    } else parts.push('<p class="note">no finished points: not run</p>');
    sections.push({ id: `exp-${e.name}`, title: `${e.name}: ${e.plan.meta.figure ?? 'no figure analysis'}`, html: `<div>${parts.join('')}${inner}</div>` });
  }
  const meta = [`reproduction of ${title}${view.quick ? ' with --quick (reduced sizes)' : ''}`, ...notes];
  const html = sealHtml(renderPage(`ccsim reproduce: ${title}`, meta, sections));
  commitResultFiles(
    plan,
    (staging) => {
      writeFileSync(join(staging, 'report.html'), html);
      return ['report.html', ...writeClaimFiles(staging, view)];
    },
    (files) => ({ ccsim: ccsimVersion(), paper: view.paper, quick: view.quick, files }),
  );
  return join(dir, 'report.html');
}

const REPRODUCE_FILES = ['report.html', 'claims.csv', 'claims.json'];

// ---------------------------------------------------------------------------------------------
// README tables

const BEGIN = '<!-- ccsim:claims:begin -->';
const END = '<!-- ccsim:claims:end -->';

/** The generated Markdown block: published vs measured with verdicts. */
export function claimsMarkdown(view: ClaimsView): string {
  const md = (s: string): string => s.replace(/\|/g, '\\|');
  const cmd = `npm run ccsim -- claims ${view.paper}${view.quick ? ' --quick' : ''} --write-readme`;
  const run = view.experiments.map((e) => pointsCell(view, e)).join(', ');
  const lines = [
    BEGIN,
    `<!-- generated by \`${cmd}\` from data/published/${view.paper}.yaml and the latest results; do not edit by hand -->`,
    '',
    `Published numbers vs the latest ${view.quick ? '`--quick` (reduced-size)' : 'full-size'} results: ${verdictCounts(view.rows)}.`,
    `Points finished per experiment: ${run === '' ? 'no experiments yet' : run}.`,
    ...recordedNote(view),
    ...(view.data?.defaultModel !== undefined ? ['', `Default model: ${view.data.defaultModel}`] : []),
    '',
    ...claimsSummaryLines(view.rows).map((l) => `- ${l}`),
    '',
    'Measured values are the mean over n replicas (seeds, or tie-order perturbations of a deterministic experiment), with the 95 % confidence interval (t-distribution) when n >= 2; the verdict judges the interval against the comparison (inconclusive when it straddles the edge) and, where the paper states a direction, against zero. A value measured on another model or spec, or by a build no record names, is stale; one from fewer points than the claim needs is partial; neither is counted as holds or deviates. Sensitivity rows re-measure a claim under a variant of the model and are not counted.',
    '',
    `| ${CLAIM_COLUMNS.join(' | ')} |`,
    `|${CLAIM_COLUMNS.map(() => '---').join('|')}|`,
    ...displayOrder(view.rows).map((r) => `| ${claimCells(r, view).map(md).join(' | ')} |`),
    '',
    END,
  ];
  return lines.join('\n');
}

/** An experiment's finished points on disk, and those of its recorded values when it has any. */
function pointsCell(view: ClaimsView, e: ExperimentState): string {
  const rec = [...new Set(view.rows.filter((r) => r.experiment === e.name && r.recorded !== undefined).map((r) => r.recorded!))];
  if (rec.length === 0) return `${e.name} ${e.finished}/${e.total}`;
  return e.finished === 0 ? `${e.name} ${rec.join(' / ')} (recorded)` : `${e.name} ${e.finished}/${e.total} (and ${rec.join(' / ')} recorded)`;
}

function recordedNote(view: ClaimsView): string[] {
  const n = view.rows.filter((r) => r.recorded !== undefined).length;
  if (n === 0) return [];
  return [
    `${n} of the measured values are marked "recorded": their points are not in the results on disk now, so they are the last`,
    `measurement written to this table (kept in \`${relative(packageRoot(), view.recordFile ?? '')}\`, with the experiment's points finished then).`,
  ];
}

/**
 * Rewrites the generated block of experiments/<paper>/README.md (created or
 * appended when missing) and, at full size, the paper's record data/measured/<paper>.json.
 */
export function writeClaimsReadme(view: ClaimsView, opts: ReproduceOptions = {}): string {
  if (view.data === undefined) throw new UsageError(`no published numbers for ${view.paper} (data/published/${view.paper}.yaml): nothing to tabulate`);
  const { expDir } = paths(view.paper, opts);
  mkdirSync(expDir, { recursive: true });
  const file = join(expDir, 'README.md');
  const block = claimsMarkdown(view);
  let text: string;
  if (!existsSync(file)) {
    text = `# ${view.data.title}: experiments\n\n## Published vs measured\n\n${block}\n`;
  } else {
    const cur = readFileSync(file, 'utf8');
    const a = cur.indexOf(BEGIN);
    const b = cur.indexOf(END);
    if (a >= 0 && b > a) text = cur.slice(0, a) + block + cur.slice(b + END.length);
    else text = `${cur.replace(/\s*$/, '')}\n\n## Published vs measured\n\n${block}\n`;
  }
  writeFileSync(file, text);
  // the package README's row follows the package's own record only (not a record passed in)
  if (!view.quick && view.recordFile === join(packageRoot(), 'data', 'measured', `${view.paper}.json`)) writePaperRow(view);
  if (!view.quick && view.recordFile !== undefined) {
    mkdirSync(dirname(view.recordFile), { recursive: true });
    writeFileAtomic(view.recordFile, JSON.stringify(recordOf(view), null, 2) + '\n');
  }
  return file;
}

const ROWS_BEGIN = '<!-- ccsim:papers:begin';
const ROWS_END = '<!-- ccsim:papers:end -->';

/**
 * Rewrites this paper's row of the package README's "How close to the papers" table (between
 * the `ccsim:papers` markers; the other papers' rows stay). The row is computed the way a fresh
 * clone computes it: from the record just written, no results on disk.
 */
export function writePaperRow(view: ClaimsView, file = join(packageRoot(), 'README.md')): void {
  if (!existsSync(file) || view.data === undefined) return;
  const cur = readFileSync(file, 'utf8');
  const a = cur.indexOf(ROWS_BEGIN);
  const b = cur.indexOf(ROWS_END);
  if (a < 0 || b < a) return;
  const rows = withRecorded(view.data, view.rows.map((r) => ({ ...r, measured: null, verdict: 'not run' as const })), recordOf(view), view.experiments);
  const row = paperRow(view.data.title, rows);
  const lines = cur.slice(a, b).split('\n');
  const i = lines.findIndex((l) => l.startsWith(`| ${view.data!.title} |`));
  if (i >= 0) lines[i] = row;
  else lines.splice(lines.length - 1, 0, row);
  writeFileSync(file, cur.slice(0, a) + lines.join('\n') + cur.slice(b));
}
