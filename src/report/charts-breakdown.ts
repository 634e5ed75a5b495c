/**
 * The report's "Where the time went" section (issue 41; the parts are defined in docs/guide.md,
 * "Why a flow was slow"): from summary.json's `breakdown` (metrics/breakdown-summary.ts), each
 * group of finished flows as one horizontal bar stacked from its parts, each part's share of the
 * group's summed FCT (a bar is 100 %; the tooltip adds the mean per flow in us). One run: a bar
 * per size bin of each bin set (and per tag when the run has tags). A sweep: a chart per size bin
 * (and per tag) with a bar per run, so the CCs compare at a glance. The worst ports (queueing
 * the flows met there, pause time caused upstream) are a table.
 *
 * Shares rather than mean ps: the bins' FCTs differ by orders of magnitude, so absolute stacks
 * would show only the largest bin; the share answers "where did this bin's time go", and the
 * axis label keeps the mean FCT for the scale.
 */
import type { FigureTable } from '../experiment/results/analysis.js';
import type { RunData } from '../experiment/results/results.js';
import type { BreakdownGroup, BreakdownSummary } from '../metrics/breakdown-summary.js';
import type { PortBreakdown } from '../metrics/types.js';
import { MAX_SERIES, WIDTH, frame, limitNote, type Chart, type Option } from './charts.js';
import { nodeNames } from './charts-series.js';

/** A part's legend text (its fct.csv column first) and colour: green = useful, warm = waiting in the network. */
const PART_STYLE: Record<string, { label: string; color: string }> = {
  tx: { label: 'tx: sending at line rate', color: '#3a923a' },
  cc: { label: 'cc: held by the CC', color: '#4c72b0' },
  pfc: { label: 'pfc: PFC-paused at its NIC', color: '#c44e52' },
  nic: { label: 'nic: NIC busy with others', color: '#dd8452' },
  loss: { label: 'loss: loss recovery', color: '#8172b3' },
  tail_queue: { label: 'tail_queue: last packet queued', color: '#ccb974' },
  tail_base: { label: 'tail_base: propagation, serialization', color: '#9a9a9a' },
};

function partStyle(p: string): { label: string; color: string } {
  return PART_STYLE[p] ?? { label: p, color: '#777777' };
}

/** Time in ps as text with a unit that keeps 3 significant digits. */
export function timeText(ps: number | null): string {
  if (ps === null || !Number.isFinite(ps)) return '-';
  if (ps >= 1e9) return `${+(ps / 1e9).toPrecision(3)} ms`;
  if (ps >= 1e6) return `${+(ps / 1e6).toPrecision(3)} us`;
  return `${+(ps / 1e3).toPrecision(3)} ns`;
}

interface Category {
  label: string;
  group: BreakdownGroup;
}

const ROW = 34;
const UNTAGGED = 'untagged';

/** A group as a category label: its name, flow count and mean FCT. */
function categoryLabel(name: string, g: BreakdownGroup): string {
  return `${name}\nn=${g.count.toLocaleString('en-US')}, mean FCT ${timeText(g.meanFctPs)}`;
}

/**
 * One chart of horizontal bars, each stacked from the parts of a group of flows (share of the
 * group's summed FCT). Parts zero in every bar are left out of the legend and named in the note.
 */
function stackedChart(id: string, title: string, parts: readonly string[], cats: readonly Category[], extraNotes: readonly string[] = []): Chart {
  const used = parts.filter((p) => cats.some((c) => (c.group.share[p] ?? 0) > 0));
  const zero = parts.filter((p) => !used.includes(p));
  const legend = used.map((p) => partStyle(p).label);
  const base = frame(title, legend, false);
  const top = (base['grid'] as { top: number }).top;
  const height = top + cats.length * ROW + 60;
  const option: Option = {
    ...base,
    grid: { left: 16, right: 28, top, bottom: 52, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, confine: true, ccsimFormat: 'parts' },
    xAxis: { type: 'value', name: "share of the flows' summed FCT (%)", nameLocation: 'middle', nameGap: 30, min: 0, max: 100 },
    yAxis: { type: 'category', inverse: true, data: cats.map((c) => c.label), axisLabel: { fontSize: 10, lineHeight: 13 } },
    series: used.map((p) => ({
      name: partStyle(p).label,
      type: 'bar',
      stack: 'fct',
      barMaxWidth: 22,
      itemStyle: { color: partStyle(p).color },
      data: cats.map((c) => {
        const s = c.group.share[p];
        const m = c.group.meanPs[p];
        return { value: s === null || s === undefined ? 0 : Math.round(s * 1e5) / 1e3, us: m === null || m === undefined ? null : Math.round(m / 1e3) / 1e3 };
      }),
    })),
  };
  const notes = [...extraNotes];
  if (zero.length > 0) notes.push(`zero in every bar: ${zero.join(', ')}`);
  return { id, title, option, width: WIDTH, height, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

/** The tags of a breakdown worth a chart: two or more groups, one of them tagged (one group is all flows). */
function tagsOf(bd: BreakdownSummary): string[] {
  const tags = Object.keys(bd.byTag);
  return tags.length >= 2 && tags.some((t) => t !== UNTAGGED) ? tags : [];
}

/** The runs with a breakdown in their summary, with their legend names. */
function withBreakdown(runs: readonly RunData[], names: readonly string[]): { run: RunData; name: string; bd: BreakdownSummary }[] {
  const out: { run: RunData; name: string; bd: BreakdownSummary }[] = [];
  runs.forEach((r, i) => {
    if (r.summary.breakdown !== undefined && r.summary.breakdown.overall.count > 0) out.push({ run: r, name: names[i]!, bd: r.summary.breakdown });
  });
  return out;
}

/** Whether any of the runs has breakdown data (a finished flow with the parts). */
export function hasBreakdown(runs: readonly RunData[]): boolean {
  return runs.some((r) => (r.summary.breakdown?.overall.count ?? 0) > 0);
}

/** One run: a chart per bin set (bars = its bins and all flows), and one per tag set. */
function runCharts(bd: BreakdownSummary): Chart[] {
  const charts: Chart[] = [];
  const all: Category = { label: categoryLabel('all flows', bd.overall), group: bd.overall };
  for (const [set, bins] of Object.entries(bd.bins)) {
    const cats = bins.filter((b) => b.count > 0).map((b) => ({ label: categoryLabel(b.label, b), group: b as BreakdownGroup }));
    const empty = bins.filter((b) => b.count === 0).map((b) => b.label);
    if (cats.length === 0) continue;
    charts.push(
      stackedChart(`breakdown-${set}`, `Where the time went, per flow size (${set} bins)`, bd.parts, [...cats, all], empty.length > 0 ? [`no finished flow in ${empty.join(', ')}`] : []),
    );
  }
  if (charts.length === 0) charts.push(stackedChart('breakdown-all', 'Where the time went, all flows', bd.parts, [all]));
  const tags = tagsOf(bd);
  if (tags.length > 0) {
    const cats = tags.map((t) => ({ label: categoryLabel(t, bd.byTag[t]!), group: bd.byTag[t]! }));
    charts.push(stackedChart('breakdown-tags', 'Where the time went, per tag', bd.parts, [...cats, all]));
  }
  return charts;
}

/** A sweep: per size bin of each bin set, per tag and for all flows, a chart with one bar per run. */
function sweepCharts(rs: readonly { name: string; bd: BreakdownSummary }[]): Chart[] {
  const parts = rs[0]!.bd.parts;
  const charts: Chart[] = [];
  const chart = (id: string, title: string, pick: (bd: BreakdownSummary) => BreakdownGroup | undefined): void => {
    const cats: Category[] = [];
    const none: string[] = [];
    for (const r of rs) {
      const g = pick(r.bd);
      if (g !== undefined && g.count > 0) cats.push({ label: categoryLabel(r.name, g), group: g });
      else none.push(r.name);
    }
    if (cats.length === 0) return;
    charts.push(stackedChart(id, title, parts, cats, none.length > 0 ? [`no finished flow of this group in ${none.join(', ')}`] : []));
  };
  chart('breakdown-all', 'Where the time went, all flows', (bd) => bd.overall);
  for (const [set, bins] of Object.entries(rs[0]!.bd.bins)) {
    bins.forEach((b, j) => chart(`breakdown-${set}-${j}`, `Where the time went, flows ${b.label} (${set} bins)`, (bd) => bd.bins[set]?.[j]));
  }
  const tags = [...new Set(rs.flatMap((r) => tagsOf(r.bd)))].sort();
  tags.forEach((t, j) => chart(`breakdown-tag-${j}`, `Where the time went, tag ${t}`, (bd) => bd.byTag[t]));
  return charts;
}

/** The stacked-bar charts of the section: per size bin (and tag) for one run, per run for a sweep. */
export function breakdownCharts(runs: readonly RunData[], names: readonly string[]): Chart[] {
  const rs = withBreakdown(runs, names).slice(0, MAX_SERIES);
  if (rs.length === 0) return [];
  const charts = rs.length === 1 && runs.length === 1 ? runCharts(rs[0]!.bd) : sweepCharts(rs);
  const note = limitNote(withBreakdown(runs, names).length, rs.length, 'runs with a breakdown');
  return note === undefined ? charts : charts.map((c) => ({ ...c, note: c.note === undefined ? note : `${c.note}; ${note}` }));
}

/** Whole us (the table's unit); a time under 1 us but not zero as "< 1". */
const us = (ps: number): number | string => (ps > 0 && ps < 1e6 ? '< 1' : Math.round(ps / 1e6));

/** A run's worst ports: the ones with the most queueing, then those whose pauses held their upstream longest. */
function worstPorts(bd: BreakdownSummary, max: number): PortBreakdown[] {
  const out = bd.topPorts.slice(0, max);
  const key = (p: PortBreakdown): string => `${p.node}:${p.port}`;
  for (const p of bd.topPausing) if (!out.some((q) => key(q) === key(p)) && out.length < max + 3) out.push(p);
  return out;
}

/**
 * The table of the worst ports: per port its node (and name), role, peer, the queueing its
 * flows met there (summed over flows), the time it was paused and the pause time it caused
 * upstream. A sweep gets a run column and fewer ports per run.
 */
export function breakdownPortTable(runs: readonly RunData[], names: readonly string[]): FigureTable | undefined {
  const rs = withBreakdown(runs, names).slice(0, MAX_SERIES);
  if (rs.length === 0) return undefined;
  const sweep = runs.length > 1;
  const rows: FigureTable['rows'] = [];
  for (const r of rs) {
    const node = nodeNames(r.run);
    for (const p of worstPorts(r.bd, sweep ? 5 : 10)) {
      const row = [p.node, node.get(p.node) ?? '', p.port, p.role, p.peer, us(p.queuePs), us(p.pausedPs), us(p.pauseCausedPs)];
      rows.push(sweep ? [r.name, ...row] : row);
    }
  }
  if (rows.length === 0) return undefined;
  const columns = ['node', 'name', 'port', 'role', 'to node', 'queueing met (us)', 'paused (us)', 'pause caused upstream (us)'];
  const pfc = rs.some((r) => r.bd.topPausing.length > 0);
  // without a PFC pause in any run, the two pause columns would be zeros: left out, with a note
  const all = sweep ? ['run', ...columns] : columns;
  const keep = all.flatMap((c, i) => (pfc || !c.startsWith('pause') ? [i] : []));
  return {
    title: 'Worst ports',
    columns: keep.map((i) => all[i]!),
    rows: rows.map((r) => keep.map((i) => r[i]!)),
    notes: [
      `${sweep ? 'per run, the 5' : 'the 10'} ports where the flows queued longest${pfc ? ', then those whose PFC pauses held their upstream longest' : '; no PFC pause in ' + (sweep ? 'these runs' : 'this run')}`,
      "queueing met: the time the run's flows queued at the port, summed over flows (so it can exceed the run)" +
        (pfc ? "; paused: the time a class of the port was paused by its peer; pause caused upstream: the paused time of the peer's port toward this one" : '') +
        ' (docs/guide.md, "Why a flow was slow")',
    ],
  };
}
