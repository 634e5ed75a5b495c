/**
 * The body of a worker thread of the parallel engine (./parallel.ts): prepares the thread (a
 * caller's step, such as loading the plug-in modules the starting thread loaded), runs one
 * partition's window loop (./partition-loop.ts), posts its report and wakes the thread that
 * started the run. A worker module is one call of `servePartition` (./parallel-worker.ts, or
 * experiment/run/parallel-worker.ts, which loads plug-ins first).
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { WindowBarrier } from '../../engine/window-sync.js';
import { errorMessage } from '../../engine/errors.js';
import { runPartition, type PartitionJob, type PartitionReport } from './partition-loop.js';

/** Serves this worker thread's partition; `prepare` gets the run's `workerSetup` (ParallelOptions). */
export async function servePartition(prepare: (setup: unknown) => Promise<void>): Promise<void> {
  const j = workerData as PartitionJob & { done: SharedArrayBuffer; report: MessagePort; setup: unknown };
  const done = new Int32Array(j.done);
  // loaded: the calling thread starts its own partition once every worker got here (./parallel.ts)
  Atomics.add(done, j.count + 1, 1);
  Atomics.notify(done, j.count + 1);
  let report: PartitionReport;
  try {
    await prepare(j.setup);
    report = runPartition(j);
  } catch (e) {
    // the other partitions stop instead of waiting for this one (as runPartition does on a failure)
    WindowBarrier.fail(j.barrier);
    report = { ok: false, error: errorMessage(e) };
  }
  j.report.postMessage(report);
  Atomics.store(done, j.me, report.ok === true ? 1 : 2);
  Atomics.add(done, j.count, 1);
  Atomics.notify(done, j.count);
}
