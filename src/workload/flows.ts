/** Explicitly listed flows (from a spec file or a test), validated. */
import type { FlowSpec } from './types.js';

/** An explicitly listed flow has exactly the fields of a FlowSpec. */
export type ExplicitFlow = FlowSpec;

/**
 * Returns copies sorted by start time (stable), checking the host ids against
 * a network of `hostCount` hosts, e.g. `flows[3].dst: 400 is not a host (0..319)`.
 */
export function explicitFlows(list: ExplicitFlow[], hostCount: number): FlowSpec[] {
  // values are validated by the spec schema (sizes, times, priorities) and resolve.ts (host ids);
  // only what needs the topology's host count is checked here
  const out: FlowSpec[] = [];
  for (let i = 0; i < list.length; i++) {
    const f = list[i]!;
    for (const k of ['src', 'dst'] as const) {
      if (f[k] < 0 || f[k] >= hostCount) throw new Error(`flows[${i}].${k}: ${f[k]} is not a host (0..${hostCount - 1})`);
    }
    if (f.src === f.dst) throw new Error(`flows[${i}].dst: ${f.dst} is the same host as src`);
    const g: FlowSpec = { src: f.src, dst: f.dst, bytes: f.bytes, startPs: f.startPs };
    if (f.prio !== undefined) g.prio = f.prio;
    if (f.tag !== undefined) g.tag = f.tag;
    out.push(g);
  }
  out.sort((a, b) => a.startPs - b.startPs);
  return out;
}
