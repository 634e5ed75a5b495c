/**
 * Splits a topology into partitions for a parallel run (issue 31; docs/architecture.md,
 * "Parallel runs: partitions and synchronisation"). Plain data in, plain data out: the
 * partitioner never looks at a running network.
 *
 * The split keeps whole groups of nodes together and cuts only links of the top layer:
 * - every host stays with its first-hop switch (a host link is never cut: it is usually
 *   the shortest link and would shrink the lookahead to nothing);
 * - the hop distance from the nearest host gives each switch a level (ToR or leaf 1,
 *   aggregation 2, core 3); the switches of the top level are taken out, and what stays
 *   connected is a group: a pod of a fat tree, a leaf with its hosts in a leaf-spine;
 * - when every switch is on level 1 (a dumbbell, a parking lot, a star), each switch
 *   with its hosts is a group;
 * - groups go to partitions largest first, each to the partition with the fewest ports
 *   so far (then the fewest hosts, then the lowest index), the classic longest-first
 *   rule for balancing; the switches left out follow one at a time, each to the
 *   partition it has the most links into unless that takes it 5 % past the mean load
 *   (an aggregation switch joins its pod's ToRs), else to the lightest;
 * - when that gives fewer partitions than asked, or leaves one 5 % above the mean, the
 *   cut moves one level down (ToR groups instead of pods) if that does better.
 * A port stands for the work: each port carries a transmission-done and an arrival
 * event per packet it sends. Everything is ordered by node id, so the same topology and
 * count always give the same split.
 *
 * The lookahead of a split is the smallest propagation delay of a link between two
 * partitions: a packet sent across one at time t arrives no earlier than t + that
 * delay, so partitions that synchronise at least that often never receive a packet in
 * their past.
 */
import type { Topology } from './types.js';

/** One row of the partition table. */
export interface PartitionRow {
  nodes: number;
  hosts: number;
  switches: number;
  /** links with both ends in the partition */
  links: number;
  /** ports of the partition's nodes (the load measure) */
  ports: number;
  /** links from this partition to another */
  crossLinks: number;
}

export interface Partitioning {
  /** partitions asked for */
  requested: number;
  /** partitions made (<= requested; 1 when the topology cannot be split) */
  count: number;
  /** partition of each node, by node id */
  of: Int32Array;
  rows: PartitionRow[];
  /** links whose ends are in different partitions */
  crossLinks: number;
  /** smallest delay of a cross-partition link, ps (Infinity without cross links) */
  lookaheadPs: number;
  /** what a group is in this topology ("pod", "leaf group", "switch group") */
  groupKind: string;
  /** number of groups the topology has (the most partitions it can give) */
  groups: number;
  /** why fewer partitions than asked were made, if so */
  notes: string[];
}

/** The hop distance of every node from its nearest host (hosts 0). */
function levels(topo: Topology, adj: readonly number[][]): Int32Array {
  const lv = new Int32Array(topo.nodes.length).fill(-1);
  const queue: number[] = [];
  for (let h = 0; h < topo.hostCount; h++) {
    lv[h] = 0;
    queue.push(h);
  }
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]!;
    for (const m of adj[n]!) {
      if (lv[m] === -1) {
        lv[m] = lv[n]! + 1;
        queue.push(m);
      }
    }
  }
  return lv;
}

/** Splits `topo` into at most `requested` partitions (see the module comment). */
export function partitionTopology(topo: Topology, requested: number): Partitioning {
  if (!Number.isInteger(requested) || requested < 1) throw new Error(`partitionTopology: requested must be a positive integer, got ${requested}`);
  const N = topo.nodes.length;
  const adj: number[][] = [];
  for (let n = 0; n < N; n++) adj.push([]);
  const ports = new Int32Array(N);
  for (const l of topo.links) {
    adj[l.a]!.push(l.b);
    adj[l.b]!.push(l.a);
    ports[l.a]!++;
    ports[l.b]!++;
  }
  const lv = levels(topo, adj);
  let top = 0;
  for (let n = topo.hostCount; n < N; n++) if (lv[n]! > top) top = lv[n]!;
  // cut at the top level first; when that gives fewer partitions than asked (5 pods for 8)
  // or leaves them unbalanced (5 pods in 4), one level lower (ToR groups) if that does better
  let best = split(topo, adj, ports, lv, top, requested, top);
  for (let cut = top - 1; cut >= 2 && (best.count < requested || imbalance(best) > BALANCED); cut--) {
    const p = split(topo, adj, ports, lv, top, requested, cut);
    if (p.count > best.count || (p.count === best.count && imbalance(p) < imbalance(best))) best = p;
  }
  if (best.count > 1 && !(best.lookaheadPs > 0)) {
    const one = split(topo, adj, ports, lv, top, 1, top);
    return { ...one, requested, notes: [...best.notes, 'a link between partitions has no propagation delay (no lookahead), so one partition'] };
  }
  return best;
}

/** Largest over mean ports of a partition (1: perfect). */
function imbalance(p: Partitioning): number {
  const ports = p.rows.map((r) => r.ports);
  return Math.max(...ports) / (ports.reduce((a, x) => a + x, 0) / ports.length);
}

/** A split is balanced enough when no partition has 5 % more ports than the mean. */
const BALANCED = 1.05;

/** The split with groups cut at level `cut` (switches at `cut` and above are placed one by one). */
function split(topo: Topology, adj: readonly number[][], ports: Int32Array, lv: Int32Array, top: number, requested: number, cut: number): Partitioning {
  const N = topo.nodes.length;
  // the nodes left out of the groups: switches at the cut level or above (none when every switch is a first hop)
  const isTop = (n: number): boolean => cut >= 2 && n >= topo.hostCount && lv[n]! >= cut;
  // groups: connected components without them; with every switch on level 1, without switch-switch links
  const group = new Int32Array(N).fill(-1);
  const groups: number[][] = [];
  for (let s = 0; s < N; s++) {
    if (group[s] !== -1 || isTop(s) || lv[s] === -1) continue;
    const g = groups.length;
    const members = [s];
    group[s] = g;
    for (let i = 0; i < members.length; i++) {
      const n = members[i]!;
      for (const m of adj[n]!) {
        if (group[m] !== -1 || isTop(m)) continue;
        if (cut < 2 && n >= topo.hostCount && m >= topo.hostCount) continue;
        group[m] = g;
        members.push(m);
      }
    }
    members.sort((a, b) => a - b);
    groups.push(members);
  }
  let firstHop = 'switch';
  for (let n = topo.hostCount; n < N; n++) {
    if (lv[n] === 1) {
      firstHop = topo.nodes[n]!.layer === 'switch' ? 'switch' : topo.nodes[n]!.layer === 'tor' ? 'ToR' : topo.nodes[n]!.layer;
      break;
    }
  }
  const groupKind = cut >= 3 && cut === top ? 'pod' : `${firstHop} group`;
  const notes: string[] = [];
  let count = Math.min(requested, groups.length);
  if (requested > groups.length) {
    notes.push(`the topology splits into ${groups.length} ${groupKind}${groups.length === 1 ? '' : 's'} (a host stays with its first switch), so at most ${groups.length} partition${groups.length === 1 ? '' : 's'}`);
  }
  if (count < 1) count = 1;
  const of = new Int32Array(N).fill(-1);
  const load = new Float64Array(count);
  const hostsIn = new Int32Array(count);
  const lightest = (): number => {
    let best = 0;
    for (let p = 1; p < count; p++) {
      if (load[p]! < load[best]! || (load[p] === load[best] && hostsIn[p]! < hostsIn[best]!)) best = p;
    }
    return best;
  };
  const weight = (members: readonly number[]): number => members.reduce((a, n) => a + ports[n]!, 0);
  const place = (members: readonly number[], p: number, w: number): void => {
    for (const n of members) {
      of[n] = p;
      if (n < topo.hostCount) hostsIn[p]!++;
    }
    load[p]! += w;
  };
  // largest first, each to the lightest partition: equal groups (a regular tree's ToRs) are
  // dealt out in turn, which measured fewer cross-partition packets than contiguous runs of
  // ToRs (on (b)'s tree: 11.9 % of events cross against 13.1 % on 2 partitions; docs/performance.md)
  const order = groups.map((m, i) => ({ i, w: weight(m), first: m[0]! }));
  order.sort((x, y) => y.w - x.w || x.first - y.first);
  for (const { i, w } of order) place(groups[i]!, lightest(), w);
  // the switches left out of the groups (and any node no host reaches), one at a time in id
  // order: to the partition it has the most links into, unless that would take it 5 % past
  // the mean load; then to the lightest
  let total = 0;
  for (let n = 0; n < N; n++) total += ports[n]!;
  const links = new Int32Array(count);
  for (let n = 0; n < N; n++) {
    if (group[n] !== -1) continue;
    links.fill(0);
    for (const m of adj[n]!) if (group[m] !== -1 || of[m] !== -1) links[of[m]!]!++;
    let p = lightest();
    for (let q = 0; q < count; q++) if (links[q]! > links[p]! && load[q]! + ports[n]! <= (BALANCED * total) / count) p = q;
    of[n] = p;
    load[p]! += ports[n]!;
  }

  const rows: PartitionRow[] = [];
  for (let p = 0; p < count; p++) rows.push({ nodes: 0, hosts: 0, switches: 0, links: 0, ports: 0, crossLinks: 0 });
  for (let n = 0; n < N; n++) {
    const r = rows[of[n]!]!;
    r.nodes++;
    if (n < topo.hostCount) r.hosts++;
    else r.switches++;
    r.ports += ports[n]!;
  }
  let cross = 0;
  let lookaheadPs = Infinity;
  for (const l of topo.links) {
    const pa = of[l.a]!;
    const pb = of[l.b]!;
    if (pa === pb) {
      rows[pa]!.links++;
      continue;
    }
    cross++;
    rows[pa]!.crossLinks++;
    rows[pb]!.crossLinks++;
    if (l.delayPs < lookaheadPs) lookaheadPs = l.delayPs;
  }
  return { requested, count, of, rows, crossLinks: cross, lookaheadPs, groupKind, groups: groups.length, notes };
}

/**
 * The window of held links (NetContext.holdGridPs, docs/architecture.md, "Parallel runs"): the
 * shortest propagation delay of a link between two switches, or 0 (nothing held) without one.
 * It is at most every cut's lookahead, for any number of partitions (a host is never cut from
 * its switch), and a run until every flow finishes ends with the window of its last finish: a
 * property of the topology alone, so one thread and many end a run at the same instant.
 */
export function holdGridPs(topo: Topology): number {
  let g = Infinity;
  for (const l of topo.links) if (l.a >= topo.hostCount && l.b >= topo.hostCount && l.delayPs > 0 && l.delayPs < g) g = l.delayPs;
  return g === Infinity ? 0 : g;
}
