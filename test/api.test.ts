/**
 * docs/api.md: its example is examples/api/sweep-and-report.mjs verbatim, and
 * that script runs against the package entry (src/index.ts) and does what the
 * document says: a cost estimate, a run, a two-point sweep and its report.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INDEX = fileURLToPath(new URL('../src/index.js', import.meta.url));

test('docs/api.md shows the example script verbatim, and the script runs', () => {
  const script = readFileSync(join(ROOT, 'examples', 'api', 'sweep-and-report.mjs'), 'utf8');
  const doc = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  assert.ok(doc.includes('```js\n' + script + '```'), 'the code block of docs/api.md is the example file');
  assert.match(script, /from 'ccsim';/);
  const dir = tempDir('api');
  const local = join(dir, 'example.mjs');
  writeFileSync(local, script.replace("from 'ccsim';", `from ${JSON.stringify(INDEX)};`));
  const work = join(dir, 'work');
  const r = spawnSync(process.execPath, [local, work], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0]!, /^11 flows, \d+ packets, about [\d.]+ s per run$/);
  assert.match(lines[1]!, /^run: 11 flows finished, mean slowdown [\d.]+, p99 [\d.]+$/);
  assert.equal(lines[2], 'sweep: 2/2 points finished');
  assert.match(lines[3]!, /^report: .*sweep\/report\.html \(\d+ charts\)$/);
  assert.ok(existsSync(join(work, 'run', 'queues.csv')) && existsSync(join(work, 'sweep', 'report.html')));
  // the run's figures in the document are the deterministic ones
  assert.ok(doc.includes(lines[1]!), 'docs/api.md shows the run line this version prints');
});
