/**
 * Every workload type a spec may name (`workload[i].type`), in the order
 * `ccsim list` shows them: a `Registry` (engine/registry.ts) keyed by `type`.
 * A new built-in type is one file with its `WorkloadDefinition` plus one line
 * here; a user's type in their own file registers itself with
 * `registerWorkload` from a plug-in module, and a test or script may call it
 * before the spec is parsed (docs/extending.md, "Adding a workload").
 */
import { Registry } from '../engine/registry.js';
import { collectiveWorkload } from './collective.js';
import { flowsWorkload } from './flows.js';
import { incastWorkload } from './incast.js';
import { parameterServerWorkload } from './parameter-server.js';
import { passesWorkload } from './passes.js';
import type { WorkloadDefinition } from './plugin.js';
import { poissonWorkload } from './poisson.js';
import { queryWorkload } from './powertcp.js';

export const workloadRegistry = new Registry<WorkloadDefinition<{ type: string }>>({ kind: 'workload type', key: (d) => d.type });

/** Adds a workload type; a type name may be registered once. `source` names where it comes from (default `built-in`). */
export function registerWorkload<E extends { type: string }>(def: WorkloadDefinition<E>, source?: string): void {
  workloadRegistry.register(def as unknown as WorkloadDefinition<{ type: string }>, source);
}

registerWorkload(poissonWorkload);
registerWorkload(incastWorkload);
registerWorkload(flowsWorkload);
registerWorkload(queryWorkload);
registerWorkload(collectiveWorkload);
registerWorkload(parameterServerWorkload);
registerWorkload(passesWorkload);

/** The definition of workload type `type`, if registered. */
export function findWorkload(type: string): WorkloadDefinition<{ type: string }> | undefined {
  return workloadRegistry.find(type);
}

/** Every registered definition, in registration order. */
export function workloadDefinitions(): WorkloadDefinition<{ type: string }>[] {
  return workloadRegistry.values();
}

/** Changes whenever a type is registered (schemas built from the registry cache on it). */
export function workloadRegistryVersion(): number {
  return workloadRegistry.version;
}
