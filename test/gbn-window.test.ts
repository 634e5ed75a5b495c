/**
 * Window-less DCQCN / TIMELY under go-back-N (issue 28 6f; experiments/ccc/README.md,
 * experiments/powertcp/README.md). The `hpcc` profile's NACK rule (one NACK per 500 us per
 * expected sequence, none for duplicates) and its missing retransmission timeout with PFC on
 * are the reference simulators' (test/transport-recovery.test.ts). What ccsim's runs lacked
 * is the window: the PowerTCP authors' simulator at the paper's version (ns-3.35) gives every
 * queue pair, DCQCN and TIMELY included, a window of line rate x base RTT (scaled by rate /
 * line rate under VAR_WIN); ns-3.39 only with `windowCheck 1`. `window: bdp` models it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { findCc } from '../src/cc/registry.js';
import type { CcFlow } from '../src/cc/types.js';
import { star } from '../src/net/topology/index.js';
import { MS, US } from '../src/engine/units.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';

/** 32 line-rate flows into one 25 G port of a lossy (no PFC) 1 MB switch, 3 ms: loss ratio and drops */
function incast(cc: string, window: string): { loss: number; drops: number } {
  const n = 32;
  const topo = star({ hosts: n + 1, rateBps: 25e9, delayPs: 1 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < n; i++) flows.push({ src: i, dst: n, bytes: 1e12, startPs: 0 });
  const out = simulate(input(topo, flows, { net: net('hpcc', { switch: { pfcEnabled: false, bufferBytes: 1_000_000 } }), cc, params: { window }, stopAtPs: 3 * MS }));
  return { loss: out.totals.drops / out.totals.dataPacketsSent, drops: out.totals.drops };
}

test('window-less DCQCN and TIMELY collapse into a go-back-N storm on a lossy 32-to-1 incast (most packets dropped); with the reference one-BDP window they lose nothing', () => {
  for (const cc of ['dcqcn', 'timely']) {
    const none = incast(cc, 'none');
    const bdp = incast(cc, 'bdp');
    assert.ok(none.loss > 0.5, `${cc} without a window: loss ${(100 * none.loss).toFixed(1)} %`);
    assert.equal(bdp.drops, 0, `${cc} with window bdp: ${bdp.drops} drops`);
  }
});

test("TIMELY's window option: 'bdp' starts from the flow's base BDP (scaled by the profile's VAR_WIN), 'none' has no window", () => {
  const def = findCc('timely')!;
  const flow = { baseBdpBytes: 90_500 } as unknown as CcFlow;
  assert.equal(def.initialCwnd(flow, def.params.parse({ window: 'bdp' })), 90_500);
  assert.equal(def.initialCwnd(flow, def.params.parse({})), Infinity);
  assert.equal(def.needs.rateScaledWindow, true);
  const tcd = findCc('timely-tcd')!;
  assert.equal(tcd.initialCwnd(flow, tcd.params.parse({ window: 'bdp' })), 90_500);
});
