/**
 * What a port needs from the node that owns it (a switch or a host NIC,
 * src/net/port.ts): the next packet when the transmitter frees up, and the
 * packets its links deliver.
 */
import type { Port } from './port.js';

export interface PortOwner {
  /** The port is idle: return the next packet (id) to transmit, or NIL. */
  pull(port: Port): number;
  /** Whether the owner may have more to send when the port frees up. */
  hasMore(port: Port): boolean;
  /** A packet arrived at this node on port number `port` (reads the packet's record). */
  receive(pkt: number, port: number): void;
  /**
   * The link's hand-off: packet `pkt` arrived on port number `port`, with the
   * per-hop words of its record (meta word, destination, wire size, ECMP hash)
   * carried by the in-flight ring, so that a switch need not load the record.
   */
  arrive(pkt: number, port: number, meta: number, dst: number, size: number, hash: number): void;
}
