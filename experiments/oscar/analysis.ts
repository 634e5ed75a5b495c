/**
 * Figure analyses of the OSCAR paper (NSDI'26): the large-scale FCT figures
 * (Fig 10a/b/c, Fig 11) and the micro-benchmarks read from queue and
 * throughput series (Fig 7, Fig 9/21, Fig 20). Slowdown statistics follow the
 * artifact notebooks: arithmetic mean and linear-interpolated p99, small =
 * size <= 150 KiB, Fig 11 bins at the 5 % quantiles of the CacheFollower CDF.
 * "OSCAR x% better than X" is reported as (X - OSCAR) / X, the convention that
 * matches the paper's numbers (docs/experiments.md §1).
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { mean, percentileLinear, sortedCopy } from '../../src/metrics/stats.js';
import { cdfQuantile, loadCdf } from '../../src/workload/cdf.js';
import { readRawTable, type RawTable } from '../../src/experiment/results.js';
import { sweptCcName, type Cell, type FigureAnalysis, type FigureResult, type FigureTable, type MeasuredClaim, type PointResult } from '../../src/experiment/analysis.js';

const SMALL_MAX_BYTES = 150 * 1024;

/** Rows of a result table (CSV or JSONL) as string arrays keyed by header. */
function readCsv(dir: string, name: string): RawTable {
  return readRawTable(dir, name) ?? { header: [], rows: [] };
}

interface FctData {
  bytes: Float64Array;
  slowdown: Float64Array;
  finishPs: Float64Array;
  tag: string[];
}

function readFct(dir: string): FctData {
  const { header, rows } = readCsv(dir, 'fct');
  const ib = header.indexOf('bytes');
  const is = header.indexOf('slowdown');
  const it = header.indexOf('tag');
  const iF = header.indexOf('finish_ps');
  const n = rows.length;
  const d: FctData = { bytes: new Float64Array(n), slowdown: new Float64Array(n), finishPs: new Float64Array(n), tag: new Array<string>(n) };
  rows.forEach((r, i) => {
    d.bytes[i] = Number(r[ib]);
    d.slowdown[i] = Number(r[is]);
    d.finishPs[i] = Number(r[iF]);
    d.tag[i] = r[it] ?? '';
  });
  return d;
}

/** A time series of one port (queues.csv / throughput.csv) or one flow (flow_throughput.csv). */
function readSeries(dir: string, name: 'queues' | 'throughput', node?: number, port?: number): { t: number[]; v: number[] } {
  const { rows } = readCsv(dir, name);
  const t: number[] = [];
  const v: number[] = [];
  const first = rows[0];
  const n0 = node ?? (first !== undefined ? Number(first[0]) : 0);
  const p0 = port ?? (first !== undefined ? Number(first[1]) : 0);
  for (const r of rows) {
    if (Number(r[0]) !== n0 || Number(r[1]) !== p0) continue;
    t.push(Number(r[2]));
    v.push(Number(r[3]));
  }
  return { t, v };
}

function readFlowSeries(dir: string, flow: number): { t: number[]; v: number[] } {
  const { rows } = readCsv(dir, 'flow_throughput');
  const t: number[] = [];
  const v: number[] = [];
  for (const r of rows) {
    if (Number(r[0]) !== flow) continue;
    t.push(Number(r[1]));
    v.push(Number(r[2]));
  }
  return { t, v };
}

/** Name of the CC of a point (vars.cc is a name or { name, params }), else the label. */
export function pointCc(p: PointResult): string {
  return sweptCcName(p) ?? p.label;
}

interface Stats {
  n: number;
  mean: number | null;
  p99: number | null;
}

function stats(d: FctData, keep: (i: number) => boolean): Stats {
  const xs: number[] = [];
  for (let i = 0; i < d.slowdown.length; i++) if (keep(i)) xs.push(d.slowdown[i]!);
  if (xs.length === 0) return { n: 0, mean: null, p99: null };
  return { n: xs.length, mean: mean(xs), p99: percentileLinear(sortedCopy(xs), 99) };
}

const r3 = (x: number | null): Cell => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1000) / 1000);
const pct = (x: number | null): Cell => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10) / 10);

interface Group {
  key: string;
  label: string;
  keep: (d: FctData, i: number) => boolean;
}

const SIZE_GROUPS: Group[] = [
  { key: 'all', label: 'all', keep: () => true },
  { key: 'small', label: '<=150KiB', keep: (d, i) => d.bytes[i]! <= SMALL_MAX_BYTES },
  { key: 'large', label: '>150KiB', keep: (d, i) => d.bytes[i]! > SMALL_MAX_BYTES },
];

const TAG_GROUPS: Group[] = [
  { key: 'all', label: 'all', keep: (d, i) => d.bytes[i]! > 0 },
  { key: 'hadoop', label: 'Hadoop', keep: (d, i) => d.bytes[i]! > 0 && d.tag[i] !== 'incast' },
  { key: 'incast', label: 'Incast', keep: (d, i) => d.bytes[i]! > 0 && d.tag[i] === 'incast' },
];

/**
 * Slowdown table (one row per CC: mean and p99 per group), a gains table
 * ((X - OSCAR)/X in %) and claims `<prefix>.oscar-vs-<cc>.<group>.<mean|p99>`.
 * `keyOf` names a point's row (default its CC name); the row named `oscar` is
 * the reference of the gains.
 */
function fctFigure(
  prefix: string,
  groups: Group[],
  points: readonly PointResult[],
  notes: string[],
  keyOf: (p: PointResult) => string = pointCc,
): { result: FigureResult; data: Map<string, FctData> } {
  const data = new Map<string, FctData>();
  const st = new Map<string, Stats[]>();
  for (const p of points) {
    const cc = keyOf(p);
    const d = readFct(p.dir);
    data.set(cc, d);
    st.set(
      cc,
      groups.map((g) => stats(d, (i) => g.keep(d, i))),
    );
  }
  const columns = ['cc', 'flows'];
  for (const g of groups) columns.push(`mean ${g.label}`, `p99 ${g.label}`);
  const rows: Cell[][] = [];
  for (const [cc, s] of st) {
    const row: Cell[] = [cc, s[0]!.n];
    for (const x of s) row.push(r3(x.mean), r3(x.p99));
    rows.push(row);
  }
  const tables: FigureTable[] = [{ title: `${prefix}: FCT slowdown`, columns, rows, notes }];
  const claims: MeasuredClaim[] = [];
  const o = st.get('oscar');
  if (o !== undefined) {
    const gRows: Cell[][] = [];
    for (const [cc, s] of st) {
      if (cc === 'oscar') continue;
      const row: Cell[] = [cc];
      groups.forEach((g, k) => {
        for (const m of ['mean', 'p99'] as const) {
          const x = s[k]![m];
          const y = o[k]![m];
          const gain = x !== null && y !== null && x > 0 ? ((x - y) / x) * 100 : null;
          row.push(pct(gain));
          if (gain !== null) claims.push({ id: `${prefix}.oscar-vs-${cc}.${g.key}.${m}`, value: gain, unit: '%' });
        }
      });
      gRows.push(row);
    }
    const gCols = ['vs cc'];
    for (const g of groups) gCols.push(`mean ${g.label} %`, `p99 ${g.label} %`);
    tables.push({ title: `${prefix}: OSCAR better than X by (X - OSCAR)/X`, columns: gCols, rows: gRows });
  }
  return { result: { tables, claims }, data };
}

/** Fig 11: mean and p99 slowdown in 20 bins at the 5 % quantiles of the CacheFollower CDF. */
function fig11Table(data: Map<string, FctData>): FigureTable {
  const cdf = loadCdf('cachefollower');
  const edges: number[] = [0];
  for (let k = 1; k < 20; k++) edges.push(cdfQuantile(cdf, k / 20));
  edges.push(Infinity);
  const ccs = [...data.keys()];
  const columns = ['bin (bytes]'];
  for (const cc of ccs) columns.push(`${cc} mean`, `${cc} p99`);
  const rows: Cell[][] = [];
  for (let b = 0; b < 20; b++) {
    const lo = edges[b]!;
    const hi = edges[b + 1]!;
    if (hi <= lo) continue; // point masses in the CDF collapse bins
    const row: Cell[] = [`(${Math.round(lo)},${hi === Infinity ? 'inf' : Math.round(hi)}]`];
    for (const cc of ccs) {
      const d = data.get(cc)!;
      const s = stats(d, (i) => d.bytes[i]! > lo && d.bytes[i]! <= hi);
      row.push(r3(s.mean), r3(s.p99));
    }
    rows.push(row);
  }
  return { title: 'Fig 11: slowdown by flow size (5 % CacheFollower quantile bins)', columns, rows };
}

const fig10a: FigureAnalysis = {
  id: 'oscar-fig10a',
  paper: 'oscar',
  title: 'OSCAR Fig 10a + Fig 11: T-FT320, CacheFollower 80 %, per-flow ECMP',
  analyze(points) {
    const { result, data } = fctFigure('fig10a', SIZE_GROUPS, points, ['published (OSCAR vs HPCC / HPCC* / PowerTCP): mean 48.1 / 18.6 / 30.0 %, p99 74.1 / 48.4 / 43.0 %; small flows -7.6 / 32.9 / 4.9 %']);
    result.tables.push(fig11Table(data));
    return result;
  },
};

const fig10b: FigureAnalysis = {
  id: 'oscar-fig10b',
  paper: 'oscar',
  title: 'OSCAR Fig 10b: T-FT320, CacheFollower 80 %, packet spraying',
  analyze(points) {
    return fctFigure('fig10b', SIZE_GROUPS, points, ['published mean gains (OSCAR vs PowerTCP / Poseidon / DCQCN / Swift): 17.5 / 18.4 / 76.0 / 25.2 %']).result;
  },
};

const fig10c: FigureAnalysis = {
  id: 'oscar-fig10c',
  paper: 'oscar',
  title: 'OSCAR Fig 10c: T-FT320, Hadoop 50 % + 32 x 450 KB incasts at 20 %',
  analyze(points) {
    return fctFigure('fig10c', TAG_GROUPS, points, ['published (OSCAR vs HPCC): all flows 12.1 % mean, 39.9 % p99; incast 53.0 %; Hadoop -23.3 % (HPCC), -15.9 % (HPCC*), -3.1 % (PowerTCP)']).result;
  },
};

/** Time of the last flow completion, ps (the burst's end as the senders see it). */
function lastFinish(dir: string, skipFlow = -1): number {
  const d = readFct(dir);
  let t = 0;
  for (let i = 0; i < d.finishPs.length; i++) if (i !== skipFlow && d.finishPs[i]! > t) t = d.finishPs[i]!;
  return t;
}

/**
 * Fig 9 / Fig 21 (one long flow + a burst of short flows on one bottleneck):
 * the bottleneck queue before the burst ends (mean, range) and the capacity
 * left unused in the 150 us after it. The burst end is the last short flow's
 * completion; the queue window is the 50 us ending 20 us before it.
 */
const fig9: FigureAnalysis = {
  id: 'oscar-fig9',
  paper: 'oscar',
  title: 'OSCAR Fig 9 / Fig 21: bottleneck queue and utilisation around a microburst',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const cc = p.label;
      const q = readSeries(p.dir, 'queues');
      const tp = readSeries(p.dir, 'throughput');
      const end = lastFinish(p.dir);
      const win = q.v.filter((_, i) => q.t[i]! >= end - 70e6 && q.t[i]! < end - 20e6);
      let lost = 0;
      let lowUs = 0;
      let rate = 0;
      for (let i = 0; i < tp.t.length; i++) {
        if (tp.t[i]! < end || tp.t[i]! >= end + 150e6) continue;
        const dt = i + 1 < tp.t.length ? tp.t[i + 1]! - tp.t[i]! : 10e6;
        rate = Math.max(rate, tp.v[i]!);
        lost += ((100e9 - tp.v[i]!) * dt * 1e-12) / 8;
        if (tp.v[i]! < 0.6 * 100e9) lowUs += dt / 1e6;
      }
      const qm = win.length > 0 ? mean(win) : null;
      rows.push([cc, r3(end / 1e6), qm === null ? null : Math.round(qm), win.length > 0 ? Math.round(Math.max(...win) - Math.min(...win)) : null, Math.round(lost), lowUs]);
      if (qm !== null) claims.push({ id: `fig9.${cc}.queue`, value: qm, unit: 'B' });
      claims.push({ id: `fig9.${cc}.lost-after-burst`, value: lost, unit: 'B' });
    }
    return {
      tables: [
        {
          title: 'Fig 9: queue before the burst ends and capacity lost after it',
          columns: ['point', 'burst end (us)', 'queue mean (B)', 'queue range (B)', 'lost in 150 us after (B)', 'us below 60 % after'],
          rows,
          notes: ['published: OSCAR converges the queue smoothly to 75 KB and minimises under-utilisation; HPCC* fluctuates and under-utilises for ~60 us'],
        },
      ],
      claims,
    };
  },
};

/** The burst end of a Fig 7 point: its first link event (the short senders' links going down), ps; null if none. */
function burstEndPs(dir: string): number | null {
  const f = join(dir, 'manifest.json');
  if (!existsSync(f)) return null;
  const m = JSON.parse(readFileSync(f, 'utf8')) as { resolved?: { linkEvents?: { atPs: number }[] } };
  const ev = m.resolved?.linkEvents;
  return ev !== undefined && ev.length > 0 ? ev[0]!.atPs : null;
}

/**
 * The long flow's rate over time for Fig 7: the CC's own sending rate from
 * cc_trace.csv (`rate_bps` of flow 0: OSCAR u·mu, HPCC's rate) when the point
 * traced it, else its acknowledged goodput (flow_throughput.csv), which lags
 * the sending rate by about one RTT.
 */
function longFlowRate(dir: string): { t: number[]; v: number[]; source: 'cc rate' | 'goodput' } {
  if (existsSync(join(dir, 'cc_trace.csv'))) {
    const { header, rows } = readCsv(dir, 'cc_trace');
    const col = header.indexOf('rate_bps');
    if (col >= 0) {
      const t: number[] = [];
      const v: number[] = [];
      for (const r of rows) {
        if (Number(r[0]) !== 0) continue;
        t.push(Number(r[1]));
        v.push(Number(r[col]));
      }
      if (t.length > 1) return { t, v, source: 'cc rate' };
    }
  }
  return { ...readFlowSeries(dir, 0), source: 'goodput' };
}

/**
 * Fig 7: convergence time of the long flow (flow 0) after the burst. The
 * burst ends at the spec's first link event (the short senders' links go
 * down); without events, when the last short flow completes minus one base
 * RTT (`baseRttPs`, 12 us on T-STAR). The long flow has converged at the first
 * sample from which its rate (`longFlowRate`) stays at >= 90 % of its solo
 * rate (its mean 30-90 us after t = 0, before the burst at 100 us) for 20 us.
 */
export function convergenceUs(dir: string, baseRttPs = 12e6): number | null {
  const s = longFlowRate(dir);
  const end = burstEndPs(dir) ?? lastFinish(dir, 0) - baseRttPs;
  const dt = s.t.length > 1 ? s.t[1]! - s.t[0]! : 1e6;
  const solo = mean(s.v.filter((_, i) => s.t[i]! >= 30e6 && s.t[i]! < 90e6));
  const hold = Math.max(1, Math.round(20e6 / dt));
  for (let i = 0; i < s.t.length; i++) {
    if (s.t[i]! < end) continue;
    let ok = true;
    for (let k = i; k < i + hold; k++) {
      if (k >= s.v.length || s.v[k]! < 0.9 * solo) {
        ok = false;
        break;
      }
    }
    if (ok) return (s.t[i]! - end) / 1e6;
  }
  return null;
}

/** Short name of a Fig 7 CC variant: the CC name and its params. */
function variantName(p: PointResult): string {
  const cc = p.vars['cc'];
  if (cc !== null && typeof cc === 'object') {
    const params = (cc as { params?: Record<string, unknown> }).params ?? {};
    const kv = Object.entries(params).map(([k, v]) => `${k} ${String(v)}`);
    return kv.length > 0 ? `${pointCc(p)} (${kv.join(', ')})` : pointCc(p);
  }
  return pointCc(p);
}

const fig7: FigureAnalysis = {
  id: 'oscar-fig7',
  paper: 'oscar',
  title: 'OSCAR Fig 7: long-flow convergence time after a microburst vs link rate and burst size',
  analyze(points) {
    // group the points that differ only in the long flow's start (the batch phase at the burst end)
    const groups = new Map<string, { cc: string; rate: string; k: string; times: (number | null)[] }>();
    for (const p of points) {
      const cc = variantName(p);
      const rate = String(p.vars['topology.rate'] ?? '');
      const k = String(p.vars['workload[1].fanIn'] ?? '');
      const key = `${cc}|${rate}|${k}`;
      let g = groups.get(key);
      if (g === undefined) {
        g = { cc, rate, k, times: [] };
        groups.set(key, g);
      }
      g.times.push(convergenceUs(p.dir));
    }
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const g of groups.values()) {
      const ts = g.times.map((t) => (t === null ? Infinity : t)).sort((a, b) => a - b);
      const med = ts[(ts.length - 1) >> 1]!;
      const fast = ts.filter((t) => t <= 40).length;
      rows.push([g.cc, g.rate, g.k === '' ? null : Number(g.k), r3(ts[0]!), r3(med), r3(ts[ts.length - 1]!), `${fast}/${ts.length}`]);
      if (Number.isFinite(med)) claims.push({ id: `fig7.${pointCcName(g.cc)}.${g.rate}.k${g.k}.median`, value: med, unit: 'us' });
    }
    return {
      tables: [
        {
          title: 'Fig 7: convergence time (us) of the long flow\'s sending rate to >= 90 % of its solo rate after the burst, over the batch phases',
          columns: ['cc', 'link rate', 'short flows', 'min', 'median', 'max', 'phases <= 40 us'],
          rows,
          notes: [
            'published: OSCAR ~25 us, HPCC ~80 us at 100 G / 12 us, both independent of the gap; the paper does not state its convergence criterion',
            'OSCAR is one-step only when a whole batch (tau of send time) lies inside the queue drain, Q/(mu - r) = 6 us x (k+1)/k at the 0.5-BDP target (README F1); null / Infinity = not converged before the stop',
          ],
        },
      ],
      claims,
    };
  },
};

/** Claim-id form of a variant name: "oscar (targetDelayRttFactor 1.5)" -> "oscar-targetDelayRttFactor-1.5". */
function pointCcName(v: string): string {
  return v.replace(/[(),]/g, '').trim().replace(/\s+/g, '-');
}

/** Fig 20: queue peak and the steady queue after the initial windows drained. */
const fig20: FigureAnalysis = {
  id: 'oscar-fig20',
  paper: 'oscar',
  title: 'OSCAR Fig 20: large incast, first peak and steady queue',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const q = readSeries(p.dir, 'queues');
      let peak = 0;
      let ip = 0;
      q.v.forEach((v, i) => {
        if (v > peak) {
          peak = v;
          ip = i;
        }
      });
      const drained = q.v.findIndex((v, i) => i > ip && v < 0.1 * peak);
      const end = lastFinish(p.dir);
      // steady: the middle of the time between the drain and the last completion (margins of
      // 10 % of it, at least 20 us, skip the post-drain oscillation and the tail of departures)
      const t0 = drained >= 0 ? q.t[drained]! : Infinity;
      const margin = Math.max(20e6, 0.1 * (end - t0));
      const win = q.v.filter((_, i) => q.t[i]! >= t0 + margin && q.t[i]! < end - margin);
      const steady = win.length > 0 ? mean(win) : null;
      rows.push([p.label, Math.round(peak), steady === null ? null : Math.round(steady)]);
      claims.push({ id: `fig20.${p.label}.peak`, value: peak, unit: 'B' });
      if (steady !== null) claims.push({ id: `fig20.${p.label}.steady`, value: steady, unit: 'B' });
    }
    return {
      tables: [{ title: 'Fig 20: incast queue', columns: ['point', 'peak (B)', 'steady (B)'], rows, notes: ['published: 200 flows peak ~30 MB, steady ~230 KB; 1000 flows steady ~900 KB (U_AI 0.001)'] }],
      claims,
    };
  },
};

/**
 * Fig 8: two flows on one bottleneck; per 10-us sample the imbalance
 * |r1 - r2| / (r1 + r2) averaged from 150 us on, and the mean rates.
 */
const fig8: FigureAnalysis = {
  id: 'oscar-fig8',
  paper: 'oscar',
  title: 'OSCAR Fig 8: reference-state ablation (two HPCC flows, no U smoothing)',
  analyze(points) {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const a = readFlowSeries(p.dir, 0).v.slice(15);
      const b = readFlowSeries(p.dir, 1).v.slice(15);
      const n = Math.min(a.length, b.length);
      let d = 0;
      for (let i = 0; i < n; i++) d += a[i]! + b[i]! > 0 ? Math.abs(a[i]! - b[i]!) / (a[i]! + b[i]!) : 0;
      const imb = n > 0 ? d / n : null;
      rows.push([p.label, r3(imb), r3(mean(a) / 1e9), r3(mean(b) / 1e9)]);
      if (imb !== null) claims.push({ id: `fig8.${p.label}.imbalance`, value: imb });
    }
    return {
      tables: [
        {
          title: 'Fig 8: per-flow rates from 150 us on',
          columns: ['point', 'mean |r1-r2|/(r1+r2)', 'flow 0 (Gb/s)', 'flow 1 (Gb/s)'],
          rows,
          notes: ["published: HPCC's reference fluctuates without converging; the synchronised reference converges to the fair share"],
        },
      ],
      claims,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Appendix C.3 / C.6 variants of the large-scale runs (Fig 19, 22, 23a-c, 24, 25)

/** Parameters of a point's CC ({} for a bare name). */
function ccParams(p: PointResult): Record<string, unknown> {
  const cc = p.vars['cc'];
  if (cc !== null && typeof cc === 'object') {
    const params = (cc as { params?: unknown }).params;
    if (params !== null && typeof params === 'object') return params as Record<string, unknown>;
  }
  return {};
}

/** Run totals of a point (summary.json), zeros when missing. */
function readTotals(dir: string): { drops: number; retransmittedPackets: number; timeouts: number; unfinished: number } {
  const f = join(dir, 'summary.json');
  const z = { drops: 0, retransmittedPackets: 0, timeouts: 0, unfinished: 0 };
  if (!existsSync(f)) return z;
  const s = JSON.parse(readFileSync(f, 'utf8')) as { totals?: Partial<typeof z>; unfinished?: number };
  return {
    drops: s.totals?.drops ?? 0,
    retransmittedPackets: s.totals?.retransmittedPackets ?? 0,
    timeouts: s.totals?.timeouts ?? 0,
    unfinished: s.unfinished ?? 0,
  };
}

/** Relative change (x - ref)/ref in %, null when undefined. */
function changePct(x: number | null, ref: number | null): number | null {
  return x !== null && ref !== null && ref > 0 ? ((x - ref) / ref) * 100 : null;
}

const REDUCED_NOTE = 'reduced (--quick) runs have 1/20 of the arrivals: compare with the published numbers only at full size';

/** D_target of a cross-pod flow (RTT_base 12 us, 100 G) for the artifact's queue target, us. */
const dTargetUs = (qBytes: number): number => 12 + ((8 * qBytes) / 100e9) * 1e6;

/**
 * Fig 19 (App. C.3): OSCAR on the Fig 10a setup, one parameter changed at a
 * time. One row per point (the parameter it sets, or the defaults), the
 * slowdowns per size group and the change of each mean against the defaults'
 * point in %. Claims `fig19.<param>=<value>.<all|small|large>.change` (%).
 */
const fig19: FigureAnalysis = {
  id: 'oscar-fig19',
  paper: 'oscar',
  title: 'OSCAR Fig 19: parameter sensitivity (U_AI, U_HAI, tau, D_target) on the Fig 10a setup',
  analyze(points) {
    const rowsIn = points.map((p) => {
      const params = Object.entries(ccParams(p));
      const d = readFct(p.dir);
      const s = SIZE_GROUPS.map((g) => stats(d, (i) => g.keep(d, i)));
      return { params, s };
    });
    const def = rowsIn.find((r) => r.params.length === 0);
    const order = ['uAi', 'uHai', 'tauNs', 'targetQueueBytes'];
    const rank = (r: (typeof rowsIn)[number]): number => (r.params.length === 0 ? -1 : order.indexOf(r.params[0]![0]) * 1e9 + Number(r.params[0]![1]));
    rowsIn.sort((a, b) => rank(a) - rank(b));
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const r of rowsIn) {
      const name = r.params.length === 0 ? '(defaults)' : r.params.map(([k, v]) => `${k}=${String(v)}`).join(',');
      const q = r.params.find(([k]) => k === 'targetQueueBytes');
      const dT = dTargetUs(q !== undefined ? Number(q[1]) : 75_000);
      const row: Cell[] = [name, r3(dT), r.s[0]!.n];
      for (const x of r.s) row.push(r3(x.mean), r3(x.p99));
      SIZE_GROUPS.forEach((g, k) => {
        const c = def === undefined || r === def ? null : changePct(r.s[k]!.mean, def.s[k]!.mean);
        row.push(pct(c));
        if (c !== null) claims.push({ id: `fig19.${name}.${g.key}.change`, value: c, unit: '%' });
      });
      rows.push(row);
    }
    const columns = ['point', 'D_target cross-pod (us)', 'flows'];
    for (const g of SIZE_GROUPS) columns.push(`mean ${g.label}`, `p99 ${g.label}`);
    for (const g of SIZE_GROUPS) columns.push(`mean ${g.label} vs defaults %`);
    return {
      tables: [
        {
          title: 'Fig 19: OSCAR slowdown with one parameter changed (defaults uAi 0.001, uHai 0.01, tauNs 5000, targetQueueBytes 75000)',
          columns,
          rows,
          notes: [
            'published: insensitive to U_AI, U_HAI and tau; a larger D_target raises small-flow FCT and lowers large-flow FCT; chosen D_target 18 us = 1.5 x RTT_base',
            'reduced grid (the paper does not list its grid): three values per parameter around the default, one parameter at a time',
            REDUCED_NOTE,
          ],
        },
      ],
      claims,
    };
  },
};

/** Fig 22 row name: the CC, `dcqcn-window` for DCQCN with its fixed one-BDP window. */
function fig22Key(p: PointResult): string {
  return ccParams(p)['window'] === 'bdp' ? `${pointCc(p)}-window` : pointCc(p);
}

const isLossless = (p: PointResult): boolean => p.vars['network.switch.pfcEnabled'] === true;

/**
 * Fig 22 (App. C.6): the Fig 10c workload without PFC. The slowdown and gains
 * tables of the lossy points (claims `fig22.oscar-vs-<cc>.<group>.<stat>`),
 * the drops / retransmissions / timeouts of every point, and for the CCs that
 * also ran lossless the lossy penalty (lossy - lossless)/lossless in %
 * (claims `fig22.lossy-penalty.<cc>.<group>.mean`).
 */
const fig22: FigureAnalysis = {
  id: 'oscar-fig22',
  paper: 'oscar',
  title: 'OSCAR Fig 22: Hadoop 50 % + incast 20 % on a lossy (no PFC) T-FT320',
  analyze(points) {
    const lossy = points.filter((p) => !isLossless(p));
    const { result } = fctFigure(
      'fig22',
      TAG_GROUPS,
      lossy,
      ['lossy runs (no PFC; tail drop at the DT threshold, NACK + go-back-N, 10 ms RTO)', 'published: OSCAR ~4 % better than HPCC on average; DCQCN and TIMELY severely damaged', REDUCED_NOTE],
      fig22Key,
    );
    const lossRows: Cell[][] = [];
    const mean = new Map<string, Stats[]>();
    for (const p of points) {
      const key = `${fig22Key(p)}${isLossless(p) ? ' (lossless)' : ''}`;
      const t = readTotals(p.dir);
      const d = readFct(p.dir);
      mean.set(
        key,
        TAG_GROUPS.map((g) => stats(d, (i) => g.keep(d, i))),
      );
      lossRows.push([key, t.drops, t.retransmittedPackets, t.timeouts, t.unfinished]);
    }
    result.tables.push({ title: 'Fig 22: losses per point', columns: ['point', 'drops', 'retransmitted packets', 'timeouts', 'unfinished flows'], rows: lossRows });
    const penRows: Cell[][] = [];
    for (const [key, ll] of mean) {
      if (!key.endsWith(' (lossless)')) continue;
      const cc = key.slice(0, -' (lossless)'.length);
      const lo = mean.get(cc);
      if (lo === undefined) continue;
      const row: Cell[] = [cc];
      TAG_GROUPS.forEach((g, k) => {
        const m = changePct(lo[k]!.mean, ll[k]!.mean);
        row.push(pct(m), pct(changePct(lo[k]!.p99, ll[k]!.p99)));
        if (m !== null) result.claims.push({ id: `fig22.lossy-penalty.${cc}.${g.key}.mean`, value: m, unit: '%' });
      });
      penRows.push(row);
    }
    const cols = ['cc'];
    for (const g of TAG_GROUPS) cols.push(`mean ${g.label} %`, `p99 ${g.label} %`);
    result.tables.push({ title: 'Fig 22: lossy vs lossless, (lossy - lossless)/lossless', columns: cols, rows: penRows, notes: ['published: OSCAR and HPCC decline only a little; DCQCN and TIMELY are severely damaged'] });
    return result;
  },
};

const fig23a: FigureAnalysis = {
  id: 'oscar-fig23a',
  paper: 'oscar',
  title: 'OSCAR Fig 23a: T-FT320, WebSearch 80 %, per-flow ECMP',
  analyze(points) {
    return fctFigure(
      'fig23a',
      SIZE_GROUPS,
      points,
      [
        'published (OSCAR vs HPCC / HPCC* / PowerTCP): small mean -2.6 / 27.0 / 4.4 %; large mean 6.6 / - / 19.1 %; all mean 2.7 / 16.1 / 14.6 %; all p99 10.8 / 34.2 / -8.7 %',
        REDUCED_NOTE,
      ],
    ).result;
  },
};

const fig23b: FigureAnalysis = {
  id: 'oscar-fig23b',
  paper: 'oscar',
  title: 'OSCAR Fig 23b: T-FT320, WebSearch 80 %, packet spraying',
  analyze(points) {
    return fctFigure('fig23b', SIZE_GROUPS, points, ['published: OSCAR outperforms all other CCs under packet spraying (no numbers)', REDUCED_NOTE]).result;
  },
};

const fig23c: FigureAnalysis = {
  id: 'oscar-fig23c',
  paper: 'oscar',
  title: 'OSCAR Fig 23c: T-FT320, Hadoop 50 % + 32 x 450 KB incasts at 20 %, packet spraying',
  analyze(points) {
    return fctFigure('fig23c', TAG_GROUPS, points, ['published: OSCAR outperforms all other CCs under packet spraying (no numbers)', REDUCED_NOTE]).result;
  },
};

/** Gb/s of a rate as written in a spec ("200Gbps", 2e11), NaN when unreadable. */
function gbps(v: unknown): number {
  if (typeof v === 'number') return v / 1e9;
  const m = /^([\d.]+)\s*([GT])bps$/i.exec(String(v ?? ''));
  if (m === null) return NaN;
  return Number(m[1]) * (m[2]!.toUpperCase() === 'T' ? 1000 : 1);
}

/** Fig 24 group of a point: the oversubscription ratio and which links are slowed. */
function fig24Group(p: PointResult): string {
  const fabric = gbps(p.vars['topology.fabricRate'] ?? 400);
  const aggCore = gbps(p.vars['topology.aggCoreRate'] ?? fabric);
  const ratio = Math.round(400 / aggCore);
  return `${ratio}to1-${fabric < 400 ? 'all' : 'aggcore'}`;
}

/** Fig 24 row name: `oscar-spray` for OSCAR with packet spraying. */
function sprayKey(p: PointResult): string {
  return p.vars['network.switch.loadBalancing'] === 'spray' ? `${pointCc(p)}-spray` : pointCc(p);
}

/**
 * Fig 24 (App. C.6): per oversubscription case (`2to1-aggcore`: only agg-core
 * links slowed, the artifact's topology file; `2to1-all`: every inter-switch
 * link, the paper's text) the slowdown and gains tables; claims
 * `fig24.<case>.oscar-vs-<cc>.<group>.<stat>`.
 */
const fig24: FigureAnalysis = {
  id: 'oscar-fig24',
  paper: 'oscar',
  title: 'OSCAR Fig 24: oversubscribed T-FT320 (2:1, 4:1), WebSearch 80 %',
  analyze(points) {
    const groups = new Map<string, PointResult[]>();
    for (const p of points) {
      const g = fig24Group(p);
      groups.set(g, [...(groups.get(g) ?? []), p]);
    }
    const out: FigureResult = { tables: [], claims: [] };
    for (const [g, ps] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      const r = fctFigure(
        `fig24.${g}`,
        SIZE_GROUPS,
        ps,
        [
          g.endsWith('aggcore') ? 'only the agg-core links slowed (artifact topology file)' : 'every inter-switch link slowed (paper text)',
          'published: OSCAR better than HPCC by 10 % (2:1) and 8 % (4:1); NDP is not modelled',
          REDUCED_NOTE,
        ],
        sprayKey,
      ).result;
      out.tables.push(...r.tables);
      out.claims.push(...r.claims);
    }
    return out;
  },
};

/** Fig 25 row name: oscar, oscar-owd (OWD signal), oscar-ackc (three-point BLS), oscar-ack<n> (real coalescing). */
function fig25Key(p: PointResult): string {
  const params = ccParams(p);
  const every = Number(p.vars['network.transport.ackEvery'] ?? 1);
  let k = pointCc(p);
  if (params['signal'] === 'owd') k += '-owd';
  if (params['blsPoints'] === 'threePoint') k += '-ackc';
  if (every > 1) k += `-ack${every}`;
  return k;
}

/** Fig 25 workload of a point: `cachefollower` or `hadoop-incast`, from the swept workload list. */
function fig25Workload(p: PointResult): string {
  const w = p.vars['workload'];
  const first = Array.isArray(w) ? (w[0] as { cdf?: unknown } | undefined) : undefined;
  return first?.cdf === 'hadoop' ? 'hadoop-incast' : 'cachefollower';
}

/**
 * Fig 25 (App. C.6): OSCAR against OSCAR-OWD and OSCAR-ACKC on CacheFollower
 * (size groups) and Hadoop+incast (tag groups). Claims
 * `fig25.<workload>.oscar-vs-<variant>.<group>.<stat>`: how much better the
 * RTT-signal OSCAR with per-packet ACKs is, (X - OSCAR)/X in %.
 */
const fig25: FigureAnalysis = {
  id: 'oscar-fig25',
  paper: 'oscar',
  title: 'OSCAR Fig 25: OSCAR vs OSCAR-OWD (reverse congestion) vs OSCAR-ACKC (ACK coalescing)',
  analyze(points) {
    const out: FigureResult = { tables: [], claims: [] };
    for (const wl of ['cachefollower', 'hadoop-incast']) {
      const ps = points.filter((p) => fig25Workload(p) === wl);
      if (ps.length === 0) continue;
      const r = fctFigure(
        `fig25.${wl}`,
        wl === 'cachefollower' ? SIZE_GROUPS : TAG_GROUPS,
        ps,
        [
          wl === 'cachefollower'
            ? 'published: OSCAR vs OSCAR-OWD small +7 %, large -10 %, all -8 %; OSCAR-ACKC within 5 %'
            : 'published: OSCAR vs OSCAR-OWD within 5 % (all, Hadoop, incast); OSCAR-ACKC Hadoop 1.6 % worse, all 6.2 % worse',
          'oscar-ackc = the paper\'s emulation (three BLS points per batch); oscar-ack4 = real coalescing, one ACK per 4 packets (not in the paper)',
          REDUCED_NOTE,
        ],
        fig25Key,
      ).result;
      out.tables.push(...r.tables);
      out.claims.push(...r.claims);
    }
    return out;
  },
};

export const OSCAR_FIGURES: readonly FigureAnalysis[] = [fig10a, fig10b, fig10c, fig9, fig7, fig8, fig20, fig19, fig22, fig23a, fig23b, fig23c, fig24, fig25];
