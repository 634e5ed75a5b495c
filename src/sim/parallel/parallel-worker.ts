/**
 * The default worker thread of the parallel engine (./parallel.ts): serves one partition with
 * nothing loaded first, for inputs that name only built-in plug-ins (the API, bench/bench.ts).
 * ccsim's runs start experiment/run/parallel-worker.ts, which loads the user's plug-in modules.
 */
import { servePartition } from './partition-worker.js';

await servePartition(async () => {});
