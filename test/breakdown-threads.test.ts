/**
 * The FCT breakdown on the parallel engine (issue 41; metrics/breakdown-merge.ts): a run on two
 * threads writes the same fct.csv (breakdown columns, worst ports), breakdown_ports and summary.json
 * byte for byte as on one thread, on runs whose flows, queueing and PFC pauses cross partitions:
 * Poisson and an incast with PFC on a spine-leaf, an incast on a fat tree that pauses across the
 * cut, a lossy go-back-N run, and NDP's trimming with spraying.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExperiment } from '../src/experiment/run/runner.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('breakdown-threads-test');
const LEAVES = '{ type: spineLeaf, spines: 2, leaves: 4, hostsPerLeaf: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }';

const SPECS: Record<string, string> = {
  'poisson-incast-pfc': `topology: ${LEAVES}
cc: hpcc
workload:
  - { type: poisson, cdf: cachefollower, load: 0.6, duration: 60us }
  - { type: incast, fanIn: 12, size: 64KB, receiver: 0, at: [10us] }
stop: { maxTime: 10ms }`,
  'fattree-pfc-cross': `topology: { type: fatTree, pods: 4, edgesPerPod: 2, aggsPerPod: 2, hostsPerEdge: 4, cores: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
network: { switch: { bufferBytes: 300KB } }
cc: { name: none, params: { window: none } }
workload:
  - { type: incast, fanIn: 24, size: 64KB, receiver: 0, at: [0] }
  - { type: poisson, cdf: websearch, load: 0.3, duration: 30us }
stop: { maxTime: 10ms }`,
  'lossy-gbn': `profile: oscar
topology: ${LEAVES}
network: { switch: { pfcEnabled: false, bufferBytes: 800KB } }
cc: dcqcn
workload:
  - { type: incast, fanIn: 8, size: 200KB, receiver: 0, at: [0] }
stop: { maxTime: 20ms }`,
  'ndp-trim-spray': `topology: ${LEAVES}
cc: ndp
workload:
  - { type: incast, fanIn: 12, size: 100KB, receiver: 0, at: [0] }
  - { type: poisson, cdf: websearch, load: 0.4, duration: 30us }
stop: { maxTime: 10ms }`,
};

for (const [name, body] of Object.entries(SPECS)) {
  test(`breakdown on 2 threads is byte-identical to 1 thread: ${name}`, async () => {
    const spec = join(dir, `${name}.yaml`);
    writeFileSync(spec, `name: ${name}\n${body}\nmetrics: { breakdown: true }\n`);
    const read = (out: string, files: string[]): Map<string, string> => new Map(files.filter((f) => f !== 'manifest.json').map((f) => [f, readFileSync(join(out, f), 'utf8')]));
    const one = await runExperiment(spec, { out: join(dir, `${name}-1`), quiet: true, threads: 1 });
    const two = await runExperiment(spec, { out: join(dir, `${name}-2`), quiet: true, threads: 2 });
    assert.equal(two.threads.used, 2, `the run used 2 threads (${two.threads.notes.join('; ')})`);
    const a = read(join(dir, `${name}-1`), one.files);
    const b = read(join(dir, `${name}-2`), two.files);
    assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
    assert.ok(a.has('fct.csv') && a.has('summary.json') && [...a.keys()].some((f) => f.startsWith('breakdown_ports')), [...a.keys()].join(', '));
    for (const [f, text] of a) assert.equal(b.get(f), text, `${f} differs`);
    assert.match(a.get('fct.csv')!, /tx_ps/);
    assert.ok(one.summary.fct.overall.count > 0);
    if (name === 'lossy-gbn') assert.ok(one.output.totals.drops > 0 && one.output.totals.timeouts > 0, 'drops and timeouts');
    if (name === 'fattree-pfc-cross') assert.ok(one.output.totals.pausesSent > 0, 'PFC pauses');
  });
}
