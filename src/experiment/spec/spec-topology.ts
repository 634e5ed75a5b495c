/**
 * The spec's `topology:` (docs/network-model.md §14): the registered topology types'
 * schemas (net/topology/kinds.ts), chosen by `type`, so a type a plug-in registers is
 * checked, listed and described in the JSON schema like a built-in one.
 */
import { z } from 'zod';
import { topologyRegistry } from '../../net/topology/index.js';

/** `topology:` as parsed: its type's fields (units converted), by its `type`. */
export type TopologySpec = { type: string } & Record<string, unknown>;

let cache: { version: number; schema: z.ZodType<TopologySpec> } | undefined;

/** The schema of `topology:`, built when first used and again after a type is registered. */
export function topologyEntrySchema(): z.ZodType<TopologySpec> {
  const version = topologyRegistry.version;
  if (cache === undefined || cache.version !== version) {
    const options = topologyRegistry.values().map((d) => d.schema) as unknown as [z.ZodObject, ...z.ZodObject[]];
    cache = { version, schema: z.discriminatedUnion('type', options) as unknown as z.ZodType<TopologySpec> };
  }
  return cache.schema;
}

/** `topology:` of a spec (the registered types, looked up when a spec is parsed). */
export const topologySchema: z.ZodType<TopologySpec> = z.lazy(topologyEntrySchema);
