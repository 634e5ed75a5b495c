/**
 * The training figures' analyses on result folders with known numbers:
 * OSCAR Fig 12 (experiments/oscar/analysis-training.ts) averages jobs.csv per
 * workload tag and reports X/OSCAR - 1 per CC and workload (§6.4: normalised to OSCAR), the spraying
 * gain and the largest gain per CC; CCC Fig 12 (experiments/ccc/
 * analysis-training.ts) reports CCC's pause cut against DCQCN / TIMELY /
 * Swift (smallest and largest) and the share of CCs no faster than CCC.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFigure, type PointResult } from '../src/experiment/results/analysis.js';
import '../experiments/index.js';
import { tempDir } from './helpers/tmp.js';

function point(root: string, cc: string | { name: string }, jobs: [string, number][], pauses = 0): PointResult {
  const name = typeof cc === 'string' ? cc : cc.name;
  const dir = join(root, `${name}-${jobs[0]![0]}`);
  mkdirSync(dir, { recursive: true });
  const rows = jobs.map(([job, d], i) => `${job},${i},0,${d},${d},1000`);
  writeFileSync(join(dir, 'jobs.csv'), ['job,iteration,start_ps,finish_ps,duration_ps,bytes', ...rows].join('\n') + '\n');
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ totals: { pausesSent: pauses } }));
  return { dir, vars: { cc }, label: `cc=${name}` };
}

const claim = (cs: { id: string; value: number }[], id: string): number => {
  const c = cs.find((x) => x.id === id);
  assert.ok(c !== undefined, `no claim ${id} in ${cs.map((x) => x.id).join(', ')}`);
  return c.value;
};

/** A point whose fct.csv / unfinished.csv hold `n` flows of each tag (the artifact form counts rows). */
function countPoint(root: string, cc: string, counts: Record<string, [number, number]>): PointResult {
  const dir = join(root, `${cc}-${Object.keys(counts).join('-')}`);
  mkdirSync(dir, { recursive: true });
  const rows = (k: 0 | 1): string[] => Object.entries(counts).flatMap(([tag, c]) => Array.from({ length: c[k] }, (_, j) => `${j},${tag}`));
  writeFileSync(join(dir, 'fct.csv'), ['id,tag', ...rows(0)].join('\n') + '\n');
  writeFileSync(join(dir, 'unfinished.csv'), ['id,tag', ...rows(1)].join('\n') + '\n');
  return { dir, vars: { cc }, label: `cc=${cc}` };
}

test('OSCAR Fig 12, artifact form: flows started (finished + unfinished) per tag, gains count(OSCAR)/count(X) - 1, spraying gain, max per CC', () => {
  const root = tempDir('fig12-artifact');
  const points = [
    countPoint(root, 'oscar', { resnet: [110, 10], 'moe-spray': [150, 0] }),
    countPoint(root, 'oscar', { moe: [100, 0] }),
    countPoint(root, 'hpcc', { resnet: [90, 10], moe: [80, 0], 'moe-spray': [30, 0] }),
  ];
  const r = findFigure('oscar-fig12-artifact')!.analyze(points);
  assert.ok(Math.abs(claim(r.claims, 'fig12.resnet.oscar-vs-hpcc') - 20) < 1e-9); // 120 / 100 - 1
  assert.ok(Math.abs(claim(r.claims, 'fig12.moe.oscar-vs-hpcc') - 25) < 1e-9); // 100 / 80 - 1
  assert.ok(Math.abs(claim(r.claims, 'fig12.oscar-vs-hpcc.max') - 400) < 1e-9); // sprayed: 150 / 30 - 1
  assert.ok(Math.abs(claim(r.claims, 'fig12.moe.oscar-spray-gain') - 50) < 1e-9); // 150 / 100 - 1
  assert.equal(r.claims.filter((c) => c.id.includes('oscar-vs-oscar')).length, 0);
});

test('OSCAR Fig 12 analysis: mean time per workload tag, gains X/OSCAR - 1 (normalised to OSCAR), spraying gain, max per CC', () => {
  const root = tempDir('fig12');
  const points = [
    point(root, 'oscar', [['resnet/0', 100], ['resnet/1', 100]]),
    point(root, 'hpcc', [['resnet/0', 100], ['resnet/1', 150]]),
    point(root, 'oscar', [['moe/0', 200], ['moe/0', 200]]),
    point(root, 'hpcc', [['moe/2', 250]]),
    point(root, 'oscar', [['moe-spray/3', 150]]),
    point(root, 'hpcc', [['moe-spray/3', 600]]),
    point(root, { name: 'theta-powertcp' }, [['resnet', 80]]),
  ];
  const r = findFigure('oscar-fig12')!.analyze(points);
  assert.ok(Math.abs(claim(r.claims, 'fig12.resnet.oscar-vs-hpcc') - 25) < 1e-9); // 125 / 100 - 1
  assert.ok(Math.abs(claim(r.claims, 'fig12.moe.oscar-vs-hpcc') - 25) < 1e-9);
  assert.ok(Math.abs(claim(r.claims, 'fig12.moe-spray.oscar-vs-hpcc') - 300) < 1e-9);
  assert.ok(Math.abs(claim(r.claims, 'fig12.resnet.oscar-vs-theta-powertcp') + 20) < 1e-9); // OSCAR slower
  assert.ok(Math.abs(claim(r.claims, 'fig12.oscar-vs-hpcc.max') - 300) < 1e-9);
  assert.ok(Math.abs(claim(r.claims, 'fig12.moe.oscar-spray-gain') - 100 / 3) < 1e-9); // 200 / 150 - 1
  const t = r.tables[0]!;
  assert.deepEqual(t.columns.slice(0, 3), ['cc', 'resnet (ms)', 'resnet / OSCAR']);
  assert.deepEqual(t.rows.find((row) => row[0] === 'hpcc')!.slice(0, 3), ['hpcc', 0, 1.25]);
});

test('CCC Fig 12 analysis: pause cut vs DCQCN / TIMELY / Swift (min, max) and the share of CCs no faster than CCC', () => {
  const root = tempDir('ccc-fig12');
  const points = [
    point(root, 'ccc', [['alexnet', 100]], 10),
    point(root, 'dcqcn', [['alexnet', 120]], 100),
    point(root, 'timely', [['alexnet', 90]], 50),
    point(root, 'swift', [['alexnet', 100]], 20),
    point(root, 'hpcc', [['alexnet', 130]], 10),
  ];
  const r = findFigure('ccc-fig12')!.analyze(points);
  assert.ok(Math.abs(claim(r.claims, 'ccc.fig12.pause-reduction.min') - 50) < 1e-9);
  assert.ok(Math.abs(claim(r.claims, 'ccc.fig12.pause-reduction.max') - 90) < 1e-9);
  // dcqcn, swift (a tie) and hpcc are no faster; timely is faster
  assert.equal(claim(r.claims, 'ccc.fig12.ccc-fastest-share'), 3 / 4);
  assert.deepEqual(r.tables[0]!.rows[0], ['ccc', 10, 0, 1]);
});
