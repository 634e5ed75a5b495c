/**
 * Fidelity guard: replays the W10 reference flows (data/anchors/ns3-w10: the PowerTCP
 * authors' ns-3 simulator, seven CCs, 689 flows) with every CC and fails when ccsim's
 * overall mean or p99 slowdown moves more than 2 % from the agreement recorded by
 * `ccsim anchors --write` (agreement.json, docs/fidelity.md), so a change cannot lose (or
 * silently change) the agreement with the reference. A deliberate change re-records it.
 * About 50 s of CPU for the seven replays (6-9 s each).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REFERENCE_CCS, readAgreement, replayAnchor } from '../src/report/anchors.js';

const recorded = readAgreement();

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
  });
}
