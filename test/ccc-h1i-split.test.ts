/**
 * CCC's H1^i / H2^i split below q_L (issue 42, CCC item 1; [AMB-C1], docs/algorithms.md §6).
 * ccsim puts a point with δ > 0 and q < q_L in H1^i when q_v < -h1iQvMargin (default 1e-9: the
 * sign of q_v with a numerical zero; 0, the bare sign, was the default until 2026-11-28), else H2^i. H1^i's w_ai carries max(0, 1 - 2r/R_l) (CCC §4.3.4), so a flow at
 * r >= R_l/2 does not increase there, whatever v_ai is. On an emptied link Eq. 4's EWMA decays a
 * negative q_v by γ = 0.2 per ACK without reaching 0, so a lone flow at R_l/2 stays in H1^i on a
 * gradient of -1e-20 although the paper has the idle link's gradient "equal 0" (DAC 1, §3.1) and
 * v_ai occupying the bandwidth there (§4.3.4). This pins that mechanism and the alternative
 * reading (a numerical-zero margin), run as experiments/ccc/h1i-split-fig{6,13}.yaml.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { US } from '../src/engine/units.js';
import { ack, cccOnFakeFlow, RTT_MIN } from './helpers/ccc-fake.js';
import { CCC_REGION, cccCc } from '../src/cc/ccc.js';


/** A flow at R_l/2 sees the last 0.5 us of queue drain, then `n` ACKs on the empty link (RTT = RTT_min, 0.32 us apart). */
function emptiedLink(params: Record<string, unknown>, n: number): { rate: number; region: number; qv: number } {
  const { cc, rates } = cccOnFakeFlow({ initRateFraction: 0.5, ...params });
  const itv = 0.32 * US;
  let t = 100 * US;
  cc.onAck(ack(t, RTT_MIN + 0.5 * US)); // q = 0.5 us < q_L = 1 us
  for (let i = 0; i < n; i++) {
    t += itv;
    cc.onAck(ack(t, RTT_MIN)); // the queue is gone: q = 0
  }
  const st = new Float64Array(9);
  cc.traceState!(st);
  return { rate: rates.at(-1)!, region: st[0]!, qv: st[2]! };
}

test('bare sign of q_v (h1iQvMargin 0): a lone flow at R_l/2 on an emptied link stays in H1^i on a q_v residue of -1e-20 and does not increase (max(0, 1 - 2r/R_l) = 0, CCC §4.3.4)', () => {
  const s = emptiedLink({ h1iQvMargin: 0 }, 30);
  assert.ok(s.qv < 0 && s.qv > -1e-15, `q_v ${s.qv}: a geometric residue of Eq. 4, never exactly 0`);
  assert.equal(s.region, CCC_REGION.H1i);
  assert.equal(s.rate, 12.5e9);
});

test('h1iQvMargin 1e-9: the numerically-zero gradient counts as 0, the flow is in H2^i and v_ai / w_ai = 0.1 Irr/R_l raise it past R_l/2 (DAC 1, §3.1; §4.3.4)', () => {
  const s = emptiedLink({ h1iQvMargin: 1e-9 }, 30);
  assert.equal(s.region, CCC_REGION.H2i);
  assert.ok(s.rate > 12.5e9, `rate ${s.rate}`);
  // a real negative gradient (the queue still draining) is H1^i under either reading
  const d = emptiedLink({ h1iQvMargin: 1e-9 }, 1);
  assert.equal(d.region, CCC_REGION.H1i);
  assert.equal(d.rate, 12.5e9);
});

test('the default is the numerical-zero reading (h1iQvMargin 1e-9)', () => {
  assert.equal(cccCc.params.parse({}).h1iQvMargin, 1e-9);
  const s = emptiedLink({}, 30);
  assert.equal(s.region, CCC_REGION.H2i);
  assert.ok(s.rate > 12.5e9, `rate ${s.rate}`);
});
