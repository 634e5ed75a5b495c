/**
 * Sampled series of a result folder as analyses use them: the queue and
 * throughput series of the sampled ports, per-flow goodput and the finished
 * flows, read through the typed reader of ./results.ts (`loadRun`) or taken
 * from an in-memory simulation result (`runSeries`), plus small helpers on a
 * series. Shared by the papers' analyses (experiments/<paper>/analysis*.ts).
 */
import type { SimOutput } from '../../metrics/types.js';
import { readFctRecords, readTable, type TableRow } from './results.js';

/** A sampled series: times in ps, values. */
export interface Series {
  t: number[];
  v: number[];
}

/** The slice of a run the analyses use (first sampled queue / throughput port). */
export interface RunSeries {
  queue: Series | undefined;
  link: Series | undefined;
  /** all sampled links, in metrics order */
  links: Series[];
  /** per-flow goodput by flow id */
  flows: Map<number, Series>;
  fct: { id: number; startPs: number; finishPs: number; tag: string }[];
}

// ---------------------------------------------------------------------------------------------
// loading

function readRows(dir: string, base: string): TableRow[] {
  return readTable(dir, base) ?? [];
}

function portSeries(rows: TableRow[], valueKey: string): Series[] {
  const byPort = new Map<string, Series>();
  for (const r of rows) {
    const k = `${String(r['node'])}/${String(r['port'])}`;
    let s = byPort.get(k);
    if (s === undefined) byPort.set(k, (s = { t: [], v: [] }));
    s.t.push(Number(r['t_ps']));
    s.v.push(Number(r[valueKey]));
  }
  return [...byPort.values()];
}

/** Reads the series of a result folder. */
export function loadRun(dir: string): RunSeries {
  const queues = portSeries(readRows(dir, 'queues'), 'bytes');
  const links = portSeries(readRows(dir, 'throughput'), 'bps');
  const flows = new Map<number, Series>();
  for (const r of readRows(dir, 'flow_throughput')) {
    const id = Number(r['flow']);
    let s = flows.get(id);
    if (s === undefined) flows.set(id, (s = { t: [], v: [] }));
    s.t.push(Number(r['t_ps']));
    s.v.push(Number(r['bps']));
  }
  const fct = readFctRecords(dir).map((r) => ({ id: r.id, startPs: r.startPs, finishPs: r.finishPs, tag: r.tag }));
  return { queue: queues[0], link: links[0], links, flows, fct };
}

/** The same view of an in-memory result. */
export function runSeries(out: SimOutput): RunSeries {
  const flows = new Map<number, Series>();
  for (const f of out.flowThroughput) flows.set(f.flow, { t: f.t, v: f.v });
  return {
    queue: out.queues[0],
    link: out.throughput[0],
    links: out.throughput.map((s) => ({ t: s.t, v: s.v })),
    flows,
    fct: out.fct.map((r) => ({ id: r.id, startPs: r.startPs, finishPs: r.finishPs, tag: r.tag })),
  };
}

// ---------------------------------------------------------------------------------------------
// series helpers

/** Values with from <= t < to. */
export function window(s: Series, fromPs: number, toPs: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.t.length; i++) if (s.t[i]! >= fromPs && s.t[i]! < toPs) out.push(s.v[i]!);
  return out;
}

/** Mean of each sample and the w - 1 before it. */
export function movingAverage(s: Series, w: number): Series {
  const out: Series = { t: [], v: [] };
  let sum = 0;
  for (let i = 0; i < s.t.length; i++) {
    sum += s.v[i]!;
    if (i >= w) sum -= s.v[i - w]!;
    out.t.push(s.t[i]!);
    out.v.push(sum / Math.min(i + 1, w));
  }
  return out;
}

/** First sample time >= fromPs whose value satisfies pred, or NaN. */
export function firstTime(s: Series, fromPs: number, pred: (v: number) => boolean): number {
  for (let i = 0; i < s.t.length; i++) if (s.t[i]! >= fromPs && pred(s.v[i]!)) return s.t[i]!;
  return NaN;
}
