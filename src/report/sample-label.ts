/**
 * The label every table and chart of results carries when they rest on a
 * reduced sample (issue 44): `quick size` for a sweep run with --quick (the
 * spec's `quick:` sizes, not the paper's), `one seed` when each point (or the
 * single run) is one replica, so a reader never takes a one-seed, reduced-size
 * number for a converged one. Runs that share every swept value but their
 * seed or perturbation are replicas of one point.
 */
import type { ResultSet } from '../experiment/results/results.js';
import type { FigureTable } from '../experiment/results/analysis.js';
import { HEIGHT, type Chart, type Option } from './charts.js';

/** `quick size, one seed`, `one seed (seed 1)`, ...; undefined for full-size results with replicas. */
export function sampleLabel(set: Pick<ResultSet, 'runs' | 'quick' | 'kind'>): string | undefined {
  if (set.runs.length === 0) return undefined;
  const replicas = new Map<string, number>();
  for (const r of set.runs) {
    const key = JSON.stringify(r.vars);
    replicas.set(key, (replicas.get(key) ?? 0) + 1);
  }
  const oneSeed = [...replicas.values()].every((n) => n === 1);
  const seeds = [...new Set(set.runs.map((r) => r.manifest['seed']).filter((s) => typeof s === 'number'))];
  const seedText = oneSeed ? (set.kind === 'run' || seeds.length === 1 ? `one seed${seeds.length === 1 ? ` (seed ${String(seeds[0])})` : ''}` : 'one seed per point') : undefined;
  const parts = [set.quick === true ? 'quick size' : undefined, seedText].filter((x): x is string => x !== undefined);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/** A table with the label after its title. */
export function labelTable(t: FigureTable, label: string | undefined): FigureTable {
  return label === undefined ? t : { ...t, title: `${t.title} (${label})` };
}

const SUBTEXT = 14;

function shiftTop(o: unknown): unknown {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return o;
  const top = (o as Option)['top'];
  return typeof top === 'number' ? { ...(o as Option), top: top + SUBTEXT } : o;
}

/**
 * A chart with the label as its subtitle (drawn in the HTML report and in the
 * exported SVG / PNG figures alike): legend and plot move down to make room.
 */
export function labelChart(c: Chart, label: string | undefined): Chart {
  if (label === undefined || c.option === undefined) return c;
  const o = c.option;
  const title = o['title'];
  if (title === null || typeof title !== 'object' || Array.isArray(title)) return c;
  const option: Option = {
    ...o,
    title: { ...(title as Option), subtext: label, itemGap: 2, subtextStyle: { fontSize: 11, color: '#a04000' } },
    ...(o['legend'] !== undefined ? { legend: shiftTop(o['legend']) } : {}),
    ...(o['grid'] !== undefined ? { grid: shiftTop(o['grid']) } : {}),
  };
  return { ...c, option, height: (c.height ?? HEIGHT) + SUBTEXT };
}
