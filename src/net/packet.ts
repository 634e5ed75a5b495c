/**
 * Packets are pooled objects with a fixed shape (architecture.md rule 5: fields,
 * not bytes). `size` is the wire size; headers are never serialized. A packet
 * sits in at most one list at a time (an egress queue or a link in flight), so
 * lists are intrusive through `next`.
 */
import { INT_MAX_HOPS } from '../cc/types.js';

export const PKT_DATA = 0;
export const PKT_ACK = 1;
export const PKT_NACK = 2;
export const PKT_CNP = 3;
export const PKT_PFC = 4;

/** offsets into Packet.int */
export const INT_TS = 0;
export const INT_QLEN = INT_MAX_HOPS;
export const INT_TX = 2 * INT_MAX_HOPS;
export const INT_RATE = 3 * INT_MAX_HOPS;

export class Packet {
  type = PKT_DATA;
  flowId = -1;
  /** source and destination host ids */
  src = 0;
  dst = 0;
  /** data: first byte; ACK/NACK: cumulative next expected byte */
  seq = 0;
  payload = 0;
  /** wire size in bytes */
  size = 0;
  /** priority class 0..7 */
  prio = 0;
  /** ECN-capable transport */
  ect = false;
  /** congestion experienced */
  ce = false;
  /** TCD mark (TCD_NO / TCD_UE / TCD_CE) */
  tcd = 0;
  /** data: send time (ps); ACK: echoed send time */
  sendTs = 0;
  /** data: sender in-flight bytes at send; ACK: echoed */
  inflight = 0;
  /** ACK: CE echo (D-HPCC CNP flag) */
  ecnEcho = false;
  /** ACK: data packets covered */
  ackedPkts = 0;
  isRetx = false;
  /** per-flow ECMP hash of this packet's direction */
  hash = 0;
  /** PFC: class and pause (true) or resume (false) */
  pfcClass = 0;
  pfcPause = false;
  /** INT: hop count */
  intN = 0;
  /**
   * INT hop fields, allocated the first time a switch stamps this (pooled)
   * packet: [ts × 5 | qlen × 5 | txBytes × 5 | rate × 5] (see INT_* offsets).
   */
  int: Float64Array | null = null;
  /** switch bookkeeping: ingress port at the current switch */
  inPort = -1;
  next: Packet | null = null;
}

export class PacketPool {
  private readonly free: Packet[] = [];
  allocated = 0;

  alloc(): Packet {
    const p = this.free.pop();
    if (p !== undefined) return p;
    this.allocated++;
    return new Packet();
  }

  /** Returns a packet to the pool, resetting the fields that are read before written. */
  release(p: Packet): void {
    p.next = null;
    p.ce = false;
    p.ect = false;
    p.tcd = 0;
    p.intN = 0;
    p.ecnEcho = false;
    p.isRetx = false;
    p.inPort = -1;
    p.flowId = -1;
    this.free.push(p);
  }
}

/** The INT array of a packet, allocated on first use. */
export function intOf(p: Packet): Float64Array {
  let a = p.int;
  if (a === null) {
    a = new Float64Array(4 * INT_MAX_HOPS);
    p.int = a;
  }
  return a;
}

/** Copies the INT stack of `from` into `to`. */
export function copyInt(from: Packet, to: Packet): void {
  const n = from.intN;
  to.intN = n;
  if (n === 0) return;
  const src = from.int!;
  const dst = intOf(to);
  dst.set(src);
}
