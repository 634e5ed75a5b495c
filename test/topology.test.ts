import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { GBPS, NS, US } from '../src/engine/units.js';
import {
  PathOracle,
  TOPOLOGY_PRESETS,
  accCbd,
  accTree,
  buildPortMap,
  computeRoutes,
  dumbbell,
  fatTree,
  fatTreePreset,
  nextHopPorts,
  parkingLot,
  spineLeafPreset,
  star,
  topologyPreset,
  topologyRegistry,
  type TopologyContext,
  validateTopology,
  type FatTreeOptions,
  type PortMap,
  type RouteTable,
  type Topology,
} from '../src/net/topology/index.js';
import { SpecError } from '../src/engine/errors.js';
import { parseSpec } from '../src/experiment/spec/resolve.js';

/** Peer node ids of the next-hop ports of switch n toward host h. */
function nextHopPeers(ports: PortMap, rt: RouteTable, n: number, h: number): number[] {
  return Array.from(nextHopPorts(rt, n, h), (p) => ports.peerNode[ports.portStart[n]! + p]!);
}

function neighbours(topo: Topology, n: number): number[] {
  const out: number[] = [];
  for (const l of topo.links) {
    if (l.a === n) out.push(l.b);
    else if (l.b === n) out.push(l.a);
  }
  return out;
}

function setup(topo: Topology): { ports: PortMap; rt: RouteTable; oracle: PathOracle } {
  const ports = buildPortMap(topo);
  return { ports, rt: computeRoutes(topo, ports), oracle: new PathOracle(topo, ports) };
}

test('oscar320 (T-FT320): ids, counts, wiring', () => {
  const t = fatTreePreset('oscar320');
  assert.equal(t.name, 'oscar320');
  assert.equal(t.nodes.length, 376);
  assert.equal(t.links.length, 480);
  assert.equal(t.hostCount, 320);
  const byLayer = (l: string): number[] => t.nodes.filter((n) => n.layer === l).map((n) => n.id);
  const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  assert.deepEqual(byLayer('host'), range(0, 319));
  assert.deepEqual(byLayer('tor'), range(320, 339));
  assert.deepEqual(byLayer('agg'), range(340, 359));
  assert.deepEqual(byLayer('core'), range(360, 375));
  assert.ok(t.nodes.slice(320).every((n) => n.kind === 'switch'));
  // host links first, in host order
  for (let h = 0; h < 320; h++) assert.deepEqual([t.links[h]!.a, t.links[h]!.b], [h, 320 + Math.floor(h / 16)]);
  assert.deepEqual(
    neighbours(t, 320).filter((n) => n >= 320),
    [340, 341, 342, 343],
  );
  assert.deepEqual(neighbours(t, 320).filter((n) => n < 320), range(0, 15));
  assert.deepEqual(neighbours(t, 340), [320, 321, 322, 323, 360, 364, 368, 372]);
  assert.deepEqual(neighbours(t, 343), [320, 321, 322, 323, 363, 367, 371, 375]);
  assert.deepEqual(neighbours(t, 344).slice(4), [360, 364, 368, 372]); // pod 1, k = 0
  // each core: one agg per pod
  assert.deepEqual(neighbours(t, 360), [340, 344, 348, 352, 356]);
  assert.ok(t.links.every((l, i) => l.delayPs === US && l.rateBps === (i < 320 ? 100 : 400) * GBPS));
  assert.equal(t.links.slice(320, 400).every((l) => l.a >= 320 && l.a < 340 && l.b >= 340 && l.b < 360), true);
  assert.equal(t.links.slice(400).every((l) => l.a >= 340 && l.a < 360 && l.b >= 360), true);
});

test('fatTree blocked wiring is HPCC fat.txt (agg k → cores 4k..4k+3)', () => {
  const t = fatTreePreset('oscar320', { coreWiring: 'blocked' });
  assert.deepEqual(neighbours(t, 340).slice(4), [360, 361, 362, 363]);
  assert.deepEqual(neighbours(t, 343).slice(4), [372, 373, 374, 375]);
  assert.equal(new PathOracle(t, buildPortMap(t)).maxPairRttPs(1000), 12_240 * NS);
});

test('oscar320 routing: hops, ECMP fan-out, D-HPCC RTTs', () => {
  const t = fatTreePreset('oscar320');
  const ports = buildPortMap(t);
  const rt = computeRoutes(t, ports);
  const oracle = new PathOracle(t, ports);
  assert.equal(rt.hostCount, 320);
  assert.equal(rt.routeStart.length, 56 * 320);

  assert.equal(oracle.info(0, 1).hops, 2);
  assert.equal(oracle.info(0, 16).hops, 4);
  assert.equal(oracle.info(0, 64).hops, 6);
  assert.equal(oracle.info(319, 0).hops, 6);
  const cross = oracle.info(0, 64);
  assert.equal(cross.delayPs, 6 * US);
  assert.equal(cross.minRateBps, 100 * GBPS);
  assert.deepEqual(cross.rates, [100, 400, 400, 400, 400, 100].map((g) => g * GBPS));
  assert.deepEqual(oracle.nodes(0, 64), [0, 320, 340, 360, 344, 324, 64]);

  // edge → host in another pod: 4 aggs; same pod: 4 aggs; same rack: the host port
  assert.deepEqual(nextHopPeers(ports, rt, 320, 64), [340, 341, 342, 343]);
  assert.deepEqual(nextHopPeers(ports, rt, 320, 16), [340, 341, 342, 343]);
  assert.deepEqual(nextHopPeers(ports, rt, 320, 5), [5]);
  // agg → other pod: its 4 cores; agg → same pod: one edge
  assert.deepEqual(nextHopPeers(ports, rt, 340, 64), [360, 364, 368, 372]);
  assert.deepEqual(nextHopPeers(ports, rt, 340, 16), [321]);
  assert.deepEqual(nextHopPeers(ports, rt, 340, 0), [320]);
  // core → any host: one agg
  assert.deepEqual(nextHopPeers(ports, rt, 360, 0), [340]);
  assert.deepEqual(nextHopPeers(ports, rt, 375, 319), [359]);
  // ports are local port numbers: edge 320 has hosts on ports 0..15, aggs on 16..19
  assert.deepEqual(Array.from(nextHopPorts(rt, 320, 64)), [16, 17, 18, 19]);
  assert.deepEqual(Array.from(nextHopPorts(rt, 320, 5)), [5]);

  // every switch reaches every host
  for (let i = 0; i < rt.routeCount.length; i++) assert.ok(rt.routeCount[i]! > 0);

  assert.equal(oracle.pairRttPs(0, 1, 1000), 4_160 * NS);
  assert.equal(oracle.pairRttPs(0, 16, 1000), 8_200 * NS);
  assert.equal(oracle.pairRttPs(0, 64, 1000), 12_240 * NS);
  assert.equal(oracle.maxPairRttPs(1000), 12_240 * NS);
  assert.equal(oracle.maxPairBdpBytes(1000), 153_000);
  assert.equal(oracle.maxPairRttPs(0), 12 * US);
});

test('following next hops from any switch reaches the destination in shortest-path hops', () => {
  const t = fatTreePreset('oscar320');
  const { ports, rt, oracle } = setup(t);
  const walk = (src: number, dst: number, choose: number): number => {
    let node = ports.peerNode[ports.portStart[src]!]!; // the host's edge
    let hops = 1;
    while (node !== dst) {
      assert.ok(node >= t.hostCount, `walk ${src}->${dst} reached host ${node}`);
      const nh = nextHopPorts(rt, node, dst);
      assert.ok(nh.length > 0);
      node = ports.peerNode[ports.portStart[node]! + nh[choose % nh.length]!]!;
      hops++;
      assert.ok(hops <= 6);
    }
    return hops;
  };
  for (const [s, d] of [
    [0, 1],
    [0, 17],
    [3, 200],
    [319, 64],
    [100, 101],
    [150, 250],
  ] as const) {
    for (let c = 0; c < 4; c++) assert.equal(walk(s, d, c), oracle.info(s, d).hops);
  }
});

test('port map: port k is the k-th link of the node, peers are consistent', () => {
  const t = fatTreePreset('oscar320');
  const p = buildPortMap(t);
  assert.equal(p.portStart.length, 377);
  assert.equal(p.portStart[376], 960);
  assert.equal(p.portStart[1]! - p.portStart[0]!, 1);
  assert.equal(p.portStart[321]! - p.portStart[320]!, 20);
  assert.equal(p.portStart[341]! - p.portStart[340]!, 8);
  assert.equal(p.portStart[361]! - p.portStart[360]!, 5);
  for (let n = 0; n < 376; n++) {
    for (let f = p.portStart[n]!; f < p.portStart[n + 1]!; f++) {
      const peer = p.peerNode[f]!;
      const back = p.portStart[peer]! + p.peerPort[f]!;
      assert.equal(p.peerNode[back], n);
      assert.equal(p.link[back], p.link[f]);
      const l = t.links[p.link[f]!]!;
      assert.ok((l.a === n && l.b === peer) || (l.b === n && l.a === peer));
    }
  }
  // link order within a node
  const e = p.portStart[320]!;
  assert.deepEqual(Array.from(p.link.subarray(e, e + 20)), [...Array.from({ length: 16 }, (_, i) => i), 320, 321, 322, 323]);
});

test('powertcp256 (artifact topology-256)', () => {
  const t = fatTreePreset('powertcp256');
  assert.equal(t.nodes.length, 276);
  assert.equal(t.links.length, 288);
  assert.equal(t.hostCount, 256);
  assert.deepEqual(
    t.nodes.filter((n) => n.layer === 'tor').map((n) => n.id),
    [256, 257, 258, 259, 260, 261, 262, 263],
  );
  assert.deepEqual(
    t.nodes.filter((n) => n.layer === 'core').map((n) => n.id),
    [272, 273, 274, 275],
  );
  assert.deepEqual(neighbours(t, 256), [...Array.from({ length: 32 }, (_, i) => i), 264, 265]);
  assert.deepEqual(neighbours(t, 264), [256, 257, 272, 273]);
  assert.deepEqual(neighbours(t, 265), [256, 257, 274, 275]);
  assert.deepEqual(neighbours(t, 270), [262, 263, 272, 273]);
  assert.deepEqual(neighbours(t, 275), [265, 267, 269, 271]);
  const { ports, rt, oracle } = setup(t);
  assert.equal(oracle.info(0, 1).hops, 2);
  assert.equal(oracle.info(0, 32).hops, 4);
  assert.equal(oracle.info(0, 64).hops, 6);
  assert.equal(oracle.info(0, 64).delayPs, 14 * US);
  assert.deepEqual(nextHopPeers(ports, rt, 256, 64), [264, 265]);
  assert.deepEqual(nextHopPeers(ports, rt, 264, 64), [272, 273]);
  assert.deepEqual(nextHopPeers(ports, rt, 272, 64), [266]);
  assert.equal(oracle.maxPairRttPs(1000), 28_960 * NS);
  assert.equal(oracle.maxPairBdpBytes(1000), 90_500);
});

test('powertcp256paper: 2 cores, every agg to both', () => {
  const t = fatTreePreset('powertcp256paper');
  assert.equal(t.nodes.length, 274);
  assert.equal(t.links.length, 288);
  assert.deepEqual(neighbours(t, 264), [256, 257, 272, 273]);
  assert.deepEqual(neighbours(t, 265), [256, 257, 272, 273]);
  const { ports, rt, oracle } = setup(t);
  assert.deepEqual(nextHopPeers(ports, rt, 264, 64), [272, 273]);
  assert.equal(oracle.maxPairRttPs(1000), 28_960 * NS);
});

test('ccc250: k = 10 fat tree, max RTT 20.16 us', () => {
  const t = fatTreePreset('ccc250');
  assert.equal(t.hostCount, 250);
  assert.equal(t.nodes.length, 375);
  assert.equal(t.links.length, 250 + 250 + 250);
  const { oracle } = setup(t);
  assert.equal(oracle.maxPairRttPs(1000), 20_160 * NS);
});

test('fatTree oversubscribed agg–core tier', () => {
  const t = fatTreePreset('oscar320', { aggCoreRateBps: 200 * GBPS });
  assert.equal(t.links.filter((l) => l.rateBps === 200 * GBPS).length, 80);
  assert.deepEqual(t.links[480 - 80]!, { a: 340, b: 360, rateBps: 200 * GBPS, delayPs: US });
  assert.deepEqual(t.links[479]!, { a: 359, b: 375, rateBps: 200 * GBPS, delayPs: US });
});

test('star, dumbbell, parking lot, spine-leaf shapes', () => {
  const s = star({ hosts: 16, rateBps: 100 * GBPS, delayPs: 3 * US });
  assert.equal(s.nodes.length, 17);
  assert.equal(s.links.length, 16);
  assert.equal(s.nodes[16]!.layer, 'tor');
  assert.ok(s.links.every((l, i) => l.a === i && l.b === 16));
  const so = setup(s);
  assert.equal(so.oracle.info(3, 7).hops, 2);
  assert.equal(so.oracle.pairRttPs(0, 1, 1000), 12 * US + 160 * NS);
  for (let h = 0; h < 16; h++) assert.deepEqual(nextHopPeers(so.ports, so.rt, 16, h), [h]);

  const d = dumbbell({ left: 3, right: 2, hostRateBps: 10 * GBPS, bottleneckRateBps: 5 * GBPS, delayPs: US });
  assert.equal(d.hostCount, 5);
  assert.equal(d.nodes.length, 7);
  assert.deepEqual(d.links.map((l) => [l.a, l.b]), [
    [0, 5],
    [1, 5],
    [2, 5],
    [3, 6],
    [4, 6],
    [5, 6],
  ]);
  assert.equal(d.links[5]!.rateBps, 5 * GBPS);
  const dOr = setup(d).oracle;
  assert.deepEqual(dOr.info(0, 4), { hops: 3, delayPs: 3 * US, minRateBps: 5 * GBPS, rates: [10e9, 5e9, 10e9] });
  assert.equal(dOr.info(0, 1).hops, 2);

  const p = parkingLot({ switches: 5, hostsPerSwitch: 1, rateBps: 100 * GBPS, delayPs: US });
  assert.equal(p.nodes.length, 10);
  assert.equal(p.links.length, 9);
  for (let i = 0; i < 5; i++) assert.deepEqual(neighbours(p, i), [5 + i]);
  assert.deepEqual(neighbours(p, 6), [1, 5, 7]);
  const po = setup(p);
  assert.deepEqual(po.oracle.nodes(0, 2), [0, 5, 6, 7, 2]);
  assert.deepEqual(nextHopPeers(po.ports, po.rt, 6, 0), [5]);
  const p2 = parkingLot({ switches: 3, hostsPerSwitch: 2, rateBps: 100 * GBPS, delayPs: US });
  assert.deepEqual(neighbours(p2, 7), [2, 3, 6, 8]);

  const sl = spineLeafPreset('oscar64');
  assert.equal(sl.nodes.length, 82);
  assert.equal(sl.hostCount, 64);
  assert.equal(sl.links.length, 64 + 32);
  for (let i = 0; i < 16; i++) {
    assert.equal(sl.nodes[64 + i]!.layer, 'leaf');
    assert.deepEqual(neighbours(sl, 64 + i), [4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3, 80, 81]);
  }
  assert.equal(sl.nodes[81]!.layer, 'spine');
  const slo = setup(sl);
  assert.deepEqual(nextHopPeers(slo.ports, slo.rt, 64, 63), [80, 81]);
  assert.equal(slo.oracle.info(0, 3).hops, 2);
  assert.equal(slo.oracle.info(0, 4).hops, 4);
  assert.equal(slo.oracle.maxPairRttPs(1000), 8_160 * NS);

  const sp = spineLeafPreset('spraying44');
  const spo = setup(sp);
  assert.deepEqual(nextHopPeers(spo.ports, spo.rt, 8, 4), [10, 11, 12, 13]);
  assert.deepEqual(nextHopPeers(spo.ports, spo.rt, 11, 4), [9]);
});

test('ACC CBD unit: shortest paths bounce through a ToR', () => {
  const t = accCbd({ hostsPerTor: 8, rateBps: 100 * GBPS, delayPs: US });
  assert.equal(t.nodes.length, 38);
  assert.equal(t.links.length, 32 + 6);
  const { ports, rt, oracle } = setup(t);
  // T0 = 32 … T3 = 35, L0 = 36, L1 = 37
  assert.deepEqual(neighbours(t, 32).slice(8), [36]);
  assert.deepEqual(neighbours(t, 35).slice(8), [37]);
  assert.equal(oracle.info(0, 24).hops, 6);
  assert.deepEqual(oracle.nodes(0, 24), [0, 32, 36, 33, 37, 35, 24]);
  assert.deepEqual(nextHopPeers(ports, rt, 32, 24), [36]);
  assert.deepEqual(nextHopPeers(ports, rt, 36, 24), [33, 34]);
  assert.deepEqual(nextHopPeers(ports, rt, 33, 24), [37]);
  assert.deepEqual(nextHopPeers(ports, rt, 36, 8), [33]);
  assert.equal(oracle.info(8, 16).hops, 4);
});

test('ACC CBD unit: failed links are configurable; failures that cut off a ToR are errors naming the entry', () => {
  const healthy = accCbd({ hostsPerTor: 2, rateBps: 100 * GBPS, delayPs: US, failedLinks: [] });
  assert.equal(healthy.links.length, 8 + 8);
  const one = accCbd({ hostsPerTor: 2, rateBps: 100 * GBPS, delayPs: US, failedLinks: [['T2', 'L1']] });
  assert.equal(one.links.length, 8 + 7);
  assert.throws(
    () => accCbd({ hostsPerTor: 2, rateBps: 100 * GBPS, delayPs: US, failedLinks: [['L0', 'T1'], ['L1', 'T1']] }),
    /^Error: accCbd\.failedLinks\[1\]: .* disconnect the hosts of T1 from the others/,
  );
  assert.throws(() => accCbd({ hostsPerTor: 2, rateBps: 100 * GBPS, delayPs: US, failedLinks: [['T0', 'T1']] }), /accCbd\.failedLinks\[0\]: .* not an upper–ToR link/);
});

test('ACC Fig. 1 congestion tree: F0 and F1 share SW1-SW3, the bursts meet F1 only at P4', () => {
  const t = accTree({ burstHosts: 15, rateBps: 100 * GBPS, delayPs: 2 * US });
  const { oracle } = setup(t);
  const sw = (k: number): number => 19 + k - 1;
  assert.deepEqual(oracle.nodes(0, 2), [0, sw(1), sw(2), sw(3), sw(4), 2]);
  assert.deepEqual(oracle.nodes(1, 3), [1, sw(1), sw(2), sw(3), sw(4), 3]);
  assert.deepEqual(oracle.nodes(4, 3), [4, sw(4), 3]);
  assert.deepEqual(t.nodes.slice(0, 5).map((n) => n.name), ['S0', 'S1', 'R0', 'R1', 'H1']);
  assert.equal(t.nodes[sw(4)]!.name, 'SW4');
});

test('routes never transit a host; disconnected pairs have no route and a clear error', () => {
  // host 0 is dual-homed on switches 3 (A) and 4 (B); A and B are not linked
  const t: Topology = {
    name: 'split',
    hostCount: 3,
    nodes: [
      { id: 0, kind: 'host', name: 'h0', layer: 'host' },
      { id: 1, kind: 'host', name: 'h1', layer: 'host' },
      { id: 2, kind: 'host', name: 'h2', layer: 'host' },
      { id: 3, kind: 'switch', name: 'A', layer: 'tor' },
      { id: 4, kind: 'switch', name: 'B', layer: 'tor' },
    ],
    links: [
      { a: 0, b: 3, rateBps: 1e9, delayPs: US },
      { a: 0, b: 4, rateBps: 1e9, delayPs: US },
      { a: 1, b: 3, rateBps: 1e9, delayPs: US },
      { a: 2, b: 4, rateBps: 1e9, delayPs: US },
    ],
  };
  const { ports, rt, oracle } = setup(t);
  assert.equal(nextHopPorts(rt, 3, 2).length, 0);
  assert.equal(nextHopPorts(rt, 4, 1).length, 0);
  assert.deepEqual(nextHopPeers(ports, rt, 3, 0), [0]);
  assert.deepEqual(nextHopPeers(ports, rt, 4, 2), [2]);
  assert.throws(() => oracle.info(1, 2), { message: 'no path from host 1 to host 2' });
  assert.equal(oracle.info(0, 2).hops, 2);
  assert.equal(oracle.info(1, 0).hops, 2);
  assert.equal(oracle.maxPairRttPs(0), 4 * US);
  assert.throws(() => oracle.info(1, 1), /same host 1/);
  assert.throws(() => oracle.info(0, 3), /dst 3 is not a host id/);
});

test('parallel links give one next hop per link', () => {
  const t: Topology = {
    name: 'parallel',
    hostCount: 2,
    nodes: [
      { id: 0, kind: 'host', name: 'h0', layer: 'host' },
      { id: 1, kind: 'host', name: 'h1', layer: 'host' },
      { id: 2, kind: 'switch', name: 'A', layer: 'tor' },
      { id: 3, kind: 'switch', name: 'B', layer: 'tor' },
    ],
    links: [
      { a: 0, b: 2, rateBps: 1e9, delayPs: US },
      { a: 1, b: 3, rateBps: 1e9, delayPs: US },
      { a: 2, b: 3, rateBps: 1e9, delayPs: US },
      { a: 3, b: 2, rateBps: 2e9, delayPs: US },
    ],
  };
  const { rt, oracle } = setup(t);
  assert.deepEqual(Array.from(nextHopPorts(rt, 2, 1)), [1, 2]);
  assert.deepEqual(Array.from(nextHopPorts(rt, 3, 0)), [1, 2]);
  assert.deepEqual(oracle.pathLinks(0, 1), [0, 2, 1]);
});

test('builders check what only they can (cross-field rules, names); option values are the spec schema\'s job', () => {
  const ft: FatTreeOptions = {
    pods: 2,
    edgesPerPod: 2,
    aggsPerPod: 2,
    hostsPerEdge: 2,
    cores: 2,
    hostRateBps: 1e9,
    fabricRateBps: 1e9,
    hostDelayPs: US,
    edgeAggDelayPs: US,
    aggCoreDelayPs: US,
    coreWiring: 'strided',
  };
  assert.equal(fatTree(ft).nodes.length, 8 + 4 + 4 + 2);
  assert.throws(() => fatTree({ ...ft, cores: 3 }), /fatTree\.cores: must be divisible by aggsPerPod \(2\).*got 3/);
  assert.equal(fatTree({ ...ft, cores: 3, coreWiring: 'full' }).links.length, 8 + 8 + 4 * 3);
  assert.throws(() => topologyRegistry.get('torus'), /unknown topology type "torus" \(known: star, dumbbell, /);
  const ctx: TopologyContext = {
    specDir: '.',
    limits: { hosts: 1e6, links: 1e6, fileBytes: 1e6 },
    error: () => {},
    guard: (_path, fn) => fn(),
    throwIfAny: () => {},
    checkSize: () => {},
  };
  const starDef = topologyRegistry.get('star');
  assert.equal((starDef.build(starDef.schema.parse({ type: 'star', hosts: 4, rate: '1Gbps', delay: 0 }), ctx) as Topology).nodes.length, 5);
  assert.throws(() => topologyPreset('nope'), /unknown "nope"/);
  // the one place option values are checked: the spec schema, naming the spec field and value
  const bad = (topology: unknown, re: RegExp): void => {
    assert.throws(
      () => parseSpec({ name: 't', topology, cc: 'none', workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1000B' }] }] }),
      (e: unknown) => e instanceof SpecError && re.test(e.message),
      JSON.stringify(topology),
    );
  };
  const ftSpec = { type: 'fatTree', pods: 2, edgesPerPod: 2, aggsPerPod: 2, hostsPerEdge: 2, cores: 2, hostRate: '1Gbps', fabricRate: '1Gbps', delay: '1us' };
  bad({ ...ftSpec, pods: 0 }, /topology\.pods: 0 — must be >= 1/);
  bad({ ...ftSpec, hostsPerEdge: 1.5 }, /topology\.hostsPerEdge: 1\.5 — must be an integer/);
  bad({ ...ftSpec, fabricRate: -1 }, /topology\.fabricRate: -1 — must be > 0/);
  bad({ ...ftSpec, coreWiring: 'zigzag' }, /topology\.coreWiring: "zigzag" — must be one of strided, blocked, full/);
  bad({ type: 'star', hosts: 0, rate: '1Gbps', delay: 0 }, /topology\.hosts: 0 — must be >= 1/);
  bad({ type: 'star', hosts: '4', rate: '1Gbps', delay: 0 }, /topology\.hosts: "4" — expected a number/);
  bad({ type: 'parkingLot', switches: 2, rate: '1Gbps', delay: -1 }, /topology\.delay: -1 — must be >= 0/);
  bad({ type: 'spineLeaf', spines: 2, leaves: 2, hostsPerLeaf: 2, hostRate: '1G', fabricRate: '1G', delay: '1us', spine: 3 }, /topology\.spine: 3 — unknown key/);
});

test('catalogue: every topology type is a registry definition; types and presets build valid topologies', () => {
  assert.deepEqual(topologyRegistry.names(), ['star', 'dumbbell', 'parkingLot', 'fatTree', 'spineLeaf', 'accCbd', 'accTree', 'torMesh', 'rdcn', 'preset', 'file']);
  for (const d of topologyRegistry) {
    assert.ok(d.summary.length > 0, d.type);
    // the spec entry's schema names the type it is registered under
    assert.ok(d.schema instanceof z.ZodObject && (d.schema.shape as { type: z.ZodLiteral }).type.value === d.type, d.type);
  }
  assert.throws(() => topologyRegistry.register(topologyRegistry.get('star'), 'mine.mjs'), /topology type "star" from mine\.mjs clashes with the one already registered from built-in/);
  for (const p of TOPOLOGY_PRESETS) {
    const t = topologyPreset(p.name);
    validateTopology(t);
    assert.equal(t.name, p.name);
  }
  assert.equal(topologyPreset('oscar320-oversub4').links[479]!.rateBps, 100 * GBPS);
});

// ---------------------------------------------------------------------------------------------
// file formats
