/**
 * Topology builders (docs/network-model.md §14). Every builder validates its options
 * and throws an Error naming the option and the value. Rates are bps, delays
 * are one-way propagation in ps. Node ids: hosts 0..H-1, then switches.
 * Node names are the layer prefix plus the global id (h5, tor320, agg340, ...).
 */
import { GBPS, US } from '../../engine/units.js';
import type { Topology } from './types.js';
import { accCbd, accTree } from './acc.js';
import { Builder } from './builder.js';

// ---------------------------------------------------------------------------------------------
// star

export interface StarOptions {
  /** number of hosts, all on one switch */
  hosts: number;
  rateBps: number;
  delayPs: number;
  name?: string;
}

/** Hosts 0..N-1 on one switch N (layer 'tor'). N senders → 1 receiver is a usage of this (docs/network-model.md §14). */
export function star(opts: StarOptions): Topology {
  const o = opts;
  const hosts = o.hosts;
  const rate = o.rateBps;
  const delay = o.delayPs;
  const b = new Builder();
  b.addHosts(hosts);
  const sw = b.addSwitches(1, 'tor');
  for (let h = 0; h < hosts; h++) b.link(h, sw, rate, delay);
  return b.finish(o.name ?? `star${hosts}`);
}

// ---------------------------------------------------------------------------------------------
// dumbbell

export interface DumbbellOptions {
  /** hosts on switch A (ids 0..left-1) */
  left: number;
  /** hosts on switch B (ids left..left+right-1) */
  right: number;
  hostRateBps: number;
  /** rate of the A–B link */
  bottleneckRateBps: number;
  /** every link */
  delayPs: number;
  name?: string;
}

/** `left` hosts on switch A, `right` hosts on switch B, A–B the bottleneck (docs/network-model.md §14). Links: hosts, then A–B. */
export function dumbbell(opts: DumbbellOptions): Topology {
  const o = opts;
  const left = o.left;
  const right = o.right;
  const hostRate = o.hostRateBps;
  const bnRate = o.bottleneckRateBps;
  const delay = o.delayPs;
  const b = new Builder();
  b.addHosts(left + right);
  const swA = b.addSwitches(1, 'tor');
  const swB = b.addSwitches(1, 'tor');
  for (let h = 0; h < left; h++) b.link(h, swA, hostRate, delay);
  for (let h = left; h < left + right; h++) b.link(h, swB, hostRate, delay);
  b.link(swA, swB, bnRate, delay);
  return b.finish(o.name ?? `dumbbell${left}x${right}`);
}

// ---------------------------------------------------------------------------------------------
// parking lot

export interface ParkingLotOptions {
  /** switches in a chain */
  switches: number;
  /** host s·hostsPerSwitch + j is on switch s */
  hostsPerSwitch: number;
  rateBps: number;
  delayPs: number;
  name?: string;
}

/**
 * Switches in a chain with hosts on each (docs/network-model.md §14; OSCAR parking5 = 5 switches, one
 * host each). Links: host links in host order, then the chain s0–s1, s1–s2, ...
 */
export function parkingLot(opts: ParkingLotOptions): Topology {
  const o = opts;
  const switches = o.switches;
  const hps = o.hostsPerSwitch;
  const rate = o.rateBps;
  const delay = o.delayPs;
  const b = new Builder();
  b.addHosts(switches * hps);
  const sw0 = b.addSwitches(switches, 'switch');
  for (let h = 0; h < switches * hps; h++) b.link(h, sw0 + Math.floor(h / hps), rate, delay);
  for (let s = 0; s + 1 < switches; s++) b.link(sw0 + s, sw0 + s + 1, rate, delay);
  return b.finish(o.name ?? `parking${switches}`);
}

// ---------------------------------------------------------------------------------------------
// fat tree

/**
 * How agg k (index within its pod, A = aggsPerPod, C = cores) connects to cores:
 * - 'strided': cores {k, k+A, k+2A, ...} (OSCAR fat-16-4-5), C divisible by A;
 * - 'blocked': cores k·(C/A) .. (k+1)·(C/A)-1 (HPCC fat.txt, PowerTCP topology-256), C divisible by A;
 * - 'full': every core (PowerTCP paper's 2-core description).
 */
export type CoreWiring = 'strided' | 'blocked' | 'full';
export const CORE_WIRINGS: readonly CoreWiring[] = ['strided', 'blocked', 'full'];

export interface FatTreeOptions {
  pods: number;
  edgesPerPod: number;
  aggsPerPod: number;
  hostsPerEdge: number;
  cores: number;
  hostRateBps: number;
  /** edge–agg links (and agg–core unless aggCoreRateBps is set) */
  fabricRateBps: number;
  /** agg–core links; default fabricRateBps (set lower to oversubscribe the core tier) */
  aggCoreRateBps?: number;
  hostDelayPs: number;
  edgeAggDelayPs: number;
  aggCoreDelayPs: number;
  coreWiring: CoreWiring;
  name?: string;
}

/** Core indices (0-based within the core block) that agg k of a pod connects to. */
export function coresOfAgg(k: number, aggsPerPod: number, cores: number, wiring: CoreWiring): number[] {
  const out: number[] = [];
  switch (wiring) {
    case 'strided':
      for (let c = k; c < cores; c += aggsPerPod) out.push(c);
      break;
    case 'blocked': {
      const per = cores / aggsPerPod;
      for (let c = k * per; c < (k + 1) * per; c++) out.push(c);
      break;
    }
    case 'full':
      for (let c = 0; c < cores; c++) out.push(c);
      break;
  }
  return out;
}

/**
 * Three-tier fat tree (docs/network-model.md §14). Node order: hosts, edges (pod-major),
 * aggs (pod-major), cores. Layers 'tor', 'agg', 'core'. Link order: host links
 * (host order), edge–agg (edge-major, aggs of the pod in order), agg–core
 * (agg-major, cores ascending). Host h is on edge floor(h / hostsPerEdge).
 */
export function fatTree(opts: FatTreeOptions): Topology {
  const o = opts;
  const pods = o.pods;
  const epp = o.edgesPerPod;
  const app = o.aggsPerPod;
  const hpe = o.hostsPerEdge;
  const cores = o.cores;
  const hostRate = o.hostRateBps;
  const fabricRate = o.fabricRateBps;
  const aggCoreRate = o.aggCoreRateBps ?? fabricRate;
  const hostDelay = o.hostDelayPs;
  const eaDelay = o.edgeAggDelayPs;
  const acDelay = o.aggCoreDelayPs;
  const wiring = o.coreWiring;
  if (wiring !== 'full' && cores % app !== 0) {
    throw new Error(`fatTree.cores: must be divisible by aggsPerPod (${app}) for '${wiring}' wiring, got ${cores}`);
  }
  const b = new Builder();
  const hosts = pods * epp * hpe;
  b.addHosts(hosts);
  const edge0 = b.addSwitches(pods * epp, 'tor');
  const agg0 = b.addSwitches(pods * app, 'agg');
  const core0 = b.addSwitches(cores, 'core');
  for (let h = 0; h < hosts; h++) b.link(h, edge0 + Math.floor(h / hpe), hostRate, hostDelay);
  for (let p = 0; p < pods; p++) {
    for (let e = 0; e < epp; e++) {
      for (let a = 0; a < app; a++) b.link(edge0 + p * epp + e, agg0 + p * app + a, fabricRate, eaDelay);
    }
  }
  for (let p = 0; p < pods; p++) {
    for (let a = 0; a < app; a++) {
      for (const c of coresOfAgg(a, app, cores, wiring)) b.link(agg0 + p * app + a, core0 + c, aggCoreRate, acDelay);
    }
  }
  return b.finish(o.name ?? `fatTree${hosts}`);
}

export type FatTreePresetName = 'oscar320' | 'powertcp256' | 'powertcp256paper' | 'ccc250';
export const FAT_TREE_PRESET_NAMES: readonly FatTreePresetName[] = ['oscar320', 'powertcp256', 'powertcp256paper', 'ccc250'];

/** Options of each fat-tree preset (plain data; names included). */
export function fatTreePresetOptions(name: FatTreePresetName): FatTreeOptions {
  switch (name) {
    case 'oscar320':
      // oscar320 (T-FT320): 5 pods × (4 edge + 4 agg), 16 hosts/edge, 16 cores, 100G/400G, 1 us, [O] wiring
      return {
        name,
        pods: 5,
        edgesPerPod: 4,
        aggsPerPod: 4,
        hostsPerEdge: 16,
        cores: 16,
        hostRateBps: 100 * GBPS,
        fabricRateBps: 400 * GBPS,
        hostDelayPs: US,
        edgeAggDelayPs: US,
        aggCoreDelayPs: US,
        coreWiring: 'strided',
      };
    case 'powertcp256':
      // powertcp256, artifact topology-256: 4 pods × (2 ToR + 2 agg), 32 hosts/ToR, 4 cores,
      // even aggs → cores 0,1 and odd aggs → cores 2,3 (= 'blocked'), 25G/100G, 5 us to core
      return {
        name,
        pods: 4,
        edgesPerPod: 2,
        aggsPerPod: 2,
        hostsPerEdge: 32,
        cores: 4,
        hostRateBps: 25 * GBPS,
        fabricRateBps: 100 * GBPS,
        hostDelayPs: US,
        edgeAggDelayPs: US,
        aggCoreDelayPs: 5 * US,
        coreWiring: 'blocked',
      };
    case 'powertcp256paper':
      // powertcp256, paper description: 2 cores, every agg to both
      return { ...fatTreePresetOptions('powertcp256'), name, cores: 2, coreWiring: 'full' };
    case 'ccc250':
      // ccc250 reconstruction: k = 10 fat tree, 250 hosts, 25G/100G, 1.6 us per link
      return {
        name,
        pods: 10,
        edgesPerPod: 5,
        aggsPerPod: 5,
        hostsPerEdge: 5,
        cores: 25,
        hostRateBps: 25 * GBPS,
        fabricRateBps: 100 * GBPS,
        hostDelayPs: 1_600_000,
        edgeAggDelayPs: 1_600_000,
        aggCoreDelayPs: 1_600_000,
        coreWiring: 'blocked',
      };
    default: {
      const bad: unknown = name;
      throw new Error(`fatTreePreset: unknown preset ${JSON.stringify(bad)} (known: ${FAT_TREE_PRESET_NAMES.join(', ')})`);
    }
  }
}

/** A named fat tree with optional overrides (e.g. `{ aggCoreRateBps: 200e9 }` for OSCAR's 2:1 oversubscription). */
export function fatTreePreset(name: FatTreePresetName, overrides?: Partial<FatTreeOptions>): Topology {
  return fatTree({ ...fatTreePresetOptions(name), ...(overrides ?? {}) });
}

// ---------------------------------------------------------------------------------------------
// spine-leaf

export interface SpineLeafOptions {
  spines: number;
  leaves: number;
  /** host l·hostsPerLeaf + j is on leaf l */
  hostsPerLeaf: number;
  hostRateBps: number;
  fabricRateBps: number;
  /** every link */
  delayPs: number;
  name?: string;
}

/**
 * Two-tier leaf-spine: every leaf to every spine. Node order: hosts, leaves,
 * spines; layers 'leaf' / 'spine'. Link order: host links, then leaf–spine
 * (leaf-major, spines ascending).
 */
export function spineLeaf(opts: SpineLeafOptions): Topology {
  const o = opts;
  const spines = o.spines;
  const leaves = o.leaves;
  const hpl = o.hostsPerLeaf;
  const hostRate = o.hostRateBps;
  const fabricRate = o.fabricRateBps;
  const delay = o.delayPs;
  const b = new Builder();
  const hosts = leaves * hpl;
  b.addHosts(hosts);
  const leaf0 = b.addSwitches(leaves, 'leaf');
  const spine0 = b.addSwitches(spines, 'spine');
  for (let h = 0; h < hosts; h++) b.link(h, leaf0 + Math.floor(h / hpl), hostRate, delay);
  for (let l = 0; l < leaves; l++) {
    for (let s = 0; s < spines; s++) b.link(leaf0 + l, spine0 + s, fabricRate, delay);
  }
  return b.finish(o.name ?? `spineLeaf${hosts}`);
}

export type SpineLeafPresetName = 'oscar64' | 'spraying44';
export const SPINE_LEAF_PRESET_NAMES: readonly SpineLeafPresetName[] = ['oscar64', 'spraying44'];

export function spineLeafPresetOptions(name: SpineLeafPresetName): SpineLeafOptions {
  switch (name) {
    case 'oscar64':
      // T-SL64: 16 leaves × 4 hosts, 2 spines, all 200G, 1 us
      return { name, spines: 2, leaves: 16, hostsPerLeaf: 4, hostRateBps: 200 * GBPS, fabricRateBps: 200 * GBPS, delayPs: US };
    case 'spraying44':
      // spraying-4-4: hosts 0–3 and 4–7 on two leaves joined by 4 spines, 100G, 1 us
      return { name, spines: 4, leaves: 2, hostsPerLeaf: 4, hostRateBps: 100 * GBPS, fabricRateBps: 100 * GBPS, delayPs: US };
    default: {
      const bad: unknown = name;
      throw new Error(`spineLeafPreset: unknown preset ${JSON.stringify(bad)} (known: ${SPINE_LEAF_PRESET_NAMES.join(', ')})`);
    }
  }
}

export function spineLeafPreset(name: SpineLeafPresetName, overrides?: Partial<SpineLeafOptions>): Topology {
  return spineLeaf({ ...spineLeafPresetOptions(name), ...(overrides ?? {}) });
}

// ---------------------------------------------------------------------------------------------
// presets (the topology types a spec names are in kinds.ts)

export interface TopologyPresetInfo {
  name: string;
  description: string;
  build: () => Topology;
}

/** Named topologies of the papers (docs/network-model.md §14), for `ccsim list` and specs that say `preset: oscar320`. */
export const TOPOLOGY_PRESETS: readonly TopologyPresetInfo[] = [
  { name: 'oscar320', description: 'T-FT320: 320 hosts, 5 pods, 16 cores, 100G/400G, 1 us (OSCAR, ACC, HPCC)', build: () => fatTreePreset('oscar320') },
  {
    name: 'oscar320-oversub2',
    description: 'T-FT320 with agg–core links at 200G (OSCAR App. C.6, 2:1)',
    build: () => fatTreePreset('oscar320', { name: 'oscar320-oversub2', aggCoreRateBps: 200 * GBPS }),
  },
  {
    name: 'oscar320-oversub4',
    description: 'T-FT320 with agg–core links at 100G (OSCAR App. C.6, 4:1)',
    build: () => fatTreePreset('oscar320', { name: 'oscar320-oversub4', aggCoreRateBps: 100 * GBPS }),
  },
  { name: 'powertcp256', description: 'T-PT-FT artifact: 256 hosts, 8 ToRs, 8 aggs, 4 cores, 25G/100G, 5 us to core', build: () => fatTreePreset('powertcp256') },
  { name: 'powertcp256paper', description: 'T-PT-FT as in the paper: 2 cores, each agg to both', build: () => fatTreePreset('powertcp256paper') },
  { name: 'ccc250', description: 'CCC reconstruction: k=10 fat tree, 250 hosts, 25G/100G, 1.6 us', build: () => fatTreePreset('ccc250') },
  { name: 'oscar64', description: 'T-SL64: 16 leaves × 4 hosts, 2 spines, 200G, 1 us (OSCAR Fig12)', build: () => spineLeafPreset('oscar64') },
  { name: 'spraying44', description: 'OSCAR spraying-4-4: 2 leaves × 4 hosts, 4 spines, 100G, 1 us', build: () => spineLeafPreset('spraying44') },
  { name: 'star16', description: 'OSCAR star16: 16 hosts on one switch, 100G, 3 us', build: () => star({ name: 'star16', hosts: 16, rateBps: 100 * GBPS, delayPs: 3 * US }) },
  {
    name: 'parking5',
    description: 'OSCAR parking5: 5 switches in a chain, one host each, 100G, 1 us',
    build: () => parkingLot({ name: 'parking5', switches: 5, hostsPerSwitch: 1, rateBps: 100 * GBPS, delayPs: US }),
  },
  {
    name: 'accCbd',
    description: 'ACC Fig12 CBD unit: 8 hosts per ToR, 100G, 1 us',
    build: () => accCbd({ hostsPerTor: 8, rateBps: 100 * GBPS, delayPs: US }),
  },
  {
    name: 'accFig1',
    description: 'ACC Fig. 1 congestion tree with 20 burst hosts (Fig. 2/3), 100G, 2 us',
    build: () => accTree({ name: 'accFig1', burstHosts: 20, rateBps: 100 * GBPS, delayPs: 2 * US }),
  },
  {
    name: 'accFig11',
    description: 'ACC Fig. 1 congestion tree with 15 burst hosts (Fig. 11), 100G, 2 us',
    build: () => accTree({ name: 'accFig11', burstHosts: 15, rateBps: 100 * GBPS, delayPs: 2 * US }),
  },
];

export function topologyPreset(name: string): Topology {
  const p = TOPOLOGY_PRESETS.find((x) => x.name === name);
  if (!p) throw new Error(`topology preset: unknown "${name}" (known: ${TOPOLOGY_PRESETS.map((x) => x.name).join(', ')})`);
  return p.build();
}
