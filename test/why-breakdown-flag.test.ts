/**
 * `ccsim run --breakdown` turns on the per-flow FCT breakdown without editing the spec, and
 * `ccsim why` then names the incast's hot port (issue 41; docs/guide.md, "Why a flow was slow").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/tmp.js';

const CLI = fileURLToPath(new URL('../cli/ccsim.mjs', import.meta.url));

test('run --breakdown writes the breakdown columns; why --tag names the hot port', () => {
  const dir = tempDir('why-flag');
  const spec = join(dir, 'incast.yaml');
  writeFileSync(
    spec,
    `name: incast\ntopology: { type: star, hosts: 9, rate: 100Gbps, delay: 1us }\ncc: dcqcn\nworkload:\n  - { type: incast, fanIn: 8, receiver: 8, size: 200KB, at: [10us] }\nstop: { maxTime: 5ms }\n`,
  );
  const out = join(dir, 'r');
  const r = spawnSync(process.execPath, [CLI, 'run', spec, '--breakdown', '--out', out, '-q'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const header = readFileSync(join(out, 'fct.csv'), 'utf8').split('\n')[0]!;
  assert.match(header, /tail_queue/);
  const w = spawnSync(process.execPath, [CLI, 'why', out, '--tag', 'incast'], { encoding: 'utf8' });
  assert.equal(w.status, 0, w.stderr);
  assert.match(w.stdout, /^tag incast: 8 flows/m);
  // the receiver's downlink (switch 9, its port to host 8) is where the incast queues
  assert.match(w.stdout, /hot port: node 9 port 8 \(tor-down\)/);
  // without --breakdown, why says what is missing (exit 2)
  const plain = join(dir, 'p');
  assert.equal(spawnSync(process.execPath, [CLI, 'run', spec, '--out', plain, '-q'], { encoding: 'utf8' }).status, 0);
  const w2 = spawnSync(process.execPath, [CLI, 'why', plain], { encoding: 'utf8' });
  assert.equal(w2.status, 2);
  assert.match(w2.stderr, /breakdown/);
});
