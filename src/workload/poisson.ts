/**
 * Poisson background traffic (network-model.md §5.2): every source host is an
 * independent Poisson process of flow arrivals whose mean rate makes the
 * offered load `load` of `refRateBps` (the host link, or a per-host share of
 * the ToR uplinks, as the profile decides).
 */
import type { Rng } from '../engine/rng.js';
import { NS, SEC } from '../engine/units.js';
import { sampleCdf, type Cdf } from './cdf.js';
import type { FlowSpec } from './types.js';

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

/**
 * Generates the flows. Per source, per arrival: gap (exponential, truncated to
 * whole ns like the reference generators), then destination (uniform, redrawn
 * while equal to the source), then size. The first arrival is at
 * startPs + first gap. Result sorted by (startPs, src), stable.
 */
export function poissonFlows(o: PoissonOptions): FlowSpec[] {
  // option values (load, rates, times, host ids, priorities) are validated once, by the spec schema
  // and resolve.ts; what is checked here needs the generator's own view
  if (!(o.cdf.meanBytes > 0)) throw new Error(`poisson: workload "${o.cdf.name}" has mean size ${o.cdf.meanBytes}; it must be > 0`);
  if (o.load === 0 || o.durationPs === 0 || o.sources.length === 0) return [];
  for (const s of o.sources) {
    if (!o.destinations.some((d) => d !== s)) {
      throw new Error(`poisson: source ${s} has no destination other than itself (destinations: [${o.destinations.join(', ')}])`);
    }
  }

  const meanGapNs = poissonMeanGapPs(o.cdf.meanBytes, o.refRateBps, o.load) / NS;
  if (!(meanGapNs >= 1)) {
    throw new Error(`poisson: mean gap ${meanGapNs} ns is below the 1 ns arrival resolution (load too high or flows too small)`);
  }
  const endPs = o.startPs + o.durationPs;
  const dests = o.destinations;
  const nd = dests.length;
  const flows: FlowSpec[] = [];
  for (const src of o.sources) {
    const rng = o.rng.fork('poisson/' + src);
    let t = o.startPs;
    for (;;) {
      t += Math.floor(rng.exponential(meanGapNs)) * NS;
      if (t >= endPs) break;
      let dst = dests[rng.int(nd)]!;
      while (dst === src) dst = dests[rng.int(nd)]!;
      const bytes = sampleCdf(o.cdf, rng);
      const f: FlowSpec = { src, dst, bytes, startPs: t };
      if (o.prio !== undefined) f.prio = o.prio;
      if (o.tag !== undefined) f.tag = o.tag;
      flows.push(f);
    }
  }
  flows.sort((a, b) => a.startPs - b.startPs || a.src - b.src);
  return flows;
}
