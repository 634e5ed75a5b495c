import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, summarize } from '../bench/compare.js';

test('bench compare: median of odd and even counts, and an error for none', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.throws(() => median([]), /median of nothing/);
});

test('bench compare: a build is judged by its per-round ratio to the first, which cancels a drift both saw', () => {
  // the machine slows by half in round 3; B is 10 % faster than A in every round
  const a = [1.0, 1.0, 1.5, 1.0].map((w) => ({ wallS: w, cpuS: w, events: 100 }));
  const b = [0.9, 0.9, 1.35, 0.9].map((w) => ({ wallS: w, cpuS: w, events: 100 }));
  const [sa, sb] = summarize(['A', 'B'], [a, b]);
  assert.equal(sa!.medianRatio, 1);
  assert.ok(Math.abs(sb!.medianRatio - 0.9) < 1e-12);
  assert.equal(sb!.medianWallS, 0.9);
  assert.equal(sb!.minWallS, 0.9);
  assert.equal(sb!.sameEvents, true);
});

test('bench compare: a build that ran other events than the first is flagged', () => {
  const a = [{ wallS: 1, cpuS: 1, events: 100 }, { wallS: 1, cpuS: 1, events: 100 }];
  const b = [{ wallS: 1, cpuS: 1, events: 100 }, { wallS: 1, cpuS: 1, events: 99 }];
  assert.equal(summarize(['A', 'B'], [a, b])[1]!.sameEvents, false);
  assert.throws(() => summarize(['A', 'B'], [a, b.slice(1)]), /build B: 1 runs, the first build has 2/);
});
