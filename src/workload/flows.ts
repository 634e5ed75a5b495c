/** Explicitly listed flows (from a spec file or a test), validated. */
import { z } from 'zod';
import { durationField, hostId, prio, sizeField } from '../engine/spec-fields.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';
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
    if (f.sport !== undefined) g.sport = f.sport;
    if (f.dport !== undefined) g.dport = f.dport;
    out.push(g);
  }
  out.sort((a, b) => a.startPs - b.startPs);
  return out;
}

// ---------------------------------------------------------------------------------------------
// the `flows` workload type (docs/extending.md, "Adding a workload")

const explicitFlow = z
  .object({
    src: hostId,
    dst: hostId,
    size: sizeField(),
    start: durationField().default(0),
    prio: prio.optional(),
    tag: z.string().optional(),
    // UDP ports as another simulator numbered the flow, for replays (switch.loadBalancing: ns3Hash)
    sport: z.number().int().min(0).max(65535).optional(),
    dport: z.number().int().min(0).max(65535).optional(),
  })
  .strict();

const flowsSchema = z.object({ type: z.literal('flows'), flows: z.array(explicitFlow).min(1) }).strict();

export type FlowsEntry = z.output<typeof flowsSchema>;

function prepareFlows(w: FlowsEntry, ctx: WorkloadContext): PreparedWorkload {
  const ends = w.flows.map((f, j) => {
    const src = ctx.host(f.src, ['flows', j, 'src']);
    const dst = ctx.host(f.dst, ['flows', j, 'dst']);
    if (f.src === f.dst) ctx.error(['flows', j, 'dst'], 'same host as src', f.dst);
    return { src, dst };
  });
  let bytes = 0;
  for (const f of w.flows) bytes += f.size;
  const tags = new Set<string>();
  for (const f of w.flows) if (f.tag !== undefined) tags.add(f.tag);
  return {
    estimate: { flows: w.flows.length, bytes, receivers: ends.map((e) => e.dst) },
    tags: [...tags],
    flows(): FlowSpec[] {
      const list = w.flows.map((f, j) => {
        const x: FlowSpec = { src: ends[j]!.src, dst: ends[j]!.dst, bytes: f.size, startPs: f.start };
        if (f.prio !== undefined) x.prio = f.prio;
        if (f.tag !== undefined) x.tag = f.tag;
        if (f.sport !== undefined) x.sport = f.sport;
        if (f.dport !== undefined) x.dport = f.dport;
        return x;
      });
      return ctx.guard([], () => explicitFlows(list, ctx.hostCount));
    },
  };
}

/** `type: flows`: flows listed one by one. */
export const flowsWorkload: WorkloadDefinition<FlowsEntry> = {
  type: 'flows',
  summary: 'flows listed one by one (src, dst, size, start, prio, tag; sport, dport for ns3Hash replays)',
  schema: flowsSchema,
  startTimes: (w) => w.flows.map((f, j) => [['flows', j, 'start'], f.start] as const),
  prepare: prepareFlows,
};
