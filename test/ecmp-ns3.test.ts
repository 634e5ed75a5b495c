/**
 * `switch.loadBalancing: ns3Hash` (src/net/ecmp-ns3.ts, docs/network-model.md §11.6): the
 * ns-3 HPCC / PowerTCP switches' ECMP choice. The hash is MurmurHash3_x86_32 of a 12-byte
 * key; the expected values are the reference implementation's (computed with the `mmh3`
 * package on the same three little-endian words and seed). Its effect on the W10 replay,
 * every flow on the reference run's path, is tested in test/anchors-w10-ecmp.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { murmur3Words3, ns3EcmpIndex, ns3HostIp, ns3RouteOrder, setNs3FlowKey } from '../src/net/ecmp-ns3.js';
import { parseSpec } from '../src/experiment/spec/resolve.js';

test('MurmurHash3_x86_32 of three words matches the reference implementation', () => {
  const cases: [number, number, number, number, number][] = [
    [0, 0, 0, 0, 3644920907],
    [1, 2, 3, 4, 2497076548],
    [184589569, 184583169, 674310193, 256, 4193880955],
    [184564481, 184599041, 691022128, 275, 4159388405],
    [0xffffffff, 0x80000000, 0x7fffffff, 0xdeadbeef, 1686661535],
  ];
  for (const [a, b, c, seed, h] of cases) assert.equal(murmur3Words3(a, b, c, seed), h, `${a} ${b} ${c} seed ${seed}`);
});

test('host addresses, flow words, the reversed words toward the source, next hops in descending node id', () => {
  assert.equal(ns3HostIp(0) >>> 0, 0x0b000001); // 11.0.0.1
  assert.equal(ns3HostIp(157) >>> 0, 0x0b009d01); // 11.0.157.1
  assert.equal(ns3HostIp(257) >>> 0, 0x0b010101); // 11.1.1.1
  const keys = new Int32Array(6);
  setNs3FlowKey(keys, 1, 157, 132, 10289, 10290);
  const [s, d] = [ns3HostIp(157), ns3HostIp(132)];
  // data toward 132: (src, dst, sport | dport << 16); ACK toward 157: (dst, src, dport | sport << 16)
  assert.equal(ns3EcmpIndex(keys, 1, 132, 260, 2), murmur3Words3(s, d, 10289 | (10290 << 16), 260) % 2);
  assert.equal(ns3EcmpIndex(keys, 1, 157, 260, 2), murmur3Words3(d, s, 10290 | (10289 << 16), 260) % 2);
  assert.equal(ns3EcmpIndex(keys, 0, 132, 260, 2), ns3EcmpIndex(new Int32Array(6), 0, 132, 260, 2));
  assert.equal(ns3EcmpIndex(keys, -1, 132, 260, 2), 0, 'a packet without a flow takes the first next hop');
  // route: host 0 has one next hop (port 0), host 1 two (ports 1, 2 at list offset 1), host 2 the same list
  const route = new Int32Array([1, 0, 2, 1, 2, 1]);
  const peers = [264, 270, 272];
  assert.deepEqual([...ns3RouteOrder(route, new Int32Array([0, 1, 2]), (p) => peers[p]!)], [0, 2, 1]);
});

test('flow ports are checked by the spec', () => {
  const spec = (sport: number): unknown => ({
    name: 'ports',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    cc: 'none',
    network: { switch: { loadBalancing: 'ns3Hash' } },
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1MB', sport, dport: 100 }] }],
  });
  assert.doesNotThrow(() => parseSpec(spec(10289)));
  assert.throws(() => parseSpec(spec(70000)), /workload\[0\]\.flows\[0\]\.sport/);
});
