/**
 * The report's job section: iteration times of closed-loop workloads
 * (collectives, parameter servers; summary.json `jobs`), one row and one bar
 * per run, so a sweep over CCs shows each CC's iteration time side by side
 * (OSCAR §6.4 Fig 12, CCC §6.4 Fig 12; docs/guide.md, "Collective workloads").
 */
import type { RunData } from '../experiment/results/results.js';
import type { FigureTable } from '../experiment/results/analysis.js';
import { MAX_SERIES, WIDTH, axis, frame, limitNote, r3, type Chart, type Option } from './charts.js';

const MS = 1e9;

function ms(ps: number | undefined): number | null {
  return ps === undefined ? null : r3(ps / MS);
}

/** Runs that ran jobs, with their names. */
function withJobs(runs: readonly RunData[], names: readonly string[]): { run: RunData; name: string }[] {
  return runs.map((run, i) => ({ run, name: names[i]! })).filter((x) => x.run.summary.jobs !== undefined);
}

/** One row per run that ran jobs: iterations and their durations (ms), and the jobs' finished flows. */
export function jobTable(runs: readonly RunData[], names: readonly string[]): FigureTable | undefined {
  const rows = withJobs(runs, names);
  if (rows.length === 0) return undefined;
  return {
    title: 'Job iterations',
    columns: ['run', 'cc', 'iterations', 'mean ms', 'p50 ms', 'p99 ms', 'max ms', 'job flows finished'],
    rows: rows.map(({ run, name }) => {
      const j = run.summary.jobs!;
      return [name, run.cc, j.iterations, ms(j.meanPs), ms(j.p50Ps), ms(j.p99Ps), ms(j.maxPs), // summaries written before completedFlows existed lack it
        (j as { completedFlows?: number }).completedFlows ?? null];
    }),
    notes: ['an iteration runs from its first flow start to its last flow finish (jobs.csv has every one); job flows finished: flows tagged with a job\'s tag that finished within the run'],
  };
}

/** A run's CC as its legend spells it (`cc=name[k=v]`), and the rest of its legend name. */
function splitCc(run: RunData, name: string): { cc: string; rest: string } {
  const m = /(?:^| )cc=(\S+)/.exec(name);
  if (m === null) return { cc: run.cc, rest: name };
  return { cc: m[1]!, rest: name.replace(m[0], '').trim() };
}

const MAX_GROUPS = 8;

/**
 * Horizontal bars of the mean and p99 iteration time, one bar pair per CC, one
 * chart per combination of the other swept values (a sweep over workloads and
 * CCs gives a chart per workload, so runs of very different lengths do not
 * share an axis).
 */
export function jobCharts(runs: readonly RunData[], names: readonly string[]): Chart[] {
  const all = withJobs(runs, names);
  if (all.length === 0) return [];
  const groups = new Map<string, { cc: string; run: RunData }[]>();
  for (const x of all) {
    const { cc, rest } = splitCc(x.run, x.name);
    const g = groups.get(rest) ?? [];
    g.push({ cc, run: x.run });
    groups.set(rest, g);
  }
  const keys = [...groups.keys()];
  return keys.slice(0, MAX_GROUPS).map((key, gi) => {
    const members = groups.get(key)!.slice(0, MAX_SERIES);
    const title = key === '' ? 'Iteration time per CC' : `Iteration time per CC: ${key}`;
    const id = keys.length === 1 ? 'job-iterations' : `job-iterations-${gi + 1}`;
    if (members.every((m) => m.run.summary.jobs!.iterations === 0)) return { id, title, empty: 'no iteration finished' };
    const base = frame(title, ['mean', 'p99'], false);
    const option: Option = {
      ...base,
      grid: { left: 12, right: 40, top: (base['grid'] as { top: number }).top, bottom: 48, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true },
      xAxis: axis('value', 'iteration time (ms)', { nameGap: 28 }),
      yAxis: axis('category', '', { data: members.map((m) => m.cc), inverse: true, axisLabel: { width: Math.floor(WIDTH * 0.4), overflow: 'truncate', fontSize: 11 } }),
      series: (['meanPs', 'p99Ps'] as const).map((k) => ({
        name: k === 'meanPs' ? 'mean' : 'p99',
        type: 'bar',
        data: members.map((m) => (m.run.summary.jobs!.iterations > 0 ? ms(m.run.summary.jobs![k]) : null)),
      })),
    };
    const notes = [limitNote(groups.get(key)!.length, members.length, 'runs'), gi === MAX_GROUPS - 1 ? limitNote(keys.length, MAX_GROUPS, 'charts') : undefined].filter(Boolean);
    return { id, title, option, height: Math.max(220, 110 + members.length * 34), ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
  });
}
