/**
 * ACC (NSDI'24) figure analyses: Fig. 10 (10:1 convergence: queue drain,
 * halt time vs the ideal max queue / link rate, utilization, per-flow rates),
 * Fig. 2-4 / 11 / 20 (the Fig. 1 congestion tree: PAUSEs received per switch,
 * F0's throughput during the bursts, the backlog at P4), Table 2 (deadlocked
 * runs per CC on the CBD unit) and the large-scale FCT figures 13-16, 18, 19
 * (mean / p99 FCT of small / medium / large flows, p99 slowdown per fine size
 * bin, PAUSEs received per layer). Each reads the result files of its points.
 */
import { readFctRecords, readRunManifest, readTable, requireRunSummary, type TableRow } from '../../src/experiment/results/results.js';
import { loadRun, window, type RunSeries, type Series } from '../../src/experiment/results/series.js';
import { registerFigure, sweptCcName, type Cell, type FigureAnalysis, type FigureResult, type FigureTable, type MeasuredClaim, type PointResult } from '../../src/experiment/results/analysis.js';
import { jainIndex, mean, percentileLinear, sortedCopy } from '../../src/metrics/stats.js';
import type { RunSummary } from '../../src/metrics/summary.js';

const US_PS = 1e6;
const MS_PS = 1e9;
const C = 100e9;

function ccOf(p: PointResult): string {
  const swept = sweptCcName(p);
  if (swept !== undefined) return swept;
  try {
    return readRunManifest(p.dir)?.resolved?.cc?.name ?? p.label;
  } catch {
    return p.label;
  }
}

function summaryOf(p: PointResult): RunSummary {
  return requireRunSummary(p.dir);
}

function r3(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 1000) / 1000 : NaN;
}

/** Longest run of samples below `thr` within [from, to), in ps (sample spacing from the series). */
function longestBelow(s: Series, thr: number, fromPs: number, toPs: number): number {
  if (s.t.length < 2) return 0;
  const dt = s.t[1]! - s.t[0]!;
  let best = 0;
  let run = 0;
  for (let i = 0; i < s.t.length; i++) {
    if (s.t[i]! < fromPs || s.t[i]! >= toPs) continue;
    run = s.v[i]! < thr ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best * dt;
}

// ---------------------------------------------------------------------------------------------
// Fig. 10

export interface ConvergenceMeasure {
  maxQueueBytes: number;
  /** max queue / link rate */
  idealHaltUs: number;
  /** time from the queue peak until it first falls below 5 % of the peak */
  drainUs: number;
  /** per sender: its longest silence (NIC sends < 1 Gb/s) in the first 300 us */
  haltsUs: number[];
  /** bottleneck utilization over the second half */
  utilization: number;
  /** per-flow goodput over the second half, Gb/s */
  flowGbps: number[];
}

/** Fig. 10 numbers from a run whose first throughput port is the bottleneck and the rest are the senders' NICs. */
export function measureConvergence(run: RunSeries, rateBps = C): ConvergenceMeasure {
  const q = run.queue!;
  let iMax = 0;
  for (let i = 1; i < q.v.length; i++) if (q.v[i]! > q.v[iMax]!) iMax = i;
  const maxQ = q.v[iMax] ?? 0;
  let drain = NaN;
  for (let i = iMax; i < q.v.length; i++) {
    if (q.v[i]! < 0.05 * maxQ) {
      drain = (q.t[i]! - q.t[iMax]!) / US_PS;
      break;
    }
  }
  const end = q.t[q.t.length - 1] ?? 0;
  const link = run.links[0]!;
  const util = mean(window(link, end / 2, Infinity)) / rateBps;
  const halts = run.links.slice(1).map((s) => longestBelow(s, 1e9, 0, 300 * US_PS) / US_PS);
  const flowGbps = [...run.flows.keys()].sort((a, b) => a - b).map((id) => mean(window(run.flows.get(id)!, end / 2, Infinity)) / 1e9);
  return { maxQueueBytes: maxQ, idealHaltUs: (maxQ * 8) / rateBps * 1e6, drainUs: drain, haltsUs: halts, utilization: util, flowGbps };
}

const fig10: FigureAnalysis = {
  id: 'acc-fig10',
  paper: 'acc',
  title: 'ACC Fig. 10: 10 long flows into one 100 G port',
  analyze(points): FigureResult {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const cc = ccOf(p);
      const m = measureConvergence(loadRun(p.dir));
      const halt = mean(m.haltsUs);
      rows.push([cc, Math.round(m.maxQueueBytes / 1000), r3(m.drainUs), r3(m.idealHaltUs), r3(halt), r3(m.utilization), r3(mean(m.flowGbps)), r3(Math.min(...m.flowGbps)), r3(Math.max(...m.flowGbps)), r3(jainIndex(m.flowGbps, { allZero: NaN }))]);
      claims.push({ id: `fig10.${cc}.utilization`, value: m.utilization });
      claims.push({ id: `fig10.${cc}.mean-flow-gbps`, value: mean(m.flowGbps), unit: 'Gb/s' });
      if (cc === 'acc') claims.push({ id: 'fig10.acc.halt-over-ideal', value: halt / m.idealHaltUs });
    }
    return {
      tables: [
        {
          title: 'ACC Fig. 10 - 10:1 long flows, 100 G, 1 us links (second half of the run for rates)',
          columns: ['cc', 'max queue KB', 'drain to 5% us', 'ideal halt us', 'mean sender halt us', 'utilization', 'mean Gb/s', 'min Gb/s', 'max Gb/s', 'Jain'],
          rows,
          notes: ['ideal halt = max queue / link rate (ACC Fig. 10(b)); sender halt = longest silence of its NIC in the first 300 us'],
        },
      ],
      claims,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// PAUSEs per node / layer

function nodeCounters(p: PointResult): TableRow[] {
  return readTable(p.dir, 'counters_nodes') ?? [];
}

/** PAUSE frames received, summed per layer label (host, tor/leaf, agg/spine, core, switch). */
export function pausesByLayer(rows: readonly TableRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) {
    const layer = String(r['layer']);
    out[layer] = (out[layer] ?? 0) + Number(r['pauses_received']);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fig. 11 / 2-4 / 20: the congestion tree

const tree: FigureAnalysis = {
  id: 'acc-fig11',
  paper: 'acc',
  title: 'ACC Fig. 11: congestion spreading on the Fig. 1 tree',
  analyze(points): FigureResult {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const cc = ccOf(p);
      const nodes = nodeCounters(p);
      const byName = new Map(nodes.map((r) => [String(r['name']), Number(r['pauses_received'])]));
      const hosts = nodes.filter((r) => r['layer'] === 'host').reduce((a, r) => a + Number(r['pauses_received']), 0);
      const run = loadRun(p.dir);
      // the burst period: first start of the incast flows to the later of the last finish and the
      // last start of an unfinished one (1-3 ms if none finished); with bursts offered until the
      // end of the run many never finish, and the last finish alone would cut the period short
      const bursts = run.fct.filter((f) => f.tag === 'incast');
      let lastStart = -Infinity;
      for (const r of readTable(p.dir, 'unfinished') ?? []) if (r['tag'] === 'incast') lastStart = Math.max(lastStart, Number(r['start_ps']));
      const b0 = bursts.length > 0 ? Math.min(...bursts.map((f) => f.startPs)) : 1 * MS_PS;
      const b1 = bursts.length > 0 ? Math.max(lastStart, ...bursts.map((f) => f.finishPs)) : 3 * MS_PS;
      const f0 = run.flows.get(0);
      const f1 = run.flows.get(1);
      const before = f0 ? mean(window(f0, b0 / 2, b0)) / 1e9 : NaN;
      const during = f0 ? mean(window(f0, b0, b1)) / 1e9 : NaN;
      const minDuring = f0 ? Math.min(...window(f0, b0, b1)) / 1e9 : NaN;
      const f1During = f1 ? mean(window(f1, b0, b1)) / 1e9 : NaN;
      const util = run.link !== undefined ? mean(window(run.link, b0, b1)) / C : NaN;
      // P4 backlog: its peak and the last time it is above 10 KB
      const q = run.queue;
      let last = NaN;
      let peak = 0;
      if (q !== undefined) {
        for (let i = 0; i < q.v.length; i++) {
          if (q.v[i]! > peak) peak = q.v[i]!;
          if (q.v[i]! > 10_000) last = q.t[i]! / MS_PS;
        }
      }
      const sw13 = (byName.get('SW1') ?? 0) + (byName.get('SW2') ?? 0) + (byName.get('SW3') ?? 0);
      rows.push([cc, byName.get('SW1') ?? 0, byName.get('SW2') ?? 0, byName.get('SW3') ?? 0, byName.get('SW4') ?? 0, hosts, r3(before), r3(during), r3(minDuring), r3(f1During), r3(util), Math.round(peak / 1000), r3(last)]);
      claims.push({ id: `fig11.${cc}.pauses-sw1-3`, value: sw13 });
      claims.push({ id: `fig11.${cc}.f0-gbps-during-bursts`, value: during, unit: 'Gb/s' });
      claims.push({ id: `fig11.${cc}.f1-gbps-during-bursts`, value: f1During, unit: 'Gb/s' });
    }
    return {
      tables: [
        {
          title: 'ACC Fig. 11 - PAUSEs received per switch, F0 goodput, backlog at P4',
          columns: ['cc', 'SW1', 'SW2', 'SW3', 'SW4', 'hosts', 'F0 Gb/s before', 'F0 Gb/s bursts', 'F0 min Gb/s', 'F1 Gb/s bursts', 'SW3-SW4 util bursts', 'P4 peak KB', 'P4 last >10KB ms'],
          rows,
          notes: [
            'PAUSEs = frames received; "bursts" = first start of the burst flows to their last finish (or the last start of one still unfinished), "before" = the half of that time before them',
            'F0 shares SW1-SW3 with F1 but not P4: F0 below its share during the bursts = HoL blocking; F1 goodput = its ACK arrival rate',
          ],
        },
      ],
      claims,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Table 2

const table2: FigureAnalysis = {
  id: 'acc-table2',
  paper: 'acc',
  title: 'ACC Table 2: runs with a PFC deadlock on the CBD unit',
  analyze(points): FigureResult {
    const by = new Map<string, { runs: number; dead: number; times: number[]; lossy: number; unfinished: number[] }>();
    for (const p of points) {
      const cc = ccOf(p);
      let e = by.get(cc);
      if (e === undefined) by.set(cc, (e = { runs: 0, dead: 0, times: [], lossy: 0, unfinished: [] }));
      e.runs++;
      const s = summaryOf(p);
      const d = s.deadlock;
      e.unfinished.push(Number(s.unfinished));
      if (d !== undefined) {
        e.dead++;
        e.times.push(d.detectedAtPs / MS_PS);
        if (d.unfinishedWithDrops > 0) e.lossy++;
      }
    }
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const [cc, e] of by) {
      rows.push([cc, `${e.dead}/${e.runs}`, r3(e.dead / e.runs), e.times.length > 0 ? r3(Math.min(...e.times)) : null, e.times.length > 0 ? r3(mean(e.times)) : null, e.lossy, r3(mean(e.unfinished))]);
      claims.push({ id: `table2.${cc}.deadlock-fraction`, value: e.dead / e.runs });
    }
    return {
      tables: [
        {
          title: 'ACC Table 2 - deadlocked runs (a cycle of ports paused >= 1 ms)',
          columns: ['cc', 'deadlocked', 'fraction', 'first at ms', 'mean at ms', 'deadlocked runs with drops', 'mean unfinished flows'],
          rows,
          notes: ['published: ACC 0/50, HPCC 0/50, DCQCN 3/50, TIMELY 37/50'],
        },
      ],
      claims,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// large scale: Fig. 13-16, 18, 19

function workloadOf(dir: string): string {
  const w = readRunManifest(dir)?.spec?.workload?.[0];
  return String((w !== undefined && 'cdf' in w ? w.cdf : undefined) ?? '');
}

/** ACC's size classes (ACC §6.4): small < 100 KB, medium 100 KB - 10 MB, large > 10 MB (> 1 MB for Hadoop). */
export function sizeClasses(workload: string): { label: string; lo: number; hi: number }[] {
  const large = /hadoop/i.test(workload) ? 1e6 : 10e6;
  return [
    { label: 'small', lo: 0, hi: 100e3 },
    { label: 'medium', lo: 100e3, hi: large },
    { label: 'large', lo: large, hi: Infinity },
  ];
}

/** Fine bins of Fig. 14 (p99 slowdown): decades split in halves, plus ACC's large bins (> 3 MB, > 10 MB). */
const FINE_BINS: { label: string; lo: number; hi: number }[] = [
  { label: '<=1KB', lo: 0, hi: 1e3 },
  { label: '1-10KB', lo: 1e3, hi: 10e3 },
  { label: '10-50KB', lo: 10e3, hi: 50e3 },
  { label: '50-100KB', lo: 50e3, hi: 100e3 },
  { label: '100KB-1MB', lo: 100e3, hi: 1e6 },
  { label: '1-3MB', lo: 1e6, hi: 3e6 },
  { label: '>3MB', lo: 3e6, hi: Infinity },
  { label: '>10MB', lo: 10e6, hi: Infinity },
];

function varsLabel(p: PointResult): string {
  const parts = Object.entries(p.vars)
    .filter(([k]) => k !== 'cc')
    .map(([k, v]) => `${k.replace(/^cc\.params\./, '')}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return [ccOf(p), ...parts].join(' ');
}

const largeScale: FigureAnalysis = {
  id: 'acc-fct',
  paper: 'acc',
  title: 'ACC Fig. 13-16, 18, 19: FCT by size class, p99 slowdown per bin, PAUSEs per layer',
  analyze(points): FigureResult {
    const cls: Cell[][] = [];
    const fine: Cell[][] = [];
    const pauses: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    const layers = ['host', 'tor', 'agg', 'core'];
    // per (workload, other swept vars): the class statistics of each CC, for the paper's ratios
    const stats = new Map<string, Map<string, Record<string, number>>>();
    for (const p of points) {
      const name = varsLabel(p);
      const cc = ccOf(p);
      const rows = readFctRecords(p.dir);
      const wl = workloadOf(p.dir);
      const s = summaryOf(p);
      const row: Cell[] = [name, rows.length, Number(s.unfinished)];
      const others = Object.entries(p.vars).filter(([k]) => k !== 'cc').map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
      const gkey = `${wl}|${others}`;
      let g = stats.get(gkey);
      if (g === undefined) stats.set(gkey, (g = new Map()));
      const st: Record<string, number> = {};
      g.set(cc, st);
      for (const c of sizeClasses(wl)) {
        const sel = rows.filter((r) => r.bytes > c.lo && r.bytes <= c.hi);
        const f = sortedCopy(sel.map((r) => r.fctPs / US_PS));
        const m = mean(f);
        const p99 = percentileLinear(f, 99);
        st[`${c.label}.mean`] = m;
        st[`${c.label}.p99`] = p99;
        row.push(sel.length, r3(m), r3(p99));
        claims.push({ id: `fct.${wl}.${cc}.${c.label}.mean-us`, value: m, unit: 'us' });
        claims.push({ id: `fct.${wl}.${cc}.${c.label}.p99-us`, value: p99, unit: 'us' });
      }
      cls.push(row);
      const frow: Cell[] = [name];
      for (const b of FINE_BINS) {
        const p99sd = percentileLinear(sortedCopy(rows.filter((r) => r.bytes > b.lo && r.bytes <= b.hi).map((r) => r.slowdown)), 99);
        frow.push(r3(p99sd));
        st[`${b.label}.p99sd`] = p99sd;
        if (b.label === '>3MB' || b.label === '>10MB') claims.push({ id: `fct.${wl}.${cc}.${b.label}.p99-slowdown`, value: p99sd });
      }
      fine.push(frow);
      const pl = pausesByLayer(nodeCounters(p));
      pauses.push([name, ...layers.map((l) => pl[l] ?? 0)]);
      for (const l of layers) claims.push({ id: `pauses.${wl}.${cc}.${l}`, value: pl[l] ?? 0 });
    }
    // Fig. 19: P_thresh 0 vs 1 (one CC, the parameter swept)
    const byP = new Map<string, Record<string, number>>();
    for (const [gkey, g] of stats) {
      const m = /"?cc\.params\.pThresh"?=(\d+)/.exec(gkey.split('|')[1] ?? '');
      const st = g.get('acc');
      if (m !== null && st !== undefined) byP.set(m[1]!, st);
    }
    const p0 = byP.get('0');
    const p1 = byP.get('1');
    if (p0 !== undefined && p1 !== undefined) {
      for (const k of ['large.p99', 'large.mean', '>10MB.p99sd', '>3MB.p99sd']) {
        if (p1[k]! > 0) claims.push({ id: `fig19.pthresh0-over-pthresh1.${k}`, value: p0[k]! / p1[k]! });
      }
    }
    // the paper's comparisons: X / ACC ratios and ACC's gain over HPCC in % ((HPCC - ACC) / HPCC)
    for (const [gkey, g] of stats) {
      const acc = g.get('acc');
      if (acc === undefined) continue;
      const wl = gkey.split('|')[0]!;
      for (const [cc, st] of g) {
        if (cc === 'acc') continue;
        for (const [k, v] of Object.entries(st)) {
          const a = acc[k];
          if (a === undefined || !(a > 0) || !Number.isFinite(v)) continue;
          claims.push({ id: `fct.${wl}.${cc}-over-acc.${k}`, value: v / a });
          if (cc === 'hpcc') claims.push({ id: `fct.${wl}.acc-vs-hpcc.${k}`, value: ((v - a) / v) * 100, unit: '%' });
        }
      }
    }
    const tables: FigureTable[] = [
      {
        title: 'FCT by size class (ACC Fig. 13: small < 100 KB, medium 100 KB-10 MB, large > 10 MB; Hadoop large > 1 MB), us',
        columns: ['point', 'flows', 'unfinished', 'small n', 'small mean', 'small p99', 'medium n', 'medium mean', 'medium p99', 'large n', 'large mean', 'large p99'],
        rows: cls,
      },
      { title: 'p99 FCT slowdown per size bin (ACC Fig. 14)', columns: ['point', ...FINE_BINS.map((b) => b.label)], rows: fine },
      { title: 'PFC PAUSEs received per layer (ACC Fig. 15/16/19)', columns: ['point', 'servers', 'ToR', 'agg', 'core'], rows: pauses },
    ];
    return { tables, claims };
  },
};

export const ACC_FIGURES: readonly FigureAnalysis[] = [fig10, tree, table2, largeScale];

registerFigure(...ACC_FIGURES);
