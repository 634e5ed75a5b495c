/**
 * The reconfigurable datacenter network of PowerTCP §5 (after reTCP): racks whose ToRs
 * are connected to one another through a circuit switch. ccsim models the circuit switch
 * by its circuits: a direct link between every pair of ToRs, which a `CircuitSchedule`
 * (net/link-changes.ts, docs/network-model.md §2.1) takes down and up per slot as the
 * switch rotates through its matchings. Routing is the topology's shortest paths, so
 * inter-rack traffic crosses exactly the circuit between its two ToRs and waits at that
 * ToR port while the circuit is down. The paper's low-rate packet-switched network beside
 * the circuits is not modelled (shortest-path routing would never use it).
 */
import type { TopoLink, TopoNode, Topology } from './types.js';
import { validateTopology } from './validate.js';

export interface TorMeshOptions {
  /** number of racks (ToRs), >= 2 */
  tors: number;
  hostsPerTor: number;
  /** host links */
  hostRateBps: number;
  /** ToR-to-ToR circuit links; default hostRateBps */
  circuitRateBps?: number;
  /** one-way delay of the host links, and of the circuits unless circuitDelayPs */
  delayPs: number;
  circuitDelayPs?: number;
  name?: string;
}


/**
 * Hosts 0..T·H-1 (rack t holds hosts t·H..t·H+H-1), then ToRs T·H..T·H+T-1 (layer
 * 'tor'). Links: every host to its ToR, then one circuit per ToR pair (i < j, in
 * lexicographic order), so ToR t's ports are its hosts, then its circuits in peer order.
 */
export function torMesh(o: TorMeshOptions): Topology {
  for (const k of ['tors', 'hostsPerTor'] as const) {
    if (!Number.isInteger(o[k]) || o[k] < 1) throw new Error(`torMesh.${k}: must be an integer >= 1, got ${String(o[k])}`);
  }
  if (o.tors < 2) throw new Error(`torMesh.tors: must be >= 2 (a circuit joins two racks), got ${o.tors}`);
  const hosts = o.tors * o.hostsPerTor;
  const nodes: TopoNode[] = [];
  for (let h = 0; h < hosts; h++) nodes.push({ id: h, kind: 'host', name: `h${h}`, layer: 'host' });
  for (let t = 0; t < o.tors; t++) nodes.push({ id: hosts + t, kind: 'switch', name: `tor${hosts + t}`, layer: 'tor' });
  const links: TopoLink[] = [];
  for (let h = 0; h < hosts; h++) links.push({ a: h, b: hosts + Math.floor(h / o.hostsPerTor), rateBps: o.hostRateBps, delayPs: o.delayPs });
  const rate = o.circuitRateBps ?? o.hostRateBps;
  const delay = o.circuitDelayPs ?? o.delayPs;
  for (let i = 0; i < o.tors; i++) for (let j = i + 1; j < o.tors; j++) links.push({ a: hosts + i, b: hosts + j, rateBps: rate, delayPs: delay });
  const topo: Topology = { name: o.name ?? `torMesh${o.tors}x${o.hostsPerTor}`, nodes, links, hostCount: hosts };
  validateTopology(topo);
  return topo;
}

/** The round-robin matchings of `tors` ToRs (node ids `first`..`first+tors-1`): tors-1 matchings (tors even) or tors (odd), every pair once (the circle method). */
export function roundRobinMatchings(first: number, tors: number): [number, number][][] {
  const n = tors % 2 === 0 ? tors : tors + 1;
  const out: [number, number][][] = [];
  for (let r = 0; r < n - 1; r++) {
    const m: [number, number][] = [];
    for (let k = 0; k < n / 2; k++) {
      const a = k === 0 ? n - 1 : (r + k) % (n - 1);
      const b = (r - k + n - 1) % (n - 1);
      if (a < tors && b < tors) m.push([first + Math.min(a, b), first + Math.max(a, b)]);
    }
    out.push(m);
  }
  return out;
}
