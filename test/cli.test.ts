import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ccNames } from '../src/cc/registry.js';
import { workloadNames } from '../src/workload/index.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';

const dir = tempDir('cli-test');

function ccsim(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const GOOD = `name: good
topology: { type: star, hosts: 17, rate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: incast, fanIn: 16, size: 1MB, receiver: 16, at: [0] }
`;

const BAD = `name: bad
topology: { type: star, hosts: 17, rate: -5, delay: 1us }
cc: none
workload:
  - { type: poisson, cdf: hadoop, load: 1.5, duration: 1ms }
`;

function write(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function assertNoStack(s: string): void {
  assert.doesNotMatch(s, /^\s+at /m, `stack trace in output:\n${s}`);
}

test('validate: bad spec → exit 2, every field named on stderr, no stack', () => {
  const r = ccsim('validate', write('bad.yaml', BAD));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /topology\.rate: -5 — must be > 0/);
  assert.match(r.stderr, /workload\[0\]\.load: 1\.5 — must be <= 1/);
  assertNoStack(r.stderr);
  assert.equal(r.stdout, '');
});

test('run: bad spec → exit 2 and the output directory is not created', () => {
  const out = join(dir, 'out-bad');
  const r = ccsim('run', write('bad2.yaml', BAD), '--out', out);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /topology\.rate/);
  assertNoStack(r.stderr);
  assert.ok(!existsSync(out));
  assert.ok(!existsSync(join(dir, 'results')));
});

test('run: missing workload file → exit 2, names workload[0].cdf', () => {
  const spec = write('nocdf.yaml', GOOD.replace(/workload:[\s\S]*$/, 'workload:\n  - { type: poisson, cdf: nope.txt, load: 0.5, duration: 1ms }\n'));
  const r = ccsim('run', spec, '--out', join(dir, 'out-nocdf'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /workload\[0\]\.cdf: "nope\.txt" — workload file not found/);
  assertNoStack(r.stderr);
  assert.ok(!existsSync(join(dir, 'out-nocdf')));
});

test('validate: good spec → ok line', () => {
  const r = ccsim('validate', write('good.yaml', GOOD));
  assert.equal(r.code, 0, r.stderr);
  const [ok, cost, ...rest] = r.stdout.trim().split('\n');
  assert.equal(ok, 'ok: good: 17 hosts, 1 switch, 16 flows, cc none');
  assert.match(cost!, /^  cost: 16 flows, [\d,]+ data packets, ~[\d.]+[kM]? events/);
  assert.deepEqual(rest, []);
});

test('validate: the same spec as JSON', () => {
  const json = {
    name: 'good-json',
    topology: { type: 'star', hosts: 17, rate: '100Gbps', delay: '1us' },
    cc: { name: 'none', params: { window: 'bdp' } },
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 16, size: '1MB' }] }],
  };
  const r = ccsim('validate', write('good.json', JSON.stringify(json)));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^ok: good-json: 17 hosts, 1 switch, 1 flow, cc none$/m);
});

test('missing spec file and bad options → exit 2 without a stack', () => {
  const r = ccsim('validate', join(dir, 'nope.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /spec file not found/);
  assertNoStack(r.stderr);
  const s = ccsim('run', write('good2.yaml', GOOD), '--seed', 'abc');
  assert.equal(s.code, 2);
  assertNoStack(s.stderr);
  const u = ccsim('list', 'bogus');
  assert.equal(u.code, 2);
  assertNoStack(u.stderr);
});

test('list prints CC names with parameters, workloads and topologies', () => {
  const r = ccsim('list');
  assert.equal(r.code, 0, r.stderr);
  for (const cc of ccNames()) assert.match(r.stdout, new RegExp(`^  ${cc}: `, 'm'));
  for (const w of workloadNames()) assert.match(r.stdout, new RegExp(`^  ${w} `, 'm'));
  assert.match(r.stdout, /window = "none"/);
  assert.match(r.stdout, /fatTree/);
  assert.match(r.stdout, /oscar320/);
  const c = ccsim('list', 'ccs');
  assert.equal(c.code, 0);
  assert.doesNotMatch(c.stdout, /cachefollower/);
  const w = ccsim('list', 'workloads');
  assert.match(w.stdout, /cachefollower/);
  // every topology type's fields from its schema (issue 44): the fat tree's without reading examples/reference.yaml
  const t = ccsim('list', 'topologies');
  assert.equal(t.code, 0, t.stderr);
  for (const f of ['pods', 'edgesPerPod', 'aggsPerPod', 'hostsPerEdge', 'cores', 'hostRate', 'fabricRate', 'aggCoreRate', 'edgeAggDelay', 'coreWiring']) assert.match(t.stdout, new RegExp(`\\b${f}\\??( \\(|$)`, 'm'), f);
  assert.match(t.stdout, /hostsPerLeaf \(int\)/);
  assert.match(t.stdout, /burstHosts \(int\)/);
  for (const l of t.stdout.split('\n')) assert.ok(l.length <= 120, `over 120 columns: ${l}`);
});

test('help and version exit 0', () => {
  assert.equal(ccsim('--help').code, 0);
  const v = ccsim('--version');
  assert.equal(v.code, 0);
  assert.match(v.stdout, /^\d+\.\d+\.\d+/);
});

test('run: a folder with the user\'s own files is refused; a result folder keeps them on re-run', () => {
  const spec = write('keep.yaml', GOOD.replace('name: good', 'name: keep'));
  const mine = join(dir, 'mine');
  mkdirSync(mine);
  writeFileSync(join(mine, 'notebook.ipynb'), 'cells');
  const r = ccsim('run', spec, '--out', mine, '--quiet');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not empty and is not a ccsim result folder/);
  assertNoStack(r.stderr);
  assert.deepEqual(readdirSync(mine), ['notebook.ipynb']);
  const res = join(dir, 'res');
  assert.equal(ccsim('run', spec, '--out', res, '--quiet').code, 0);
  writeFileSync(join(res, 'plot.png'), 'png');
  assert.equal(ccsim('run', spec, '--out', res, '--quiet', '--seed', '5').code, 0);
  assert.equal(readFileSync(join(res, 'plot.png'), 'utf8'), 'png');
  const m = JSON.parse(readFileSync(join(res, 'manifest.json'), 'utf8')) as { seed: number; spec: { seed: number } };
  assert.equal(m.seed, 5);
  assert.equal(m.spec.seed, 5);
});

test('run: default folders per seed coexist', () => {
  const spec = write('seeds.yaml', GOOD.replace('name: good', 'name: seeds'));
  assert.equal(ccsim('run', spec, '--quiet').code, 0);
  assert.equal(ccsim('run', spec, '--quiet', '--seed', '2').code, 0);
  assert.equal(ccsim('run', spec, '--quiet', '--seed', '3').code, 0);
  for (const d of ['seeds', 'seeds-seed2', 'seeds-seed3']) assert.ok(existsSync(join(dir, 'results', d, 'fct.csv')), d);
});

test('run: an output location that cannot be written fails before simulating', () => {
  const spec = write('late.yaml', GOOD.replace('name: good', 'name: late'));
  writeFileSync(join(dir, 'existing.txt'), 'x');
  for (const out of [join(dir, 'existing.txt', 'sub'), '/proc/ccsim-x']) {
    const r = ccsim('run', spec, '--out', out);
    assert.equal(r.code, 2, out);
    assert.match(r.stderr, /cannot write results to/);
    assert.equal(r.stdout, '', 'nothing was simulated, so no summary');
    assertNoStack(r.stderr);
  }
});

test('list shows the value every DCQCN parameter takes per preset; the manifest records the resolved values', () => {
  const r = ccsim('list', 'ccs');
  assert.equal(r.code, 0, r.stderr);
  const dcqcn = r.stdout.slice(r.stdout.indexOf('  dcqcn:'));
  assert.match(dcqcn, /values the optional params take/);
  assert.match(dcqcn, /preset hpcc +preset powertcp +preset oscar +preset oscarFig1/);
  // HPCC run.py column at 100 G: AI 5 Mbps x 4, timer 300 us; OSCAR: AI 0.001 x line rate, 55 us
  assert.match(dcqcn, /rateAiBps +20 Mbps +50 Mbps +100 Mbps +1 Gbps/);
  assert.match(dcqcn, /increaseIntervalPs +300\.000us +900\.000us +55\.000us +55\.000us/);
  const spec = write('dcqcn.yaml', GOOD.replace('name: good', 'name: dcqcn-run').replace('cc: none', 'cc: dcqcn'));
  const out = join(dir, 'dcqcn-out');
  assert.equal(ccsim('run', spec, '--out', out, '--quiet').code, 0);
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { resolved: { cc: { name: string; params: Record<string, unknown> } } };
  assert.equal(m.resolved.cc.name, 'dcqcn');
  assert.deepEqual(
    { variant: m.resolved.cc.params['variant'], preset: m.resolved.cc.params['preset'], rateAiBps: m.resolved.cc.params['rateAiBps'], increaseIntervalPs: m.resolved.cc.params['increaseIntervalPs'] },
    { variant: 'paper', preset: 'oscar', rateAiBps: 1e8, increaseIntervalPs: 55e6 },
  );
});

test('incast-none example: PFC pauses the senders, nothing is dropped; the CLI explains throughput above line rate', () => {
  const example = fileURLToPath(new URL('../../examples/incast-none.yaml', import.meta.url));
  const out = join(dir, 'incast-none');
  const r = ccsim('run', example, '--out', out);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /drops 0, PFC pauses [1-9]/);
  assert.match(r.stdout, /note: throughput\.csv has samples up to .* above line rate .*txTimeQuantization: roundHalfUp/);
  const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { totals: { pausesSent: number; drops: number }; notes: string[] };
  assert.ok(s.totals.pausesSent > 0);
  assert.equal(s.totals.drops, 0);
  assert.equal(s.notes.length, 1);
  // bin tables under their source's name, each with an outside row
  assert.match(r.stdout, /^ {2}OSCAR bins .*\n(.*\n){3} {4}outside these bins +0 /m);
  assert.match(r.stdout, /^ {2}PowerTCP bins /m);
});

test('a run whose flows beat their ideal FCT says so', () => {
  // the OSCAR artifact class quirk: hosts 2 and 3 share a leaf of oscar64 but are classed by IPs 3 and 4, cross-leaf
  const spec = write(
    'quirk.yaml',
    `name: quirk
topology: { type: spineLeaf, preset: oscar64 }
network: { metrics: { oscarIdealIndexOffset: 1 } }
cc: none
workload:
  - { type: flows, flows: [{ src: 2, dst: 3, size: 10KB }] }
`,
  );
  const r = ccsim('run', spec, '--out', join(dir, 'quirk'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /note: 1 of 1 finished flows have slowdown < 1/);
});
