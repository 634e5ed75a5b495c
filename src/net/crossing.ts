/**
 * Packets crossing a partition boundary (issue 31; docs/architecture.md, "Parallel runs:
 * partitions and synchronisation"). A port whose link is cut by the partition keeps its
 * transmitter, but the packet it sends goes into a `CrossSink` instead of its link's
 * in-flight ring: an entry with the packet's ring words, its serialization time, its
 * arrival time and its whole record (`PacketStore.writeRecord`), and the sender's record
 * is freed. At the end of the window the receiving side makes a fresh packet from the
 * record in its own store and hands the entry to the same port there
 * (`Port.acceptCrossing`), which keys its arrival as a one-thread run posts it. The link's
 * delay is at least the lookahead, so the arrival is never in the receiver's past.
 *
 * An entry is CROSS_WORDS doubles; `CrossBuffer` holds entries in a Float64Array, which
 * can view a SharedArrayBuffer (one per ordered pair of partitions) or local memory.
 * `LocalCrossing` is the one-process form: every cut link of one network sends into one
 * buffer, and `deliver` hands the entries back at each window's end; a run stepped in
 * windows of the lookahead this way reproduces the run without cuts byte for byte
 * (test/threads.test.ts), which tests the crossing and its keys without threads.
 */
import type { NetContext } from './context.js';
import { RECORD_WORDS } from './packet.js';
import type { Port } from './port.js';

/** Where a cut link's packets go (`Port.cross`). */
export interface CrossSink {
  send(port: Port, pkt: number, meta: number, dst: number, size: number, hash: number, ser: number, arrival: number): void;
}

// an entry's words
const X_PORT = 0;
const X_META = 1;
const X_DST = 2;
const X_SIZE = 3;
const X_HASH = 4;
const X_SER = 5;
const X_ARRIVAL = 6;
const X_RECORD = 7;
/** doubles per crossing entry */
export const CROSS_WORDS = X_RECORD + RECORD_WORDS;

/** Entries in a Float64Array: `count` of them from index 0. A local buffer grows; a shared one cannot. */
export class CrossBuffer {
  count = 0;
  constructor(
    public buf: Float64Array,
    private readonly growable: boolean,
  ) {}

  /** Appends the entry of `pkt`, sent by `port` now with serialization time `ser`, and frees the sender's record. */
  push(ctx: NetContext, port: Port, pkt: number, meta: number, dst: number, size: number, hash: number, ser: number, arrival: number): void {
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
    buf[o + X_SER] = ser;
    buf[o + X_ARRIVAL] = arrival;
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
      ports[buf[o + X_PORT]!]!.acceptCrossing(p, buf[o + X_META]!, buf[o + X_DST]!, buf[o + X_SIZE]!, buf[o + X_HASH]!, buf[o + X_SER]!, buf[o + X_ARRIVAL]!);
    }
    this.count = 0;
  }
}

/**
 * The one-process form of the crossing: cuts every link of `ctx`'s network whose ends are in
 * different partitions (`of`: partition by node) into one local buffer.
 */
export class LocalCrossing implements CrossSink {
  readonly buffer = new CrossBuffer(new Float64Array(0), true);
  /** links cut */
  readonly cut: number;


  constructor(
    private readonly ctx: NetContext,
    of: Int32Array,
  ) {
    let cut = 0;
    for (const p of ctx.ports) {
      if (of[p.node] !== of[p.peerNode]) {
        cut++;
      }
    }
    this.cut = cut;
  }

  send(port: Port, pkt: number, meta: number, dst: number, size: number, hash: number, ser: number, arrival: number): void {
    this.buffer.push(this.ctx, port, pkt, meta, dst, size, hash, ser, arrival);
  }

  /** Whether packets wait for the window's end. */
  get pending(): boolean {
    return this.buffer.count > 0;
  }

  /** The window's end: every packet sent across a cut reaches its link's receiving end. */
  deliver(): void {
    this.buffer.deliver(this.ctx);
  }
}
