/**
 * `ccsim report`: one self-contained HTML file for a run or sweep folder.
 * Everything is inline (styles, the chart options as JSON, the Apache ECharts
 * runtime, a few lines of script for tooltips' flow counts and the
 * "download SVG / CSV" buttons), so the file opens offline and can be mailed
 * or archived as is. The charts are interactive: tooltips, zoom (toolbox and
 * slider on time axes), legend entries toggle their series.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UsageError, errorMessage } from '../engine/errors.js';
import { reportReplaceRefusal, sealHtml } from '../experiment/results/ownership.js';
import { ccsimVersion } from '../experiment/run/output.js';
import { writeFileAtomic } from '../experiment/results/points.js';
import type { FctStats } from '../metrics/summary.js';
import { HEIGHT, WIDTH, slowdownBarCharts, slowdownCdf, sweepLines, type Chart } from './charts.js';
import { flowRates, pfcByLayer, portSeries, topologyTable } from './charts-series.js';
import { seriesStyles } from './encoding.js';
import { tagTable } from './tags.js';
import { legendNames } from './labels.js';
import { labelChart, labelTable, sampleLabel } from './sample-label.js';
import { portPeakHeatMap, portPeakTable } from './port-peaks.js';
import { findFigure } from '../experiment/results/analysis.js';
import type { Cell, FigureResult, FigureTable } from '../experiment/results/analysis.js';
import { jobCharts, jobTable } from './charts-jobs.js';
import { breakdownCharts, breakdownPortTable } from './charts-breakdown.js';
import { loadResults, pointResults, type ResultSet, type RunData } from '../experiment/results/results.js';
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

/** JSON inside a <script> element: `</` cannot end it early. */
function scriptJson(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c');
}

export function chartHtmlOf(c: Chart): string {
  const w = c.width ?? WIDTH;
  const h = c.height ?? HEIGHT;
  const caption = (buttons: string): string => `<figcaption>${c.note ? `<span class="note">${esc(c.note)}</span> ` : ''}${buttons}</figcaption>`;
  if (c.option === undefined) {
    return (
      `<figure class="chart empty" data-chart="${esc(c.id)}"><div class="title">${esc(c.title)}</div>` +
      `<div class="nodata" style="width:${w}px">${esc(c.empty ?? 'no data')}</div>${caption('')}</figure>`
    );
  }
  return (
    `<figure class="chart" data-chart="${esc(c.id)}">` +
    `<div class="plot" style="width:${w}px;height:${h}px"></div>` +
    `<script type="application/json" class="option">${scriptJson(c.option)}</script>` +
    caption(`<button type="button" data-download="${esc(c.id)}.svg">download SVG</button>`) +
    `</figure>`
  );
}

function fileSafe(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').toLowerCase() || 'table';
}

export function tableHtml(t: FigureTable, cls = 'figure-table', csvName = fileSafe(t.title)): string {
  const cell = (c: Cell): string => `<td${typeof c === 'number' ? ' class="num"' : ''}>${esc(formatCell(c))}</td>`;
  return (
    `<div class="table"><table class="${cls}"><caption>${esc(t.title)} <button type="button" data-csv="${esc(csvName)}.csv">download CSV</button></caption>` +
    `<thead><tr>${t.columns.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${t.rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('')}</tbody></table>` +
    (t.notes ?? []).map((n) => `<p class="note">${esc(n)}</p>`).join('') +
    `</div>`
  );
}

function summaryTable(runs: readonly RunData[], names: readonly string[]): FigureTable {
  const s = (x: FctStats, k: 'meanSlowdown' | 'p50Slowdown' | 'p95Slowdown' | 'p99Slowdown' | 'p999Slowdown'): Cell =>
    Number.isFinite(x[k]) ? Math.round(x[k] * 1000) / 1000 : null;
  return {
    title: 'Summary',
    columns: ['run', 'cc', 'flows', 'finished', 'mean', 'p50', 'p95', 'p99', 'p99.9', 'drops', 'PFC pauses', 'timeouts', 'events', 'wall s'],
    rows: runs.map((r, i) => {
      const t = r.summary.totals;
      const o = r.summary.fct.overall;
      const run = r.manifest['run'] as { events?: number; wallMs?: number } | undefined;
      return [
        names[i]!,
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
  const { names, notes: legendNotes } = legendNames(runs, set.fields);
  // quick / one-seed results say so on every table and chart that shows them
  const label = sampleLabel(set);
  const chartHtml = (c: Chart): string => chartHtmlOf({ ...labelChart(c, label), id: idPrefix + c.id });
  // (its CSV file keeps the table's own name)
  const resultTable = (t: FigureTable, cls?: string): string => tableHtml(labelTable(t, label), cls, fileSafe(t.title));
  // no empty charts: a chart without data is one line of a note under its section's drawn charts
  const drawn = (charts: readonly Chart[]): string => {
    const none = charts.filter((c) => c.option === undefined);
    const notes = none.length > 0 ? `<p class="note">not drawn: ${none.map((c) => `${esc(c.title)} (${esc(c.empty ?? 'no data')})`).join('; ')}</p>` : '';
    return charts.filter((c) => c.option !== undefined).map(chartHtml).join('') + notes;
  };
  const sections: ReportSection[] = [];
  const fig = figureResult(set);
  if (fig !== undefined) {
    const body =
      fig.error !== undefined
        ? `<p class="error">not analyzed: ${esc(fig.error)}</p>`
        : (fig.result?.tables ?? []).map((t) => resultTable(t)).join('') +
          ((fig.result?.claims.length ?? 0) > 0
            ? resultTable({
                title: 'Measured claims',
                columns: ['claim', 'value', 'unit'],
                rows: fig.result!.claims.map((c) => [c.id, c.value, c.unit ?? '']),
              })
            : '');
    sections.push({ id: `${idPrefix}figure`, title: `Figure analysis: ${fig.id}`, html: body });
  }
  const summary = summaryTable(runs, names);
  if (legendNotes.length > 0) summary.notes = [...(summary.notes ?? []), ...legendNotes];
  sections.push({ id: `${idPrefix}summary`, title: 'Summary', html: resultTable(summary, 'summary-table') });
  const tags = tagTable(runs, names);
  if (tags !== undefined) sections.push({ id: `${idPrefix}tags`, title: 'Per workload tag', html: resultTable(tags) });
  const styles = seriesStyles(runs, set.fields);
  const lines = sweepLines(runs, set.fields);
  if (lines.length > 0) sections.push({ id: `${idPrefix}vs`, title: 'Metrics against the swept values', html: drawn(lines) });
  sections.push({ id: `${idPrefix}slowdown`, title: 'FCT slowdown by flow size', html: drawn(slowdownBarCharts(runs, names, styles)) });
  sections.push({ id: `${idPrefix}cdf`, title: 'Slowdown distribution', html: drawn([slowdownCdf(runs, names, styles)]) });
  const bd = breakdownCharts(runs, names);
  if (bd.length > 0) {
    const ports = breakdownPortTable(runs, names);
    sections.push({
      id: `${idPrefix}breakdown`,
      title: 'Where the time went',
      html:
        '<p class="note wide">each bar is a group of finished flows, cut into the parts of their FCT (metrics.breakdown; docs/guide.md, "Why a flow was slow"): ' +
        "each part's share of the group's summed FCT; the tooltip gives the mean per flow. <code>ccsim why</code> prints a flow's parts and its worst port.</p>" +
        drawn(bd) +
        (ports !== undefined ? resultTable(ports) : ''),
    });
  }
  const q = portSeries(runs, names, 'queues', 6, styles);
  // every port's peak, not only the sampled ones: per role for every run, and a heat map of a single run's fabric
  const peaks = portPeakTable(runs, names);
  const allPorts = peaks !== undefined ? `<p class="note wide">the ports metrics.queues sampled over time; the peak of every port: <a href="#${idPrefix}port-peaks">Peak queue per port</a></p>` : '';
  if (q.length > 0) sections.push({ id: `${idPrefix}queues`, title: 'Queue length', html: allPorts + drawn(q) });
  const heat = runs.length === 1 ? portPeakHeatMap(runs[0], label) : undefined;
  if (peaks !== undefined) sections.push({ id: `${idPrefix}port-peaks`, title: 'Peak queue per port (whole fabric)', html: resultTable(peaks) + (heat ?? '') });
  const th = portSeries(runs, names, 'throughput', 6, styles);
  if (th.length > 0) sections.push({ id: `${idPrefix}throughput`, title: 'Throughput', html: drawn(th) });
  const fr = flowRates(runs, names);
  if (fr.length > 0) {
    sections.push({
      id: `${idPrefix}flow-rates`,
      title: 'Per-flow rates',
      html: drawn(fr) + '<p class="note">goodput (acknowledged payload per sampling interval); window traces are not recorded by ccsim</p>',
    });
  }
  const jt = jobTable(runs, names);
  if (jt) sections.push({ id: `${idPrefix}jobs`, title: 'Job iterations', html: drawn(jobCharts(runs, names)) + resultTable(jt) });
  const pfc = pfcByLayer(runs, names);
  if (pfc) sections.push({ id: `${idPrefix}pfc`, title: 'PFC pauses', html: chartHtml(pfc) });
  const topo = topologyTable(runs[0]);
  if (topo) sections.push({ id: `${idPrefix}topology`, title: 'Topology', html: tableHtml(topo) });
  if (set.missing.length > 0) {
    sections.push({
      id: `${idPrefix}missing`,
      title: 'Points without results',
      html: tableHtml({ title: 'Not finished', columns: ['point', 'status', 'error'], rows: set.missing.map((m) => [m.label, m.status, m.error ?? '']) }),
    });
  }
  return sections;
}

/** Every chart of the standard report of a result set (for `ccsim report --svg/--png`). */
export function standardCharts(set: ResultSet): Chart[] {
  const runs = set.runs;
  const { names } = legendNames(runs, set.fields);
  const styles = seriesStyles(runs, set.fields);
  const label = sampleLabel(set);
  return [
    ...sweepLines(runs, set.fields),
    ...slowdownBarCharts(runs, names, styles),
    slowdownCdf(runs, names, styles),
    ...breakdownCharts(runs, names),
    ...portSeries(runs, names, 'queues', 6, styles),
    ...portSeries(runs, names, 'throughput', 6, styles),
    ...flowRates(runs, names),
    ...jobCharts(runs, names),
    ...[pfcByLayer(runs, names)].filter((c): c is Chart => c !== undefined),
  ].map((c) => labelChart(c, label));
}

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1600px;color:#222;padding:0 16px}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
.meta{color:#666;font-size:13px} nav a{margin-right:12px;font-size:13px}
.charts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
figure.chart{display:inline-block;margin:8px 16px 8px 0;border:1px solid #eee;padding:4px;vertical-align:top}
figure.chart .plot{max-width:100%}
figure.empty .title{font-weight:600;font-size:14px;text-align:center;padding:8px}
figure.empty .nodata{color:#888;font-size:14px;text-align:center;padding:24px 0;max-width:100%}
figcaption{font-size:12px;color:#666;text-align:right;max-width:760px} button{font-size:11px;margin-left:8px;cursor:pointer;font-weight:normal}
table{border-collapse:collapse;margin:12px 0;font-size:13px} caption{text-align:left;font-weight:600;padding:4px 0}
th,td{border:1px solid #ddd;padding:3px 8px} th{background:#f5f5f5} td.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#666;font-size:12px} table.heatmap td,table.heatmap th{padding:1px 4px;font-size:10px;min-width:22px} table.heatmap td.none{background:#f4f4f4} p.wide{flex-basis:100%;margin:4px 0} .error{color:#b00}
.verdict-holds{background:#e6f4ea} .verdict-deviates{background:#fce8e6} .verdict-not-run{background:#f1f3f4} .verdict-undecided{background:#fef7e0} .verdict-inconclusive{background:#fef7e0} .sensitivity td{color:#555;font-style:italic}
`;

const SCRIPT = `
(function () {
  function fmt(v) { return v === null || v === undefined ? 'too few flows' : String(v); }
  function flowsTip(params) {
    var ps = Array.isArray(params) ? params : [params];
    var head = ps.length ? String(ps[0].axisValueLabel || ps[0].name).split('\\n')[0] : '';
    return head + ps.map(function (p) {
      var d = p.data || {};
      return '<br>' + p.marker + p.seriesName + ': ' + fmt(d.value) + ' (' + (d.n || 0).toLocaleString('en-US') + ' flows)';
    }).join('');
  }
  function partsTip(params) {
    var ps = Array.isArray(params) ? params : [params];
    var head = ps.length ? String(ps[0].axisValueLabel || ps[0].name).split('\\n').join(', ') : '';
    return head + ps.filter(function (p) { return p.data && p.data.value > 0; }).map(function (p) {
      var d = p.data;
      return '<br>' + p.marker + p.seriesName + ': ' + d.value.toFixed(1) + ' %' + (d.us === null ? '' : ' (' + d.us.toLocaleString('en-US') + ' us per flow)');
    }).join('');
  }
  var charts = [];
  document.querySelectorAll('figure.chart').forEach(function (fig) {
    var el = fig.querySelector('.plot');
    var src = fig.querySelector('script.option');
    if (!el || !src) return;
    var opt = JSON.parse(src.textContent);
    if (opt.tooltip && opt.tooltip.ccsimFormat === 'flows') opt.tooltip.formatter = flowsTip;
    if (opt.tooltip && opt.tooltip.ccsimFormat === 'parts') opt.tooltip.formatter = partsTip;
    var chart = echarts.init(el, null, { renderer: 'svg' });
    chart.setOption(Object.assign({ animation: false, backgroundColor: '#fff' }, opt));
    fig.ccsimChart = chart;
    charts.push(chart);
  });
  window.ccsimCharts = charts;
  function save(name, text, type) {
    var url = URL.createObjectURL(new Blob([text], { type: type }));
    var a = document.createElement('a');
    a.href = url; a.download = name;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }
  function csvCell(s) { return /[",\\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s; }
  document.addEventListener('click', function (ev) {
    var b = ev.target;
    if (!(b instanceof HTMLButtonElement)) return;
    if (b.dataset.download) {
      var svg = b.closest('figure').querySelector('.plot svg');
      save(b.dataset.download, new XMLSerializer().serializeToString(svg), 'image/svg+xml');
    } else if (b.dataset.csv) {
      var rows = b.closest('table').querySelectorAll('tr');
      var lines = [];
      rows.forEach(function (tr) {
        var cells = [];
        tr.querySelectorAll('th,td').forEach(function (c) { cells.push(csvCell(c.textContent)); });
        lines.push(cells.join(','));
      });
      save(b.dataset.csv, lines.join('\\n') + '\\n', 'text/csv');
    }
  });
})();
`;

let runtime: string | undefined;

/** The ECharts browser build (the common charts and components), to inline once per page. */
export function echartsRuntime(): string {
  if (runtime === undefined) {
    const main = createRequire(import.meta.url).resolve('echarts');
    runtime = readFileSync(join(dirname(main), 'echarts.common.min.js'), 'utf8').replace(/<\/script/gi, '<\\/script');
  }
  return runtime;
}

export function renderPage(title: string, metaLines: readonly string[], sections: readonly ReportSection[]): string {
  const nav = sections.map((s) => `<a href="#${esc(s.id)}">${esc(s.title)}</a>`).join('');
  const body = sections.map((s) => `<section id="${esc(s.id)}"><h2>${esc(s.title)}</h2><div class="charts">${s.html}</div></section>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(title)}</h1>${metaLines.map((l) => `<p class="meta">${esc(l)}</p>`).join('')}<nav>${nav}</nav>
${body}
<script>${echartsRuntime()}</script>
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
  // ownership (experiment/results/ownership.ts): an existing file is replaced only if it is a report ccsim wrote
  const refusal = reportReplaceRefusal(file);
  if (refusal !== undefined) throw new UsageError(`cannot write the report: ${refusal}`);
  const html = sealHtml(renderPage(`ccsim report: ${set.name}`, meta, sections));
  writeFileAtomic(file, html);
  const charts = (html.match(/<figure class="chart"/g) ?? []).length;
  return { file, charts, set };
}
