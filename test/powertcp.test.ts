/**
 * PowerTCP and θ-PowerTCP (Addanki et al. NSDI'22; docs/algorithms.md §3-4) on reduced
 * set-ups, each check under the profile docs/algorithms.md §3 / §4 names:
 * equilibrium (App. A Thm 1/3), convergence after a perturbation (Thm 2), the
 * 10:1 incast of Fig. 4 against HPCC, θ-PowerTCP's additive recovery, and
 * fairness with staggered arrivals and departures (Fig. 5).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { fatTreePreset, star } from '../src/net/topology/index.js';
import { MIB, US } from '../src/engine/units.js';
import { jainIndex, mean } from '../src/metrics/stats.js';
import type { ProfileName } from '../src/net/config.js';
import type { SimOutput } from '../src/sim/types.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';
import { ptIncast } from './helpers/incast.js';
import { SpecError } from '../src/engine/errors.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { writeFileSync } from 'node:fs';
import { tempDir } from './helpers/tmp.js';
import { join } from 'node:path';

const C = 100e9;

/** Star of `hosts` at rate C / 3 us (12 us base RTT); the receiver is the last host; queue and throughput at its switch port. */
function onStar(hosts: number, flows: FlowSpec[], o: { profile: ProfileName; cc: string; params: Record<string, unknown>; stopPs: number; rateBps?: number; tpPs?: number; flowTpPs?: number }): SimOutput {
  const rate = o.rateBps ?? C;
  const topo = star({ hosts, rateBps: rate, delayPs: 3 * US });
  const dst = hosts - 1;
  return simulate(
    input(topo, flows, {
      net: net(o.profile, { switch: { bufferBytes: 100 * MIB } }),
      cc: o.cc,
      params: o.params,
      stopAtPs: o.stopPs,
      metrics: {
        queuePorts: [{ node: hosts, port: dst }],
        queueIntervalPs: 1 * US,
        throughputPorts: [{ node: hosts, port: dst }],
        throughputIntervalPs: o.tpPs ?? 100 * US,
        flowThroughput: [],
        flowThroughputIntervalPs: o.flowTpPs ?? 500 * US,
      },
    }),
  );
}

function longFlows(n: number, dst: number, startPs = 0): FlowSpec[] {
  const out: FlowSpec[] = [];
  for (let i = 0; i < n; i++) out.push({ src: i, dst, bytes: 1e12, startPs });
  return out;
}

const tail = (v: number[]): number[] => v.slice(Math.floor(v.length / 2));
const max = (v: number[]): number => v.reduce((a, b) => (a > b ? a : b), -Infinity);
const min = (v: number[]): number => v.reduce((a, b) => (a < b ? a : b), Infinity);

/** β = 0.006·HostBw·τ/8 of the paper profile on the 100 G star: τ = D-HPCC pairRtt = 12 us + 2·80 ns. */
const TAU_STAR = 12.16e-6;
const BDP_STAR = (C * TAU_STAR) / 8;
const BETA_STAR = 0.006 * BDP_STAR;

// ------------------------------------------------------------------------------- bad input

const specDir = tempDir('powertcp-test');
let specCount = 0;

function specError(params: string, cc = 'powertcp'): string {
  const file = join(specDir, `spec${specCount++}.yaml`);
  writeFileSync(file, `name: x\ntopology: { type: star, hosts: 3, rate: 100Gbps, delay: 1us }\ncc: { name: ${cc}, params: ${params} }\nflows: [{ src: 0, dst: 2, size: 10KB }]\n`);
  try {
    loadAndResolve(file);
  } catch (e) {
    assert.ok(e instanceof SpecError, `expected a SpecError, got ${String(e)}`);
    return e.message;
  }
  assert.fail(`expected a SpecError for ${cc} ${params}`);
}

test('PowerTCP / θ-PowerTCP parameters: unknown keys and out-of-range values are spec errors naming field and value', () => {
  assert.match(specError('{ gamma: 0 }'), /cc\.params\.gamma: 0 — /);
  assert.match(specError('{ gamma: 1.5 }'), /cc\.params\.gamma: 1\.5 — /);
  assert.match(specError('{ betaRatio: -0.1 }'), /cc\.params\.betaRatio: -0\.1 — /);
  assert.match(specError('{ profile: ns3 }'), /cc\.params\.profile: "ns3" — must be one of paper, oscarArtifact, inetTub/);
  assert.match(specError('{ bogus: 1 }'), /cc\.params\.bogus: 1 — unknown key/);
  assert.match(specError('{ betaRatio: 0.006, betaRateBps: 1e8 }'), /cc\.params\.betaRateBps: .*betaRatio or betaRateBps/);
  assert.match(specError('{ gamma: -1 }', 'theta-powertcp'), /cc\.params\.gamma: -1 — /);
  assert.match(specError('{ tauScale: 0 }', 'theta-powertcp'), /cc\.params\.tauScale: 0 — /);
  assert.match(specError('{ gradientFloor: low }', 'theta-powertcp'), /cc\.params\.gradientFloor: "low"/);
});

// ------------------------------------------------------------------------------- equilibrium

test('PowerTCP paper law, one flow: full link, queue below one packet (Σw = bτ + β, App. A Thm 1)', () => {
  const out = onStar(2, longFlows(1, 1), { profile: 'hpcc', cc: 'powertcp', params: {}, stopPs: 2000 * US });
  const q = tail(out.queues[0]!.v);
  // q_e = β = 912 B, under one 1090-B packet
  assert.ok(mean(q) < 1100, `mean queue ${mean(q)} B (β = ${BETA_STAR.toFixed(0)} B)`);
  const link = mean(out.throughput[0]!.v.slice(5)) / C;
  assert.ok(link > 0.99, `utilisation ${link}`);
});

test('PowerTCP paper law, 10 flows: full link, fair, standing queue of the order of Nβ (oscillating: a finding, see comment)', () => {
  // App. A Thm 1 predicts q_e = Nβ = 9.1 KB. ccsim holds the link full and fair
  // but the queue does not settle: it swings between 0 and ~6 Nβ with a mean near
  // 2 Nβ. The cause is the reference window: docs/algorithms.md §3 remembers w_old once
  // per RTT, so within an RTT the law divides a stale window by a power that
  // already reflects newer windows (the reference/signal mismatch OSCAR §3 and
  // Fig. 8 describe for HPCC). With w_old = the window when the acknowledged
  // packet was sent (Eq. 7's w(t − θ) read literally, `windowReference: atSend`,
  // next test) the same law settles at Nβ; with Γ/0.95 the queue term mostly
  // vanishes and it settles too.
  const N = 10;
  const out = onStar(N + 1, longFlows(N, N), { profile: 'hpcc', cc: 'powertcp', params: {}, stopPs: 3000 * US });
  const q = mean(tail(out.queues[0]!.v));
  assert.ok(q > 0.5 * N * BETA_STAR && q < 4 * N * BETA_STAR, `mean queue ${q} B vs Nβ ${N * BETA_STAR} B`);
  const link = mean(out.throughput[0]!.v.slice(5)) / C;
  assert.ok(link > 0.94, `utilisation ${link}`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.98, `Jain ${jainIndex(shares)}`);
});

test('PowerTCP paper law with w_old at send time (Eq. 7 literal), 20 flows: Σw = bτ + Nβ, standing queue Nβ, equal shares (App. A Thm 1, 3)', () => {
  const N = 20;
  const out = onStar(N + 1, longFlows(N, N), { profile: 'hpcc', cc: 'powertcp', params: { windowReference: 'atSend' }, stopPs: 3000 * US });
  const q = tail(out.queues[0]!.v);
  // Nβ = 18.2 KB; the byte window lets each flow overshoot by up to one packet
  assert.ok(Math.abs(mean(q) - N * BETA_STAR) < 0.25 * N * BETA_STAR, `mean queue ${mean(q)} B vs Nβ ${N * BETA_STAR} B`);
  assert.ok(max(q) - min(q) < 0.5 * N * BETA_STAR, `queue range ${min(q)}..${max(q)} B`);
  const link = mean(out.throughput[0]!.v.slice(5)) / C;
  assert.ok(link > 0.995, `utilisation ${link}`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.999, `Jain ${jainIndex(shares)}`);
});

test('PowerTCP with Γ/0.95, 10 flows: utilisation min(1, 0.95 + Nβ/BDP) = 1, queue max(0, Nβ − 0.05 BDP) (PowerTCP App. A with Γ/0.95; docs/algorithms.md §3)', () => {
  const N = 10;
  const out = onStar(N + 1, longFlows(N, N), { profile: 'hpcc', cc: 'powertcp', params: { targetUtil: 0.95 }, stopPs: 3000 * US });
  const expectQ = N * BETA_STAR - 0.05 * BDP_STAR; // 1.5 KB
  const q = mean(tail(out.queues[0]!.v));
  assert.ok(q < expectQ + 2 * 1090, `mean queue ${q} B vs ${expectQ} B`);
  const link = mean(out.throughput[0]!.v.slice(5)) / C;
  assert.ok(link > 0.98, `utilisation ${link}`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.99, `Jain ${jainIndex(shares)}`);
});

for (const [n, expect] of [
  [1, 0.956],
  [4, 0.974],
] as const) {
  test(`PowerTCP oscarArtifact (D-OSCAR, Γ/0.95), ${n} flow(s): utilisation 0.95 + Nβ/BDP = ${expect}, empty queue`, () => {
    const out = onStar(n + 1, longFlows(n, n), { profile: 'oscar', cc: 'powertcp', params: { profile: 'oscarArtifact' }, stopPs: 3000 * US });
    const link = mean(out.throughput[0]!.v.slice(5)) / C;
    assert.ok(Math.abs(link - expect) < 0.006, `utilisation ${link} vs ${expect}`);
    assert.ok(mean(tail(out.queues[0]!.v)) < 1100, `mean queue ${mean(tail(out.queues[0]!.v))} B`);
  });
}

test('PowerTCP inetTub (rate form, 150 Mb/s AI, Γ/0.95), 4 flows at 25 G: utilisation 0.95 + Nβ/BDP = 0.974 (less the window), empty queue', () => {
  const n = 4;
  const out = onStar(n + 1, longFlows(n, n), { profile: 'hpcc', cc: 'powertcp', params: { profile: 'inetTub' }, stopPs: 4000 * US, rateBps: 25e9 });
  // the rate-scaled window R·τ (τ = D-HPCC pairRtt, 12.64 us) binds a little, since the
  // real base RTT with 1090-B packets and 88-B ACKs is 12.754 us: 0.974 · 12.64/12.754
  const expect = 0.974 * (12.64 / 12.754);
  const link = mean(out.throughput[0]!.v.slice(5)) / 25e9;
  assert.ok(Math.abs(link - expect) < 0.004, `utilisation ${link} vs ${expect}`);
  assert.ok(mean(tail(out.queues[0]!.v)) < 1100, `mean queue ${mean(tail(out.queues[0]!.v))} B`);
});

// ------------------------------------------------------------------------------- convergence

test('PowerTCP convergence after a flow joins (Thm 2): one step to the fair share, settled within ~5δt/γ plus the drain', () => {
  // one flow in equilibrium; a second joins at line rate (Σw jumps by one BDP)
  const t0 = 1000 * US;
  const flows: FlowSpec[] = [
    { src: 0, dst: 2, bytes: 1e12, startPs: 0 },
    { src: 1, dst: 2, bytes: 1e12, startPs: t0 },
  ];
  for (const profile of ['inetTub', 'paper'] as const) {
    const out = onStar(3, flows, { profile: 'hpcc', cc: 'powertcp', params: { profile }, stopPs: t0 + 400 * US, tpPs: 10 * US, flowTpPs: 10 * US });
    const q = out.queues[0]!.v;
    const peak = max(q.slice(1000, 1050));
    assert.ok(peak > 0.7 * BDP_STAR, `${profile}: the join puts ~one BDP in the queue (${peak} B)`);
    // by 5·τ/γ ≈ 68 us after the peak, plus the ~12 us it takes the link to drain a BDP
    const settled = q.slice(1100, 1400);
    const [a, b] = [out.flowThroughput[0]!.v.slice(110, 140), out.flowThroughput[1]!.v.slice(110, 140)];
    if (profile === 'inetTub') {
      assert.ok(max(settled) < 0.1 * BDP_STAR, `${profile}: queue after 100 us ${max(settled)} B`);
      assert.ok(Math.abs(mean(a) - mean(b)) < 0.15 * mean(a), `${profile}: shares ${mean(a) / 1e9} / ${mean(b) / 1e9} Gb/s`);
    } else {
      // the paper law (100 % target) rings around q = Nβ: the excursions shrink
      // (see the 10-flow equilibrium test) but do not die out completely
      assert.ok(max(settled) < 0.5 * peak, `${profile}: excursion after 100 us ${max(settled)} B vs peak ${peak} B`);
      assert.ok(mean(settled) < 0.1 * BDP_STAR, `${profile}: mean queue after 100 us ${mean(settled)} B`);
    }
    const link = mean(out.throughput[0]!.v.slice(110, 140)) / C;
    assert.ok(link > 0.9, `${profile}: utilisation after the join ${link}`);
  }
});

// ------------------------------------------------------------------------------- incast (Fig. 4)

test('10:1 incast on powertcp256 (Fig. 4a top): PowerTCP inetTub peaks at ~half of HPCC, drains to near zero, keeps the link full; HPCC loses throughput', () => {
  const topo = fatTreePreset('powertcp256');
  const pt = ptIncast(topo, 'powertcp', { profile: 'inetTub' });
  const hp = ptIncast(topo, 'hpcc', {});
  assert.equal(pt.drops, 0);
  assert.equal(hp.drops, 0);
  assert.ok(pt.peak < 0.6 * hp.peak, `peaks: PowerTCP ${pt.peak} B, HPCC ${hp.peak} B`);
  assert.ok(pt.backUs >= 0 && pt.backUs < 350, `PowerTCP back under 10 KB after ${pt.backUs} us (RTT 28 us)`);
  // 20-us bins for 700 us after the incast: PowerTCP never dips, HPCC does (§4.2)
  const B = 25e9;
  assert.ok(min(pt.tp) > 0.9 * B, `PowerTCP min throughput ${min(pt.tp) / 1e9} Gb/s`);
  assert.ok(min(hp.tp) < 0.5 * B, `HPCC min throughput ${min(hp.tp) / 1e9} Gb/s`);
});

test('10:1 incast, θ-PowerTCP inetTub (Fig. 4b top): fast MD to a near-empty queue, no loss of throughput', () => {
  const th = ptIncast(fatTreePreset('powertcp256'), 'theta-powertcp', { profile: 'inetTub' });
  assert.equal(th.drops, 0);
  assert.ok(th.peak < 11 * 87_500, `peak ${th.peak} B below the 11 one-BDP windows`);
  assert.ok(th.backUs >= 0 && th.backUs < 350, `back under 10 KB after ${th.backUs} us`);
  assert.ok(min(th.tp) > 0.9 * 25e9, `min throughput ${min(th.tp) / 1e9} Gb/s`);
});

// ------------------------------------------------------------------------------- θ: no MI after a burst

test('θ-PowerTCP recovers additively after a burst ends (no MI on under-utilisation, PowerTCP §3.5); PowerTCP refills at once', () => {
  // one long flow; 9 x 300 KB flows join at 300 us and finish ~400 us later
  const t0 = 300 * US;
  const flows: FlowSpec[] = [{ src: 0, dst: 10, bytes: 1e12, startPs: 0 }];
  for (let i = 1; i < 10; i++) flows.push({ src: i, dst: 10, bytes: 300_000, startPs: t0 });
  const run = (cc: string, profile: string): number[] => onStar(11, flows, { profile: 'hpcc', cc, params: { profile }, stopPs: t0 + 1500 * US, tpPs: 20 * US }).throughput[0]!.v;
  /** first bin after the burst in which the link is under half full */
  const endOf = (tp: number[]): number => tp.findIndex((x, i) => i > 20 && x < 0.5 * C);
  const pt = run('powertcp', 'inetTub');
  const ptEnd = endOf(pt);
  assert.ok(ptEnd > 0, 'the burst ends with an under-used link');
  assert.ok(mean(pt.slice(ptEnd + 3, ptEnd + 13)) > 0.9 * C, `PowerTCP 60–260 us after the burst: ${mean(pt.slice(ptEnd + 3, ptEnd + 13)) / 1e9} Gb/s`);
  for (const profile of ['inetTub', 'paper']) {
    const th = run('theta-powertcp', profile);
    const e = endOf(th);
    assert.ok(e > 0, `${profile}: the burst ends with an under-used link`);
    assert.ok(mean(th.slice(e + 3, e + 13)) < 0.6 * C, `θ ${profile} 60–260 us after the burst: ${mean(th.slice(e + 3, e + 13)) / 1e9} Gb/s`);
    if (profile === 'paper') {
      // additive: β = 0.006·b per update, one update per RTT (~12–14 us here): ~43–49 Gb/s per ms
      const slope = (mean(th.slice(e + 30, e + 35)) - mean(th.slice(e + 5, e + 10))) / (25 * 20e-6) / 1e9 / 1e3;
      assert.ok(slope > 30 && slope < 60, `θ paper recovery slope ${slope} Gb/s per ms`);
    }
  }
});

// ------------------------------------------------------------------------------- fairness (Fig. 5)

test('PowerTCP inetTub fairness (Fig. 5a): flows arriving one at a time and one leaving settle to equal shares; the link stays busy', () => {
  // four senders to one 25 G receiver, arrivals every 1.5 ms; the last one (2 MB) leaves
  // again around 7 ms. MIMD keeps the ratios of a cut, so equal shares come from β: the
  // rate gap shrinks by γ/Γ + 1 − γ ≈ 0.98 per RTT, i.e. within ~1.5 ms (~120 RTTs).
  const B = 25e9;
  const P = 1500 * US;
  const flows: FlowSpec[] = [0, 1, 2, 3].map((i) => ({ src: i, dst: 4, bytes: i === 3 ? 2_000_000 : 1e12, startPs: i * P }));
  const out = onStar(5, flows, { profile: 'hpcc', cc: 'powertcp', params: { profile: 'inetTub' }, stopPs: 9000 * US, rateBps: B, tpPs: 100 * US, flowTpPs: 100 * US });
  assert.equal(out.fct.length, 1, 'the sized flow finishes');
  const leftUs = out.fct[0]!.finishPs / US;
  assert.ok(leftUs > 6000 && leftUs < 8500, `departure at ${leftUs} us`);
  /** per-flow throughput over the 200 us before `endUs` */
  const shares = (endUs: number, active: number[]): number[] => active.map((i) => mean(out.flowThroughput[i]!.v.slice(endUs / 100 - 2, endUs / 100)));
  const phases: [number, number[]][] = [
    [1500, [0]],
    [3000, [0, 1]],
    [4500, [0, 1, 2]],
    [6000, [0, 1, 2, 3]],
    [9000, [0, 1, 2]],
  ];
  for (const [endUs, active] of phases) {
    const sh = shares(endUs, active);
    assert.ok(jainIndex(sh) > 0.97, `before ${endUs} us: shares ${sh.map((x) => (x / 1e9).toFixed(1)).join(', ')} Gb/s`);
    const total = sh.reduce((a, b) => a + b, 0);
    assert.ok(total > 0.85 * B, `before ${endUs} us: total ${total / 1e9} Gb/s`);
  }
  // without the reference's 2025 λ floor (docs/powertcp.md) one 100-us bin dips to ~85 % (21.2 Gb/s)
  assert.ok(min(out.throughput[0]!.v.slice(1)) > 0.8 * B, `the link stays busy: min ${min(out.throughput[0]!.v.slice(1)) / 1e9} Gb/s per 100 us`);
});
