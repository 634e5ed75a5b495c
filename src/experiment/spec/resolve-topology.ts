/**
 * The spec's topology built (docs/network-model.md §2) by its type's definition
 * (net/topology/kinds.ts), size limits checked before building, and `TopoIndex`,
 * the built topology's facts that the cross-field checks use (spec node and
 * host ids, peers, host link rates, racks).
 */
import { topologyRegistry, type BuiltTopology, type TopologyContext, type TopologySize, type Topology } from '../../net/topology/index.js';
import { racksOf, type Racks } from '../../workload/powertcp.js';
import type { PathSegment } from '../../engine/errors.js';
import type { Issues } from './issues.js';
import type { SpecLimits, TopologySpec } from './spec.js';

export type { BuiltTopology };

function checkTopologySize(size: TopologySize, limits: SpecLimits, issues: Issues): void {
  if (size.hosts > limits.hosts) {
    issues.addNoValue(['topology'], `would have ${fmtCount(size.hosts)} hosts, above the limit of ${limits.hosts.toLocaleString('en-US')} (raise limits.hosts to allow it)`);
  }
  if (size.links > limits.links) {
    issues.addNoValue(['topology'], `would have up to ${fmtCount(size.links)} links, above the limit of ${limits.links.toLocaleString('en-US')} (raise limits.links to allow it)`);
  }
  issues.throwIfAny();
}

export function fmtCount(n: number): string {
  return n >= 1e6 ? n.toExponential(2).replace('e+', 'e') : Math.round(n).toLocaleString('en-US');
}

/**
 * Builds the spec's topology with its type's definition (net/topology/kinds.ts): its size
 * estimate checked against the limits first, its problems reported at `topology.<field>`,
 * and the built topology's size checked too (a type without an estimate, a file).
 */
export function buildTopology(t: TopologySpec, specDir: string, limits: SpecLimits, issues: Issues): BuiltTopology {
  const at: PathSegment[] = ['topology'];
  const def = issues.guard([...at, 'type'], () => topologyRegistry.get(t.type));
  const size = def.estimate?.(t);
  if (size !== undefined) checkTopologySize(size, limits, issues);
  const ctx: TopologyContext = {
    specDir,
    limits,
    error: (path, message, value) => issues.add([...at, ...path], message, value),
    guard: (path, fn) => issues.guard([...at, ...path], fn),
    throwIfAny: () => issues.throwIfAny(),
    checkSize: (s) => checkTopologySize(s, limits, issues),
  };
  const built = issues.guard(at, () => def.build(t, ctx));
  const out: BuiltTopology = 'nodes' in built ? { topology: built } : built;
  if (size === undefined) checkTopologySize({ hosts: out.topology.hostCount, links: out.topology.links.length }, limits, issues);
  return out;
}

/** Facts about the built topology used by the cross-field checks. */
export class TopoIndex {
  readonly hostCount: number;
  readonly nodeCount: number;
  /** per node, peers in port order */
  readonly peers: number[][];
  /** per host, its (first) link rate */
  readonly hostRate: number[];

  constructor(
    readonly topo: Topology,
    private readonly newIds: number[] | undefined,
  ) {
    this.hostCount = topo.hostCount;
    this.nodeCount = topo.nodes.length;
    this.peers = Array.from({ length: this.nodeCount }, () => []);
    this.hostRate = new Array<number>(this.hostCount).fill(0);
    for (const l of topo.links) {
      this.peers[l.a]!.push(l.b);
      this.peers[l.b]!.push(l.a);
      if (l.a < this.hostCount && this.hostRate[l.a] === 0) this.hostRate[l.a] = l.rateBps;
      if (l.b < this.hostCount && this.hostRate[l.b] === 0) this.hostRate[l.b] = l.rateBps;
    }
  }

  /** Topology node id of a spec node id, or undefined if there is no such node. */
  node(id: number): number | undefined {
    const n = this.newIds === undefined ? id : this.newIds[id];
    return n !== undefined && n >= 0 && n < this.nodeCount ? n : undefined;
  }

  /** Topology host id of a spec host id, or undefined if it is not a host. */
  host(id: number): number | undefined {
    const n = this.node(id);
    return n !== undefined && n < this.hostCount ? n : undefined;
  }

  hostRangeText(): string {
    return this.newIds === undefined ? `hosts are 0..${this.hostCount - 1}` : `the file has ${this.hostCount} hosts`;
  }

  nodeRangeText(): string {
    return this.newIds === undefined ? `nodes are 0..${this.nodeCount - 1}` : `the file has ${this.nodeCount} nodes`;
  }

  private racksCache: Racks | undefined;
  /** hosts grouped by ToR (PowerTCP generators), computed once */
  racks(): Racks {
    return (this.racksCache ??= racksOf(this.topo));
  }

  allHosts(): number[] {
    return Array.from({ length: this.hostCount }, (_, i) => i);
  }
}

/** Maps a list of spec host ids, adding an issue for each that is not a host. */
export function mapHosts(ids: readonly number[], path: readonly PathSegment[], ti: TopoIndex, issues: Issues): number[] {
  const out: number[] = [];
  ids.forEach((id, i) => {
    const h = ti.host(id);
    if (h === undefined) issues.add([...path, i], `not a host (${ti.hostRangeText()})`, id);
    else out.push(h);
  });
  return out;
}

export function mapHostSelection(sel: 'all' | readonly number[], path: readonly PathSegment[], ti: TopoIndex, issues: Issues): number[] {
  if (sel === 'all') return ti.allHosts();
  const hosts = mapHosts(sel, path, ti, issues);
  const seen = new Set<number>();
  sel.forEach((id, i) => {
    if (seen.has(id)) issues.add([...path, i], 'listed twice', id);
    seen.add(id);
  });
  return hosts;
}

export function mapHost(id: number, path: readonly PathSegment[], ti: TopoIndex, issues: Issues): number {
  const h = ti.host(id);
  if (h === undefined) {
    issues.add(path, `not a host (${ti.hostRangeText()})`, id);
    return -1;
  }
  return h;
}
