/**
 * CCC's analytical step (Eq. 8) in the paper's units (issue 42 item 5; derivation in
 * docs/algorithms.md §6, "Units of Eq. 8"). Eq. 8 is u = Φ·M/RTT_min with Φ =
 * 0.5·log2(q_B/(q + Itv·q_v)) − q_v dimensionless, so u is one packet per RTT_min times Φ,
 * and App. A's ACK count (Itv·C/M ACKs per Itv, Eq. 13) needs M in the unit of the rate's
 * numerator: 8·1000 bit for a 1000-byte packet when rates are in bit/s, as ccsim's are.
 * A hand-computed example pins the step; the 1/8 reading (M = 1000 against bit/s) is the
 * `eq8Gain: 0.125` sensitivity (experiments/ccc/eq8-m-bits-*.yaml), not the model.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { US } from '../src/engine/units.js';
import { ack, cccOnFakeFlow, RTT_MIN } from './helpers/ccc-fake.js';


/** The rate change of the second ACK (the first only initialises), both with RTT = RTT_min + q. */
function stepOf(params: Record<string, unknown>, qPs: number, itvPs: number): number {
  const { cc, rates } = cccOnFakeFlow({ initRateFraction: 0.5, ...params });
  const r0 = rates.at(-1)!;
  assert.equal(r0, 12.5e9);
  const t0 = 100 * US;
  cc.onAck(ack(t0, RTT_MIN + qPs));
  cc.onAck(ack(t0 + itvPs, RTT_MIN + qPs)); // same RTT: q_v = γ·0 + (1 - γ)·0/Itv = 0 (Eq. 4)
  return rates.at(-1)! - r0;
}

test('Eq. 8 by hand: q = 3 us, q_v = 0, Itv = 0.32 us, q_B = 5 us, M = 1000 B, RTT_min = 20 us -> u = 0.5·log2(5/3)·8000 bit / 20 us = 147.39 Mb/s (A^i)', () => {
  // A^i: δ = 0.5·log2(5/3) > 0, q = 3 us >= q_L = 0.05·20 us = 1 us, q_v = 0 >= -1
  const phi = 0.5 * Math.log2(5 / 3); // 0.368483 (the q + Itv·q_v of Eq. 8 is q: q_v = 0)
  const hand = (phi * 8 * 1000) / 20e-6; // bit/s: Φ packets of 8000 bit per RTT_min
  assert.ok(Math.abs(hand - 147.393e6) < 0.001e6, `hand value ${hand}`);
  const u = stepOf({}, 3 * US, 0.32 * US);
  assert.ok(Math.abs(u - hand) / hand < 1e-9, `step ${u} bit/s, hand ${hand}`);
  // App. A, Eq. 13 in one RTT_min: a flow at r = 12.5 Gb/s gets r·RTT_min/(8M) = 31.25 ACKs, so its
  // steps add up to Φ·r, and all flows' steps to Φ·C: q_v moves by Φ, onto δ = 0, in one RTT_min
  const acksPerRtt = (12.5e9 * 20e-6) / 8000;
  assert.ok(Math.abs((acksPerRtt * u) / (phi * 12.5e9) - 1) < 1e-9);
  // the 1/8 reading (M taken as 1000 bit against a bit/s rate) is the sensitivity eq8Gain 0.125
  const u8 = stepOf({ eq8Gain: 0.125 }, 3 * US, 0.32 * US);
  assert.ok(Math.abs(u8 - hand / 8) / hand < 1e-9, `1/8 step ${u8}`);
});

test('Eq. 8 smoothing factor Itv/RTT_min is capped at 1 ([AMB-C2]): Itv = 40 us gives Φ·8M/Itv, half the step of Itv <= RTT_min', () => {
  const phi = 0.5 * Math.log2(5 / 3);
  const u = stepOf({}, 3 * US, 40 * US);
  const hand = (phi * 8000) / 40e-6;
  assert.ok(Math.abs(u - hand) / hand < 1e-9, `step ${u}, hand ${hand}`);
});

test('Eq. 8 with a queue trend: q = 2 us, q_v = (1 - 0.2)·(0.5 us / 5 us) = 0.08 (Eq. 4) -> predicted queue q + Itv·q_v = 2.4 us, u = (0.5·log2(5/2.4) - 0.08)·8000 bit / 20 us = 179.78 Mb/s', () => {
  const { cc, rates } = cccOnFakeFlow({ initRateFraction: 0.5 });
  const t0 = 100 * US;
  cc.onAck(ack(t0, RTT_MIN + 1.5 * US));
  cc.onAck(ack(t0 + 5 * US, RTT_MIN + 2 * US)); // ΔRTT = 0.5 us over Itv = 5 us: q_v = γ·0 + (1 - γ)·0.1 with γ = 0.2
  const qv = 0.8 * 0.1;
  const qp = 2 + 5 * qv; // us
  const hand = ((0.5 * Math.log2(5 / qp) - qv) * 8000) / 20e-6;
  assert.ok(Math.abs(hand - 179.779e6) < 0.001e6, `hand value ${hand}`);
  const u = rates.at(-1)! - 12.5e9;
  assert.ok(Math.abs(u - hand) / hand < 1e-9, `step ${u}, hand ${hand}`);
});
