/**
 * Why ccsim's TIMELY differs from the reference on W10 (docs/fidelity.md, "TIMELY"): first
 * the paths, then the reference's rate floor and pacing rule.
 * - ccsim's own ECMP hash puts the flows on one draw of paths (the recorded replay is ECMP
 *   seed 0). With another draw (seed 1) TIMELY's mean and p99 slowdowns land on the other
 *   side of the reference's, moved by more than the recorded gap, while HPCC's mean, on the
 *   same two draws, barely moves: TIMELY's long queues make its result depend on which long
 *   flows share a link.
 * - On the reference's own paths (`switch.loadBalancing: ns3Hash` with the flows' ports from
 *   flows.csv) HPCC agrees with the reference flow by flow, and TIMELY with the reference's
 *   100 Mb/s floor and rate assignment without rescheduling agrees on mean, p99 and the
 *   < 10 KB bin.
 * Four replays (about 30 s of CPU), compared with the recorded seed-0 agreement
 * (agreement.json, kept current by test/anchors-w10.test.ts) and the reference's flows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readAgreement, replayAnchor } from '../src/report/anchors.js';
import type { Comparison } from '../src/report/compare.js';

const recorded = readAgreement();
const SEED = 1;

/** Share of the matched flows whose slowdown is within 2 % of the reference's. */
function within2pct(c: Comparison): number {
  return c.pairs.filter((p) => Math.abs(p.ours / p.theirs - 1) <= 0.02).length / c.pairs.length;
}

function seed0(ref: string): { ccsim: { mean: number; p99: number }; reference: { mean: number; p99: number } } {
  const r = recorded?.ccs.find((c) => c.ref === ref);
  assert.ok(r !== undefined, `no recorded W10 agreement for ${ref}`);
  return r;
}

test('W10, TIMELY: another ECMP draw moves the mean and p99 across the reference, by more than the recorded gap; HPCC\u2019s mean stays', () => {
  const t0 = seed0('timely');
  const t1 = replayAnchor('timely', undefined, { ecmpSeed: SEED }).comparison.bins[0]!;
  const ref = t0.reference;
  const rel = (a: number, b: number): number => Math.abs(a - b) / b;
  // the recorded draw is above the reference in mean and p99, this one below: the reference lies between two draws
  assert.ok(t0.ccsim.mean > ref.mean && t1.ours.mean < ref.mean, `mean: seed 0 ${t0.ccsim.mean}, seed ${SEED} ${t1.ours.mean.toFixed(4)}, ns-3 ${ref.mean}`);
  assert.ok(t0.ccsim.p99 > ref.p99 && t1.ours.p99 < ref.p99, `p99: seed 0 ${t0.ccsim.p99}, seed ${SEED} ${t1.ours.p99.toFixed(4)}, ns-3 ${ref.p99}`);
  // the draw alone moves TIMELY further than it is from the reference
  assert.ok(Math.abs(t1.ours.mean - t0.ccsim.mean) > Math.abs(t0.ccsim.mean - ref.mean), 'mean: path draw vs recorded gap');
  assert.ok(Math.abs(t1.ours.p99 - t0.ccsim.p99) > Math.abs(t0.ccsim.p99 - ref.p99), 'p99: path draw vs recorded gap');
  // HPCC (short queues) on the same two draws: its mean moves a small fraction of TIMELY's move
  const h0 = seed0('hpcc');
  const hc = replayAnchor('hpcc', undefined, { ecmpSeed: SEED }).comparison;
  const h1 = hc.bins[0]!;
  // flow by flow, a draw of ccsim's paths is far from the reference's (next test: its own paths)
  assert.ok(within2pct(hc) < 0.7, `HPCC flows within 2 % of the reference on ECMP seed ${SEED}: ${(100 * within2pct(hc)).toFixed(1)} %`);
  const tMove = rel(t1.ours.mean, t0.ccsim.mean);
  const hMove = rel(h1.ours.mean, h0.ccsim.mean);
  assert.ok(hMove < 0.02, `HPCC mean moved ${(100 * hMove).toFixed(2)} %`);
  assert.ok(tMove > 5 * hMove, `TIMELY mean moved ${(100 * tMove).toFixed(2)} %, HPCC ${(100 * hMove).toFixed(2)} %`);
});

test('W10 on the reference\u2019s own paths (ns3Hash, flows.csv ports): HPCC agrees flow by flow; TIMELY with the reference\u2019s floor and pacing rule agrees on mean, p99 and < 10 KB', () => {
  const h = replayAnchor('hpcc', undefined, { referencePaths: true }).comparison;
  assert.equal(h.matched, 689);
  assert.ok(within2pct(h) > 0.8, `HPCC flows within 2 % of the reference: ${(100 * within2pct(h)).toFixed(1)} %`);
  const ha = h.bins[0]!;
  assert.ok(Math.abs(ha.diffPct.mean) < 1 && Math.abs(ha.diffPct.p99) < 3, `HPCC mean ${ha.diffPct.mean.toFixed(2)} %, p99 ${ha.diffPct.p99.toFixed(2)} %`);
  // the reference's TIMELY: MIN_RATE 100 Mb/s, and the new rate assigned without moving the scheduled packet
  const t = replayAnchor('timely', undefined, { referencePaths: true, ccParams: { minRateBps: 100e6 }, transport: { pacingUpdate: 'noReschedule' } }).comparison;
  assert.equal(t.matched, 689, 'no flow left unfinished: no go-back-N storm on these paths');
  const [all, small] = [t.bins[0]!, t.bins[1]!];
  assert.ok(small.bin.startsWith('[0'), small.bin);
  for (const [what, d] of [['mean', all.diffPct.mean], ['p99', all.diffPct.p99], ['< 10 KB mean', small.diffPct.mean]] as const) {
    assert.ok(Math.abs(d) < 2, `TIMELY ${what} ${d.toFixed(2)} % from the reference`);
  }
});
