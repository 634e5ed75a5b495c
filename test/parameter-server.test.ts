/**
 * The parameter-server workload (src/workload/parameter-server.ts; issue 25):
 * workers push shards to every server, a server answers every worker once all
 * shards of the iteration arrived, a worker pushes again `compute` after its
 * last answer; job iterations in `jobs`; spec errors; determinism.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specErrorOf } from './helpers/specs.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import type { FctRow, SimOutput } from '../src/sim/types.js';
import { loadModel, modelComputePs } from '../src/workload/collective-model.js';

function spec(workload: unknown[]): unknown {
  return { name: 'ps', seed: 1, topology: { type: 'star', hosts: 8, rate: '100Gbps', delay: '1us' }, cc: { name: 'none' }, workload };
}

function run(workload: unknown[]): { out: SimOutput; rows: FctRow[] } {
  const out = simulate(resolveSpec(parseSpec(spec(workload)), '.'));
  assert.equal(out.unfinished.length, 0);
  return { out, rows: [...out.fct].sort((a, b) => a.id - b.id) };
}

const ps = { type: 'parameterServer', workers: [0, 1, 2, 3], servers: [6, 7], bytes: '400KB', iterations: 3, compute: '10us' };

test('parameter server: pushes, answers after all shards, next push after compute', () => {
  const { out, rows } = run([ps]);
  const W = 4;
  const S = 2;
  assert.equal(rows.length, 3 * 2 * W * S);
  assert.ok(rows.every((r) => r.bytes === 200_000 && r.tag === 'parameterServer'));
  const isServer = (h: number): boolean => h >= 6;
  for (const s of [6, 7]) {
    const pushes = rows.filter((r) => r.dst === s);
    const answers = rows.filter((r) => r.src === s);
    assert.equal(pushes.length, 3 * W);
    assert.equal(answers.length, 3 * W);
    for (let it = 0; it < 3; it++) {
      // a server's answers of iteration `it` start when the last of its W pushes of `it` finished
      const lastPush = Math.max(...pushes.slice(it * W, it * W + W).map((r) => r.finishPs));
      assert.ok(answers.slice(it * W, it * W + W).every((r) => r.startPs === lastPush));
    }
  }
  for (const w of [0, 1, 2, 3]) {
    const pushes = rows.filter((r) => r.src === w);
    const answers = rows.filter((r) => r.dst === w && isServer(r.src));
    for (let it = 1; it < 3; it++) {
      const lastAnswer = Math.max(...answers.slice((it - 1) * S, it * S).map((r) => r.finishPs));
      assert.ok(pushes.slice(it * S, it * S + S).every((r) => r.startPs === lastAnswer + 10_000_000));
    }
  }
  const jobs = out.jobs!;
  assert.deepEqual(jobs.map((j) => [j.job, j.iteration, j.bytes]), [0, 1, 2].map((i) => ['parameterServer', i, 2 * W * S * 200_000]));
  assert.equal(jobs[2]!.finishPs, out.endPs);
  // determinism
  assert.deepEqual(run([ps]).out.fct, out.fct);
});

test('parameter server spec errors name the field', () => {
  const bad = (w: Record<string, unknown>): string => specErrorOf(() => resolveSpec(parseSpec(spec([w])), '.'));
  assert.match(bad({ ...ps, bytes: 3 }), /workload\[0\]\.bytes: 3 .*not divisible by the 2 servers/);
  assert.match(bad({ ...ps, servers: [3, 7] }), /workload\[0\]\.servers\[0\]: 3 .*also a worker/);
  assert.match(bad({ ...ps, workers: [0, 9] }), /workload\[0\]\.workers\[1\]: 9 .*not a host/);
});

test('parameter server with a model: one push per layer and server in backward order, answered per shard', () => {
  const e = { type: 'parameterServer', workers: [0, 1, 2], servers: [6, 7], model: 'alexnet', scale: 0.001, computeScale: 0.001, iterations: 2 };
  const { out, rows } = run([e]);
  const layers = loadModel('alexnet').layers;
  const K = layers.length * 2;
  assert.equal(rows.length, 2 * 2 * 3 * K);
  // worker 0's first pushes: fc8 first (backward order), each layer split over the two servers
  const pushes = rows.filter((r) => r.src === 0).slice(0, K);
  const expected = [...layers].reverse().flatMap((l) => [6, 7].map((s) => [s, Math.ceil(Math.ceil(l.gradientBytes * 0.001) / 2)]));
  assert.deepEqual(pushes.map((r) => [r.dst, r.bytes]), expected);
  // compute comes first: the first push starts after the model's compute time
  const compute = modelComputePs(loadModel('alexnet'), 0.001);
  assert.equal(out.jobs![0]!.startPs, compute);
  // the next iteration starts `compute` after the first worker got all its answers
  const lastAnswer = (w: number): number => Math.max(...rows.filter((r) => r.dst === w && r.startPs < out.jobs![0]!.finishPs).map((r) => r.finishPs));
  assert.equal(out.jobs![1]!.startPs, Math.min(lastAnswer(0), lastAnswer(1), lastAnswer(2)) + compute);
  // a shard's answers start when its last push arrived, not when the whole model did
  const fc8to6 = rows.filter((r) => r.dst === 6 && r.bytes === expected[0]![1] && r.startPs < out.jobs![0]!.finishPs);
  const answers = rows.filter((r) => r.src === 6 && r.bytes === expected[0]![1] && r.startPs < out.jobs![0]!.finishPs);
  assert.equal(answers.length, 3);
  assert.ok(answers.every((a) => a.startPs === Math.max(...fc8to6.filter((r) => r.src !== 6).map((r) => r.finishPs))));
  // sharding: layer gives each layer whole to one server, round robin
  const byLayer = run([{ ...e, sharding: 'layer', iterations: 1 }]).rows.filter((r) => r.src === 0);
  assert.deepEqual(byLayer.map((r) => r.dst), [...layers].reverse().map((_, i) => [6, 7][i % 2]));
  const bad = (w: Record<string, unknown>): string => specErrorOf(() => resolveSpec(parseSpec(spec([w])), '.'));
  assert.match(bad({ ...e, model: 'lenet' }), /workload\[0\]\.model: "lenet" .*unknown model/);
  assert.match(bad({ ...e, bytes: 4000 }), /workload\[0\]\.bytes.*not used with model/);
});
