/**
 * FCT slowdown helpers shared by the OSCAR figure analyses (./analysis.ts and
 * ./analysis-appendix.ts): the finished flows of a point read by column name,
 * slowdown statistics as the artifact notebooks compute them (arithmetic mean,
 * linear-interpolated p99, small = size <= 150 KiB), and the slowdown / gains
 * tables. "OSCAR x% better than X" is (X - OSCAR) / X (docs/experiments.md §1) unless a
 * caller asks for the gains normalised to OSCAR (`GainBase`).
 */
import { readColumns } from '../../src/experiment/results/results.js';
import { sweptCcName, type Cell, type FigureResult, type FigureTable, type MeasuredClaim, type PointResult } from '../../src/experiment/results/analysis.js';
import { mean, percentileLinear, sortedCopy } from '../../src/metrics/stats.js';

export const SMALL_MAX_BYTES = 150 * 1024;

/** The finished flows of a point (fct.csv / fct.jsonl), column-wise. */
export interface FctData {
  bytes: Float64Array;
  slowdown: Float64Array;
  finishPs: Float64Array;
  tag: string[];
}

export function readFct(dir: string): FctData {
  const t = readColumns(dir, 'fct');
  return {
    bytes: Float64Array.from(t.numbers('bytes')),
    slowdown: Float64Array.from(t.numbers('slowdown')),
    finishPs: Float64Array.from(t.numbers('finish_ps')),
    tag: t.has('tag') ? t.text('tag') : new Array<string>(t.length).fill(''),
  };
}

/** Name of the CC of a point (vars.cc is a name or { name, params }), else the label. */
export function pointCc(p: PointResult): string {
  return sweptCcName(p) ?? p.label;
}

export interface Stats {
  n: number;
  mean: number | null;
  p99: number | null;
}

export function stats(d: FctData, keep: (i: number) => boolean): Stats {
  const xs: number[] = [];
  for (let i = 0; i < d.slowdown.length; i++) if (keep(i)) xs.push(d.slowdown[i]!);
  if (xs.length === 0) return { n: 0, mean: null, p99: null };
  return { n: xs.length, mean: mean(xs), p99: percentileLinear(sortedCopy(xs), 99) };
}

export const r3 = (x: number | null): Cell => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1000) / 1000);
export const pct = (x: number | null): Cell => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10) / 10);

/**
 * What "OSCAR x % better than X" divides by:
 * - `cc`: (X - OSCAR) / X, ccsim's default reading (docs/experiments.md §1);
 * - `oscar`: (X - OSCAR) / OSCAR = X / OSCAR - 1, X normalised to OSCAR. OSCAR §6.4 states this
 *   normalisation for Fig 12 ("completion times normalized by OSCAR's"); for Fig 10a it is the
 *   reading under which the paper's small / large / all-flow gains fit one OSCAR run
 *   (experiments/oscar/README.md, Fig 10a, "Which division the published gains use").
 * The artifact's Fig 10 notebooks plot absolute slowdowns only, so neither is in its code.
 */
export type GainBase = 'cc' | 'oscar';

/** OSCAR's gain over X in % for a metric where lower is better (x: X's value, o: OSCAR's); null when undefined. */
export function gainPct(x: number | null, o: number | null, base: GainBase = 'cc'): number | null {
  if (x === null || o === null) return null;
  const d = base === 'cc' ? x : o;
  return d > 0 ? ((x - o) / d) * 100 : null;
}

const GAIN_TITLE: Record<GainBase, string> = { cc: '(X - OSCAR)/X', oscar: '(X - OSCAR)/OSCAR, X normalised to OSCAR' };

export interface FctFigureOptions {
  /** the division of the gains table and the claims (default `cc`) */
  gainBase?: GainBase;
  /** also print the gains under the other division, as a table without claims */
  otherGainTable?: boolean;
}

export interface Group {
  key: string;
  label: string;
  keep: (d: FctData, i: number) => boolean;
}

export const SIZE_GROUPS: Group[] = [
  { key: 'all', label: 'all', keep: () => true },
  { key: 'small', label: '<=150KiB', keep: (d, i) => d.bytes[i]! <= SMALL_MAX_BYTES },
  { key: 'large', label: '>150KiB', keep: (d, i) => d.bytes[i]! > SMALL_MAX_BYTES },
];

export const TAG_GROUPS: Group[] = [
  { key: 'all', label: 'all', keep: (d, i) => d.bytes[i]! > 0 },
  { key: 'hadoop', label: 'Hadoop', keep: (d, i) => d.bytes[i]! > 0 && d.tag[i] !== 'incast' },
  { key: 'incast', label: 'Incast', keep: (d, i) => d.bytes[i]! > 0 && d.tag[i] === 'incast' },
];

/**
 * Slowdown table (one row per CC: mean and p99 per group), a gains table
 * (OSCAR's gain over each CC in %, divided as `opts.gainBase` says) and claims
 * `<prefix>.oscar-vs-<cc>.<group>.<mean|p99>`. `keyOf` names a point's row (default its CC
 * name); the row named `oscar` is the reference of the gains.
 */
export function fctFigure(
  prefix: string,
  groups: Group[],
  points: readonly PointResult[],
  notes: string[],
  keyOf: (p: PointResult) => string = pointCc,
  opts: FctFigureOptions = {},
): { result: FigureResult; data: Map<string, FctData> } {
  const base = opts.gainBase ?? 'cc';
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
    const bases: GainBase[] = opts.otherGainTable === true ? [base, base === 'cc' ? 'oscar' : 'cc'] : [base];
    for (const b of bases) {
      const gRows: Cell[][] = [];
      for (const [cc, s] of st) {
        if (cc === 'oscar') continue;
        const row: Cell[] = [cc];
        groups.forEach((g, k) => {
          for (const m of ['mean', 'p99'] as const) {
            const gain = gainPct(s[k]![m], o[k]![m], b);
            row.push(pct(gain));
            if (gain !== null && b === base) claims.push({ id: `${prefix}.oscar-vs-${cc}.${g.key}.${m}`, value: gain, unit: '%' });
          }
        });
        gRows.push(row);
      }
      const gCols = ['vs cc'];
      for (const g of groups) gCols.push(`mean ${g.label} %`, `p99 ${g.label} %`);
      const title = `${prefix}: OSCAR better than X by ${GAIN_TITLE[b]}${b === base ? '' : ' (no claims; the claims use the table above)'}`;
      tables.push({ title, columns: gCols, rows: gRows });
    }
  }
  return { result: { tables, claims }, data };
}
