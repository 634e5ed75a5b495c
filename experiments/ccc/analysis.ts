/**
 * CCC paper figures (experiments/ccc/). All read result files only: queues.csv
 * and throughput.csv of the receiver's downlink (the only congested port in
 * these scenarios), flow_throughput.csv, fct.csv, summary.json and CCC's
 * cc_trace.csv (region, q, q_v, δ, S, v_ai, rate, analytical / all ACK counts).
 *
 * RTT percentiles (Table 1 E_L) come from the queue samples: RTT = the
 * topology's maximum unloaded RTT + queue/C, which is exact when the receiver
 * downlink is the only queue on the path (true on `ccc250`, 1:4 under-subscribed
 * at the edge, and on the stars) and time-weighted rather than ACK-weighted.
 */
import { readFctRecords, readTable, requireResultJson, type TableRow } from '../../src/experiment/results.js';
import type { Cell, FigureAnalysis, FigureResult, MeasuredClaim, PointResult } from '../../src/experiment/analysis.js';
import { jainIndex, mean, percentileLinear, sortedCopy } from '../../src/metrics/stats.js';

interface Manifest {
  resolved: { cc: { name: string; params: Record<string, unknown> }; stopAtPs: number | null };
}

interface Summary {
  totals: { drops: number; dataPacketsSent: number; flows: number; finished: number };
}

const US_PS = 1e6;
/** host downlink rate of the CCC topologies (25 G hosts) */
const C = 25e9;
/** maximum unloaded RTT of ccc250 and the 5-us-link stars, us (docs/network-model.md §14) */
const RTT_MIN_US = 20.16;

const manifestOf = (dir: string): Manifest => requireResultJson<Manifest>(dir, 'manifest.json');
const summaryOf = (dir: string): Summary => requireResultJson<Summary>(dir, 'summary.json');

interface Series {
  t: number[];
  v: number[];
}

function series(dir: string, base: string, col: string): Series {
  const rows = readTable(dir, base) ?? [];
  return { t: rows.map((r) => Number(r['t_ps'])), v: rows.map((r) => Number(r[col])) };
}

/** The p-th percentile (p in percent) of unsorted samples. */
const percentile = (xs: readonly number[], p: number): number => percentileLinear(sortedCopy(xs), p);
const r1 = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);
const r3 = (x: number): number | null => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : null);

/** Point label: the CC and any CC parameter the sweep varied (e.g. q_B). */
function ccLabel(p: PointResult): string {
  const cc = manifestOf(p.dir).resolved.cc;
  const q = cc.params['qBUs'];
  return q !== undefined && Object.keys(p.vars).some((k) => k.includes('qBUs')) ? `${cc.name} q_B=${String(q)}us` : cc.name;
}

/** RTT (us) samples from queue bytes. */
const rttUs = (qBytes: number): number => RTT_MIN_US + ((qBytes * 8) / C) * 1e6;

/** First time >= from at which `ok` holds for `hold` consecutive samples. */
function firstSustained(s: Series, from: number, hold: number, ok: (v: number) => boolean): number | null {
  let run = 0;
  for (let i = 0; i < s.t.length; i++) {
    if (s.t[i]! < from) continue;
    if (ok(s.v[i]!)) {
      run++;
      if (run >= hold) return s.t[i - hold + 1]!;
    } else run = 0;
  }
  return null;
}

// ----------------------------------------------------------------------------- Table 1

const table1S1: FigureAnalysis = {
  id: 'ccc-table1-s1',
  paper: 'ccc',
  title: 'CCC Table 1 S1: 5 flows to one receiver, 4 short ones leave at ~3 ms (E_B, E_L, T_B); also Fig 14 (q_B sweep)',
  analyze(points): FigureResult {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const label = ccLabel(p);
      const fct = readFctRecords(p.dir);
      const longEnd = Math.max(...fct.filter((r) => r.tag === 'long').map((r) => r.finishPs));
      const shortEnd = Math.max(...fct.filter((r) => r.tag === 'short').map((r) => r.finishPs));
      const tp = series(p.dir, 'throughput', 'bps');
      const q = series(p.dir, 'queues', 'bytes');
      const eb = mean(tp.v.filter((_, i) => tp.t[i]! <= longEnd)) / C;
      const el = percentile(
        q.v.filter((_, i) => q.t[i]! >= 1000 * US_PS && q.t[i]! <= longEnd).map(rttUs),
        99.9,
      );
      const iB = tp.t.findIndex((t, i) => t > shortEnd && t <= longEnd && tp.v[i]! > 0.95 * C);
      const tb = iB >= 0 ? (tp.t[iB]! - shortEnd) / US_PS : NaN;
      const s = summaryOf(p.dir);
      rows.push([label, r3(eb), r1(el), Number.isFinite(tb) ? r1(tb) : 'null (never > 95 %)', r1(shortEnd / 1e9), r1(longEnd / 1e9), s.totals.drops, s.totals.flows - s.totals.finished]);
      const key = label.replace(/[^A-Za-z0-9]+/g, '-');
      claims.push({ id: `ccc.table1.s1.${key}.eb`, value: r3(eb) ?? NaN });
      claims.push({ id: `ccc.table1.s1.${key}.el`, value: r1(el) ?? NaN, unit: 'us' });
      if (Number.isFinite(tb)) claims.push({ id: `ccc.table1.s1.${key}.tb`, value: r1(tb) ?? NaN, unit: 'us' });
    }
    return {
      tables: [
        {
          title: 'S1: E_B (utilisation until the long flow ends), E_L (p99.9 RTT after 1 ms), T_B (to > 95 % after the short flows leave)',
          columns: ['CC', 'E_B', 'E_L p99.9 RTT (us)', 'T_B (us)', 'short flows end (ms)', 'long flow ends (ms)', 'drops', 'unfinished'],
          rows,
          notes: [`RTT = ${RTT_MIN_US} us + receiver-downlink queue / 25 G, queue sampled every 1 us; throughput in 10 us bins`],
        },
      ],
      claims,
    };
  },
};

const table1S2: FigureAnalysis = {
  id: 'ccc-table1-s2',
  paper: 'ccc',
  title: 'CCC Table 1 S2: 100 long flows to one receiver, lossy (E_B, E_L, T_L1, T_L2)',
  analyze(points): FigureResult {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    const thr = (RTT_MIN_US * 1e-6 * C) / 8;
    for (const p of points) {
      const label = ccLabel(p);
      const tp = series(p.dir, 'throughput', 'bps');
      const q = series(p.dir, 'queues', 'bytes');
      const eb = mean(tp.v) / C;
      const firstHigh = q.t.find((_, i) => q.v[i]! > thr);
      const tl1 = firstHigh === undefined ? 0 : firstSustained(q, firstHigh, 10, (v) => v <= thr);
      // E_L is the latency once the burst is suppressed (after T_L1); a CC that never gets
      // there is measured over the run after its first ms, as S1 does, and says so.
      const elFrom = tl1 ?? 1000 * US_PS;
      const el = percentile(
        q.v.filter((_, i) => q.t[i]! >= elFrom).map(rttUs),
        99.9,
      );
      const s = summaryOf(p.dir);
      const loss = s.totals.drops / s.totals.dataPacketsSent;
      const end = (q.t.at(-1) ?? 0) / 1e9;
      rows.push([label, r3(eb), tl1 === null ? `${r1(el)} (after 1 ms: T_L1 not reached)` : r1(el), tl1 === null ? `> ${r1(end)} (run end)` : r3(tl1 / 1e9), r3(100 * loss), s.totals.drops, r1(end)]);
      const key = label.replace(/[^A-Za-z0-9]+/g, '-');
      claims.push({ id: `ccc.table1.s2.${key}.eb`, value: r3(eb) ?? NaN });
      claims.push(
        tl1 === null
          ? { id: `ccc.table1.s2.${key}.tl1`, value: r1(end) ?? NaN, unit: 'ms', bound: 'lower' }
          : { id: `ccc.table1.s2.${key}.tl1`, value: r3(tl1 / 1e9) ?? NaN, unit: 'ms' },
      );
      claims.push({ id: `ccc.table1.s2.${key}.el`, value: r1(el) ?? NaN, unit: 'us' });
      claims.push({ id: `ccc.table1.s2.${key}.tl2`, value: r3(100 * loss) ?? NaN, unit: '%' });
    }
    return {
      tables: [
        {
          title: 'S2: E_B, E_L (p99.9 RTT after T_L1), T_L1 (delay < 2·RTT_min, held 10 us), T_L2 (loss ratio)',
          columns: ['CC', 'E_B', 'E_L p99.9 RTT (us)', 'T_L1 (ms)', 'T_L2 loss (%)', 'drops', 'run (ms)'],
          rows,
          notes: [`2·RTT_min threshold = queue of ${Math.round(thr)} B (${RTT_MIN_US} us at 25 G)`],
        },
      ],
      claims,
    };
  },
};

// ----------------------------------------------------------------------------- fairness (Figs 8-10)

interface TraceData {
  fields: string[];
  byFlow: Map<number, { t: number[]; rows: TableRow[] }>;
}

function traceOf(dir: string): TraceData {
  const rows = readTable(dir, 'cc_trace') ?? [];
  const byFlow = new Map<number, { t: number[]; rows: TableRow[] }>();
  for (const r of rows) {
    const f = Number(r['flow']);
    let e = byFlow.get(f);
    if (e === undefined) byFlow.set(f, (e = { t: [], rows: [] }));
    e.t.push(Number(r['t_ps']));
    e.rows.push(r);
  }
  return { fields: rows.length > 0 ? Object.keys(rows[0]!) : [], byFlow };
}

const fairness: FigureAnalysis = {
  id: 'ccc-fairness',
  paper: 'ccc',
  title: 'CCC Figs 8-10: fairness with flows entering every 5 ms; basis S and v_ai',
  analyze(points): FigureResult {
    const rows: Cell[][] = [];
    const claims: MeasuredClaim[] = [];
    const tables = [];
    for (const p of points) {
      const label = ccLabel(p);
      const fct = readFctRecords(p.dir);
      const gp = readTable(p.dir, 'flow_throughput') ?? [];
      const flows = [...new Set(gp.map((r) => Number(r['flow'])))].sort((a, b) => a - b);
      const byFlow = new Map<number, Series>();
      for (const f of flows) byFlow.set(f, { t: [], v: [] });
      for (const r of gp) {
        const s = byFlow.get(Number(r['flow']))!;
        s.t.push(Number(r['t_ps']));
        s.v.push(Number(r['bps']));
      }
      // flow start = first bin with goodput; end = finish time from fct (or none)
      const finish = new Map<number, number>(fct.map((r) => [r.id, r.finishPs]));
      const startOf = (f: number): number => {
        const s = byFlow.get(f)!;
        const i = s.v.findIndex((v) => v > 0);
        return i < 0 ? Infinity : s.t[i]! - 100 * US_PS;
      };
      const starts2 = flows.map(startOf);
      const t0 = byFlow.get(flows[0]!)!.t;
      const times: (number | null)[] = [];
      for (let k = 1; k < flows.length; k++) {
        const arr = starts2[k]!;
        const active = (t: number): number[] => flows.filter((f, j) => starts2[j]! <= t - 100 * US_PS && (finish.get(f) ?? Infinity) > t);
        const jainAt = t0.map((t, i) => {
          if (t <= arr) return NaN;
          const a = active(t);
          return a.length < 2 ? NaN : jainIndex(a.map((f) => byFlow.get(f)!.v[i]!), { allZero: NaN });
        });
        let found: number | null = null;
        for (let i = 0; i < t0.length; i++) {
          if (!(t0[i]! > arr)) continue;
          let ok = true;
          let any = false;
          for (let j = i; j < t0.length && t0[j]! < t0[i]! + 1000 * US_PS; j++) {
            if (Number.isNaN(jainAt[j]!)) continue;
            any = true;
            if (jainAt[j]! < 0.95) {
              ok = false;
              break;
            }
          }
          if (ok && any) {
            found = (t0[i]! - arr) / US_PS;
            break;
          }
        }
        times.push(found);
        // not reached: the time left until the next arrival (or the run end) is a lower bound
        const next = k + 1 < flows.length ? starts2[k + 1]! : (t0.at(-1) ?? arr);
        const id = `ccc.fairness.${label}.arrival${k}.time-to-fair`;
        claims.push(found !== null ? { id, value: found, unit: 'us' } : { id, value: r1((next - arr) / US_PS) ?? NaN, unit: 'us', bound: 'lower' });
      }
      rows.push([label, ...times.map((x) => (x === null ? 'not reached' : r1(x)))]);
      if (label === 'ccc') {
        const tr = traceOf(p.dir);
        const epochs = [
          [4, 5, 1],
          [9, 10, 2],
          [14, 15, 3],
          [30, 35, 4],
        ] as const;
        const sRows: Cell[][] = [];
        for (const [a, b, n] of epochs) {
          const vals: Cell[] = [`${a}-${b} ms (N = ${n})`, r1(C / n / 1e9)];
          for (const f of flows) {
            const e = tr.byFlow.get(f);
            const xs = e === undefined ? [] : e.rows.filter((_, i) => e.t[i]! >= a * 1e9 && e.t[i]! < b * 1e9).map((r) => Number(r['s_bps']));
            vals.push(xs.length > 0 ? r1(mean(xs) / 1e9) : '-');
          }
          sRows.push(vals);
        }
        const f0 = tr.byFlow.get(flows[0]!);
        const ends = fct.filter((r) => r.id !== flows[0]).map((r) => r.finishPs);
        const lastEnd = ends.length > 0 ? Math.max(...ends) : Infinity;
        const vai = f0 === undefined ? [] : f0.rows.filter((_, i) => f0.t[i]! > lastEnd).map((r) => Number(r['vai']));
        const vmax = vai.length > 0 ? Math.max(...vai) : NaN;
        if (Number.isFinite(vmax)) claims.push({ id: 'ccc.fig10.vai-max-after-departures', value: vmax });
        tables.push({
          title: 'CCC basis S per flow (Gb/s, mean over the epoch) against C/N (Fig 10)',
          columns: ['epoch', 'C/N', ...flows.map((f) => `flow ${f}`)],
          rows: sRows,
          notes: [Number.isFinite(lastEnd) ? `largest v_ai of flow 0 after the other flows left (${r1(lastEnd / 1e9)} ms): ${vmax}` : 'the other flows had not left by the end of the run'],
        });
      }
    }
    return {
      tables: [
        {
          title: 'time from each arrival until Jain >= 0.95 for 1 ms (us), goodput in 100 us bins',
          columns: ['CC', ...[1, 2, 3].map((k) => `arrival ${k}`)],
          rows,
        },
        ...tables,
      ],
      claims,
    };
  },
};

// ----------------------------------------------------------------------------- Fig 7: trajectory

const REGION_NAMES = ['A^i', 'A^d', 'H1^i', 'H2^i', 'H1^d', 'H2^d'];

const fig7: FigureAnalysis = {
  id: 'ccc-fig7',
  paper: 'ccc',
  title: 'CCC Fig 7: state trajectory [q, q_v] of one of two flows, every 1 us',
  analyze(points): FigureResult {
    const tables = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const tr = traceOf(p.dir);
      const e = [...tr.byFlow.values()][0];
      if (e === undefined) continue;
      const reg = e.rows.map((r) => Number(r['region']));
      const seq: string[] = [];
      let i = 0;
      while (i < reg.length) {
        let j = i;
        while (j < reg.length && reg[j] === reg[i]) j++;
        if (j - i >= 3 && reg[i]! >= 0) {
          const name = REGION_NAMES[reg[i]!]!;
          if (seq.at(-1) !== name) seq.push(name);
        }
        i = j;
      }
      const firstA = reg.findIndex((r) => r === 0 || r === 1);
      const inA = firstA < 0 ? NaN : reg.slice(firstA).filter((r) => r === 0 || r === 1).length / (reg.length - firstA);
      const end = e.t.at(-1)!;
      const late = e.rows.filter((_, k) => e.t[k]! >= end - 2000 * US_PS);
      const qLate = mean(late.map((r) => Number(r['q_us'])));
      const qvLate = mean(late.map((r) => Math.abs(Number(r['qv']))));
      claims.push({ id: 'ccc.fig7.share-in-A-after-entry', value: r3(inA) ?? NaN });
      claims.push({ id: 'ccc.fig7.late-q', value: r1(qLate) ?? NaN, unit: 'us' });
      tables.push({
        title: `${ccLabel(p)}: regions visited (runs of >= 3 samples) and the end state`,
        columns: ['first region sequence (up to 12)', 'first A entry (us)', 'share of samples in A after it', 'mean q last 2 ms (us)', 'mean |q_v| last 2 ms'],
        rows: [[seq.slice(0, 12).join(' > '), firstA < 0 ? null : r1(e.t[firstA]! / US_PS), r3(inA), r1(qLate), r3(qvLate)]],
        notes: ['the destination is (q_B, 0) = (5 us, 0); the full trajectory is cc_trace.csv (q_us, qv)'],
      });
    }
    return { tables, claims };
  },
};

// ----------------------------------------------------------------------------- Fig 6: analytical share over time

const fig6: FigureAnalysis = {
  id: 'ccc-fig6',
  paper: 'ccc',
  title: 'CCC Fig 6: share of ACKs handled by the analytical rule, per 100 us',
  analyze(points): FigureResult {
    const tables = [];
    const claims: MeasuredClaim[] = [];
    for (const p of points) {
      const tr = traceOf(p.dir);
      const bin = 100 * US_PS;
      const an = new Map<number, number>();
      const all = new Map<number, number>();
      for (const e of tr.byFlow.values()) {
        for (let i = 1; i < e.rows.length; i++) {
          const b = Math.floor(e.t[i]! / bin);
          an.set(b, (an.get(b) ?? 0) + Number(e.rows[i]!['analytical_acks']) - Number(e.rows[i - 1]!['analytical_acks']));
          all.set(b, (all.get(b) ?? 0) + Number(e.rows[i]!['acks']) - Number(e.rows[i - 1]!['acks']));
        }
      }
      const bins = [...all.keys()].sort((a, b) => a - b);
      const share = (b: number): number => (all.get(b)! > 0 ? an.get(b)! / all.get(b)! : NaN);
      const window = (a: number, b: number): number => {
        let x = 0;
        let y = 0;
        for (const k of bins) if (k * bin >= a * 1e9 && k * bin < b * 1e9) {
          x += an.get(k)!;
          y += all.get(k)!;
        }
        return y > 0 ? x / y : NaN;
      };
      claims.push({ id: 'ccc.fig6.analytical-share.0.2-1ms', value: r3(window(0.2, 1)) ?? NaN });
      claims.push({ id: 'ccc.fig6.analytical-share.1-2.3ms', value: r3(window(1, 2.3)) ?? NaN });
      claims.push({ id: 'ccc.fig6.analytical-share.after-2.3ms', value: r3(window(2.3, Infinity)) ?? NaN });
      tables.push({
        title: `${ccLabel(p)}: share of ACKs in A^i (analytical rule)`,
        columns: ['window', 'share'],
        rows: [
          ['0.2-1 ms (long flows start, large queue)', r3(window(0.2, 1))],
          ['1-2.3 ms (short-flow turbulence)', r3(window(1, 2.3))],
          ['after 2.3 ms', r3(window(2.3, Infinity))],
          ...bins.map((k): Cell[] => [`${r1((k * bin) / 1e9)}-${r1(((k + 1) * bin) / 1e9)} ms`, r3(share(k))]),
        ],
      });
    }
    return { tables, claims };
  },
};

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
const fig2: FigureAnalysis = {
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

const fig13: FigureAnalysis = {
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

const fig11: FigureAnalysis = {
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

export const CCC_FIGURES: readonly FigureAnalysis[] = [table1S1, table1S2, fairness, fig7, fig2, fig6, fig13, fig11];
