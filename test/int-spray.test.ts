/**
 * Issue 42 item 4: INT congestion control under per-packet spraying, isolated
 * (experiments/oscar/int-spray.yaml). Four long flows cross the spraying-4-4 spine-leaf (4 x
 * 100 G between the leaves for 4 x 100 G of demand). With spraying, successive ACKs of a flow
 * carry hop 0 from different uplinks of the first leaf and hop 1 from different spines, so
 * HPCC's per-hop txRate (tx-byte delta over time delta against the previous ACK's record of
 * the same hop index) mixes counters of different ports: OSCAR App. A.3 ("the calculation of
 * txRate becomes entirely meaningless"). The HPCC simulator's INT fields are unsigned and
 * wrap (24-bit ns time, 20-bit count of 128 B), so a delta between two ports is never negative;
 * ccsim's exact counters give a negative delta half the time, which the max over hops ignores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { spineLeafPreset } from '../src/net/topology/index.js';
import { US } from '../src/engine/units.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';

/** mean goodput per flow (bps) from 200 us to the end of a 600-us run */
function goodput(params: Record<string, unknown>, lb: 'ecmp' | 'spray', cc = 'hpcc'): number {
  const flows: FlowSpec[] = [0, 1, 2, 3].map((i) => ({ src: i, dst: 4 + i, bytes: 1e12, startPs: 0 }));
  const out = simulate(
    input(spineLeafPreset('spraying44'), flows, {
      net: net('oscar', { switch: { loadBalancing: lb }, transport: { retxMode: 'none' } }),
      cc,
      params,
      stopAtPs: 600 * US,
      metrics: { flowThroughput: [], flowThroughputIntervalPs: 10 * US },
    }),
  );
  let sum = 0;
  let n = 0;
  for (const s of out.flowThroughput) {
    for (let j = 0; j < s.t.length; j++) {
      if (s.t[j]! <= 200 * US) continue;
      sum += s.v[j]!;
      n++;
    }
  }
  return sum / n;
}

test('HPCC under spraying: the per-hop deltas mix ports and the flows collapse where ECMP keeps them near their share', () => {
  const ecmp = goodput({}, 'ecmp');
  const spray = goodput({}, 'spray');
  // ECMP puts two flows on each of two spines (~43 G each); spraying spreads them over four
  // (an INT CC reading correct counters would run near 95 G), yet HPCC falls to ~8 G
  assert.ok(ecmp > 35e9, `ECMP ${ecmp / 1e9} G per flow`);
  assert.ok(spray < 0.3 * ecmp, `spray ${spray / 1e9} G per flow vs ECMP ${ecmp / 1e9} G`);
  // DCQCN reads no INT: spraying removes ECMP's collisions and it runs near line rate
  assert.ok(goodput({}, 'spray', 'dcqcn') > 85e9);
});

test("the HPCC simulator's wrapped INT fields (intDeltas: wrapped) make the collapse deeper, not milder; ECMP is unchanged", () => {
  const exact = goodput({}, 'spray');
  const wrapped = goodput({ intDeltas: 'wrapped' }, 'spray');
  assert.ok(wrapped < 0.2 * exact, `wrapped ${wrapped / 1e9} G vs exact ${exact / 1e9} G per flow`);
  const e1 = goodput({}, 'ecmp');
  const e2 = goodput({ intDeltas: 'wrapped' }, 'ecmp');
  assert.ok(Math.abs(e1 - e2) < 0.02 * e1, `ECMP exact ${e1} vs wrapped ${e2}`);
});
