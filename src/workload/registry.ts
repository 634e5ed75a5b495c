/**
 * Every workload type a spec may name (`workload[i].type`), in the order
 * `ccsim list` shows them. A new type is one file with its
 * `WorkloadDefinition` plus one line here, or, from outside src/ (a test, a
 * script), one `registerWorkload(def)` call before the spec is parsed
 * (docs/extending.md, "Adding a workload").
 */
import { collectiveWorkload } from './collective.js';
import { flowsWorkload } from './flows.js';
import { incastWorkload } from './incast.js';
import { parameterServerWorkload } from './parameter-server.js';
import type { WorkloadDefinition } from './plugin.js';
import { poissonWorkload } from './poisson.js';
import { queryWorkload } from './powertcp.js';

const WORKLOADS = new Map<string, WorkloadDefinition<never>>();
let version = 0;

/** Adds a workload type; a type name may be registered once. */
export function registerWorkload<E extends { type: string }>(def: WorkloadDefinition<E>): void {
  if (WORKLOADS.has(def.type)) throw new Error(`workload type "${def.type}" is already registered`);
  WORKLOADS.set(def.type, def as unknown as WorkloadDefinition<never>);
  version++;
}

registerWorkload(poissonWorkload);
registerWorkload(incastWorkload);
registerWorkload(flowsWorkload);
registerWorkload(queryWorkload);
registerWorkload(collectiveWorkload);
registerWorkload(parameterServerWorkload);

/** The definition of workload type `type`, if registered. */
export function findWorkload(type: string): WorkloadDefinition<{ type: string }> | undefined {
  return WORKLOADS.get(type) as WorkloadDefinition<{ type: string }> | undefined;
}

/** Every registered definition, in registration order. */
export function workloadDefinitions(): WorkloadDefinition<{ type: string }>[] {
  return [...WORKLOADS.values()] as WorkloadDefinition<{ type: string }>[];
}

/** Changes whenever a type is registered (schemas built from the registry cache on it). */
export function workloadRegistryVersion(): number {
  return version;
}
