/** Explicitly listed flows (from a spec file or a test), validated. */
import type { FlowSpec } from './types.js';

/** An explicitly listed flow has exactly the fields of a FlowSpec. */
export type ExplicitFlow = FlowSpec;

/**
 * Checks every flow against a network of `hostCount` hosts (ids 0..hostCount-1)
 * and returns copies sorted by start time (stable). Errors name the index,
 * field and value, e.g. `flows[3].dst: 400 is not a host (0..319)`.
 */
export function explicitFlows(list: ExplicitFlow[], hostCount: number): FlowSpec[] {
  if (!Number.isInteger(hostCount) || hostCount < 1) {
    throw new Error(`explicit flows: hostCount must be an integer >= 1, got ${hostCount}`);
  }
  const out: FlowSpec[] = [];
  for (let i = 0; i < list.length; i++) {
    const f = list[i]!;
    const at = `flows[${i}]`;
    for (const k of ['src', 'dst'] as const) {
      const v = f[k];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= hostCount) {
        throw new Error(`${at}.${k}: ${String(v)} is not a host (0..${hostCount - 1})`);
      }
    }
    if (f.src === f.dst) throw new Error(`${at}.dst: ${f.dst} is the same host as src`);
    if (typeof f.bytes !== 'number' || !Number.isSafeInteger(f.bytes) || f.bytes < 1) {
      throw new Error(`${at}.bytes: ${String(f.bytes)} must be an integer >= 1`);
    }
    if (typeof f.startPs !== 'number' || !Number.isSafeInteger(f.startPs) || f.startPs < 0) {
      throw new Error(`${at}.startPs: ${String(f.startPs)} must be an integer >= 0 (ps)`);
    }
    if (f.prio !== undefined && (typeof f.prio !== 'number' || !Number.isInteger(f.prio) || f.prio < 0 || f.prio > 7)) {
      throw new Error(`${at}.prio: ${String(f.prio)} is not a priority class (0..7)`);
    }
    if (f.tag !== undefined && typeof f.tag !== 'string') {
      throw new Error(`${at}.tag: ${String(f.tag)} must be a string`);
    }
    const g: FlowSpec = { src: f.src, dst: f.dst, bytes: f.bytes, startPs: f.startPs };
    if (f.prio !== undefined) g.prio = f.prio;
    if (f.tag !== undefined) g.tag = f.tag;
    out.push(g);
  }
  out.sort((a, b) => a.startPs - b.startPs);
  return out;
}
