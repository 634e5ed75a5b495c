/**
 * The collective workload (src/workload/collective.ts; issue 25, OSCAR §6.4
 * Fig 12 and CCC §6.4 Fig 12): a ring all-reduce on a non-blocking star
 * without congestion control takes the time the ring's steps take at line
 * rate (formula below, within 1 %); the ring's closed loop (a host's next
 * step waits for its own send and its predecessor's chunk), allgather /
 * reducescatter step counts, alltoall flows, iterations with compute gaps,
 * independent groups, spec errors, determinism and jobs.csv.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specErrorOf } from './helpers/specs.js';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { runExperiment } from '../src/experiment/run/runner.js';
import { txTimePs } from '../src/engine/units.js';
import { simulate } from '../src/sim/simulate.js';
import type { FctRow, SimInput, SimOutput } from '../src/sim/types.js';
import { strideGroupIds } from '../src/workload/collective.js';
import { tempDir } from './helpers/tmp.js';

const HOSTS8 = [0, 1, 2, 3, 4, 5, 6, 7];

function spec(workload: unknown[], hosts = 8): Record<string, unknown> {
  return { name: 'coll', seed: 1, topology: { type: 'star', hosts, rate: '100Gbps', delay: '1us' }, cc: { name: 'none' }, workload };
}

function run(workload: unknown[], hosts = 8): { input: SimInput; out: SimOutput; rows: FctRow[] } {
  const input = resolveSpec(parseSpec(spec(workload, hosts)), '.');
  const out = simulate(input);
  assert.equal(out.unfinished.length, 0);
  return { input, out, rows: [...out.fct].sort((a, b) => a.id - b.id) };
}

function specError(workload: unknown[], hosts = 8): string {
  return specErrorOf(() => resolveSpec(parseSpec(spec(workload, hosts)), '.'));
}

/**
 * The ring's closed loop in the FCT rows: the hosts' flows in start order are
 * their steps; a host's step k (k >= 1) starts exactly when both its own step
 * k-1 and its predecessor's step k-1 have finished. Returns the steps per host.
 */
function checkRing(rows: readonly FctRow[], ring: readonly number[]): number {
  const bySrc = new Map<number, FctRow[]>();
  for (const r of rows) if (ring.includes(r.src)) (bySrc.get(r.src) ?? bySrc.set(r.src, []).get(r.src)!).push(r);
  const n = ring.length;
  const steps = bySrc.get(ring[0]!)!.length;
  for (let p = 0; p < n; p++) {
    const mine = bySrc.get(ring[p]!)!;
    const pred = bySrc.get(ring[(p + n - 1) % n]!)!;
    assert.equal(mine.length, steps);
    for (let k = 0; k < steps; k++) {
      assert.equal(mine[k]!.dst, ring[(p + 1) % n]);
      if (k > 0) assert.equal(mine[k]!.startPs, Math.max(mine[k - 1]!.finishPs, pred[k - 1]!.finishPs), `host ${ring[p]} step ${k}`);
    }
  }
  return steps;
}

test('ring all-reduce on a non-blocking star without CC: 2(N-1) steps at line rate, within 1 % of the formula', () => {
  const N = 8;
  const S = 8_000_000;
  const { input, out, rows } = run([{ type: 'collective', op: 'allreduce', algorithm: 'ring', hosts: HOSTS8, bytes: S }]);
  assert.equal(rows.length, 2 * (N - 1) * N);
  assert.equal(checkRing(rows, HOSTS8), 2 * (N - 1));
  // Expected time, from first principles. Each of the 2(N-1) steps moves one chunk of C = S/N bytes
  // per host as P = C / mtu packets of mtu + dataHeaderBytes on the wire. In a ring every host sends
  // its chunk and receives its predecessor's at once, so its uplink also carries one ACK (ackBytes
  // padded to ackMinBytes; cc none adds no ACK header) per packet it receives: the uplink, the
  // bottleneck, serializes P (t_data + t_ack). Then the last packet crosses the switch (t_data), both
  // links (2 d) and its ACK comes back (2 t_ack + 2 d) before the step's flows finish and the next
  // step starts. Serialization times use the profile's quantization (txTimeQuantization).
  //   T = 2 (N-1) [ P (t_data + t_ack) + t_data + 2 t_ack + 4 d ]
  // Without headers, ACKs and latency this is the textbook 2 (N-1)/N x S/B. The formula slightly
  // overestimates: a step's first ACKs can only go once the predecessor's first packet has arrived,
  // so the uplink is idle for a few ACK slots.
  const tc = input.net.transport;
  const B = 100e9;
  const d = 1_000_000;
  const C = S / N;
  const P = Math.ceil(C / tc.mtuBytes);
  assert.equal(P * tc.mtuBytes, C, 'chunks are whole packets');
  const tData = txTimePs(tc.mtuBytes + tc.dataHeaderBytes, B, tc.txTimeQuantization);
  const tAck = txTimePs(Math.max(tc.ackBytes, tc.ackMinBytes), B, tc.txTimeQuantization);
  const step = P * (tData + tAck) + tData + 2 * tAck + 4 * d;
  const expected = 2 * (N - 1) * step;
  const measured = out.jobs![0]!.finishPs - out.jobs![0]!.startPs;
  assert.equal(measured, out.endPs);
  const err = (measured - expected) / expected;
  assert.ok(Math.abs(err) < 0.01, `measured ${measured} ps, formula ${expected} ps (${(100 * err).toFixed(3)} %)`);
  // and above the payload-only bound 2(N-1)/N x S/B
  assert.ok(measured > ((2 * (N - 1)) / N) * ((S * 8) / B) * 1e12);
  assert.deepEqual(out.jobs, [{ job: 'collective', iteration: 0, startPs: 0, finishPs: measured, bytes: 2 * (N - 1) * S }]);
});

test('allgather and reducescatter take N-1 ring steps; alltoall sends bytes/N to every other host at once', () => {
  for (const op of ['allgather', 'reducescatter']) {
    const { rows, out } = run([{ type: 'collective', op, hosts: [3, 1, 4, 0, 5], bytes: '500KB', tag: op }]);
    assert.equal(rows.length, 4 * 5);
    assert.equal(checkRing(rows, [3, 1, 4, 0, 5]), 4);
    assert.ok(rows.every((r) => r.bytes === 100_000 && r.tag === op));
    assert.equal(out.jobs!.length, 1);
    assert.equal(out.jobs![0]!.bytes, 4 * 5 * 100_000);
  }
  const { rows, out } = run([{ type: 'collective', op: 'alltoall', hosts: [0, 1, 2, 3], bytes: '400KB' }]);
  assert.equal(rows.length, 12);
  assert.ok(rows.every((r) => r.startPs === 0 && r.bytes === 100_000));
  assert.equal(new Set(rows.map((r) => `${r.src}-${r.dst}`)).size, 12);
  assert.equal(out.jobs![0]!.finishPs, Math.max(...rows.map((r) => r.finishPs)));
});

test('iterations: the next starts `compute` after the last step of the previous one; `start` delays the first', () => {
  const { out, rows } = run([{ type: 'collective', op: 'allreduce', hosts: [0, 1, 2, 3], bytes: '400KB', iterations: 3, compute: '20us', start: '5us' }]);
  assert.equal(rows.length, 3 * 6 * 4);
  const jobs = out.jobs!;
  assert.deepEqual(jobs.map((j) => j.iteration), [0, 1, 2]);
  assert.equal(jobs[0]!.startPs, 5_000_000);
  for (let i = 1; i < 3; i++) assert.equal(jobs[i]!.startPs, jobs[i - 1]!.finishPs + 20_000_000);
  // identical iterations on an idle fabric take the same time
  assert.ok(jobs.every((j) => j.finishPs - j.startPs === jobs[0]!.finishPs - jobs[0]!.startPs));
  assert.equal(out.endPs, jobs[2]!.finishPs);
});

test('groups are independent jobs; { size, stride } puts one host per leaf', () => {
  const { out, rows } = run([{ type: 'collective', op: 'allreduce', groups: [[0, 1, 2, 3], [4, 5, 6, 7]], bytes: '400KB', iterations: 2 }]);
  const inA = (h: number): boolean => h < 4;
  assert.ok(rows.every((r) => inA(r.src) === inA(r.dst)));
  checkRing(rows.filter((r) => inA(r.src)), [0, 1, 2, 3]);
  checkRing(rows.filter((r) => !inA(r.src)), [4, 5, 6, 7]);
  assert.deepEqual([...new Set(out.jobs!.map((j) => j.job))].sort(), ['collective/0', 'collective/1']);
  assert.equal(out.jobs!.length, 4);
  assert.deepEqual(strideGroupIds(16, 4, 64)[1], [1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61]);
  assert.equal(strideGroupIds(16, 4, 64).length, 4);
  assert.deepEqual(strideGroupIds(2, 2, 9), [[0, 2], [1, 3], [4, 6], [5, 7]]);
  const s = run([{ type: 'collective', op: 'allgather', groups: { size: 2, stride: 2 }, bytes: '2KB' }]);
  assert.equal(s.out.jobs!.length, 4);
  assert.ok(s.rows.every((r) => Math.abs(r.src - r.dst) === 2));
});

test('spec errors name the field and the value', () => {
  const base = { type: 'collective', op: 'allreduce', hosts: [0, 1, 2], bytes: 3000 };
  assert.match(specError([{ ...base, bytes: 3001 }]), /workload\[0\]\.bytes: 3001 .*not divisible by the 3 hosts/);
  assert.match(specError([{ ...base, hosts: [0, 1, 9] }]), /workload\[0\]\.hosts\[2\]: 9 .*not a host/);
  assert.match(specError([{ ...base, hosts: [0, 1, 1] }]), /workload\[0\]\.hosts\[2\]: 1 .*listed twice/);
  assert.match(specError([{ ...base, hosts: undefined, groups: [[0, 1], [2, 1]] }]), /workload\[0\]\.groups\[1\]\[1\]: 1 .*listed twice \(also in groups\[0\]\)/);
  assert.match(specError([{ ...base, hosts: undefined, groups: [[0, 1], [2]] }]), /workload\[0\]\.groups\[1\].*at least 2 hosts/);
  assert.match(specError([{ ...base, hosts: undefined, groups: { size: 4, stride: 4 } }]), /workload\[0\]\.groups.*no group fits/);
  assert.match(specError([{ ...base, hosts: undefined }]), /workload\[0\].*give hosts or groups/);
  assert.match(specError([{ ...base, algorithm: 'direct' }]), /workload\[0\]\.algorithm: "direct" .*ring/);
  assert.match(specError([{ ...base, op: 'alltoall', algorithm: 'ring' }]), /workload\[0\]\.algorithm: "ring" .*alltoall runs direct/);
  assert.match(specError([{ ...base, op: 'broadcast' }]), /workload\[0\]\.op/);
  assert.match(specError([{ ...base, iterations: 0 }]), /workload\[0\]\.iterations/);
});

test('determinism: the same spec twice gives the same rows and jobs; jobs.csv and summary.json jobs', async () => {
  const w = [{ type: 'collective', op: 'allreduce', groups: [[0, 2, 4, 6], [1, 3, 5, 7]], bytes: '200KB', iterations: 2, compute: '3us' }];
  const a = run(w);
  const b = run(w);
  assert.deepEqual(a.out.fct, b.out.fct);
  assert.deepEqual(a.out.jobs, b.out.jobs);
  const dir = tempDir('collective');
  const path = join(dir, 'coll.yaml');
  writeFileSync(path, stringify(spec(w)));
  const r = await runExperiment(path, { out: join(dir, 'out'), quiet: true });
  const csv = readFileSync(join(r.outDir, 'jobs.csv'), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'job,iteration,start_ps,finish_ps,duration_ps,bytes');
  assert.equal(csv.length, 1 + 4);
  const jobs = r.output.jobs!;
  csv.slice(1).forEach((line, i) => {
    const j = jobs[i]!;
    assert.equal(line, `${j.job},${j.iteration},${j.startPs},${j.finishPs},${j.finishPs - j.startPs},${j.bytes}`);
  });
  const summary = JSON.parse(readFileSync(join(r.outDir, 'summary.json'), 'utf8')) as { jobs: { iterations: number; maxPs: number; completedFlows: number } };
  assert.equal(summary.jobs.iterations, 4);
  assert.equal(summary.jobs.maxPs, Math.max(...jobs.map((j) => j.finishPs - j.startPs)));
  // 2 groups x 2 iterations x 2(N-1) = 6 ring steps x 4 flows
  assert.equal(summary.jobs.completedFlows, 96);
  // the report shows the iteration times: a chart and a table row per run
  const { writeReport } = await import('../src/report/html.js');
  const html = readFileSync(writeReport(r.outDir).file, 'utf8');
  assert.match(html, /<section id="jobs"><h2>Job iterations<\/h2>/);
  assert.match(html, /data-chart="job-iterations"/);
  // a background flow beside the jobs is not a job flow
  writeFileSync(path, stringify(spec([...w, { type: 'flows', flows: [{ src: 0, dst: 1, size: '10KB', tag: 'bg' }] }])));
  const r1 = await runExperiment(path, { out: join(dir, 'out1'), quiet: true });
  assert.equal(r1.summary.totals.finished, 97);
  assert.equal(r1.summary.jobs!.completedFlows, 96);
  const manifest = JSON.parse(readFileSync(join(r.outDir, 'manifest.json'), 'utf8')) as { files: string[] };
  assert.ok(manifest.files.includes('jobs.csv'));
  // a run without jobs writes no jobs.csv and no summary jobs
  writeFileSync(path, stringify(spec([{ type: 'flows', flows: [{ src: 0, dst: 1, size: '10KB' }] }])));
  const r2 = await runExperiment(path, { out: join(dir, 'out2'), quiet: true });
  assert.ok(!existsSync(join(r2.outDir, 'jobs.csv')));
  assert.equal('jobs' in r2.summary, false);
});
