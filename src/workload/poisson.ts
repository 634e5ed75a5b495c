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
import { checkHostId, checkNonNegInt, checkPrio } from './validate.js';

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
  if (!(o.load >= 0) || !Number.isFinite(o.load)) throw new Error(`poisson: load must be a number >= 0, got ${o.load}`);
  if (!(o.refRateBps > 0) || !Number.isFinite(o.refRateBps)) {
    throw new Error(`poisson: refRateBps must be > 0, got ${o.refRateBps}`);
  }
  checkNonNegInt('poisson: startPs', o.startPs);
  checkNonNegInt('poisson: durationPs', o.durationPs);
  checkPrio('poisson: prio', o.prio);
  if (!(o.cdf.meanBytes > 0)) throw new Error(`poisson: workload "${o.cdf.name}" has mean size ${o.cdf.meanBytes}; it must be > 0`);
  const seen = new Set<number>();
  for (let i = 0; i < o.sources.length; i++) {
    const s = o.sources[i]!;
    checkHostId(`poisson: sources[${i}]`, s);
    if (seen.has(s)) throw new Error(`poisson: sources[${i}]: host ${s} is listed twice`);
    seen.add(s);
  }
  for (let i = 0; i < o.destinations.length; i++) checkHostId(`poisson: destinations[${i}]`, o.destinations[i]!);
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
