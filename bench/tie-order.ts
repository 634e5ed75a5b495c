/**
 * `node dist/bench/tie-order.js <spec> [threads]`: how often a parallel run could
 * execute simultaneous events in another order than the one-thread run (issue 31, stage 2;
 * docs/architecture.md, "Parallel runs").
 *
 * A one-thread run orders events by (time, insertion order). In a partitioned run a packet
 * that crosses a partition boundary is inserted into the receiving partition's scheduler
 * at the end of the window it was sent in, later than the one-thread run inserted it; so
 * its arrival event can change places with another event of the receiving partition at the
 * same picosecond. This tool runs the spec on one thread, watches every dispatched event,
 * and counts the instants at which a partition has a cross-partition arrival and at least
 * one other event ("at-risk ties"): an upper bound on the events a parallel run could
 * reorder. Zero means the one-thread order is kept exactly for this run whatever the
 * windows; anything else means a tie-break rule independent of insertion order is needed.
 * It also prints each partition's events (the load balance a parallel run would see).
 * Events whose node it cannot tell (flow starts, CC and transport timers, samplers) are
 * counted apart.
 *
 * Since the held links (docs/architecture.md, "Parallel runs", event order) every run inserts
 * cross-partition arrivals at window ends, so the first count is what the held links remove. It
 * also checks the keyed rule of branch `h-ord` (kept for comparison, not what runs use): simultaneous events ordered by (time, insertion time, inserting node, insertion
 * order), a node's link arrivals (by slot) before its other events of that instant and key, an
 * event inheriting the node of the handler that scheduled it. It reads each
 * dispatched event's key from the scheduler and counts (1) adjacent simultaneous pairs out
 * of key order (the scheduler's own check: 0), and (2) keys a partition could not compute
 * alone: a port's transmission-done event keyed by another node than the port's, or a
 * link arrival whose key is not the one the receiving partition derives from the packet's
 * entry (transmission start = arrival - delay - serialization, by the sending node, when it
 * is not earlier than the link's previous arrival; else that arrival, by the receiving
 * node). Both zero: a partitioned run can reproduce this run's order exactly.
 */
import { loadAndResolve } from '../src/experiment/resolve.js';
import { partitionTopology } from '../src/net/topology/partition.js';
import { Simulation } from '../src/sim/simulate.js';
import type { EventHandler } from '../src/engine/scheduler.js';
import type { Port } from '../src/net/port.js';

const [specPath, threadsArg] = process.argv.slice(2);
if (specPath === undefined) {
  process.stderr.write('usage: node dist/bench/tie-order.js <spec> [threads (default 2)]\n');
  process.exit(2);
}
const P = Number(threadsArg ?? 2);
const { input } = loadAndResolve(specPath, {}, { quick: false });
const part = partitionTopology(input.topology, P);
const sim = new Simulation(input);
const ports = sim.ctx.ports as Port[];

// per instant: events per partition, cross arrivals per partition, and per node
let curT = -1;
const evIn = new Int32Array(part.count);
const crossIn = new Int32Array(part.count);
/** events of each partition over the run: the load balance */
const evTotal = new Float64Array(part.count);
const touched: number[] = [];
const nodeEv = new Map<number, number>();
const nodeCross = new Map<number, number>();
let unknownAtT = 0;
// the rule's check: the key of the event dispatched last, and the keys a partition could not compute
let prevT = -1;
let prevIns = -1;
let prevNode = -1;
const rule = { checked: 0, outOfOrder: 0, sameInsDifferentNode: 0, txForeign: 0, arrivalsChecked: 0, arrivalMismatch: 0 };
const internals = sim.sched as unknown as {
  handlers: EventHandler[];
  insT: Float64Array;
  keyNode: Int32Array;
  directEnd: number;
  release(slot: number): void;
};
let prevSub = -1;
function checkKey(slot: number): void {
  const t = sim.sched.now;
  const ins = internals.insT[slot]!;
  const node = internals.keyNode[slot]!;
  // one node at one instant: its link arrivals by slot, then its other events (in insertion order)
  const sub = slot < internals.directEnd && (slot & 1) === 1 ? slot : Infinity;
  if (t === prevT) {
    rule.checked++;
    if (ins === prevIns && node !== prevNode) rule.sameInsDifferentNode++;
    if (ins < prevIns || (ins === prevIns && (node < prevNode || (node === prevNode && sub < prevSub)))) rule.outOfOrder++;
  }
  prevT = t;
  prevIns = ins;
  prevNode = node;
  prevSub = sub;
}
/** each port's previous arrival event, ps */
const lastArrival = new Float64Array(ports.length).fill(-Infinity);

let crossAtT = 0;
const totals = { events: 0, crossArrivals: 0, atRiskInstants: 0, atRiskEvents: 0, sameNodeInstants: 0, unknownEvents: 0, unknownWithCross: 0 };

function flush(): void {
  for (const p of touched) {
    if (crossIn[p]! > 0 && evIn[p]! > 1) {
      totals.atRiskInstants++;
      totals.atRiskEvents += evIn[p]!;
    }
    evIn[p] = 0;
    crossIn[p] = 0;
  }
  touched.length = 0;
  for (const [n, c] of nodeCross) if (c > 0 && (nodeEv.get(n) ?? 0) > 1) totals.sameNodeInstants++;
  nodeEv.clear();
  nodeCross.clear();
  if (unknownAtT > 0 && crossAtT > 0) totals.unknownWithCross += unknownAtT;
  unknownAtT = 0;
  crossAtT = 0;
}

function seen(node: number, cross: boolean): void {
  const t = sim.sched.now;
  if (t !== curT) {
    flush();
    curT = t;
  }
  totals.events++;
  if (node < 0) {
    totals.unknownEvents++;
    unknownAtT++;
    return;
  }
  const p = part.of[node]!;
  evTotal[p]!++;
  if (evIn[p] === 0) touched.push(p);
  evIn[p]!++;
  nodeEv.set(node, (nodeEv.get(node) ?? 0) + 1);
  if (cross) {
    totals.crossArrivals++;
    crossIn[p]!++;
    crossAtT++;
    nodeCross.set(node, (nodeCross.get(node) ?? 0) + 1);
  }
}

// the direct kinds: instance methods shadow the prototype's, which the run loop calls
for (const port of ports) {
  const tx = port.onTxDone.bind(port);
  const arrive = port.onArrive.bind(port);
  const cross = part.of[port.node] !== part.of[port.peerNode];
  const pv = port as unknown as { lBase: number; lHead: number };
  port.onTxDone = (): void => {
    checkKey(2 * port.gid);
    if (internals.keyNode[2 * port.gid] !== port.node) rule.txForeign++;
    seen(port.node, false);
    tx();
  };
  port.onArrive = (): void => {
    const slot = 2 * port.gid + 1;
    checkKey(slot);
    // the head entry: its serialization time is word 5 (Port's E_SER)
    const start = sim.sched.now - port.delayPs - sim.ctx.arena[pv.lBase + (pv.lHead << 3) + 5]!;
    const last = lastArrival[port.gid]!;
    const wantIns = start >= last ? start : last;
    const wantNode = start >= last ? port.node : port.peerNode;
    rule.arrivalsChecked++;
    if (internals.insT[slot] !== wantIns || internals.keyNode[slot] !== wantNode) rule.arrivalMismatch++;
    lastArrival[port.gid] = sim.sched.now;
    seen(port.peerNode, cross);
    arrive();
  };
}
// the other kinds: by element when the kind names one; the run loop releases a handler
// event's slot just before it calls the handler
let released = -1;
const release = internals.release.bind(internals);
internals.release = (slot: number): void => {
  released = slot;
  release(slot);
};
const names = sim.sched.kindNames();
internals.handlers.forEach((h, k) => {
  const name = names[k]!;
  const fire = h.fire.bind(h);
  const nodeOf =
    name === 'Host.onWake' ? (id: number): number => id : name === 'Switch.onPfcRefresh' || name === 'Port.onPauseExpiry' ? (id: number): number => ports[id]!.node : (): number => -1;
  internals.handlers[k] = {
    fire: (id, tag) => {
      checkKey(released);
      seen(nodeOf(id), false);
      fire(id, tag);
    },
  };
});

const t0 = performance.now();
sim.runUntil(Infinity);
flush();
const out = sim.finish();
const wall = (performance.now() - t0) / 1000;
const pct = (a: number, b: number): string => (b > 0 ? `${((100 * a) / b).toFixed(3)} %` : '-');
process.stdout.write(
  [
    `${input.topology.name}: ${part.count} partitions (${part.groupKind}s), lookahead ${part.lookaheadPs} ps; ${out.events} events, ${wall.toFixed(1)} s`,
    `events per partition: ${[...evTotal].join(', ')}; balance (largest / mean): ${(Math.max(...evTotal) / (evTotal.reduce((a, x) => a + x, 0) / part.count)).toFixed(3)}`,
    `cross-partition arrivals: ${totals.crossArrivals} (${pct(totals.crossArrivals, totals.events)} of events)`,
    `at-risk instants (a partition has a cross arrival and another event at the same ps): ${totals.atRiskInstants}, covering ${totals.atRiskEvents} events (${pct(totals.atRiskEvents, totals.events)})`,
    `  of which at the receiving node itself: ${totals.sameNodeInstants}`,
    `events of no known node: ${totals.unknownEvents}; at an instant with a cross arrival: ${totals.unknownWithCross}`,
    `rule (time, insertion time, inserting node, order): ${rule.checked} simultaneous adjacent pairs, ${rule.sameInsDifferentNode} with the same insertion time from two nodes;`,
    `  pairs out of the rule's order (swaps): ${rule.outOfOrder};`,
    `  keys a partition could not compute: ${rule.txForeign} transmission-done events keyed by another node, ${rule.arrivalMismatch} of ${rule.arrivalsChecked} arrivals keyed otherwise than from their entry`,
    '',
  ].join('\n'),
);
