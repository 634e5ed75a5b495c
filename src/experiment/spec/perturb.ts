/**
 * Tie-order perturbation of a run (issue 40; docs/guide.md, "Replicas"). A deterministic
 * experiment (explicit flows, incasts, micro-benchmarks) gives one number, but that number
 * may hinge on the order in which simultaneous events run (two packets reaching one queue in
 * the same picosecond, flows starting together). Replicas with `perturb: k > 0` delay every
 * open-loop flow's start by a whole number of picoseconds drawn uniformly from
 * [0, one MTU's serialization time on the fabric's fastest link), from a random stream of k
 * alone (the workload's own stream, of `seed`, is untouched). No flow moves by as much as one
 * packet time anywhere in the fabric, so what changes is the order of near-simultaneous events,
 * and a claim whose value depends on it shows as a spread over the replicas.
 *
 * Flow ids do not change: the simulator numbers flows in start order, and analyses name flows by
 * id, so the delays keep the start order. Among flows that started together the delays are
 * sorted (the lower id still starts first, by a random margin), and no flow is moved before the
 * one ahead of it. So a replica changes the timing of every near-simultaneous event (whose packet
 * reaches a shared queue first along different paths, the phase of each CC's timers and samples
 * against the others') but not which of several flows that start together is started first: a
 * result that hinges on that order alone is not exposed (docs/guide.md, "Replicas"). Flows that
 * closed-loop drivers start later are not moved directly; they follow from the moved ones.
 */
import { Rng } from '../../engine/rng.js';
import type { Topology } from '../../net/topology/types.js';
import type { FlowSpec } from '../../workload/types.js';

/** The largest delay a perturbed flow start gets, in ps (exclusive): one MTU at the fastest link's rate. */
export function perturbBoundPs(topology: Topology, mtuBytes: number): number {
  let fastest = 0;
  for (const l of topology.links) if (l.rateBps > fastest) fastest = l.rateBps;
  if (!(fastest > 0)) return 1;
  return Math.max(1, Math.floor((mtuBytes * 8 * 1e12) / fastest));
}

/**
 * The flows (in start order) with perturbed starts, still in start order with the same ids
 * (k = 0: the flows as they are).
 */
export function perturbStarts(flows: readonly FlowSpec[], k: number, boundPs: number): FlowSpec[] {
  if (k === 0) return flows as FlowSpec[];
  const rng = new Rng(k, 'perturb');
  const delay = flows.map(() => rng.int(boundPs));
  const out: FlowSpec[] = [];
  for (let a = 0; a < flows.length; ) {
    // a group of flows that start together: their delays sorted, so the lower id stays first
    let b = a + 1;
    while (b < flows.length && flows[b]!.startPs === flows[a]!.startPs) b++;
    const group = delay.slice(a, b).sort((x, y) => x - y);
    for (let i = a; i < b; i++) {
      const prev = out.length > 0 ? out[out.length - 1]!.startPs : -Infinity;
      out.push({ ...flows[i]!, startPs: Math.max(prev, flows[i]!.startPs + group[i - a]!) });
    }
    a = b;
  }
  return out;
}
