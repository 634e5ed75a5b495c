/**
 * The parallel engine (issue 31; docs/architecture.md, "Parallel runs"): one run on several
 * threads, one partition each (sim/partition-run.ts, sim/parallel/partition-loop.ts): partition
 * 0 on the calling thread, the others on worker threads (sim/parallel/parallel-worker.ts),
 * synchronised in windows of the held links' grid through shared memory
 * (engine/window-sync.ts), with results merged into exactly the output a one-thread run
 * gives: FCT rows in flow id order, counters from each node's own partition, totals summed.
 * The run stays a synchronous call.
 *
 * `parallelUnsupported` names what the engine does not run yet; the thread plan then notes it
 * and the run uses one thread. A worker that meets the deadlock check's precondition (which
 * needs the whole network) makes the run go again on one thread, with a note.
 */
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { ccDefinitions, findCc } from '../../cc/registry.js';
import { CROSS_WORDS } from '../../net/crossing.js';
import { findDiscipline } from '../../net/switch-registry.js';
import { FctRecorder } from '../../metrics/collect.js';
import { finishBoard, mergeBreakdown } from '../../metrics/breakdown-merge.js';
import { topAutoQueues, type AutoQueues } from '../../metrics/samplers.js';
import type { Partitioning } from '../../net/topology/partition.js';
import { WindowBarrier, WindowRing } from '../../engine/window-sync.js';
import { runPartition, type PartitionJob, type PartitionReport, type PartitionStats } from './partition-loop.js';
import { entryUrl } from '../../workload/package-root.js';
import type { SimInput, SimOutput } from '../types.js';
import { lossRecoveryRegistry, sendDriverRegistry } from '../../transport/strategies.js';

/** What in `input` the parallel engine does not run yet (null: it runs it). */
export function parallelUnsupported(input: SimInput): string | null {
  if (input.flowStream !== undefined) return 'a streamed workload (flows made as they start)';
  if ((input.drivers ?? []).length > 0) return 'closed-loop workloads';
  if (input.fastForward !== undefined && input.fastForward !== null) return 'engine.fastForward (its skips need the whole network at once)';
  if (input.circuitSchedule !== undefined) return 'circuit schedules';
  if (input.topology.rdcn !== undefined) return 'reconfigurable fabrics';
  // plug-ins run on threads when their definition says so (`parallel`, engine/registry.ts): no global view,
  // each built-in one checked against one thread on 2 and 4 partitions (test/threads.test.ts)
  if (findCc(input.cc.name)?.parallel !== true) {
    return `cc ${input.cc.name} (the engine runs ${ccDefinitions().filter((c) => c.parallel === true).map((c) => c.name).join(', ')})`;
  }
  const disc = input.net.switch.discipline;
  if (disc !== undefined && findDiscipline(disc).parallel !== true) return `queue discipline ${disc} (its definition does not declare parallel: true)`;
  // transport strategies likewise (transport/strategies.ts): each built-in one with the flag is checked by test/threads.test.ts
  const t = input.net.transport;
  if (sendDriverRegistry.find(t.sendDriver)?.parallel !== true || lossRecoveryRegistry.find(t.retxMode)?.parallel !== true) {
    const on = (r: Iterable<{ name: string; parallel?: boolean }>): string => [...r].filter((d) => d.parallel === true).map((d) => d.name).join(', ');
    return `sendDriver ${t.sendDriver}, retxMode ${t.retxMode} (the engine runs send drivers ${on(sendDriverRegistry)} and loss recovery ${on(lossRecoveryRegistry)})`;
  }
  const lb = input.net.switch.loadBalancing;
  if (lb !== 'ecmp' && lb !== 'spray') return `loadBalancing ${lb} (the engine runs ecmp and spray)`;
  return null;
}


/**
 * Doubles a window's ring holds, the most any ordered pair of partitions needs: the cut links
 * from one to the other full of 64-byte frames for one lookahead (the window's length).
 */
function ringCapacity(input: SimInput, part: Partitioning): number {
  const P = part.count;
  const pair = new Float64Array(P * P);
  for (const l of input.topology.links) {
    const a = part.of[l.a]!;
    const b = part.of[l.b]!;
    if (a === b) continue;
    const frames = Math.ceil((part.lookaheadPs * l.rateBps) / (64 * 8 * 1e12)) + 2;
    pair[a * P + b]! += frames;
    pair[b * P + a]! += frames;
  }
  return Math.max(...pair) * CROSS_WORDS;
}

/**
 * Runs `input` on `part.count` threads; returns the merged output, or null when a partition
 * met the deadlock check's precondition (run it on one thread instead). `stats`, if given,
 * receives each partition's windows, events, crossings and times (bench/bench.ts).
 */
/**
 * Each worker thread starts from this bootstrap, which imports the worker module: a module that
 * fails to load (a broken install, a missing file) is reported on the worker's port and marked
 * in `done` like a failed partition, so the run ends with the error instead of waiting forever
 * for a partition that never started (issue 45).
 */
const WORKER_BOOT = `
const { workerData } = require('node:worker_threads');
import(workerData.entry).catch((e) => {
  const done = new Int32Array(workerData.done);
  try { workerData.report.postMessage({ ok: false, error: 'its module ' + workerData.entry + ' did not load: ' + (e && e.message ? e.message : String(e)) }); } catch {}
  Atomics.store(done, workerData.me, 2);
  Atomics.add(done, workerData.count + 1, 1);
  Atomics.notify(done, workerData.count + 1);
  Atomics.add(done, workerData.count, 1);
  Atomics.notify(done, workerData.count);
});
`;

/** How long the calling thread waits for the worker threads to load before it gives up (a loaded machine takes seconds). */
export const WORKER_START_TIMEOUT_MS = 120_000;

/**
 * Waits until every worker has loaded its module (or failed to); throws when one failed or
 * none answered in time. `done[count + 1]` counts the workers that started or failed.
 */
function awaitWorkerStart(done: Int32Array, count: number, ports: readonly MessagePort[], workers: readonly Worker[], timeoutMs: number): void {
  const t0 = Date.now();
  for (;;) {
    const started = Atomics.load(done, count + 1);
    if (started >= count - 1) break;
    if (Date.now() - t0 > timeoutMs) {
      for (const w of workers) void w.terminate();
      throw new Error(`parallel run: ${count - 1 - started} of ${count - 1} worker threads did not start within ${timeoutMs / 1000} s; run with --threads 1`);
    }
    Atomics.wait(done, count + 1, started, 200);
  }
  for (let me = 1; me < count; me++) {
    if (Atomics.load(done, me) !== 2) continue;
    const r = receiveMessageOnPort(ports[me - 1]!)?.message as PartitionReport | undefined;
    for (const w of workers) void w.terminate();
    throw new Error(`parallel run: worker thread ${me} failed to start: ${r?.error ?? 'no report'}; run with --threads 1`);
  }
}

export interface ParallelOptions {
  /**
   * The worker threads' module (default: ./parallel-worker.ts, which loads nothing first). A caller
   * whose inputs name plug-ins passes its own entry that loads them, then serves a partition
   * (servePartition, ./partition-worker.ts); experiment/run/parallel-worker.ts is the one ccsim runs.
   */
  workerUrl?: URL;
  /** structured-clonable data handed to that module's preparation step (the plug-in files to load) */
  workerSetup?: unknown;
  startTimeoutMs?: number;
}

export function runParallel(input: SimInput, part: Partitioning, stats?: PartitionStats[], opts: ParallelOptions = {}): SimOutput | null {
  const P = part.count;
  const { onProgress: _progress, fctSink, ...plain } = input;
  const capacity = ringCapacity(input, part);
  const barrier = new SharedArrayBuffer(WindowBarrier.bytes(P));
  const rings = Array.from({ length: P }, (_, a) => Array.from({ length: P }, (_, b) => (a === b ? null : new SharedArrayBuffer(WindowRing.bytes(capacity)))));
  // done[me]: 1 ok, 2 failed; done[P]: partitions ended; done[P + 1]: workers started (or failed to)
  const done = new Int32Array(new SharedArrayBuffer(4 * (P + 2)));
  const url = opts.workerUrl ?? entryUrl(import.meta.url, './parallel-worker.js', './parallel-worker.mjs');
  const workers: Worker[] = [];
  const ports: MessagePort[] = [];
  // the FCT breakdown: the partitions tell each other which flows completed (metrics/breakdown-merge.ts)
  const board = input.metrics.breakdown === true ? { board: finishBoard(input.flows.map((f) => f.src), part.of, P) } : {};
  const job = (me: number): PartitionJob => ({ input: plain, of: part.of, me, count: P, lookaheadPs: part.lookaheadPs, barrier, rings, capacity, ...board });
  // partitions 1..P-1 on worker threads; partition 0 on this thread, which would otherwise only wait
  for (let me = 1; me < P; me++) {
    const ch = new MessageChannel();
    ports.push(ch.port1);
    workers.push(new Worker(WORKER_BOOT, { eval: true, workerData: { ...job(me), entry: url.href, done: done.buffer, report: ch.port2, setup: opts.workerSetup }, transferList: [ch.port2] }));
  }
  // partition 0 waits at window barriers for every other partition: start it only once they all run
  awaitWorkerStart(done, P, ports, workers, opts.startTimeoutMs ?? WORKER_START_TIMEOUT_MS);
  const own = runPartition(job(0));
  // each worker posts its report, then sets its `done` word and wakes this thread
  for (;;) {
    let finished = 0;
    for (let me = 1; me < P; me++) if (Atomics.load(done, me) !== 0) finished++;
    if (finished === P - 1) break;
    Atomics.wait(done, P, Atomics.load(done, P), 200);
  }
  const reports = [own, ...ports.map((port) => receiveMessageOnPort(port)?.message as PartitionReport | undefined)];
  for (const w of workers) void w.terminate();
  for (const port of ports) port.close();
  const failed = reports.find((r) => r === undefined || !r.ok);
  if (failed !== undefined) throw new Error(`parallel run: a worker failed: ${failed?.error ?? 'no report'}`);
  if (stats !== undefined) for (const r of reports) stats.push(r!.stats!);
  if (reports.some((r) => r!.wholeNetwork === true)) return null;
  return merge(input, part, reports as PartitionReport[], fctSink ?? null);
}

/** The one-thread output from the partitions' reports. */
function merge(input: SimInput, part: Partitioning, reports: PartitionReport[], sink: SimInput['fctSink'] | null): SimOutput {
  const of = part.of;
  const outs = reports.map((r) => r.output!);
  const first = outs[0]!;
  // the recorder hands FCT rows on in flow id order, as on one thread
  const fin = reports.flatMap((r) => r.finishes!);
  fin.sort((a, b) => a.id - b.id);
  const recorder = new FctRecorder(input.net.metrics.clampSlowdownAt1, sink ?? null);
  const endPs = Math.max(...reports.map((r) => r.endPs!));
  // each flow's breakdown from its sender's partition, its worst port from all (metrics/breakdown-merge.ts)
  const bd = reports[0]!.breakdown !== undefined ? mergeBreakdown(reports.map((r) => r.breakdown!), of, endPs) : null;
  if (bd !== null) {
    recorder.attach = (row) => {
      const b = bd.byId.get(row.id);
      if (b !== undefined) row.breakdown = b;
    };
  }
  for (const f of fin) recorder.add(f);
  recorder.flush();
  const nodes = first.nodes.map((n) => outs[of[n.node]!]!.nodes[n.node]!);
  // sampled series from the partition that owns what they sample: a port's node, a flow's sender
  const bySrc = (flow: number): SimOutput => outs[of[input.flows[flow]!.src]!]!;
  const m = input.metrics;
  const queues = first.queues.slice(0, m.queuePorts.length).map((q, i) => outs[of[q.node]!]!.queues[i]!);
  const a0 = reports[0]!.auto;
  if (m.queueAuto !== undefined && a0 !== undefined && a0 !== null) {
    // `queues: auto`: each port's peak and samples from its own partition, then the same choice as one thread
    const owner = (i: number): AutoQueues => reports[of[a0.ports[i]!.node]!]!.auto!;
    const merged = { ...a0, peaks: a0.ports.map((_, i) => owner(i).peaks[i]!), bufs: a0.ports.map((_, i) => owner(i).bufs[i]!) };
    queues.push(...topAutoQueues(merged, m.queueAuto, m.queueIntervalPs));
  }
  const throughput = first.throughput.map((q, i) => outs[of[q.node]!]!.throughput[i]!);
  const flowThroughput = first.flowThroughput.map((q, i) => bySrc(q.flow).flowThroughput[i]!);
  const ccTrace = first.ccTrace === undefined ? undefined : { fields: first.ccTrace.fields, series: first.ccTrace.series.map((q, i) => bySrc(q.flow).ccTrace!.series[i]!) };
  const switchBuffer = first.switchBuffer?.map((q, i) => outs[of[q.node]!]!.switchBuffer![i]!);
  const ports = first.ports.map((p, i) => outs[of[p.node]!]!.ports[i]!);
  const unfinished = outs.flatMap((o, w) => o.unfinished.filter((u) => of[u.src] === w)).sort((a, b) => a.id - b.id);
  type Counted = 'finished' | 'retransmittedPackets' | 'timeouts' | 'dataPacketsSent' | 'trimmedPackets' | 'headerDrops' | 'returnedHeaders' | 'bfcPauses' | 'bfcSharedAssignments';
  const sum = (k: Counted): number => outs.reduce((a, o) => a + (o.totals[k] ?? 0), 0);
  // trimming switches' totals (NDP): each switch counts in its own partition only
  const trims = first.totals.trimmedPackets === undefined ? {} : { trimmedPackets: sum('trimmedPackets'), headerDrops: sum('headerDrops'), returnedHeaders: sum('returnedHeaders') };
  // BFC's totals: each switch counts in its own partition only; the busiest port's queue count is a maximum
  const bfc =
    first.totals.bfcPauses === undefined
      ? {}
      : { bfcPauses: sum('bfcPauses'), bfcSharedAssignments: sum('bfcSharedAssignments'), bfcMaxQueuesInUse: Math.max(...outs.map((o) => o.totals.bfcMaxQueuesInUse ?? 0)) };
  let drops = 0;
  let pausesSent = 0;
  for (const n of nodes) {
    drops += n.drops;
    pausesSent += n.pausesSent;
  }
  // the events of no node (the flow-start chain, the samplers, link events) run in every partition
  const globalEvents = reports[0]!.globalEvents!;
  const events = outs.reduce((a, o) => a + o.events, 0) - (reports.length - 1) * globalEvents;
  // a rule for every output field and every total, checked by the type system (issue 45): a field added to
  // SimOutput does not compile here until it says how the partitions' values combine. The merged object
  // keeps partition 0's key order, as the one-thread output has it.
  const totals: Rules<SimOutput['totals']> = {
    flows: first.totals.flows, // every partition makes every flow
    finished: sum('finished'),
    drops,
    pausesSent,
    retransmittedPackets: sum('retransmittedPackets'),
    timeouts: sum('timeouts'),
    dataPacketsSent: sum('dataPacketsSent'),
    // trimming switches' totals (NDP): each switch counts in its own partition only
    trimmedPackets: trims.trimmedPackets,
    headerDrops: trims.headerDrops,
    returnedHeaders: trims.returnedHeaders,
    bfcPauses: bfc.bfcPauses,
    bfcSharedAssignments: bfc.bfcSharedAssignments,
    bfcMaxQueuesInUse: bfc.bfcMaxQueuesInUse,
  };
  const rules: Rules<SimOutput> = {
    fct: recorder.rows,
    fctColumns: recorder.hasSink() ? recorder.columns() : undefined,
    unfinished,
    nodes,
    ports,
    queues,
    throughput,
    flowThroughput,
    ccTrace,
    switchBuffer,
    heldFlows: reports.reduce((a, r) => a + r.heldLocal!, 0),
    totals: inOrderOf(first.totals, totals),
    endPs,
    events,
    wallMs: Math.max(...outs.map((o) => o.wallMs)),
    // a deadlock stops every partition at the same window end; partition 0's report is the run's
    deadlock: first.deadlock,
    // closed-loop workloads run on one thread only (parallelUnsupported)
    jobs: undefined,
    breakdown: bd?.output,
    // fast-forward runs on one thread only (parallelUnsupported)
    fastForward: undefined,
  };
  return inOrderOf(first, rules);
}

/** One value per field of T, optional fields included (undefined: absent, or partition 0's value where it has the field). */
type Rules<T> = { [K in keyof Required<T>]: T[K] | undefined };

/** The merged object: `first`'s keys in its order with the rules' values (partition 0's where a rule gives none), then the rules' other defined values. */
function inOrderOf<T extends object>(first: T, rules: Rules<T>): T {
  const r = rules as Record<string, unknown>;
  const f = first as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(f)) out[k] = r[k] !== undefined ? r[k] : f[k];
  for (const k of Object.keys(r)) if (!(k in out) && r[k] !== undefined) out[k] = r[k];
  return out as T;
}
