/**
 * CCC Fig 2 (CCC §3.1): theta-PowerTCP's congestion-information deduction
 * fails under the three delay ambiguity conditions, and the per-tag CC
 * parameters (`cc.byTag`) the scenario needs for its one 0.1 C flow.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simulate } from '../src/sim/simulate.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { runSweep } from '../src/experiment/run/sweep-run.js';
import '../experiments/index.js';
import type { SimOutput } from '../src/sim/types.js';
import { tempDir } from './helpers/tmp.js';

const SPEC_HEAD = `name: bytag
profile: hpcc
topology: { type: star, hosts: 3, rate: 25Gbps, delay: 1us }
workload:
  - type: flows
    flows:
      - { src: 0, dst: 2, size: 1MB, start: 0, tag: slow }
      - { src: 1, dst: 2, size: 1MB, start: 0 }
metrics:
  ccTrace: { flows: all, interval: 1us }
`;

function load(ccBlock: string): ReturnType<typeof loadAndResolve>['input'] {
  const dir = tempDir('bytag');
  const p = join(dir, 'bytag.yaml');
  writeFileSync(p, SPEC_HEAD + ccBlock);
  return loadAndResolve(p).input;
}

function issuesOf(ccBlock: string): string {
  try {
    load(ccBlock);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

test('cc.byTag: a tag no flow has, and an out-of-range override, are spec errors naming the field and value', () => {
  const unknown = issuesOf('cc: { name: theta-powertcp, byTag: { slwo: { initRateFraction: 0.1 } } }\n');
  assert.match(unknown, /cc\.byTag\.slwo/);
  assert.match(unknown, /no workload flow has this tag \(tags: slow\)/);
  const bad = issuesOf('cc: { name: theta-powertcp, byTag: { slow: { initRateFraction: 2 } } }\n');
  assert.match(bad, /cc\.byTag\.slow\.initRateFraction: 2/);
  const unknownParam = issuesOf('cc: { name: theta-powertcp, byTag: { slow: { initRate: 0.1 } } }\n');
  assert.match(unknownParam, /cc\.byTag\.slow/);
  assert.equal(issuesOf('cc: { name: theta-powertcp, byTag: { slow: { initRateFraction: 0.1 } } }\n'), '');
});

test('cc.byTag: only the tagged flow starts at 0.1 C; the other flow keeps the base parameters', () => {
  const rateAt1us = (r: SimOutput, flow: number): number => {
    const tr = r.ccTrace!;
    const s = tr.series.find((x) => x.flow === flow)!;
    return s.v[tr.fields.indexOf('rate_bps')]!;
  };
  const tagged = simulate(load('cc: { name: theta-powertcp, params: { profile: inetTub }, byTag: { slow: { initRateFraction: 0.1 } } }\n'));
  assert.equal(rateAt1us(tagged, 0), 2.5e9);
  assert.equal(rateAt1us(tagged, 1), 25e9);
  const plain = simulate(load('cc: { name: theta-powertcp, params: { profile: inetTub } }\n'));
  assert.equal(rateAt1us(plain, 0), 25e9);
  // the slow start costs the tagged flow time: it finishes later than without the override
  assert.ok(tagged.fct[0]!.finishPs > plain.fct[0]!.finishPs);
});

test('CCC Fig 2: theta-PowerTCP deduces BDP / C on an under-used link, lags a large queue, and reads negative arrival rates under turbulence', async () => {
  const dir = tempDir('cccfig2');
  const r = await runSweep(join(process.cwd(), 'experiments/ccc/fig2.yaml'), { out: join(dir, 'f2'), jobs: 1, quiet: true, quick: true, inline: true });
  assert.equal(r.failed.length, 0);
  const claims = new Map((r.figure?.result?.claims ?? []).map((c) => [c.id, c.value]));
  const v = (id: string): number => {
    const x = claims.get(id);
    assert.ok(x !== undefined, `claim ${id} missing`);
    return x;
  };
  // DAC 1: one flow at 0.1 C; the delay carries no information, so it deduces inflight = BDP, arrival = C
  assert.ok(Math.abs(v('ccc.fig2.dac1.deduced-inflight-bdp') - 1) < 0.05);
  assert.ok(Math.abs(v('ccc.fig2.dac1.deduced-arrival-c') - 1) < 0.05);
  assert.ok(v('ccc.fig2.dac1.actual-arrival-c') < 0.2);
  // DAC 2: the deduced inflight peaks long after the actual one, even with the one-RTT shift
  assert.ok(v('ccc.fig2.dac2.inflight-peak-lag-us') > 200);
  assert.ok(v('ccc.fig2.dac2.deduced-inflight-bdp') < v('ccc.fig2.dac2.actual-inflight-bdp'));
  // DAC 3: erratic, some deductions negative
  assert.ok(v('ccc.fig2.dac3.negative-share') > 0.01);
  assert.ok(v('ccc.fig2.dac3.arrival-mae-c') > 0.5);
});
