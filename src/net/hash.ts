/**
 * Integer hashing shared by the network and the transport: the ECMP hash of a
 * flow's five-tuple (docs/network-model.md §11.6) is made by the transport when
 * it opens the flow, and switches salt and mix it per packet. Here, in the
 * lowest layer that uses it, so the transport need not import the switch.
 */

/** murmur3 32-bit finalizer */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
