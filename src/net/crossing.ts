/**
 * Packets crossing a partition boundary (issue 31; docs/architecture.md, "Parallel runs:
 * partitions and synchronisation"). Every link between switches holds what it sends until
 * the end of the window (NetContext.holdGridPs); at that end a link cut by the partition
 * hands its held packets to a `CrossSink` (`Port.drainCut`): an entry with the packet's ring
 * words, its arrival time and its whole record (`PacketStore.writeRecord`), and the
 * sender's record is freed. The receiving side makes a fresh packet from the record in its
 * own store and hands the entry to the same port there (`Port.acceptCrossing`), where it is
 * held like a packet sent there and released with the others, in port order: as a run on
 * one thread releases it. The link's delay is at least the window, so the arrival is never
 * in the receiver's past.
 *
 * An entry is CROSS_WORDS doubles; `CrossBuffer` holds entries in a Float64Array, which
 * views a SharedArrayBuffer (one per ordered pair of partitions).
 */
import type { NetContext } from './context.js';
import { RECORD_WORDS } from './packet.js';
import type { Port } from './port.js';

/** Where a cut link's packets go (`Port.cross`). */
export interface CrossSink {
  send(port: Port, pkt: number, meta: number, dst: number, size: number, hash: number, arrival: number): void;
}

// an entry's words
const X_PORT = 0;
const X_META = 1;
const X_DST = 2;
const X_SIZE = 3;
const X_HASH = 4;
const X_ARRIVAL = 5;
const X_RECORD = 6;
/** the packet's queueing so far, for the FCT breakdown (net/queue-account.ts; 0 without it) */
const X_QUEUED = X_RECORD + RECORD_WORDS;
/** doubles per crossing entry */
export const CROSS_WORDS = X_QUEUED + 1;

/** Entries in a Float64Array: `count` of them from index 0. A local buffer grows; a shared one cannot. */
export class CrossBuffer {
  count = 0;
  constructor(
    public buf: Float64Array,
    private readonly growable: boolean,
  ) {}

  /** Appends the entry of `pkt`, sent by `port` to arrive at `arrival`, and frees the sender's record. */
  push(ctx: NetContext, port: Port, pkt: number, meta: number, dst: number, size: number, hash: number, arrival: number): void {
    const o = this.count * CROSS_WORDS;
    if (o + CROSS_WORDS > this.buf.length) {
      if (!this.growable) throw new Error(`parallel run: the shared ring of cut links is full (${this.count} packets in one window)`);
      const b = new Float64Array(Math.max(this.buf.length * 2, 64 * CROSS_WORDS));
      b.set(this.buf);
      this.buf = b;
    }
    const buf = this.buf;
    buf[o + X_PORT] = port.gid;
    buf[o + X_META] = meta;
    buf[o + X_DST] = dst;
    buf[o + X_SIZE] = size;
    buf[o + X_HASH] = hash;
    buf[o + X_ARRIVAL] = arrival;
    buf[o + X_QUEUED] = ctx.acct !== null ? ctx.acct.queued(pkt) : 0;
    ctx.pool.writeRecord(pkt, buf, o + X_RECORD);
    ctx.pool.release(pkt);
    this.count++;
  }

  /** Hands every entry to its port in `ctx` (the receiving side), in send order, and empties the buffer. */
  deliver(ctx: NetContext): void {
    const buf = this.buf;
    const ports = ctx.ports;
    for (let i = 0; i < this.count; i++) {
      const o = i * CROSS_WORDS;
      const p = ctx.pool.readRecord(buf, o + X_RECORD);
      if (ctx.acct !== null) ctx.acct.crossed(p, buf[o + X_ARRIVAL]!, buf[o + X_QUEUED]!);
      ports[buf[o + X_PORT]!]!.acceptCrossing(p, buf[o + X_META]!, buf[o + X_DST]!, buf[o + X_SIZE]!, buf[o + X_HASH]!, buf[o + X_ARRIVAL]!);
    }
    this.count = 0;
  }
}
