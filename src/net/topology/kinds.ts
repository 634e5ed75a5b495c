/**
 * Every topology type a spec may name (`topology.type`): a `Registry` (engine/registry.ts)
 * of `TopologyDefinition`s keyed by `type`, in the order `ccsim list topologies` and the JSON
 * schema show them (docs/extending.md, "Adding a topology").
 *
 * A definition is its part of the spec schema (a strict zod object whose `type` is
 * `z.literal(type)`, fields with units from engine/spec-fields.ts, so `ccsim list`, the JSON
 * schema and the error messages come from it), an optional size estimate that the input
 * limits check before anything is built, and `build`, which turns a parsed entry into the
 * plain-data `Topology` (types.ts) the simulator instantiates. A built-in type is one
 * definition in a kinds-*.ts file plus one line here; a user's type in their own file
 * registers itself with `ccsim.registerTopology` from a plug-in module.
 *
 * A topology is data: whether a run on it may use the multi-threaded engine is decided from
 * the built topology (sim/parallel/parallel.ts), so a definition declares no capabilities.
 */
import { z } from 'zod';
import { Registry } from '../../engine/registry.js';
import { ACC_CBD_TOPOLOGY, ACC_TREE_TOPOLOGY, DUMBBELL_TOPOLOGY, FAT_TREE_TOPOLOGY, PARKING_LOT_TOPOLOGY, SPINE_LEAF_TOPOLOGY, STAR_TOPOLOGY } from './kinds-builders.js';
import { RDCN_TOPOLOGY, TOR_MESH_TOPOLOGY } from './kinds-circuits.js';
import { FILE_TOPOLOGY, PRESET_TOPOLOGY } from './kinds-named.js';
import type { Topology } from './types.js';

/** A field path below `topology`, e.g. `['failedLinks', 1]`. */
export type TopologyFieldPath = readonly (string | number)[];

/** Hosts and links of a topology (for links an upper bound is fine). */
export interface TopologySize {
  hosts: number;
  links: number;
}

/** A built topology plus the translation of spec node ids (a file's own ids) to topology ids. */
export interface BuiltTopology {
  topology: Topology;
  /** spec id → topology id; undefined = identity */
  newIds?: number[];
}

/** What a definition may ask while it builds (the experiment layer implements it). */
export interface TopologyContext {
  /** the spec file's folder (files the entry names are relative to it) */
  readonly specDir: string;
  /** the spec's input limits */
  readonly limits: { readonly hosts: number; readonly links: number; readonly fileBytes: number };
  /** Records a problem with the field at `path` (`value`: what to print; default the spec's value there). */
  error(path: TopologyFieldPath, message: string, value?: unknown): void;
  /** Runs `fn`; an exception becomes a problem at `path` and resolution stops. */
  guard<T>(path: TopologyFieldPath, fn: () => T): T;
  /** Stops resolution if a problem was recorded. */
  throwIfAny(): void;
  /** Records the problems of a topology above the input limits and stops if there are any. */
  checkSize(size: TopologySize): void;
}

/** A topology type: spec `topology.type` = `type`. */
export interface TopologyDefinition<E extends { type: string } = { type: string }> {
  readonly type: E['type'];
  /** one line for `ccsim list topologies` */
  readonly summary: string;
  /** the entry's schema: a strict zod object whose `type` is `z.literal(type)`; units convert on parse (engine/spec-fields.ts) */
  readonly schema: z.ZodType<E>;
  /** fields `ccsim list` shows as required although the schema makes them optional (required unless a preset is given) */
  readonly requiredUnlessPreset?: readonly string[];
  /** Hosts and links the entry will build, checked against the input limits before building; absent: checked once built. */
  estimate?(entry: E): TopologySize | undefined;
  /** Builds the topology; a thrown Error is a problem at `topology` (use `ctx` to name a field). */
  build(entry: E, ctx: TopologyContext): Topology | BuiltTopology;
}

export const topologyRegistry = new Registry<TopologyDefinition>({ kind: 'topology type', key: (d) => d.type });

/** Adds a topology type; a type name may be registered once. `source` names where it comes from (default `built-in`). */
export function registerTopology<E extends { type: string }>(def: TopologyDefinition<E>, source?: string): void {
  // the spec's union picks a definition by its schema's `type`: it must be the name registered
  const shape = def.schema instanceof z.ZodObject ? (def.schema.shape as Record<string, unknown>) : undefined;
  const literal = shape?.['type'];
  if (!(literal instanceof z.ZodLiteral) || literal.value !== def.type) {
    throw new Error(`topology type "${String(def.type)}" from ${source ?? 'built-in'}: its schema must be a zod object whose type is z.literal('${String(def.type)}')`);
  }
  topologyRegistry.register(def as unknown as TopologyDefinition, source);
}

registerTopology(STAR_TOPOLOGY);
registerTopology(DUMBBELL_TOPOLOGY);
registerTopology(PARKING_LOT_TOPOLOGY);
registerTopology(FAT_TREE_TOPOLOGY);
registerTopology(SPINE_LEAF_TOPOLOGY);
registerTopology(ACC_CBD_TOPOLOGY);
registerTopology(ACC_TREE_TOPOLOGY);
registerTopology(TOR_MESH_TOPOLOGY);
registerTopology(RDCN_TOPOLOGY);
registerTopology(PRESET_TOPOLOGY);
registerTopology(FILE_TOPOLOGY);
