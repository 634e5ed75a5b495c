/**
 * OSCAR Figs 17/18 (OSCAR App. C.2; experiments/oscar/fig17-18.yaml): the spec
 * plans the paper's three workloads under its four fabrics at full and quick
 * size, and the figure analysis turns hand-written result folders into the
 * gains the published claims name (data/published/oscar.yaml). BFC's own
 * behaviour is tested in test/bfc.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planSweep } from '../src/experiment/run/sweep.js';
import { findFigure, type PointResult } from '../src/experiment/results/analysis.js';
import { fabricOf, workloadOf } from '../experiments/oscar/analysis-bfc.js';
import { loadPublished } from '../src/report/published.js';
import '../experiments/index.js';
import { tempDir } from './helpers/tmp.js';
import { ownReplica } from './helpers/replica.js';

const EXP = fileURLToPath(new URL('../../experiments/oscar/', import.meta.url));
const PUBLISHED = fileURLToPath(new URL('../../data/published/oscar.yaml', import.meta.url));

test('fig17-18 plans 3 workloads x {OSCAR+PFC, BFC-32, BFC-128, OSCAR+BFC-32} at full and quick size', () => {
  const full = planSweep(`${EXP}fig17-18.yaml`);
  const quick = planSweep(`${EXP}fig17-18.yaml`, { quick: true });
  for (const plan of [full, quick]) {
    assert.equal(plan.figure, 'oscar-fig17-18');
    assert.ok(findFigure('oscar-fig17-18') !== undefined);
    assert.equal(ownReplica(plan.points).length, 12);
    const seen = ownReplica(plan.points).map((p) => `${workloadOf(p as unknown as PointResult)}/${fabricOf(p as unknown as PointResult)}`).sort();
    const want: string[] = [];
    for (const w of ['cachefollower', 'websearch', 'hadoop']) for (const f of ['oscar+pfc', 'bfc-32', 'bfc-128', 'oscar+bfc-32']) want.push(`${w}/${f}`);
    assert.deepEqual(seen, want.sort());
  }
  for (const p of full.points) {
    const sw = p.spec.network!.switch!;
    if (sw.bfc === undefined) {
      // PFC with BFC's Xon/Xoff: a static 25 000 B Xoff, Xon 3 000 B below
      assert.equal(sw.pfcEnabled, true);
      assert.equal(sw.dtMode, 'static');
      assert.equal(sw.staticThresholdBytes, 25_000);
      assert.equal(25_000 - sw.resumeOffsetBytes!, 22_000);
    } else {
      assert.equal(sw.pfcEnabled, false, 'BFC runs without PFC');
      assert.equal(sw.bfc.pauseBytes, 25_000);
      assert.equal(sw.bfc.resumeBytes, 22_000);
    }
    const hadoop = p.spec.workload.some((w) => w.type === 'incast');
    assert.deepEqual(
      p.spec.workload.map((w) => ('load' in w ? w.load : null)),
      hadoop ? [0.3, 0.15] : [0.5],
    );
  }
  quick.points.forEach((p, i) => {
    const dur = (q: typeof p) => q.spec.workload.map((w) => ('duration' in w ? w.duration : null));
    assert.notDeepEqual(dur(p), dur(ownReplica(full.points)[i]!), 'quick shortens the arrivals');
  });
});

test('fig17-18 analysis: per-workload gains of the compared fabrics, named as the published claims', () => {
  const dir = tempDir('oscar-bfc');
  // (workload, fabric) -> slowdown of a small (10 KB) and a large (1 MB) flow, and for Hadoop one incast flow
  const sd: Record<string, Record<string, [number, number]>> = {
    cachefollower: { 'oscar+pfc': [2, 8], 'bfc-32': [4, 4], 'bfc-128': [3, 4], 'oscar+bfc-32': [1.5, 4] },
    websearch: { 'oscar+pfc': [2, 8], 'bfc-32': [4, 4], 'bfc-128': [3, 4], 'oscar+bfc-32': [1.5, 4] },
    hadoop: { 'oscar+pfc': [2, 10], 'bfc-32': [2, 5], 'bfc-128': [2, 5], 'oscar+bfc-32': [2, 4] },
  };
  const vars = (w: string, f: string): Record<string, unknown> => {
    const workload = w === 'hadoop' ? [{ cdf: 'hadoop' }, { type: 'incast' }] : [{ cdf: w }];
    const bfc = f.includes('bfc') ? { bfc: { queues: f.endsWith('128') ? 128 : 32 } } : {};
    return { workload, cc: f.startsWith('oscar') ? 'oscar' : 'none', 'network.switch': { pfcEnabled: !f.includes('bfc'), ...bfc } };
  };
  const points: PointResult[] = [];
  for (const [w, fabrics] of Object.entries(sd)) {
    for (const [f, [small, large]] of Object.entries(fabrics)) {
      const d = join(dir, `${w}-${f}`);
      mkdirSync(d);
      const rows = ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag', `0,0,1,10000,0,1,1,1,${small},`, `1,0,1,1000000,0,1,1,1,${large},`];
      if (w === 'hadoop') rows.push('2,0,1,450000,0,1,1,1,100,incast');
      writeFileSync(join(d, 'fct.csv'), `${rows.join('\n')}\n`);
      // BFC's counters (issue 42): only the two BFC points of CacheFollower carry them here
      if (w === 'cachefollower' && f.startsWith('bfc')) {
        const q = f === 'bfc-32' ? 32 : 40;
        writeFileSync(join(d, 'summary.json'), JSON.stringify({ totals: { drops: 0, bfcPauses: 9, bfcSharedAssignments: q === 32 ? 5 : 0, bfcMaxQueuesInUse: q } }));
      }
      points.push({ dir: d, vars: vars(w, f), label: `${w} ${f}` });
    }
  }
  const res = findFigure('oscar-fig17-18')!.analyze(points);
  const claim = (id: string): number => {
    const c = res.claims.find((x) => x.id === id);
    assert.ok(c !== undefined, `${id} missing (have ${res.claims.map((x) => x.id).join(' ')})`);
    return c.value;
  };
  assert.equal(claim('fig17-18.cachefollower.oscar+pfc-vs-bfc-32.small.mean'), 50, '(4 - 2) / 4');
  assert.equal(claim('fig17-18.cachefollower.oscar+pfc-vs-bfc-32.large.mean'), -100, '(4 - 8) / 4');
  assert.equal(claim('fig17-18.websearch.oscar+pfc-vs-bfc-32.all.mean'), -25, 'means 5 and 4: (4 - 5) / 4');
  // Hadoop: the Hadoop flows only (the incast flow's slowdown 100 is left out)
  assert.equal(claim('fig17-18.hadoop.oscar+pfc-vs-bfc-32.hadoop.mean'), ((3.5 - 6) / 3.5) * 100);
  assert.equal(claim('fig17-18.hadoop.oscar+bfc-32-vs-oscar+pfc.hadoop.mean'), ((6 - 3) / 6) * 100);
  // every published Fig 17/18 claim is measured by the analysis
  const published = loadPublished(PUBLISHED)!.claims.filter((c) => c.experiment === 'fig17-18');
  assert.ok(published.length >= 10);
  for (const c of published) claim(c.id);
  assert.equal(res.tables.length, 4);
  // drops and BFC counters per point, in workload and fabric order
  const counters = res.tables[3]!.rows;
  assert.equal(counters.length, 12);
  assert.deepEqual(counters.slice(0, 4), [
    ['cachefollower', 'oscar+pfc', null, null, null, null],
    ['cachefollower', 'bfc-32', 0, 9, 5, 32],
    ['cachefollower', 'bfc-128', 0, 9, 0, 40],
    ['cachefollower', 'oscar+bfc-32', null, null, null, null],
  ]);
});

test('fig17-18-flowtable: BFC-32, BFC-128 and OSCAR over BFC-32 with 1 024 and 65 536 flow-table entries; the analysis reports the Hadoop flows and the drops', () => {
  const plan = planSweep(`${EXP}fig17-18-flowtable.yaml`);
  assert.equal(plan.figure, 'oscar-fig17-18-flowtable');
  const seen = ownReplica(plan.points).map((p) => `${p.spec.cc.name}/${p.spec.network!.switch!.bfc!.queues}/${p.spec.network!.switch!.bfc!.flowTableSize}`).sort();
  assert.deepEqual(seen, ['none/128/1024', 'none/128/65536', 'none/32/1024', 'none/32/65536', 'oscar/32/1024', 'oscar/32/65536']);
  for (const p of plan.points) {
    const sw = p.spec.network!.switch!;
    assert.equal(sw.pfcEnabled, false);
    assert.equal(sw.bfc!.pauseBytes, 25_000, "fig17-18.yaml's thresholds");
    assert.deepEqual(p.spec.workload.map((w) => ('load' in w ? w.load : null)), [0.3, 0.15]);
  }
  const dir = tempDir('oscar-bfc-table');
  const points: PointResult[] = [];
  for (const [cc, queues, size, drops] of [['none', 32, 1024, 7], ['none', 32, 65536, 0]] as const) {
    const d = join(dir, `${cc}-${queues}-${size}`);
    mkdirSync(d);
    // two Hadoop flows (slowdowns 2 and 4 with the small table, 1 and 3 with the large) and an incast flow left out
    const base = size === 1024 ? 2 : 1;
    writeFileSync(join(d, 'fct.csv'), ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag', `0,0,1,1000,0,1,1,1,${base},background`, `1,0,1,1000,0,1,1,1,${base + 2},background`, '2,0,1,450000,0,1,1,1,50,incast'].join('\n') + '\n');
    writeFileSync(join(d, 'summary.json'), JSON.stringify({ totals: { drops, timeouts: drops > 0 ? 1 : 0 } }));
    points.push({ dir: d, vars: { cc, 'network.switch.bfc.queues': queues, 'network.switch.bfc.flowTableSize': size }, label: `${cc} ${queues} ${size}` });
  }
  const res = findFigure('oscar-fig17-18-flowtable')!.analyze(points);
  assert.equal(res.claims.length, 0, 'a sensitivity, not a published figure');
  const rows = res.tables[0]!.rows;
  assert.deepEqual(
    rows.map((r) => [r[0], r[1], r[2], r[3], r[5], r[6]]),
    [
      ['bfc-32', 1024, 2, 3, 7, 1],
      ['bfc-32', 65536, 2, 2, 0, 0],
    ],
  );
});
