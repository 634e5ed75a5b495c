/**
 * The window loop of one partition of a parallel run (issue 31; docs/architecture.md,
 * "Parallel runs"), run by each worker thread (sim/parallel/parallel-worker.ts) and, for
 * partition 0, by the thread that started the run (sim/parallel/parallel.ts), which would
 * otherwise only wait. In window k it runs its scheduler to the window's end, publishes what
 * its cut links sent (one ring per receiving partition), meets the others at the barrier with
 * the time of its next event (the earliest arrival it sent included) and whether it needs the
 * whole network, then takes in what the others sent and releases its held links. The next
 * window is the grid window of the earliest next event anywhere (idle stretches are skipped).
 * At the end it returns its partition's results and finish records.
 */
import { WindowBarrier, WindowRing } from '../../engine/window-sync.js';
import { CROSS_WORDS } from '../../net/crossing.js';
import { PartitionSim, type FinishRecord } from '../partition-run.js';
import type { SimInput, SimOutput } from '../types.js';
import type { AutoQueues } from '../../metrics/samplers.js';
import type { FinishBoard, PartitionBreakdown } from '../../metrics/breakdown-merge.js';

/** A barrier count at or above this: a worker needs the whole network (below: flows it finished). */
const WHOLE_NETWORK = 2 ** 40;

/** What a partition's loop needs: the run, its place in the partitioning, and the shared memory. */
export interface PartitionJob {
  input: SimInput;
  of: Int32Array;
  me: number;
  count: number;
  lookaheadPs: number;
  barrier: SharedArrayBuffer;
  rings: (SharedArrayBuffer | null)[][];
  capacity: number;
  /** with metrics.breakdown: the partitions' completions (metrics/breakdown-merge.ts) */
  board?: FinishBoard;
}

/** What a partition's loop returns. */
export interface PartitionReport {
  ok: boolean;
  error?: string;
  wholeNetwork?: boolean;
  output?: SimOutput;
  finishes?: FinishRecord[];
  heldLocal?: number;
  globalEvents?: number;
  endPs?: number;
  stats?: PartitionStats;
  /** `queues: auto`'s state, with the buffers of this partition's ports only */
  auto?: AutoQueues | null;
  /** with metrics.breakdown: this partition's part of it */
  breakdown?: PartitionBreakdown;
}

/** How a partition's run went (docs/performance.md, the scaling projection): not part of any result. */
export interface PartitionStats {
  /** windows run (idle stretches skipped) */
  windows: number;
  /** events this partition ran */
  events: number;
  /** packets this partition's cut links sent to other partitions */
  crossSent: number;
  /** wall time in its scheduler, and waiting at the barrier (ms) */
  runMs: number;
  waitMs: number;
}

/**
 * Runs partition `j.me` to the end of the run. A failure becomes a report that says so, and
 * releases the barrier so that the other partitions stop instead of waiting for this one.
 */
export function runPartition(j: PartitionJob): PartitionReport {
  try {
    return runWindows(j);
  } catch (e) {
    WindowBarrier.fail(j.barrier);
    return { ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

function runWindows(j: PartitionJob): PartitionReport {
  const P = j.count;
  const me = j.me;
  const ps = new PartitionSim(j.input, j.of, me, P, j.board);
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
  let windows = 0;
  let crossSent = 0;
  let runMs = 0;
  let waitMs = 0;
  for (let k = 0; ; k++) {
    windows++;
    for (let v = 0; v < P; v++) {
      const b = ps.out[v];
      if (b === null || b === undefined) continue;
      b.buf = outRings[v]!.half(k);
      b.count = 0;
    }
    ps.earliestSent = Infinity;
    const e = w + G - 1;
    const t0 = performance.now();
    const over = sim.runUntil(e);
    ps.drainCuts();
    for (let v = 0; v < P; v++) {
      if (v === me) continue;
      outRings[v]!.publish(k, ps.out[v]!.count * CROSS_WORDS);
      crossSent += ps.out[v]!.count;
    }
    // (packets still held here arrive after e: the next window is the next one)
    const next = sim.ctx.holding ? e + 1 : Math.min(sim.sched.peekTime(), ps.earliestSent);
    const t1 = performance.now();
    bar.arrive(over ? Infinity : next, ps.wholeNetwork ? WHOLE_NETWORK : sim.transport.finishedCount);
    const t2 = performance.now();
    runMs += t1 - t0;
    waitMs += t2 - t1;
    for (let u = 0; u < P; u++) if (u !== me) ps.deliver(inRings[u]!.received(k));
    ps.release();
    sim.breakdown?.learn(e);
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
  sim.breakdown?.learn(Infinity);
  const output = sim.finish();
  let heldLocal = 0;
  for (const f of sim.transport.flows) if (f !== null && j.of[f.src] === me) heldLocal++;
  const stats = { windows, events: sim.sched.eventsProcessed, crossSent, runMs, waitMs };
  const auto = sim.autoQueues();
  if (auto !== null) auto.bufs = auto.bufs.map((b, i) => (j.of[auto.ports[i]!.node] === me ? b.slice() : new Uint32Array(0)));
  return { ok: true, wholeNetwork: ps.wholeNetwork, output, finishes: ps.finishes, heldLocal, endPs, globalEvents: sim.globalEvents, stats, auto, ...(sim.breakdown !== null ? { breakdown: sim.breakdown.partitionReport() } : {}) };
}
