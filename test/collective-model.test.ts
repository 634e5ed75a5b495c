/**
 * The collective workload's training forms (issue 25): `model:` all-reduces
 * the shipped per-layer gradients (data/models) in buckets after the model's
 * compute time; MoE all-to-all draws each pass's destinations from the expert
 * distribution with the entry's seeded stream; `schedule:` runs a schedule
 * file (a ring all-reduce written as a schedule gives exactly the flows of
 * `op: allreduce`); spec errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { specErrorOf } from './helpers/specs.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import type { FctRow, SimOutput } from '../src/sim/types.js';
import { gradientBuckets, loadModel, modelComputePs } from '../src/workload/collective-model.js';
import { expertCdf } from '../src/workload/collective-moe.js';
import { tempDir } from './helpers/tmp.js';

function spec(workload: unknown[], seed = 1): Record<string, unknown> {
  return { name: 'coll', seed, topology: { type: 'star', hosts: 8, rate: '100Gbps', delay: '1us' }, cc: { name: 'none' }, workload };
}

function run(workload: unknown[], dir = '.', seed = 1): { out: SimOutput; rows: FctRow[] } {
  const out = simulate(resolveSpec(parseSpec(spec(workload, seed)), dir));
  assert.equal(out.unfinished.length, 0);
  return { out, rows: [...out.fct].sort((a, b) => a.id - b.id) };
}

function specError(workload: unknown[], dir = '.'): string {
  return specErrorOf(() => resolveSpec(parseSpec(spec(workload)), dir));
}

test('shipped models: the published parameter counts; buckets in backward order', () => {
  // totals of the published architectures (trainable parameters)
  assert.equal(loadModel('resnet50').totalParams, 25_557_032);
  assert.equal(loadModel('vgg16').totalParams, 138_357_544);
  assert.equal(loadModel('alexnet').totalParams, 60_965_224);
  for (const name of ['resnet50', 'vgg16', 'alexnet'] as const) {
    const m = loadModel(name);
    assert.equal(m.layers.reduce((a, l) => a + l.params, 0), m.totalParams);
    assert.ok(m.layers.every((l) => l.gradientBytes === 4 * l.params && l.computeUs >= 0));
    assert.match(m.source, /\d{4}/);
  }
  const vgg = loadModel('vgg16');
  // per layer: one bucket per layer, last layer (fc8: 4096 x 1000 + 1000) first
  const perLayer = gradientBuckets(vgg, 0);
  assert.equal(perLayer.length, 16);
  assert.equal(perLayer[0], 4 * 4_097_000);
  // 25 MiB buckets: fc8 (16.4 MB) + fc7 (67 MB) close the first, fc6 (411 MB) the second
  const b25 = gradientBuckets(vgg, 25 * 2 ** 20);
  assert.equal(b25[0], 4 * (4_097_000 + 16_781_312));
  assert.equal(b25[1], 4 * 102_764_544);
  assert.equal(b25.reduce((a, b) => a + b, 0), 4 * vgg.totalParams);
  // padding to the ring's chunks, and scale
  assert.ok(gradientBuckets(vgg, 0, 0.01, 16).every((b) => b % 16 === 0));
  assert.equal(modelComputePs(loadModel('alexnet'), 0), 0);
});

test('model: compute first, then the buckets back to back on one ring; jobs time the all-reduce', () => {
  const m = loadModel('alexnet');
  const hosts = [0, 1, 2, 3];
  const e = { type: 'collective', op: 'allreduce', hosts, model: 'alexnet', bucket: '100MB', scale: 0.001, computeScale: 0.01, iterations: 2 };
  const { out, rows } = run([e]);
  const buckets = gradientBuckets(m, 100e6, 0.001, 4);
  const compute = modelComputePs(m, 0.01);
  assert.ok(compute > 0);
  // 2 (N-1) steps per bucket, one flow per host per step, chunk = bucket / N
  assert.equal(rows.length, 2 * buckets.length * 6 * 4);
  const first = rows.filter((r) => r.src === 0 && r.startPs < out.jobs![0]!.finishPs);
  assert.deepEqual(first.map((r) => r.bytes), buckets.flatMap((b) => new Array<number>(6).fill(b / 4)));
  const jobs = out.jobs!;
  assert.equal(jobs[0]!.startPs, compute);
  assert.equal(jobs[1]!.startPs, jobs[0]!.finishPs + compute);
  assert.equal(jobs[0]!.bytes, 6 * 4 * buckets.reduce((a, b) => a + (b / 4), 0));
  // a bucket's ring does not wait for the whole previous bucket: a host moves on once its own
  // send and its predecessor's chunk are done (the ring rule), so steps of consecutive buckets overlap
  assert.ok(first.every((r, k) => k === 0 || r.startPs >= first[k - 1]!.finishPs));
});

test('MoE all-to-all: destinations follow the expert weights, seeded and deterministic', () => {
  const hosts = [0, 1, 2, 3, 4, 5, 6, 7];
  // expert 0 gets 70 %, expert 7 never
  const weights = [7, 1, 1, 1, 0, 0, 0, 0];
  const e = { type: 'collective', op: 'alltoall', hosts, bytes: '80KB', experts: { weights, draws: 10 }, iterations: 20 };
  const a = run([e]);
  const toExpert = new Float64Array(8);
  for (const r of a.rows) toExpert[r.dst]! += r.bytes;
  assert.equal(toExpert[7], 0);
  assert.equal(toExpert[5], 0);
  // from the 7 other hosts, expert 0 receives ~70 % of their bytes: 20 passes x 7 x 80 KB x 0.7
  const expect0 = 20 * 7 * 80_000 * 0.7;
  assert.ok(Math.abs(toExpert[0]! - expect0) < 0.15 * expect0, `expert 0 got ${toExpert[0]}`);
  assert.ok(toExpert[0]! > 3 * toExpert[1]!);
  // every pass of every host sends at most bytes (draws to itself stay local)
  assert.equal(a.out.jobs!.length, 20);
  assert.ok(a.out.jobs!.every((j) => j.bytes <= 8 * 80_000));
  // same seed: same flows; another seed: other destinations
  assert.deepEqual(run([e]).out.fct, a.out.fct);
  const b = run([e], '.', 2);
  assert.notDeepEqual(b.rows.map((r) => [r.src, r.dst, r.bytes]), a.rows.map((r) => [r.src, r.dst, r.bytes]));
  // zipf: weights 1/(k+1)^s
  const z = expertCdf({ zipf: 1, draws: 1 }, 4) as Float64Array;
  const h = 1 + 1 / 2 + 1 / 3 + 1 / 4;
  assert.ok(Math.abs(z[0]! - 1 / h) < 1e-12 && z[3] === 1);
});

test('schedule file: a ring all-reduce written as a schedule runs exactly like op allreduce', () => {
  const dir = tempDir('schedule');
  const n = 4;
  const chunk = 100_000;
  // host p's step k waits for its own step k-1 and its predecessor's step k-1 (the ring rule)
  const steps: unknown[] = [];
  for (let k = 0; k < 2 * (n - 1); k++) {
    for (let p = 0; p < n; p++) {
      const after = k === 0 ? [] : [`${k - 1}.${p}`, `${k - 1}.${(p + n - 1) % n}`];
      steps.push({ id: `${k}.${p}`, after, flows: [{ src: p, dst: (p + 1) % n, bytes: chunk }] });
    }
  }
  writeFileSync(join(dir, 'ring.yaml'), stringify({ ranks: n, steps }));
  const hosts = [2, 5, 1, 7];
  const viaFile = run([{ type: 'collective', hosts, schedule: 'ring.yaml', iterations: 2, compute: '3us' }], dir);
  const viaOp = run([{ type: 'collective', op: 'allreduce', hosts, bytes: n * chunk, iterations: 2, compute: '3us' }]);
  // the same flows at the same times (ids may differ: simultaneous starts are injected in another order)
  const key = (r: FctRow): string => [r.startPs, r.src, r.dst, r.bytes, r.finishPs].join(',');
  assert.deepEqual(viaFile.rows.map(key).sort(), viaOp.rows.map(key).sort());
  assert.deepEqual(viaFile.out.jobs, viaOp.out.jobs);
  // a step waits for all the steps it names; empty steps pass at once
  writeFileSync(
    join(dir, 'dag.json'),
    JSON.stringify({
      ranks: 3,
      steps: [
        { id: 'a', flows: [{ src: 0, dst: 1, bytes: 1_000_000 }] },
        { id: 'b', flows: [{ src: 2, dst: 1, bytes: 10_000 }] },
        { id: 'barrier', after: ['a', 'b'] },
        { id: 'c', after: ['barrier'], flows: [{ src: 1, dst: 0, bytes: 10_000 }, { src: 1, dst: 2, bytes: 10_000 }] },
      ],
    }),
  );
  const d = run([{ type: 'collective', groups: [[0, 1, 2], [3, 4, 5]], schedule: 'dag.json' }], dir);
  for (const base of [0, 3]) {
    const g = d.rows.filter((r) => r.src >= base && r.src < base + 3);
    const a = g.find((r) => r.src === base && r.dst === base + 1)!;
    const c = g.filter((r) => r.src === base + 1);
    assert.equal(c.length, 2);
    assert.ok(c.every((r) => r.startPs === a.finishPs));
  }
  assert.deepEqual(d.out.jobs!.map((j) => j.job), ['collective/0', 'collective/1']);
  // schedule errors name the file, the step field and the value
  writeFileSync(join(dir, 'bad.yaml'), stringify({ ranks: 2, steps: [{ id: 'x', after: ['y'], flows: [{ src: 0, dst: 2, bytes: 1 }] }, { id: 'x' }] }));
  const err = specError([{ type: 'collective', hosts: [0, 1], schedule: 'bad.yaml' }], dir);
  assert.match(err, /workload\[0\]\.schedule: "bad\.yaml" .*steps\[0\]\.after\[0\]: "y" is not a step listed before/);
  assert.match(err, /steps\[0\]\.flows\[0\]\.dst: 2 is not a rank/);
  assert.match(err, /steps\[1\]\.id: "x" is used twice/);
  assert.match(specError([{ type: 'collective', hosts: [0, 1, 2], schedule: 'ring.yaml' }], dir), /workload\[0\]\.hosts.*3 hosts, but the schedule is written for 4 ranks/);
  assert.match(specError([{ type: 'collective', hosts: [0, 1], schedule: 'nope.yaml' }], dir), /workload\[0\]\.schedule: "nope\.yaml" .*file not found/);
  assert.match(specError([{ type: 'collective', hosts: [0, 1, 2, 3], schedule: 'ring.yaml', op: 'allreduce' }], dir), /workload\[0\]\.op.*not used with schedule/);
});

test('spec errors: unknown model, model with bytes or a non-allreduce op, experts misuse, missing op or bytes', () => {
  const base = { type: 'collective', op: 'allreduce', hosts: [0, 1, 2, 3] };
  assert.match(specError([{ ...base, model: 'gpt5' }]), /workload\[0\]\.model: "gpt5" .*unknown model \(known: resnet50, vgg16, alexnet\)/);
  assert.match(specError([{ ...base, model: 'vgg16', bytes: 4000 }]), /workload\[0\]\.bytes.*not used with model/);
  assert.match(specError([{ ...base, op: 'allgather', model: 'vgg16' }]), /workload\[0\]\.model.*use op allreduce/);
  assert.match(specError([{ ...base, bytes: 4000, scale: 0.5 }]), /workload\[0\]\.scale.*only with model/);
  assert.match(specError([{ ...base, bytes: 4000, bucket: 'layer' }]), /workload\[0\]\.bucket.*only with model/);
  assert.match(specError([{ ...base, bytes: 4000, experts: { zipf: 1 } }]), /workload\[0\]\.experts.*use op alltoall/);
  assert.match(specError([{ ...base, op: 'alltoall', bytes: 4000, experts: { weights: [1, 1] } }]), /workload\[0\]\.experts.*2 weights for a group of 4 hosts/);
  assert.match(specError([{ ...base, op: 'alltoall', bytes: 4000, experts: { weights: [1, 1, 1, 1], zipf: 1 } }]), /workload\[0\]\.experts.*give weights or zipf/);
  assert.match(specError([{ ...base, op: undefined, bytes: 4000 }]), /workload\[0\]\.op: "missing" .*give op/);
  assert.match(specError([{ ...base }]), /workload\[0\]\.bytes: "missing" .*give bytes/);
  // a group of one, a host listed twice, out of range, bytes not divisible (the ring's chunks)
  assert.match(specError([{ ...base, hosts: [3], bytes: 4000 }]), /workload\[0\]\.hosts.*at least 2 hosts/);
  assert.match(specError([{ ...base, hosts: [0, 1, 0], bytes: 3000 }]), /workload\[0\]\.hosts\[2\]: 0 .*listed twice/);
  assert.match(specError([{ ...base, hosts: [0, 8], bytes: 4000 }]), /workload\[0\]\.hosts\[1\]: 8 .*not a host/);
  assert.match(specError([{ ...base, bytes: 4002 }]), /workload\[0\]\.bytes: 4002 .*not divisible by the 4 hosts/);
});
