/**
 * Fidelity guard: replays the W10 reference flows (data/anchors/ns3-w10: the PowerTCP
 * authors' ns-3 simulator, seven CCs, 689 flows) with every CC and fails when ccsim's
 * overall mean or p99 slowdown moves more than 2 % from the agreement recorded by
 * `ccsim anchors --write` (agreement.json, docs/fidelity.md), so a change cannot lose (or
 * silently change) the agreement with the reference. A deliberate change re-records it.
 * The replay puts every flow on the reference run's own path (`ns3Hash`, replay.yaml), so
 * beyond the recorded means it checks agreement flow by flow where the paper's CCs are
 * modelled after the reference line by line: HPCC's slowdowns match the reference's for
 * more than 80 % of the flows, and TIMELY (`preset: powertcp`, with the reference's floor
 * and pacing rule) is within 3 % on the mean, 5 % on the < 10 KB bin and 10 % on p99 (docs/fidelity.md).
 * About 50 s of CPU for the seven replays (6-9 s each).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REFERENCE_CCS, readAgreement, replayAnchor } from '../src/report/anchors.js';
import type { Comparison } from '../src/report/compare.js';

const recorded = readAgreement();

/** Share of the matched flows whose slowdown is within 2 % of the reference's. */
function within2pct(c: Comparison): number {
  return c.pairs.filter((p) => Math.abs(p.ours / p.theirs - 1) <= 0.02).length / c.pairs.length;
}

/** Per-CC checks beyond the recorded agreement (the CCs modelled line by line on the reference's paths). */
function flowByFlow(ref: string, c: Comparison): void {
  if (ref === 'hpcc') assert.ok(within2pct(c) > 0.8, `HPCC flows within 2 % of the reference: ${(100 * within2pct(c)).toFixed(1)} %`);
  if (ref === 'timely') {
    assert.equal(c.matched, 689, 'no flow left unfinished: no go-back-N storm on the reference\u2019s paths');
    const [all, small] = [c.bins[0]!, c.bins[1]!];
    assert.ok(small.bin.startsWith('[0'), small.bin);
    // p99 rests on about seven flows, and the order of simultaneous events alone moves TIMELY's by 8 % (docs/fidelity.md);
    // the mean moved from +1.0 % (insertion order) to -1.9 % (h-ord's keyed order) and +2.6 % (held links): 3 % bounds it
    // well below the +6.0 % that the reference's floor and pacing rule removed
    for (const [what, d, tol] of [['mean', all.diffPct.mean, 3], ['< 10 KB mean', small.diffPct.mean, 5], ['p99', all.diffPct.p99, 10]] as const) {
      assert.ok(Math.abs(d) < tol, `TIMELY ${what} ${d.toFixed(2)} % from the reference (tolerance ${tol} %)`);
    }
  }
}

test('W10 agreement is recorded for every reference CC', () => {
  assert.ok(recorded !== undefined, 'data/anchors/ns3-w10/agreement.json is missing: run `npm run ccsim -- anchors --write`');
  assert.deepEqual(
    recorded.ccs.map((c) => c.ref),
    REFERENCE_CCS.map((c) => c.ref),
  );
  for (const c of recorded.ccs) assert.deepEqual(c.cc, REFERENCE_CCS.find((r) => r.ref === c.ref)!.cc, `${c.ref}: the recorded CC is not the one replayed now`);
});

for (const rec of recorded?.ccs ?? []) {
  test(`W10 replay, ${rec.ref}: mean and p99 slowdown within 2 % of the recorded agreement with ns-3`, () => {
    const r = replayAnchor(rec.ref);
    const all = r.comparison.bins[0]!;
    assert.equal(r.comparison.matched, rec.matched, 'matched flows');
    assert.equal(r.comparison.unmatchedTheirs, rec.unmatchedTheirs, 'reference flows without a partner');
    // the reference side is data: it cannot move unless the matching does
    assert.ok(Math.abs(all.theirs.mean - rec.reference.mean) < 1e-3, `reference mean ${all.theirs.mean} vs ${rec.reference.mean}`);
    const moved = (now: number, then: number): number => Math.abs(now - then) / then;
    assert.ok(moved(all.ours.mean, rec.ccsim.mean) <= 0.02, `mean slowdown ${all.ours.mean.toFixed(4)}, recorded ${rec.ccsim.mean} (ns-3 ${rec.reference.mean})`);
    assert.ok(moved(all.ours.p99, rec.ccsim.p99) <= 0.02, `p99 slowdown ${all.ours.p99.toFixed(4)}, recorded ${rec.ccsim.p99} (ns-3 ${rec.reference.p99})`);
    flowByFlow(rec.ref, r.comparison);
  });
}
