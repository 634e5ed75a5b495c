/**
 * The report's time-series and per-node charts (queue length and throughput
 * per sampled port, per-flow rates, PFC pauses per layer) and the topology
 * map (node ids by layer), from a result folder's tables. See ./charts.ts.
 */
import type { FigureTable } from '../experiment/results/analysis.js';
import type { RunData, TableRow } from '../experiment/results/results.js';
import { readTable } from '../experiment/results/results.js';
import { MAX_SERIES, axis, frame, heightFor, limitNote, thin, type Chart } from './charts.js';
import { lineStyleOf, type SeriesStyle } from './encoding.js';

interface SeriesSpec {
  file: 'queues' | 'throughput';
  value: string;
  scale: number;
  unit: string;
  what: string;
}

const PORT_SERIES: Record<'queues' | 'throughput', SeriesSpec> = {
  queues: { file: 'queues', value: 'bytes', scale: 1 / 1000, unit: 'queue (KB)', what: 'Queue length' },
  throughput: { file: 'throughput', value: 'bps', scale: 1e-9, unit: 'throughput (Gbps)', what: 'Throughput' },
};

/** node id -> "name (layer)" from a run's counters_nodes table. */
export function nodeNames(run: RunData | undefined): Map<number, string> {
  const m = new Map<number, string>();
  for (const row of (run && readTable(run.dir, 'counters_nodes')) ?? []) m.set(Number(row['node']), `${String(row['name'])} (${String(row['layer'])})`);
  return m;
}

/** "node:port" -> peer node id, from a run's counters_ports table. */
function peers(run: RunData | undefined): Map<string, number> {
  const m = new Map<string, number>();
  for (const row of (run && readTable(run.dir, 'counters_ports')) ?? []) m.set(`${row['node']}:${row['port']}`, Number(row['peer']));
  return m;
}

/**
 * Time series per sampled port (queue length or throughput): one chart per
 * port, one line per run. The ports are the union of every run's sampled
 * ports (with `queues: auto` each run keeps its own hottest), those sampled in
 * the most runs first, then the highest peak; a chart names the runs that did
 * not sample its port, so a run is never silently missing.
 */
export function portSeries(runs: readonly RunData[], names: readonly string[], kind: 'queues' | 'throughput', maxPorts = 6, styles?: readonly SeriesStyle[]): Chart[] {
  const spec = PORT_SERIES[kind];
  const shown = runs.slice(0, MAX_SERIES);
  const byPort = new Map<string, { series: Record<string, unknown>[]; peak: number; runs: Set<number> }>();
  shown.forEach((r, i) => {
    const rows = readTable(r.dir, spec.file);
    if (rows === undefined) return;
    const groups = new Map<string, TableRow[]>();
    for (const row of rows) {
      const key = `${row['node']}:${row['port']}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = []));
      g.push(row);
    }
    for (const [key, g] of groups) {
      let entry = byPort.get(key);
      if (!entry) byPort.set(key, (entry = { series: [], peak: 0, runs: new Set() }));
      entry.runs.add(i);
      const pts = g.map((row) => [Number(row['t_ps']) / 1e6, Number(row[spec.value]) * spec.scale] as [number, number]);
      for (const p of pts) entry.peak = Math.max(entry.peak, p[1]);
      const data = thin(pts).map(([t, v]) => [Math.round(t * 1000) / 1000, Math.round(v * 1000) / 1000] as [number, number]);
      entry.series.push({ name: names[i]!, type: 'line', showSymbol: false, ...(styles?.[i] !== undefined ? lineStyleOf(styles[i]) : {}), data });
    }
  });
  const ports = [...byPort.entries()].sort((a, b) => b[1].runs.size - a[1].runs.size || b[1].peak - a[1].peak);
  const nn = nodeNames(runs[0]);
  const peer = peers(runs[0]);
  const charts: Chart[] = [];
  for (const [key, entry] of ports.slice(0, maxPorts)) {
    const [node, port] = key.split(':');
    const p = peer.get(key);
    const to = p !== undefined ? ` to node ${p}${nn.has(p) ? ` ${nn.get(p)}` : ''}` : '';
    const title = `${spec.what}: node ${node}${nn.has(Number(node)) ? ` ${nn.get(Number(node))}` : ''} port ${port}${to}`;
    const legend = entry.series.map((x) => String(x['name']));
    const option = {
      ...frame(title, legend, true),
      xAxis: axis('value', 'time (us)', { axisLabel: { margin: 14 }, nameGap: 38, scale: true }),
      yAxis: axis('value', spec.unit, { nameGap: 46 }),
      series: entry.series,
    };
    const missing = shown.map((_, i) => i).filter((i) => !entry.runs.has(i));
    const notSampled =
      missing.length > 0
        ? `not sampled in ${missing.length} of ${shown.length} runs (each run samples its own hottest ports; give metrics.queues.ports to compare one set): ${missing
            .slice(0, 4)
            .map((i) => names[i])
            .join(', ')}${missing.length > 4 ? ', ...' : ''}`
        : undefined;
    const note = [notSampled, limitNote(ports.length, Math.min(maxPorts, ports.length), 'sampled ports (those sampled in the most runs, then the highest peaks)'), limitNote(runs.length, shown.length, 'runs')]
      .filter(Boolean)
      .join('; ');
    charts.push({ id: `${kind}-n${node}-p${port}`, title, option, height: heightFor(legend), ...(note ? { note } : {}) });
  }
  return charts;
}

/** Per-flow goodput traces (flow_throughput): one chart per run, one line per flow. */
export function flowRates(runs: readonly RunData[], names: readonly string[], maxRuns = 4, maxFlows = 12): Chart[] {
  const charts: Chart[] = [];
  const withData = runs.map((r, i) => ({ r, name: names[i]!, rows: readTable(r.dir, 'flow_throughput') })).filter((x) => x.rows !== undefined);
  for (const [i, { name, rows }] of withData.slice(0, maxRuns).entries()) {
    const flows = new Map<number, [number, number][]>();
    for (const row of rows ?? []) {
      const f = Number(row['flow']);
      let l = flows.get(f);
      if (!l) flows.set(f, (l = []));
      l.push([Number(row['t_ps']) / 1e6, Number(row['bps']) / 1e9]);
    }
    const ids = [...flows.keys()].sort((a, b) => a - b);
    const title = `Per-flow rate: ${name}`;
    const series = ids.slice(0, maxFlows).map((f) => ({
      name: `flow ${f}`,
      type: 'line',
      showSymbol: false,
      data: thin(flows.get(f)!).map(([t, v]) => [Math.round(t * 1000) / 1000, Math.round(v * 1000) / 1000]),
    }));
    if (series.length === 0) {
      charts.push({ id: `flow-rate-${i}`, title, empty: 'no flow was traced' });
      continue;
    }
    const note = [limitNote(ids.length, series.length, 'flows'), i === 0 ? limitNote(withData.length, Math.min(maxRuns, withData.length), 'runs') : undefined]
      .filter(Boolean)
      .join('; ');
    charts.push({
      id: `flow-rate-${i}`,
      title,
      height: heightFor(series.map((x) => x.name)),
      option: { ...frame(title, series.map((x) => x.name), true), xAxis: axis('value', 'time (us)', { axisLabel: { margin: 14 }, nameGap: 38, scale: true }), yAxis: axis('value', 'goodput (Gbps)', { nameGap: 46 }), series },
      ...(note ? { note } : {}),
    });
  }
  return charts;
}

const LAYER_ORDER = ['host', 'tor', 'leaf', 'agg', 'spine', 'core', 'switch'];

function layerRank(l: string): number {
  const i = LAYER_ORDER.indexOf(l);
  return i < 0 ? 100 : i;
}

function sortLayers(layers: Iterable<string>): string[] {
  return [...layers].sort((a, b) => layerRank(a) - layerRank(b) || a.localeCompare(b));
}

/** PFC pause frames sent, summed per switch layer (and hosts), one bar per run; undefined when nothing paused. */
export function pfcByLayer(runs: readonly RunData[], names: readonly string[]): Chart | undefined {
  const shown = runs.slice(0, MAX_SERIES);
  const perRun: Map<string, number>[] = [];
  const layers = new Set<string>();
  let total = 0;
  for (const r of shown) {
    const m = new Map<string, number>();
    for (const row of readTable(r.dir, 'counters_nodes') ?? []) {
      const layer = String(row['layer']);
      layers.add(layer);
      const n = Number(row['pauses_sent']);
      total += n;
      m.set(layer, (m.get(layer) ?? 0) + n);
    }
    perRun.push(m);
  }
  if (total === 0) return undefined;
  const cats = sortLayers(layers);
  const title = 'PFC pause frames sent per layer';
  const legend = names.slice(0, shown.length);
  const option = {
    ...frame(title, legend, false),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true },
    xAxis: axis('category', 'layer', { data: cats, axisLabel: { interval: 0 } }),
    yAxis: axis('value', 'pause frames sent', { minInterval: 1, nameGap: 46 }),
    series: shown.map((r, i) => ({ name: names[i], type: 'bar', data: cats.map((c) => perRun[i]!.get(c) ?? 0) })),
  };
  const note = limitNote(runs.length, shown.length, 'runs');
  return { id: 'pfc-per-layer', title, option, height: heightFor(legend), ...(note ? { note } : {}) };
}

/** "0-7, 9, 12-13" */
function ranges(ids: readonly number[]): string {
  const s = [...ids].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j]! + 1) j++;
    out.push(j === i ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** The topology map: node ids and names by layer (from the first run's counters_nodes). */
export function topologyTable(run: RunData | undefined): FigureTable | undefined {
  const rows = (run && readTable(run.dir, 'counters_nodes')) ?? [];
  if (rows.length === 0) return undefined;
  const by = new Map<string, { ids: number[]; names: string[] }>();
  for (const row of rows) {
    const layer = String(row['layer']);
    let e = by.get(layer);
    if (!e) by.set(layer, (e = { ids: [], names: [] }));
    e.ids.push(Number(row['node']));
    e.names.push(String(row['name']));
  }
  const nameText = (ns: string[]): string => (ns.length <= 4 ? ns.join(', ') : `${ns[0]}, ${ns[1]}, ..., ${ns[ns.length - 1]}`);
  return {
    title: 'Topology: node ids by layer',
    columns: ['layer', 'nodes', 'node ids', 'names'],
    rows: sortLayers(by.keys()).map((l) => [l, by.get(l)!.ids.length, ranges(by.get(l)!.ids), nameText(by.get(l)!.names)]),
    notes: ['ports are named by node id in specs (`metrics.queues.ports`, `{ link: [from, to] }`) and in the result tables'],
  };
}
