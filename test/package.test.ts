/**
 * ccsim as a package (README "Running experiments", docs/api.md "Install"): `npm pack`
 * makes a tarball that `npm install <tarball>` in an empty folder turns into a
 * working `npx ccsim run <spec>` and `import { ... } from 'ccsim'` (the
 * docs/api.md example script, run unchanged). The dependencies come from npm's
 * cache when it has them (`--prefer-offline`: after `npm ci` it does).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function sh(cmd: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  return { status: r.status, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}${r.error !== undefined ? String(r.error) : ''}` };
}

test('npm pack -> npm install <tarball> in an empty folder -> npx ccsim run, and import from ccsim', { timeout: 180_000 }, () => {
  const dir = tempDir('package');
  // the build is there (npm test builds first); packing does not build again
  const pack = sh(NPM, ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], ROOT);
  assert.equal(pack.status, 0, pack.stderr);
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  assert.ok(tgz !== undefined, `no tarball in ${dir}`);

  const app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }) + '\n');
  const inst = sh(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--omit=optional', join(dir, tgz)], app);
  assert.equal(inst.status, 0, inst.stderr);
  assert.ok(existsSync(join(app, 'node_modules', '.bin', process.platform === 'win32' ? 'ccsim.cmd' : 'ccsim')), 'the ccsim command is linked');

  // the command: a spec of the user's, and an example shipped in the package
  writeFileSync(
    join(app, 'spec.yaml'),
    `name: pkg
topology: { type: star, hosts: 5, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 4, size: 64KB, receiver: 0, at: [0us] }
`,
  );
  const run = sh(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--no-install', 'ccsim', 'run', 'spec.yaml', '-o', 'out'], app);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /flows finished 4\/4/);
  const fct = readFileSync(join(app, 'out', 'fct.csv'), 'utf8').trim().split('\n');
  assert.equal(fct.length, 5, 'a header and 4 flows');
  const validate = sh(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['--no-install', 'ccsim', 'validate', '--no-estimate', 'node_modules/ccsim/examples/demo.yaml'], app);
  assert.equal(validate.status, 0, validate.stderr);
  assert.match(validate.stdout, /^ok: demo: 64 hosts/);

  // the library: docs/api.md's example script, unchanged (a cost estimate, a run, a sweep, a report)
  copyFileSync(join(ROOT, 'examples', 'api', 'sweep-and-report.mjs'), join(app, 'example.mjs'));
  const api = sh(process.execPath, ['example.mjs', 'work'], app);
  assert.equal(api.status, 0, api.stderr);
  assert.match(api.stdout, /^run: 11 flows finished, mean slowdown [\d.]+, p99 [\d.]+$/m);
  assert.ok(existsSync(join(app, 'work')), 'the example wrote its work folder');
});
