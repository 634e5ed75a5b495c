/**
 * Issue 28 items 6a-6c: θ-PowerTCP's window, TIMELY's incast peak and DCTCP's parameter column against the
 * PowerTCP authors' ns-3 simulator, on PowerTCP's 10:1 incast (Fig. 4 set-up on the
 * 256-host tree, ptBurst pools; docs/fidelity.md "Incast against the reference",
 * experiments/powertcp/README.md "Incast against the reference simulator").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { fatTreePreset } from '../src/net/topology/index.js';
import { MIB, US } from '../src/engine/units.js';
import { findCc } from '../src/cc/registry.js';
import { ccNeeds } from '../src/cc/types.js';
import type { FlowSpec } from '../src/workload/types.js';
import type { SimOutput } from '../src/sim/types.js';
import { input, net } from './helpers/sim.js';

const T0 = 100 * US; // the lone flow is at line rate long before
const DST = 16;
const TOR = 256; // host 16's ToR; its port 16 faces host 16

function incast(
  cc: string,
  params: Record<string, unknown>,
  stopUs: number,
  trace: number[] = [],
  pools: 'ptBurst' | 'ns339' = 'ptBurst',
  fixedWindow = false,
): SimOutput {
  const flows: FlowSpec[] = [{ src: 0, dst: DST, bytes: 1e12, startPs: 0 }];
  for (let i = 1; i <= 10; i++) flows.push({ src: i, dst: DST, bytes: 1e12, startPs: T0 });
  return simulate(
    input(fatTreePreset('powertcp256'), flows, {
      // ns339: the ns-3.39 burst program's pools before its March 2025 update (ingress pool = buffer - headroom, egress DT off); since then ptBurst's
      net: net('hpcc', {
        switch: { dtMode: 'alpha', bufferBytes: 4 * MIB, ...(pools === 'ptBurst' ? { ptPools: 'ptBurst' } : { ptPools: 'ptWorkload', alphaEgress: 65535 }) },
        // fixedWindow: the window is not scaled by rate / line rate (the reference with VAR_WIN 0)
        transport: { ackClass: 3, ...(fixedWindow ? { rateScaledWindow: false } : {}) },
      }),
      cc,
      params,
      stopAtPs: T0 + stopUs * US,
      metrics: {
        queuePorts: [{ node: TOR, port: DST }],
        queueIntervalPs: 1 * US,
        ...(trace.length > 0 ? { ccTrace: trace, ccTraceIntervalPs: 1 * US } : {}),
      },
    }),
  );
}

/** queue samples (1 us) from the incast on */
const afterIncast = (o: SimOutput): number[] => o.queues[0]!.v.slice(T0 / US);

test('6a: θ-PowerTCP inetTub sizes its window as rate x the smallest RTT seen, as the reference does', () => {
  const out = incast('theta-powertcp', { profile: 'inetTub' }, 60, [1, 5, 10]);
  const tr = out.ccTrace!;
  const f = (name: string): number => tr.fields.indexOf(name);
  const [iRtt, iRate, iCwnd, iAcks] = [f('rtt_us'), f('rate_bps'), f('cwnd_bytes'), f('acks')];
  const k = tr.fields.length;
  let checked = 0;
  for (const s of tr.series) {
    let minRttUs = Infinity;
    for (let j = 0; j < s.t.length; j++) {
      const row = s.v.slice(j * k, (j + 1) * k);
      if (row[iAcks]! === 0) continue;
      minRttUs = Math.min(minRttUs, row[iRtt]!);
      const rate = row[iRate]!;
      const cwnd = row[iCwnd]!;
      // τ_min lies between the path's base RTT (> 4 us) and the smallest sampled RTT
      assert.ok(cwnd <= Math.floor((rate * minRttUs * 1e-6) / 8) + 1, `flow ${s.flow}: cwnd ${cwnd} B above rate x min RTT ${minRttUs} us`);
      assert.ok(cwnd >= (rate * 4e-6) / 8, `flow ${s.flow}: cwnd ${cwnd} B below rate x 4 us`);
      checked++;
    }
  }
  assert.ok(checked > 100, `${checked} samples checked`);
});

test('6a: θ-PowerTCP on the 10:1 incast peaks below PowerTCP and within 12 us of the incast (reference: ~214 KB; PowerTCP 317.2 KB)', () => {
  const th = afterIncast(incast('theta-powertcp', { profile: 'inetTub' }, 150));
  const pt = afterIncast(incast('powertcp', { profile: 'inetTub' }, 150));
  const peak = (q: number[]): number => q.reduce((a, b) => (a > b ? a : b), 0);
  const thPeak = peak(th);
  const ptPeak = peak(pt);
  // the reference's θ peak is ccsim's old 491.6 KB / 2.3 (issue 28) ≈ 214 KB. PowerTCP's peak is
  // ccsim's own value (no reference run of it): 273.6 KB with the reference's 2025 rules (λ floor,
  // first update from a zeroed record), 317.2 KB since inetTub follows the code before them
  // (docs/powertcp.md, "Which version of the reference": the first ACK only remembers the stack)
  assert.ok(Math.abs(thPeak - 214_000) < 0.15 * 214_000, `θ peak ${thPeak} B, reference ≈ 214 KB`);
  assert.ok(Math.abs(ptPeak - 317_200) < 0.02 * 317_200, `PowerTCP peak ${ptPeak} B, ccsim's 317.2 KB`);
  assert.ok(thPeak < ptPeak, `θ ${thPeak} B below PowerTCP ${ptPeak} B`);
  assert.ok(th.indexOf(thPeak) <= 12, `θ peaks ${th.indexOf(thPeak)} us after the incast (before the fix: 23 us)`);
});

test("6b: TIMELY's incast peak is set by PFC (the pool layout), not by its law: same with either rate floor, 3x lower with the ns-3.39 burst program's pre-2025 pools", () => {
  const peak = (o: SimOutput): number => afterIncast(o).reduce((a, b) => (a > b ? a : b), 0);
  const ccsim = peak(incast('timely', { preset: 'powertcp' }, 120));
  const floor100 = peak(incast('timely', { preset: 'powertcp', minRateBps: 100e6 }, 120));
  const ns339 = peak(incast('timely', { preset: 'powertcp' }, 120, [], 'ns339'));
  // the first decrease comes ~60 us after the incast, when ten line-rate senders have queued ~1.9 MB
  assert.ok(ccsim > 2_000_000, `ptBurst peak ${ccsim} B`);
  assert.ok(Math.abs(floor100 - ccsim) < 0.01 * ccsim, `floor 100 Mb/s: ${floor100} B vs ${ccsim} B`);
  assert.ok(ns339 < 0.4 * ccsim, `ns-3.39 pools: ${ns339} B vs ptBurst ${ccsim} B`);
});

test("issue 42 item 8: the reference's TIMELY incast (peak 1,042 KB, then 141 KB) is TIMELY with the program's default windowCheck 1; the authors' script (windowCheck 0) gives ccsim's PFC-bound 2,375 KB and 64 KB", () => {
  // The update law is the reference's rule by rule (test/timely-reference.test.ts). What differs is the
  // set-up: the burst program's windowCheck defaults to 1 (has_win = var_win = 1: every queue pair
  // gets the max-RTT BDP, scaled by rate / line rate), while its script passes windowCheck 0 for
  // TIMELY and DCQCN, which ns-3.39 honours with no window at all. ccsim's fig4 specs follow the
  // script; the reference run that issue 42 compares with used the default.
  const peakAndSteady = (o: SimOutput): [number, number] => {
    const q = afterIncast(o);
    const steady = q.slice(1000); // 1-3 ms after the incast
    return [q.reduce((a, b) => (a > b ? a : b), 0), steady.reduce((a, b) => a + b, 0) / steady.length];
  };
  const [winPeak, winSteady] = peakAndSteady(incast('timely', { preset: 'powertcp', window: 'bdp' }, 3000));
  const [nowinPeak, nowinSteady] = peakAndSteady(incast('timely', { preset: 'powertcp' }, 3000));
  const [fixedPeak, fixedSteady] = peakAndSteady(incast('timely', { preset: 'powertcp', window: 'bdp' }, 3000, [], 'ptBurst', true));
  const near = (x: number, ref: number, tol: number): boolean => Math.abs(x - ref) <= tol * ref;
  // windowCheck 1 (measured 1,042.3 KB at 35 us, 139.9 KB): the reference's numbers within 2 %
  assert.ok(near(winPeak, 1_042_000, 0.02), `window bdp: peak ${winPeak} B, reference 1,042 KB`);
  assert.ok(near(winSteady, 141_000, 0.05), `window bdp: steady ${winSteady} B, reference 141 KB`);
  // windowCheck 0 (the script): PFC stops the line-rate senders (2,376 KB) and the queue oscillates
  // between empty and ~230 KB (mean 64.3 KB): the numbers issue 42 reports for ccsim
  assert.ok(nowinPeak > 2 * winPeak, `no window: peak ${nowinPeak} B`);
  assert.ok(near(nowinSteady, 64_000, 0.1), `no window: steady ${nowinSteady} B`);
  // the window alone sets the peak (eleven max-RTT BDPs of 90.5 KB); the rate scaling (VAR_WIN) sets the steady queue
  assert.equal(fixedPeak, winPeak);
  assert.ok(fixedSteady < 0.6 * winSteady, `fixed window: steady ${fixedSteady} B vs rate-scaled ${winSteady} B`);
});

test("6c: DCTCP preset powertcp takes the reference configs' column and the profile's RED marking", () => {
  const def = findCc('dctcp')!;
  const p = def.params.parse({ preset: 'powertcp' });
  assert.deepEqual(def.resolvedParams!(p, net('hpcc'), 25e9), { preset: 'powertcp', g: 1 / 256, rateAiBps: 1e9, minRateBps: 100e6, marking: 'profile', window: 'rate' });
  assert.equal(ccNeeds(def, p).ecnMarking, undefined, 'no step thresholds: the switches keep RED 100/400 KB at p 0.2 per 25 G');
  // the default column is unchanged: HPCC scripts' g 1/16 and the 30 KB per 10 G step
  const d = def.params.parse({});
  assert.deepEqual(ccNeeds(def, d).ecnMarking, { kminBytes: 30_000, kmaxBytes: 30_000, pmax: 1, refRateBps: 10e9 });
  assert.equal((def.resolvedParams!(d, net('hpcc'), 25e9) as { g: number }).g, 1 / 16);
});

test('6c: on the incast, DCTCP with the reference column holds its queue inside the RED band (> kmin 100 KB), the step column near 75 KB', () => {
  const mean = (q: number[]): number => q.reduce((a, b) => a + b, 0) / q.length;
  const red = mean(afterIncast(incast('dctcp', { preset: 'powertcp' }, 2000)).slice(1000));
  const step = mean(afterIncast(incast('dctcp', { preset: 'powertcp', marking: 'step' }, 2000)).slice(1000));
  assert.ok(red > 100_000 && red < 400_000, `RED column: mean queue ${red} B`);
  assert.ok(step < 100_000, `step column: mean queue ${step} B`);
  assert.ok(red > 1.5 * step, `RED ${red} B vs step ${step} B`);
});
