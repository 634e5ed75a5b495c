/**
 * Poisson background traffic (docs/network-model.md §12.2): every source host is an
 * independent Poisson process of flow arrivals whose mean rate makes the
 * offered load `load` of `refRateBps` (the host link, or a per-host share of
 * the ToR uplinks, as the profile decides).
 */
import type { Rng } from '../engine/rng.js';
import { NS, SEC } from '../engine/units.js';
import { sampleCdf, type Cdf } from './cdf.js';
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
