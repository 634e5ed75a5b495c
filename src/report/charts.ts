/**
 * The report's charts, rendered to SVG on the server side with Apache ECharts
 * (`renderer: 'svg', ssr: true`): no browser and no script needed to view them.
 * Each builder turns result data into an ECharts option; `renderSvg` draws it.
 */
import * as echarts from 'echarts';
import type { RunData, TableRow } from '../experiment/results.js';
import { readTable } from '../experiment/results.js';
import { flatBins } from '../metrics/summary.js';

export interface Chart {
  /** stable id: file name of the SVG download, `data-chart` attribute in the HTML */
  id: string;
  title: string;
  svg: string;
  /** shown under the chart (e.g. series left out) */
  note?: string;
}

const WIDTH = 760;
const HEIGHT = 380;
/** at most this many series in one chart (legend stays readable, file stays small) */
export const MAX_SERIES = 16;
/** points per line series after downsampling */
const MAX_POINTS = 600;

type Option = Record<string, unknown>;

export function renderSvg(option: Option, width = WIDTH, height = HEIGHT): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, backgroundColor: '#fff', ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

function base(title: string, xName: string, yName: string, legend: boolean): Option {
  return {
    title: { text: title, left: 'center', top: 6, textStyle: { fontSize: 14 } },
    legend: legend ? { type: 'plain', top: 34, left: 'center', textStyle: { fontSize: 10 }, itemWidth: 14, itemHeight: 8 } : undefined,
    grid: { left: 70, right: 30, top: legend ? 90 : 50, bottom: 60 },
    tooltip: { trigger: 'axis' },
    xAxis: { name: xName, nameLocation: 'middle', nameGap: 32 },
    yAxis: { name: yName, nameLocation: 'middle', nameGap: 50 },
  };
}

/** Keeps at most `max` points (evenly strided, last kept). */
function thin<T>(xs: readonly T[], max = MAX_POINTS): T[] {
  if (xs.length <= max) return [...xs];
  const step = xs.length / max;
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(xs[Math.floor(i * step)]!);
  out.push(xs[xs.length - 1]!);
  return out;
}

function limitNote(total: number, shown: number, what: string): string | undefined {
  return total > shown ? `showing ${shown} of ${total} ${what}` : undefined;
}

const STAT_LABEL = { meanSlowdown: 'mean', p99Slowdown: 'p99', p999Slowdown: 'p99.9' } as const;

/** Grouped bars: slowdown statistic per size bin, one bar per run. */
export function slowdownBars(runs: readonly RunData[], stat: keyof typeof STAT_LABEL): Chart {
  const shown = runs.slice(0, MAX_SERIES);
  const bins = runs[0] !== undefined ? flatBins(runs[0].summary.fct).map((b) => b.label) : [];
  const title = `FCT slowdown (${STAT_LABEL[stat]}) per flow size`;
  const option: Option = {
    ...base(title, 'flow size bin', `${STAT_LABEL[stat]} slowdown`, true),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'category', data: [...bins, 'all'], name: 'flow size bin', nameLocation: 'middle', nameGap: 32, axisLabel: { fontSize: 10, interval: 0 } },
    yAxis: { type: 'value', name: `${STAT_LABEL[stat]} slowdown`, nameLocation: 'middle', nameGap: 50 },
    series: shown.map((r) => ({
      name: r.label,
      type: 'bar',
      data: [...flatBins(r.summary.fct).map((b) => finiteOrNull(b[stat])), finiteOrNull(r.summary.fct.overall[stat])],
    })),
  };
  const note = limitNote(runs.length, shown.length, 'runs');
  return { id: `slowdown-${STAT_LABEL[stat].replace('.', '')}`, title, svg: renderSvg(option), ...(note ? { note } : {}) };
}

function finiteOrNull(x: number | null | undefined): number | null {
  return typeof x === 'number' && Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null;
}

/** CDF of per-flow slowdown, one line per run (log x axis). */
export function slowdownCdf(runs: readonly RunData[]): Chart | undefined {
  const shown = runs.slice(0, MAX_SERIES);
  const series: Option[] = [];
  for (const r of shown) {
    const fct = readTable(r.dir, 'fct') ?? [];
    const xs = fct.map((row) => Number(row['slowdown'])).filter((v) => Number.isFinite(v) && v > 0);
    if (xs.length === 0) continue;
    xs.sort((a, b) => a - b);
    const pts = xs.map((v, i) => [v, (i + 1) / xs.length] as [number, number]);
    series.push({ name: r.label, type: 'line', showSymbol: false, step: 'end', data: thin(pts).map(([x, y]) => [Math.round(x * 1e4) / 1e4, Math.round(y * 1e4) / 1e4]) });
  }
  if (series.length === 0) return undefined;
  const title = 'CDF of FCT slowdown';
  const option: Option = {
    ...base(title, 'slowdown (log)', 'fraction of flows', true),
    xAxis: { type: 'log', min: 1, name: 'slowdown (log)', nameLocation: 'middle', nameGap: 32 },
    yAxis: { type: 'value', min: 0, max: 1, name: 'fraction of flows', nameLocation: 'middle', nameGap: 50 },
    series,
  };
  const note = limitNote(runs.length, shown.length, 'runs');
  return { id: 'slowdown-cdf', title, svg: renderSvg(option), ...(note ? { note } : {}) };
}

interface SeriesSpec {
  file: 'queues' | 'throughput';
  value: string;
  scale: number;
  unit: string;
  what: string;
}

const PORT_SERIES: Record<'queues' | 'throughput', SeriesSpec> = {
  queues: { file: 'queues', value: 'bytes', scale: 1 / 1000, unit: 'KB', what: 'Queue length' },
  throughput: { file: 'throughput', value: 'bps', scale: 1e-9, unit: 'Gbps', what: 'Throughput' },
};

/** Time series per sampled port (queue length or throughput): one chart per port, one line per run. */
export function portSeries(runs: readonly RunData[], kind: 'queues' | 'throughput', maxPorts = 6): Chart[] {
  const spec = PORT_SERIES[kind];
  const shown = runs.slice(0, MAX_SERIES);
  const byPort = new Map<string, { name: string; type: string; showSymbol: boolean; data: [number, number][] }[]>();
  for (const r of shown) {
    const rows = readTable(r.dir, spec.file);
    if (rows === undefined) continue;
    const groups = new Map<string, TableRow[]>();
    for (const row of rows) {
      const key = `${row['node']}:${row['port']}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(row);
    }
    for (const [key, g] of groups) {
      let list = byPort.get(key);
      if (!list) byPort.set(key, (list = []));
      const data = thin(g.map((row) => [Number(row['t_ps']) / 1e6, Number(row[spec.value]) * spec.scale] as [number, number])).map(
        ([t, v]) => [Math.round(t * 1000) / 1000, Math.round(v * 1000) / 1000] as [number, number],
      );
      list.push({ name: r.label, type: 'line', showSymbol: false, data });
    }
  }
  const ports = [...byPort.keys()];
  const charts: Chart[] = [];
  for (const key of ports.slice(0, maxPorts)) {
    const [node, port] = key.split(':');
    const title = `${spec.what} at node ${node} port ${port}`;
    const option: Option = {
      ...base(title, 'time (us)', spec.unit, true),
      xAxis: { type: 'value', name: 'time (us)', nameLocation: 'middle', nameGap: 32 },
      yAxis: { type: 'value', name: spec.unit, nameLocation: 'middle', nameGap: 50 },
      series: byPort.get(key),
    };
    const note = [limitNote(ports.length, Math.min(maxPorts, ports.length), 'sampled ports'), limitNote(runs.length, shown.length, 'runs')].filter(Boolean).join('; ');
    charts.push({ id: `${kind}-n${node}-p${port}`, title, svg: renderSvg(option), ...(note ? { note } : {}) });
  }
  return charts;
}

/** Per-flow goodput traces (flow_throughput): one chart per run, one line per flow. */
export function flowRates(runs: readonly RunData[], maxRuns = 4, maxFlows = 12): Chart[] {
  const charts: Chart[] = [];
  const withData = runs.filter((r) => readTable(r.dir, 'flow_throughput') !== undefined);
  for (const [i, r] of withData.slice(0, maxRuns).entries()) {
    const rows = readTable(r.dir, 'flow_throughput') ?? [];
    const flows = new Map<number, [number, number][]>();
    for (const row of rows) {
      const f = Number(row['flow']);
      let l = flows.get(f);
      if (!l) flows.set(f, (l = []));
      l.push([Number(row['t_ps']) / 1e6, Number(row['bps']) / 1e9]);
    }
    const ids = [...flows.keys()].sort((a, b) => a - b);
    const series = ids.slice(0, maxFlows).map((f) => ({
      name: `flow ${f}`,
      type: 'line',
      showSymbol: false,
      data: thin(flows.get(f)!).map(([t, v]) => [Math.round(t * 1000) / 1000, Math.round(v * 1000) / 1000]),
    }));
    if (series.length === 0) continue;
    const title = `Per-flow rate: ${r.label}`;
    const option: Option = {
      ...base(title, 'time (us)', 'goodput (Gbps)', true),
      xAxis: { type: 'value', name: 'time (us)', nameLocation: 'middle', nameGap: 32 },
      yAxis: { type: 'value', name: 'goodput (Gbps)', nameLocation: 'middle', nameGap: 50 },
      series,
    };
    const note = [limitNote(ids.length, series.length, 'flows'), i === 0 ? limitNote(withData.length, Math.min(maxRuns, withData.length), 'runs') : undefined]
      .filter(Boolean)
      .join('; ');
    charts.push({ id: `flow-rate-${i}`, title, svg: renderSvg(option), ...(note ? { note } : {}) });
  }
  return charts;
}

/** PFC pause frames sent, summed per switch layer (and hosts), one bar per run. */
export function pfcByLayer(runs: readonly RunData[]): Chart | undefined {
  const shown = runs.slice(0, MAX_SERIES);
  const perRun: Map<string, number>[] = [];
  const layers = new Set<string>();
  for (const r of shown) {
    const m = new Map<string, number>();
    for (const row of readTable(r.dir, 'counters_nodes') ?? []) {
      const layer = String(row['layer']);
      layers.add(layer);
      m.set(layer, (m.get(layer) ?? 0) + Number(row['pauses_sent']));
    }
    perRun.push(m);
  }
  if (layers.size === 0) return undefined;
  const order = ['host', 'tor', 'leaf', 'agg', 'spine', 'core', 'switch'];
  const cats = [...layers].sort((a, b) => (order.indexOf(a) + 100 * Number(!order.includes(a))) - (order.indexOf(b) + 100 * Number(!order.includes(b))) || a.localeCompare(b));
  const title = 'PFC pause frames sent per layer';
  const option: Option = {
    ...base(title, 'layer', 'pause frames sent', true),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'category', data: cats, name: 'layer', nameLocation: 'middle', nameGap: 32 },
    yAxis: { type: 'value', name: 'pause frames sent', nameLocation: 'middle', nameGap: 50, minInterval: 1 },
    series: shown.map((r, i) => ({ name: r.label, type: 'bar', data: cats.map((c) => perRun[i]!.get(c) ?? 0) })),
  };
  const note = limitNote(runs.length, shown.length, 'runs');
  return { id: 'pfc-per-layer', title, svg: renderSvg(option), ...(note ? { note } : {}) };
}
