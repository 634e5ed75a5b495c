/**
 * The PowerTCP paper's traffic (PowerTCP NSDI'22 §4.1; docs/network-model.md
 * §12.2 `ptGenerator`, §12.3 query generator):
 *
 * - racks: hosts grouped by the switch they attach to (their ToR), racks in
 *   ToR node-id order;
 * - background sources and destinations under `ptGenerator`:
 *   `paper`    every server generates, destinations uniform over all other hosts;
 *   `artifact` only the first two racks generate (the artifact's LEAF_COUNT = 2),
 *              a rack-r host sends to hosts [r·rackSize, 2·rackSize) (so rack 0 to
 *              both racks, rack 1 only inside its own), redrawn if equal to itself;
 * - load is relative to a server's share of its ToR's uplinks (uplink capacity /
 *   hosts in the rack: 200 G / 32 = 6.25 Gb/s on the 256-host tree);
 * - queries: each requesting server issues Poisson requests; a request picks a
 *   target rack other than its own (`paper`: a global counter cycles over the
 *   other racks; `artifact`: always the other rack of the first pair), draws
 *   `fan` responders uniformly with replacement from it, and each responder sends
 *   floor(requestSize / fan) bytes to the requester at the request time.
 */
import { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import { durationField, posInt, prio, sizeField } from '../engine/spec-fields.js';
import { MS, NS, SEC } from '../engine/units.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';
import type { Topology } from '../net/topology/types.js';
import type { FlowSpec } from './types.js';

export type PtGenerator = 'paper' | 'artifact';
export const PT_GENERATORS: readonly PtGenerator[] = ['paper', 'artifact'];

/** Number of racks the artifact's generators use (LEAF_COUNT, a code default). */
export const PT_ARTIFACT_RACKS = 2;

export interface Racks {
  /** ToR switch node id per rack, ascending */
  tors: number[];
  /** hosts per rack, ascending */
  hosts: number[][];
  /** rack index per host (-1: a host attached to no switch) */
  rackOf: Int32Array;
  /** per rack, the summed rate of the ToR's links to other switches, bps */
  uplinkBps: number[];
}

/** Groups the hosts by their ToR (the switch of a host's first link). */
export function racksOf(topo: Topology): Racks {
  const H = topo.hostCount;
  const torOfHost = new Int32Array(H).fill(-1);
  for (const l of topo.links) {
    if (l.a < H && l.b >= H && torOfHost[l.a] === -1) torOfHost[l.a] = l.b;
    if (l.b < H && l.a >= H && torOfHost[l.b] === -1) torOfHost[l.b] = l.a;
  }
  const tors = [...new Set(Array.from(torOfHost).filter((t) => t >= 0))].sort((a, b) => a - b);
  const index = new Map<number, number>();
  tors.forEach((t, i) => index.set(t, i));
  const hosts: number[][] = tors.map(() => []);
  const rackOf = new Int32Array(H).fill(-1);
  for (let h = 0; h < H; h++) {
    const t = torOfHost[h]!;
    if (t < 0) continue;
    const r = index.get(t)!;
    rackOf[h] = r;
    hosts[r]!.push(h);
  }
  const uplinkBps = tors.map(() => 0);
  for (const l of topo.links) {
    if (l.a < H || l.b < H) continue;
    const ra = index.get(l.a);
    const rb = index.get(l.b);
    if (ra !== undefined) uplinkBps[ra]! += l.rateBps;
    if (rb !== undefined) uplinkBps[rb]! += l.rateBps;
  }
  return { tors, hosts, rackOf, uplinkBps };
}

/** A server's share of its ToR's uplinks (the rate PowerTCP's `load` refers to), bps. */
export function uplinkShareBps(racks: Racks, host: number): number {
  const r = racks.rackOf[host]!;
  if (r < 0) throw new Error(`host ${host} is not attached to a switch`);
  return racks.uplinkBps[r]! / racks.hosts[r]!.length;
}

/** One group of background sources that share a destination set. */
export interface SourceGroup {
  sources: number[];
  destinations: number[];
}

/** Background sources and destinations of a PowerTCP workload run (see the file comment). */
export function ptBackgroundGroups(topo: Topology, mode: PtGenerator): SourceGroup[] {
  const racks = racksOf(topo);
  if (mode === 'paper') {
    const all = Array.from({ length: topo.hostCount }, (_, i) => i);
    return [{ sources: all, destinations: all }];
  }
  const groups = artifactRacks(racks);
  const pairHosts = groups.flat();
  return groups.map((hs, r) => ({ sources: hs, destinations: pairHosts.filter((h) => racks.rackOf[h]! >= r) }));
}

function artifactRacks(racks: Racks): number[][] {
  if (racks.tors.length < PT_ARTIFACT_RACKS) {
    throw new Error(`ptGenerator artifact needs at least ${PT_ARTIFACT_RACKS} racks; the topology has ${racks.tors.length}`);
  }
  return racks.hosts.slice(0, PT_ARTIFACT_RACKS);
}

export interface PtQueryOptions {
  topology: Topology;
  mode: PtGenerator;
  /** requests per second per requesting server */
  requestRatePerSec: number;
  /** bytes per request, split over the responders */
  requestBytes: number;
  /** responders per request (the artifact's --incast, 10) */
  fan: number;
  startPs: number;
  /** requests are issued while t < startPs + durationPs */
  durationPs: number;
  /** gaps from rng.fork('query/' + host), responders from rng.fork('query/pick') */
  rng: Rng;
  prio?: number;
  tag?: string;
}

/**
 * Query (incast) flows. Requesters are handled in ascending host order, each
 * issuing its whole request sequence; the paper mode's rack counter advances
 * once per request in that order. Sorted by (start, requester order).
 */
export function ptQueryFlows(o: PtQueryOptions): FlowSpec[] {
  if (!(o.requestRatePerSec > 0) || !Number.isFinite(o.requestRatePerSec)) {
    throw new Error(`query: requestRate must be a number > 0, got ${o.requestRatePerSec}`);
  }
  if (!Number.isInteger(o.fan) || o.fan < 1) throw new Error(`query: fan must be an integer >= 1, got ${o.fan}`);
  if (!Number.isSafeInteger(o.requestBytes) || o.requestBytes < o.fan) {
    throw new Error(`query: requestSize must be an integer >= fan (${o.fan}) bytes, got ${o.requestBytes}`);
  }
  const racks = racksOf(o.topology);
  const R = racks.tors.length;
  if (R < 2) throw new Error(`query: needs at least 2 racks (hosts under different switches); the topology has ${R}`);
  const requesters = o.mode === 'paper' ? racks.hosts.flat().sort((a, b) => a - b) : artifactRacks(racks).flat();
  const meanGapNs = SEC / NS / o.requestRatePerSec;
  const endPs = o.startPs + o.durationPs;
  const each = Math.floor(o.requestBytes / o.fan);
  const pick = o.rng.fork('query/pick');
  const tag = o.tag ?? 'query';
  let counter = 0;
  const flows: FlowSpec[] = [];
  for (const h of requesters) {
    const own = racks.rackOf[h]!;
    const gaps = o.rng.fork('query/' + h);
    let t = o.startPs;
    for (;;) {
      t += Math.floor(gaps.exponential(meanGapNs)) * NS;
      if (t >= endPs) break;
      const target = o.mode === 'paper' ? (own + 1 + (counter++ % (R - 1))) % R : 1 - own;
      const pool = racks.hosts[target]!;
      for (let j = 0; j < o.fan; j++) {
        const f: FlowSpec = { src: pool[pick.int(pool.length)]!, dst: h, bytes: each, startPs: t, tag };
        if (o.prio !== undefined) f.prio = o.prio;
        flows.push(f);
      }
    }
  }
  return flows.map((f, k) => ({ f, k })).sort((a, b) => a.f.startPs - b.f.startPs || a.k - b.k).map((x) => x.f);
}

// ---------------------------------------------------------------------------------------------
// the `query` workload type (docs/extending.md, "Adding a workload")

/**
 * PowerTCP's query (incast) generator (PowerTCP §4.1; docs/network-model.md §12.3): every
 * requesting server issues Poisson requests at `requestRate`/s; each request asks `fan`
 * servers of another rack (drawn with replacement) for requestSize/fan bytes each.
 */
const querySchema = z
  .object({
    type: z.literal('query'),
    /** requests per second per requesting server */
    requestRate: z.number().gt(0),
    requestSize: sizeField(),
    fan: posInt.default(10),
    /** who requests: `paper` every server (from start, default 0.1 s); `artifact` the first two racks, from 0 */
    ptGenerator: z.enum(['paper', 'artifact']).default('paper'),
    /** default 100 ms (`paper`) or 0 (`artifact`, QUERY_START_TIME 0) */
    start: durationField().optional(),
    duration: durationField({ positive: true }),
    prio: prio.optional(),
    tag: z.string().default('query'),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.requestSize < w.fan) ctx.addIssue({ code: 'custom', path: ['requestSize'], message: `must be at least fan (${w.fan}) bytes` });
  });

export type QueryEntry = z.output<typeof querySchema>;

/** When the query traffic starts: `start`, else 100 ms (`paper`) or 0 (`artifact`). */
function queryStartPs(w: QueryEntry): number {
  return w.start ?? (w.ptGenerator === 'artifact' ? 0 : 100 * MS);
}

function prepareQuery(w: QueryEntry, ctx: WorkloadContext): PreparedWorkload {
  const racks = ctx.racks().tors.length;
  if (racks < 2) ctx.error(['type'], `needs at least 2 racks (hosts under different switches); the topology has ${racks}`);
  // one requesting server per rack, requestRate requests/s, each answered by `fan` flows of requestSize/fan
  const requests = racks * w.requestRate * (w.duration / 1e12);
  return {
    estimate: { flows: requests * w.fan, bytes: requests * w.requestSize, receivers: 'all' },
    tags: [w.tag],
    flows(rng: Rng): FlowSpec[] {
      const startPs = queryStartPs(w);
      return ctx.guard([], () =>
        ptQueryFlows({
          topology: ctx.topology,
          mode: w.ptGenerator,
          requestRatePerSec: w.requestRate,
          requestBytes: w.requestSize,
          fan: w.fan,
          startPs,
          durationPs: w.duration,
          rng,
          tag: w.tag,
          ...(w.prio !== undefined ? { prio: w.prio } : {}),
        }),
      );
    },
  };
}

/** `type: query`: PowerTCP's query (incast) traffic (PowerTCP §4.1). */
export const queryWorkload: WorkloadDefinition<QueryEntry> = {
  type: 'query',
  summary: "PowerTCP's query traffic: Poisson requests, each answered by `fan` servers of another rack",
  schema: querySchema,
  // the default start counts too: a run that stops before 100 ms would otherwise generate none of its flows
  startTimes: (w) => (w.start !== undefined ? [[['start'], w.start]] : [[['start'], queryStartPs(w), `the query traffic (its default start, ptGenerator ${w.ptGenerator})`]]),
  prepare: prepareQuery,
};
