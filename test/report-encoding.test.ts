/**
 * Report series encoding (src/report/encoding.ts) and per-tag rows
 * (src/report/tags.ts): colour by CC, dash and marker by the other swept
 * value, so 16 series (4 CCs x 4 loads) stay apart; tags get rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunData } from '../src/experiment/results/results.js';
import { barStyleOf, seriesStyles, shade } from '../src/report/encoding.js';
import { tagTable } from '../src/report/tags.js';

function run(cc: string, load: number, tags: Record<string, number> = {}): RunData {
  const stats = (count: number, mean: number) => ({ count, meanSlowdown: mean, p50Slowdown: mean, p95Slowdown: mean, p99Slowdown: mean, p999Slowdown: mean });
  return {
    cc,
    vars: { cc, 'workload[0].load': load },
    summary: { fct: { overall: stats(200, 2), tags: Object.fromEntries(Object.entries(tags).map(([t, m]) => [t, stats(50, m)])), binSets: [] } },
  } as unknown as RunData;
}

test('16 series: 4 colours (one per CC, the same at every load) x 4 dashes and markers (one per load)', () => {
  const runs = ['hpcc', 'dcqcn', 'oscar', 'timely'].flatMap((cc) => [0.3, 0.5, 0.7, 0.9].map((l) => run(cc, l)));
  const st = seriesStyles(runs, ['cc', 'workload[0].load']);
  assert.equal(new Set(st.map((s) => `${s.color}|${JSON.stringify(s.dash)}|${s.symbol}`)).size, 16);
  assert.equal(new Set(st.map((s) => s.color)).size, 4);
  for (let c = 0; c < 4; c++) assert.equal(new Set(st.slice(4 * c, 4 * c + 4).map((s) => s.color)).size, 1, 'a CC keeps its colour');
  assert.deepEqual(st.slice(0, 4).map((s) => s.dash), st.slice(4, 8).map((s) => s.dash), 'a load keeps its dash');
  // the chart whose x axis is the load: its lines are coloured by CC, all solid
  const byLoad = seriesStyles(runs, ['cc', 'workload[0].load'], 'workload[0].load');
  assert.equal(new Set(byLoad.map((s) => JSON.stringify(s.dash))).size, 1);
  // bars: a lighter shade of the CC's colour per load, outlined in it
  assert.equal(shade('#000000', 0.5), '#808080');
  const bars = st.slice(0, 4).map((s) => barStyleOf(s)['itemStyle'] as { color: string; borderColor: string });
  assert.equal(new Set(bars.map((b) => b.color)).size, 4);
  assert.equal(new Set(bars.map((b) => b.borderColor)).size, 1);
  // one CC swept over 13 values: colours by the value, past the palette the dashes keep them apart
  const many = Array.from({ length: 13 }, (_, i) => run('hpcc', i / 10));
  const ms = seriesStyles(many, ['workload[0].load']);
  assert.equal(new Set(ms.map((s) => `${s.color}|${JSON.stringify(s.dash)}`)).size, 13);
});

test('per-tag rows: each run with tags gets its overall row and one per tag; none without tags', () => {
  assert.equal(tagTable([run('hpcc', 0.5)], ['a']), undefined);
  const t = tagTable([run('hpcc', 0.5, { incast: 7, background: 2.9 }), run('dcqcn', 0.5)], ['a', 'b'])!;
  assert.deepEqual(
    t.rows.map((r) => [r[0], r[1], r[3]]),
    [
      ['a', 'all flows', 2],
      ['a', 'incast', 7],
      ['a', 'background', 2.9],
    ],
  );
  // p99 of 50 flows is shown, marked as too few
  assert.match(String(t.rows[1]![6]), /^[\d.]+ \(n<100\)$/);
});
