/**
 * The spec's topology built (docs/network-model.md §2): builder options from
 * the spec's fields, size limits checked before building, and `TopoIndex`,
 * the built topology's facts that the cross-field checks use (spec node and
 * host ids, peers, host link rates, racks).
 */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import {
  accCbd,
  accTree,
  dumbbell,
  fatTree,
  fatTreePreset,
  fatTreePresetOptions,
  spineLeafPresetOptions,
  type AccCbdOptions,
  type AccTreeOptions,
  type DumbbellOptions,
  type ParkingLotOptions,
  type StarOptions,
  loadTopologyFile,
  parkingLot,
  spineLeaf,
  spineLeafPreset,
  star,
  topologyPreset,
  torMesh,
  rdcn,
  rotationMatchings,
  type FatTreeOptions,
  type FatTreePresetName,
  type OscarLinkConfig,
  type SpineLeafOptions,
  type SpineLeafPresetName,
  type TorMeshOptions,
  type Topology,
  type TopologyFileFormat,
} from '../../net/topology/index.js';
import { racksOf, type Racks } from '../../workload/powertcp.js';
import { topologyFileProblems } from './check-topology-file.js';
import { errorMessage, type PathSegment } from '../../engine/errors.js';
import type { Issues } from './issues.js';
import type { SpecLimits, TopologySpec } from './spec.js';

/** A built topology plus the translation of spec node ids (a file's own ids) to topology ids. */
export interface BuiltTopology {
  topology: Topology;
  /** spec id → topology id; undefined = identity */
  newIds?: number[];
}

/**
 * Spec topology field → builder option. The builders name unit-bearing options
 * by their unit (rateBps, delayPs); everything else has the same name, so the
 * translation is this table, not a copy per field.
 */
const BUILDER_KEY: Readonly<Record<string, string>> = {
  rate: 'rateBps',
  hostRate: 'hostRateBps',
  bottleneckRate: 'bottleneckRateBps',
  fabricRate: 'fabricRateBps',
  aggCoreRate: 'aggCoreRateBps',
  delay: 'delayPs',
  hostDelay: 'hostDelayPs',
  edgeAggDelay: 'edgeAggDelayPs',
  aggCoreDelay: 'aggCoreDelayPs',
  circuitRate: 'circuitRateBps',
  circuitDelay: 'circuitDelayPs',
};

/** The builder options of a validated spec topology (without `type` and `preset`). */
function builderOptions(t: TopologySpec): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t)) {
    if (v === undefined || k === 'type' || k === 'preset') continue;
    o[BUILDER_KEY[k] ?? k] = v;
  }
  if (t.type === 'fatTree' && t.delay !== undefined) {
    // `delay` sets all three tiers; a per-tier delay overrides it
    delete o['delayPs'];
    o['hostDelayPs'] = t.hostDelay ?? t.delay;
    o['edgeAggDelayPs'] = t.edgeAggDelay ?? t.delay;
    o['aggCoreDelayPs'] = t.aggCoreDelay ?? t.delay;
  }
  if (t.type === 'dumbbell') o['bottleneckRateBps'] ??= t.hostRate;
  return o;
}

/** Hosts and links a builder topology will have (an upper bound for links), computed before building it. */
function estimateTopology(t: TopologySpec): { hosts: number; links: number } | undefined {
  switch (t.type) {
    case 'star':
      return { hosts: t.hosts, links: t.hosts };
    case 'dumbbell':
      return { hosts: t.left + t.right, links: t.left + t.right + 1 };
    case 'parkingLot':
      return { hosts: t.switches * t.hostsPerSwitch, links: t.switches * t.hostsPerSwitch + t.switches };
    case 'fatTree': {
      const o = { ...(t.preset !== undefined ? fatTreePresetOptions(t.preset as FatTreePresetName) : {}), ...builderOptions(t) } as Partial<FatTreeOptions>;
      const [pods, epp, app, hpe, cores] = [o.pods ?? 1, o.edgesPerPod ?? 1, o.aggsPerPod ?? 1, o.hostsPerEdge ?? 1, o.cores ?? 1];
      const hosts = pods * epp * hpe;
      return { hosts, links: hosts + pods * epp * app + pods * app * cores };
    }
    case 'spineLeaf': {
      const o = { ...(t.preset !== undefined ? spineLeafPresetOptions(t.preset as SpineLeafPresetName) : {}), ...builderOptions(t) } as Partial<SpineLeafOptions>;
      const hosts = (o.leaves ?? 1) * (o.hostsPerLeaf ?? 1);
      return { hosts, links: hosts + (o.leaves ?? 1) * (o.spines ?? 1) };
    }
    case 'accCbd':
      return { hosts: 4 * t.hostsPerTor, links: 4 * t.hostsPerTor + 16 };
    case 'accTree':
      return { hosts: t.burstHosts + 16, links: t.burstHosts + 64 };
    case 'torMesh':
      return { hosts: t.tors * t.hostsPerTor, links: t.tors * t.hostsPerTor + (t.tors * (t.tors - 1)) / 2 };
    case 'rdcn':
      return { hosts: t.tors * t.hostsPerTor, links: t.tors * t.hostsPerTor + t.tors + (t.tors * (t.tors - 1)) / 2 };
    default:
      return undefined; // presets are small; files are size-capped and checked once built
  }
}

function checkTopologySize(size: { hosts: number; links: number }, limits: SpecLimits, issues: Issues): void {
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

export function buildTopology(t: TopologySpec, specDir: string, limits: SpecLimits, issues: Issues): BuiltTopology {
  const at: PathSegment[] = ['topology'];
  const size = estimateTopology(t);
  if (size !== undefined) checkTopologySize(size, limits, issues);
  const o = builderOptions(t);
  switch (t.type) {
    case 'star':
      return { topology: issues.guard(at, () => star(o as unknown as StarOptions)) };
    case 'dumbbell':
      return { topology: issues.guard(at, () => dumbbell(o as unknown as DumbbellOptions)) };
    case 'parkingLot':
      return { topology: issues.guard(at, () => parkingLot(o as unknown as ParkingLotOptions)) };
    case 'fatTree': {
      if (t.preset !== undefined) return { topology: issues.guard(at, () => fatTreePreset(t.preset as FatTreePresetName, o as Partial<FatTreeOptions>)) };
      return { topology: issues.guard(at, () => fatTree({ coreWiring: 'strided', ...o } as unknown as FatTreeOptions)) };
    }
    case 'spineLeaf': {
      if (t.preset !== undefined) return { topology: issues.guard(at, () => spineLeafPreset(t.preset as SpineLeafPresetName, o as Partial<SpineLeafOptions>)) };
      return { topology: issues.guard(at, () => spineLeaf(o as unknown as SpineLeafOptions)) };
    }
    case 'accCbd': {
      // a builder complaint about failedLinks[i] is reported at topology.failedLinks[i]
      const m = (msg: string): PathSegment[] => {
        const r = /^accCbd\.failedLinks(?:\[(\d+)\])?/.exec(msg);
        return r === null ? at : r[1] !== undefined ? [...at, 'failedLinks', Number(r[1])] : [...at, 'failedLinks'];
      };
      try {
        return { topology: accCbd(o as unknown as AccCbdOptions) };
      } catch (e) {
        const msg = errorMessage(e);
        issues.add(m(msg), msg.replace(/^accCbd\.failedLinks(\[\d+\])?: /, ''));
        return issues.fail();
      }
    }
    case 'accTree':
      return { topology: issues.guard(at, () => accTree(o as unknown as AccTreeOptions)) };
    case 'torMesh':
      return { topology: issues.guard(at, () => torMesh(o as unknown as TorMeshOptions)) };
    case 'rdcn': {
      const c = t.circuits;
      const options = {
        tors: t.tors,
        hostsPerTor: t.hostsPerTor,
        hostRateBps: t.hostRate,
        packetRateBps: t.packetRate,
        circuitRateBps: t.circuitRate,
        delayPs: t.delay,
        ...(t.packetDelay !== undefined ? { packetDelayPs: t.packetDelay } : {}),
        ...(t.circuitDelay !== undefined ? { circuitDelayPs: t.circuitDelay } : {}),
        matchings: c.matchings === 'roundRobin' ? rotationMatchings(t.tors) : c.matchings,
        dayPs: c.day,
        nightPs: c.night,
        startPs: c.start,
        ...(t.name !== undefined ? { name: t.name } : {}),
      };
      return { topology: issues.guard(at, () => rdcn(options)) };
    }
    case 'preset':
      return { topology: issues.guard([...at, 'preset'], () => topologyPreset(t.preset)) };
    case 'file': {
      const path = isAbsolute(t.path) ? t.path : resolvePath(specDir, t.path);
      let linkConfig: OscarLinkConfig | undefined;
      if (t.linkConfig !== undefined) {
        linkConfig = Object.fromEntries(Object.entries(t.linkConfig).map(([k, v]) => [k, { rateBps: v.rate, delayPs: v.delay }]));
      }
      const loaded = issues.guard([...at, 'path'], () => loadTopologyFile(path, t.format as TopologyFileFormat, linkConfig, limits.fileBytes, { hosts: limits.hosts, links: limits.links }));
      checkTopologySize({ hosts: loaded.topology.hostCount, links: loaded.topology.links.length }, limits, issues);
      for (const problem of topologyFileProblems(loaded, path)) issues.add([...at, 'path'], problem, t.path);
      issues.throwIfAny();
      const identity = loaded.newIds.every((v, i) => v === i);
      return identity ? { topology: loaded.topology } : { topology: loaded.topology, newIds: loaded.newIds };
    }
  }
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
