/**
 * Fabric behaviour: serialization and propagation, PFC losslessness, lossy
 * recovery, dynamic threshold, ECMP. Each test asserts a number the network
 * model implies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { dumbbell, fatTreePreset, star } from '../src/net/topology/index.js';
import { MS, NS, SEC, US } from '../src/engine/units.js';
import { input, net } from './helpers/sim.js';
import type { FlowSpec } from '../src/workload/types.js';

const G100 = 100e9;

test('a single flow completes in exactly its serialization + propagation time, and in its ideal FCT', () => {
  const topo = star({ hosts: 2, rateBps: G100, delayPs: 1 * US });
  const bytes = 1_000_000;
  const n = net('hpcc', { transport: { txTimeQuantization: 'none' } });
  const out = simulate(input(topo, [{ src: 0, dst: 1, bytes, startPs: 0 }], { net: n }));
  assert.equal(out.fct.length, 1);
  const row = out.fct[0]!;
  // n data packets of 1048 B leave back to back; the last is stored and forwarded once more;
  // its 60-B ACK crosses two links back: (npkt + 1)·ser(data) + 2·ser(ack) + 4·prop
  const ser = (b: number): number => (b * 8 * SEC) / G100;
  const npkt = bytes / 1000;
  const expected = (npkt + 1) * ser(1048) + 2 * ser(60) + 4 * US;
  assert.equal(row.fctPs, Math.round(expected));
  // D-HPCC ideal FCT = pairRtt (2·prop + 1000-B ser per hop) + (size + 48 B/packet)·8/bw
  const ideal = 4 * US + 2 * ser(1000) + ((bytes + npkt * 48) * 8 * SEC) / G100;
  assert.equal(row.idealFctPs, Math.round(ideal));
  assert.ok(Math.abs(row.fctPs / row.idealFctPs - 1) < 1e-3, `fct ${row.fctPs} vs ideal ${row.idealFctPs}`);
  assert.equal(row.slowdown, 1); // clamped at 1 in the D-HPCC profile
  assert.equal(out.totals.retransmittedPackets, 0);
});

test('OSCAR-profile ideal FCT is size·8/line rate + propagation RTT (docs/network-model.md §13.1)', () => {
  const topo = star({ hosts: 2, rateBps: G100, delayPs: 3 * US });
  const out = simulate(input(topo, [{ src: 0, dst: 1, bytes: 150_000, startPs: 0 }], { net: net('oscar') }));
  const row = out.fct[0]!;
  assert.equal(row.idealFctPs, 12 * US + 12 * US);
  // 150 packets of 1054 B at 84 ns, +1 store-and-forward, +2 ACKs of 64 B at 5 ns, + 12 us propagation
  assert.equal(row.fctPs, 151 * 84 * NS + 2 * 5 * NS + 12 * US);
});

test('two long flows on one bottleneck fill it and get equal shares', () => {
  const topo = star({ hosts: 3, rateBps: G100, delayPs: 1 * US });
  const flows: FlowSpec[] = [
    { src: 0, dst: 2, bytes: 20_000_000, startPs: 0 },
    { src: 1, dst: 2, bytes: 20_000_000, startPs: 0 },
  ];
  const out = simulate(
    input(topo, flows, {
      net: net('oscar'),
      cc: 'hpcc',
      stopAtPs: 2 * MS,
      metrics: { throughputPorts: [{ node: 3, port: 2 }], throughputIntervalPs: 100 * US, flowThroughput: [], flowThroughputIntervalPs: 100 * US },
    }),
  );
  // skip the first 500 us of convergence
  const tp = out.throughput[0]!.v.slice(5);
  const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
  const link = mean(tp);
  assert.ok(link > 0.9 * G100, `bottleneck carries ${link / 1e9} Gb/s`);
  const a = mean(out.flowThroughput[0]!.v.slice(5));
  const b = mean(out.flowThroughput[1]!.v.slice(5));
  // goodput sums to the line rate less headers (1000 of 1096 B with HPCC's INT) and HPCC's 95 % target
  assert.ok(a + b > 0.8 * G100, `goodput ${(a + b) / 1e9} Gb/s`);
  assert.ok(Math.abs(a - b) / (a + b) < 0.05, `shares ${a / 1e9} vs ${b / 1e9} Gb/s`);
});

function incast(senders: number, bytes: number): { topo: ReturnType<typeof star>; flows: FlowSpec[] } {
  const topo = star({ hosts: senders + 1, rateBps: G100, delayPs: 1 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < senders; i++) flows.push({ src: i, dst: senders, bytes, startPs: 0 });
  return { topo, flows };
}

test('with PFC, a 64:1 incast of 1 MB flows loses nothing, delivers every byte once and pauses senders', () => {
  const { topo, flows } = incast(64, 1_000_000);
  const n = net('oscar', { switch: { bufferBytes: 4 * 1024 * 1024 } });
  const out = simulate(input(topo, flows, { net: n }));
  assert.equal(out.totals.finished, 64);
  assert.equal(out.totals.drops, 0);
  assert.equal(out.totals.retransmittedPackets, 0);
  assert.equal(out.totals.timeouts, 0);
  // exactly one transmission per packet
  assert.equal(out.totals.dataPacketsSent, 64 * 1000);
  const sw = out.nodes.find((c) => c.node === 65)!;
  assert.ok(sw.pausesSent > 0, 'switch sent PAUSE frames');
  const hostPausesReceived = out.nodes.filter((c) => c.node < 64).reduce((s, c) => s + c.pausesReceived, 0);
  assert.equal(hostPausesReceived, sw.pausesSent);
  // the receiver link is the bottleneck: 64 000 packets of 1054 B at 84 ns each (roundHalfUp)
  const last = Math.max(...out.fct.map((r) => r.finishPs));
  assert.ok(last >= 64_000 * 84 * NS, `last finish ${last}`);
  assert.ok(last < 1.02 * 64_000 * 84 * NS + 50 * US, `bottleneck not saturated: ${last}`);
});

test('without PFC the same incast drops, retransmits and still completes', () => {
  const { topo, flows } = incast(64, 1_000_000);
  for (const profile of ['oscar', 'hpcc'] as const) {
    const n = net(profile, { switch: { bufferBytes: 4 * 1024 * 1024, pfcEnabled: false } });
    const out = simulate(input(topo, flows, { net: n }));
    assert.ok(out.totals.drops > 0, `${profile}: drops ${out.totals.drops}`);
    assert.ok(out.totals.retransmittedPackets > 0, `${profile}: retransmissions`);
    assert.equal(out.totals.finished, 64, `${profile}: finished ${out.totals.finished}`);
    assert.equal(out.totals.pausesSent, 0);
    assert.equal(out.unfinished.length, 0);
  }
});

test('dynamic threshold caps a single congested queue at alpha/(1+alpha) of the free buffer', () => {
  // one 100 G sender into a 10 G bottleneck: one ingress (port, queue) fills the shared buffer
  const topo = dumbbell({ left: 1, right: 1, hostRateBps: G100, bottleneckRateBps: 10e9, delayPs: 1 * US });
  for (const shift of [1, 2, 3]) {
    const buffer = 2_000_000;
    const n = net('oscar', {
      switch: { bufferBytes: buffer, pfcEnabled: false, dtMode: 'fixedShift', dtShift: shift, mmuHeaderOffset: 0, queueHeaderOffset: 0 },
    });
    const out = simulate(
      input(topo, [{ src: 0, dst: 1, bytes: 5_000_000, startPs: 0 }], {
        net: n,
        stopAtPs: 1 * MS,
        metrics: { queuePorts: [{ node: 2, port: 1 }], queueIntervalPs: 1 * US },
      }),
    );
    // shared pool of switch A, which has 2 ports (docs/network-model.md §11.2 D-OSCAR layout; no headroom when lossy)
    const pool = buffer - 2 * 8 * 4096;
    const alpha = 1 / 2 ** shift;
    const cap = (alpha / (1 + alpha)) * pool + 4096;
    const maxQ = Math.max(...out.queues[0]!.v);
    assert.ok(out.totals.drops > 0, 'the cap is enforced by dropping');
    assert.ok(Math.abs(maxQ - cap) <= 2 * 1054, `shift ${shift}: queue peaked at ${maxQ}, expected ${cap.toFixed(0)}`);
  }
});

test('ECMP spreads flows over the equal-cost uplinks; spraying splits one flow evenly', () => {
  const topo = fatTreePreset('oscar320');
  const flows: FlowSpec[] = [];
  // 16 hosts of edge 320 (pod 0) each send 16 small flows to hosts of pod 1
  for (let s = 0; s < 16; s++) for (let k = 0; k < 16; k++) flows.push({ src: s, dst: 64 + ((s * 16 + k) % 64), bytes: 20_000, startPs: k * 10 * US });
  const out = simulate(input(topo, flows, { net: net('oscar') }));
  assert.equal(out.totals.finished, flows.length);
  // edge 320's uplinks are its ports 16..19 (toward aggs 340..343)
  const up = out.ports.filter((p) => p.node === 320 && p.peer >= 340 && p.peer <= 343).map((p) => p.txBytes);
  assert.equal(up.length, 4);
  const total = up.reduce((a, b) => a + b, 0);
  for (const b of up) assert.ok(b > 0.15 * total && b < 0.35 * total, `uplink share ${(b / total).toFixed(3)}`);

  const spray = net('oscar', { switch: { loadBalancing: 'spray' }, transport: { nackRule: 'rearmOnInOrder' } });
  const one = simulate(input(topo, [{ src: 0, dst: 64, bytes: 4_000_000, startPs: 0 }], { net: spray, cc: 'none', params: { window: 'bdp' } }));
  const sup = one.ports.filter((p) => p.node === 320 && p.peer >= 340 && p.peer <= 343).map((p) => p.txBytes);
  const st = sup.reduce((a, b) => a + b, 0);
  for (const b of sup) assert.ok(Math.abs(b / st - 0.25) < 0.03, `sprayed share ${(b / st).toFixed(3)}`);
  assert.equal(one.totals.finished, 1);
});

test('ECMP seed: 0 keeps the default paths, another seed redraws them (same seed, same paths), spreading as well', () => {
  const topo = fatTreePreset('oscar320');
  const flows: FlowSpec[] = [];
  // 16 hosts of edge 320 each send 4 flows to hosts of pod 1, all at once
  for (let s = 0; s < 16; s++) for (let k = 0; k < 4; k++) flows.push({ src: s, dst: 64 + ((s * 4 + k) % 64), bytes: 20_000, startPs: 0 });
  const uplinks = (ecmpSeed?: number): number[] => {
    const n = net('oscar', ecmpSeed === undefined ? {} : { switch: { ecmpSeed } });
    const out = simulate(input(topo, flows, { net: n }));
    assert.equal(out.totals.finished, flows.length);
    // edge 320's uplinks toward aggs 340..343, in bytes
    return out.ports.filter((p) => p.node === 320 && p.peer >= 340 && p.peer <= 343).map((p) => p.txBytes);
  };
  const dflt = uplinks();
  assert.deepEqual(uplinks(0), dflt, 'seed 0 is the default');
  const seven = uplinks(7);
  assert.notDeepEqual(seven, dflt, 'another seed moves flows to other uplinks');
  assert.deepEqual(uplinks(7), seven, 'deterministic per seed');
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  assert.equal(sum(seven), sum(dflt), 'the same bytes leave the edge, only their uplinks change');
  for (const b of seven) assert.ok(b > 0.1 * sum(seven) && b < 0.4 * sum(seven), `uplink share ${(b / sum(seven)).toFixed(3)}`);
});

test('a link failure stalls traffic and the rate change takes effect at the given time', () => {
  const topo = dumbbell({ left: 1, right: 1, hostRateBps: G100, bottleneckRateBps: G100, delayPs: 1 * US });
  const inp = input(topo, [{ src: 0, dst: 1, bytes: 2_000_000, startPs: 0 }], {
    net: net('oscar'),
    metrics: { throughputPorts: [{ node: 2, port: 1 }], throughputIntervalPs: 10 * US },
  });
  inp.linkEvents = [
    { atPs: 50 * US, a: 2, b: 3, rateBps: 0 },
    { atPs: 100 * US, a: 2, b: 3, rateBps: 50e9 },
  ];
  const out = simulate(inp);
  assert.equal(out.totals.finished, 1);
  const tp = out.throughput[0]!;
  const at = (t: number): number => tp.v[tp.t.findIndex((x) => x >= t)]!;
  assert.ok(at(40 * US) > 90e9);
  assert.equal(at(80 * US), 0);
  assert.ok(Math.abs(at(150 * US) - 50e9) < 2e9, `after the change: ${at(150 * US)}`);
  // 2 MB: ~50 us at 100 G, 50 us down, rest at 50 G
  assert.ok(out.fct[0]!.fctPs > 100 * US);
});

test('ACK coalescing sends one ACK per n packets and still completes every flow', () => {
  const topo = star({ hosts: 2, rateBps: G100, delayPs: 1 * US });
  const flows: FlowSpec[] = [{ src: 0, dst: 1, bytes: 100_000, startPs: 0 }];
  const per = simulate(input(topo, flows, { net: net('oscar') }));
  const coal = simulate(input(topo, flows, { net: net('oscar', { transport: { ackEvery: 4 } }) }));
  const acksSent = (o: typeof per): number => o.ports.find((p) => p.node === 1)!.txPackets;
  assert.equal(acksSent(per), 100);
  assert.equal(acksSent(coal), 25);
  assert.equal(coal.totals.finished, 1);
  // the last ACK covers the last packet, so completion is not delayed
  assert.equal(coal.fct[0]!.fctPs, per.fct[0]!.fctPs);
});

test('PFC with pause quanta (D-OSCAR frames) is lossless too: pauses expire or are refreshed, resumes cancel them', () => {
  const { topo, flows } = incast(16, 1_000_000);
  const n = net('oscar', { switch: { bufferBytes: 1024 * 1024, pfcMode: 'quanta' } });
  const out = simulate(input(topo, flows, { net: n }));
  assert.equal(out.totals.finished, 16);
  assert.equal(out.totals.drops, 0);
  assert.equal(out.totals.dataPacketsSent, 16 * 1000);
  const sw = out.nodes.find((c) => c.node === 17)!;
  assert.ok(sw.pausesSent > 0 && sw.resumesSent > 0);
  const last = Math.max(...out.fct.map((r) => r.finishPs));
  assert.ok(last < 1.02 * 16_000 * 84 * NS + 50 * US, `bottleneck not saturated: ${last}`);
});

test('OSCAR ideal FCT classes pairs by host IP (id + 1), as the artifact notebooks do (docs/network-model.md §13.1)', () => {
  const topo = fatTreePreset('oscar320');
  const flows: FlowSpec[] = [
    { src: 0, dst: 1, bytes: 1000, startPs: 0 }, // same rack either way: 4 us
    { src: 15, dst: 16, bytes: 1000, startPs: 0 }, // racks 0 and 1, but IPs 16 and 17 share a rack: 4 us
    { src: 14, dst: 15, bytes: 1000, startPs: 0 }, // same rack, but IPs 15 and 16 do not: 8 us
    { src: 319, dst: 0, bytes: 1000, startPs: 0 }, // IP 320 is past the last rack: 12 us
  ];
  const ideal = (n: ReturnType<typeof net>): number[] => {
    const out = simulate(input(topo, flows, { net: n }));
    return [...out.fct].sort((a, b) => a.id - b.id).map((r) => r.idealFctPs - 80 * NS); // less 1000 B at 100 G
  };
  assert.deepEqual(ideal(net('oscar', { metrics: { oscarIdealIndexOffset: 1 } })), [4 * US, 4 * US, 8 * US, 12 * US]);
  // the default, offset 0: the topologically correct classes
  assert.equal(net('oscar').metrics.oscarIdealIndexOffset, 0);
  assert.deepEqual(ideal(net('oscar')), [4 * US, 8 * US, 4 * US, 12 * US]);
});
