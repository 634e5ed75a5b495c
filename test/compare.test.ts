/**
 * `ccsim compare` (src/report/compare.ts): reading another simulator's per-flow output
 * (the HPCC / PowerTCP ns-3 simulators' fct.txt, a CSV with named columns), matching flows,
 * per-bin statistics and the CLI on the shipped W10 reference runs (data/anchors/ns3-w10).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareFlows, readReferenceFlows, type FlowOutcome } from '../src/report/compare.js';
import { anchorDir } from '../src/report/anchors.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';

const dir = tempDir('compare');

function write(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

test('fct.txt: HPCC-simulator hex addresses and decimal ids both give host ids; times in ns', () => {
  // 0x0b000001 + (id / 256)·2^16 + (id % 256)·2^8: host 0 = 0b000001, host 3 = 0b000301, host 257 = 0b010101
  const f = write('fct.txt', '0b000001 0b000301 10000 100 5000 100000 12000 10000\n0b010101 2 10001 100 2000000 200000 900000 700000\n');
  const flows = readReferenceFlows(f);
  assert.deepEqual(flows[0], { src: 0, dst: 3, bytes: 5000, startNs: 100000, fctNs: 12000, idealNs: 10000 });
  assert.equal(flows[1]!.src, 257);
  assert.equal(flows[1]!.dst, 2);
});

test('CSV: default column names with unit suffixes, named columns and a time unit; a missing column is a usage error naming it', () => {
  const a = readReferenceFlows(write('a.csv', 'src,dst,size_B,start_ns,fct_ns,base_fct_ns\n1,2,1000,5000,3000,1500\n'));
  assert.deepEqual(a[0], { src: 1, dst: 2, bytes: 1000, startNs: 5000, fctNs: 3000, idealNs: 1500 });
  const b = readReferenceFlows(write('b.csv', 'from,to,len,t0,dur\n1,2,1000,5,3\n'), { columns: { src: 'from', dst: 'to', size: 'len', start: 't0', fct: 'dur' }, timeUnit: 'us' });
  assert.deepEqual(b[0], { src: 1, dst: 2, bytes: 1000, startNs: 5000, fctNs: 3000 });
  assert.throws(() => readReferenceFlows(write('c.csv', 'src,dst,len,start,fct\n1,2,3,4,5\n')), /no size column.*--col-size/);
  assert.throws(() => readReferenceFlows(write('d.csv', 'src,dst,size,start,fct\n1,2,x,4,5\n')), /d\.csv:2: size "x"/);
});

test('compareFlows: flows match on src, dst, size and start; unmatched flows are counted on each side; per-bin statistics and differences', () => {
  const ours: FlowOutcome[] = [];
  const theirs: FlowOutcome[] = [];
  for (let i = 0; i < 100; i++) {
    const bytes = i < 50 ? 5000 : 2_000_000;
    ours.push({ src: 0, dst: 1, bytes, startNs: i * 1000, fctNs: 2 * 10_000, idealNs: 10_000 });
    theirs.push({ src: 0, dst: 1, bytes, startNs: i * 1000, fctNs: 1.6 * 10_000 });
  }
  ours.push({ src: 5, dst: 6, bytes: 1, startNs: 1, fctNs: 1, idealNs: 1 }); // not in theirs
  theirs.push({ src: 7, dst: 8, bytes: 1, startNs: 1, fctNs: 1 }, { src: 7, dst: 9, bytes: 1, startNs: 1, fctNs: 1 }); // not in ours
  const c = compareFlows(ours, theirs);
  assert.equal(c.matched, 100);
  assert.equal(c.unmatchedOurs, 1);
  assert.equal(c.unmatchedTheirs, 2);
  assert.deepEqual(
    c.bins.map((b) => [b.bin, b.ours.n]),
    [['all', 100], ['[0 B, 10 KB)', 50], ['[10 KB, 100 KB)', 0], ['[100 KB, 1 MB)', 0], ['[1 MB, inf)', 50]],
  );
  // both slowdowns divide by our ideal FCT: 2 vs 1.6, +25 %
  assert.equal(c.bins[0]!.ours.mean, 2);
  assert.ok(Math.abs(c.bins[0]!.theirs.p99 - 1.6) < 1e-12);
  assert.ok(Math.abs(c.bins[0]!.diffPct.mean - 25) < 1e-9);
  assert.ok(Number.isNaN(c.bins[2]!.diffPct.mean));
  // slowdowns against the reference's ideal need one
  assert.throws(() => compareFlows(ours, theirs, { ideal: 'theirs' }), /ideal FCT per flow/);
});

test('ccsim compare on a W10 reference: table, JSON, report with both CDFs, the unmatched flows of an unfinished reference run', () => {
  // a ccsim-shaped run folder holding the reference's own DCTCP flows with every FCT 10 % longer,
  // compared with the DCQCN reference run (which finished 687 of the 689 flows)
  const ref = join(anchorDir(), 'dcqcn', 'fct_per_flow.csv');
  const src = readReferenceFlows(join(anchorDir(), 'dctcp', 'fct_per_flow.csv'));
  const run = join(dir, 'run');
  mkdirSync(run);
  const rows = src.map((f, i) => [i, f.src, f.dst, f.bytes, f.startNs * 1000, (f.startNs + f.fctNs * 1.1) * 1000, f.fctNs * 1100, f.idealNs! * 1000, (1.1 * f.fctNs) / f.idealNs!, ''].join(','));
  writeFileSync(join(run, 'fct.csv'), 'id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag\n' + rows.join('\n') + '\n');
  const json = join(dir, 'c.json');
  const r = spawnSync(process.execPath, [CLI, 'compare', run, ref, '--label', 'ns-3', '--json', json, '--report', join(dir, 'rep')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /ccsim mean\s+ns-3 mean\s+Δ mean %/);
  assert.match(r.stdout, /687 flows matched; 0 ns-3 flows and 2 ccsim flows without a partner/);
  const j = JSON.parse(readFileSync(json, 'utf8')) as { matched: number; bins: { bin: string }[] };
  assert.equal(j.matched, 687);
  assert.equal(j.bins.length, 5);
  const html = readFileSync(join(dir, 'rep', 'report.html'), 'utf8');
  assert.match(html, /CDF of slowdown: ccsim vs ns-3 \(687 matched flows\)/);
  // same flows, FCT x 1.1 vs the DCTCP run's FCT: the comparison of this file with itself would be +10 %
  const self = spawnSync(process.execPath, [CLI, 'compare', run, join(anchorDir(), 'dctcp', 'fct_per_flow.csv'), '--json', json], { encoding: 'utf8' });
  assert.equal(self.status, 0, self.stderr);
  const js = JSON.parse(readFileSync(json, 'utf8')) as { matched: number; bins: { diffPct: { mean: number; p99: number } }[] };
  assert.equal(js.matched, 689);
  assert.ok(Math.abs(js.bins[0]!.diffPct.mean - 10) < 1e-6 && Math.abs(js.bins[0]!.diffPct.p99 - 10) < 1e-6, JSON.stringify(js.bins[0]));
  // bad input: a usage error, no stack
  const bad = spawnSync(process.execPath, [CLI, 'compare', run, ref, '--metric', 'speed'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--metric: "speed" is not one of slowdown, fct/);
  // two unrelated runs: no flow in common is an error, not a table of dashes
  const other = join(dir, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'fct.csv'), 'id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag\n0,1,2,12345,7000,9000,2000,1000,2,\n');
  const none = spawnSync(process.execPath, [CLI, 'compare', other, ref], { encoding: 'utf8' });
  assert.equal(none.status, 2, none.stdout);
  assert.match(none.stderr, /^error: no flow in common: .*other has 1 finished flow, .*fct_per_flow\.csv has 687; flows are matched on source, destination, size and start time/);
  assert.equal(none.stdout, '');
});
