/**
 * ACC (ACC NSDI'24; docs/algorithms.md §5) and its switch side: TCD marking as a
 * dequeue policy (docs/algorithms.md §5), the source halt as a transport hold,
 * DCQCN+TCD / TIMELY+TCD (docs/algorithms.md §9.7), and the spec errors of a
 * TCD CC on a profile that cannot mark TCD. Reduced sizes (<= 1 ms).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findCc } from '../src/cc/registry.js';
import { TCD_CE, TCD_NO, TCD_UE, type AckInfo, type CcFlow, type CcInstance, INT_MAX_HOPS } from '../src/cc/types.js';
import { simulate } from '../src/sim/simulate.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { SpecError } from '../src/engine/errors.js';
import { Scheduler } from '../src/engine/scheduler.js';
import { Rng } from '../src/engine/rng.js';
import { NetContext } from '../src/net/context.js';
import { Network } from '../src/net/network.js';
import { FLAG_ECT, PKT_DATA } from '../src/net/packet.js';
import { buildPortMap, computeRoutes, star } from '../src/net/topology/index.js';
import { MS, US } from '../src/engine/units.js';
import { jainIndex, mean } from '../src/metrics/stats.js';
import { profileDefaults, type NetworkConfig } from '../src/net/config.js';
import type { SimOutput } from '../src/sim/types.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';
import { fakeCcFlow, type RecordingFlow } from './helpers/fake-flow.js';
import { pfcReceived } from '../src/net/pfc-rx.js';

// ------------------------------------------------------------------ switch side

function rig(cfg: NetworkConfig, features: ConstructorParameters<typeof Network>[6]): { network: Network; ctx: NetContext } {
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
  const ctx = new NetContext(new Scheduler(), cfg.transport.txTimeQuantization);
  const pm = buildPortMap(topo);
  return { network: new Network(ctx, topo, cfg, pm, computeRoutes(topo, pm), new Rng(3), features), ctx };
}

function dataPkt(ctx: NetContext): number {
  const pk = ctx.pool;
  const p = pk.alloc(PKT_DATA);
  pk.setDst(p, 2);
  pk.setSize(p, 1048);
  pk.setAux(p, 1000);
  pk.setPrio(p, 3);
  pk.setFlag(p, FLAG_ECT, true);
  return p;
}

/** `cfg` with the profile's RED marking off (the needs table turns RED on from the profile, or a CC's own thresholds) */
function noEcn(cfg: NetworkConfig): NetworkConfig {
  return { ...cfg, switch: { ...cfg.switch, ecn: { ...cfg.switch.ecn, enabled: false } } };
}

test('dequeue policies are chosen by what the CC needs, in reference order (marking, PFC resume, telemetry)', () => {
  const cfg = net('acc');
  assert.deepEqual(rig(cfg, { int: false, ecn: true, tcd: true }).network.switches[3]!.policyNames(), ['red', 'tcd', 'pfcResume']);
  assert.deepEqual(rig(noEcn(cfg), { int: true, mpd: true }).network.switches[3]!.policyNames(), ['pfcResume', 'int', 'mpd']);
  assert.deepEqual(rig(noEcn(cfg), { int: false }).network.switches[3]!.policyNames(), ['pfcResume']);
  // the profile marks whatever the CC declares (D-OSCAR §10.3), and a CC's own thresholds turn marking on
  assert.deepEqual(rig(cfg, {}).network.switches[3]!.policyNames(), ['red', 'pfcResume']);
  assert.deepEqual(rig(noEcn(cfg), { ecnMarking: { kminBytes: 1, kmaxBytes: 1, pmax: 1, refRateBps: null } }).network.switches[3]!.policyNames(), ['red', 'pfcResume']);
});

test('TCD: CE at a congestion port (queue > 2 MTU, ON for >= max T_on), UE within max T_on of a pause, none at a short queue', () => {
  const { network, ctx } = rig(noEcn(net('acc')), { int: false, tcd: true });
  const sw = network.switches[3]!;
  const out = sw.ports[2]!;
  out.busyUntil = 1e15;
  const pk = ctx.pool;
  const pullMark = (): number => {
    const p = sw.pull(out);
    const m = pk.tcd(p);
    pk.release(p);
    return m;
  };
  // never paused, 3 packets (3144 B > 2096 B) queued behind the one leaving: a congestion port
  for (let i = 0; i < 4; i++) sw.receive(dataPkt(ctx), 0);
  assert.equal(pullMark(), TCD_CE);
  // 2 packets (2096 B) behind: not above Q_th
  assert.equal(pullMark(), TCD_NO);
  pullMark();
  pullMark();
  // a PAUSE/RESUME cycle of class 3 at t = 10 us; dequeues within 24 us of the resume see an undetermined port
  ctx.sched.now = 10 * US;
  pfcReceived(out, ctx.sched.now, 3, true, 0);
  ctx.sched.now = 12 * US;
  pfcReceived(out, ctx.sched.now, 3, false, 0);
  for (let i = 0; i < 8; i++) sw.receive(dataPkt(ctx), 0);
  ctx.sched.now = 30 * US;
  assert.equal(pullMark(), TCD_UE);
  // a packet already CE keeps CE through an undetermined port (CE > UE > NO)
  const p = sw.pull(out);
  assert.equal(pk.tcd(p), TCD_UE);
  pk.release(p);
  const ce = dataPkt(ctx);
  pk.setTcd(ce, TCD_CE);
  sw.receive(ce, 0);
  // continuously ON for 24 us after the resume at 12 us: congestion again
  ctx.sched.now = 36 * US;
  assert.equal(pullMark(), TCD_CE);
  assert.equal(out.tcdCe, 2);
  assert.equal(out.tcdUe, 2);
});

// ------------------------------------------------------------------ ACC on the 10:1 star (ACC Fig. 10, reduced)

const C = 100e9;

function tenToOne(cc: string, stopPs: number, params: Record<string, unknown> = {}): SimOutput {
  const topo = star({ hosts: 11, rateBps: C, delayPs: 1 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < 10; i++) flows.push({ src: i, dst: 10, bytes: 1e12, startPs: 0 });
  return simulate(
    input(topo, flows, {
      net: profileDefaults('acc'),
      cc,
      params,
      stopAtPs: stopPs,
      metrics: {
        queuePorts: [{ node: 11, port: 10 }],
        queueIntervalPs: 1 * US,
        throughputPorts: [{ node: 11, port: 10 }, ...Array.from({ length: 10 }, (_, i) => ({ node: i, port: 0 }))],
        throughputIntervalPs: 1 * US,
        flowThroughput: [],
        flowThroughputIntervalPs: 100 * US,
      },
    }),
  );
}

/** Longest run of idle 1-us samples of a series within its first `withinPs`, in ps. */
function longestIdle(t: number[], v: number[], withinPs: number): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < v.length && t[i]! <= withinPs; i++) {
    if (v[i]! < 1e9) run++;
    else run = 0;
    if (run > best) best = run;
  }
  return best * US;
}

test('ACC Fig. 10 (reduced): the queue of 10 line-rate flows is drained by source halts close to the ideal (max queue / link rate), fairly, without PFC', () => {
  const out = tenToOne('acc', 1 * MS);
  const q = out.queues[0]!;
  const maxQ = Math.max(...q.v);
  const ideal = (maxQ * 8) / C * 1e12;
  // one RTT of 10 line-rate flows
  assert.ok(maxQ > 500_000 && maxQ < 1_500_000, `max queue ${maxQ}`);
  // each sender's first halt (its NIC sends no data) is close to the ideal halt
  for (let i = 1; i <= 10; i++) {
    const s = out.throughput[i]!;
    const halt = longestIdle(s.t, s.v, 200 * US);
    assert.ok(halt > 0.6 * ideal && halt < 1.3 * ideal, `sender ${i - 1}: halt ${halt / US} us vs ideal ${ideal / US} us`);
  }
  // the bottleneck drains at full rate during the halts: 60 us after the peak, less than a third is left
  const iMax = q.v.indexOf(maxQ);
  assert.ok(q.v[iMax + 60]! < maxQ / 3, `queue 60 us after the peak: ${q.v[iMax + 60]}`);
  assert.equal(out.totals.pausesSent, 0);
  assert.equal(out.totals.drops, 0);
  const rates = out.flowThroughput.map((s) => mean(s.v.slice(2)));
  assert.ok(jainIndex(rates) > 0.85, `Jain ${jainIndex(rates)} of ${rates.map((r) => (r / 1e9).toFixed(1)).join(' ')}`);
});

test('ACC ackRateSpan: R measured only from periods whose every ACK is eligible (default) fills the 10:1 link (ACC Fig. 10(c)); dividing a period that straddles the first post-halt ACK by T under-reads R and under-fills it', () => {
  const util = (o: SimOutput): number => mean(o.throughput[0]!.v.slice(1500)) / C;
  const full = tenToOne('acc', 3 * MS);
  const period = tenToOne('acc', 3 * MS, { ackRateSpan: 'period' });
  assert.ok(util(full) > 0.95, `utilization ${util(full)} (ackRateSpan full, the default)`);
  assert.ok(util(period) < 0.9, `utilization ${util(period)} (ackRateSpan period)`);
  // and shared fairly
  const rates = full.throughput.slice(1).map((s) => mean(s.v.slice(1500)));
  assert.ok(jainIndex(rates) > 0.95, `Jain ${jainIndex(rates)} of ${rates.map((r) => (r / 1e9).toFixed(1)).join(" ")}`);
});

test('ACC w/o halt: congested flows take the ACK rate but the NICs never go silent; the queue drains much more slowly', () => {
  const a = tenToOne('acc', 300 * US);
  const b = tenToOne('acc-nohalt', 300 * US);
  const idle = (o: SimOutput): number => Math.max(...o.throughput.slice(1).map((s) => longestIdle(s.t, s.v, 200 * US)));
  assert.ok(idle(a) > 40 * US, `acc longest sender silence ${idle(a) / US} us`);
  assert.ok(idle(b) < 10 * US, `acc-nohalt longest sender silence ${idle(b) / US} us`);
  const at = (o: SimOutput, t: number): number => o.queues[0]!.v[Math.round(t / US)]!;
  assert.ok(at(b, 80 * US) > 2 * at(a, 80 * US), `queue at 80 us: nohalt ${at(b, 80 * US)} vs acc ${at(a, 80 * US)}`);
});

test('HPCC on the same 10:1 star holds about 95% link utilization (ACC Fig. 10(c))', () => {
  const out = simulate({ ...tenToOneInput('hpcc'), stopAtPs: 1 * MS, maxTimePs: 1 * MS });
  const u = mean(out.throughput[0]!.v.slice(200)) / C;
  assert.ok(u > 0.9 && u < 0.98, `HPCC utilization ${u}`);
});

function tenToOneInput(cc: string) {
  const topo = star({ hosts: 11, rateBps: C, delayPs: 1 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < 10; i++) flows.push({ src: i, dst: 10, bytes: 1e12, startPs: 0 });
  return input(topo, flows, { net: profileDefaults('acc'), cc, metrics: { throughputPorts: [{ node: 11, port: 10 }], throughputIntervalPs: 1 * US } });
}

// ------------------------------------------------------------------ the +TCD baselines, hook level

interface Fake extends RecordingFlow {
  /** the rates the CC set, in order */
  readonly rates: number[];
}

function fakeFlow(): Fake {
  const f = fakeCcFlow({ lineRateBps: C, baseRttPs: 12 * US, baseBdpBytes: 150_000, minRateBps: 1e8, profile: 'acc' });
  return Object.defineProperty(f, 'rates', { get: () => f.calls.map((c) => c.bps) }) as Fake;
}

function ack(seq: number, rttPs: number, tcd: number, sndNxt: number): AckInfo {
  const z = () => new Float64Array(INT_MAX_HOPS);
  return {
    seq, isNack: false, ecnEcho: false, tcd, sendTsPs: 1e9, rxTsPs: -1, inflightBytes: 0, ackedPackets: 1, sumInflightBytes: 0,
    newlyAckedBytes: 1000, intHops: 0, intTsPs: z(), intQlenBytes: z(), intTxBytes: z(), intRateBps: z(), intRxBytes: z(), mpdUs: 0,
    sndNxt, sndUna: seq, maxSentSeq: sndNxt, nowPs: 1e9 + rttPs, receiverEcho: 0,
  };
}

function create(name: string, f: CcFlow): CcInstance {
  const def = findCc(name)!;
  return def.create(f, def.params.parse({}));
}

test('TIMELY+TCD: a rising RTT cuts the rate unless the window brought UE marks and no CE (victim flows keep their rate)', () => {
  for (const [mark, expectCut] of [
    [TCD_UE, false],
    [TCD_CE, true],
    [TCD_NO, true],
  ] as const) {
    const f = fakeFlow();
    const cc = create('timely-tcd', f);
    // per-RTT updates with RTT rising 60 -> 300 us (inside [T_low, T_high]: the gradient rule)
    let seq = 1000;
    for (let k = 0; k < 6; k++) {
      cc.onAck(ack(seq, (60 + 40 * k) * US, mark, seq + 10_000));
      seq += 10_000;
    }
    const cut = f.rates.some((r) => r < C);
    assert.equal(cut, expectCut, `marks ${mark}`);
  }
});

test('DCQCN+TCD: TCD CE echoes drive the reaction point; UE (victim) marks do not', () => {
  for (const [mark, expectCut] of [
    [TCD_UE, false],
    [TCD_CE, true],
  ] as const) {
    const f = fakeFlow();
    const cc = create('dcqcn-tcd', f);
    cc.onAck(ack(1000, 20 * US, mark, 50_000));
    assert.equal(cc.onCnp, undefined, 'RED CNP flags are ignored');
    // the first CE sets up the decrease timer; firing it cuts by alpha/2
    cc.onTimer!(0);
    assert.equal(f.rates.some((r) => r < C), expectCut, `mark ${mark}`);
  }
});

// ------------------------------------------------------------------ spec errors

function specWith(profile: string, extra: Record<string, unknown> = {}) {
  return parseSpec({
    name: 'x',
    profile,
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    cc: 'acc',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 2, size: '1MB' }] }],
    ...extra,
  });
}

test('a TCD CC on a profile whose switches cannot mark TCD, or on a lossy fabric, is a spec error naming the field', () => {
  assert.throws(() => resolveSpec(specWith('oscar'), '.'), (e: unknown) => e instanceof SpecError && /cc: "acc" — .*network\.switch\.tcd\.enabled is false/.test(e.message));
  assert.throws(
    () => resolveSpec(specWith('acc', { network: { switch: { pfcEnabled: false } } }), '.'),
    (e: unknown) => e instanceof SpecError && /network\.switch\.pfcEnabled is false/.test(e.message),
  );
  assert.doesNotThrow(() => resolveSpec(specWith('acc'), '.'));
  assert.doesNotThrow(() => resolveSpec(specWith('hpcc', { network: { switch: { tcd: { enabled: true } } } }), '.'));
});

test('ACC declares TCD marks and high-priority ACKs; a lone flow is never halted and finishes near its ideal FCT', () => {
  for (const name of ['acc', 'acc-nohalt']) assert.deepEqual(findCc(name)!.needs, { tcd: true, highPriorityAcks: true });
  const topo = star({ hosts: 2, rateBps: C, delayPs: 1 * US });
  const out = simulate(input(topo, [{ src: 0, dst: 1, bytes: 200_000, startPs: 0 }], { net: profileDefaults('acc'), cc: 'acc' }));
  assert.equal(out.totals.finished, 1);
  assert.ok(out.fct[0]!.slowdown < 1.2, `slowdown ${out.fct[0]!.slowdown}`);
});

// ------------------------------------------------------------------ deadlock detection (ACC Table 2)

test('a PFC deadlock on the CBD unit is found (ports of the cycle, time), the run ends there, and drops are reported per unfinished flow', () => {
  const raw = (cc: string) => ({
    name: 'cbd',
    profile: 'acc',
    topology: { type: 'accCbd', hostsPerTor: 8, rate: '100Gbps', delay: '1us' },
    cc,
    workload: [{ type: 'poisson', cdf: 'websearch', load: 0.6, duration: '6ms' }],
    stop: { at: '6ms', deadlock: { pausedFor: '1ms', checkEvery: '100us' } },
  });
  const out = simulate(resolveSpec(parseSpec(raw('timely')), '.', { seed: 1 }));
  const d = out.deadlock;
  assert.ok(d !== undefined, 'TIMELY deadlocks on the CBD unit (all links 100 G) within 6 ms');
  assert.ok(out.endPs === d.detectedAtPs && d.detectedAtPs < 6 * MS);
  // a cycle through both uppers and the two middle ToRs (T1, T2), every port paused >= 1 ms
  assert.ok(d.cycle.length >= 2);
  for (const p of d.cycle) assert.ok(d.detectedAtPs - p.pausedSincePs >= MS && p.queuedBytes > 0);
  const names = new Set(d.cycle.map((p) => p.name));
  assert.ok(names.has('spine36') && names.has('spine37'), [...names].join(','));
  for (let i = 0; i < d.cycle.length; i++) assert.equal(d.cycle[i]!.peer, d.cycle[(i + 1) % d.cycle.length]!.node, 'each port feeds the next');
  assert.equal(d.unfinishedFlows, out.unfinished.length);
  assert.equal(d.dropsRuledOut, d.unfinishedWithDrops === 0);
  assert.ok(d.unfinishedWithDrops <= d.unfinishedFlows);
});

test('deadlock detection adds no events: results and event counts are identical with it off', () => {
  const spec = parseSpec({
    name: 'cbd',
    profile: 'acc',
    topology: { type: 'accCbd', hostsPerTor: 2, rate: '100Gbps', delay: '1us' },
    cc: 'dcqcn',
    workload: [{ type: 'poisson', cdf: 'websearch', load: 0.3, duration: '1ms' }],
  });
  const on = simulate(resolveSpec(spec, '.'));
  const off = simulate({ ...resolveSpec(spec, '.'), deadlock: null });
  assert.equal(on.events, off.events);
  assert.deepEqual(on.fct, off.fct);
});

// ------------------------------------------------------------------ ACC Prop. 1 (§4.6, App. A Eq. 2)

test('ACC Prop. 1 (App. A Eq. 2): flows whose aggregate rate exceeds C each take phi_i C from the ACK rate of one period, so their rates sum to C, and all halt for the time the queue needs to drain, (sum S - C) T / C', () => {
  // three flows at S_i(0) = 1.5 phi_i C share a bottleneck C; in their first period the bottleneck
  // returns ACKs at phi_i C: with T = 100 full packets at C, phi = 0.2 / 0.3 / 0.5 is 20 / 30 / 50 ACKs
  const wire = 1056;
  const T = (8 * wire * 100) / (C / 1e12);
  const phis = [0.2, 0.3, 0.5];
  const rates: number[] = [];
  for (const phi of phis) {
    const n = Math.round(phi * 100);
    let now = 1 * MS;
    const holds: number[] = [];
    const f = fakeFlow();
    f.now = () => now;
    f.setHold = (until: number) => holds.push(until);
    const def = findCc('acc')!;
    const cc = def.create(f, def.params.parse({ periodPs: T }));
    const m = f as unknown as { maxSentSeq: number; sndNxt: number; sndUna: number };
    // sent in the previous period at S_i(0) = 1.5 phi_i C: 1.5 n packets
    m.maxSentSeq = m.sndNxt = 1.5 * n * 1000;
    for (let k = 1; k <= n; k++) {
      now = 1 * MS + ((k - 1) * T) / n;
      cc.onAck({ ...ack(k * 1000, 0, TCD_CE, m.sndNxt), nowPs: now });
      m.sndUna = k * 1000;
    }
    now = 1 * MS + T;
    cc.onTimer!(0);
    const r = f.rates.at(-1)!;
    assert.ok(Math.abs(r - phi * C) < 1e-6 * C, `phi ${phi}: rate ${r / 1e9} Gb/s, expected ${phi * 100} Gb/s`);
    rates.push(r);
    // R_i(1) = 0: a halt of (sum S - C) T / C = 0.5 T, the same for every flow
    assert.equal(holds.length, 1);
    assert.ok(Math.abs(holds[0]! - now - 0.5 * T) < 1e-6 * T, `phi ${phi}: halt ${(holds[0]! - now) / US} us, expected ${(0.5 * T) / US} us`);
  }
  assert.ok(Math.abs(rates.reduce((a, b) => a + b, 0) - C) < 1e-6 * C);
});

test('ACC Prop. 1 in the simulator: 4 line-rate flows into one 100 G port hold rates that sum to C (within 10 %) from one period after their first congested decision on, while halted', () => {
  const topo = star({ hosts: 5, rateBps: C, delayPs: 1 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < 4; i++) flows.push({ src: i, dst: 4, bytes: 1e12, startPs: 0 });
  const out = simulate(input(topo, flows, { net: profileDefaults('acc'), cc: 'acc', stopAtPs: 100 * US, metrics: { ccTrace: [], ccTraceIntervalPs: 1 * US } }));
  const tr = out.ccTrace!;
  const k = tr.fields.length;
  const CONGESTED = 1;
  // the sample index of each flow's first congested decision
  const first = tr.series.map((s) => {
    for (let i = 0; i < s.t.length; i++) if (s.v[i * k + 4] === CONGESTED) return i;
    return -1;
  });
  assert.ok(first.every((i) => i > 0), `first congested samples ${first.join(' ')}`);
  const from = Math.max(...first);
  let haltedSamples = 0;
  for (let i = from; i < from + 40; i++) {
    let sum = 0;
    for (const s of tr.series) {
      sum += s.v[i * k]!;
      haltedSamples += s.v[i * k + 1]!;
    }
    assert.ok(Math.abs(sum - C) < 0.1 * C, `t = ${tr.series[0]!.t[i]! / US} us: rates sum to ${sum / 1e9} Gb/s`);
  }
  assert.ok(haltedSamples > 0, 'the flows are halted while their rates already sum to C');
});

// ------------------------------------------------------------------ sparse ACKs, in-flight limit, the CBD unit

/**
 * A flow that starts at 1 ms and sends 100 packets before its first ACK, which comes alone and
 * CE-marked, then its first period ends: the ACK rate R it measures, and its halt.
 */
function firstCongestedPeriod(params: Record<string, unknown>): { f: Fake; T: number; halts: number; halt: number } {
  const T = 12 * US;
  let now = 0;
  const holds: number[] = [];
  const f = fakeFlow();
  f.now = () => now;
  f.setHold = (until: number) => holds.push(until);
  const def = findCc('acc')!;
  const cc = def.create(f, def.params.parse(params));
  const m = f as unknown as { maxSentSeq: number; sndNxt: number; sndUna: number };
  m.maxSentSeq = m.sndNxt = 100_000;
  now = 1 * MS + 10 * US;
  cc.onAck({ ...ack(1000, 0, TCD_CE, 100_000), nowPs: now });
  m.sndUna = 1000;
  now += T;
  cc.onTimer!(0);
  return { f, T, halts: holds.length, halt: holds.length > 0 ? holds[0]! - now : NaN };
}

test("ACC sparse-ACK rate (ACC §4.3): a flow's first ACK has no inter-arrival time, so one ACK in the first period gives R over T, not over the time since t = 0", () => {
  const { f, T, halts, halt } = firstCongestedPeriod({});
  const wire = f.dataWireBytes / f.mtuBytes;
  const R = (8 * 1000 * wire) / (T / 1e12);
  assert.ok(Math.abs(f.rates.at(-1)! - R) < 1e-6 * R, `R ${f.rates.at(-1)! / 1e6} Mb/s, expected ${R / 1e6} Mb/s (one packet per T)`);
  // halt for the 99 packets still in the network at that rate: 99 T
  assert.equal(halts, 1);
  assert.ok(Math.abs(halt - 99 * T) < 0.01 * 99 * T, `halt ${halt / US} us, expected ${(99 * T) / US} us`);
});

test('ACC has no in-flight limit (docs/algorithms.md §5 [AMB-A8]): line-rate flows exceed a BDP before their first decision; window bdp / rate keep each within one base BDP', () => {
  const maxInflight = (params: Record<string, unknown>): number => {
    const topo = star({ hosts: 11, rateBps: C, delayPs: 1 * US });
    const flows: FlowSpec[] = [];
    for (let i = 0; i < 10; i++) flows.push({ src: i, dst: 10, bytes: 1e12, startPs: 0 });
    const out = simulate(
      input(topo, flows, { net: profileDefaults('acc'), cc: 'acc', params, stopAtPs: 200 * US, metrics: { ccTrace: [], ccTraceIntervalPs: 1 * US } }),
    );
    const tr = out.ccTrace!;
    assert.deepEqual(tr.fields, ['rate_bps', 'halted', 'n_u', 'n_v', 'last_class', 'last_ack_rate_bps', 'inflight_bytes', 'no_ack_periods', 'sent_bytes']);
    const k = tr.fields.length;
    let max = 0;
    let halted = 0;
    for (const s of tr.series)
      for (let i = 0; i < s.t.length; i++) {
        max = Math.max(max, s.v[i * k + 6]!);
        halted += s.v[i * k + 1]!;
      }
    assert.ok(halted > 0, 'some samples see a halted flow');
    return max;
  };
  // base RTT of the star: 4 x 1 us propagation plus serialization, so its BDP at 100 G is below 5 us x 100 G
  const bdpBound = (5 * US * C) / 8e12;
  const none = maxInflight({});
  assert.ok(none > 1.5 * bdpBound, `no window: max in-flight ${none} B vs BDP < ${bdpBound} B`);
  for (const window of ['bdp', 'rate']) {
    const w = maxInflight({ window });
    assert.ok(w <= bdpBound + 1056, `window ${window}: max in-flight ${w} B vs BDP < ${bdpBound} B`);
  }
});

test('ACC Table 2 finding: on the 100 G CBD unit (seed 1) windowless ACC deadlocks within 6 ms, the same ACC with a one-BDP window does not', () => {
  const raw = (params: Record<string, unknown>) => ({
    name: 'cbd',
    profile: 'acc',
    topology: { type: 'accCbd', hostsPerTor: 8, rate: '100Gbps', delay: '1us' },
    cc: { name: 'acc', params },
    workload: [{ type: 'poisson', cdf: 'websearch', load: 0.6, duration: '6ms' }],
    stop: { at: '6ms', deadlock: { pausedFor: '1ms', checkEvery: '100us' } },
  });
  const none = simulate(resolveSpec(parseSpec(raw({})), '.', { seed: 1 }));
  assert.ok(none.deadlock !== undefined && none.deadlock.drops === 0, 'windowless ACC deadlocks, without drops');
  const win = simulate(resolveSpec(parseSpec(raw({ window: 'bdp' })), '.', { seed: 1 }));
  assert.equal(win.deadlock, undefined);
  assert.equal(win.endPs, 6 * MS);
});

test("ACC haltRate: with R below R_min the halt uses the measured R by default ('measured'); 'atLeastMinRate' drains the excess at R_min instead", () => {
  // R_min 1 Gb/s, above the one-packet-per-T ACK rate (~704 Mb/s) this flow measures
  const measured = firstCongestedPeriod({ minRateBps: 1e9, haltRate: 'measured' });
  const floored = firstCongestedPeriod({ minRateBps: 1e9, haltRate: 'atLeastMinRate' });
  const T = measured.T;
  const R = (8 * 1056) / (T / 1e12);
  assert.equal(measured.halts, 1);
  assert.equal(floored.halts, 1);
  // both resume at R_min (the rate is clamped either way)
  assert.equal(measured.f.rates.at(-1), 1e9);
  assert.equal(floored.f.rates.at(-1), 1e9);
  // the excess, 99 packets of 1056 wire bytes, drained at R (99 T) or at R_min (99 T x R / R_min)
  assert.ok(Math.abs(measured.halt - 99 * T) < 0.01 * 99 * T, `measured halt ${measured.halt / US} us`);
  assert.ok(Math.abs(floored.halt - (99 * T * R) / 1e9) < 0.01 * 99 * T, `floored halt ${floored.halt / US} us`);
  assert.ok(floored.halt < measured.halt);
});
