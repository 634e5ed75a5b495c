/**
 * Worker thread of `ccsim sweep`: runs the points it is sent, one at a time,
 * and reports progress and the outcome of each to the parent.
 */
import { parentPort } from 'node:worker_threads';
import { runPoint, type PointJob, type WorkerReply } from './sweep-point.js';

const port = parentPort;
if (port === null) throw new Error('sweep-worker must run as a worker thread');

port.on('message', (job: PointJob) => {
  const reply = runPoint(job, (events, finishedFlows) => {
    const msg: WorkerReply = { type: 'progress', key: job.key, events, finishedFlows };
    port.postMessage(msg);
  });
  port.postMessage(reply);
});
