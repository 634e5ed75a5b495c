/**
 * Plain-data description of a network: what topology builders and file loaders
 * produce and what the simulator instantiates. Node ids are dense: hosts first
 * (0..H-1, so a host id is also its host index), then switches, which is the
 * numbering of the reference topology files.
 */

import type { RdcnFabric } from './rdcn.js';

export type NodeKind = 'host' | 'switch';

/** Layer labels used for per-layer counters (ACC Fig15 counts pauses by layer). */
export type Layer = 'host' | 'tor' | 'agg' | 'core' | 'leaf' | 'spine' | 'switch';

export interface TopoNode {
  id: number;
  kind: NodeKind;
  name: string;
  layer: Layer;
}

/** A full-duplex link; both directions have the same rate and delay. */
export interface TopoLink {
  a: number;
  b: number;
  rateBps: number;
  /** one-way propagation delay, ps */
  delayPs: number;
}

export interface Topology {
  name: string;
  nodes: TopoNode[];
  links: TopoLink[];
  /** number of hosts; hosts are nodes 0..hostCount-1 */
  hostCount: number;
  /** a reconfigurable fabric's circuit schedule (rdcn.ts; net/rdcn.ts runs it) */
  rdcn?: RdcnFabric;
}

/**
 * Port numbering: port k of node n is the k-th link (in `links` order) that has
 * n as an endpoint. `PortMap` gives, per node, the link index and the peer
 * (node, port) of each of its ports.
 */
export interface PortMap {
  /** portStart[n]..portStart[n+1]-1 index the flat arrays below for node n */
  portStart: Int32Array;
  /** link index of each (node, port) */
  link: Int32Array;
  /** peer node of each (node, port) */
  peerNode: Int32Array;
  /** port number at the peer */
  peerPort: Int32Array;
}

/**
 * Equal-cost next hops: for switch node n and destination host h, the egress
 * ports are `ports[start .. start+count-1]` with
 * `start = routeStart[(n - hostCount) * hostCount + h]` and
 * `count = routeCount[(n - hostCount) * hostCount + h]`.
 * Ports are listed in BFS discovery order (as HPCC's CalculateRoute).
 */
export interface RouteTable {
  hostCount: number;
  routeStart: Int32Array;
  routeCount: Uint16Array;
  ports: Int32Array;
}

/** Facts about one shortest path between two hosts (the first in BFS order). */
export interface PathInfo {
  /** number of links */
  hops: number;
  /** sum of one-way propagation delays, ps */
  delayPs: number;
  /** minimum link rate on the path, bps */
  minRateBps: number;
  /** link rates along the path from src to dst */
  rates: number[];
}
