/**
 * `ccsim report`: one self-contained HTML file for a run or sweep folder.
 * Everything is inline (styles, SVG charts rendered by ECharts on the server
 * side, a few lines of script for the "download SVG" buttons), so the file
 * opens offline and can be mailed or archived as is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError, errorMessage } from '../experiment/errors.js';
import { reportReplaceRefusal, sealHtml } from '../experiment/ownership.js';
import { ccsimVersion } from '../experiment/output.js';
import { writeFileAtomic } from '../experiment/sweep-point.js';
import type { FctStats } from '../metrics/summary.js';
import { flowRates, pfcByLayer, portSeries, slowdownBars, slowdownCdf, type Chart } from './charts.js';
import { findFigure } from '../experiment/analysis.js';
import type { Cell, FigureResult, FigureTable } from '../experiment/analysis.js';
import { loadResults, pointResults, type ResultSet, type RunData } from '../experiment/results.js';
import { formatCell } from './text.js';

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A section of the report: a heading and HTML content. */
export interface ReportSection {
  id: string;
  title: string;
  html: string;
}

export function chartHtmlOf(c: Chart): string {
  return (
    `<figure class="chart" data-chart="${esc(c.id)}">` +
    `<div class="svg">${c.svg}</div>` +
    `<figcaption>${c.note ? `<span class="note">${esc(c.note)}</span> ` : ''}` +
    `<button type="button" data-download="${esc(c.id)}.svg">download SVG</button></figcaption></figure>`
  );
}

export function tableHtml(t: FigureTable, cls = 'figure-table'): string {
  const cell = (c: Cell): string => `<td${typeof c === 'number' ? ' class="num"' : ''}>${esc(formatCell(c))}</td>`;
  return (
    `<table class="${cls}"><caption>${esc(t.title)}</caption>` +
    `<thead><tr>${t.columns.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${t.rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('')}</tbody></table>` +
    (t.notes ?? []).map((n) => `<p class="note">${esc(n)}</p>`).join('')
  );
}

function summaryTable(runs: readonly RunData[]): FigureTable {
  const s = (x: FctStats, k: 'meanSlowdown' | 'p50Slowdown' | 'p95Slowdown' | 'p99Slowdown' | 'p999Slowdown'): Cell =>
    Number.isFinite(x[k]) ? Math.round(x[k] * 1000) / 1000 : null;
  return {
    title: 'Summary',
    columns: ['run', 'cc', 'flows', 'finished', 'mean', 'p50', 'p95', 'p99', 'p99.9', 'drops', 'PFC pauses', 'timeouts', 'events', 'wall s'],
    rows: runs.map((r) => {
      const t = r.summary.totals;
      const o = r.summary.fct.overall;
      const run = r.manifest['run'] as { events?: number; wallMs?: number } | undefined;
      return [
        r.label,
        r.cc,
        t.flows,
        t.finished,
        s(o, 'meanSlowdown'),
        s(o, 'p50Slowdown'),
        s(o, 'p95Slowdown'),
        s(o, 'p99Slowdown'),
        s(o, 'p999Slowdown'),
        t.drops,
        t.pausesSent,
        t.timeouts,
        run?.events ?? null,
        run?.wallMs !== undefined ? Math.round(run.wallMs / 10) / 100 : null,
      ];
    }),
    notes: ['slowdown = FCT / ideal FCT of the flow alone on the empty fabric; columns mean..p99.9 are over all finished flows'],
  };
}

/** The figure analysis results for a result set: figure.json of a sweep, or the analysis run now. */
export function figureResult(set: ResultSet): { id: string; result?: FigureResult; error?: string } | undefined {
  if (set.figure === undefined) return undefined;
  const id = set.figure;
  const fig = findFigure(id);
  if (fig === undefined) {
    const file = join(set.dir, 'figure.json');
    if (existsSync(file)) return { id, result: JSON.parse(readFileSync(file, 'utf8')) as FigureResult };
    return { id, error: `figure analysis ${id} is not known to this ccsim version` };
  }
  try {
    return { id, result: fig.analyze(pointResults(set)) };
  } catch (e) {
    return { id, error: errorMessage(e) };
  }
}

/** Every section of the standard report of a result set. */
export function standardSections(set: ResultSet, idPrefix = ''): ReportSection[] {
  const runs = set.runs;
  const chartHtml = (c: Chart): string => chartHtmlOf({ ...c, id: idPrefix + c.id });
  const sections: ReportSection[] = [];
  const fig = figureResult(set);
  if (fig !== undefined) {
    const body =
      fig.error !== undefined
        ? `<p class="error">not analyzed: ${esc(fig.error)}</p>`
        : (fig.result?.tables ?? []).map((t) => tableHtml(t)).join('') +
          ((fig.result?.claims.length ?? 0) > 0
            ? tableHtml({
                title: 'Measured claims',
                columns: ['claim', 'value', 'unit'],
                rows: fig.result!.claims.map((c) => [c.id, c.value, c.unit ?? '']),
              })
            : '');
    sections.push({ id: `${idPrefix}figure`, title: `Figure analysis: ${fig.id}`, html: body });
  }
  sections.push({ id: `${idPrefix}summary`, title: 'Summary', html: tableHtml(summaryTable(runs), 'summary-table') });
  sections.push({
    id: `${idPrefix}slowdown`,
    title: 'FCT slowdown by flow size',
    html: [slowdownBars(runs, 'meanSlowdown'), slowdownBars(runs, 'p99Slowdown'), slowdownBars(runs, 'p999Slowdown')].map(chartHtml).join(''),
  });
  const cdf = slowdownCdf(runs);
  if (cdf) sections.push({ id: `${idPrefix}cdf`, title: 'Slowdown distribution', html: chartHtml(cdf) });
  const q = portSeries(runs, 'queues');
  if (q.length > 0) sections.push({ id: `${idPrefix}queues`, title: 'Queue length', html: q.map(chartHtml).join('') });
  const th = portSeries(runs, 'throughput');
  if (th.length > 0) sections.push({ id: `${idPrefix}throughput`, title: 'Throughput', html: th.map(chartHtml).join('') });
  const fr = flowRates(runs);
  if (fr.length > 0) {
    sections.push({
      id: `${idPrefix}flow-rates`,
      title: 'Per-flow rates',
      html: fr.map(chartHtml).join('') + '<p class="note">goodput (acknowledged payload per sampling interval); window traces are not recorded by ccsim</p>',
    });
  }
  const pfc = pfcByLayer(runs);
  if (pfc) sections.push({ id: `${idPrefix}pfc`, title: 'PFC pauses', html: chartHtml(pfc) });
  if (set.missing.length > 0) {
    sections.push({
      id: `${idPrefix}missing`,
      title: 'Points without results',
      html: tableHtml({ title: 'Not finished', columns: ['point', 'status', 'error'], rows: set.missing.map((m) => [m.label, m.status, m.error ?? '']) }),
    });
  }
  return sections;
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1600px;color:#222;padding:0 16px}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
.meta{color:#666;font-size:13px} nav a{margin-right:12px;font-size:13px}
.charts{display:flex;flex-wrap:wrap;gap:16px}
figure.chart{display:inline-block;margin:8px 16px 8px 0;border:1px solid #eee;padding:4px;vertical-align:top}
figure.chart .svg svg{display:block;max-width:100%;height:auto}
figcaption{font-size:12px;color:#666;text-align:right} figcaption button{font-size:11px;margin-left:8px;cursor:pointer}
table{border-collapse:collapse;margin:12px 0;font-size:13px} caption{text-align:left;font-weight:600;padding:4px 0}
th,td{border:1px solid #ddd;padding:3px 8px} th{background:#f5f5f5} td.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#666;font-size:12px} .error{color:#b00}
.verdict-holds{background:#e6f4ea} .verdict-deviates{background:#fce8e6} .verdict-not-run{background:#f1f3f4} .verdict-undecided{background:#fef7e0} .verdict-inconclusive{background:#fef7e0} .sensitivity td{color:#555;font-style:italic}
`;

const SCRIPT = `
document.addEventListener('click', function (ev) {
  var b = ev.target;
  if (!(b instanceof HTMLButtonElement) || !b.dataset.download) return;
  var svg = b.closest('figure').querySelector('svg');
  var text = new XMLSerializer().serializeToString(svg);
  var url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  var a = document.createElement('a');
  a.href = url; a.download = b.dataset.download;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
});
`;

export function renderPage(title: string, metaLines: readonly string[], sections: readonly ReportSection[]): string {
  const nav = sections.map((s) => `<a href="#${esc(s.id)}">${esc(s.title)}</a>`).join('');
  const body = sections.map((s) => `<section id="${esc(s.id)}"><h2>${esc(s.title)}</h2><div class="charts">${s.html}</div></section>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(title)}</h1>${metaLines.map((l) => `<p class="meta">${esc(l)}</p>`).join('')}<nav>${nav}</nav>
${body}
<script>${SCRIPT}</script></body></html>
`;
}

/** Writes the report of a run or sweep folder; returns the file path. */
export function writeReport(dir: string, out?: string): { file: string; charts: number; set: ResultSet } {
  const set = loadResults(dir);
  const sections = standardSections(set);
  const meta = [
    set.kind === 'sweep'
      ? `sweep ${set.name}: ${set.runs.length} finished point${set.runs.length === 1 ? '' : 's'}${set.missing.length > 0 ? `, ${set.missing.length} without results` : ''}${set.fields.length > 0 ? `; varied: ${set.fields.join(', ')}` : ''}`
      : `run ${set.name}: cc ${set.runs[0]!.cc}, seed ${String(set.runs[0]!.manifest['seed'])}`,
    `results: ${dir} · ccsim ${ccsimVersion()}`,
  ];
  const file = out ?? join(dir, 'report.html');
  // ownership (experiment/ownership.ts): an existing file is replaced only if it is a report ccsim wrote
  const refusal = reportReplaceRefusal(file);
  if (refusal !== undefined) throw new UsageError(`cannot write the report: ${refusal}`);
  const html = sealHtml(renderPage(`ccsim report: ${set.name}`, meta, sections));
  writeFileAtomic(file, html);
  const charts = (html.match(/<figure class="chart"/g) ?? []).length;
  return { file, charts, set };
}
