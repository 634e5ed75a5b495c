/**
 * The report's FCT charts as Apache ECharts options (plain JSON): the HTML
 * report draws them in the browser with the ECharts runtime inlined in the
 * file (tooltips, zoom, legend toggles; ./html.ts), `ccsim report --svg/--png`
 * renders the same options on the server side (./figures.ts). Each builder
 * turns result data into a `Chart`; a chart without data carries the reason
 * (`empty`) instead of an option, so no empty axes are ever drawn.
 */
import type { RunData } from '../experiment/results/results.js';
import { readColumns } from '../experiment/results/results.js';
import type { BinSetStats, FctStats } from '../metrics/summary.js';
import { legendNames, shortKeys } from './labels.js';
import { barStyleOf, lineStyleOf, seriesStyles, type SeriesStyle } from './encoding.js';

export type Option = Record<string, unknown>;

export interface Chart {
  /** stable id: file name of the figure files, `data-chart` attribute in the HTML */
  id: string;
  title: string;
  /** the ECharts option; absent when there is nothing to draw (see `empty`) */
  option?: Option;
  /** why nothing is drawn, e.g. "no flow finished" */
  empty?: string;
  /** shown under the chart (e.g. series left out, bins with too few flows) */
  note?: string;
  width?: number;
  height?: number;
}

export const WIDTH = 720;
export const HEIGHT = 400;
/** at most this many series in one chart (legend stays readable, file stays small) */
export const MAX_SERIES = 16;
/** points per line series after downsampling */
const MAX_POINTS = 600;

/** Rows a plain (wrapping) legend of these names takes in a chart of the report's width. */
function legendRows(names: readonly string[]): number {
  let rows = 1;
  let x = 0;
  const avail = WIDTH - 60;
  for (const n of names) {
    const w = 14 + 5 + n.length * 6 + 10;
    if (x > 0 && x + w > avail) {
      rows++;
      x = 0;
    }
    x += w;
  }
  return rows;
}

/** The chart height that leaves the plot its room under a legend of these names. */
export function heightFor(legend: readonly string[] | undefined): number {
  return HEIGHT + (legend === undefined || legend.length === 0 ? 0 : (legendRows(legend) - 1) * 18);
}

/**
 * The common frame: title, legend (plain, wrapping: every entry visible and a
 * click toggles its series), tooltip, toolbox (zoom, restore), and with
 * `zoom` a slider under the x axis. The chart grows with the legend's rows.
 */
export function frame(title: string, legend: readonly string[] | undefined, zoom: boolean): Option {
  const rows = legend === undefined || legend.length === 0 ? 0 : legendRows(legend);
  const top = 44 + rows * 18 + (rows > 0 ? 12 : 0);
  return {
    title: { text: title, left: 'center', top: 6, right: 60, textStyle: { fontSize: 14, width: WIDTH - 120, overflow: 'truncate' } },
    ...(rows > 0 ? { legend: { type: 'plain', top: 34, left: 30, right: 30, textStyle: { fontSize: 10 }, itemWidth: 14, itemHeight: 8, itemGap: 10 } } : {}),
    grid: { left: 72, right: 36, top, bottom: zoom ? 84 : 64, containLabel: false },
    tooltip: { trigger: 'axis', confine: true },
    toolbox: { right: 8, top: 4, itemSize: 12, feature: zoom ? { dataZoom: { yAxisIndex: 'none' }, restore: {} } : { restore: {} } },
    ...(zoom ? { dataZoom: [{ type: 'inside' }, { type: 'slider', height: 16, bottom: 6 }] } : {}),
  };
}

export function axis(type: 'value' | 'log' | 'category', name: string, extra: Option = {}): Option {
  return { type, name, nameLocation: 'middle', nameGap: type === 'category' ? 44 : 34, ...extra };
}

/** Keeps at most `max` points (evenly strided, last kept). */
export function thin<T>(xs: readonly T[], max = MAX_POINTS): T[] {
  if (xs.length <= max) return [...xs];
  const step = xs.length / max;
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(xs[Math.floor(i * step)]!);
  out.push(xs[xs.length - 1]!);
  return out;
}

export function limitNote(total: number, shown: number, what: string): string | undefined {
  return total > shown ? `showing ${shown} of ${total} ${what}` : undefined;
}

export function r3(x: number | null | undefined): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null;
}

export const STATS = {
  meanSlowdown: { label: 'mean', id: 'mean', minFlows: 1 },
  p99Slowdown: { label: 'p99', id: 'p99', minFlows: 100 },
  p999Slowdown: { label: 'p99.9', id: 'p999', minFlows: 1000 },
} as const;
export type StatKey = keyof typeof STATS;

function fmtCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * Bars of one slowdown statistic per size bin of one bin set (and all flows),
 * one bar per run. A bin's axis label gives its finished-flow count; a tail
 * percentile is drawn only where the bin has enough flows for it (p99: 100,
 * p99.9: 1,000), the others are marked "too few". A bin set's "outside" slot
 * appears only when some flow fell outside its bins.
 */
export function slowdownBars(runs: readonly RunData[], names: readonly string[], setIndex: number, stat: StatKey, styles?: readonly SeriesStyle[]): Chart {
  const st = STATS[stat];
  const shown = runs.slice(0, MAX_SERIES);
  const shownNames = names.slice(0, shown.length);
  const sets = shown.map((r) => r.summary.fct.binSets[setIndex]).filter((s): s is BinSetStats => s !== undefined);
  const set0 = sets[0];
  const title = `FCT slowdown (${st.label}) per flow size, ${set0?.title ?? 'all flows'}`;
  const id = `slowdown-${st.id}-${set0?.name ?? 'all'}`;
  if (shown.every((r) => r.summary.totals.finished === 0)) return { id, title, empty: 'no flow finished' };
  const cats: { label: string; of: (r: RunData) => FctStats | undefined }[] = [];
  if (set0 !== undefined) {
    set0.bins.forEach((b, j) => cats.push({ label: b.label, of: (r) => r.summary.fct.binSets[setIndex]?.bins[j] }));
    if (sets.some((s) => s.outside.count > 0)) cats.push({ label: 'outside these bins', of: (r) => r.summary.fct.binSets[setIndex]?.outside });
  }
  cats.push({ label: 'all flows', of: (r) => r.summary.fct.overall });
  let fewBins = 0;
  const labels = cats.map((c) => {
    const ns = shown.map((r) => c.of(r)?.count ?? 0);
    const lo = Math.min(...ns);
    const hi = Math.max(...ns);
    const few = lo < st.minFlows;
    if (few) fewBins++;
    const mark = !few ? '' : hi === 0 ? ' (none)' : ' (too few)';
    return `${c.label}\nn=${lo === hi ? fmtCount(lo) : `${fmtCount(lo)}-${fmtCount(hi)}`}${mark}`;
  });
  const catWidth = (WIDTH - 108) / cats.length;
  const option: Option = {
    ...frame(title, shownNames, false),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true, ccsimFormat: 'flows' },
    xAxis: axis('category', 'flow size bin (finished flows)', { data: labels, axisLabel: { interval: 0, fontSize: 10, width: Math.floor(catWidth - 8), overflow: 'break', lineHeight: 13 } }),
    yAxis: axis('value', `${st.label} slowdown`, { nameGap: 46 }),
    series: shown.map((r, i) => ({
      name: names[i],
      type: 'bar',
      ...(styles?.[i] !== undefined ? barStyleOf(styles[i]) : {}),
      data: cats.map((c) => {
        const s = c.of(r);
        const n = s?.count ?? 0;
        // too few flows for the statistic: drawn faint and hatched-out by its label, not dropped
        return n >= st.minFlows ? { value: r3(s?.[stat]), n } : { value: n > 0 ? r3(s?.[stat]) : null, n, itemStyle: { opacity: 0.45, borderType: 'dashed', borderWidth: 1, borderColor: '#555' } };
      }),
    })),
  };
  if (shown.every((r) => cats.every((c) => (c.of(r)?.count ?? 0) === 0))) return { id, title, empty: 'no flow finished' };
  const notes = [
    fewBins > 0 && st.minFlows > 1 ? `faint, dash-outlined bars: fewer than the ${fmtCount(st.minFlows)} finished flows a reliable ${st.label} needs (bins marked "too few")` : undefined,
    limitNote(runs.length, shown.length, 'runs'),
  ].filter(Boolean);
  return { id, title, option, height: heightFor(shownNames), ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

/** The bar charts of every bin set of the runs' summaries, per statistic. */
export function slowdownBarCharts(runs: readonly RunData[], names: readonly string[], styles?: readonly SeriesStyle[]): Chart[] {
  const sets = runs[0]?.summary.fct.binSets.length ?? 0;
  const charts: Chart[] = [];
  for (const stat of Object.keys(STATS) as StatKey[]) {
    if (sets === 0) charts.push(slowdownBars(runs, names, -1, stat, styles));
    for (let i = 0; i < sets; i++) charts.push(slowdownBars(runs, names, i, stat, styles));
  }
  return charts;
}

/** CDF of per-flow slowdown, one line per run (log x axis). */
export function slowdownCdf(runs: readonly RunData[], names: readonly string[], styles?: readonly SeriesStyle[]): Chart {
  const shown = runs.slice(0, MAX_SERIES);
  const series: Option[] = [];
  shown.forEach((r, i) => {
    const xs = readColumns(r.dir, 'fct').numbers('slowdown').filter((v) => Number.isFinite(v) && v > 0);
    if (xs.length === 0) return;
    xs.sort((a, b) => a - b);
    const pts = xs.map((v, k) => [v, (k + 1) / xs.length] as [number, number]);
    series.push({ name: names[i], type: 'line', showSymbol: false, step: 'end', ...(styles?.[i] !== undefined ? lineStyleOf(styles[i]) : {}), data: thin(pts).map(([x, y]) => [Math.round(x * 1e4) / 1e4, Math.round(y * 1e4) / 1e4]) });
  });
  const title = 'CDF of FCT slowdown';
  if (series.length === 0) return { id: 'slowdown-cdf', title, empty: 'no flow finished' };
  const option: Option = {
    ...frame(title, series.map((x) => String(x['name'])), true),
    xAxis: axis('log', 'slowdown (log)', { axisLabel: { margin: 14 }, nameGap: 38, min: 1 }),
    yAxis: axis('value', 'fraction of flows', { min: 0, max: 1, nameGap: 46 }),
    series,
  };
  const note = limitNote(runs.length, shown.length, 'runs');
  return { id: 'slowdown-cdf', title, option, height: heightFor(series.map((x) => String(x['name']))), ...(note ? { note } : {}) };
}

/** Varied fields whose values are numbers in every run and take at least two values. */
export function numericFields(runs: readonly RunData[], fields: readonly string[]): string[] {
  return fields.filter((f) => runs.every((r) => typeof r.vars[f] === 'number') && new Set(runs.map((r) => r.vars[f])).size >= 2);
}

const LINE_METRICS: { key: StatKey; label: string }[] = [
  { key: 'meanSlowdown', label: 'mean slowdown' },
  { key: 'p99Slowdown', label: 'p99 slowdown' },
];

/**
 * A metric against each numeric swept field (e.g. slowdown versus load): one
 * line per combination of the other varied values (one line per CC in a
 * CC x load sweep), coloured by CC and dashed by the other values
 * (./encoding.ts). A p99 point of fewer than 100 finished flows is drawn
 * hollow, a mean of none is left out.
 */
export function sweepLines(runs: readonly RunData[], fields: readonly string[]): Chart[] {
  const charts: Chart[] = [];
  const keys = shortKeys(fields);
  for (const f of numericFields(runs, fields)) {
    const { names } = legendNames(runs, fields, f);
    const groups = new Map<string, RunData[]>();
    runs.forEach((r, i) => {
      const g = groups.get(names[i]!);
      if (g) g.push(r);
      else groups.set(names[i]!, [r]);
    });
    const lines = [...groups.entries()].slice(0, MAX_SERIES);
    const styles = seriesStyles(runs, fields, f);
    const styleOf = new Map(runs.map((r, i) => [names[i]!, styles[i]!]));
    for (const m of LINE_METRICS) {
      const min = STATS[m.key].minFlows;
      let thinPoints = 0;
      const series = lines.map(([name, rs]) => ({
        name,
        type: 'line',
        symbolSize: 7,
        connectNulls: false,
        ...lineStyleOf(styleOf.get(name)!),
        data: [...rs]
          .sort((a, b) => (a.vars[f] as number) - (b.vars[f] as number))
          .map((r) => {
            const x = r.vars[f] as number;
            const y = r.summary.totals.finished > 0 ? r3(r.summary.fct.overall[m.key]) : null;
            if (y === null || r.summary.totals.finished >= min) return { value: [x, y] };
            // too few flows for the statistic: drawn, as a hollow marker, not dropped
            thinPoints++;
            return { value: [x, y], symbol: 'emptyCircle', symbolSize: 9, n: r.summary.totals.finished };
          }),
      }));
      const key = keys.get(f)!;
      const title = `${m.label} vs ${key}`;
      const id = `vs-${key.replace(/[^A-Za-z0-9]+/g, '_')}-${STATS[m.key].id}`;
      if (series.every((s) => s.data.every((d) => d.value[1] === null))) {
        charts.push({ id, title, empty: 'no flow finished' });
        continue;
      }
      const notes = [
        thinPoints > 0 ? `hollow markers: fewer than the ${min} finished flows a reliable ${m.label} needs (${thinPoints} point${thinPoints === 1 ? '' : 's'})` : undefined,
        groups.size > lines.length ? `showing ${lines.length} of ${groups.size} lines` : undefined,
      ].filter((x): x is string => x !== undefined);
      charts.push({
        id,
        title,
        height: heightFor(series.map((x) => x.name)),
        option: {
          ...frame(title, series.map((x) => x.name), false),
          xAxis: axis('value', f, { axisLabel: { margin: 14 }, nameGap: 38, scale: true }),
          yAxis: axis('value', m.label, { scale: true, nameGap: 46 }),
          series,
        },
        ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
      });
    }
  }
  return charts;
}
