/**
 * Poisson background traffic (docs/network-model.md §12.2): every source host is an
 * independent Poisson process of flow arrivals whose mean rate makes the
 * offered load `load` of `refRateBps` (the host link, or a per-host share of
 * the ToR uplinks, as the profile decides).
 */
import { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import { durationField, hostSelection, loadField, prio, rateField } from '../engine/spec-fields.js';
import { NS, SEC } from '../engine/units.js';
import { sampleCdf, type Cdf } from './cdf.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';
import { ptBackgroundGroups, uplinkShareBps } from './powertcp.js';
import type { FlowSpec, FlowStream } from './types.js';

export interface PoissonOptions {
  /** generating hosts, each an independent process */
  sources: number[];
  /** candidate destinations; a source never sends to itself */
  destinations: number[];
  cdf: Cdf;
  /** offered load as a fraction of refRateBps, per source */
  load: number;
  refRateBps: number;
  startPs: number;
  /** arrivals are kept while start < startPs + durationPs */
  durationPs: number;
  /**
   * Each source draws from `rng.fork('poisson/' + src)`, so two generators
   * given the same rng produce the same arrivals: pass distinct streams.
   */
  rng: Rng;
  prio?: number;
  tag?: string;
}

/** Mean inter-arrival gap in ps (unquantized) for one source. */
export function poissonMeanGapPs(meanBytes: number, refRateBps: number, load: number): number {
  return ((meanBytes * 8) / (refRateBps * load)) * SEC;
}

/** Checks what only the generator can see; returns the mean gap in ns, or null when there are no arrivals. */
function checkPoisson(o: PoissonOptions): number | null {
  // option values (load, rates, times, host ids, priorities) are validated once, by the spec schema
  // and resolve.ts; what is checked here needs the generator's own view
  if (!(o.cdf.meanBytes > 0)) throw new Error(`poisson: workload "${o.cdf.name}" has mean size ${o.cdf.meanBytes}; it must be > 0`);
  if (o.load === 0 || o.durationPs === 0 || o.sources.length === 0) return null;
  for (const s of o.sources) {
    if (!o.destinations.some((d) => d !== s)) {
      throw new Error(`poisson: source ${s} has no destination other than itself (destinations: [${o.destinations.join(', ')}])`);
    }
  }
  const meanGapNs = poissonMeanGapPs(o.cdf.meanBytes, o.refRateBps, o.load) / NS;
  if (!(meanGapNs >= 1)) {
    throw new Error(`poisson: mean gap ${meanGapNs} ns is below the 1 ns arrival resolution (load too high or flows too small)`);
  }
  return meanGapNs;
}

/** One source's arrival process: its next arrival after `t`, or null past the end. */
class PoissonSource {
  private readonly rng: Rng;
  private t: number;

  constructor(
    private readonly o: PoissonOptions,
    readonly src: number,
    private readonly meanGapNs: number,
  ) {
    this.rng = o.rng.fork('poisson/' + src);
    this.t = o.startPs;
  }

  /** Per arrival: gap (exponential, truncated to whole ns like the reference generators), destination (redrawn while equal to the source), size. */
  next(): FlowSpec | null {
    const o = this.o;
    const rng = this.rng;
    this.t += Math.floor(rng.exponential(this.meanGapNs)) * NS;
    if (this.t >= o.startPs + o.durationPs) return null;
    const dests = o.destinations;
    const nd = dests.length;
    let dst = dests[rng.int(nd)]!;
    while (dst === this.src) dst = dests[rng.int(nd)]!;
    const bytes = sampleCdf(o.cdf, rng);
    const f: FlowSpec = { src: this.src, dst, bytes, startPs: this.t };
    if (o.prio !== undefined) f.prio = o.prio;
    if (o.tag !== undefined) f.tag = o.tag;
    return f;
  }
}

/**
 * Generates the flows. Per source, per arrival: gap (exponential, truncated to
 * whole ns like the reference generators), then destination (uniform, redrawn
 * while equal to the source), then size. The first arrival is at
 * startPs + first gap. Result sorted by (startPs, src), stable.
 */
export function poissonFlows(o: PoissonOptions): FlowSpec[] {
  const meanGapNs = checkPoisson(o);
  if (meanGapNs === null) return [];
  const flows: FlowSpec[] = [];
  for (const src of o.sources) {
    const p = new PoissonSource(o, src, meanGapNs);
    for (let f = p.next(); f !== null; f = p.next()) flows.push(f);
  }
  flows.sort((a, b) => a.startPs - b.startPs || a.src - b.src);
  return flows;
}

/**
 * The same arrivals as `poissonFlows`, in the same order, made one at a time
 * (a merge of the per-source processes: only one pending flow per source is
 * held), ending after `maxFlows` flows if given: for runs of millions of flows.
 */
export function poissonStream(o: PoissonOptions, maxFlows = Infinity): FlowStream {
  const meanGapNs = checkPoisson(o);
  const sources = meanGapNs === null ? [] : o.sources.map((src) => new PoissonSource(o, src, meanGapNs));
  // heap of source positions by (pending start, src, position): the order of a stable sort by (startPs, src)
  const head: (FlowSpec | null)[] = sources.map((p) => p.next());
  const heap: number[] = [];
  const before = (a: number, b: number): boolean => {
    const fa = head[a]!;
    const fb = head[b]!;
    return fa.startPs !== fb.startPs ? fa.startPs < fb.startPs : fa.src !== fb.src ? fa.src < fb.src : a < b;
  };
  const down = (i0: number): void => {
    let i = i0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const c = r < n && before(heap[r]!, heap[l]!) ? r : l;
      if (!before(heap[c]!, heap[i]!)) return;
      [heap[c], heap[i]] = [heap[i]!, heap[c]!];
      i = c;
    }
  };
  for (let k = 0; k < sources.length; k++) if (head[k] !== null) heap.push(k);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  let made = 0;
  return {
    peekStartPs: () => (heap.length === 0 || made >= maxFlows ? Infinity : head[heap[0]!]!.startPs),
    next: () => {
      const k = heap[0]!;
      const f = head[k]!;
      made++;
      const nx = sources[k]!.next();
      head[k] = nx;
      if (nx === null) {
        const last = heap.pop()!;
        if (heap.length > 0) heap[0] = last;
      }
      if (heap.length > 0) down(0);
      return f;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the `poisson` workload type (docs/extending.md, "Adding a workload")

const poissonSchema = z
  .object({
    type: z.literal('poisson'),
    /** built-in name or CDF file path (relative to the spec file) */
    cdf: z.string().min(1),
    load: loadField,
    start: durationField().default(0),
    duration: durationField({ positive: true }),
    /** sources */
    hosts: hostSelection.default('all'),
    destinations: hostSelection.default('all'),
    /** the link rate `load` is relative to; default each source's host link rate */
    refRate: rateField().optional(),
    /**
     * PowerTCP's generator (PowerTCP §4.1; docs/network-model.md §12.2): `paper` = every
     * server, destinations uniform over the others; `artifact` = the artifact's hosts of
     * the first two racks with its destination rule. Load is then relative to a server's
     * share of its ToR uplinks (6.25 Gb/s on powertcp256) unless `refRate` is given.
     */
    ptGenerator: z.enum(['paper', 'artifact']).optional(),
    prio: prio.optional(),
    tag: z.string().default('background'),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.ptGenerator === undefined) return;
    for (const k of ['hosts', 'destinations'] as const) {
      if (w[k] !== 'all') ctx.addIssue({ code: 'custom', path: [k], message: `must be "all" (or left out) with ptGenerator ${w.ptGenerator}, which chooses sources and destinations itself` });
    }
  });

export type PoissonEntry = z.output<typeof poissonSchema>;

/** The rate an entry's load refers to at source h: refRate, the ToR-uplink share (ptGenerator), or the host link. */
function refRate(w: PoissonEntry, h: number, ctx: WorkloadContext): number {
  if (w.refRate !== undefined) return w.refRate;
  if (w.ptGenerator !== undefined) return uplinkShareBps(ctx.racks(), h);
  return ctx.hostRate[h]!;
}

function preparePoisson(w: PoissonEntry, ctx: WorkloadContext): PreparedWorkload {
  let sources: number[];
  let destinations: number[];
  if (w.ptGenerator !== undefined) {
    // PowerTCP's generator picks sources and destinations from the racks
    const mode = w.ptGenerator;
    sources = ctx.guard(['ptGenerator'], () => ptBackgroundGroups(ctx.topology, mode)).flatMap((g) => g.sources);
    destinations = [];
  } else {
    sources = ctx.hostSelection(w.hosts, ['hosts']);
    destinations = ctx.hostSelection(w.destinations, ['destinations']);
    if (ctx.hostCount < 2) ctx.error(['type'], 'needs at least 2 hosts in the topology');
  }
  const cdf = ctx.cdf(w.cdf, ['cdf']);
  // flows from load x rate x duration / mean size
  let flows = 0;
  let bytes = 0;
  for (const h of sources) {
    const b = (w.load * (w.refRate ?? ctx.hostRate[h]!) * (w.duration / 1e12)) / 8;
    bytes += b;
    flows += b / Math.max(cdf.meanBytes, 1);
  }
  return {
    estimate: { flows, bytes, receivers: destinations.length > 0 ? destinations : 'all' },
    tags: [w.tag],
    addOfferedLoad(perHost: Float64Array): number {
      for (const h of sources) {
        const ref = refRate(w, h, ctx);
        perHost[h]! += (w.load * ref) / (ctx.hostRate[h]! || ref);
      }
      return 0;
    },
    flows(rng: Rng): FlowSpec[] {
      // sources grouped per destination set (one unless ptGenerator: artifact), per reference rate
      const sets = w.ptGenerator !== undefined ? ptBackgroundGroups(ctx.topology, w.ptGenerator) : [{ sources, destinations }];
      const groups = new Map<string, { sources: number[]; destinations: number[]; refRateBps: number }>();
      sets.forEach((set, si) => {
        for (const h of set.sources) {
          const ref = refRate(w, h, ctx);
          const key = `${si}/${ref}`;
          let g = groups.get(key);
          if (g === undefined) groups.set(key, (g = { sources: [], destinations: set.destinations, refRateBps: ref }));
          g.sources.push(h);
        }
      });
      const out: FlowSpec[] = [];
      for (const g of groups.values()) {
        const made = ctx.guard([], () =>
          poissonFlows({ ...g, cdf, load: w.load, startPs: w.start, durationPs: w.duration, rng, tag: w.tag, ...(w.prio !== undefined ? { prio: w.prio } : {}) }),
        );
        // a loop, not push(...made): long workloads have more flows than the call-stack argument limit
        for (const f of made) out.push(f);
      }
      if (groups.size > 1) out.sort((a, b) => a.startPs - b.startPs || a.src - b.src);
      return out;
    },
  };
}

/** `type: poisson`: Poisson arrivals per source at a load, sizes from a CDF (docs/network-model.md §12.2). */
export const poissonWorkload: WorkloadDefinition<PoissonEntry> = {
  type: 'poisson',
  summary: 'Poisson flow arrivals per source host at a load of its link, sizes from a CDF (optionally PowerTCP\'s generator)',
  schema: poissonSchema,
  startTimes: (w) => [[['start'], w.start]],
  prepare: preparePoisson,
};
