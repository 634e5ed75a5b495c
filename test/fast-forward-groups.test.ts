/**
 * Fast-forward per group (issue 46; sim/fast-forward-groups.ts, docs/performance.md
 * "Fast-forward"): flows that never share a link are separate groups, each detected steady and
 * skipped on its own clock offset, so arrivals in one group do not stop the other's skips.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { checkFastForward } from '../src/sim/fast-forward-check.js';
import { DEFAULT_FAST_FORWARD, type SimInput } from '../src/sim/types.js';
import { star } from '../src/net/topology/index.js';
import { US } from '../src/engine/units.js';
import { input, net } from './helpers/sim.js';

/**
 * A 4-host 100 G star, HPCC. Group 0: a 40 MB flow from host 0 to host 1 (steady for about
 * 3.3 ms). Group 1: host 2 sends 500 KB flows to host 3, a new one every 100 us from 50 us on
 * (each lasts about 45 us: the group is never steady for a window and a skip).
 */
function twoGroups(): SimInput {
  const topo = star({ hosts: 4, rateBps: 100e9, delayPs: 1 * US });
  const flows = [{ src: 0, dst: 1, bytes: 40_000_000, startPs: 0 }];
  for (let i = 0; i < 30; i++) flows.push({ src: 2, dst: 3, bytes: 500_000, startPs: 50 * US + i * 100 * US });
  return input(topo, flows, { net: net('hpcc'), cc: 'hpcc' });
}

test('flows that share a host\'s link are one group: no per-group spans, and the arrivals cut the long flow\'s skips', () => {
  // the perturbing flows go to host 1, the long flow's receiver: every flow shares its downlink
  const i = twoGroups();
  const one: SimInput = { ...i, flows: i.flows.map((f, k) => (k === 0 ? f : { ...f, dst: 1 })) };
  const s = simulate({ ...one, fastForward: DEFAULT_FAST_FORWARD });
  assert.ok(s.fastForward!.spans.every((x) => x.group === undefined));
  const sep = simulate({ ...twoGroups(), fastForward: DEFAULT_FAST_FORWARD });
  // skipped while the arrivals go on (before the last one, at 2.95 ms)
  const during = (o: typeof s): number => o.fastForward!.spans.filter((x) => x.atPs < 2_950 * US).reduce((a, x) => a + x.ps, 0);
  assert.ok(during(sep) > 4 * during(s), `apart ${during(sep)} ps skipped, together ${during(s)}`);
});

test('two disjoint groups, one perturbed by arrivals: the other is skipped on its own, FCTs within bounds', () => {
  const c = checkFastForward(() => ({ ...twoGroups(), fastForward: DEFAULT_FAST_FORWARD }));
  const ff = c.fast.fastForward!;
  assert.equal(c.flows, 31);
  assert.equal(c.finishedInOneOnly, 0);
  // group 0 (the long flow) is skipped although group 1 sees an arrival or a finish every 50 us
  const g0 = ff.spans.filter((s) => s.group === 0);
  const skipped0 = g0.reduce((a, s) => a + s.ps, 0);
  assert.ok(g0.length >= 2, `group 0 skips ${g0.length}`);
  const long = c.exact.fct.find((r) => r.id === 0)!.fctPs;
  assert.ok(skipped0 >= 0.5 * long, `group 0 skipped ${skipped0} ps of ${long}`);
  assert.ok(c.eventRatio >= 2, `events ${c.exact.events} exact vs ${c.fast.events}`);
  // the long flow's FCT is made by the skips: within 0.5 %
  const err = (id: number): number => {
    const a = c.exact.fct.find((r) => r.id === id)!.fctPs;
    const b = c.fast.fct.find((r) => r.id === id)!.fctPs;
    return Math.abs(b - a) / a;
  };
  assert.ok(err(0) <= 0.005, `long flow FCT error ${err(0)}`);
  // the perturbed group runs packet by packet on its own clock: its flows within 1 % each
  for (let id = 1; id <= 30; id++) assert.ok(err(id) <= 0.01, `flow ${id} FCT error ${err(id)}`);
  // start times as listed, in reported time; the run ends at the last finish
  const startOf = (o: typeof c.exact, id: number): number => o.fct.find((r) => r.id === id)!.startPs;
  for (let id = 0; id <= 30; id++) assert.equal(startOf(c.fast, id), startOf(c.exact, id));
  assert.ok(Math.abs(c.fast.endPs - c.exact.endPs) / c.exact.endPs < 0.005, `end ${c.fast.endPs} vs ${c.exact.endPs}`);
});
