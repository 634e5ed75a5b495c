/**
 * Port numbering, equal-cost shortest-path routes and per-pair path facts
 * (docs/network-model.md §11.6, §9). Paths are shortest by hop count and never
 * transit a host.
 */
import { SEC } from '../../engine/units.js';
import type { PathInfo, PortMap, RouteTable, Topology } from './types.js';
import { validateTopology } from './validate.js';

/**
 * Port k of node n is the k-th link (in `links` order) with n as an endpoint.
 * Validates the topology first (self-loops and bad endpoints throw).
 */
export function buildPortMap(topo: Topology): PortMap {
  validateTopology(topo);
  const n = topo.nodes.length;
  const degree = new Int32Array(n);
  for (const l of topo.links) {
    degree[l.a]!++;
    degree[l.b]!++;
  }
  const portStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) portStart[i + 1] = portStart[i]! + degree[i]!;
  const total = portStart[n]!;
  const link = new Int32Array(total);
  const peerNode = new Int32Array(total);
  const peerPort = new Int32Array(total);
  const next = new Int32Array(n); // next free local port per node
  for (let i = 0; i < topo.links.length; i++) {
    const { a, b } = topo.links[i]!;
    const pa = next[a]!++;
    const pb = next[b]!++;
    const fa = portStart[a]! + pa;
    const fb = portStart[b]! + pb;
    link[fa] = i;
    link[fb] = i;
    peerNode[fa] = b;
    peerNode[fb] = a;
    peerPort[fa] = pb;
    peerPort[fb] = pa;
  }
  return { portStart, link, peerNode, peerPort };
}

/** Number of ports of node n. */
export function portCount(ports: PortMap, node: number): number {
  return ports.portStart[node + 1]! - ports.portStart[node]!;
}

/** The most equal-cost next hops a switch may have toward one host (route counts are 16-bit). */
export const MAX_NEXT_HOPS = 0xffff;

/**
 * For every switch and destination host, all equal-cost next-hop ports.
 * BFS from each destination host h; a switch's next hops toward h are its
 * neighbours one hop closer to h, in the order those neighbours were dequeued
 * (then in port order), as HPCC's CalculateRoute lists them. Only switches and
 * h itself are expanded, so no path transits another host. Unreachable
 * (switch, host) pairs get count 0.
 */
export function computeRoutes(topo: Topology, ports: PortMap): RouteTable {
  const n = topo.nodes.length;
  const hosts = topo.hostCount;
  const switches = n - hosts;
  if (ports.portStart.length !== n + 1) {
    throw new Error(`computeRoutes: port map has ${ports.portStart.length - 1} nodes, topology "${topo.name}" has ${n}`);
  }
  const { portStart, peerNode, peerPort } = ports;
  const routeStart = new Int32Array(switches * hosts);
  const routeCount = new Uint16Array(switches * hosts);
  let out = new Int32Array(Math.max(16, switches * hosts * 2));
  let outLen = 0;

  const dist = new Int32Array(n);
  const queue = new Int32Array(n);
  // (switch, port) pairs recorded in discovery order during one BFS
  const recNode = new Int32Array(portStart[n]!);
  const recPort = new Int32Array(portStart[n]!);
  const cnt = new Int32Array(switches);
  const fill = new Int32Array(switches);

  for (let h = 0; h < hosts; h++) {
    dist.fill(-1);
    dist[h] = 0;
    queue[0] = h;
    let qHead = 0;
    let qTail = 1;
    let rec = 0;
    while (qHead < qTail) {
      const now = queue[qHead++]!;
      const d1 = dist[now]! + 1;
      for (let f = portStart[now]!, end = portStart[now + 1]!; f < end; f++) {
        const nb = peerNode[f]!;
        if (dist[nb] === -1) {
          dist[nb] = d1;
          if (nb >= hosts) queue[qTail++] = nb;
        }
        if (nb >= hosts && dist[nb] === d1) {
          recNode[rec] = nb;
          recPort[rec] = peerPort[f]!;
          rec++;
        }
      }
    }
    // group the records by switch, keeping their order
    cnt.fill(0);
    for (let i = 0; i < rec; i++) cnt[recNode[i]! - hosts]!++;
    if (outLen + rec > out.length) {
      const grown = new Int32Array(Math.max(out.length * 2, outLen + rec));
      grown.set(out.subarray(0, outLen));
      out = grown;
    }
    let off = outLen;
    for (let s = 0; s < switches; s++) {
      const c = cnt[s]!;
      if (c > MAX_NEXT_HOPS) throw new Error(`computeRoutes: switch ${s + hosts} has ${c} next hops toward host ${h} (max ${MAX_NEXT_HOPS})`);
      const idx = s * hosts + h;
      routeStart[idx] = off;
      routeCount[idx] = c;
      fill[s] = off;
      off += c;
    }
    for (let i = 0; i < rec; i++) {
      const s = recNode[i]! - hosts;
      out[fill[s]!++] = recPort[i]!;
    }
    outLen = off;
  }
  return { hostCount: hosts, routeStart, routeCount, ports: out.slice(0, outLen) };
}

/** The next-hop ports (a view) of switch `node` toward host `dst`; empty if unreachable. */
export function nextHopPorts(rt: RouteTable, node: number, dst: number): Int32Array {
  const idx = (node - rt.hostCount) * rt.hostCount + dst;
  const start = rt.routeStart[idx]!;
  return rt.ports.subarray(start, start + rt.routeCount[idx]!);
}

/** Serialization time in ps (rounded) of `bytes` at `rateBps`. */
function serPs(bytes: number, rateBps: number): number {
  return Math.round((bytes * 8 * SEC) / rateBps);
}

/**
 * Per-pair path facts for one deterministic shortest path: the BFS tree from
 * the source host, where each node keeps the first neighbour (in dequeue, then
 * port order) that reached it. Trees are cached per source.
 */
export class PathOracle {
  private readonly topo: Topology;
  private readonly ports: PortMap;
  private readonly cache = new Map<number, Int32Array>();
  private readonly cacheLimit: number;
  private readonly maxRttMemo = new Map<number, { rttPs: number; bdpBytes: number }>();

  constructor(topo: Topology, ports: PortMap) {
    if (ports.portStart.length !== topo.nodes.length + 1) {
      throw new Error(`PathOracle: port map has ${ports.portStart.length - 1} nodes, topology "${topo.name}" has ${topo.nodes.length}`);
    }
    this.topo = topo;
    this.ports = ports;
    this.cacheLimit = Math.max(16, Math.floor(32_000_000 / Math.max(1, topo.nodes.length)));
  }

  /** Facts about the chosen shortest path src → dst. Throws if either is not a host, if src = dst, or if there is no path. */
  info(src: number, dst: number): PathInfo {
    const links = this.pathLinks(src, dst);
    let delayPs = 0;
    let minRateBps = Infinity;
    const rates: number[] = [];
    for (const li of links) {
      const l = this.topo.links[li]!;
      delayPs += l.delayPs;
      if (l.rateBps < minRateBps) minRateBps = l.rateBps;
      rates.push(l.rateBps);
    }
    return { hops: links.length, delayPs, minRateBps, rates };
  }

  /** Node ids along the chosen path, src first, dst last. */
  nodes(src: number, dst: number): number[] {
    this.checkPair(src, dst);
    const parent = this.tree(src);
    if (parent[dst] === -1) throw new Error(`no path from host ${src} to host ${dst}`);
    const out: number[] = [dst];
    let v = dst;
    while (v !== src) {
      v = this.parentNode(parent, v);
      out.push(v);
    }
    return out.reverse();
  }

  /** Link indices along the chosen path, in src → dst order. */
  pathLinks(src: number, dst: number): number[] {
    this.checkPair(src, dst);
    const parent = this.tree(src);
    if (parent[dst] === -1) throw new Error(`no path from host ${src} to host ${dst}`);
    const out: number[] = [];
    let v = dst;
    while (v !== src) {
      out.push(this.ports.link[parent[v]!]!);
      v = this.parentNode(parent, v);
    }
    return out.reverse();
  }

  /** D-HPCC pairRtt (§1.5): 2·delay + Σ over path links of serBytes·8/rate, in ps. */
  pairRttPs(src: number, dst: number, serBytes: number): number {
    let rtt = 0;
    for (const li of this.pathLinks(src, dst)) {
      const l = this.topo.links[li]!;
      rtt += 2 * l.delayPs + serPs(serBytes, l.rateBps);
    }
    return rtt;
  }

  /**
   * D-HPCC global maxRtt (§1.5): max over connected host pairs of
   * 2·delay + Σ serBytes·8/rate (each term rounded to ps). serBytes = 1000 in
   * the references. Disconnected pairs are skipped; 0 if no pair is connected.
   */
  maxPairRttPs(serBytes: number): number {
    return this.maxima(serBytes).rttPs;
  }

  /** D-HPCC maxBdp (§1.5): max over connected pairs of floor(pairRtt · minRate / 8), bytes. */
  maxPairBdpBytes(serBytes: number): number {
    return this.maxima(serBytes).bdpBytes;
  }

  private maxima(serBytes: number): { rttPs: number; bdpBytes: number } {
    if (!(Number.isFinite(serBytes) && serBytes >= 0)) {
      throw new Error(`maxPairRttPs: serBytes must be a finite number ≥ 0, got ${serBytes}`);
    }
    const memo = this.maxRttMemo.get(serBytes);
    if (memo) return memo;
    const n = this.topo.nodes.length;
    const hosts = this.topo.hostCount;
    const rtt = new Float64Array(n);
    const minRate = new Float64Array(n);
    const order = new Int32Array(n);
    const parent = new Int32Array(n);
    let best = 0;
    let bestBdp = 0;
    for (let s = 0; s < hosts; s++) {
      const reached = this.bfs(s, parent, order);
      rtt[s] = 0;
      minRate[s] = Infinity;
      for (let i = 1; i < reached; i++) {
        const v = order[i]!;
        const u = this.parentNode(parent, v);
        const l = this.topo.links[this.ports.link[parent[v]!]!]!;
        rtt[v] = rtt[u]! + 2 * l.delayPs + serPs(serBytes, l.rateBps);
        minRate[v] = Math.min(minRate[u]!, l.rateBps);
        if (v < hosts) {
          if (rtt[v]! > best) best = rtt[v]!;
          const bdp = Math.floor((rtt[v]! * minRate[v]!) / 8 / SEC);
          if (bdp > bestBdp) bestBdp = bdp;
        }
      }
    }
    const res = { rttPs: best, bdpBytes: bestBdp };
    this.maxRttMemo.set(serBytes, res);
    return res;
  }

  private checkPair(src: number, dst: number): void {
    const h = this.topo.hostCount;
    for (const [what, v] of [
      ['src', src],
      ['dst', dst],
    ] as const) {
      if (!Number.isInteger(v) || v < 0 || v >= h) throw new Error(`path: ${what} ${v} is not a host id (0..${h - 1})`);
    }
    if (src === dst) throw new Error(`path: src and dst are the same host ${src}`);
  }

  /** The node that discovered v, given v's parent entry (flat port index at the parent). */
  private parentNode(parent: Int32Array, v: number): number {
    const f = parent[v]!;
    // f is a port of the parent whose peer is v; the reverse port of v points back at the parent
    return this.ports.peerNode[this.ports.portStart[v]! + this.ports.peerPort[f]!]!;
  }

  private tree(src: number): Int32Array {
    const hit = this.cache.get(src);
    if (hit) return hit;
    const parent = new Int32Array(this.topo.nodes.length);
    this.bfs(src, parent, new Int32Array(this.topo.nodes.length));
    if (this.cache.size >= this.cacheLimit) {
      const first = this.cache.keys().next();
      if (!first.done) this.cache.delete(first.value);
    }
    this.cache.set(src, parent);
    return parent;
  }

  /**
   * BFS from host src, expanding only src and switches. parent[v] = flat port
   * index (at the discovering node) of the first discovery, -1 if unreached,
   * -2 for src. order receives the reached nodes in discovery order; returns
   * how many.
   */
  private bfs(src: number, parent: Int32Array, order: Int32Array): number {
    const { portStart, peerNode } = this.ports;
    const hosts = this.topo.hostCount;
    parent.fill(-1);
    parent[src] = -2;
    order[0] = src;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const now = order[head++]!;
      if (now !== src && now < hosts) continue; // never transit a host
      for (let f = portStart[now]!, end = portStart[now + 1]!; f < end; f++) {
        const nb = peerNode[f]!;
        if (parent[nb] === -1) {
          parent[nb] = f;
          order[tail++] = nb;
        }
      }
    }
    return tail;
  }
}
