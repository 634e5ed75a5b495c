/**
 * Figure analyses: turn the result folders of one experiment (a spec, usually
 * with a `sweep:` block over CCs and parameters) into the numbers a paper's
 * figure shows, as tables. Analyses read result files only (docs/architecture.md
 * rule 8: reports come from files, never from live objects), through the
 * reader of ./results.ts, so they work on a finished sweep folder as well as
 * right after a run.
 *
 * An experiment spec names its analysis with `figure: <id>`; `ccsim sweep`
 * and `ccsim reproduce` print the tables after the points finish, and the
 * reproduction report compares the `claims` with published values.
 *
 * The experiment layer owns this contract and the registry below; the
 * analyses of a paper live beside its specs (experiments/<paper>/analysis*.ts)
 * and register themselves when experiments/index.ts is imported (the CLI
 * does). Only the paper-independent `slowdown-table` is built in.
 */
import { Registry } from '../../engine/registry.js';
import { slowdownTable } from './slowdown-table.js';

/** One finished point of an experiment. */
export interface PointResult {
  /** the point's result folder (summary.json, fct.csv, series CSVs, manifest.json) */
  dir: string;
  /** the swept fields of this point, by path (e.g. { cc: 'oscar', 'workload[0].load': 0.8 }) */
  vars: Record<string, unknown>;
  /** a short label of the point, e.g. "cc=oscar load=0.8" */
  label: string;
}

/** The CC name a point's sweep gave it (`cc: name` or `cc: { name, ... }`); undefined when cc was not swept. */
export function sweptCcName(p: PointResult): string | undefined {
  const cc = p.vars['cc'];
  if (typeof cc === 'string') return cc;
  if (cc !== null && typeof cc === 'object' && typeof (cc as { name?: unknown }).name === 'string') return (cc as { name: string }).name;
  return undefined;
}

export type Cell = string | number | null;

export interface FigureTable {
  title: string;
  columns: string[];
  rows: Cell[][];
  /** caveats printed under the table (reduced size, model differences) */
  notes?: string[];
}

/** A measured number that a paper's claim can be checked against. */
export interface MeasuredClaim {
  /** stable id shared with the paper's data file of published numbers (e.g. "fig10a.oscar-vs-hpcc.mean") */
  id: string;
  value: number;
  unit?: string;
  /**
   * 'lower': the event measured did not happen by the end of the run, so the
   * true value is above `value` (e.g. "time until the queue drains" when it
   * never drains). Such a claim can still deviate (the bound already exceeds
   * the published value) but can never hold within a tolerance.
   */
  bound?: 'lower';
}

export interface FigureResult {
  tables: FigureTable[];
  claims: MeasuredClaim[];
}

export interface FigureAnalysis {
  /** e.g. "oscar-fig9" */
  id: string;
  /** e.g. "oscar" */
  paper: string;
  title: string;
  analyze(points: readonly PointResult[]): FigureResult;
}

/**
 * The registered analyses by id (a `Registry`, engine/registry.ts), in registration order (the
 * built-in one first). Registering the same analysis object again is a no-op; another analysis
 * under an id already taken is an error naming both sources (two papers must not share an id).
 */
export const figureRegistry = new Registry<FigureAnalysis>({ kind: 'figure analysis', key: (a) => a.id, sameObjectAgain: true });
figureRegistry.register(slowdownTable);

/** Makes analyses findable by the `figure:` id of an experiment spec (source: `paper <paper>`). */
export function registerFigure(...analyses: readonly FigureAnalysis[]): void {
  for (const a of analyses) figureRegistry.register(a, `paper ${a.paper}`);
}

/** The analysis registered under `id`, if any. */
export function findFigure(id: string): FigureAnalysis | undefined {
  return figureRegistry.find(id);
}

/** Ids of every registered analysis, in registration order. */
export function figureNames(): string[] {
  return figureRegistry.names();
}
