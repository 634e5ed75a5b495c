/**
 * How much the paths alone move a W10 replay (docs/fidelity.md, "Paths" and "TIMELY"). The
 * recorded replay puts every flow on the reference run's own path (`ns3Hash`; there HPCC
 * agrees with the reference flow by flow and TIMELY on mean, p99 and < 10 KB, as
 * test/anchors-w10.test.ts checks). On ccsim's own ECMP paths (`--ecmp-seeds`):
 * - two draws of the switches' salts move TIMELY's p99 by more than 10 %: it keeps long
 *   queues, so which long flows share a link decides much of its tail;
 * - HPCC's per-flow agreement with the reference collapses (most flows sit on other paths
 *   than in the reference run), though its mean stays within 2 % of the reference's.
 * Three replays, about 20 s of CPU.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replayAnchor } from '../src/report/anchors.js';
import type { Comparison } from '../src/report/compare.js';

/** Share of the matched flows whose slowdown is within 2 % of the reference's. */
function within2pct(c: Comparison): number {
  return c.pairs.filter((p) => Math.abs(p.ours / p.theirs - 1) <= 0.02).length / c.pairs.length;
}

test('W10 on ccsim\u2019s own ECMP paths: two draws move TIMELY\u2019s p99 by more than 10 %; HPCC\u2019s flows leave the reference\u2019s slowdowns while its mean stays', () => {
  const t0 = replayAnchor('timely', undefined, { ecmpSeed: 0 }).comparison.bins[0]!;
  const t1 = replayAnchor('timely', undefined, { ecmpSeed: 1 }).comparison.bins[0]!;
  const move = Math.abs(t1.ours.p99 - t0.ours.p99) / Math.min(t0.ours.p99, t1.ours.p99);
  assert.ok(move > 0.1, `TIMELY p99 on seeds 0 and 1: ${t0.ours.p99.toFixed(3)}, ${t1.ours.p99.toFixed(3)} (ns-3 ${t0.theirs.p99.toFixed(3)})`);
  const h = replayAnchor('hpcc', undefined, { ecmpSeed: 0 }).comparison;
  assert.ok(within2pct(h) < 0.7, `HPCC flows within 2 % of the reference on ccsim's paths: ${(100 * within2pct(h)).toFixed(1)} %`);
  assert.ok(Math.abs(h.bins[0]!.diffPct.mean) < 2, `HPCC mean ${h.bins[0]!.diffPct.mean.toFixed(2)} % from the reference`);
});
