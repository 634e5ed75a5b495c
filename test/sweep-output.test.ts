/**
 * What a sweep leaves a user: a CC with parameters has one spelling in the
 * point label, the folder, points.csv, flows.parquet and the report legend
 * (`dcqcn[variant=paper]`), and `ccsim sweep` ends with one row per point
 * (flows, mean and p99 slowdown, unfinished) and a pointer to `ccsim report`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';

const dir = tempDir('sweep-output');

test('a CC with parameters is spelled one way everywhere; the sweep ends with a table per point and points to ccsim report', async () => {
  const spec = join(dir, 's.yaml');
  writeFileSync(
    spec,
    `name: s
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
workload:
  - { type: incast, fanIn: 3, size: 64KB, receiver: 0, at: [1us] }
cc: hpcc
sweep:
  cc: [hpcc, { name: dcqcn, params: { variant: paper, g: 0.00390625 } }]
`,
  );
  const out = join(dir, 'out');
  const r = spawnSync(process.execPath, [CLI, 'sweep', spec, '-o', out, '-j', '1', '-q'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const word = 'dcqcn[variant=paper,g=0.00390625]';
  assert.deepEqual(readdirSync(join(out, 'points')).sort(), [`cc=${word}`, 'cc=hpcc']);
  assert.match(readFileSync(join(out, 'points.csv'), 'utf8'), new RegExp(`,done,"${word.replace(/[[\]]/g, '\\$&')}",`));
  const buf = readFileSync(join(out, 'flows.parquet'));
  const rows = (await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) })) as Record<string, unknown>[];
  assert.deepEqual([...new Set(rows.map((x) => x['cc']))].sort(), [word, 'hpcc']);
  // the closing table: one row per point with 3 flows each, then where the charts are
  const lines = r.stdout.split('\n');
  const head = lines.findIndex((l) => /^point\s+flows\s+mean\s+p99\s+unfinished\s+status$/.test(l));
  assert.ok(head > 0, r.stdout);
  assert.match(lines[head + 2]!, /^cc=hpcc\s+3\s+[\d.]+\s+[\d.]+\s+0\s+done$/);
  assert.match(lines[head + 3]!, new RegExp(`^cc=${word.replace(/[[\]]/g, '\\$&')}\\s+3\\s+[\\d.]+\\s+[\\d.]+\\s+0\\s+done$`));
  assert.match(r.stdout, new RegExp(`charts and tables: ccsim report ${out.replace(/[/.]/g, '\\$&')}\n$`));
});

test('flows.parquet has a seed column: with `seeds:` each row carries the seed its point ran with (issue 28)', async () => {
  const spec = join(dir, 'seeds.yaml');
  writeFileSync(
    spec,
    `name: seeds
seed: 7
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
workload:
  - { type: poisson, cdf: websearch, load: 0.3, duration: 1ms }
cc: hpcc
seeds: [7, 3]
sweep:
  cc: [hpcc, dcqcn]
`,
  );
  const out = join(dir, 'seeds-out');
  const r = spawnSync(process.execPath, [CLI, 'sweep', spec, '-o', out, '-j', '1', '-q'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const buf = readFileSync(join(out, 'flows.parquet'));
  const rows = (await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) })) as Record<string, unknown>[];
  assert.deepEqual([...new Set(rows.map((x) => x['seed']))].sort(), [3n, 7n]);
  // each (cc, seed) group is exactly that point's flows: the spec's own seed keeps the plain folder name
  for (const [cc, seed, folder] of [['hpcc', 7n, 'cc=hpcc'], ['dcqcn', 7n, 'cc=dcqcn'], ['hpcc', 3n, 'cc=hpcc,seed=3'], ['dcqcn', 3n, 'cc=dcqcn,seed=3']] as const) {
    const fct = readFileSync(join(out, 'points', folder, 'fct.csv'), 'utf8').trim().split('\n').slice(1);
    const unf = readFileSync(join(out, 'points', folder, 'unfinished.csv'), 'utf8').trim().split('\n').slice(1);
    const mine = rows.filter((x) => x['cc'] === cc && x['seed'] === seed);
    assert.equal(mine.length, fct.length + unf.length, `${folder}`);
    assert.deepEqual(mine.filter((x) => x['finished'] === true).map((x) => x['bytes']), fct.map((l) => BigInt(l.split(',')[3]!)), `${folder} bytes`);
  }
  // different seeds draw different flows (else the column would not matter)
  const sizes = (seed: bigint): string => rows.filter((x) => x['cc'] === 'hpcc' && x['seed'] === seed).map((x) => String(x['bytes'])).join(',');
  assert.notEqual(sizes(3n), sizes(7n));
});
