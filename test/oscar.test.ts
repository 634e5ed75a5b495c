/**
 * OSCAR (docs/algorithms.md §2): the batched estimator and control law as units, and
 * the behaviour the paper reports on its single-bottleneck micro-benchmarks
 * (T-STAR: 100 Gb/s, 3 us links, 12 us base RTT), at reduced sizes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oscarCc, OscarInstance } from '../src/cc/oscar.js';
import type { AckInfo, CcFlow } from '../src/cc/types.js';
import { INT_MAX_HOPS } from '../src/cc/types.js';
import { simulate } from '../src/sim/simulate.js';
import { MIB, US } from '../src/engine/units.js';
import { Rng } from '../src/engine/rng.js';
import { jainIndex, mean } from '../src/metrics/stats.js';
import { profileDefaults } from '../src/net/config.js';
import { star } from '../src/net/topology/index.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';

const C = 100e9;

// ------------------------------------------------------------------ units

interface FakeFlow extends CcFlow {
  rates: number[];
  cwnds: number[];
}

function fakeFlow(o: { baseRttPs?: number; lineRateBps?: number } = {}): FakeFlow {
  const rtt = o.baseRttPs ?? 12 * US;
  const mu = o.lineRateBps ?? C;
  const f = {
    id: 0,
    src: 0,
    dst: 1,
    sizeBytes: 1e12,
    lineRateBps: mu,
    baseRttPs: rtt,
    baseBdpBytes: (mu / 8) * (rtt / 1e12),
    pathBaseRttPs: rtt,
    maxBaseRttPs: rtt,
    maxBaseBdpBytes: (mu / 8) * (rtt / 1e12),
    baseOneWayPs: rtt / 2,
    pathRttPs: rtt,
    dataWireBytes: 1060,
    mtuBytes: 1000,
    rateBps: mu,
    cwndBytes: Infinity,
    sndNxt: 0,
    sndUna: 0,
    maxSentSeq: 0,
    minRateBps: 0.001 * mu,
    net: profileDefaults('oscar'),
    now: () => 0,
    rates: [] as number[],
    cwnds: [] as number[],
    setRate(bps: number) {
      f.rates.push(bps);
      f.rateBps = bps;
    },
    setCwnd(bytes: number) {
      f.cwnds.push(bytes);
      f.cwndBytes = bytes;
    },
    setTimer() {},
    cancelTimer() {},
    timerPending: () => false,
    nextAvail: 0,
    holdUntilPs: 0,
    setHold() {},
  };
  return f;
}

function ackInfo(): AckInfo {
  const z = () => new Float64Array(INT_MAX_HOPS);
  return {
    seq: 0,
    isNack: false,
    ecnEcho: false,
    tcd: 0,
    sendTsPs: 0,
    rxTsPs: 0,
    inflightBytes: 0,
    receiverEcho: 0,
    ackedPackets: 1,
    sumInflightBytes: 0,
    newlyAckedBytes: 1000,
    intHops: 0,
    intTsPs: z(),
    intQlenBytes: z(),
    intTxBytes: z(),
    intRateBps: z(),
    intRxBytes: z(),
    sndNxt: 0,
    sndUna: 0,
    maxSentSeq: 0,
    nowPs: 0,
    mpdUs: 0,
  };
}

function oscar(f: CcFlow, params: Record<string, unknown> = {}): OscarInstance {
  return oscarCc.create(f, oscarCc.params.parse(params)) as OscarInstance;
}

/** Feeds one ACK: sent at x ps, delay y ps, in-flight stamp infl bytes. */
function feed(o: OscarInstance, a: AckInfo, x: number, y: number, infl: number, cnt = 1): void {
  a.sendTsPs = x;
  a.nowPs = x + y;
  a.rxTsPs = x + y / 2;
  a.ackedPackets = cnt;
  a.inflightBytes = infl;
  a.sumInflightBytes = infl * cnt;
  o.onAck(a);
}

test('OSCAR BLS: exact slope, mean delay, mean in-flight and unbiased rate of one batch (Alg. 1, docs/algorithms.md §2)', () => {
  const f = fakeFlow();
  const o = oscar(f);
  const a = ackInfo();
  // one packet every 84.8 ns (1060 B at 100 G) with delay 20 us + 0.3 * x: gradient 0.3
  const gap = 84_800;
  let k = 0;
  for (; o.updates === 0; k++) feed(o, a, 1e9 + k * gap, 20e6 + 0.3 * k * gap, 100_000);
  // the batch closes on the first sample more than tau = 5 us after the first one
  assert.equal(k, Math.floor(5e6 / gap) + 2);
  assert.ok(Math.abs(o.lastGradient - 0.3) < 1e-9, `gradient ${o.lastGradient}`);
  assert.ok(Math.abs(o.lastDelayPs - (20e6 + (0.3 * (k - 1) * gap) / 2)) < 1e-3, `delay ${o.lastDelayPs}`);
  assert.equal(o.lastInflightBytes, 100_000);
  // unbiased: the bytes after the first sample over the first-to-last span = 1060 B / 84.8 ns
  assert.ok(Math.abs(o.lastRateBps - C) < 1e-3 * C, `rate ${o.lastRateBps}`);
  // artifact form over-estimates by n/(n-1)
  const b = oscar(fakeFlow(), { artifactRateBias: true });
  for (let i = 0; b.updates === 0; i++) feed(b, a, 1e9 + i * gap, 20e6, 100_000);
  assert.ok(Math.abs(b.lastRateBps / C - k / (k - 1)) < 1e-6, `biased rate ${b.lastRateBps}`);
});

test('OSCAR BLS: needs nMin samples, never closes on a span equal to tau, stale batches give g = 0 and u_r = u_w (ART-7, ART-9)', () => {
  const a = ackInfo();
  const o = oscar(fakeFlow());
  feed(o, a, 0, 20e6, 1000);
  feed(o, a, 5e6, 20e6, 1000); // span == tau: not > tau
  assert.equal(o.updates, 0);
  const p = oscar(fakeFlow());
  feed(p, a, 0, 20e6, 1000);
  feed(p, a, 6e6, 25e6, 1000); // span > tau but only 2 samples
  assert.equal(p.updates, 0);
  feed(p, a, 20e6, 30e6, 1000); // 3 samples over 20 us > 3 tau: stale
  assert.equal(p.updates, 1);
  assert.equal(p.lastGradient, 0);
  assert.equal(p.lastRateBps, -1);
});

test('OSCAR batch timing: the artifact anchors a batch at its own first sample (tau plus one sample gap), Alg. 1 at the previous batch\'s closing sample (tau)', () => {
  // one sample every 0.85 us (a flow at ~10 % of 100 G): batch i closes on the first sample
  // strictly more than tau = 5 us after its own first sample (artifact, AMB-O2) or at least
  // tau after the previous batch's closing sample (Alg. 1 l.7, l.12: startTs <- sendTs)
  const gap = 850_000;
  const a = ackInfo();
  const closes = (params: Record<string, unknown>): number[] => {
    const o = oscar(fakeFlow(), params);
    const at: number[] = [];
    for (let k = 0; k < 40; k++) {
      const before = o.updates;
      feed(o, a, 1e9 + k * gap, 20e6, 20_000);
      if (o.updates > before) at.push(k);
    }
    return at;
  };
  // artifact: samples 0..6 (span 5.1 us > 5), then 7..13, ...: 7 samples, a period of 7 gaps = 5.95 us
  assert.deepEqual(closes({}).slice(0, 4), [6, 13, 20, 27]);
  // Alg. 1: the first batch as above (no previous close), then every 6 gaps (5.1 us >= 5): one gap shorter
  assert.deepEqual(closes({ batchAnchor: 'previousClose' }).slice(0, 4), [6, 12, 18, 24]);
  // a span of exactly tau closes under Alg. 1 (>=), not under the artifact's strict test
  const exact = 5e6 / 5; // 1 us apart: sample 5 is exactly tau after sample 0 (or after the previous close)
  const count = (params: Record<string, unknown>): number => {
    const o = oscar(fakeFlow(), params);
    for (let k = 0; k <= 10; k++) feed(o, a, 1e9 + k * exact, 20e6, 20_000);
    return o.updates;
  };
  assert.equal(count({}), 1); // closes at sample 6 (6 us > 5), then needs 7..13
  assert.equal(count({ batchAnchor: 'previousClose' }), 2); // sample 5 (span exactly tau), then sample 10 (tau after it)
  // the rate of a previous-close batch counts every sample in it over the span from the previous close
  const o = oscar(fakeFlow(), { batchAnchor: 'previousClose' });
  for (let k = 0; o.updates < 2; k++) feed(o, a, 1e9 + k * gap, 20e6, 20_000);
  assert.ok(Math.abs(o.lastRateBps - (8 * 1060 * 1e12) / gap) < 1e-6 * o.lastRateBps, `rate ${o.lastRateBps}`);
  // a NACK drops the anchor: the next batch starts at its own first sample again
  const n = oscar(fakeFlow(), { batchAnchor: 'previousClose' });
  let k = 0;
  for (; n.updates < 1; k++) feed(n, a, 1e9 + k * gap, 20e6, 20_000);
  a.isNack = true;
  n.onAck(a);
  a.isNack = false;
  const start = k;
  for (; n.updates < 2; k++) feed(n, a, 1e9 + k * gap, 20e6, 20_000);
  assert.equal(k - 1 - start, 6);
});

test('OSCAR control law: MD to the window loop above target, max of the loops below, hyper increase at base delay, clamps (Alg. 2)', () => {
  const gap = 84_800;
  const a = ackInfo();
  // (1) 10 flows' worth of queue: delay 10 x base RTT, flat, in-flight 1 BDP -> u = u_w + U_AI = 0.1 + 0.001
  {
    const f = fakeFlow();
    const o = oscar(f);
    const bdp = f.baseBdpBytes;
    for (let i = 0; o.updates === 0; i++) feed(o, a, i * gap, 10 * 12e6, bdp);
    assert.ok(Math.abs(o.ratio - (0.1 + 0.001)) < 1e-9, `u ${o.ratio}`);
    assert.ok(Math.abs(f.rateBps - o.ratio * C) < 1);
    // window keeps the same ratio to D_target·mu/8 = (12 us + 6 us) x 100 G / 8
    assert.ok(Math.abs(f.cwndBytes - o.ratio * 225_000) < 1, `cwnd ${f.cwndBytes}`);
  }
  // (2) below target with a draining queue: rate loop wins, u = rate/((1+g)mu) capped at 1
  {
    const f = fakeFlow();
    const o = oscar(f, { uInit: 0.3 });
    // sending at 30 G (one packet per 282.7 ns); delay 15 us falling at g = -0.7
    const g2 = 282_667;
    for (let i = 0; o.updates === 0; i++) feed(o, a, i * g2, 15e6 - 0.7 * i * g2, 0.3 * 225_000);
    assert.ok(o.lastGradient < -0.69 && o.lastGradient > -0.71);
    assert.equal(o.ratio, 1);
    assert.equal(f.cwndBytes, f.baseBdpBytes);
  }
  // (3) empty queue: +U_HAI only
  {
    const f = fakeFlow();
    const o = oscar(f, { uInit: 0.5 });
    for (let i = 0; o.updates === 0; i++) feed(o, a, i * gap, 12e6 + 500e3, 10_000);
    assert.ok(Math.abs(o.ratio - 0.51) < 1e-12, `u ${o.ratio}`);
  }
  // (4) gradient floor g >= -0.9 and the u_min clamp
  {
    const f = fakeFlow();
    const o = oscar(f, { uInit: 0.001 });
    for (let i = 0; o.updates === 0; i++) feed(o, a, i * gap, 1e9, 0);
    assert.equal(o.ratio, 0.001);
  }
});

test('OSCAR pktInfl stamp: packets in flight including this one x wire size (docs/algorithms.md §2)', () => {
  const o = oscar(fakeFlow());
  const s = { seq: 0, payloadBytes: 1000, wireBytes: 1060, nowPs: 0, isRetransmission: false, inflightStamp: 2500, nextGapPs: -1 };
  o.onSend(s);
  assert.equal(s.inflightStamp, 3 * 1060);
});

test('OSCAR ACK coalescing: one regression point per ACK, packets and sumInfl per covered packet (App. A.1)', () => {
  const a = ackInfo();
  const one = oscar(fakeFlow());
  const co = oscar(fakeFlow());
  const gap = 84_800;
  for (let i = 0; one.updates === 0; i++) feed(one, a, i * gap, 20e6 + 0.2 * i * gap, 50_000);
  for (let i = 0; co.updates === 0; i += 4) feed(co, a, i * gap + 3 * gap, 20e6 + 0.2 * (i + 3) * gap, 50_000, 4);
  assert.ok(Math.abs(co.lastGradient - 0.2) < 1e-9);
  assert.equal(co.lastInflightBytes, 50_000);
  assert.ok(Math.abs(co.lastRateBps - one.lastRateBps) < 0.01 * C, `${co.lastRateBps} vs ${one.lastRateBps}`);
});

// --------------------------------------------------------------- scenarios

const starNet = () => net('oscar', { switch: { bufferBytes: 10000 * MIB } });

function run(flows: FlowSpec[], hosts: number, stopPs: number | null, params: Record<string, unknown> = {}, cc = 'oscar', seed = 8259) {
  const topo = star({ hosts, rateBps: C, delayPs: 3 * US });
  return simulate(
    input(topo, flows, {
      net: starNet(),
      cc,
      params,
      seed,
      stopAtPs: stopPs,
      metrics: {
        queuePorts: [{ node: hosts, port: hosts - 1 }],
        queueIntervalPs: 1 * US,
        throughputPorts: [{ node: hosts, port: hosts - 1 }],
        throughputIntervalPs: 10 * US,
        flowThroughput: [],
        flowThroughputIntervalPs: 10 * US,
      },
    }),
  );
}

test('OSCAR single flow: line rate, no standing queue (docs/algorithms.md §2)', () => {
  const out = run([{ src: 0, dst: 1, bytes: 1e12, startPs: 0 }], 2, 300 * US);
  assert.ok(Math.max(...out.queues[0]!.v.slice(20)) < 3_000, `queue ${Math.max(...out.queues[0]!.v)}`);
  // wire rate of the bottleneck ~ 100 G
  assert.ok(mean(out.throughput[0]!.v.slice(2)) > 0.99 * C);
});

test('OSCAR vs HPCC* microburst (Fig 9): OSCAR holds ~75 KB without fluctuation, shares fairly, and loses less capacity after the burst than HPCC*', () => {
  // long flow 0 -> 15 from 0, two 600 KB (4 BDP) flows from 100 us (artifact fig9a/b; OSCAR U_AI 0.0012)
  const flows: FlowSpec[] = [
    { src: 0, dst: 15, bytes: 1e12, startPs: 0 },
    { src: 1, dst: 15, bytes: 600_000, startPs: 100 * US },
    { src: 2, dst: 15, bytes: 600_000, startPs: 100 * US },
  ];
  const lostAfterBurst = (o: ReturnType<typeof run>): { end: number; lost: number } => {
    const end = o.fct.reduce((m, r) => Math.max(m, r.finishPs), 0) / US;
    const tp = o.throughput[0]!.v;
    let lost = 0;
    // capacity left unused in the 150 us after the burst, in bytes
    for (let i = Math.floor(end / 10); i < Math.floor(end / 10) + 15; i++) lost += ((C - tp[i]!) * 10e-6) / 8;
    return { end, lost };
  };
  const out = run(flows, 16, 500 * US, { uAi: 0.0012 });
  const hp = run(flows, 16, 500 * US, { eta: 1.5 }, 'hpcc');
  const q = out.queues[0]!.v;
  const { end, lost } = lostAfterBurst(out);
  assert.ok(end > 230 && end < 300, `burst ends at ${end} us`);
  // `end` is when the senders see their last ACK (~1 RTT after the queue starts to drain); the
  // 50 us before that drain: queue within 15% of the 75 KB target (D-OSCAR counts it without Ethernet headers)
  const steady = q.slice(Math.floor(end) - 70, Math.floor(end) - 20);
  const qm = mean(steady);
  assert.ok(qm > 64_000 && qm < 86_000, `queue ${qm} B`);
  assert.ok(Math.max(...steady) - Math.min(...steady) < 12_000, `OSCAR queue range ${Math.min(...steady)}..${Math.max(...steady)}`);
  // three flows at ~1/3 each
  const shares = out.flowThroughput.map((s) => s.v[Math.floor(end / 10) - 2]!);
  assert.ok(jainIndex(shares) > 0.98, `Jain ${jainIndex(shares)} ${shares.map((x) => x / 1e9)}`);
  // HPCC* (eta 1.5): fluctuating queue, then ~60 us of under-utilisation (MI only after maxStage RTTs)
  const h = lostAfterBurst(hp);
  const tpH = hp.throughput[0]!.v;
  const low = tpH.slice(Math.floor(h.end / 10), Math.floor(h.end / 10) + 10).filter((x) => x < 0.6 * C).length;
  assert.ok(low >= 4 && low <= 8, `HPCC* under 60% for ${low * 10} us`);
  assert.ok(lost < 0.7 * h.lost, `capacity lost after the burst: OSCAR ${lost} B, HPCC* ${h.lost} B`);
  // OSCAR back above 70% 10 us after the burst and full within 120 us
  const tp = out.throughput[0]!.v;
  const i0 = Math.ceil(end / 10);
  for (let i = i0 + 1; i < i0 + 12; i++) assert.ok(tp[i]! > 0.7 * C, `bin ${i}: ${tp[i]! / 1e9} Gb/s`);
  assert.ok(tp[i0 + 12]! > 0.97 * C, `120 us after: ${tp[i0 + 12]! / 1e9} Gb/s`);
  assert.equal(out.totals.pausesSent, 0);
});

test('OSCAR incast (Fig 20, reduced to 50 flows): first peak = sum of initial windows, then a steady queue above the 75 KB target', () => {
  const N = 50;
  const rng = new Rng(1);
  const flows: FlowSpec[] = [];
  for (let i = 0; i < N; i++) flows.push({ src: i, dst: N, bytes: 600_000, startPs: Math.floor(rng.next() * 12 * US) });
  const out = run(flows, N + 1, null, {}, 'oscar', 1);
  const q = out.queues[0]!.v;
  const peak = Math.max(...q);
  // every flow starts with cwnd = BDP_base (~152 KB, 12.18 us base RTT)
  assert.ok(peak > 0.9 * N * 152_000 && peak < 1.05 * N * 152_000, `peak ${peak}`);
  // after the initial windows drained: a stable queue above target, below 75 KB + 1 KB per flow + slack
  const drained = q.findIndex((v, i) => i > 100 && v < 20_000);
  assert.ok(drained > 0);
  const steady = q.slice(drained + 100, drained + 1000);
  const qm = mean(steady);
  assert.ok(qm > 75_000 && qm < 75_000 + N * 1_000 + 20_000, `steady queue ${qm}`);
  assert.equal(out.fct.length, N);
  assert.equal(out.totals.drops, 0);
});

test('Reference state (Fig 8): two HPCC flows without U smoothing fluctuate with the per-RTT reference and share fairly with the synchronised one', () => {
  // artifact fig8a/b: star17, flows from hosts 0 and 2 to 16, 2 us apart, HPCC with ImmediateMode (no EWMA) and MaxStage 0
  const flows: FlowSpec[] = [
    { src: 0, dst: 16, bytes: 1e12, startPs: 0 },
    { src: 2, dst: 16, bytes: 1e12, startPs: 2 * US },
  ];
  const imbalance = (reference: string): { d: number; a: number; b: number } => {
    const out = run(flows, 17, 300 * US, { maxStage: 0, smoothU: false, reference }, 'hpcc');
    // 10-us samples from 150 us on
    const a = out.flowThroughput[0]!.v.slice(15);
    const b = out.flowThroughput[1]!.v.slice(15);
    let d = 0;
    for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!) / (a[i]! + b[i]!);
    return { d: d / a.length, a: mean(a), b: mean(b) };
  };
  const hp = imbalance('perRtt');
  const sync = imbalance('synchronized');
  assert.ok(hp.d > 0.25, `per-RTT reference: mean |r1 - r2| / (r1 + r2) = ${hp.d}`);
  assert.ok(sync.d < 0.15, `synchronised reference: ${sync.d}`);
  assert.ok(jainIndex([sync.a, sync.b]) > 0.99, `synchronised shares ${sync.a / 1e9} / ${sync.b / 1e9} Gb/s`);
});
