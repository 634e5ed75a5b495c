/**
 * `reproduce` and `claims` fit a 120-column terminal (src/cli/fit.ts): long
 * ids are cut in the middle, values at the end, causes go under their row,
 * and the full table stays in the report's claims.csv.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fitTable, shorten, wrap } from '../src/cli/fit.js';
import { CLI } from './helpers/cli.js';

test('shorten, wrap and fitTable keep to the width', () => {
  assert.equal(shorten('abcdefghij', 10), 'abcdefghij');
  assert.equal(shorten('abcdefghij', 6), 'abcde…');
  assert.equal(shorten('abcdefghij', 6, true), 'abc…ij');
  assert.deepEqual(wrap('aaa bbb ccc ddd', 8, '  '), ['aaa bbb', '  ccc', '  ddd']);
  const t = { title: 't', columns: ['id', 'value', 'note'], rows: [['x'.repeat(60), 'y'.repeat(50), 'z'.repeat(40)]] };
  const lines = fitTable(t, [{ col: 2, min: 10 }, { col: 0, min: 20, middle: true }], 100, ['  under the row '.repeat(10)]);
  for (const l of lines) assert.ok(l.length <= 100, `${l.length}: ${l}`);
  assert.equal(lines.length, 5, 'title, header, rule, the row and the line under it');
  assert.match(lines[3]!, /^x{18}…x{17}  y{50}  z{9}…$/);
  assert.ok(lines[4]!.endsWith('…'));
  // a table that fits is not touched
  assert.deepEqual(fitTable({ title: 'a', columns: ['b', 'c'], rows: [['d', 1]] }, [{ col: 0, min: 1 }], 80), ['a', 'b  c', '-  -', 'd  1']);
});

test('claims: every line within 120 columns, causes under their rows, the sensitivity marker explained', () => {
  const r = spawnSync(process.execPath, [CLI, 'claims', 'oscar'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const wide = lines.filter((l) => [...l].length > 120);
  assert.deepEqual(wide, []);
  assert.ok(lines.some((l) => /^ {6}cause: /.test(l)), 'a cause line');
  assert.match(r.stdout, /^\d+ claims: \d+ hold, \d+ deviate/m);
  assert.match(r.stdout, /\(shortened to 120 columns; the full table: ccsim reproduce oscar writes it to claims\.csv\)/);
});
