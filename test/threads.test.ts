/**
 * Threads of one run (issue 31, stage 1; src/experiment/threads.ts): the spec's `threads`
 * and `ccsim run --threads`, the partition table of `--explain-partition`, the bounds
 * (partitions, cores) with a message saying why, and the manifest's record. Until the
 * parallel engine lands every run uses one thread; the results must then be byte-identical
 * whatever the thread count asked, which is what this test keeps true when it does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '../src/experiment/resolve.js';
import { runExperiment } from '../src/experiment/runner.js';
import { planSweep } from '../src/experiment/sweep.js';
import { PARALLEL_ENGINE, partitionTable, planThreads } from '../src/experiment/threads.js';
import { fatTreePreset, spineLeafPreset, star } from '../src/net/topology/index.js';
import { GBPS, US } from '../src/engine/units.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';

const dir = tempDir('threads-test');

test('one thread asked: no partitioning is computed, nothing to say', () => {
  const p = planThreads(fatTreePreset('oscar320'), 1, 'spec', 2);
  assert.deepEqual({ used: p.used, partitions: p.partitions, notes: p.notes, partitioning: p.partitioning }, { used: 1, partitions: 1, notes: [], partitioning: null });
});

test('more threads than cores or than partitions: bounded, with the reason', () => {
  const cores = planThreads(fatTreePreset('oscar320'), 8, 'option', 2);
  assert.equal(cores.partitions, 2);
  assert.match(cores.notes[0]!, /this machine has 2 cores/);
  const parts = planThreads(star({ hosts: 4, rateBps: 100 * GBPS, delayPs: US }), 4, 'spec', 64);
  assert.equal(parts.partitions, 1);
  assert.match(parts.notes[0]!, /splits into 1 ToR group/);
  if (!PARALLEL_ENGINE) {
    assert.equal(cores.used, 1);
    assert.match(cores.notes.at(-1)!, /parallel engine is not built yet/);
  }
});

test('the partition table shows the split asked for, its cross links and lookahead, and what this machine uses', () => {
  const topo = spineLeafPreset('oscar64');
  const lines = partitionTable(topo, planThreads(topo, 4, 'option', 2));
  assert.match(lines[0]!, /64 hosts, 18 switches, 96 links; 16 leaf groups; 4 threads asked \(option\): 4 partitions/);
  assert.match(lines[1]!, /^partition\s+nodes\s+hosts\s+switches\s+links\s+ports\s+cross links$/);
  assert.equal(lines.slice(2, 6).length, 4);
  assert.match(lines.join('\n'), /lookahead \(smallest cross-partition delay\): 1\.000us/);
  assert.match(lines.join('\n'), /this machine: 2 partitions/);
});

test('spec `threads` is validated with the field named', () => {
  const base = { name: 'x', topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' }, cc: 'none', workload: [{ type: 'incast', fanIn: 2, size: '10KB', receiver: 2, at: [0] }] };
  assert.equal(parseSpec(base).threads, 1);
  assert.equal(parseSpec({ ...base, threads: 4 }).threads, 4);
  assert.throws(() => parseSpec({ ...base, threads: 0 }), /threads: 0/);
  assert.throws(() => parseSpec({ ...base, threads: 1.5 }), /threads: 1\.5/);
});

const SPEC = `name: threads-demo
topology: { type: spineLeaf, spines: 2, leaves: 4, hostsPerLeaf: 2, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: poisson, cdf: cachefollower, load: 0.5, duration: 50us }
  - { type: incast, fanIn: 4, size: 64KB, at: [10us] }
stop: { maxTime: 10ms }
`;

test('results are byte-identical for 1, 2 and 4 threads asked; the manifest records the threads asked and used', async () => {
  const spec = join(dir, 'threads-demo.yaml');
  writeFileSync(spec, SPEC);
  const digests: string[] = [];
  for (const threads of [1, 2, 4]) {
    const out = join(dir, `out-${threads}`);
    const r = await runExperiment(spec, { out, quiet: true, threads });
    assert.ok(r.output.fct.length > 0 || r.summary.fct.overall.count > 0, 'flows finished');
    const files = r.files.filter((f) => f !== 'manifest.json').sort();
    digests.push(files.map((f) => `${f} ${createHash('sha256').update(readFileSync(join(out, f))).digest('hex')}`).join('\n'));
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { threads: { requested: number; used: number; from: string } };
    assert.equal(m.threads.requested, threads);
    assert.equal(m.threads.from, 'option');
    assert.equal(m.threads.used, PARALLEL_ENGINE ? r.threads.used : 1);
  }
  assert.equal(digests[1], digests[0]);
  assert.equal(digests[2], digests[0]);
});

test('ccsim run --explain-partition prints the table and runs nothing; a bad --threads is a usage error', () => {
  const spec = join(dir, 'explain.yaml');
  writeFileSync(spec, SPEC.replace('threads-demo', 'explain'));
  const r = spawnSync(process.execPath, [CLI, 'run', spec, '--threads', '2', '--explain-partition'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /4 leaf groups; 2 threads asked \(option\): 2 partitions/);
  assert.match(r.stdout, /cross-partition links: \d+; lookahead/);
  assert.doesNotMatch(r.stdout, /simulat/);
  const bad = spawnSync(process.execPath, [CLI, 'run', spec, '--threads', '0'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--threads/);
  assert.doesNotMatch(bad.stderr, /^\s+at /m);
});

test('a sweep point keeps its hash whatever `threads` says: a finished point is not run again for another thread count', () => {
  const plain = join(dir, 'sweep-plain.yaml');
  const threaded = join(dir, 'sweep-threaded.yaml');
  const body = SPEC.replace('threads-demo', 'sweep-threads') + 'sweep:\n  cc: [dcqcn, hpcc]\n';
  writeFileSync(plain, body);
  writeFileSync(threaded, body + 'threads: 2\n');
  const a = planSweep(plain, { quick: false });
  const b = planSweep(threaded, { quick: false });
  assert.equal(a.points.length, 2);
  assert.deepEqual(b.points.map((p) => p.hash), a.points.map((p) => p.hash));
  assert.equal(b.points[0]!.spec.threads, 2);
});
