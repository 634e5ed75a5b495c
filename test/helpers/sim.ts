/** Small builders for tests that drive `simulate` directly. */
import { deepMerge, profileDefaults, type NetworkConfig, type ProfileName } from '../../src/net/config.js';
import type { Topology } from '../../src/net/topology/types.js';
import type { FlowSpec } from '../../src/workload/types.js';
import { noMetrics, type MetricsRequest, type SimInput } from '../../src/sim/types.js';

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

export function net(profile: ProfileName, over: DeepPartial<NetworkConfig> = {}): NetworkConfig {
  return deepMerge(profileDefaults(profile), over);
}


export function input(
  topology: Topology,
  flows: FlowSpec[],
  o: { net?: NetworkConfig; cc?: string; params?: Record<string, unknown>; seed?: number; metrics?: Partial<MetricsRequest>; stopAtPs?: number | null } = {},
): SimInput {
  return {
    seed: o.seed ?? 1,
    topology,
    net: o.net ?? profileDefaults('oscar'),
    cc: { name: o.cc ?? 'none', params: o.params ?? {} },
    flows,
    stopAtPs: o.stopAtPs ?? null,
    maxTimePs: 1e12,
    linkEvents: [],
    metrics: { ...noMetrics(), ...(o.metrics ?? {}) },
  };
}
