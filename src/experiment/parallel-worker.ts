/**
 * A worker thread of the parallel engine (experiment/parallel.ts): runs one partition's window
 * loop (experiment/partition-loop.ts), posts its report and wakes the thread that started the run.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { runPartition, type PartitionJob } from './partition-loop.js';

const j = workerData as PartitionJob & { done: SharedArrayBuffer; report: MessagePort };
const done = new Int32Array(j.done);
// loaded: the calling thread starts its own partition once every worker got here (experiment/parallel.ts)
Atomics.add(done, j.count + 1, 1);
Atomics.notify(done, j.count + 1);
const report = runPartition(j);
j.report.postMessage(report);
Atomics.store(done, j.me, report.ok === true ? 1 : 2);
Atomics.add(done, j.count, 1);
Atomics.notify(done, j.count);
void parentPort;
