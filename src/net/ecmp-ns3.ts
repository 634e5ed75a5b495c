/**
 * The ECMP choice of the ns-3 HPCC / PowerTCP simulators' switches, for replays of
 * their runs flow for flow (`switch.loadBalancing: ns3Hash`, docs/network-model.md
 * §11.6): MurmurHash3 (x86, 32-bit) of three 32-bit words — source IPv4 address,
 * destination address, source port | destination port << 16 (an ACK: its own,
 * reversed addresses and ports) — seeded with the switch's node id, modulo the number
 * of next hops, taken in descending node id. The hash is the published MurmurHash3
 * algorithm on a 12-byte key; the words and the order are the simulators' (their
 * `SwitchNode::GetOutDev`, node ids as seeds, and the neighbour order their route
 * computation produced in the recorded W10 runs: docs/fidelity.md).
 */

import { mix32 } from './hash.js';

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

function mixWord(h: number, k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** MurmurHash3_x86_32 of the 12-byte key made of three little-endian 32-bit words; uint32. */
export function murmur3Words3(w0: number, w1: number, w2: number, seed: number): number {
  let h = seed | 0;
  h = mixWord(h, w0 | 0);
  h = mixWord(h, w1 | 0);
  h = mixWord(h, w2 | 0);
  // length, then MurmurHash3's finalizer (the ECMP hash's `mix32`)
  return mix32(h ^ 12);
}

/** The IPv4 address those simulators give host `id` (11.0.0.1 + id as two octets), as an int32. */
export function ns3HostIp(id: number): number {
  return (0x0b000001 + Math.floor(id / 256) * 0x10000 + (id % 256) * 0x100) | 0;
}

/** The flow's three hash words (data direction) into `keys` at 3·id. */
export function setNs3FlowKey(keys: Int32Array, id: number, src: number, dst: number, sport: number, dport: number): void {
  keys[3 * id] = ns3HostIp(src);
  keys[3 * id + 1] = ns3HostIp(dst);
  keys[3 * id + 2] = (sport & 0xffff) | ((dport & 0xffff) << 16);
}

/**
 * The index (0..cnt-1, in descending next-hop node id) a switch with node id `seed`
 * picks toward host `dst` for a packet of flow `id`: the flow's words when `dst` is its
 * destination (data), the reversed words when `dst` is its source (ACK, NACK, CNP).
 * Without the flow's words (id < 0, keys not set) the first next hop.
 */
export function ns3EcmpIndex(keys: Int32Array, id: number, dst: number, seed: number, cnt: number): number {
  if (id < 0 || 3 * id + 2 >= keys.length) return 0;
  const a = keys[3 * id]!;
  const b = keys[3 * id + 1]!;
  const p = keys[3 * id + 2]!;
  const h = a === ns3HostIp(dst) ? murmur3Words3(b, a, (p >>> 16) | (p << 16), seed) : murmur3Words3(a, b, p, seed);
  return h % cnt;
}

/**
 * A copy of a switch's route table next-hop lists (`route`: count and start per
 * destination host, `ports`: the lists) with each list in descending peer node id.
 */
export function ns3RouteOrder(route: Int32Array, ports: Int32Array, peerOf: (port: number) => number): Int32Array {
  const order = Int32Array.from(ports);
  for (let h = 0; 2 * h < route.length; h++) {
    const cnt = route[2 * h]!;
    if (cnt < 2) continue;
    const start = route[2 * h + 1]!;
    order.set(Array.from(ports.subarray(start, start + cnt)).sort((x, y) => peerOf(y) - peerOf(x)), start);
  }
  return order;
}
