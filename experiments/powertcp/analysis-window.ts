/**
 * PowerTCP (NSDI'22) §4.2, Fig. 6b / 7b, issue 28 item 6g: how HPCC's long flows (> 1 MB)
 * compare with PowerTCP's as the arrival window of the 60 % WebSearch run grows
 * (experiments/powertcp/fig6-7-window.yaml). The paper shows HPCC's long flows 5-10 % slower;
 * ccsim's full-size runs (0.96 s of arrivals) 21 % at p99.9.
 *
 * Per window: the long flows' mean / p99 / p99.9 FCT of each CC and PowerTCP's gain
 * g = (HPCC - PowerTCP) / HPCC (the convention of ./analysis.ts, `gainPct`), and, to show
 * where a gap comes from, the same gain by start time (quarters of the arrival window) and by
 * size, the per-flow FCT ratio HPCC / PowerTCP over the flows both runs have (same seed and
 * generator: the same flows), the mean number of flows in progress during the arrival window
 * (how far the network is from its steady state), PFC pauses, drops and the largest switch
 * queue. Percentiles are `percentileLinear`, as the run summaries.
 */
import { percentileLinear, sortedCopy } from '../../src/metrics/stats.js';
import { parseTimePs } from '../../src/engine/units.js';
import { readFctRecords, readRunManifest, readRunSummary, readTable, type FctRecord } from '../../src/experiment/results/results.js';
import { registerFigure, sweptCcName, type Cell, type FigureAnalysis, type PointResult } from '../../src/experiment/results/analysis.js';
import { gainPct } from './analysis.js';

const MS_PS = 1e9;
/** PT §4.2's long bucket: more than 1 MB */
const LONG_BYTES = 1_000_000;
const QUARTERS = 4;
/** start-time blocks for the p99.9 by block: the shortest window of the sweep */
const BLOCK_PS = 20 * MS_PS;
/** slowest long flows listed per CC and window (at 100 ms about the p99.9's neighbourhood) */
const TOP = 3;
/** size classes of the long flows (bytes, lower bound exclusive) */
const SIZE_CLASSES: readonly [string, number, number][] = [
  ['1-3 MB', 1e6, 3e6],
  ['3-10 MB', 3e6, 10e6],
  ['> 10 MB', 10e6, Infinity],
];

const r1 = (x: number): number => Math.round(x * 10) / 10;
const r3 = (x: number): number => Math.round(x * 1000) / 1000;
const avg = (xs: readonly number[]): number => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

interface Workload {
  startPs: number;
  windowPs: number;
}

/** The first workload entry's start and duration, from the point's resolved spec (integer ps there). */
function workloadOf(p: PointResult): Workload {
  const w = readRunManifest(p.dir)?.spec?.workload?.[0] as { start?: unknown; duration?: unknown } | undefined;
  const ps = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? parseTimePs(v) : NaN);
  return { startPs: w?.start === undefined ? 0 : ps(w.start), windowPs: ps(w?.duration) };
}

interface Stats {
  n: number;
  mean: number;
  p99: number;
  p999: number;
}

function stats(fctPs: readonly number[]): Stats {
  const s = sortedCopy(fctPs);
  return { n: s.length, mean: avg(fctPs), p99: percentileLinear(s, 99), p999: percentileLinear(s, 99.9) };
}

/** Mean number of flows (all sizes) in progress over [from, to): the sum of each flow's overlap over the span. */
function meanInProgress(flows: readonly FctRecord[], from: number, to: number): number {
  let sum = 0;
  for (const f of flows) sum += Math.max(0, Math.min(f.finishPs, to) - Math.max(f.startPs, from));
  return sum / (to - from);
}

/** Largest queue (bytes) any switch port reached (counters_ports `max_queue_bytes`, hosts excluded). */
function maxSwitchQueue(dir: string): number {
  const hosts = new Set((readTable(dir, 'counters_nodes') ?? []).filter((r) => r['layer'] === 'host').map((r) => String(r['node'])));
  let max = NaN;
  for (const r of readTable(dir, 'counters_ports') ?? []) {
    if (hosts.has(String(r['node']))) continue;
    const q = Number(r['max_queue_bytes']);
    if (!(q <= max)) max = q;
  }
  return max;
}

interface Side {
  p: PointResult;
  flows: FctRecord[];
  long: FctRecord[];
}

function side(p: PointResult): Side {
  const flows = readFctRecords(p.dir);
  return { p, flows, long: flows.filter((f) => f.bytes > LONG_BYTES) };
}

const meanFct = (fs: readonly FctRecord[]): number => avg(fs.map((f) => f.fctPs));

export const windowFigure: FigureAnalysis = {
  id: 'powertcp-window',
  paper: 'powertcp',
  title: "PowerTCP vs HPCC long flows (> 1 MB) at 60 % WebSearch by arrival window (issue 28, 6g)",
  analyze(points) {
    const byWindow = new Map<number, { wl: Workload; pt?: Side; hpcc?: Side }>();
    for (const p of points) {
      const cc = sweptCcName(p);
      if (cc !== 'powertcp' && cc !== 'hpcc') continue;
      const wl = workloadOf(p);
      const e = byWindow.get(wl.windowPs) ?? { wl };
      e[cc === 'powertcp' ? 'pt' : 'hpcc'] = side(p);
      byWindow.set(wl.windowPs, e);
    }
    const main: Cell[][] = [];
    const profile: Cell[][] = [];
    const sizes: Cell[][] = [];
    const state: Cell[][] = [];
    const slowest: Cell[][] = [];
    const blocks: Cell[][] = [];
    for (const [win, { wl, pt, hpcc }] of [...byWindow].sort((a, b) => a[0] - b[0])) {
      const w = `${r1(win / MS_PS)} ms`;
      for (const s of [pt, hpcc]) {
        if (s === undefined) continue;
        const st = stats(s.long.map((f) => f.fctPs));
        const sum = readRunSummary(s.p.dir);
        const end = wl.startPs + wl.windowPs;
        main.push([w, sweptCcName(s.p) ?? s.p.label, st.n, r3(st.mean / MS_PS), r3(st.p99 / MS_PS), r3(st.p999 / MS_PS)]);
        state.push([w, sweptCcName(s.p) ?? s.p.label, s.flows.length, r1(meanInProgress(s.flows, wl.startPs, end)), r1(meanInProgress(s.long, wl.startPs, end)),
          sum?.totals?.pausesSent ?? null, sum?.totals?.drops ?? null, sum?.unfinished ?? null, r1(maxSwitchQueue(s.p.dir) / 1000)]);
      }
      if (pt === undefined || hpcc === undefined) continue;
      const a = stats(pt.long.map((f) => f.fctPs));
      const b = stats(hpcc.long.map((f) => f.fctPs));
      const g = [gainPct(a.mean, b.mean), gainPct(a.p99, b.p99), gainPct(a.p999, b.p999)];
      main.push([w, 'gain %', null, r1(g[0]!), r1(g[1]!), r1(g[2]!)]);
      // pair the flows by id (the generator gives both CCs the same flows)
      const hById = new Map(hpcc.long.map((f) => [f.id, f]));
      const pairs = pt.long.flatMap((f) => {
        const h = hById.get(f.id);
        return h !== undefined && h.bytes === f.bytes && h.startPs === f.startPs ? [[f, h] as const] : [];
      });
      const row: Cell[] = [w, pairs.length];
      for (let q = 0; q < QUARTERS; q++) {
        const lo = wl.startPs + (q * wl.windowPs) / QUARTERS;
        const hi = wl.startPs + ((q + 1) * wl.windowPs) / QUARTERS;
        const inQ = pairs.filter(([f]) => f.startPs >= lo && f.startPs < hi);
        row.push(inQ.length, r1(gainPct(meanFct(inQ.map(([f]) => f)), meanFct(inQ.map(([, h]) => h)))));
      }
      row.push(r3(avg(pairs.map(([f, h]) => h.fctPs / f.fctPs))));
      profile.push(row);
      // p99.9 gain over the flows starting in each 20 ms block: as many flows as the 20 ms run
      // has, but in the network state of this window
      const gains: number[] = [];
      for (let lo = wl.startPs; lo < wl.startPs + wl.windowPs; lo += BLOCK_PS) {
        const inB = pairs.filter(([f]) => f.startPs >= lo && f.startPs < lo + BLOCK_PS);
        gains.push(gainPct(stats(inB.map(([f]) => f.fctPs)).p999, stats(inB.map(([, h]) => h.fctPs)).p999));
      }
      const sortedGains = sortedCopy(gains.filter(Number.isFinite));
      blocks.push([w, gains.length, gains.map((x) => r1(x)).join(' / '), r1(percentileLinear(sortedGains, 50))]);
      const srow: Cell[] = [w];
      for (const [, lo, hi] of SIZE_CLASSES) {
        const inC = pairs.filter(([f]) => f.bytes > lo && f.bytes <= hi);
        srow.push(inC.length, r1(gainPct(meanFct(inC.map(([f]) => f)), meanFct(inC.map(([, h]) => h)))));
      }
      sizes.push(srow);
      for (const [mine, other] of [[pt, hpcc], [hpcc, pt]] as const) {
        const oById = new Map(other.long.map((f) => [f.id, f]));
        for (const f of [...mine.long].sort((x, y) => y.fctPs - x.fctPs).slice(0, TOP)) {
          const o = oById.get(f.id);
          slowest.push([w, sweptCcName(mine.p) ?? mine.p.label, f.id, r1(f.bytes / 1e6), r1((f.startPs - wl.startPs) / MS_PS), r1(f.fctPs / MS_PS), r3(f.slowdown), o === undefined ? null : r1(o.fctPs / MS_PS)]);
        }
      }
    }
    return {
      tables: [
        {
          title: 'Long flows (> 1 MB): FCT (ms) per arrival window and CC; gain = (HPCC - PowerTCP) / HPCC',
          columns: ['window', 'cc', 'flows > 1 MB', 'mean ms', 'p99 ms', 'p99.9 ms'],
          rows: main,
          notes: ['paper (Fig. 6b / 7b): PowerTCP 5-10 % better than HPCC on long flows; full-size fig6-7ab at 60 % (0.96 s): 21 % at p99.9'],
        },
        {
          title: 'Gain on the mean FCT of the paired long flows by start time (quarters of the arrival window); mean per-flow FCT ratio HPCC / PowerTCP',
          columns: ['window', 'paired', ...Array.from({ length: QUARTERS }, (_, q) => [`Q${q + 1} n`, `Q${q + 1} gain %`]).flat(), 'mean ratio'],
          rows: profile,
        },
        {
          title: 'Gain on the p99.9 FCT of the long flows starting in each 20 ms block of the window (in order), and its median',
          columns: ['window', 'blocks', 'p99.9 gain % per block', 'median %'],
          rows: blocks,
        },
        {
          title: 'Gain on the mean FCT of the paired long flows by size',
          columns: ['window', ...SIZE_CLASSES.map(([l]) => [`${l} n`, `${l} gain %`]).flat()],
          rows: sizes,
        },
        {
          title: `The ${TOP} slowest long flows of each CC: they set the p99.9 (with ~2,000 long flows the p99.9 lies between the 2nd and 3rd slowest)`,
          columns: ['window', 'cc', 'flow', 'MB', 'start ms (from arrivals start)', 'FCT ms', 'slowdown', 'other CC FCT ms'],
          rows: slowest,
        },
        {
          title: 'State of the network: flows in progress during the arrival window (time mean), PFC pauses, drops, largest switch queue',
          columns: ['window', 'cc', 'flows', 'in progress', 'long in progress', 'PFC pauses', 'drops', 'unfinished', 'max switch queue KB'],
          rows: state,
        },
      ],
      // a diagnostic: no published number to check (data/published/powertcp.yaml)
      claims: [],
    };
  },
};

registerFigure(windowFigure);
