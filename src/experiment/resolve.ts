/**
 * From a spec file to a `SimInput`: load (YAML or JSON), validate (zod), and
 * resolve (build the topology, the network config and the flows; check every
 * host id, port and link against the built topology). Every problem becomes a
 * `SpecError` naming the spec field, before anything is simulated or written.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve as resolvePath } from 'node:path';
import { parseDocument } from 'yaml';
import { findCc } from '../cc/registry.js';
import { unmetNeeds } from '../cc/types.js';
import { Rng } from '../engine/rng.js';
import { readTextFileCapped } from '../engine/io.js';
import { MS, SEC, US, formatTime } from '../engine/units.js';
import { deepMerge, profileDefaults, type NetworkConfig, type ProfileName } from '../net/config.js';
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
  type FatTreeOptions,
  type FatTreePresetName,
  type OscarLinkConfig,
  type SpineLeafOptions,
  type SpineLeafPresetName,
  type TorMeshOptions,
  type Topology,
  type TopologyFileFormat,
} from '../net/topology/index.js';
import {
  explicitFlows,
  incastEventRateForLoad,
  incastFlows,
  loadCdf,
  poissonFlows,
  ptBackgroundGroups,
  ptQueryFlows,
  racksOf,
  uplinkShareBps,
  workloadNames,
  type Cdf,
  type FlowSpec,
  type IncastOptions,
  type Racks,
} from '../workload/index.js';
import { SpecError, UsageError, errorMessage, formatPath, valueAtPath, zodToSpecError, type PathSegment, type SpecIssue } from './errors.js';
import { splitExperiment } from './meta.js';
import { SPEC_DEFAULTS, specErrorMap, specSchema, type PortRefSpec, type Spec, type SpecLimits, type TopologySpec, type WorkloadSpec } from './spec.js';
import { resolveLinkEvents, resolveSchedule } from './resolve-topology-change.js';
import type { MetricsRequest, PortRef, SimInput } from './types.js';

export interface LoadedSpec {
  /** the parsed file before validation (YAML/JSON data) */
  raw: unknown;
  spec: Spec;
  /** absolute path of the spec file */
  path: string;
}

/** Validates raw spec data; throws SpecError listing every problem. */
export function parseSpec(raw: unknown, file?: string): Spec {
  const r = specSchema.safeParse(raw, { error: specErrorMap });
  if (!r.success) throw zodToSpecError(r.error, raw, file);
  return r.data;
}

/** Reads raw spec data from a YAML (.yaml/.yml) or JSON (.json) file. */
export function readSpecFile(path: string): unknown {
  const abs = resolvePath(path);
  if (!existsSync(abs)) throw new UsageError(`spec file not found: ${path}`);
  if (statSync(abs).isDirectory()) throw new UsageError(`spec path is a directory, not a file: ${path}`);
  let text: string;
  try {
    text = readTextFileCapped(abs, 'spec file');
  } catch (e) {
    throw new UsageError(errorMessage(e));
  }
  const ext = extname(abs).toLowerCase();
  if (ext === '.json') return parseJsonText(text, path);
  return parseYamlText(text, path);
}

function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const msg = errorMessage(e);
    const m = /position (\d+)/.exec(msg);
    let where = 'JSON';
    if (m) {
      const pos = Number(m[1]);
      const before = text.slice(0, pos);
      const line = before.split('\n').length;
      const col = pos - before.lastIndexOf('\n');
      where = `line ${line}, column ${col}`;
    }
    throw new SpecError([{ path: where, value: undefined, message: `invalid JSON: ${msg}`, showValue: false }], file);
  }
}

function parseYamlText(text: string, file: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const issues: SpecIssue[] = doc.errors.map((err) => {
      const lp = err.linePos?.[0];
      const where = lp ? `line ${lp.line}, column ${lp.col}` : 'YAML';
      // first line of the message, without the " at line L, column C:" that prettyErrors appends
      const msg = (err.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?\s*$/, '');
      return { path: where, value: undefined, message: `invalid YAML: ${msg}`, showValue: false };
    });
    throw new SpecError(issues, file);
  }
  return doc.toJS({ maxAliasCount: 1000 }) as unknown;
}

export interface LoadOptions {
  /** merge the file's `quick:` block over it (reduced sizes) */
  quick?: boolean;
}

/**
 * Loads and validates a run spec file (no resolution: files it names are not
 * read yet). The experiment keys `figure` and `quick` are accepted (`quick`
 * applied with `opts.quick`); a file with a `sweep:` block is a sweep, run by
 * `ccsim sweep`, and is refused here with a message saying so.
 */
export function loadSpec(path: string, opts: LoadOptions = {}): LoadedSpec {
  const abs = resolvePath(path);
  const raw = readSpecFile(path);
  if (raw === null || raw === undefined) {
    throw new SpecError([{ path: '', value: raw, message: 'the spec file is empty' }], path);
  }
  const { base, meta } = splitExperiment(raw, path, opts.quick === true);
  if (meta.sweep !== undefined) {
    throw new UsageError(`${path} is a sweep (it has a \`sweep:\` block): run it with \`ccsim sweep ${path}\``);
  }
  return { raw: base, spec: parseSpec(base, path), path: abs };
}

// ---------------------------------------------------------------------------------------------
// resolution

export interface ResolveOverrides {
  seed?: number;
}

/** Collects issues during resolution; `fail()` throws them as one SpecError. */
class Issues {
  readonly list: SpecIssue[] = [];
  constructor(
    private readonly raw: unknown,
    private readonly file: string | undefined,
  ) {}

  add(path: readonly PathSegment[], message: string, value?: unknown): void {
    this.list.push({ path: formatPath(path), value: value !== undefined ? value : valueAtPath(this.raw, path), message });
  }

  /** An issue about a whole section, printed without its value. */
  addNoValue(path: readonly PathSegment[], message: string): void {
    this.list.push({ path: formatPath(path), value: undefined, message, showValue: false });
  }

  fail(): never {
    throw new SpecError(this.list, this.file);
  }

  throwIfAny(): void {
    if (this.list.length > 0) this.fail();
  }

  /** Runs fn; an exception becomes an issue at `path` (and resolution stops). */
  guard<T>(path: readonly PathSegment[], fn: () => T, rewrite?: (msg: string) => string): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof SpecError) throw e;
      const msg = errorMessage(e);
      this.add(path, rewrite ? rewrite(msg) : msg);
      return this.fail();
    }
  }
}

/** A built topology plus the translation of spec node ids (a file's own ids) to topology ids. */
interface BuiltTopology {
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

function fmtCount(n: number): string {
  return n >= 1e6 ? n.toExponential(2).replace('e+', 'e') : Math.round(n).toLocaleString('en-US');
}

function buildTopology(t: TopologySpec, specDir: string, limits: SpecLimits, issues: Issues): BuiltTopology {
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
    case 'preset':
      return { topology: issues.guard([...at, 'preset'], () => topologyPreset(t.preset)) };
    case 'file': {
      const path = isAbsolute(t.path) ? t.path : resolvePath(specDir, t.path);
      let linkConfig: OscarLinkConfig | undefined;
      if (t.linkConfig !== undefined) {
        linkConfig = Object.fromEntries(Object.entries(t.linkConfig).map(([k, v]) => [k, { rateBps: v.rate, delayPs: v.delay }]));
      }
      const loaded = issues.guard([...at, 'path'], () => loadTopologyFile(path, t.format as TopologyFileFormat, linkConfig, limits.fileBytes));
      checkTopologySize({ hosts: loaded.topology.hostCount, links: loaded.topology.links.length }, limits, issues);
      const identity = loaded.newIds.every((v, i) => v === i);
      return identity ? { topology: loaded.topology } : { topology: loaded.topology, newIds: loaded.newIds };
    }
  }
}

/** Facts about the built topology used by the cross-field checks. */
class TopoIndex {
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
function mapHosts(ids: readonly number[], path: readonly PathSegment[], ti: TopoIndex, issues: Issues): number[] {
  const out: number[] = [];
  ids.forEach((id, i) => {
    const h = ti.host(id);
    if (h === undefined) issues.add([...path, i], `not a host (${ti.hostRangeText()})`, id);
    else out.push(h);
  });
  return out;
}

function mapHostSelection(sel: 'all' | number[], path: readonly PathSegment[], ti: TopoIndex, issues: Issues): number[] {
  if (sel === 'all') return ti.allHosts();
  const hosts = mapHosts(sel, path, ti, issues);
  const seen = new Set<number>();
  sel.forEach((id, i) => {
    if (seen.has(id)) issues.add([...path, i], 'listed twice', id);
    seen.add(id);
  });
  return hosts;
}

function mapHost(id: number, path: readonly PathSegment[], ti: TopoIndex, issues: Issues): number {
  const h = ti.host(id);
  if (h === undefined) {
    issues.add(path, `not a host (${ti.hostRangeText()})`, id);
    return -1;
  }
  return h;
}

/** Per-entry resolved inputs, after id checks. */
type PreparedEntry =
  | { kind: 'poisson'; spec: Extract<WorkloadSpec, { type: 'poisson' }>; sources: number[]; destinations: number[] }
  | { kind: 'incast'; spec: Extract<WorkloadSpec, { type: 'incast' }>; pool: number[]; receiver?: number; senders?: number[] }
  | { kind: 'flows'; spec: Extract<WorkloadSpec, { type: 'flows' }>; ends: { src: number; dst: number }[] }
  | { kind: 'query'; spec: Extract<WorkloadSpec, { type: 'query' }> };

function prepareWorkload(spec: Spec, ti: TopoIndex, issues: Issues): PreparedEntry[] {
  return spec.workload.map((w, i): PreparedEntry => {
    const at: PathSegment[] = ['workload', i];
    switch (w.type) {
      case 'poisson': {
        if (w.ptGenerator !== undefined) {
          // PowerTCP's generator picks sources and destinations from the racks
          const mode = w.ptGenerator;
          const groups = issues.guard([...at, 'ptGenerator'], () => ptBackgroundGroups(ti.topo, mode));
          return { kind: 'poisson', spec: w, sources: groups.flatMap((g) => g.sources), destinations: [] };
        }
        const sources = mapHostSelection(w.hosts, [...at, 'hosts'], ti, issues);
        const destinations = mapHostSelection(w.destinations, [...at, 'destinations'], ti, issues);
        if (ti.hostCount < 2) issues.add([...at, 'type'], 'needs at least 2 hosts in the topology');
        return { kind: 'poisson', spec: w, sources, destinations };
      }
      case 'query': {
        const racks = racksOf(ti.topo).tors.length;
        if (racks < 2) issues.add([...at, 'type'], `needs at least 2 racks (hosts under different switches); the topology has ${racks}`);
        return { kind: 'query', spec: w };
      }
      case 'incast': {
        const pool = mapHostSelection(w.hosts, [...at, 'hosts'], ti, issues);
        const e: PreparedEntry = { kind: 'incast', spec: w, pool };
        if (w.receiver !== undefined) e.receiver = mapHost(w.receiver, [...at, 'receiver'], ti, issues);
        if (w.senders !== undefined) {
          e.senders = mapHostSelection(w.senders, [...at, 'senders'], ti, issues);
          if (w.receiver !== undefined) {
            const k = w.senders.indexOf(w.receiver);
            if (k >= 0) issues.add([...at, 'senders', k], 'is the receiver', w.receiver);
          }
        } else {
          const available = w.receiver === undefined ? pool.length - 1 : pool.filter((h) => h !== e.receiver).length;
          if (w.fanIn > available) {
            issues.add([...at, 'fanIn'], `exceeds the ${Math.max(available, 0)} hosts available as senders (receiver excluded)`);
          }
        }
        return e;
      }
      case 'flows': {
        const ends = w.flows.map((f, j) => {
          const src = mapHost(f.src, [...at, 'flows', j, 'src'], ti, issues);
          const dst = mapHost(f.dst, [...at, 'flows', j, 'dst'], ti, issues);
          if (f.src === f.dst) issues.add([...at, 'flows', j, 'dst'], 'same host as src', f.dst);
          return { src, dst };
        });
        return { kind: 'flows', spec: w, ends };
      }
    }
  });
}

/** Offered load per source host (Poisson loads plus incast loads) must not exceed 1. */
function checkOfferedLoad(entries: readonly PreparedEntry[], ti: TopoIndex, issues: Issues): void {
  const perHost = new Float64Array(ti.hostCount);
  let incastLoad = 0;
  for (const e of entries) {
    if (e.kind === 'poisson') {
      for (const h of e.sources) {
        const ref = poissonRefRate(e.spec, h, ti);
        perHost[h]! += (e.spec.load * ref) / (ti.hostRate[h]! || ref);
      }
    } else if (e.kind === 'incast' && e.spec.load !== undefined) {
      incastLoad += e.spec.load;
    }
  }
  let worst = -1;
  for (let h = 0; h < ti.hostCount; h++) if (worst < 0 || perHost[h]! > perHost[worst]!) worst = h;
  if (worst >= 0 && perHost[worst]! + incastLoad > 1 + 1e-9) {
    const total = perHost[worst]! + incastLoad;
    issues.addNoValue(['workload'], `offered load at host ${worst} adds up to ${+total.toFixed(6)} of its link rate; it must be <= 1`);
  }
}

/** The rate a Poisson entry's load refers to at source h: refRate, the ToR-uplink share (ptGenerator), or the host link. */
function poissonRefRate(w: Extract<WorkloadSpec, { type: 'poisson' }>, h: number, ti: TopoIndex): number {
  if (w.refRate !== undefined) return w.refRate;
  if (w.ptGenerator !== undefined) return uplinkShareBps(ti.racks(), h);
  return ti.hostRate[h]!;
}

function resolveCdf(name: string, specDir: string, path: readonly PathSegment[], maxBytes: number, issues: Issues): Cdf {
  const builtin = workloadNames().includes(name);
  const local = builtin ? undefined : resolvePath(specDir, name);
  const target = local !== undefined && existsSync(local) ? local : name;
  return issues.guard(path, () => loadCdf(target, maxBytes), (msg) =>
    msg.startsWith('workload file not found')
      ? `workload file not found (relative paths are looked up in ${specDir}; built-in names: ${workloadNames().join(', ')})`
      : msg,
  );
}

/** The CDF of every Poisson entry (by entry index), read once. */
function loadCdfs(spec: Spec, entries: readonly PreparedEntry[], specDir: string, issues: Issues): Map<number, Cdf> {
  const out = new Map<number, Cdf>();
  entries.forEach((e, i) => {
    if (e.kind === 'poisson') out.set(i, resolveCdf(e.spec.cdf, specDir, ['workload', i, 'cdf'], spec.limits.fileBytes, issues));
  });
  return out;
}

/**
 * Flows and data packets the workload will need, estimated before generating
 * it: Poisson entries from load x rate x duration / mean size, incasts from
 * their event count (or rate x duration), explicit flows exactly. Packets are
 * bounded by what the receiving hosts' links can take before the run ends.
 */
function checkWorkloadSize(spec: Spec, entries: readonly PreparedEntry[], ti: TopoIndex, cdfs: Map<number, Cdf>, mtu: number, issues: Issues): void {
  const limits = spec.limits;
  let flows = 0;
  let bytes = 0;
  entries.forEach((e, i) => {
    if (e.kind === 'poisson') {
      const mean = cdfs.get(i)!.meanBytes;
      for (const h of e.sources) {
        const b = (e.spec.load * (e.spec.refRate ?? ti.hostRate[h]!) * (e.spec.duration / 1e12)) / 8;
        bytes += b;
        flows += b / Math.max(mean, 1);
      }
    } else if (e.kind === 'incast') {
      const w = e.spec;
      let events = w.at?.length ?? 0;
      if (w.eventRate !== undefined) events = w.eventRate * ((w.duration ?? 0) / 1e12);
      else if (w.load !== undefined) {
        const meanRate = e.pool.reduce((sum, h) => sum + ti.hostRate[h]!, 0) / Math.max(e.pool.length, 1);
        events = ((w.load * e.pool.length * meanRate) / (w.fanIn * w.size * 8)) * ((w.duration ?? 0) / 1e12);
      }
      flows += events * w.fanIn;
      bytes += events * w.fanIn * w.size;
    } else if (e.kind === 'flows') {
      flows += e.spec.flows.length;
      for (const f of e.spec.flows) bytes += f.size;
    } else {
      // query: one requesting server per rack, requestRate requests/s, each answered by `fan` flows of requestSize/fan
      const requests = ti.racks().tors.length * e.spec.requestRate * (e.spec.duration / 1e12);
      flows += requests * e.spec.fan;
      bytes += requests * e.spec.requestSize;
    }
  });
  if (flows > limits.flows) {
    issues.addNoValue(['workload'], `would generate about ${fmtCount(flows)} flows, above the limit of ${limits.flows.toLocaleString('en-US')} (raise limits.flows to allow it)`);
  }
  // what the receiving hosts' links can take before the run ends bounds the bytes actually sent
  const receivers = new Set<number>();
  for (const e of entries) {
    if (e.kind === 'poisson' && e.destinations.length > 0) for (const h of e.destinations) receivers.add(h);
    else if (e.kind === 'incast') for (const h of e.receiver !== undefined ? [e.receiver] : e.pool) receivers.add(h);
    else if (e.kind === 'flows') for (const x of e.ends) receivers.add(x.dst);
    else for (let h = 0; h < ti.hostCount; h++) receivers.add(h);
  }
  const horizonPs = spec.stop.at ?? spec.stop.maxTime ?? SPEC_DEFAULTS.maxTimePs;
  let capacity = 0;
  for (const h of receivers) capacity += ((ti.hostRate[h] ?? 0) * (horizonPs / 1e12)) / 8;
  const packets = Math.min(bytes, capacity) / mtu;
  if (packets > limits.packets) {
    issues.addNoValue(
      ['workload'],
      `would send about ${fmtCount(packets)} data packets, above the limit of ${limits.packets.toLocaleString('en-US')} (raise limits.packets to allow it)`,
    );
  }
  issues.throwIfAny();
}

/** Flows that start at or after a hard stop would never run: an error, not a silent result. */
function checkStartsBeforeStop(spec: Spec, issues: Issues): void {
  const stop = spec.stop.at;
  if (stop === undefined) return;
  const msg = `starts at or after stop.at (${formatTime(stop)}): it would never run`;
  spec.workload.forEach((w, i) => {
    if (w.type === 'flows') {
      w.flows.forEach((f, j) => {
        if (f.start >= stop) issues.add(['workload', i, 'flows', j, 'start'], msg);
      });
    } else if (w.type === 'incast' && w.at !== undefined) {
      w.at.forEach((t, j) => {
        if (t >= stop) issues.add(['workload', i, 'at', j], msg);
      });
    } else if (w.start !== undefined && w.start >= stop) {
      issues.add(['workload', i, 'start'], msg);
    }
  });
}

/** `cc.byTag` keys must name a tag some workload entry gives its flows (a typo would silently change nothing). */
function checkCcTags(spec: Spec, issues: Issues): void {
  if (spec.cc.byTag === undefined) return;
  const tags = new Set<string>();
  for (const w of spec.workload) {
    if (w.type === 'flows') {
      for (const f of w.flows) if (f.tag !== undefined) tags.add(f.tag);
    } else tags.add(w.tag);
  }
  for (const tag of Object.keys(spec.cc.byTag)) {
    if (!tags.has(tag)) issues.add(['cc', 'byTag', tag], `no workload flow has this tag (tags: ${[...tags].join(', ') || 'none'})`, tag);
  }
}

function generateFlows(spec: Spec, entries: readonly PreparedEntry[], ti: TopoIndex, seed: number, cdfs: Map<number, Cdf>, issues: Issues): FlowSpec[] {
  const root = new Rng(seed);
  const all: FlowSpec[] = [];
  entries.forEach((e, i) => {
    const at: PathSegment[] = ['workload', i];
    const rng = root.fork('workload/' + i);
    switch (e.kind) {
      case 'poisson': {
        const w = e.spec;
        const cdf = cdfs.get(i)!;
        // sources grouped by the rate their load refers to (one group unless host links differ)
        // per destination set (one unless ptGenerator: artifact), per reference rate
        const sets = w.ptGenerator !== undefined ? ptBackgroundGroups(ti.topo, w.ptGenerator) : [{ sources: e.sources, destinations: e.destinations }];
        const groups = new Map<string, { sources: number[]; destinations: number[]; refRateBps: number }>();
        sets.forEach((set, si) => {
          for (const h of set.sources) {
            const ref = poissonRefRate(w, h, ti);
            const key = `${si}/${ref}`;
            let g = groups.get(key);
            if (g === undefined) groups.set(key, (g = { sources: [], destinations: set.destinations, refRateBps: ref }));
            g.sources.push(h);
          }
        });
        const flows: FlowSpec[] = [];
        for (const { sources, destinations, refRateBps } of groups.values()) {
          const generated = issues.guard(at, () =>
              poissonFlows({
                sources,
                destinations,
                cdf,
                load: w.load,
                refRateBps,
                startPs: w.start,
                durationPs: w.duration,
                rng,
                tag: w.tag,
                ...(w.prio !== undefined ? { prio: w.prio } : {}),
              }),
            );
          for (const f of generated) flows.push(f);
        }
        if (groups.size > 1) flows.sort((a, b) => a.startPs - b.startPs || a.src - b.src);
        // a loop, not push(...flows): long workloads have more flows than the call-stack argument limit
        for (const f of flows) all.push(f);
        break;
      }
      case 'incast': {
        const w = e.spec;
        const o: IncastOptions = { hosts: e.pool, fanIn: w.fanIn, bytes: w.size, rng, tag: w.tag, startPs: w.start, staggerPs: w.stagger };
        if (e.receiver !== undefined) o.receiver = e.receiver;
        if (e.senders !== undefined) o.senders = e.senders;
        if (w.prio !== undefined) o.prio = w.prio;
        if (w.duration !== undefined) o.durationPs = w.duration;
        if (w.at !== undefined) o.times = w.at;
        else if (w.eventRate !== undefined) o.eventRatePerSec = w.eventRate;
        else if (w.load !== undefined) {
          const pool = e.pool;
          const meanRate = pool.reduce((s, h) => s + ti.hostRate[h]!, 0) / Math.max(pool.length, 1);
          const load = w.load;
          o.eventRatePerSec = issues.guard([...at, 'load'], () => incastEventRateForLoad(load, pool.length, meanRate, w.fanIn, w.size));
        }
        for (const f of issues.guard(at, () => incastFlows(o))) all.push(f);
        break;
      }
      case 'query': {
        const w = e.spec;
        const startPs = w.start ?? (w.ptGenerator === 'artifact' ? 0 : 100 * MS);
        const queries = issues.guard(at, () =>
            ptQueryFlows({
              topology: ti.topo,
              mode: w.ptGenerator,
              requestRatePerSec: w.requestRate,
              requestBytes: w.requestSize,
              fan: w.fan,
              startPs,
              durationPs: w.duration,
              rng,
              tag: w.tag,
              ...(w.prio !== undefined ? { prio: w.prio } : {}),
            }),
        );
        // a loop, not push(...): long runs have more flows than the call-stack argument limit
        for (const f of queries) all.push(f);
        break;
      }
      case 'flows': {
        const list = e.spec.flows.map((f, j) => {
          const x: FlowSpec = { src: e.ends[j]!.src, dst: e.ends[j]!.dst, bytes: f.size, startPs: f.start };
          if (f.prio !== undefined) x.prio = f.prio;
          if (f.tag !== undefined) x.tag = f.tag;
          return x;
        });
        for (const f of issues.guard(at, () => explicitFlows(list, ti.hostCount))) all.push(f);
        break;
      }
    }
  });
  // flow ids = positions in start-time order; ties keep workload-entry order, then generator order
  return all.map((f, k) => ({ f, k })).sort((a, b) => a.f.startPs - b.f.startPs || a.k - b.k).map((x) => x.f);
}

function resolvePort(ref: PortRefSpec, path: readonly PathSegment[], ti: TopoIndex, issues: Issues): PortRef | undefined {
  if ('node' in ref) {
    const n = ti.node(ref.node);
    if (n === undefined) {
      issues.add([...path, 'node'], `no such node (${ti.nodeRangeText()})`, ref.node);
      return undefined;
    }
    const ports = ti.peers[n]!.length;
    if (ref.port >= ports) {
      issues.add([...path, 'port'], `node ${ref.node} has ${ports} port${ports === 1 ? '' : 's'} (0..${ports - 1})`, ref.port);
      return undefined;
    }
    return { node: n, port: ref.port };
  }
  const [a, b] = ref.link;
  const na = ti.node(a);
  const nb = ti.node(b);
  if (na === undefined || nb === undefined) {
    issues.add([...path, 'link', na === undefined ? 0 : 1], `no such node (${ti.nodeRangeText()})`, na === undefined ? a : b);
    return undefined;
  }
  const port = ti.peers[na]!.indexOf(nb);
  if (port < 0) {
    issues.add([...path, 'link'], `nodes ${a} and ${b} are not connected`, ref.link);
    return undefined;
  }
  return { node: na, port };
}

/** The metrics request, ports checked against the topology; flow ids are checked in checkFlowIds. */
/**
 * Smallest base RTT between two hosts of one rack: 2 x (both host links' delays) plus one
 * MTU's serialization on each host link (4 640 ns on powertcp256 with 1000 B packets, the
 * artifact's minRtt; docs/network-model.md §13.3).
 */
function minBaseRttPs(ti: TopoIndex, racks: Racks, mtuBytes: number): number {
  const delay = new Float64Array(ti.hostCount);
  for (const l of ti.topo.links) {
    if (l.a < ti.hostCount && delay[l.a] === 0) delay[l.a] = l.delayPs;
    if (l.b < ti.hostCount && delay[l.b] === 0) delay[l.b] = l.delayPs;
  }
  let best = Infinity;
  for (const hs of racks.hosts) {
    if (hs.length < 2) continue;
    const ser = (h: number): number => (mtuBytes * 8 * SEC) / ti.hostRate[h]!;
    const [a, b] = [hs[0]!, hs[1]!];
    best = Math.min(best, 2 * (delay[a]! + delay[b]!) + ser(a) + ser(b));
  }
  return Number.isFinite(best) ? best : 10 * US;
}

function resolveMetrics(spec: Spec, ti: TopoIndex, issues: Issues, mtuBytes: number): MetricsRequest {
  const m = spec.metrics;
  const ports = (list: readonly PortRefSpec[] | undefined, key: string): PortRef[] =>
    (list ?? []).flatMap((r, i) => {
      const p = resolvePort(r, ['metrics', key, 'ports', i], ti, issues);
      return p === undefined ? [] : [p];
    });
  let flowThroughput: number[] | null = null;
  if (m.flowThroughput !== undefined) {
    const sel = m.flowThroughput.flows;
    flowThroughput = sel === 'all' ? [] : [...sel];
  }
  let switchBuffer: MetricsRequest['switchBuffer'];
  if (m.switchBuffer !== undefined) {
    const sb = m.switchBuffer;
    const at: PathSegment[] = ['metrics', 'switchBuffer'];
    const racks = ti.racks();
    let nodes: number[] = [];
    if (sb.switches === 'firstTor' || sb.switches === 'allTors') {
      if (racks.tors.length === 0) issues.add([...at, 'switches'], 'the topology has no switch with hosts attached');
      nodes = sb.switches === 'firstTor' ? racks.tors.slice(0, 1) : [...racks.tors];
    } else {
      sb.switches.forEach((id, i) => {
        const n = ti.node(id);
        if (n === undefined) issues.add([...at, 'switches', i], `no such node (${ti.nodeRangeText()})`, id);
        else if (n < ti.hostCount) issues.add([...at, 'switches', i], 'is a host, not a switch', id);
        else nodes.push(n);
      });
    }
    const intervalPs = sb.interval ?? Math.round(1.5 * minBaseRttPs(ti, racks, mtuBytes));
    switchBuffer = { nodes, intervalPs, block: sb.block };
  }
  return {
    ...(switchBuffer !== undefined ? { switchBuffer } : {}),
    queuePorts: ports(m.queues?.ports, 'queues'),
    queueIntervalPs: m.queues?.interval ?? SPEC_DEFAULTS.queueIntervalPs,
    throughputPorts: ports(m.throughput?.ports, 'throughput'),
    throughputIntervalPs: m.throughput?.interval ?? SPEC_DEFAULTS.throughputIntervalPs,
    flowThroughput,
    flowThroughputIntervalPs: m.flowThroughput?.interval ?? SPEC_DEFAULTS.flowThroughputIntervalPs,
    ccTrace: m.ccTrace === undefined ? null : m.ccTrace.flows === 'all' ? [] : [...m.ccTrace.flows],
    ccTraceIntervalPs: m.ccTrace?.interval ?? SPEC_DEFAULTS.ccTraceIntervalPs,
  };
}

function checkFlowIds(spec: Spec, flowCount: number, issues: Issues): void {
  for (const key of ['flowThroughput', 'ccTrace'] as const) {
    const sel = spec.metrics[key]?.flows;
    if (sel === undefined || sel === 'all') continue;
    sel.forEach((id, i) => {
      if (id >= flowCount) issues.add(['metrics', key, 'flows', i], `no such flow (flow ids are 0..${flowCount - 1})`, id);
    });
  }
}

function resolveNetwork(spec: Spec, issues: Issues): NetworkConfig {
  const net = deepMerge(profileDefaults(spec.profile as ProfileName), spec.network ?? {});
  if (net.switch.pfcEnabled && net.switch.bufferBytes === 0) {
    issues.add(
      ['network', 'switch', 'bufferBytes'],
      'a lossless switch (pfcEnabled) needs buffer for its PFC headroom; give a buffer or set pfcEnabled: false',
      net.switch.bufferBytes,
    );
  }
  const ecn = net.switch.ecn;
  if (ecn.kminBytes > ecn.kmaxBytes) {
    issues.add(['network', 'switch', 'ecn', 'kmaxBytes'], `must be >= kminBytes (${ecn.kminBytes})`, ecn.kmaxBytes);
  }
  // a CC whose needs this profile cannot meet is a spec error, before anything runs
  const def = findCc(spec.cc.name);
  if (def !== undefined) for (const m of unmetNeeds(def, net)) issues.add(['cc'], m, spec.cc.name);
  return net;
}

export interface ResolveContext {
  /** raw spec data, for error values (default: none) */
  raw?: unknown;
  /** spec file name, for error messages */
  file?: string;
}

/**
 * Builds the simulator input from a validated spec. `specDir` anchors relative
 * paths (CDF and topology files). Throws SpecError naming the spec field of
 * every problem found.
 */
export function resolveSpec(spec: Spec, specDir: string, overrides: ResolveOverrides = {}, ctx: ResolveContext = {}): SimInput {
  const issues = new Issues(ctx.raw ?? spec, ctx.file);
  const seed = overrides.seed ?? spec.seed;
  if (!Number.isSafeInteger(seed) || seed < 0) {
    issues.add(['seed'], 'must be an integer >= 0', seed);
    issues.fail();
  }
  const net = resolveNetwork(spec, issues);
  checkStartsBeforeStop(spec, issues);
  issues.throwIfAny();
  const built = buildTopology(spec.topology, specDir, spec.limits, issues);
  const ti = new TopoIndex(built.topology, built.newIds);

  const entries = prepareWorkload(spec, ti, issues);
  const circuitSchedule = resolveSchedule(spec, ti, issues);
  const events = resolveLinkEvents(spec, ti, issues, circuitSchedule);
  const metrics = resolveMetrics(spec, ti, issues, net.transport.mtuBytes);
  checkOfferedLoad(entries, ti, issues);
  issues.throwIfAny();

  const cdfs = loadCdfs(spec, entries, specDir, issues);
  checkWorkloadSize(spec, entries, ti, cdfs, net.transport.mtuBytes, issues);
  const flows = generateFlows(spec, entries, ti, seed, cdfs, issues);
  if (flows.length === 0) {
    issues.addNoValue(['workload'], 'produced no flows (durations too short or loads too low?)');
  }
  checkFlowIds(spec, flows.length, issues);
  checkCcTags(spec, issues);
  issues.throwIfAny();

  return {
    seed,
    topology: built.topology,
    net,
    cc: { name: spec.cc.name, params: spec.cc.params, ...(spec.cc.byTag !== undefined ? { byTag: spec.cc.byTag } : {}) },
    flows,
    stopAtPs: spec.stop.at ?? null,
    // with a hard stop, the stop time is also the cap
    maxTimePs: spec.stop.at ?? spec.stop.maxTime ?? SPEC_DEFAULTS.maxTimePs,
    linkEvents: events,
    ...(circuitSchedule !== undefined ? { circuitSchedule } : {}),
    metrics,
    ...(spec.stop.deadlock === false
      ? { deadlock: null }
      : spec.stop.deadlock !== undefined
        ? { deadlock: { minPausedPs: spec.stop.deadlock.pausedFor, checkIntervalPs: spec.stop.deadlock.checkEvery } }
        : {}),
  };
}

/** Loads, validates and resolves a spec file in one step. */
export function loadAndResolve(path: string, overrides: ResolveOverrides = {}, opts: LoadOptions = {}): { loaded: LoadedSpec; input: SimInput } {
  const loaded = loadSpec(path, opts);
  const input = resolveSpec(loaded.spec, dirname(loaded.path), overrides, { raw: loaded.raw, file: path });
  return { loaded, input };
}

