/**
 * The baseline CCs OSCAR compares with (docs/algorithms.md §9.2-9.6): the
 * switch features they need (DCTCP's step marking, Poseidon's MPD short INT),
 * their header sizes, and the steady states the references produce on a 4:1
 * star of long flows (100 Gb/s, 3 us links: 12 us base RTT, the OSCAR
 * micro-benchmark shape, docs/network-model.md §14). Reduced durations (a few ms).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { findCc } from '../src/cc/registry.js';
import { parseSpec } from '../src/experiment/spec/resolve.js';
import { SpecError } from '../src/engine/errors.js';
import { simulate } from '../src/sim/simulate.js';
import { Scheduler } from '../src/engine/scheduler.js';
import { Rng } from '../src/engine/rng.js';
import { NetContext } from '../src/net/context.js';
import { Network } from '../src/net/network.js';
import { FLAG_CE, FLAG_ECT, PKT_DATA } from '../src/net/packet.js';
import { buildPortMap, computeRoutes, star } from '../src/net/topology/index.js';
import { MIB, MS, US } from '../src/engine/units.js';
import { jainIndex, mean } from '../src/metrics/stats.js';
import type { NetworkConfig, ProfileName } from '../src/net/config.js';
import type { SimOutput } from '../src/sim/types.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';
import { CLI } from './helpers/cli.js';

const C = 100e9;
const N = 4;
/** D-OSCAR base RTT on the star, plain 64-B ACKs: 4 x 3 us + 2 hops x (84 + 5 ns) */
const RTT_PLAIN = 12e-6 + 2 * (84 + 5) * 1e-9;

function longFlows(profile: ProfileName, cc: string, params: Record<string, unknown>, stopPs: number, n = N): SimOutput {
  const topo = star({ hosts: n + 1, rateBps: C, delayPs: 3 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < n; i++) flows.push({ src: i, dst: n, bytes: 1e12, startPs: 0 });
  return simulate(
    input(topo, flows, {
      net: net(profile, { switch: { bufferBytes: 100 * MIB } }),
      cc,
      params,
      stopAtPs: stopPs,
      metrics: {
        queuePorts: [{ node: n + 1, port: n }],
        queueIntervalPs: 1 * US,
        throughputPorts: [{ node: n + 1, port: n }],
        throughputIntervalPs: 100 * US,
        flowThroughput: [],
        flowThroughputIntervalPs: 500 * US,
      },
    }),
  );
}

const tail = (v: number[]): number[] => v.slice(Math.floor(v.length / 2));
const linkRate = (out: SimOutput): number => mean(tail(out.throughput[0]!.v));

// ------------------------------------------------------------------ switch side

function rig(cfg: NetworkConfig, features: ConstructorParameters<typeof Network>[6]): { network: Network; ctx: NetContext } {
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
  const ctx = new NetContext(new Scheduler(), cfg.transport.txTimeQuantization);
  const pm = buildPortMap(topo);
  return { network: new Network(ctx, topo, cfg, pm, computeRoutes(topo, pm), new Rng(3), features), ctx };
}

function dataPkt(ctx: NetContext, size: number): number {
  const pk = ctx.pool;
  const p = pk.alloc(PKT_DATA);
  pk.setDst(p, 2);
  pk.setSize(p, size);
  pk.setAux(p, size);
  pk.setPrio(p, 1);
  pk.setFlag(p, FLAG_ECT, true);
  return p;
}

test("DCTCP's own marking (kmin = kmax = 30 KB per 10 G, pmax 1) replaces the profile's RED: a step at 300 KB on a 100 G port", () => {
  const dctcp = findCc('dctcp')!;
  const cfg = net('hpcc');
  for (const [queued, expect] of [
    [299, 0],
    [302, 1],
  ] as const) {
    const { network, ctx } = rig(cfg, { int: false, ecn: true, ecnMarking: dctcp.needs.ecnMarking! });
    const sw = network.switches[3]!;
    const out = sw.ports[2]!;
    out.busyUntil = 1e15;
    for (let i = 0; i < queued; i++) sw.receive(dataPkt(ctx, 1000), 0);
    let marked = 0;
    for (let i = 0; i < 200; i++) {
      const p = sw.pull(out);
      if (ctx.pool.has(p, FLAG_CE)) marked++;
      ctx.pool.release(p);
      sw.receive(dataPkt(ctx, 1000), 0);
    }
    // D-HPCC compares the queue after removal: 298 000 B never marks (profile RED would: 400 KB kmin is above,
    // so the profile alone would mark neither); 301 000 B > 300 000 always marks (the profile's pmax 0.2 would not)
    assert.equal(marked / 200, expect, `${queued} packets queued`);
  }
});

test('Poseidon short INT: each switch raises MPD to its queueing delay in whole us; headers 12 B on data and ACK', () => {
  const cfg = net('oscar', { switch: { queueHeaderOffset: 0 } });
  // (the profile's RED off: the test reads the MPD stamp alone)
  const { network, ctx } = rig({ ...cfg, switch: { ...cfg.switch, ecn: { ...cfg.switch.ecn, enabled: false } } }, { int: false, mpd: true });
  const sw = network.switches[3]!;
  const out = sw.ports[2]!;
  out.busyUntil = 1e15;
  // 75 packets of 1000 B queue behind the first: after its dequeue 74 000 B = 5.92 us at 100 G -> 5
  for (let i = 0; i < 75; i++) sw.receive(dataPkt(ctx, 1000), 0);
  const p = sw.pull(out);
  assert.equal(ctx.pool.mpd(p), 5);
  // a packet already carrying a larger MPD keeps it
  const q = sw.pull(out);
  ctx.pool.setMpd(q, 9);
  const r = dataPkt(ctx, 1000);
  ctx.pool.setMpd(r, 9);
  sw.receive(r, 0);
  let last = -1;
  for (let i = 0; i < 74; i++) last = sw.pull(out);
  assert.equal(ctx.pool.mpd(last), 9);
  const pos = findCc('poseidon')!;
  assert.equal(pos.dataHeaderBytes(cfg, {} as never), 12);
  assert.equal(pos.ackHeaderBytes(cfg, {} as never), 12);
});

// ------------------------------------------------------------------ HPCC* alias

test('hpcc-star is hpcc with eta 1.5: resolved default, and a byte-identical run', () => {
  const star = findCc('hpcc-star')!;
  assert.equal((star.params.parse({}) as { eta: number }).eta, 1.5);
  assert.throws(() => star.params.parse({ bogus: 1 }));
  const a = longFlows('oscar', 'hpcc-star', {}, 1 * MS);
  const b = longFlows('oscar', 'hpcc', { eta: 1.5 }, 1 * MS);
  assert.deepEqual(a.queues, b.queues);
  assert.deepEqual(a.flowThroughput, b.flowThroughput);
  assert.ok(a.events > 10_000);
});

test('`ccsim list ccs` shows the hpcc-star alias with its resolved default eta = 1.5', () => {
  const cli = CLI;
  const r = spawnSync(process.execPath, [cli, 'list', 'ccs'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const from = r.stdout.indexOf('  hpcc-star:');
  assert.ok(from >= 0, 'hpcc-star listed');
  // its block: up to the next CC's line (two spaces, then a name)
  const rest = r.stdout.slice(from + 1);
  const next = rest.search(/\n  [a-z]/);
  const block = next < 0 ? rest : rest.slice(0, next);
  assert.match(block, /\n {6}eta = 1\.5 /);
  for (const name of ['dctcp', 'timely', 'swift', 'poseidon', 'oracle']) assert.match(r.stdout, new RegExp(`^  ${name}: `, 'm'));
});

// ------------------------------------------------------------------ steady states

for (const profile of ['hpcc', 'oscar'] as const) {
  test(`DCTCP (${profile}) holds the queue at its marking step K = 300 KB, fills the link, no PFC`, () => {
    const out = longFlows(profile, 'dctcp', {}, 4 * MS);
    const q = tail(out.queues[0]!.v);
    assert.ok(mean(q) > 250_000 && mean(q) < 330_000, `mean queue ${mean(q)} B`);
    assert.ok(Math.max(...q) < 400_000, `max queue ${Math.max(...q)} B`);
    assert.ok(linkRate(out) > 0.98 * C, `link ${linkRate(out) / 1e9} Gb/s`);
    assert.equal(out.totals.pausesSent, 0);
    assert.ok(out.nodes.reduce((s, n) => s + n.ecnMarked, 0) > 100, 'marks');
  });
}

test('Swift (swift-25.json) holds the queue at its scaled target delay, shares fairly, fills the link', () => {
  const out = longFlows('oscar', 'swift', {}, 5 * MS);
  const q = mean(tail(out.queues[0]!.v));
  // in equilibrium each window is (BDP + Q)/4; target queueing delay = 25 us x (1 + fs term of that window)
  const bdp = (C * RTT_PLAIN) / 8;
  const x = (bdp + q) / N / bdp;
  const gamma = 1 / (1 / Math.sqrt(0.1) - 1);
  const targetUs = 25 * (1 + Math.min(4, Math.max(0, 4 * gamma * (1 / Math.sqrt(x) - 1))));
  const qUs = (q * 8) / C / 1e-6;
  assert.ok(Math.abs(qUs - targetUs) < 0.08 * targetUs, `queueing delay ${qUs} us vs target ${targetUs} us`);
  assert.ok(targetUs > 26, 'flow scaling adds to the 25 us base target with 4 flows');
  assert.ok(linkRate(out) > 0.99 * C, `link ${linkRate(out) / 1e9} Gb/s`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.99, `Jain ${jainIndex(shares)}`);
});

test('Poseidon holds every hop delay near its rate-dependent target mpt = ln(1/r)·P/ln(1000) + K', () => {
  const out = longFlows('oscar', 'poseidon', {}, 4 * MS);
  const q = mean(tail(out.queues[0]!.v));
  // each flow runs at r = 1/4 of the line rate: mpt = ln 4 x 40/ln 1000 + 2 = 10.03 us; MPD is truncated to whole us
  const mpt = (Math.log(4) * 40) / Math.log(1000) + 2;
  const qUs = (q * 8) / C / 1e-6;
  assert.ok(qUs > mpt && qUs < mpt + 1.5, `queueing delay ${qUs} us vs mpt ${mpt} us`);
  assert.ok(linkRate(out) > 0.99 * C, `link ${linkRate(out) / 1e9} Gb/s`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.99, `Jain ${jainIndex(shares)}`);
  assert.equal(out.totals.pausesSent, 0);
});

test('TIMELY (HPCC simulator) keeps the RTT under T_high = 500 us and the link mostly busy; one flow alone stays at line rate', () => {
  const out = longFlows('hpcc', 'timely', {}, 5 * MS);
  const q = tail(out.queues[0]!.v);
  assert.ok(Math.max(...q) < (500e-6 * C) / 8, `max queue ${Math.max(...q)} B`);
  assert.ok(linkRate(out) > 0.75 * C, `link ${linkRate(out) / 1e9} Gb/s`);
  const solo = longFlows('hpcc', 'timely', {}, 1 * MS, 1);
  assert.ok(mean(tail(solo.throughput[0]!.v)) > 0.99 * C);
  assert.ok(Math.max(...solo.queues[0]!.v) < 3_000);
});

test('TIMELY (OSCAR artifact, T_low 32 us / T_high 16 us as configured) cuts above 32 us of RTT and otherwise climbs by delta per RTT', () => {
  const out = longFlows('oscar', 'timely', {}, 4 * MS);
  // after the initial overshoot no queue beyond (32 - 12) us of the link builds up
  const q = out.queues[0]!.v.slice(1000);
  assert.ok(Math.max(...q) < (22e-6 * C) / 8, `max queue ${Math.max(...q)} B`);
  // additive recovery: aggregate gains ~4 flows x 50 Mb/s per ~12 us RTT (~16 Gb/s per ms) while below T_low
  const tp = out.throughput[0]!.v;
  const slope = (tp[25]! - tp[15]!) / 1e9; // Gb/s gained over 1 ms
  assert.ok(slope > 8 && slope < 20, `recovery slope ${slope} Gb/s per ms`);
});

test('DCQCN with a fixed one-BDP window (OSCAR App. C.6) bounds a 16:1 incast queue by the windows', () => {
  const n = 16;
  const run = (window: string): SimOutput => longFlows('oscar', 'dcqcn', { window }, 300 * US, n);
  const fixed = run('bdp');
  const free = run('none');
  const bdp = (C * RTT_PLAIN) / 8;
  const maxFixed = Math.max(...fixed.queues[0]!.v);
  const maxFree = Math.max(...free.queues[0]!.v);
  assert.ok(maxFixed <= n * bdp, `windowed peak ${maxFixed} B vs ${n} BDP`);
  assert.ok(maxFree > 1.5 * maxFixed, `rate-only peak ${maxFree} B`);
  assert.equal(findCc('dcqcn')!.initialCwnd({ baseBdpBytes: 1234 } as never, { window: 'bdp' } as never), 1234);
});

test('oracle (test instrument) converges in one step, one reaction delay after the scripted change', () => {
  const topo = star({ hosts: N + 1, rateBps: C, delayPs: 3 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < N; i++) flows.push({ src: i, dst: N, bytes: 1e12, startPs: i === 0 ? 0 : 200 * US });
  const script = [
    { atPs: 0, flows: 1 },
    { atPs: 200 * US, flows: N },
  ];
  const out = simulate(
    input(topo, flows, {
      cc: 'oracle',
      params: { script },
      stopAtPs: 400 * US,
      metrics: { queuePorts: [{ node: N + 1, port: N }], queueIntervalPs: 1 * US },
    }),
  );
  const q = out.queues[0]!.v;
  const bdp = (C * RTT_PLAIN) / 8;
  // alone: rate-bound at line rate (window 2 BDP after the first reaction), no queue
  assert.ok(Math.max(...q.slice(60, 200)) < 3_000, 'no queue while alone');
  // the burst: windows 2 BDP + 3 x 1 BDP in flight -> a 4-BDP queue, window-bound, until the reaction at 250 us
  assert.ok(Math.abs(mean(q.slice(235, 250)) - 4 * bdp) < 0.1 * bdp, `burst queue ${mean(q.slice(235, 250)) / bdp} BDP`);
  // then windows of 2 BDP / 4 and rates C / 4: the queue drains to the 1-BDP target in one step and stays there
  assert.ok(Math.abs(mean(q.slice(330, 400)) - bdp) < 0.05 * bdp, `queue after the step ${mean(q.slice(330, 400)) / bdp} BDP`);
});

test('bad parameters of the baseline CCs are spec errors naming the field and value', () => {
  const base = {
    name: 'x',
    topology: { type: 'star', hosts: 2, rate: '100Gbps', delay: '1us' },
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1000B', start: 0 }] }],
  };
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['swift', { maxMdf: 2 }, /cc\.params\.maxMdf: 2/],
    ['swift', { scalingMin: 1 }, /cc\.params\.scalingMin: 1/],
    ['poseidon', { m: -1 }, /cc\.params\.m: -1/],
    ['timely', { beta: 0 }, /cc\.params\.beta: 0/],
    ['timely', { variant: 'paper' }, /cc\.params\.variant: "paper"/],
    ['dctcp', { g: 2 }, /cc\.params\.g: 2/],
    ['hpcc-star', { eta: -1 }, /cc\.params\.eta: -1/],
    ['hpcc-star', { bogus: 1 }, /cc\.params\.bogus: 1/],
    ['oracle', { script: [{ atPs: 0, flows: 0 }] }, /cc\.params\.script\[0\]\.flows: 0/],
  ];
  for (const [name, params, re] of cases) {
    assert.throws(
      () => parseSpec({ ...base, cc: { name, params } }),
      (e: unknown) => e instanceof SpecError && re.test(e.message),
      `${name} ${JSON.stringify(params)}`,
    );
  }
});

test('Swift rate form (the older rate-based Swift, docs/network-model.md §16): no window, an AIMD sawtooth cut at the same delay target, fills the link', () => {
  assert.equal(findCc('swift')!.initialCwnd({ baseBdpBytes: 1000 } as never, { form: 'rate' } as never), Infinity);
  const out = longFlows('oscar', 'swift', { form: 'rate' }, 12 * MS);
  const maxUs = (Math.max(...tail(out.queues[0]!.v)) * 8) / C / 1e-6;
  // each flow at u = 1/4: target = 25 us x (1 + 4·γ·(1/sqrt(0.25) - 1)) above the base RTT; the queue
  // rises by AI until the delay passes it, then a cut of up to MaxMdf drains it
  const gamma = 1 / (1 / Math.sqrt(0.1) - 1);
  const target = 25 * (1 + 4 * gamma * (1 / Math.sqrt(0.25) - 1));
  assert.ok(maxUs > target && maxUs < 1.6 * target, `queue peaks at ${maxUs} us vs target ${target} us`);
  assert.ok(linkRate(out) > 0.95 * C, `link ${linkRate(out) / 1e9} Gb/s`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.99, `Jain ${jainIndex(shares)}`);
});
