/**
 * A worker thread of the parallel engine (experiment/parallel.ts): runs one partition's window
 * loop (experiment/partition-loop.ts), posts its report and wakes the thread that started the run.
 * It first loads the plug-in modules the starting thread loaded (experiment/plugins.ts).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { WindowBarrier } from '../../engine/window-sync.js';
import { errorMessage } from '../../engine/errors.js';
import { runPartition, type PartitionJob, type PartitionReport } from './partition-loop.js';
import { loadPlugins } from '../../experiment/run/plugins.js';

const j = workerData as PartitionJob & { done: SharedArrayBuffer; report: MessagePort; plugins: string[] };
const done = new Int32Array(j.done);
// loaded: the calling thread starts its own partition once every worker got here (experiment/parallel.ts)
Atomics.add(done, j.count + 1, 1);
Atomics.notify(done, j.count + 1);
let report: PartitionReport;
try {
  await loadPlugins(j.plugins);
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
void parentPort;
