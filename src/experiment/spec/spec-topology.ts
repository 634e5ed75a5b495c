/**
 * The spec's `topology:` (docs/network-model.md §14): one schema per topology
 * type, builder fields with their units, presets and topology files.
 */
import { z } from 'zod';
import {
  CORE_WIRINGS,
  FAT_TREE_PRESET_NAMES,
  SPINE_LEAF_PRESET_NAMES,
  TOPOLOGY_FILE_FORMATS,
  TOPOLOGY_PRESETS,
} from '../../net/topology/index.js';
import { linkDelayField, posInt, rateField } from '../../engine/spec-fields.js';
import { torMeshTopo } from './spec-topology-change.js';
import { rdcnTopo } from './spec-rdcn.js';

// ---------------------------------------------------------------------------------------------
// topology

const nameOpt = z.string().min(1).optional();

const starTopo = z
  .object({ type: z.literal('star'), hosts: posInt, rate: rateField(), delay: linkDelayField(), name: nameOpt })
  .strict();

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

const accTreeTopo = z
  .object({ type: z.literal('accTree'), burstHosts: posInt, rate: rateField(), delay: linkDelayField(), name: nameOpt })
  .strict();

const presetTopo = z
  .object({ type: z.literal('preset'), preset: z.enum(TOPOLOGY_PRESETS.map((p) => p.name) as [string, ...string[]]) })
  .strict();

const linkTypeConfig = z.object({ rate: rateField(), delay: linkDelayField() }).strict();

const fileTopo = z
  .object({
    type: z.literal('file'),
    /** resolved relative to the spec file's directory */
    path: z.string().min(1),
    format: z.enum(TOPOLOGY_FILE_FORMATS as [string, ...string[]]).default('ccsim'),
    /** oscar format: rate and delay per link type (host, switch, switch-oversub, ...) */
    linkConfig: z.record(z.string(), linkTypeConfig).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.format === 'oscar' && t.linkConfig === undefined) {
      ctx.addIssue({ code: 'custom', path: ['linkConfig'], message: 'required for format oscar (rate and delay per link type)' });
    }
  });

export const topologySchema = z.discriminatedUnion('type', [
  starTopo,
  dumbbellTopo,
  parkingLotTopo,
  fatTreeTopo,
  spineLeafTopo,
  accCbdTopo,
  accTreeTopo,
  presetTopo,
  fileTopo,
  torMeshTopo,
  rdcnTopo,
]);

