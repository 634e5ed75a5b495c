/**
 * The cost estimate of `ccsim validate` (src/experiment/estimate.ts): flows
 * and data packets exactly, events and wall time from a built-in calibration
 * run, within the stated factor of 2 of a real run; a run estimated above 10
 * minutes is warned about; `run` without a terminal prints progress lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrate, estimateCost } from '../src/experiment/estimate.js';
import { loadAndResolve } from '../src/experiment/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import { tempDir } from './helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
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
