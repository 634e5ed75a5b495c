// Run a spec, a sweep and a report from a Node script (docs/api.md).
// Usage: node examples/api/sweep-and-report.mjs [work folder]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateCost, loadAndResolve, runExperiment, runSweep, writeReport } from 'ccsim';

const work = process.argv[2] ?? 'results/api-example';
mkdirSync(work, { recursive: true });

// 1. spec files: a 16-host leaf-spine, an 8:1 incast on top of web-search traffic;
//    the same with a `sweep:` block over two CCs
const base = `name: api-incast
topology: { type: spineLeaf, spines: 2, leaves: 2, hostsPerLeaf: 8, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: poisson, cdf: websearch, load: 0.3, duration: 50us }
  - { type: incast, fanIn: 8, size: 64KB, receiver: 0, at: [10us] }
metrics:
  queues: auto
`;
const spec = join(work, 'incast.yaml');
writeFileSync(spec, base);
const sweepSpec = join(work, 'incast-sweep.yaml');
writeFileSync(sweepSpec, `${base}sweep:\n  cc: [hpcc, dcqcn]\n`);

// 2. what a run will cost, before running it
const { input } = loadAndResolve(spec);
const cost = estimateCost(input);
console.log(`${cost.flows} flows, ${cost.packets} packets, about ${cost.wallSecs.toFixed(1)} s per run`);

// 3. one run: results in <work>/run (fct.csv, summary.json, queues.csv, ...)
const run = await runExperiment(spec, { out: join(work, 'run'), quiet: true });
const o = run.summary.fct.overall;
console.log(`run: ${run.summary.totals.finished} flows finished, mean slowdown ${o.meanSlowdown.toFixed(3)}, p99 ${o.p99Slowdown.toFixed(3)}`);

// 4. the sweep: every point on worker threads, resumable
const sweep = await runSweep(sweepSpec, { out: join(work, 'sweep'), jobs: 2, quiet: true });
console.log(`sweep: ${sweep.finished}/${sweep.plan.points.length} points finished`);

// 5. the HTML report of the sweep (self-contained, interactive)
const report = writeReport(sweep.dir);
console.log(`report: ${report.file} (${report.charts} charts)`);
