/**
 * CCC figures on the dynamics of deductions and queues: Fig 2 (theta-PowerTCP's
 * deduced BDP and arrival rate, CCC §3.1), Fig 13 and Fig 11. Registered, in
 * the paper's order, by ./analysis.ts.
 */
import { readFctRecords } from '../../src/experiment/results/results.js';
import type { Cell, FigureAnalysis, FigureResult, MeasuredClaim } from '../../src/experiment/results/analysis.js';
import { mean } from '../../src/metrics/stats.js';
import { C, US_PS, ccLabel, firstSustained, percentile, r1, r3, series, summaryOf, traceOf } from './common.js';

// ----------------------------------------------------------------------------- Fig 2: theta-PowerTCP's deductions

/** The phases of the Fig 2 scenario (CCC §3.1), ms. */
const FIG2_PHASES: readonly { key: string; label: string; from: number; to: number }[] = [
  { key: 'dac1', label: 'DAC 1, 0-0.2 ms (one flow at 0.1 C, link under-used)', from: 0, to: 0.2 },
  { key: 'dac2', label: 'DAC 2, 0.2-1 ms (50 flows start, large queue)', from: 0.2, to: 1 },
  { key: 'dac3', label: 'DAC 3, 1-2.3 ms (short-flow turbulence)', from: 1, to: 2.3 },
  { key: 'after', label: 'after 2.3 ms', from: 2.3, to: Infinity },
];

/**
 * Fig 2: per sample time, the mean over flows with a fresh ACK of what they
 * deduce (inflight theta*b, arrival (dtheta/dt + 1)*b, cc_trace.csv) against
 * the bottleneck's actual inflight (queue + txRate*RTT_base, the INT form) and arrival rate
 * ((queue change + bytes sent) / interval) one base RTT earlier, normalised by
 * BDP and C.
 */
export const fig2: FigureAnalysis = {
  id: 'ccc-fig2',
  paper: 'ccc',
  title: "CCC Fig 2: theta-PowerTCP's deduced vs actual inflight and arrival rate at the bottleneck",
  analyze(points): FigureResult {
    const tables = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const q = series(p.dir, 'queues', 'bytes');
      const tp = series(p.dir, 'throughput', 'bps');
      const tr = traceOf(p.dir);
      let base = Infinity;
      for (const e of tr.byFlow.values()) for (const r of e.rows) {
        const x = Number(r['rtt_us']);
        if (x > 0 && x < base) base = x;
      }
      if (!Number.isFinite(base)) throw new Error(`${p.dir}: cc_trace.csv has no RTT samples (ccc-fig2 needs theta-powertcp with metrics.ccTrace)`);
      const bdp = (C * base * 1e-6) / 8;
      // actual values by sample time (ps)
      const qAt = new Map<number, number>();
      q.t.forEach((t, i) => qAt.set(t, q.v[i]!));
      const actIn = new Map<number, number>();
      const actArr = new Map<number, number>();
      tp.t.forEach((t, i) => {
        const q1 = qAt.get(t);
        if (q1 === undefined) return;
        const dt = i > 0 ? t - tp.t[i - 1]! : t;
        const q0 = qAt.get(t - dt);
        // HPCC/PowerTCP INT inflight: queue + transmit rate x base RTT
        actIn.set(t, q1 + (tp.v[i]! * base * 1e-6) / 8);
        if (q0 !== undefined) actArr.set(t, ((q1 - q0) * 8) / (dt * 1e-12) + tp.v[i]!);
      });
      // deduced: mean over flows whose ACK counter moved in the interval
      const ded = new Map<number, { inflight: number; arrival: number; n: number }>();
      for (const e of tr.byFlow.values()) {
        for (let i = 1; i < e.rows.length; i++) {
          if (Number(e.rows[i]!['acks']) <= Number(e.rows[i - 1]!['acks'])) continue;
          const t = e.t[i]!;
          let a = ded.get(t);
          if (a === undefined) ded.set(t, (a = { inflight: 0, arrival: 0, n: 0 }));
          a.inflight += Number(e.rows[i]!['deduced_inflight_bytes']);
          a.arrival += Number(e.rows[i]!['deduced_arrival_bps']);
          a.n++;
        }
      }
      const times = [...ded.keys()].sort((a, b) => a - b);
      const step = tp.t.length > 1 ? tp.t[1]! - tp.t[0]! : 5 * US_PS;
      // actual shifted by one base RTT (rounded to the sampling grid)
      const shift = Math.round((base * US_PS) / step) * step;
      interface Row { t: number; di: number; ai: number; da: number; aa: number }
      const rows: Row[] = [];
      for (const t of times) {
        const ai = actIn.get(t - shift);
        const aa = actArr.get(t - shift);
        if (ai === undefined || aa === undefined) continue;
        const d = ded.get(t)!;
        rows.push({ t, di: d.inflight / d.n / bdp, ai: ai / bdp, da: d.arrival / d.n / C, aa: aa / C });
      }
      const phaseRows: Cell[][] = [];
      for (const ph of FIG2_PHASES) {
        const rs = rows.filter((r) => r.t >= ph.from * 1e9 && r.t < ph.to * 1e9);
        if (rs.length === 0) continue;
        const m = (f: (r: Row) => number): number => mean(rs.map(f));
        const mae = m((r) => Math.abs(r.da - r.aa));
        const neg = rs.filter((r) => r.da < 0).length / rs.length;
        const minDa = Math.min(...rs.map((r) => r.da));
        phaseRows.push([ph.label, rs.length, r3(m((r) => r.di)), r3(m((r) => r.ai)), r3(m((r) => r.da)), r3(m((r) => r.aa)), r3(mae), r3(neg), r3(minDa)]);
        claims.push({ id: `ccc.fig2.${ph.key}.deduced-inflight-bdp`, value: r3(m((r) => r.di)) ?? NaN });
        claims.push({ id: `ccc.fig2.${ph.key}.actual-inflight-bdp`, value: r3(m((r) => r.ai)) ?? NaN });
        claims.push({ id: `ccc.fig2.${ph.key}.deduced-arrival-c`, value: r3(m((r) => r.da)) ?? NaN });
        claims.push({ id: `ccc.fig2.${ph.key}.actual-arrival-c`, value: r3(m((r) => r.aa)) ?? NaN });
        claims.push({ id: `ccc.fig2.${ph.key}.arrival-mae-c`, value: r3(mae) ?? NaN });
        claims.push({ id: `ccc.fig2.${ph.key}.negative-share`, value: r3(neg) ?? NaN });
      }
      // DAC 2: how late the deduced inflight peaks after the (already shifted) actual one
      const d2 = rows.filter((r) => r.t >= 0.2e9 && r.t < 1e9);
      if (d2.length > 0) {
        const peak = (f: (r: Row) => number): Row => d2.reduce((b, r) => (f(r) > f(b) ? r : b));
        const lag = (peak((r) => r.di).t - peak((r) => r.ai).t) / US_PS;
        claims.push({ id: 'ccc.fig2.dac2.inflight-peak-lag-us', value: lag, unit: 'us' });
        phaseRows.push(['DAC 2: deduced inflight peak after the actual one (us)', null, r1(lag), null, null, null, null, null, null]);
      }
      tables.push({
        title: `${ccLabel(p)}: deduced vs actual (actual one base RTT = ${r1(base)} us earlier), per phase; inflight in BDP = ${Math.round(bdp)} B, arrival in C`,
        columns: ['phase', 'samples', 'deduced inflight', 'actual inflight', 'deduced arrival', 'actual arrival', 'mean |error| arrival', 'share deduced < 0', 'min deduced arrival'],
        rows: phaseRows,
      });
      const bin = 50 * US_PS;
      const binned = new Map<number, Row[]>();
      for (const r of rows) {
        const k = Math.floor(r.t / bin);
        const b = binned.get(k) ?? [];
        b.push(r);
        binned.set(k, b);
      }
      tables.push({
        title: `${ccLabel(p)}: per 50 us (means of the 5-us samples)`,
        columns: ['from ms', 'deduced inflight', 'actual inflight', 'deduced arrival', 'actual arrival'],
        rows: [...binned.entries()].sort((a, b) => a[0] - b[0]).map(([k, rs]): Cell[] => [
          r3((k * bin) / 1e9),
          r3(mean(rs.map((r) => r.di))),
          r3(mean(rs.map((r) => r.ai))),
          r3(mean(rs.map((r) => r.da))),
          r3(mean(rs.map((r) => r.aa))),
        ]),
      });
    }
    return { tables, claims };
  },
};

// ----------------------------------------------------------------------------- Fig 13

export const fig13: FigureAnalysis = {
  id: 'ccc-fig13',
  paper: 'ccc',
  title: 'CCC Fig 13: 8-to-1, 7 flows enter at 1.5 ms and leave ~3 ms',
  analyze(points): FigureResult {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    const enter = 1500 * US_PS;
    for (const p of points) {
      const label = ccLabel(p);
      const q = series(p.dir, 'queues', 'bytes');
      const tp = series(p.dir, 'throughput', 'bps');
      const fct = readFctRecords(p.dir);
      const shortEnd = Math.max(...fct.filter((r) => r.tag === 'short').map((r) => r.finishPs));
      let peak = 0;
      let peakT = enter;
      for (let i = 0; i < q.t.length; i++) if (q.t[i]! >= enter && q.t[i]! < shortEnd && q.v[i]! > peak) {
        peak = q.v[i]!;
        peakT = q.t[i]!;
      }
      const drained = firstSustained(q, peakT, 10, (v) => v <= (2 * 5e-6 * C) / 8);
      const iB = tp.t.findIndex((t, i) => t > shortEnd && tp.v[i]! > 0.95 * C);
      const tb = iB >= 0 ? (tp.t[iB]! - shortEnd) / US_PS : NaN;
      // never back above 95 %: the run's remainder is a lower bound on the re-acquisition time
      const tbBound = ((tp.t.at(-1) ?? shortEnd) - shortEnd) / US_PS;
      rows.push([label, r1(peak / 1e3), drained === null ? 'not drained' : r1((drained - enter) / US_PS), r1(shortEnd / 1e9), iB >= 0 ? r1(tb) : `> ${r1(tbBound)} (not by run end)`]);
      if (drained !== null) claims.push({ id: `ccc.fig13.${label}.drain`, value: r1((drained - enter) / US_PS) ?? NaN, unit: 'us' });
      claims.push(iB >= 0 ? { id: `ccc.fig13.${label}.reacquire`, value: r1(tb) ?? NaN, unit: 'us' } : { id: `ccc.fig13.${label}.reacquire`, value: r1(tbBound) ?? NaN, unit: 'us', bound: 'lower' });
    }
    return {
      tables: [
        {
          title: 'queue after the 7 flows enter, and bandwidth re-acquisition after they leave',
          columns: ['CC', 'peak queue (KB)', 'queue < 2·q_B·C after (us from 1.5 ms)', 'last short flow ends (ms)', 'to > 95 % after (us)'],
          rows,
        },
      ],
      claims,
    };
  },
};

// ----------------------------------------------------------------------------- Fig 11

export const fig11: FigureAnalysis = {
  id: 'ccc-fig11',
  paper: 'ccc',
  title: 'CCC Fig 11: FB_Hadoop / WebSearch at 30 % on ccc250: p95 slowdown of short flows, mean slowdown of long flows',
  analyze(points): FigureResult {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const label = ccLabel(p);
      const cdf = String(p.vars['workload[0].cdf'] ?? '');
      const fct = readFctRecords(p.dir);
      const short = fct.filter((r) => r.bytes < 10_000).map((r) => r.slowdown);
      const long = fct.filter((r) => r.bytes > 1_000_000).map((r) => r.slowdown);
      const s = summaryOf(p.dir);
      const p95 = percentile(short, 95);
      const ml = mean(long);
      rows.push([cdf, label, short.length, r3(p95), long.length, r3(ml), s.totals.flows - s.totals.finished]);
      claims.push({ id: `ccc.fig11.${cdf}.${label}.short-p95`, value: r3(p95) ?? NaN });
      claims.push({ id: `ccc.fig11.${cdf}.${label}.long-mean`, value: r3(ml) ?? NaN });
    }
    rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])) || String(a[1]).localeCompare(String(b[1])));
    // CCC against each other CC: (X - CCC)/X of the two statistics, per workload
    const cuts: Cell[][] = [];
    for (const cdf of [...new Set(rows.map((r) => String(r[0])))]) {
      const ccc = rows.find((r) => r[0] === cdf && r[1] === 'ccc');
      if (ccc === undefined) continue;
      for (const o of rows.filter((r) => r[0] === cdf && r[1] !== 'ccc')) {
        const cs = (100 * (Number(o[3]) - Number(ccc[3]))) / Number(o[3]);
        const cl = (100 * (Number(o[5]) - Number(ccc[5]))) / Number(o[5]);
        cuts.push([cdf, String(o[1]), r1(cs), r1(cl)]);
        claims.push({ id: `ccc.fig11.${cdf}.ccc-vs-${String(o[1])}.short-p95-cut`, value: r1(cs) ?? NaN, unit: '%' });
        claims.push({ id: `ccc.fig11.${cdf}.ccc-vs-${String(o[1])}.long-mean-cut`, value: r1(cl) ?? NaN, unit: '%' });
      }
    }
    return {
      tables: [
        {
          title: 'slowdown = FCT / ideal FCT',
          columns: ['workload', 'CC', 'flows < 10 KB', 'p95 slowdown', 'flows > 1 MB', 'mean slowdown', 'unfinished'],
          rows,
        },
        { title: 'CCC lower than X by (X - CCC)/X, %', columns: ['workload', 'X', 'p95 short-flow slowdown', 'mean long-flow slowdown'], rows: cuts },
      ],
      claims,
    };
  },
};
