/**
 * How many threads one run uses (issue 31; docs/architecture.md, "Parallel runs"): the
 * spec's `threads` or `ccsim run --threads`, bounded by the partitions the topology
 * splits into (net/topology/partition.ts) and by the machine's cores. The run goes on
 * with what makes sense and says why in `notes`; the manifest records the plan.
 *
 * The parallel engine (sim/parallel/parallel.ts) runs most runs; what it does not run yet
 * (`parallelUnsupported`: closed loops, streamed workloads, circuits, ...) uses one thread,
 * with a note naming it.
 */
import { availableParallelism } from 'node:os';
import { formatTime } from '../../engine/units.js';
import { partitionTopology, type Partitioning } from '../../net/topology/partition.js';
import type { Topology } from '../../net/topology/types.js';

/** Whether runs can use more than one thread (the parallel engine, sim/parallel/parallel.ts). */
export const PARALLEL_ENGINE = true;

export interface ThreadPlan {
  /** threads asked for (spec `threads` or `--threads`) */
  requested: number;
  /** where the request came from */
  from: 'spec' | 'option';
  /** partitions the topology would be split into for the request (<= requested, <= cores) */
  partitions: number;
  /** threads the run uses */
  used: number;
  /** the split, when more than one thread was asked for */
  partitioning: Partitioning | null;
  /** why `used` is below `requested`, if it is */
  notes: string[];
}

/**
 * The thread plan of a run of `topo` asking for `requested` threads on a machine with `cores`
 * cores; `unsupported` names what in the run the parallel engine does not run yet (one thread).
 */
export function planThreads(topo: Topology, requested: number, from: 'spec' | 'option', cores: number = availableParallelism(), unsupported: string | null = null): ThreadPlan {
  if (requested <= 1) return { requested, from, partitions: 1, used: 1, partitioning: null, notes: [] };
  let p = partitionTopology(topo, requested);
  const notes = [...p.notes];
  if (p.count > cores) {
    notes.push(`this machine has ${cores} core${cores === 1 ? '' : 's'}: more threads than cores would wait on each other at every window, so ${cores}`);
    const q = partitionTopology(topo, cores);
    p = { ...q, requested };
  }
  let used = p.count;
  if (!PARALLEL_ENGINE && used > 1) {
    notes.push('the parallel engine is not built yet (issue 31): the run uses one thread; the table shows the split it would use');
    used = 1;
  } else if (used > 1 && unsupported !== null) {
    notes.push(`the parallel engine (issue 31) does not yet run ${unsupported}: the run uses one thread`);
    used = 1;
  }
  return { requested, from, partitions: p.count, used, partitioning: p, notes };
}

/** The plan as the manifest records it (plain data, no per-node arrays). */
export function threadRecord(plan: ThreadPlan): Record<string, unknown> {
  const p = plan.partitioning;
  return {
    requested: plan.requested,
    from: plan.from,
    used: plan.used,
    partitions: plan.partitions,
    ...(p !== null ? { lookaheadPs: Number.isFinite(p.lookaheadPs) ? p.lookaheadPs : null, crossLinks: p.crossLinks, groups: p.groups, groupKind: p.groupKind } : {}),
    ...(plan.notes.length > 0 ? { notes: plan.notes } : {}),
  };
}

const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/**
 * The partition table `ccsim run --explain-partition` prints, as lines: the split for the
 * threads asked (not bounded by this machine's cores, so a table for a larger machine can
 * be read here), then what this machine would use and why.
 */
export function partitionTable(topo: Topology, plan: ThreadPlan): string[] {
  const p = partitionTopology(topo, plan.requested);
  const lines: string[] = [];
  lines.push(
    `${topo.name}: ${count(topo.hostCount, 'host')}, ${count(topo.nodes.length - topo.hostCount, 'switch', 'switches')}, ${count(topo.links.length, 'link')}; ` +
      `${count(p.groups, p.groupKind)}; ${count(plan.requested, 'thread')} asked (${plan.from}): ${count(p.count, 'partition')}`,
  );
  const head = ['partition', 'nodes', 'hosts', 'switches', 'links', 'ports', 'cross links'];
  const rows = p.rows.map((r, i) => [String(i), String(r.nodes), String(r.hosts), String(r.switches), String(r.links), String(r.ports), String(r.crossLinks)]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const fmt = (cells: readonly string[]): string => cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join('  ');
  lines.push(fmt(head));
  for (const r of rows) lines.push(fmt(r));
  const ports = p.rows.map((r) => r.ports);
  const mean = ports.reduce((a, x) => a + x, 0) / ports.length;
  lines.push(
    `cross-partition links: ${p.crossLinks}; lookahead (smallest cross-partition delay): ${Number.isFinite(p.lookaheadPs) ? formatTime(p.lookaheadPs) : 'none (one partition)'}; ` +
      `load balance (largest / mean ports): ${(Math.max(...ports) / mean).toFixed(2)}`,
  );
  lines.push(`this machine: ${count(plan.partitions, 'partition')}, ${count(plan.used, 'thread')} used`);
  for (const n of plan.notes) lines.push(`note: ${n}`);
  return lines;
}
