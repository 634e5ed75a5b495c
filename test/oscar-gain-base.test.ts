/**
 * OSCAR Fig 10 gains: which division "OSCAR x % better than X" uses (experiments/oscar/fct.ts
 * GainBase). The default analyses claim (X - OSCAR)/X and print the gains normalised to OSCAR
 * beside them; the `-oscar-normalised` analyses claim (X - OSCAR)/OSCAR (README Fig 10a,
 * "Which division the published gains use").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFigure, type PointResult } from '../src/experiment/results/analysis.js';
import { gainPct } from '../experiments/oscar/fct.js';
import '../experiments/index.js';
import { tempDir } from './helpers/tmp.js';

const close = (a: number | undefined, b: number, what: string): void => {
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${String(a)} vs ${b}`);
};

test('gainPct: (X - O)/X by default, (X - O)/O normalised to OSCAR; null without a positive divisor', () => {
  // ccsim's full-size Fig 10a means, seed 1 (README): HPCC 7.216, OSCAR 4.931
  close(gainPct(7.216, 4.931) ?? undefined, ((7.216 - 4.931) / 7.216) * 100, 'cc');
  close(gainPct(7.216, 4.931, 'oscar') ?? undefined, (7.216 / 4.931 - 1) * 100, 'oscar');
  // a loss has the same sign under both
  assert.ok(gainPct(1.413, 1.536)! < 0 && gainPct(1.413, 1.536, 'oscar')! < 0);
  assert.equal(gainPct(null, 1), null);
  assert.equal(gainPct(0, 1), null);
  assert.equal(gainPct(1, 0, 'oscar'), null);
});

/** One point folder per CC with the given flows (bytes, slowdown, tag). */
function points(prefix: string, flows: Record<string, [number, number, string][]>): PointResult[] {
  const dir = tempDir(prefix);
  return Object.entries(flows).map(([cc, rows], i) => {
    const d = join(dir, `p${i}`);
    mkdirSync(d);
    const lines = ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag'];
    rows.forEach(([bytes, s, tag], k) => lines.push([k, 0, 1, bytes, 0, 1, 1, 1, s, tag].join(',')));
    writeFileSync(join(d, 'fct.csv'), `${lines.join('\n')}\n`);
    return { dir: d, vars: { cc }, label: cc };
  });
}

test('Fig 10a: the default analysis claims (X - O)/X and prints the normalised gains; the -oscar-normalised one claims (X - O)/O', () => {
  // OSCAR: a small flow at 1, a large one at 4 (mean 2.5); HPCC: 0.8 and 6 (mean 3.4)
  const pts = points('oscar-gain-10a', {
    oscar: [[10_000, 1, ''], [1_000_000, 4, '']],
    hpcc: [[10_000, 0.8, ''], [1_000_000, 6, '']],
  });
  const def = findFigure('oscar-fig10a')!.analyze(pts);
  const norm = findFigure('oscar-fig10a-oscar-normalised')!.analyze(pts);
  const claim = (r: typeof def, id: string): number | undefined => r.claims.find((c) => c.id === id)?.value;
  close(claim(def, 'fig10a.oscar-vs-hpcc.all.mean'), (0.9 / 3.4) * 100, 'default all');
  close(claim(def, 'fig10a.oscar-vs-hpcc.small.mean'), -25, 'default small');
  close(claim(def, 'fig10a.oscar-vs-hpcc.large.mean'), (2 / 6) * 100, 'default large');
  close(claim(norm, 'fig10a.oscar-vs-hpcc.all.mean'), 36, 'normalised all');
  close(claim(norm, 'fig10a.oscar-vs-hpcc.small.mean'), -20, 'normalised small');
  close(claim(norm, 'fig10a.oscar-vs-hpcc.large.mean'), 50, 'normalised large');
  // the same claim ids, one per group and statistic
  assert.deepEqual(norm.claims.map((c) => c.id), def.claims.map((c) => c.id));
  // both print both divisions: slowdown table, claimed gains, the other gains, Fig 11
  for (const r of [def, norm]) assert.equal(r.tables.length, 4);
  assert.match(def.tables[1]!.title, /\(X - OSCAR\)\/X$/);
  assert.match(def.tables[2]!.title, /normalised to OSCAR \(no claims/);
  assert.deepEqual(def.tables[2]!.rows, norm.tables[1]!.rows);
  assert.deepEqual(def.tables[1]!.rows, norm.tables[2]!.rows);
});

test('Fig 10c: incast and Hadoop groups under both divisions', () => {
  // OSCAR: Hadoop 2, incast 10; HPCC: Hadoop 1.5, incast 20
  const pts = points('oscar-gain-10c', {
    oscar: [[50_000, 2, 'background'], [450_000, 10, 'incast']],
    hpcc: [[50_000, 1.5, 'background'], [450_000, 20, 'incast']],
  });
  const def = findFigure('oscar-fig10c')!.analyze(pts);
  const norm = findFigure('oscar-fig10c-oscar-normalised')!.analyze(pts);
  const claim = (r: typeof def, id: string): number | undefined => r.claims.find((c) => c.id === id)?.value;
  close(claim(def, 'fig10c.oscar-vs-hpcc.incast.mean'), 50, 'default incast');
  close(claim(norm, 'fig10c.oscar-vs-hpcc.incast.mean'), 100, 'normalised incast');
  close(claim(def, 'fig10c.oscar-vs-hpcc.hadoop.mean'), (-0.5 / 1.5) * 100, 'default Hadoop');
  close(claim(norm, 'fig10c.oscar-vs-hpcc.hadoop.mean'), -25, 'normalised Hadoop');
});
