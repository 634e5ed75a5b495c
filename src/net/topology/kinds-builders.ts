/**
 * The topology types built from a few numbers (docs/network-model.md §14): star, dumbbell,
 * parking lot, fat tree, spine-leaf and ACC's two small topologies, each as a
 * `TopologyDefinition` (kinds.ts): its spec fields with units, its size before building and
 * the builder it calls (builders.ts, acc.ts).
 */
import { z } from 'zod';
import { errorMessage } from '../../engine/errors.js';
import { linkDelayField, posInt, rateField } from '../../engine/spec-fields.js';
import { accCbd, accTree, type AccCbdOptions, type AccTreeOptions } from './acc.js';
import {
  CORE_WIRINGS,
  FAT_TREE_PRESET_NAMES,
  SPINE_LEAF_PRESET_NAMES,
  dumbbell,
  fatTree,
  fatTreePreset,
  fatTreePresetOptions,
  parkingLot,
  spineLeaf,
  spineLeafPreset,
  spineLeafPresetOptions,
  star,
  type DumbbellOptions,
  type FatTreeOptions,
  type FatTreePresetName,
  type ParkingLotOptions,
  type SpineLeafOptions,
  type SpineLeafPresetName,
  type StarOptions,
} from './builders.js';
import type { TopologyContext, TopologyDefinition, TopologyFieldPath } from './kinds.js';

/**
 * Spec topology field → builder option. The builders name unit-bearing options by their
 * unit (rateBps, delayPs); everything else has the same name, so the translation is this
 * table, not a copy per field.
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

/** The builder options of a parsed spec entry: the fields it sets (without `type` and `preset`), renamed by BUILDER_KEY. */
export function builderOptions(t: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t)) {
    if (v === undefined || k === 'type' || k === 'preset') continue;
    o[BUILDER_KEY[k] ?? k] = v;
  }
  return o;
}

const nameOpt = z.string().min(1).optional();

// ---------------------------------------------------------------------------------------------
// star, dumbbell, parking lot

const starTopo = z.object({ type: z.literal('star'), hosts: posInt, rate: rateField(), delay: linkDelayField(), name: nameOpt }).strict();

export const STAR_TOPOLOGY: TopologyDefinition<z.output<typeof starTopo>> = {
  type: 'star',
  summary: 'N hosts on one switch (incast / N-to-1 micro-benchmarks)',
  schema: starTopo,
  estimate: (t) => ({ hosts: t.hosts, links: t.hosts }),
  build: (t) => star(builderOptions(t) as unknown as StarOptions),
};

const dumbbellTopo = z
  .object({
    type: z.literal('dumbbell'),
    left: posInt,
    right: posInt,
    hostRate: rateField(),
    /** default: hostRate */
    bottleneckRate: rateField().optional(),
    delay: linkDelayField(),
    name: nameOpt,
  })
  .strict();

export const DUMBBELL_TOPOLOGY: TopologyDefinition<z.output<typeof dumbbellTopo>> = {
  type: 'dumbbell',
  summary: 'left hosts on switch A, right hosts on switch B, A–B bottleneck link',
  schema: dumbbellTopo,
  estimate: (t) => ({ hosts: t.left + t.right, links: t.left + t.right + 1 }),
  build: (t) => {
    const o = builderOptions(t);
    o['bottleneckRateBps'] ??= t.hostRate;
    return dumbbell(o as unknown as DumbbellOptions);
  },
};

const parkingLotTopo = z
  .object({
    type: z.literal('parkingLot'),
    switches: posInt,
    hostsPerSwitch: posInt.default(1),
    rate: rateField(),
    delay: linkDelayField(),
    name: nameOpt,
  })
  .strict();

export const PARKING_LOT_TOPOLOGY: TopologyDefinition<z.output<typeof parkingLotTopo>> = {
  type: 'parkingLot',
  summary: 'chain of switches with hosts on each (multi-bottleneck fairness)',
  schema: parkingLotTopo,
  estimate: (t) => ({ hosts: t.switches * t.hostsPerSwitch, links: t.switches * t.hostsPerSwitch + t.switches }),
  build: (t) => parkingLot(builderOptions(t) as unknown as ParkingLotOptions),
};

// ---------------------------------------------------------------------------------------------
// fat tree

export const FAT_TREE_REQUIRED = ['pods', 'edgesPerPod', 'aggsPerPod', 'hostsPerEdge', 'cores', 'hostRate', 'fabricRate'] as const;

const fatTreeTopo = z
  .object({
    type: z.literal('fatTree'),
    /** start from a named fat tree; the other fields override it */
    preset: z.enum(FAT_TREE_PRESET_NAMES as [string, ...string[]]).optional(),
    pods: posInt.optional(),
    edgesPerPod: posInt.optional(),
    aggsPerPod: posInt.optional(),
    hostsPerEdge: posInt.optional(),
    cores: posInt.optional(),
    hostRate: rateField().optional(),
    fabricRate: rateField().optional(),
    aggCoreRate: rateField().optional(),
    /** sets hostDelay, edgeAggDelay and aggCoreDelay */
    delay: linkDelayField().optional(),
    hostDelay: linkDelayField().optional(),
    edgeAggDelay: linkDelayField().optional(),
    aggCoreDelay: linkDelayField().optional(),
    coreWiring: z.enum(CORE_WIRINGS as [string, ...string[]]).optional(),
    name: nameOpt,
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.preset !== undefined) return;
    for (const k of FAT_TREE_REQUIRED) {
      if (t[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'required unless a preset is given' });
    }
    const perTier = ['hostDelay', 'edgeAggDelay', 'aggCoreDelay'] as const;
    if (t.delay === undefined && perTier.some((k) => t[k] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['delay'],
        message: 'required unless a preset is given (or set all of hostDelay, edgeAggDelay, aggCoreDelay)',
      });
    }
  });
type FatTreeSpec = z.output<typeof fatTreeTopo>;

/** Fat-tree builder options of an entry: `delay` sets all three tiers, a per-tier delay overrides it. */
function fatTreeOptions(t: FatTreeSpec): Partial<FatTreeOptions> {
  const o = builderOptions(t);
  if (t.delay !== undefined) {
    delete o['delayPs'];
    o['hostDelayPs'] = t.hostDelay ?? t.delay;
    o['edgeAggDelayPs'] = t.edgeAggDelay ?? t.delay;
    o['aggCoreDelayPs'] = t.aggCoreDelay ?? t.delay;
  }
  return o as Partial<FatTreeOptions>;
}

export const FAT_TREE_TOPOLOGY: TopologyDefinition<FatTreeSpec> = {
  type: 'fatTree',
  summary: 'three-tier pod fat tree (edge/agg/core) with selectable core wiring',
  schema: fatTreeTopo,
  requiredUnlessPreset: FAT_TREE_REQUIRED,
  estimate: (t) => {
    const o = { ...(t.preset !== undefined ? fatTreePresetOptions(t.preset as FatTreePresetName) : {}), ...fatTreeOptions(t) };
    const [pods, epp, app, hpe, cores] = [o.pods ?? 1, o.edgesPerPod ?? 1, o.aggsPerPod ?? 1, o.hostsPerEdge ?? 1, o.cores ?? 1];
    const hosts = pods * epp * hpe;
    return { hosts, links: hosts + pods * epp * app + pods * app * cores };
  },
  build: (t) => {
    const o = fatTreeOptions(t);
    if (t.preset !== undefined) return fatTreePreset(t.preset as FatTreePresetName, o);
    return fatTree({ coreWiring: 'strided', ...o } as FatTreeOptions);
  },
};

// ---------------------------------------------------------------------------------------------
// spine-leaf

export const SPINE_LEAF_REQUIRED = ['spines', 'leaves', 'hostsPerLeaf', 'hostRate', 'fabricRate', 'delay'] as const;

const spineLeafTopo = z
  .object({
    type: z.literal('spineLeaf'),
    preset: z.enum(SPINE_LEAF_PRESET_NAMES as [string, ...string[]]).optional(),
    spines: posInt.optional(),
    leaves: posInt.optional(),
    hostsPerLeaf: posInt.optional(),
    hostRate: rateField().optional(),
    fabricRate: rateField().optional(),
    delay: linkDelayField().optional(),
    name: nameOpt,
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.preset !== undefined) return;
    for (const k of SPINE_LEAF_REQUIRED) {
      if (t[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'required unless a preset is given' });
    }
  });

export const SPINE_LEAF_TOPOLOGY: TopologyDefinition<z.output<typeof spineLeafTopo>> = {
  type: 'spineLeaf',
  summary: 'two-tier leaf-spine, every leaf to every spine',
  schema: spineLeafTopo,
  requiredUnlessPreset: SPINE_LEAF_REQUIRED,
  estimate: (t) => {
    const o = { ...(t.preset !== undefined ? spineLeafPresetOptions(t.preset as SpineLeafPresetName) : {}), ...builderOptions(t) } as Partial<SpineLeafOptions>;
    const hosts = (o.leaves ?? 1) * (o.hostsPerLeaf ?? 1);
    return { hosts, links: hosts + (o.leaves ?? 1) * (o.spines ?? 1) };
  },
  build: (t) => {
    const o = builderOptions(t) as Partial<SpineLeafOptions>;
    if (t.preset !== undefined) return spineLeafPreset(t.preset as SpineLeafPresetName, o);
    return spineLeaf(o as SpineLeafOptions);
  },
};

// ---------------------------------------------------------------------------------------------
// ACC

const switchLabel = z.string().min(1);
const accCbdTopo = z
  .object({
    type: z.literal('accCbd'),
    hostsPerTor: posInt.default(8),
    /** host links */
    rate: rateField(),
    /** ToR–upper links; default `rate` */
    fabricRate: rateField().optional(),
    delay: linkDelayField(),
    /** removed upper–ToR links as [L0|L1, T0..T3] pairs; default ACC Fig. 12's [[L0, T3], [L1, T0]] */
    failedLinks: z.array(z.tuple([switchLabel, switchLabel])).optional(),
    name: nameOpt,
  })
  .strict();

/** A builder complaint about failedLinks[i] is reported at topology.failedLinks[i]. */
function accCbdBuild(t: z.output<typeof accCbdTopo>, ctx: TopologyContext) {
  try {
    return accCbd(builderOptions(t) as unknown as AccCbdOptions);
  } catch (e) {
    const msg = errorMessage(e);
    const r = /^accCbd\.failedLinks(?:\[(\d+)\])?/.exec(msg);
    const path: TopologyFieldPath = r === null ? [] : r[1] !== undefined ? ['failedLinks', Number(r[1])] : ['failedLinks'];
    ctx.error(path, msg.replace(/^accCbd\.failedLinks(\[\d+\])?: /, ''));
    ctx.throwIfAny();
    throw e;
  }
}

export const ACC_CBD_TOPOLOGY: TopologyDefinition<z.output<typeof accCbdTopo>> = {
  type: 'accCbd',
  summary: 'ACC cyclic-buffer-dependency unit: 4 ToRs, 2 uppers, failed links (default L0-T3, L1-T0)',
  schema: accCbdTopo,
  estimate: (t) => ({ hosts: 4 * t.hostsPerTor, links: 4 * t.hostsPerTor + 16 }),
  build: accCbdBuild,
};

const accTreeTopo = z.object({ type: z.literal('accTree'), burstHosts: posInt, rate: rateField(), delay: linkDelayField(), name: nameOpt }).strict();

export const ACC_TREE_TOPOLOGY: TopologyDefinition<z.output<typeof accTreeTopo>> = {
  type: 'accTree',
  summary: 'ACC Fig. 1 congestion tree: chain SW1-SW4, S0/S1 on SW1, R0/R1 and N burst hosts on SW4',
  schema: accTreeTopo,
  estimate: (t) => ({ hosts: t.burstHosts + 16, links: t.burstHosts + 64 }),
  build: (t) => accTree(builderOptions(t) as unknown as AccTreeOptions),
};
