/**
 * Fast-forward for the CCs that declare it besides HPCC (issue 46; docs/performance.md,
 * "Fast-forward"): PowerTCP, θ-PowerTCP, DCQCN (both reaction points) and DCTCP on the small
 * steady scenario, a 40 MB flow through a 100 G star's receiver port joined at 2 ms by a 2 MB
 * flow. The late flow's FCT depends on the sub-RTT phase of its arrival in the exact model
 * itself (by up to 14 % for θ-PowerTCP), and fast-forward lands it at another phase, so the
 * scenario is run at four phases of the late start across one round trip and the FCTs are
 * compared as means over them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { DEFAULT_FAST_FORWARD, type SimInput } from '../src/sim/types.js';
import { star } from '../src/net/topology/index.js';
import { MS, US } from '../src/engine/units.js';
import type { ProfileName } from '../src/net/config.js';
import { input, net } from './helpers/sim.js';

function steady(cc: string, profile: ProfileName, shiftPs: number): SimInput {
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
  const flows = [
    { src: 0, dst: 2, bytes: 40_000_000, startPs: 0 },
    { src: 1, dst: 2, bytes: 2_000_000, startPs: 2 * MS + shiftPs },
  ];
  return input(topo, flows, { net: net(profile), cc });
}

/** Mean FCTs (long flow, late flow, all flows) over the late start's phases, exact and fast-forwarded, and the events of each. */
function ensemble(cc: string, profile: ProfileName): { exact: number[]; fast: number[]; eventsExact: number; eventsFast: number; skips: number } {
  const exact = [0, 0, 0];
  const fast = [0, 0, 0];
  let eventsExact = 0;
  let eventsFast = 0;
  let skips = 0;
  const phases = [0, 1_075_000, 2_150_000, 3_225_000]; // a quarter of the 4.3 us round trip apart
  for (const d of phases) {
    const a = simulate(steady(cc, profile, d));
    const b = simulate({ ...steady(cc, profile, d), fastForward: DEFAULT_FAST_FORWARD });
    assert.equal(a.fct.length, 2);
    assert.equal(b.fct.length, 2);
    for (const i of [0, 1]) {
      exact[i]! += a.fct[i]!.fctPs / phases.length;
      fast[i]! += b.fct[i]!.fctPs / phases.length;
      exact[2]! += a.fct[i]!.fctPs / (2 * phases.length);
      fast[2]! += b.fct[i]!.fctPs / (2 * phases.length);
    }
    eventsExact += a.events;
    eventsFast += b.events;
    skips += b.fastForward!.skips;
  }
  return { exact, fast, eventsExact, eventsFast, skips };
}

for (const [cc, profile, minRatio] of [
  ['powertcp', 'hpcc', 3],
  ['theta-powertcp', 'hpcc', 2],
  ['dcqcn', 'oscar', 1.5],
  ['dcqcn', 'hpcc', 1.1],
  ['dctcp', 'hpcc', 4],
] as const) {
  test(`${cc} (profile ${profile}) on the steady scenario: mean FCT within 1 %, the long flow within 1 %, the late one within 3 %, events cut ${minRatio}x`, () => {
    const e = ensemble(cc, profile);
    const err = (i: number): number => Math.abs(e.fast[i]! - e.exact[i]!) / e.exact[i]!;
    assert.ok(e.skips >= 4, `skips ${e.skips}`);
    assert.ok(err(2) <= 0.01, `mean FCT error ${err(2)}`);
    assert.ok(err(0) <= 0.01, `long flow mean FCT error ${err(0)}`);
    assert.ok(err(1) <= 0.03, `late flow mean FCT error ${err(1)}`);
    assert.ok(e.eventsExact >= minRatio * e.eventsFast, `events ${e.eventsExact} exact vs ${e.eventsFast}`);
  });
}
