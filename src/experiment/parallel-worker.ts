/**
 * A worker of the parallel engine (experiment/parallel.ts): runs one partition
 * (sim/partition-run.ts) window by window. In window k it runs its scheduler to the window's
 * end, publishes what its cut links sent (one ring per receiving partition), meets the other
 * workers at the barrier with the time of its next event (the earliest arrival it sent
 * included) and whether it needs the whole network, then takes in what the others sent and
 * releases its held links.
 * The next window starts at the earliest next event anywhere (idle stretches are skipped).
 * At the end it posts its partition's results and finish records.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { WindowBarrier, WindowRing } from '../engine/window-sync.js';
import { CROSS_WORDS } from '../net/crossing.js';
import { PartitionSim } from '../sim/partition-run.js';
import type { SimInput } from '../sim/types.js';

/** A barrier count at or above this: a worker needs the whole network (below: flows it finished). */
const WHOLE_NETWORK = 2 ** 40;

interface Job {
  input: SimInput;
  of: Int32Array;
  me: number;
  count: number;
  lookaheadPs: number;
  barrier: SharedArrayBuffer;
  rings: (SharedArrayBuffer | null)[][];
  capacity: number;
  done: SharedArrayBuffer;
  report: MessagePort;
}

function run(j: Job): Record<string, unknown> {
  const P = j.count;
  const me = j.me;
  const ps = new PartitionSim(j.input, j.of, me, P);
  const sim = ps.sim;
  const bar = new WindowBarrier(j.barrier, P, me);
  const ring = (from: number, to: number): WindowRing => new WindowRing(j.rings[from]![to]!, j.capacity);
  const outRings = Array.from({ length: P }, (_, v) => (v === me ? null : ring(me, v)));
  const inRings = Array.from({ length: P }, (_, u) => (u === me ? null : ring(u, me)));
  // windows are the held links' grid (NetContext.holdGridPs, at most every cut link's delay): at each
  // end the cut links' packets go out, the others' come in, and every held packet is released in port
  // order, as on one thread. A run until every flow finishes ends with the window in which the last
  // flow finished (Simulation.checkDone), which the barrier's sum of finished flows tells every worker.
  const G = sim.ctx.holdGridPs;
  if (!(G > 0 && G <= j.lookaheadPs)) throw new Error(`parallel run: window ${G} ps, lookahead ${j.lookaheadPs} ps`);
  const untilDone = j.input.stopAtPs === null;
  const flows = j.input.flows.length;
  let w = 0;
  let endPs = -1;
  for (let k = 0; ; k++) {
    for (let v = 0; v < P; v++) {
      const b = ps.out[v];
      if (b === null || b === undefined) continue;
      b.buf = outRings[v]!.half(k);
      b.count = 0;
    }
    ps.earliestSent = Infinity;
    const e = w + G - 1;
    const over = sim.runUntil(e);
    ps.drainCuts();
    for (let v = 0; v < P; v++) if (v !== me) outRings[v]!.publish(k, ps.out[v]!.count * CROSS_WORDS);
    // (packets still held here arrive after e: the next window is the next one)
    const next = sim.ctx.holding ? e + 1 : Math.min(sim.sched.peekTime(), ps.earliestSent);
    bar.arrive(over ? Infinity : next, ps.wholeNetwork ? WHOLE_NETWORK : sim.transport.finishedCount);
    for (let u = 0; u < P; u++) if (u !== me) ps.deliver(inRings[u]!.received(k));
    ps.release();
    if (bar.sum >= WHOLE_NETWORK) break; // a worker needs the whole network: the run goes again on one thread
    if (over) {
      endPs = sim.sched.now;
      break;
    }
    if (bar.minNext === Infinity) {
      // nothing pending anywhere: a one-thread run's scheduler would have emptied here
      ps.sim.deadlockHook!(sim.idleAtPs, 0, true);
      bar.arrive(-sim.idleAtPs, ps.wholeNetwork ? 1 : 0);
      endPs = -bar.minNext;
      sim.sched.now = endPs;
      break;
    }
    if (untilDone && bar.sum === flows) {
      // every flow finished in this window: the run ends at its last picosecond
      endPs = e;
      sim.endAt(e);
      break;
    }
    // the next window: the grid's window of the earliest next event anywhere
    w = Math.max(e + 1, Math.floor(bar.minNext / G) * G);
  }
  const output = sim.finish();
  let heldLocal = 0;
  for (const f of sim.transport.flows) if (f !== null && j.of[f.src] === me) heldLocal++;
  return { ok: true, wholeNetwork: ps.wholeNetwork, output, finishes: ps.finishes, heldLocal, endPs, globalEvents: sim.transport.startChainEvents };
}

const j = workerData as Job;
const done = new Int32Array(j.done);
let report: Record<string, unknown>;
try {
  report = run(j);
} catch (e) {
  report = { ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
}
j.report.postMessage(report);
Atomics.store(done, j.me, report['ok'] === true ? 1 : 2);
Atomics.add(done, j.count, 1);
Atomics.notify(done, j.count);
void parentPort;
