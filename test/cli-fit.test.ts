/**
 * `reproduce` and `claims` fit a 120-column terminal (src/cli/fit.ts): long
 * ids are cut in the middle, values at the end, causes go under their row,
 * and the full table stays in the report's claims.csv; a sweep's progress
 * lines and its estimate fit too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fitTable, shorten, wrap } from '../src/cli/fit.js';
import { CLI } from './helpers/cli.js';
import { tempDir } from './helpers/tmp.js';

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

test('claims: every line within 120 columns, provenance and causes under their rows, the sensitivity marker explained', () => {
  const r = spawnSync(process.execPath, [CLI, 'claims', 'oscar'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const wide = lines.filter((l) => [...l].length > 120);
  assert.deepEqual(wide, []);
  // under a measured row: its provenance, then its cause (a current record) or why it is stale (the records of an
  // older model, e.g. right after the model fingerprint is renewed and before the papers are re-recorded)
  const current = /^\d+ claims: (\d+) hold, (\d+) deviate(?:, (\d+) inconclusive)?/m.exec(r.stdout);
  assert.ok(current !== null, 'the summary line');
  if (Number(current[1]) + Number(current[2]) + Number(current[3] ?? 0) > 0) assert.ok(lines.some((l) => /^ {6}build [0-9a-f]{12}; .*; cause: /.test(l)), 'a provenance and cause line');
  assert.ok(lines.some((l) => /^ {6}build (none recorded|[0-9a-f]{12}); .*; (stale|cause): /.test(l)), 'a provenance line with its cause or why it is stale');
  assert.match(r.stdout, /^\d+ claims: \d+ hold, \d+ deviate/m);
  assert.match(r.stdout, /\(shortened to 120 columns; the full table: ccsim reproduce oscar writes it to claims\.csv\)/);
});

test('sweep: the estimate and each point\'s done line fit 120 columns, however long the point label', () => {
  const dir = tempDir('cli-fit');
  const spec = join(dir, 'long.yaml');
  writeFileSync(
    spec,
    `name: long-labels
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 3, size: 16KB, receiver: 0, at: [0us] }
sweep:
  cc:
    - { name: dcqcn, params: { variant: paper, g: 0.00390625, rateAiBps: 40Mbps, rateHaiBps: 200Mbps, minRateBps: 100Mbps, alphaIntervalPs: 55us, increaseIntervalPs: 55us } }
    - { name: hpcc, params: { eta: 0.95, rateAiBps: 50Mbps, minRateBps: 100Mbps } }
`,
  );
  const r = spawnSync(process.execPath, [CLI, 'sweep', spec, '-o', join(dir, 'out'), '-j', '1'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n').filter((l) => /^(estimate:|\[\d+\/\d+\] done)/.test(l));
  assert.equal(lines.length, 3, r.stdout);
  for (const l of lines) assert.ok([...l].length <= 120, `${[...l].length}: ${l}`);
  assert.match(lines[1]!, /^\[1\/2\] done {3}point 0 \(cc=dcqcn\[variant=paper,.*…\): [\d.]+ s, [\d.]+[kM]? events\/s$/);
});
