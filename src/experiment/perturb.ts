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
 * Flow ids stay positions in start order (generateWorkload): flows whose starts were equal may
 * swap ids. Flows that closed-loop drivers start later are not moved directly; they follow
 * from the moved ones.
 */
import { Rng } from '../engine/rng.js';
import type { Topology } from '../net/topology/types.js';
import type { FlowSpec } from '../workload/types.js';

/** The largest delay a perturbed flow start gets, in ps (exclusive): one MTU at the fastest link's rate. */
export function perturbBoundPs(topology: Topology, mtuBytes: number): number {
  let fastest = 0;
  for (const l of topology.links) if (l.rateBps > fastest) fastest = l.rateBps;
  if (!(fastest > 0)) return 1;
  return Math.max(1, Math.floor((mtuBytes * 8 * 1e12) / fastest));
}

/** The flows with perturbed starts, re-sorted into start order (k = 0: the flows as they are). */
export function perturbStarts(flows: readonly FlowSpec[], k: number, boundPs: number): FlowSpec[] {
  if (k === 0) return flows as FlowSpec[];
  const rng = new Rng(k, 'perturb');
  return flows
    .map((f, i) => ({ f: { ...f, startPs: f.startPs + rng.int(boundPs) }, i }))
    .sort((a, b) => a.f.startPs - b.f.startPs || a.i - b.i)
    .map((x) => x.f);
}
