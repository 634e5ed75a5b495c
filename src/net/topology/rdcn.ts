/**
 * The reconfigurable datacenter of PowerTCP §5 (after reTCP, Mukerjee et al. NSDI'20):
 * racks whose ToRs reach one another through two networks side by side,
 * - a packet-switched network: every ToR has one link to a packet switch;
 * - one optical circuit switch that connects each ToR's circuit port to one other ToR's,
 *   cycling through a list of matchings (permutations): each slot is a night (every
 *   circuit dark, the switch reconfiguring) then a day with the slot's matching up.
 * ccsim models the circuit switch by its circuits: one link between every two ToRs, each
 * direction of which is up only during the days whose matching sends the one ToR to the
 * other (net/rdcn.ts runs the schedule). Routing is shortest-path, so inter-rack traffic
 * is routed to the circuit link to its destination ToR: that link's egress queue is the
 * ToR's per-destination VOQ, drained by the circuit while it is up and by the packet
 * network otherwise (docs/network-model.md §2.2).
 *
 * Unlike `torMesh` (circuit.ts), whose circuits are undirected pairs and whose traffic
 * waits for its circuit, here a matching is a permutation of ToRs (directed circuits), the
 * packet network carries what the circuits do not, and the schedule is part of the
 * topology (`Topology.rdcn`).
 */
import type { Topology, TopoLink, TopoNode } from './types.js';
import { rotationMatchings } from '../../engine/rotation.js';
import { validateTopology } from './validate.js';

/** The circuit schedule of a reconfigurable topology, in ToR indices (0..tors-1). Times in ps. */
export interface RdcnSchedule {
  /** circuits up (the matching holds), > 0 */
  dayPs: number;
  /** circuits dark between two days (the switch reconfigures), > 0 */
  nightPs: number;
  /** matchings[k][i]: the ToR that ToR i's circuit reaches in slot k (mod the count); i itself = no circuit for i */
  matchings: number[][];
  /** first slot's start (its night); every circuit is dark before */
  startPs: number;
}

/** What the network needs to run the fabric: the nodes and the schedule (net/rdcn.ts). */
export interface RdcnFabric extends RdcnSchedule {
  /** node id of ToR index i */
  tors: number[];
  /** node id of the packet switch */
  packetSwitch: number;
}

export interface RdcnOptions {
  /** number of racks (ToRs), >= 2 */
  tors: number;
  hostsPerTor: number;
  /** server links */
  hostRateBps: number;
  /** ToR to packet switch links */
  packetRateBps: number;
  /** ToR to ToR circuits */
  circuitRateBps: number;
  /** one-way delay of the server links */
  delayPs: number;
  /** default delayPs */
  packetDelayPs?: number;
  /** default delayPs */
  circuitDelayPs?: number;
  /** default: the round-robin generator (`rotationMatchings`) */
  matchings?: number[][];
  dayPs: number;
  nightPs: number;
  startPs?: number;
  name?: string;
}


// the generator is plain arithmetic in engine/ so that the analyses of result files can use it without network code
export { rotationMatchings } from '../../engine/rotation.js';

/**
 * The first problem with a schedule, as [path below the schedule, message], or null.
 * Paths: ['matchings', k, i] for a ToR out of range or named twice (not a permutation),
 * ['dayPs'] / ['nightPs'] for a length <= 0.
 */
export function rdcnScheduleProblem(tors: number, s: { dayPs: number; nightPs: number; matchings: number[][] }): [(string | number)[], string] | null {
  if (!(s.dayPs > 0)) return [['dayPs'], `must be > 0 (a day with the circuits up), got ${s.dayPs}`];
  if (!(s.nightPs > 0)) return [['nightPs'], `must be > 0 (the circuit switch takes time to reconfigure), got ${s.nightPs}`];
  if (s.matchings.length === 0) return [['matchings'], 'needs at least one matching'];
  for (let k = 0; k < s.matchings.length; k++) {
    const m = s.matchings[k]!;
    if (m.length !== tors) return [['matchings', k], `must name the peer of each of the ${tors} ToRs (a permutation of 0..${tors - 1}), has ${m.length} entries`];
    const seen = new Int32Array(tors).fill(-1);
    for (let i = 0; i < tors; i++) {
      const j = m[i]!;
      if (!Number.isInteger(j) || j < 0 || j >= tors) return [['matchings', k, i], `ToR ${String(j)} is out of range (ToRs are 0..${tors - 1})`];
      if (seen[j] !== -1) return [['matchings', k, i], `ToR ${j} is reached again (from ToR ${seen[j]} too): a matching is a permutation, each ToR receives one circuit`];
      seen[j] = i;
    }
  }
  return null;
}

/**
 * Hosts 0..T·H-1 (rack t holds t·H..t·H+H-1), ToRs T·H..T·H+T-1 (layer 'tor'), the packet
 * switch T·H+T (layer 'core'). Links: every host to its ToR, every ToR to the packet
 * switch, then one circuit per ToR pair (i < j, lexicographic): ToR t's ports are its
 * hosts, its packet-network port, then its circuits in peer order.
 */
export function rdcn(o: RdcnOptions): Topology {
  for (const k of ['tors', 'hostsPerTor'] as const) {
    if (!Number.isInteger(o[k]) || o[k] < 1) throw new Error(`rdcn.${k}: must be an integer >= 1, got ${String(o[k])}`);
  }
  if (o.tors < 2) throw new Error(`rdcn.tors: must be >= 2 (a circuit joins two racks), got ${o.tors}`);
  const matchings = o.matchings ?? rotationMatchings(o.tors);
  const bad = rdcnScheduleProblem(o.tors, { dayPs: o.dayPs, nightPs: o.nightPs, matchings });
  if (bad !== null) throw new Error(`rdcn.${bad[0].map((p) => (typeof p === 'number' ? `[${p}]` : p)).join('.').replace(/\.\[/g, '[')}: ${bad[1]}`);
  const T = o.tors;
  const hosts = T * o.hostsPerTor;
  const nodes: TopoNode[] = [];
  for (let h = 0; h < hosts; h++) nodes.push({ id: h, kind: 'host', name: `h${h}`, layer: 'host' });
  for (let t = 0; t < T; t++) nodes.push({ id: hosts + t, kind: 'switch', name: `tor${hosts + t}`, layer: 'tor' });
  const ps = hosts + T;
  nodes.push({ id: ps, kind: 'switch', name: `pkt${ps}`, layer: 'core' });
  const links: TopoLink[] = [];
  for (let h = 0; h < hosts; h++) links.push({ a: h, b: hosts + Math.floor(h / o.hostsPerTor), rateBps: o.hostRateBps, delayPs: o.delayPs });
  for (let t = 0; t < T; t++) links.push({ a: hosts + t, b: ps, rateBps: o.packetRateBps, delayPs: o.packetDelayPs ?? o.delayPs });
  const cd = o.circuitDelayPs ?? o.delayPs;
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) links.push({ a: hosts + i, b: hosts + j, rateBps: o.circuitRateBps, delayPs: cd });
  const rdcnFabric: RdcnFabric = {
    tors: Array.from({ length: T }, (_, t) => hosts + t),
    packetSwitch: ps,
    dayPs: o.dayPs,
    nightPs: o.nightPs,
    matchings,
    startPs: o.startPs ?? 0,
  };
  const topo: Topology = { name: o.name ?? `rdcn${T}x${o.hostsPerTor}`, nodes, links, hostCount: hosts, rdcn: rdcnFabric };
  validateTopology(topo);
  return topo;
}
