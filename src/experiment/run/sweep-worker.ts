/**
 * Worker thread of `ccsim sweep`: runs the points it is sent, one at a time,
 * and reports progress and the outcome of each to the parent. It first loads
 * the plug-in modules the parent loaded (`workerData.plugins`,
 * experiment/run/plugins.ts), so a point names a user's CC or workload as the
 * parent's checks did.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../../engine/errors.js';
import { loadPlugins } from './plugins.js';
import { runPoint, type PointJob, type WorkerReply } from './sweep-point.js';

const port = parentPort;
if (port === null) throw new Error('sweep-worker must run as a worker thread');

const ready = loadPlugins((workerData as { plugins?: string[] } | null)?.plugins ?? []);

port.on('message', (job: PointJob) => {
  ready.then(
    () => {
      const reply = runPoint(job, (events, finishedFlows) => {
        const msg: WorkerReply = { type: 'progress', key: job.key, events, finishedFlows };
        port.postMessage(msg);
      });
      port.postMessage(reply);
    },
    (e: unknown) => {
      const reply: WorkerReply = { type: 'failed', key: job.key, error: errorMessage(e) };
      port.postMessage(reply);
    },
  );
});
