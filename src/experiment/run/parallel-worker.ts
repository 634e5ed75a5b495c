/**
 * The worker thread of a parallel run that ccsim starts (./runner.ts): loads the plug-in modules
 * the starting thread loaded (./plugins.ts; `workerSetup.plugins`), then serves its partition
 * (sim/parallel/partition-worker.ts). The bundle ships it as parallel-worker.mjs.
 */
import { servePartition } from '../../sim/parallel/partition-worker.js';
import { loadPlugins } from './plugins.js';

await servePartition(async (setup) => {
  await loadPlugins((setup as { plugins?: string[] } | undefined)?.plugins ?? []);
});
