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
import { SpecError, UsageError, type SpecIssue } from '../experiment/errors.js';
import { planSweep, type SweepPlan, type SweepPoint } from '../experiment/sweep.js';
import { analyzeSweep, defaultSweepDir, executeSweeps, jobsFor, prepareSweep, type FailedPoint, type SweepAnalysis, type SweepOptions } from '../experiment/sweep-run.js';
import { pointState, writeFileAtomic } from '../experiment/sweep-point.js';
import { commitResultFiles, prepareOutDir } from '../experiment/outdir.js';
import { sealHtml } from '../experiment/ownership.js';
import { ccsimVersion } from '../experiment/output.js';
import type { MeasuredClaim } from '../experiment/analysis.js';
import { esc, renderPage, standardSections, type ReportSection } from './html.js';
import { loadResults } from '../experiment/results.js';
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
  rowOf,
  unknownExperiments,
  type ClaimRecord,
  type ClaimRow,
  type RecordedClaim,
  type Paper,
  type PublishedData,
} from './published.js';
import { formatCell } from './text.js';

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
  /** called with the points about to run and the workers, before any runs (the CLI prints their cost estimate) */
  beforeRun?: (points: readonly SweepPoint[], jobs: number) => void | Promise<void>;
}

export interface ExperimentState {
  name: string;
  file: string;
  plan: SweepPlan;
  dir: string;
  finished: number;
  total: number;
  figure?: SweepAnalysis;
  failed: FailedPoint[];
}

export interface ClaimsView {
  paper: Paper;
  data: PublishedData | undefined;
  experiments: ExperimentState[];
  rows: ClaimRow[];
  /** experiments named by the data file that have no spec */
  unknown: string[];
  /** claims of experiments whose every point finished but whose analysis gave no value for them (an id the analysis does not produce) */
  unmeasured: { experiment: string; id: string }[];
  quick: boolean;
  /** the record file consulted (claimsView with `recorded`), whether or not it exists yet */
  recordFile?: string;
}

const recordKey = (experiment: string, id: string): string => `${experiment}/${id}`;

/** Rows without a measurement on disk take the recorded one, if any (n = 1 when the record predates seeds). */
function withRecorded(data: PublishedData | undefined, rows: ClaimRow[], record: ClaimRecord | undefined): ClaimRow[] {
  if (record === undefined || data === undefined) return rows;
  return rows.map((r) => {
    if (r.measured !== null) return r;
    const rec = record.claims[recordKey(r.experiment, r.id)];
    if (rec === undefined) return r;
    const m = { value: rec.value, n: rec.n ?? 1, ...(rec.bound !== undefined ? { bound: rec.bound } : {}), ...(rec.ci95 !== undefined ? { ci95: rec.ci95 } : {}) };
    const { measured: _m, bound: _b, n: _n, ci95: _c, verdict: _v, recorded: _r, cause: _k, ...claim } = r;
    return rowOf(data, claim, m, rec.points);
  });
}

/** The record after a README rewrite: every measured row, fresh or carried over. */
function recordOf(view: ClaimsView): ClaimRecord {
  const finished = new Map(view.experiments.map((e) => [e.name, `${e.finished}/${e.total}`]));
  const claims: Record<string, RecordedClaim> = {};
  for (const r of view.rows) {
    if (r.measured === null) continue;
    claims[recordKey(r.experiment, r.id)] = {
      value: r.measured,
      ...(r.bound !== undefined ? { bound: r.bound } : {}),
      points: r.recorded ?? finished.get(r.experiment) ?? '?',
      ...(r.n !== undefined && r.n > 1 ? { n: r.n } : {}),
      ...(r.ci95 !== undefined ? { ci95: r.ci95 } : {}),
    };
  }
  return { paper: view.paper, claims };
}

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

/** Measured claims of one experiment from its sweep folder (figure.json, or the analysis run now). */
function experimentState(file: string, plan: SweepPlan, dir: string, failed: FailedPoint[] = []): ExperimentState {
  const states = new Map(plan.points.map((p) => [p.index, existsSync(dir) ? pointState(dir, p.id, p.hash) : ({ status: 'pending' } as const)]));
  const finished = [...states.values()].filter((s) => s.status === 'done').length;
  const st: ExperimentState = { name: experimentName(file), file, plan, dir, finished, total: plan.points.length, failed };
  if (plan.figure !== undefined && finished > 0) st.figure = analyzeSweep(dir, plan, states);
  return st;
}

function measuredMap(exps: readonly ExperimentState[]): Map<string, MeasuredClaim[]> {
  return new Map(exps.map((e) => [e.name, e.figure?.result?.claims ?? []]));
}

/** Experiments run with `seeds:`: their claims per seed. */
function perSeedMap(exps: readonly ExperimentState[]): Map<string, MeasuredClaim[][]> {
  const m = new Map<string, MeasuredClaim[][]>();
  for (const e of exps) if (e.figure?.perSeed !== undefined) m.set(e.name, e.figure.perSeed.map((x) => x.claims));
  return m;
}

/** Claims of experiments that finished every point whose analysis gave them no value: an id it does not produce. */
function unmeasuredOf(exps: readonly ExperimentState[], rows: readonly ClaimRow[]): { experiment: string; id: string }[] {
  const complete = new Set(exps.filter((e) => e.total > 0 && e.finished === e.total && e.figure?.result !== undefined).map((e) => e.name));
  return rows.filter((r) => r.measured === null && complete.has(r.experiment)).map((r) => ({ experiment: r.experiment, id: r.id }));
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
  const fresh = data ? compareClaims(data, measuredMap(experiments), perSeedMap(experiments)) : [];
  const recordFile = opts.record ?? (opts.experiments === undefined && opts.published === undefined ? join(packageRoot(), 'data', 'measured', `${paper}.json`) : undefined);
  const useRecord = opts.recorded === true && !quick && recordFile !== undefined;
  const rows = useRecord ? withRecorded(data, fresh, loadClaimRecord(recordFile!)) : fresh;
  return { paper, data, experiments, rows, unknown: data ? unknownExperiments(data, experiments.map((e) => e.name)) : [], unmeasured: unmeasuredOf(experiments, fresh), quick, ...(useRecord ? { recordFile } : {}) };
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
  if (todo > 0) await opts.beforeRun?.(targets.flatMap((t) => t.todo), jobs);
  const outcomes = await executeSweeps(targets, sweepOpts);
  const experiments = targets.map((t, i) => experimentState(files[i]!, t.plan, t.dir, outcomes[i]!.failed));
  const rows = data ? compareClaims(data, measuredMap(experiments), perSeedMap(experiments)) : [];
  const view: ClaimsView = { paper, data, experiments, rows, unknown: data ? unknownExperiments(data, experiments.map((e) => e.name)) : [], unmeasured: unmeasuredOf(experiments, rows), quick };
  const notes = data ? [] : [`no published numbers for ${paper} yet (${relative(process.cwd(), publishedFile)} is missing): the report shows the measured figures only`];
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

const CLAIM_COLUMNS = ['claim', 'experiment', 'metric', 'published', 'comparison', 'measured', 'verdict', 'cause', 'source'];

function claimCells(r: ClaimRow, view: Pick<ClaimsView, 'quick' | 'experiments'>): string[] {
  let measured = formatMeasured(r) + (r.recorded !== undefined ? ` (recorded, ${r.recorded} points)` : '');
  if (view.quick && r.measured !== null) {
    const plan = view.experiments.find((e) => e.name === r.experiment)?.plan;
    if (plan !== undefined) measured += ` [quick: ${quickLabel(plan)}]`;
  }
  const sens = r.variantOf !== undefined;
  const claim = sens ? `sensitivity (${r.variant ?? 'variant'}) of ${r.variantOf}: ${r.id}` : r.id;
  return [claim, r.experiment, r.metric, `${r.published}${r.unit ?? ''}`, comparisonText(r), measured, sens ? `(${r.verdict}; not counted)` : r.verdict, formatCause(r), r.source];
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

/** Verdict counts over the published claims (sensitivity rows are listed apart). */
export function verdictCounts(all: readonly ClaimRow[]): string {
  const rows = all.filter((r) => r.variantOf === undefined);
  const n = (v: string): number => rows.filter((r) => r.verdict === v).length;
  const undecided = n('undecided');
  const inconclusive = n('inconclusive');
  const sens = all.length - rows.length;
  return (
    `${rows.length} claims: ${n('holds')} hold, ${n('deviates')} deviate, ${inconclusive > 0 ? `${inconclusive} inconclusive (95 % CI over seeds straddles the tolerance), ` : ''}` +
    `${undecided > 0 ? `${undecided} undecided (run too short for a lower bound to decide), ` : ''}${n('not run')} not run` +
    (sens > 0 ? `; ${sens} sensitivity row${sens === 1 ? '' : 's'} (a variant of the model, not counted)` : '')
  );
}

function writeClaimFiles(dir: string, view: ClaimsView): string[] {
  const cols = ['id', 'experiment', 'metric', 'published', 'unit', 'tolerance', 'compare', 'measured', 'bound', 'n', 'ci95', 'verdict', 'variantOf', 'variant', 'cause', 'source'];
  const cell = (v: unknown): string => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? formatCause({ cause: v as ClaimRow['cause'] }) : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [cols.join(','), ...view.rows.map((r) => cols.map((c) => cell((r as unknown as Record<string, unknown>)[c])).join(','))];
  writeFileSync(join(dir, 'claims.csv'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'claims.json'), JSON.stringify({ paper: view.paper, quick: view.quick, claims: view.rows }, null, 2) + '\n');
  return ['claims.csv', 'claims.json'];
}

/** The reproduction report: verdict table, then per experiment its figure, claims and charts. */
export function writeReproduceReport(view: ClaimsView, dir: string, notes: readonly string[] = []): string {
  // the report folder is a ccsim result folder (experiment/outdir.ts): checked, staged, sealed manifest
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
    'Measured values are the mean over n seeds, with the 95 % confidence interval (t-distribution) when n >= 2; the verdict judges the interval against the comparison (inconclusive when it straddles the edge). Sensitivity rows re-measure a claim under a variant of the model and are not counted.',
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
  if (!view.quick && view.recordFile !== undefined) {
    mkdirSync(dirname(view.recordFile), { recursive: true });
    writeFileAtomic(view.recordFile, JSON.stringify(recordOf(view), null, 2) + '\n');
  }
  return file;
}
