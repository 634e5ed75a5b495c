/**
 * The cost estimate of `ccsim validate` (src/experiment/estimate.ts): flows
 * and data packets exactly, events and wall time from a built-in calibration
 * run, within the stated factor of 2 of a real run; a run estimated above 10
 * minutes is warned about; `run` without a terminal prints progress lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrate, estimateCost, estimateSweepCost } from '../src/experiment/estimate.js';
import { planSweep } from '../src/experiment/sweep.js';
import { loadAndResolve } from '../src/experiment/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = tempDir('estimate');

test('estimate: exact flows and packets; events within a factor of 2 of the run', () => {
  const { input } = loadAndResolve(join(ROOT, 'examples', 'incast-none.yaml'));
  const cal = calibrate();
  assert.ok(cal.eventsPerPacket > 2 && cal.eventsPerPacket < 50, `${cal.eventsPerPacket}`);
  assert.ok(cal.eventsPerSec > 1000, `${cal.eventsPerSec}`);
  const e = estimateCost(input, cal);
  const mtu = input.net.transport.mtuBytes;
  assert.equal(e.flows, input.flows.length);
  assert.equal(e.packets, input.flows.reduce((a, f) => a + Math.ceil(f.bytes / mtu), 0));
  const real = simulate(input).events;
  assert.ok(e.events > real / 2 && e.events < real * 2, `estimated ${e.events} events, ran ${real}`);
  assert.equal(e.wallSecs, e.events / cal.eventsPerSec);
});

test('validate prints the cost and warns above 10 minutes; run without a terminal prints progress lines', () => {
  const spec = join(dir, 'big.yaml');
  writeFileSync(
    spec,
    `name: big
topology: { type: star, hosts: 16, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 15, size: 100GB, receiver: 0, at: [0us] }
`,
  );
  const r = spawnSync(process.execPath, [CLI, 'validate', spec], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /cost: 15 flows, 1,500,000,000 data packets, ~[\d.]+[MG] events \([\d.]+ per packet\), ~[\d.]+ (min|h) of wall time here/);
  assert.match(r.stdout, /warning: this run would take more than 10 minutes/);
  const quiet = spawnSync(process.execPath, [CLI, 'validate', '--no-estimate', spec], { encoding: 'utf8' });
  assert.doesNotMatch(quiet.stdout, /cost:/);
  // the demo runs for seconds, long enough that its progress (polled a few times a second) passes several tenths
  const run = spawnSync(process.execPath, [CLI, 'run', join(ROOT, 'examples', 'demo.yaml'), '-o', join(dir, 'run')], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stderr.split('\n').filter((l) => l.startsWith('progress: '));
  assert.ok(lines.length >= 2, `progress lines: ${lines.length}\n${run.stderr}`);
  for (const l of lines) assert.match(l, /^progress: \d0% of bytes delivered, .* simulated, [\d,]+ flows left, [\d,]+ events, .* elapsed, ETA /);
  const pcts = lines.map((l) => Number(/(\d+)%/.exec(l)![1]));
  assert.deepEqual(pcts, [...pcts].sort((a, b) => a - b), 'increasing');
});

test('sweep estimate: sums flows and packets over the points; wall time on -j workers is at least the longest point', () => {
  const spec = join(dir, 'sweep.yaml');
  writeFileSync(
    spec,
    `name: sw
topology: { type: star, hosts: 16, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 15, size: 64KB, receiver: 0, at: [0us] }
sweep:
  cc: [hpcc, dcqcn]
  workload[0].size: [64KB, 10MB]
`,
  );
  const plan = planSweep(spec);
  const mtu = 1000; // the oscar profile's payload
  assert.deepEqual(plan.points.map((p) => p.packets).sort((a, b) => a - b), [15 * 64, 15 * 64, 15 * 10_000, 15 * 10_000].map((n) => n * (1000 / mtu)));
  const cal = { eventsPerPacket: 10, eventsPerSec: 1e6 };
  const one = estimateSweepCost(plan.points, 1, cal);
  assert.equal(one.points, 4);
  assert.equal(one.flows, 60);
  assert.equal(one.packets, 2 * 15 * 64 + 2 * 15 * 10_000);
  assert.equal(one.events, one.packets * 10);
  assert.equal(one.wallSecs, one.events / 1e6);
  // 2 workers halve it (two big points in parallel); 8 workers are capped at the 4 points and wait for the longest
  const two = estimateSweepCost(plan.points, 2, cal);
  assert.equal(two.wallSecs, one.wallSecs / 2);
  const eight = estimateSweepCost(plan.points, 8, cal);
  assert.equal(eight.jobs, 4);
  assert.equal(eight.longestSecs, (15 * 10_000 * 10) / 1e6);
  assert.equal(eight.wallSecs, eight.longestSecs);
  // the CLI prints it with the -j given and warns above 10 minutes
  const big = join(dir, 'big-sweep.yaml');
  writeFileSync(big, readFileSync(spec, 'utf8').replace('[64KB, 10MB]', '[64KB, 50GB]'));
  const r = spawnSync(process.execPath, [CLI, 'validate', big, '-j', '3'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ok: sw: sweep of 4 points over cc, workload\[0\]\.size \(60 flows in all\)\n {2}cost: 4 points, 60 flows, 1,500,001,920 data packets, ~[\d.]+G events; ~[\d.]+ (min|h) of wall time here on 3 workers \(longest point ~/);
  assert.match(r.stdout, /warning: this sweep would take more than 10 minutes/);
  assert.doesNotMatch(spawnSync(process.execPath, [CLI, 'validate', big, '--no-estimate'], { encoding: 'utf8' }).stdout, /cost:/);
});
