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
 * It also checks the candidate rule of docs/architecture.md: order simultaneous events by
 * (time, insertion time, inserting node, insertion order), with a packet's arrival keyed as
 * inserted by the sending node when the packet left the wire's sending end (arrival - link
 * delay). A one-thread run's order is (time, insertion order), and insertion order is
 * monotone in insertion time, so the two differ only where two events for the same
 * picosecond were inserted at the same picosecond by different nodes out of node order,
 * or where an arrival was posted later than its key says (behind the previous packet on
 * its link). It counts the adjacent pairs of dispatched events that the rule would swap:
 * zero means the rule reproduces this run exactly, so adopting it moves no result.
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
/**
 * an arrival's insertion time in the rule (TIE_ARRIVAL): its transmission start (`start`, as
 * posted on an empty link), its end (`done`), or when and by whom it was posted (`posted`:
 * the transmit on an empty link, else the previous packet's arrival at the receiver)
 */
const ARRIVAL_KEY = process.env['TIE_ARRIVAL'] === 'done' ? 'done' : process.env['TIE_ARRIVAL'] === 'posted' ? 'posted' : 'start';
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
// the candidate rule's key of each pending slot (its insertion time, then the insertion times of
// DEPTH - 1 ancestors: TIE_DEPTH, default 1), and of the event dispatched last
const DEPTH = Number(process.env['TIE_DEPTH'] ?? 1);
let curNode = -1;
const keyIns = new Float64Array(DEPTH << 22);
const keyNode = new Int32Array(1 << 22);
const curChain = new Float64Array(DEPTH).fill(-1);
const prevChain = new Float64Array(DEPTH).fill(-1);
let prevT = -1;
let prevNode = -1;
const rule = { checked: 0, swaps: 0, swapsUnknown: 0, sameInsDifferentNode: 0, earlierIns: 0 };
function checkKey(slot: number): void {
  const t = sim.sched.now;
  const node = keyNode[slot]!;
  let cmp = 0;
  for (let k = 0; k < DEPTH && cmp === 0; k++) {
    const a = keyIns[slot * DEPTH + k]!;
    const b = prevChain[k]!;
    cmp = a < b ? -1 : a > b ? 1 : 0;
  }
  if (t === prevT) {
    rule.checked++;
    if (cmp === 0 && node !== prevNode) rule.sameInsDifferentNode++;
    if (cmp < 0 || (cmp === 0 && node < prevNode)) {
      if (node < 0 || prevNode < 0) rule.swapsUnknown++;
      else rule.swaps++;
      if (cmp < 0) rule.earlierIns++;
    }
  }
  prevT = t;
  prevNode = node;
  for (let k = 0; k < DEPTH; k++) prevChain[k] = keyIns[slot * DEPTH + k]!;
  curChain.set(prevChain);
}

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
  curNode = node;
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
  port.onTxDone = (): void => {
    checkKey(2 * port.gid);
    seen(port.node, false);
    tx();
  };
  port.onArrive = (): void => {
    checkKey(2 * port.gid + 1);
    seen(port.peerNode, cross);
    arrive();
  };
}
// the other kinds: by element when the kind names one
const internals = sim.sched as unknown as {
  handlers: EventHandler[];
  directEnd: number;
  linkDirect(slot: number, at: number): void;
  release(slot: number): void;
};
// every insertion goes through linkDirect: record the rule's key there
const linkDirect = internals.linkDirect.bind(internals);
internals.linkDirect = (slot: number, at: number): void => {
  if (ARRIVAL_KEY !== 'posted' && slot < internals.directEnd && (slot & 1) === 1) {
    const port = ports[slot >> 1]!;
    // the head packet's transmission start: arrival - delay - its serialization
    const pv = port as unknown as { lBase: number; lHead: number; serPs(size: number): number };
    const size = sim.ctx.arena[pv.lBase + (pv.lHead << 3) + 3]!;
    keyIns[slot * DEPTH] = ARRIVAL_KEY === 'start' ? at - port.delayPs - pv.serPs(size) : at - port.delayPs;
    for (let k = 1; k < DEPTH; k++) keyIns[slot * DEPTH + k] = -1;
    keyNode[slot] = port.node;
  } else {
    keyIns[slot * DEPTH] = sim.sched.now;
    for (let k = 1; k < DEPTH; k++) keyIns[slot * DEPTH + k] = curChain[k - 1]!;
    keyNode[slot] = curNode;
  }
  linkDirect(slot, at);
};
// the run loop releases a handler event's slot just before it calls the handler
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
    `rule (time, insertion times of ${DEPTH} generation(s), inserting node, order): ${rule.checked} simultaneous adjacent pairs, ${rule.sameInsDifferentNode} with the same insertion time from two nodes;`,
    `  pairs it would swap against the one-thread order: ${rule.swaps} (${rule.swapsUnknown} more involving an event of no known node);`,
    `  ${rule.earlierIns} of them because the later event has the earlier key (an arrival posted behind the previous packet on its link)`,
    '',
  ].join('\n'),
);
