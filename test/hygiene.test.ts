/**
 * Rules about the test suite itself: scratch folders come from
 * helpers/tmp.ts (removed after each file, so `npm test` leaves nothing
 * behind), and no test asserts on wall-clock time (the machine's load is not
 * the simulator's behaviour).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/tmp.js';

const TEST_SRC = fileURLToPath(new URL('../../test/', import.meta.url));

function sources(): { name: string; text: string }[] {
  return readdirSync(TEST_SRC)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ name: f, text: readFileSync(join(TEST_SRC, f), 'utf8') }));
}

test('test files take scratch folders from helpers/tmp.ts only', () => {
  const files = sources();
  assert.ok(files.length > 5, `found ${files.length} test sources in ${TEST_SRC}`);
  const offenders = files.filter((f) => /\btmpdir\s*\(/.test(f.text)).map((f) => f.name);
  assert.deepEqual(offenders, [], 'use tempDir() from helpers/tmp.ts, which removes the folder after the file');
});

test('no test asserts on wall-clock time', () => {
  const offenders = sources()
    .filter((f) => f.name !== 'hygiene.test.ts' && /performance\.now\(\)|Date\.now\(\)/.test(f.text))
    .map((f) => f.name);
  assert.deepEqual(offenders, []);
});

let scratch = '';
test('tempDir gives an empty folder ...', () => {
  scratch = tempDir('hygiene');
  assert.deepEqual(readdirSync(scratch), []);
});
test.after(() => {
  // runs after the helper's own after() hook registered above: the folder is gone
  assert.ok(scratch === '' || !existsSync(scratch), `${scratch} was left behind`);
});
