/**
 * The cost estimate of `ccsim validate` (src/experiment/run/estimate.ts): flows
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
import { calibrate, costOf, estimateCost, estimateSweepCost } from '../src/experiment/run/estimate.js';
import { planSweep } from '../src/experiment/run/sweep.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
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
  assert.equal(e.sentPackets, e.packets, 'a run until done sends every packet');
  assert.ok(e.wallSecs > e.events / cal.eventsPerSec, 'events at the calibrated rate, plus set-up');
  assert.ok(e.memoryBytes > 50e6 && e.memoryBytes < 1e9, `${e.memoryBytes}`);
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
stop: { maxTime: 1000s }
`,
  );
  const r = spawnSync(process.execPath, [CLI, 'validate', spec], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /cost: 15 flows, 1,500,000,000 data packets, ~[\d.]+[MG] events \([\d.]+ per packet\), ~[\d.]+ (min|h) of wall time here, ~\d+ MB of memory/);
  assert.match(r.stdout, /warning: this run would take more than 10 minutes/);
  const quiet = spawnSync(process.execPath, [CLI, 'validate', '--no-estimate', spec], { encoding: 'utf8' });
  assert.doesNotMatch(quiet.stdout, /cost:/);
  // the demo runs for seconds, long enough that its progress (polled a few times a second) passes several tenths
  const run = spawnSync(process.execPath, [CLI, 'run', join(ROOT, 'examples', 'demo.yaml'), '-o', join(dir, 'run')], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  // the estimate comes first, before the run's progress
  assert.match(run.stderr, /^estimate: ~[\d.]+ s wall time here, ~[\d.]+[kM] events, ~\d+ MB memory, [\d.]+[kM] data packets \(±2x\)\n/);
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
  const costs = plan.points.map((p) => costOf(p.basis, cal));
  const one = estimateSweepCost(plan.points, 1, cal);
  assert.equal(one.points, 4);
  assert.equal(one.flows, 60);
  assert.equal(one.packets, 2 * 15 * 64 + 2 * 15 * 10_000);
  assert.equal(one.events, costs.reduce((a, c) => a + c.events, 0));
  assert.equal(one.wallSecs, costs.reduce((a, c) => a + c.wallSecs, 0));
  const longest = Math.max(...costs.map((c) => c.wallSecs));
  // 2 workers: the total halved, but no sooner than the longest point; 8 workers are capped at the 4 points
  const two = estimateSweepCost(plan.points, 2, cal);
  assert.equal(two.wallSecs, Math.max(longest, one.wallSecs / 2));
  assert.equal(two.memoryBytes, 2 * Math.max(...costs.map((c) => c.memoryBytes)));
  const eight = estimateSweepCost(plan.points, 8, cal);
  assert.equal(eight.jobs, 4);
  assert.equal(eight.longestSecs, longest);
  assert.equal(eight.wallSecs, eight.longestSecs);
  // the CLI prints it with the -j given and warns above 10 minutes
  const big = join(dir, 'big-sweep.yaml');
  writeFileSync(big, readFileSync(spec, 'utf8').replace('[64KB, 10MB]', '[64KB, 500GB]') + 'stop: { maxTime: 1000s }\nlimits: { packets: 100000000000 }\n');
  const r = spawnSync(process.execPath, [CLI, 'validate', big, '-j', '3'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ok: sw: sweep of 4 points over cc, workload\[0\]\.size \(60 flows in all\)\n {2}cost: 4 points, 60 flows, 15,000,001,920 data packets, ~[\d.]+G events; ~[\d.]+ (min|h) of wall time here on 3 workers \(longest point ~[\d.]+ (min|h)\), ~\d+ MB of memory/);
  assert.match(r.stdout, /warning: this sweep would take more than 10 minutes/);
  assert.doesNotMatch(spawnSync(process.execPath, [CLI, 'validate', big, '--no-estimate'], { encoding: 'utf8' }).stdout, /cost:/);
});

test('validate warns when most flows start after stop.at or cannot finish before it; long flows cut by design do not warn', () => {
  const trap = join(dir, 'trap.yaml');
  writeFileSync(
    trap,
    `name: trap
topology: { type: star, hosts: 8, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: poisson, cdf: websearch, load: 0.5, duration: 1s }
stop: { at: 1ms }
`,
  );
  for (const args of [[], ['--no-estimate']]) {
    const r = spawnSync(process.execPath, [CLI, 'validate', trap, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /warning: [\d,]+ of [\d,]+ flows start at or after stop\.at \(1\.000ms\) and [\d,]+ more cannot finish before it even at line rate; end the workload's arrivals \(its duration\) before stop\.at/);
  }
  const cost = spawnSync(process.execPath, [CLI, 'validate', trap], { encoding: 'utf8' }).stdout;
  assert.match(cost, /data packets \(~[\d.]+k of them before stop\.at 1\.000ms ends the run\)/);
  // an incast of long flows stopped on purpose: every flow starts in time, no warning
  const long = join(dir, 'long.yaml');
  writeFileSync(long, `name: long
topology: { type: star, hosts: 11, rate: 10Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 10, size: 1000GB, receiver: 0, at: [0us] }
stop: { at: 200ms }
`);
  const l = spawnSync(process.execPath, [CLI, 'validate', long], { encoding: 'utf8' });
  assert.equal(l.status, 0, l.stderr);
  assert.doesNotMatch(l.stdout, /warning/);
  assert.match(l.stdout, /~250\.0k of them before stop\.at 200\.000ms ends the run/);
});
