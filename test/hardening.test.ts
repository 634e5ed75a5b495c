/**
 * Hostile input and failure hardening (issue 30): each test is one defect of
 * the adversarial pass, checked through the `ccsim` command as a user meets it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/tmp.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const dir = tempDir('hardening');

function ccsim(...args: string[]): { code: number | null; stdout: string; stderr: string; signal: NodeJS.Signals | null } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 20_000, env: { ...process.env, CI: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

function write(name: string, text: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}

function assertNoStack(s: string): void {
  assert.doesNotMatch(s, /^\s+at /m, `stack trace in output:\n${s}`);
}

const TINY = `name: tiny
topology: { type: star, hosts: 3, rate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: flows, flows: [{ src: 0, dst: 2, size: 10KB, start: 0us }] }
`;

function fifo(name: string): string {
  const p = join(dir, name);
  execFileSync('mkfifo', [p]);
  return p;
}

test('1. a FIFO as the spec, a CDF or a topology file is refused at once, not waited on', () => {
  const spec = fifo('spec.fifo');
  let r = ccsim('validate', spec);
  assert.equal(r.signal, null, 'validate hung on a FIFO spec');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not a regular file/);
  const cdf = fifo('cdf.fifo');
  r = ccsim('validate', write('cdf-fifo.yaml', TINY.replace(/workload:[^]*$/, `workload:\n  - { type: poisson, cdf: ${cdf}, load: 0.5, duration: 1us }\n`)));
  assert.equal(r.signal, null, 'validate hung on a FIFO CDF');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /workload\[0\]\.cdf: .*not a regular file/);
  const topo = fifo('topo.fifo');
  r = ccsim('run', write('topo-fifo.yaml', TINY.replace(/topology:.*\n/, `topology: { type: file, path: ${topo}, format: hpcc }\n`)), '--out', join(dir, 'out-fifo'));
  assert.equal(r.signal, null, 'run hung on a FIFO topology');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /topology\.path: .*not a regular file/);
  assert.ok(!existsSync(join(dir, 'out-fifo')));
  assertNoStack(r.stderr);
});
