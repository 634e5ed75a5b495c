import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ccNames } from '../src/cc/registry.js';
import { workloadNames } from '../src/workload/index.js';
import { tempDir } from './helpers/tmp.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
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
  assert.equal(r.stdout.trim(), 'ok: good: 17 hosts, 1 switches, 16 flows, cc none');
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
  assert.match(r.stdout, /^ok: good-json: 17 hosts, 1 switches, 1 flows, cc none$/m);
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
