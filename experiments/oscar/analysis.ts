/**
 * Figure analyses of the OSCAR paper (NSDI'26): the large-scale FCT figures
 * (Fig 10a/b/c, Fig 11) and the micro-benchmarks read from queue and
 * throughput series (Fig 7, Fig 9/21, Fig 20). Slowdown statistics follow the
 * artifact notebooks: arithmetic mean and linear-interpolated p99, small =
 * size <= 150 KiB, Fig 11 bins at the 5 % quantiles of the CacheFollower CDF.
 * "OSCAR x% better than X" is reported as (X - OSCAR) / X (docs/experiments.md §1); the
 * Fig 10 analyses also print, and their `-oscar-normalised` variants claim, the gains
 * normalised to OSCAR, (X - OSCAR) / OSCAR (./fct.ts GainBase).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mean } from '../../src/metrics/stats.js';
import { cdfQuantile, loadCdf } from '../../src/workload/cdf.js';
import { readColumns, readRunManifest } from '../../src/experiment/results/results.js';
import { registerFigure, type Cell, type FigureAnalysis, type FigureTable, type MeasuredClaim, type PointResult } from '../../src/experiment/results/analysis.js';
import { APPENDIX_FIGURES } from './analysis-appendix.js';
import { BFC_FIGURES } from './analysis-bfc.js';
import { flowSeries } from './burst.js';
import { SIZE_GROUPS, TAG_GROUPS, fctFigure, pointCc, r3, readFct, stats, type FctData, type GainBase } from './fct.js';


/** The value column of a port series table (src/experiment/run/output.ts). */
const SERIES_VALUE = { queues: 'bytes', throughput: 'bps' } as const;

/** A time series of one port (queues.csv / throughput.csv): the given port, else the table's first. */
function readSeries(dir: string, name: 'queues' | 'throughput', node?: number, port?: number): { t: number[]; v: number[] } {
  const c = readColumns(dir, name);
  const nodes = c.numbers('node');
  const ports = c.numbers('port');
  const ts = c.numbers('t_ps');
  const vs = c.numbers(SERIES_VALUE[name]);
  const t: number[] = [];
  const v: number[] = [];
  const n0 = node ?? (c.length > 0 ? nodes[0]! : 0);
  const p0 = port ?? (c.length > 0 ? ports[0]! : 0);
  for (let i = 0; i < c.length; i++) {
    if (nodes[i] !== n0 || ports[i] !== p0) continue;
    t.push(ts[i]!);
    v.push(vs[i]!);
  }
  return { t, v };
}


function readFlowSeries(dir: string, flow: number): { t: number[]; v: number[] } {
  return flowSeries(readColumns(dir, 'flow_throughput'), flow, 'bps');
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

const FIG10A_NOTE = 'published (OSCAR vs HPCC / HPCC* / PowerTCP): mean 48.1 / 18.6 / 30.0 %, p99 74.1 / 48.4 / 43.0 %; small flows -7.6 / 32.9 / 4.9 %';
const FIG10B_NOTE = 'published mean gains (OSCAR vs PowerTCP / Poseidon / DCQCN / Swift): 17.5 / 18.4 / 76.0 / 25.2 %';
const FIG10C_NOTE = 'published (OSCAR vs HPCC): all flows 12.1 % mean, 39.9 % p99; incast 53.0 %; Hadoop -23.3 % (HPCC), -15.9 % (HPCC*), -3.1 % (PowerTCP)';

/**
 * The Fig 10a/b/c analyses. `gainBase` picks the division of the claims (./fct.ts GainBase):
 * the registered `oscar-fig10<x>` use ccsim's default (X - OSCAR)/X and print the gains
 * normalised to OSCAR as a second table; `oscar-fig10<x>-oscar-normalised` (a spec's `figure:`)
 * take their claims from the normalised gains (README Fig 10a, "Which division the published
 * gains use").
 */
function fig10Analyses(gainBase: GainBase): FigureAnalysis[] {
  const suffix = gainBase === 'cc' ? '' : '-oscar-normalised';
  const titleSuffix = gainBase === 'cc' ? '' : ' (gains normalised to OSCAR)';
  const opts = { gainBase, otherGainTable: true };
  return [
    {
      id: `oscar-fig10a${suffix}`,
      paper: 'oscar',
      title: `OSCAR Fig 10a + Fig 11: T-FT320, CacheFollower 80 %, per-flow ECMP${titleSuffix}`,
      analyze(points) {
        const { result, data } = fctFigure('fig10a', SIZE_GROUPS, points, [FIG10A_NOTE], pointCc, opts);
        result.tables.push(fig11Table(data));
        return result;
      },
    },
    {
      id: `oscar-fig10b${suffix}`,
      paper: 'oscar',
      title: `OSCAR Fig 10b: T-FT320, CacheFollower 80 %, packet spraying${titleSuffix}`,
      analyze(points) {
        return fctFigure('fig10b', SIZE_GROUPS, points, [FIG10B_NOTE], pointCc, opts).result;
      },
    },
    {
      id: `oscar-fig10c${suffix}`,
      paper: 'oscar',
      title: `OSCAR Fig 10c: T-FT320, Hadoop 50 % + 32 x 450 KB incasts at 20 %${titleSuffix}`,
      analyze(points) {
        return fctFigure('fig10c', TAG_GROUPS, points, [FIG10C_NOTE], pointCc, opts).result;
      },
    },
  ];
}

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
  const m = readRunManifest(dir);
  const ev = m?.resolved?.linkEvents;
  return ev !== undefined && ev.length > 0 ? ev[0]!.atPs : null;
}

/**
 * The long flow's rate over time for Fig 7: the CC's own sending rate from
 * cc_trace.csv (`rate_bps` of flow 0: OSCAR u·mu, HPCC's rate) when the point
 * traced it, else its acknowledged goodput (flow_throughput.csv), which lags
 * the sending rate by about one RTT.
 */
function longFlowRate(dir: string): { t: number[]; v: number[]; source: 'cc rate' | 'goodput' } {
  // the CSV only, as the trace has always been read here (a JSONL trace falls back to the goodput)
  if (existsSync(join(dir, 'cc_trace.csv'))) {
    const trace = readColumns(dir, 'cc_trace');
    if (trace.has('rate_bps')) {
      const s = flowSeries(trace, 0, 'rate_bps');
      if (s.t.length > 1) return { ...s, source: 'cc rate' };
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

/**
 * The most common value of every swept network setting (fig7-recovery.yaml sweeps the ACKs'
 * class beside the CC variants): a point is named by the settings where it differs from these.
 */
function networkModes(points: readonly PointResult[]): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const p of points) {
    for (const [k, v] of Object.entries(p.vars)) {
      if (!k.startsWith('network.')) continue;
      const m = counts.get(k) ?? new Map<string, number>();
      m.set(String(v), (m.get(String(v)) ?? 0) + 1);
      counts.set(k, m);
    }
  }
  const modes = new Map<string, string>();
  for (const [k, m] of counts) modes.set(k, [...m.entries()].sort((a, b) => b[1] - a[1])[0]![0]);
  return modes;
}

/** Short name of a Fig 7 CC variant: the CC name and its params, then any network setting off the common one in brackets. */
function variantName(p: PointResult, modes: ReadonlyMap<string, string>): string {
  const cc = p.vars['cc'];
  let name = pointCc(p);
  if (cc !== null && typeof cc === 'object') {
    const params = (cc as { params?: Record<string, unknown> }).params ?? {};
    const kv = Object.entries(params).map(([k, v]) => `${k} ${String(v)}`);
    if (kv.length > 0) name = `${name} (${kv.join(', ')})`;
  }
  const net = Object.entries(p.vars)
    .filter(([k, v]) => k.startsWith('network.') && modes.get(k) !== String(v))
    .map(([k, v]) => `${k.slice(k.lastIndexOf('.') + 1)} ${String(v)}`);
  return net.length > 0 ? `${name} [${net.join(', ')}]` : name;
}

const fig7: FigureAnalysis = {
  id: 'oscar-fig7',
  paper: 'oscar',
  title: 'OSCAR Fig 7: long-flow convergence time after a microburst vs link rate and burst size',
  analyze(points) {
    // group the points that differ only in the long flow's start (the batch phase at the burst end)
    const groups = new Map<string, { cc: string; rate: string; k: string; times: (number | null)[] }>();
    const modes = networkModes(points);
    for (const p of points) {
      const cc = variantName(p, modes);
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
    // per CC variant, the medians of every (rate, fan-in) the figure plots: "converges within around
    // 25 us ... independent of the gap" is one claim over all of them (the largest), not one per point
    const perCc = new Map<string, number[]>();
    for (const g of groups.values()) {
      const ts = g.times.map((t) => (t === null ? Infinity : t)).sort((a, b) => a - b);
      const med = ts[(ts.length - 1) >> 1]!;
      const fast = ts.filter((t) => t <= 40).length;
      rows.push([g.cc, g.rate, g.k === '' ? null : Number(g.k), r3(ts[0]!), r3(med), r3(ts[ts.length - 1]!), `${fast}/${ts.length}`]);
      if (Number.isFinite(med)) claims.push({ id: `fig7.${pointCcName(g.cc)}.${g.rate}.k${g.k}.median`, value: med, unit: 'us' });
      const list = perCc.get(g.cc) ?? [];
      list.push(med);
      perCc.set(g.cc, list);
    }
    for (const [cc, meds] of perCc) {
      const finite = meds.filter((m) => Number.isFinite(m));
      if (finite.length === 0) continue;
      const max = Math.max(...finite);
      // a point that never converged makes the largest a lower bound
      claims.push({ id: `fig7.${pointCcName(cc)}.all.max`, value: max, unit: 'us', ...(finite.length < meds.length ? { bound: 'lower' as const } : {}) });
      const sorted = [...meds].sort((a, b) => a - b);
      const mid = sorted[(sorted.length - 1) >> 1]!;
      if (Number.isFinite(mid)) claims.push({ id: `fig7.${pointCcName(cc)}.all.median`, value: mid, unit: 'us' });
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
  return v.replace(/[()[\],]/g, '').trim().replace(/\s+/g, '-');
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
      // ids from the incast size and U_AI, not the point label (whose field order and port hashes follow the spec's layout)
      const fan = p.vars['workload[0].fanIn'];
      const uAi = p.vars['cc.params.uAi'];
      const key = fan !== undefined && uAi !== undefined ? `flows=${String(fan)}.uAi=${String(uAi)}` : p.label;
      claims.push({ id: `fig20.${key}.peak`, value: peak, unit: 'B' });
      if (steady !== null) claims.push({ id: `fig20.${key}.steady`, value: steady, unit: 'B' });
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

export const OSCAR_FIGURES: readonly FigureAnalysis[] = [...fig10Analyses('cc'), ...fig10Analyses('oscar'), fig9, fig7, fig8, fig20, ...APPENDIX_FIGURES, ...BFC_FIGURES];

registerFigure(...OSCAR_FIGURES);
