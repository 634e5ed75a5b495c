/**
 * Threads of one run (issue 31, stage 1; src/sim/parallel/threads.ts): the spec's `threads`
 * and `ccsim run --threads`, the partition table of `--explain-partition`, the bounds
 * (partitions, cores) with a message saying why, and the manifest's record. Until the
 * parallel engine lands every run uses one thread; the results must then be byte-identical
 * whatever the thread count asked, which is what this test keeps true when it does.
 */
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec } from '../src/experiment/spec/resolve.js';
import { runExperiment } from '../src/experiment/run/runner.js';
import { planSweep } from '../src/experiment/run/sweep.js';
import { PARALLEL_ENGINE, partitionTable, planThreads } from '../src/sim/parallel/threads.js';
import { fatTreePreset, spineLeafPreset, star } from '../src/net/topology/index.js';
import { GBPS, US } from '../src/engine/units.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { holdGridPs, partitionTopology } from '../src/net/topology/partition.js';
import { simulate } from '../src/sim/simulate.js';
import { noMetrics, type SimInput, type SimOutput } from '../src/sim/types.js';
import { parallelUnsupported, runParallel } from '../src/sim/parallel/parallel.js';
import { availableParallelism } from 'node:os';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
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

/** The output as JSON without the wall time. */
const outputJson = (o: SimOutput): string => JSON.stringify({ ...o, wallMs: 0 });

const PFC_CROSS = `name: pfc-cross
profile: oscar
topology: { type: fatTree, preset: oscar320 }
network: { switch: { bufferBytes: 2MiB } }
cc: none
workload:
  - { type: incast, fanIn: 100, size: 64KB, receiver: 0, at: [0] }
stop: { maxTime: 5ms }
`;

// ---- stage 4: the parallel engine (sim/parallel/parallel.ts): worker threads, one partition each

const FIXED = SPEC.replace('threads-demo', 'threads-fixed').replace('duration: 50us', 'duration: 100us').replace('stop: { maxTime: 10ms }', 'stop: { at: 300us }');

test('the parallel engine writes the same result files on 2 threads as on 1 (a fixed-end run), and the manifest says it used them', async () => {
  const spec = join(dir, 'threads-fixed.yaml');
  writeFileSync(spec, FIXED);
  const digests: string[] = [];
  for (const threads of [1, 2]) {
    const out = join(dir, `fixed-${threads}`);
    const r = await runExperiment(spec, { out, quiet: true, threads });
    assert.equal(r.threads.used, Math.min(threads, availableParallelism(), 4));
    const files = r.files.filter((f) => f !== 'manifest.json').sort();
    digests.push(files.map((f) => `${f} ${createHash('sha256').update(readFileSync(join(out, f))).digest('hex')}`).join('\n'));
  }
  assert.equal(digests[1], digests[0]);
});

/** The engine's output against the plain run's, for partition counts beyond this machine's cores. */
function checkThreaded(spec: string, counts: number[], edit: (i: SimInput) => void, keepMetrics = false): { cutPauses: number[]; plain: SimOutput } {
  const make = (): SimInput => {
    const { input } = loadAndResolve(spec, {}, { quick: false });
    if (!keepMetrics) input.metrics = noMetrics();
    edit(input);
    assert.equal(parallelUnsupported(input), null);
    return input;
  };
  const one = simulate(make());
  const plain = outputJson(one);
  const cutPauses: number[] = [];
  for (const n of counts) {
    const input = make();
    const part = partitionTopology(input.topology, n);
    assert.equal(part.count, n, `${spec}: ${n} partitions`);
    const out = runParallel(input, part);
    assert.ok(out !== null, 'no worker needed the whole network');
    // (heldFlows, a memory diagnostic no result file shows, counts flows kept for a receiver's CNP timer differently)
    assert.equal(JSON.stringify({ ...JSON.parse(outputJson(out)), heldFlows: 0 }), JSON.stringify({ ...JSON.parse(plain), heldFlows: 0 }), `${spec}: the output on ${n} threads is the one-thread run's`);
    // what crossed: PAUSE frames sent on cut links
    cutPauses.push(out.ports.filter((r) => part.of[r.node] !== part.of[r.peer]).reduce((a, r) => a + r.pausesSent, 0));
  }
  return { cutPauses, plain: one };
}

test('on 2 and 4 threads the engine gives the one-thread output: the demo (300 us) and the 320-host fat tree (DCQCN, 15 us of arrivals, 60 us)', () => {
  checkThreaded(join(ROOT, 'examples', 'demo.yaml'), [2, 4], (i) => {
    i.stopAtPs = 300 * US;
    i.maxTimePs = 300 * US;
  });
  checkThreaded(join(ROOT, 'examples', 'fattree-cachefollower.yaml'), [2, 4], (i) => {
    i.flows = i.flows.filter((f) => f.startPs < 15 * US);
    i.stopAtPs = 60 * US;
    i.maxTimePs = 60 * US;
  });
});

test('on 2 and 4 threads PFC frames cross between workers and the output is the one-thread run\'s (100:1 incast, 2 MiB buffers, to 3 ms)', () => {
  const spec = join(dir, 'pfc-threads.yaml');
  writeFileSync(spec, PFC_CROSS);
  const { cutPauses } = checkThreaded(spec, [2, 4], (i) => {
    i.stopAtPs = 3000 * US;
    i.maxTimePs = 3000 * US;
  });
  for (const c of cutPauses) assert.ok(c > 10, `PAUSE frames on cut links: ${c}`);
});

test('runs until every flow finishes end on the end grid, on 2 and 4 threads as on one: the demo (25 us of arrivals), the 320-host tree (10 us) and the 100:1 incast', () => {
  const until = (i: SimInput, arrivalsPs: number): void => {
    i.flows = i.flows.filter((f) => f.startPs < arrivalsPs);
    i.stopAtPs = null;
  };
  checkThreaded(join(ROOT, 'examples', 'demo.yaml'), [2, 4], (i) => until(i, 25 * US));
  checkThreaded(join(ROOT, 'examples', 'fattree-cachefollower.yaml'), [2, 4], (i) => until(i, 10 * US));
  const spec = join(dir, 'pfc-threads-done.yaml');
  writeFileSync(spec, PFC_CROSS);
  checkThreaded(spec, [2], (i) => until(i, Infinity));
});

test('a run until every flow finishes ends with the end grid\'s window in which the last flow finished', () => {
  const { input } = loadAndResolve(join(ROOT, 'examples', 'demo.yaml'), {}, { quick: false });
  input.metrics = noMetrics();
  input.flows = input.flows.filter((f) => f.startPs < 25 * US);
  const out = simulate(input);
  const lastFinish = Math.max(...out.fct.map((r) => r.finishPs));
  const grid = holdGridPs(input.topology);
  assert.ok(grid > 0 && grid <= 10 * US, `grid ${grid} ps`);
  assert.equal(out.endPs, (Math.floor(lastFinish / grid) + 1) * grid - 1, `last finish ${lastFinish} ps, grid ${grid} ps`);
});

test('samplers give the one-thread series on 2 and 4 threads: queues (chosen and auto), throughput, flow goodput, CC traces, switch buffers (demo, 200 us, until done)', () => {
  const { plain } = checkThreaded(
    join(ROOT, 'examples', 'demo.yaml'),
    [2, 4],
    (i) => {
      i.flows = i.flows.filter((f) => f.startPs < 20 * US);
      i.stopAtPs = null;
      i.maxTimePs = 200 * US;
      i.cc = { name: 'hpcc', params: {} };
      const m = i.metrics;
      assert.ok(m.queueAuto !== undefined && m.throughputPorts.length > 0, 'the demo samples queues: auto and throughput');
      m.queuePorts = [{ node: 64, port: 0 }, { node: 80, port: 3 }];
      m.flowThroughput = [0, 1, 2, 5];
      m.ccTrace = [0, 3];
      m.switchBuffer = { nodes: [64, 80], intervalPs: 2 * US, block: 3 };
    },
    true,
  );
  // what was compared is not empty: 2 chosen + 4 auto queue series, each sampler with samples
  assert.equal(plain.queues.length, 6);
  for (const series of [plain.queues, plain.throughput, plain.flowThroughput, plain.ccTrace!.series, plain.switchBuffer!]) {
    assert.ok(series.length > 0 && series.every((q) => q.t.length > 0), 'every sampled series has samples');
  }
  assert.ok(plain.queues.some((q) => q.v.some((v) => v > 0)), 'queues were non-empty');
});

test('link events (rate, down, up, one way) run in every partition and give the one-thread output on 2 and 4 threads (the reference example)', () => {
  let fired = 0;
  const { plain } = checkThreaded(
    join(ROOT, 'examples', 'reference.yaml'),
    [2, 4],
    (i) => {
      // its rate change at 100 us, and a leaf-spine link going down and coming back, one direction first
      i.linkEvents = [...i.linkEvents, { atPs: 30 * US, a: 16, b: 20, kind: 'down' }, { atPs: 60 * US, a: 16, b: 20, kind: 'up', oneWay: true }, { atPs: 80 * US, a: 20, b: 16, kind: 'up' }];
      fired = i.linkEvents.length;
    },
    true,
  );
  assert.equal(fired, 4);
  // the outage matters: without it the run is another one
  const { input } = loadAndResolve(join(ROOT, 'examples', 'reference.yaml'), {}, { quick: false });
  assert.notEqual(simulate(input).events, plain.events);
});

test('NDP (trimming, spraying, pulls) and BFC (per-flow backpressure, with and without OSCAR) give the one-thread output on 2 and 4 threads (demo, 150 us)', () => {
  const bfc = { queues: 32, pauseBytes: 25000, resumeBytes: 22000, flowTableSize: 1024, cls: -1 };
  const cases: [string, (i: SimInput) => void][] = [
    ['ndp', () => {}],
    ['none', (i) => (i.net = { ...i.net, switch: { ...i.net.switch, pfcEnabled: false, bfc } })],
    ['oscar', (i) => (i.net = { ...i.net, switch: { ...i.net.switch, pfcEnabled: false, bfc } })],
  ];
  for (const [name, net] of cases) {
    const { plain } = checkThreaded(join(ROOT, 'examples', 'demo.yaml'), [2, 4], (i) => {
      i.cc = { name, params: {} };
      net(i);
      i.stopAtPs = 150 * US;
      i.maxTimePs = 150 * US;
    });
    assert.ok(plain.totals.finished > 0, name);
    // NDP's trimming switches count in their own partitions; the merge sums them
    if (name === 'ndp') assert.ok(plain.totals.trimmedPackets! > 0, 'NDP trimmed packets');
  }
});

test('the other papers\' CCs and Homa give the one-thread output on 2 and 4 threads: OSCAR, Poseidon, ACC, CCC, SQCC, TCD variants, Homa (demo, 100 us)', () => {
  for (const name of ['oscar', 'poseidon', 'acc', 'dcqcn-tcd', 'ccc', 'sqcc', 'timely-patched', 'homa']) {
    checkThreaded(join(ROOT, 'examples', 'demo.yaml'), [2, 4], (i) => {
      i.cc = { name, params: {} };
      // ACC and the TCD variants read TCD marks (ACC §2.2)
      i.net = { ...i.net, switch: { ...i.net.switch, tcd: { ...i.net.switch.tcd, enabled: true } } };
      i.stopAtPs = 100 * US;
      i.maxTimePs = 100 * US;
    });
  }
});

test('what the engine does not run yet is named, and the run uses one thread: closed loops, a CC it does not run', () => {
  const topo = spineLeafPreset('oscar64');
  const p = planThreads(topo, 2, 'option', 2, 'closed-loop workloads');
  assert.equal(p.used, 1);
  assert.match(p.notes.at(-1)!, /does not yet run closed-loop workloads: the run uses one thread/);
  const { input } = loadAndResolve(join(ROOT, 'examples', 'demo.yaml'), {}, { quick: false });
  input.stopAtPs = 100 * US;
  assert.equal(parallelUnsupported(input), null, 'samplers run in parallel');
  input.cc = { name: 'oracle', params: {} };
  assert.match(parallelUnsupported(input)!, /cc oracle/);
});

test('the bundled ccsim runs a fixed-end spec on two worker threads (parallel-worker.mjs beside the bundle) with the one-thread result files', (t) => {
  if (!PARALLEL_ENGINE || availableParallelism() < 2) {
    t.skip('needs the parallel engine and two cores');
    return;
  }
  const spec = join(dir, 'bundle-threads.yaml');
  writeFileSync(spec, SPEC.replace('threads-demo', 'bundle-threads').replace('stop: { maxTime: 10ms }', 'stop: { at: 200us }'));
  const digest = (threads: number): string => {
    const out = join(dir, `bundle-${threads}`);
    const r = spawnSync(process.execPath, [CLI, 'run', spec, '--threads', String(threads), '--out', out, '-q'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
    assert.equal(r.status, 0, r.stderr);
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { threads: { used: number } };
    assert.equal(m.threads.used, threads, `threads used with --threads ${threads}`);
    return createHash('sha256').update(readFileSync(join(out, 'fct.csv'))).update(readFileSync(join(out, 'summary.json'))).digest('hex');
  };
  assert.equal(digest(2), digest(1));
});
