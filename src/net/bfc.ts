/**
 * BFC, Backpressure Flow Control (Goyal et al., NSDI'22), as OSCAR App. C.2
 * compares against it and runs OSCAR over it (docs/network-model.md §11.9).
 *
 * - **Physical queues.** At every switch egress port one data class is split
 *   into N physical queues (BFC-32, BFC-128), served per-packet round robin
 *   among the non-empty queues that are not paused.
 * - **Flow-to-queue assignment** (BFC §3, dynamic queue assignment): a flow
 *   is known by its hash (the FID) in a flow table per egress port. A flow
 *   without an entry takes an empty queue (no flow assigned), the lowest such;
 *   when none is empty it is hashed onto one (sharing: head-of-line blocking,
 *   OSCAR App. C.2). The entry, and so the queue, stays while the flow has
 *   packets at the port or a pause outstanding; flows whose FIDs collide in
 *   the table share the entry.
 * - **Backpressure** (BFC §3, per-flow pause): when a data packet joins a
 *   queue holding more than the pause threshold (one hop BDP by default) its
 *   flow is paused at the upstream hop with a pause frame naming the flow; the
 *   upstream switch pauses the physical queue that flow is assigned to there
 *   (a queue is paused while it has paused flows: a count per queue), and a
 *   host NIC stops the flow. When the queue drains to the resume threshold,
 *   all flows it paused are resumed. The frames are PFC-sized control frames
 *   (`FLAG_BFC`) sent through the ingress port's control FIFO, so a pause
 *   takes its serialization plus one link delay, as a PFC PAUSE does.
 *
 * Nothing is allocated per packet: entries sit in one pooled Int32Array, the
 * queues and flow tables in typed arrays sized when the switch is built. A
 * switch without BFC has none of this and its ports no split class.
 */
import type { BfcConfig } from './config.js';
import type { NetContext } from './context.js';
import * as packet from './packet.js';
import type { Port } from './port.js';
import type { SplitQueues } from './queue-discipline.js';

const { FLAG_BFC, FLAG_PAUSE, PKT_DATA, PKT_PFC, metaType } = packet;

/** The most physical queues a port holds (a spec asking for more is an error). */
export const BFC_MAX_QUEUES = 128;

export const BFC_DEFAULTS: Readonly<BfcConfig> = { queues: 32, pauseBytes: 0, resumeBytes: 0, flowTableSize: 1024, cls: -1 };

/** The spec's partial BFC block with the defaults filled in; throws naming the field on a value the port cannot hold. */
export function bfcConfig(given: Partial<BfcConfig>): BfcConfig {
  const c = { ...BFC_DEFAULTS, ...given };
  const q = c.queues;
  if (!Number.isInteger(q) || q < 1 || q > BFC_MAX_QUEUES) throw new Error(`switch.bfc.queues: ${q} — a port holds 1 to ${BFC_MAX_QUEUES} physical queues`);
  const s = c.flowTableSize;
  if (!Number.isInteger(s) || s < 1 || (s & (s - 1)) !== 0) throw new Error(`switch.bfc.flowTableSize: ${s} — must be a power of two`);
  if (c.resumeBytes > 0 && c.pauseBytes > 0 && c.resumeBytes > c.pauseBytes) {
    throw new Error(`switch.bfc.resumeBytes: ${c.resumeBytes} — must be at most pauseBytes (${c.pauseBytes})`);
  }
  return c;
}

// port.ts's queue block (Q_STRIDE words per class at `Port.qb`): the class's counts
const Q_STRIDE = 8;
const Q_BYTES = 2;
const Q_PKTS = 3;

// a queued packet's entry: the port ring's words plus a link
const ES = 8;
const X_PKT = 0;
const X_META = 1;
const X_DST = 2;
const X_SIZE = 3;
const X_HASH = 4;
const X_IN = 5;
const X_NEXT = 6;

/** flow-table flags: this switch paused the flow upstream (its queue here is above the threshold) */
const PAUSING = 1;
/** the downstream hop paused the flow: its queue here is paused */
const PAUSED = 2;

export class Bfc implements SplitQueues {
  /** physical queues per port, bitmap words per port, flow-table entries per port and its mask */
  readonly n: number;
  private readonly words: number;
  private readonly tableSize: number;
  private readonly tableMask: number;
  // per (port, physical queue), index port * n + queue
  private readonly head: Int32Array;
  private readonly tail: Int32Array;
  private readonly pkts: Int32Array;
  private readonly bytes: Float64Array;
  /** flows assigned */
  private readonly flows: Int32Array;
  /** flows the downstream hop paused (the queue is paused while > 0) */
  private readonly pauseCnt: Int32Array;
  /** first flow-table slot of the flows this queue paused upstream (linked by `ftNext`), -1: none */
  private readonly pausedList: Int32Array;
  // per port: bitmaps of non-empty, paused and free (no flow) queues; round-robin pointer; thresholds
  private readonly nonEmpty: Int32Array;
  private readonly pausedBits: Int32Array;
  private readonly freeBits: Int32Array;
  private readonly rr: Int32Array;
  readonly pauseBytes: Float64Array;
  readonly resumeBytes: Float64Array;
  // the flow tables, index port * tableSize + (FID & tableMask)
  private readonly ftQueue: Int32Array;
  private readonly ftCount: Int32Array;
  private readonly ftFlags: Uint8Array;
  private readonly ftIn: Int32Array;
  private readonly ftFlow: Int32Array;
  private readonly ftHash: Int32Array;
  private readonly ftNext: Int32Array;
  // pooled entries
  private ent: Int32Array;
  private entTop = 0;
  private entFree = -1;
  /** pause and resume frames sent, the largest physical queue seen (bytes) */
  pausesSent = 0;
  resumesSent = 0;
  maxQueueBytes = 0;

  constructor(
    private readonly ctx: NetContext,
    private readonly ports: readonly Port[],
    cfg: BfcConfig,
    /** the class split into physical queues */
    readonly cls: number,
  ) {
    const n = cfg.queues;
    const P = ports.length;
    this.n = n;
    this.words = (n + 31) >> 5;
    this.tableSize = cfg.flowTableSize;
    this.tableMask = cfg.flowTableSize - 1;
    const pq = P * n;
    this.head = new Int32Array(pq);
    this.tail = new Int32Array(pq);
    this.pkts = new Int32Array(pq);
    this.bytes = new Float64Array(pq);
    this.flows = new Int32Array(pq);
    this.pauseCnt = new Int32Array(pq);
    this.pausedList = new Int32Array(pq).fill(-1);
    const pw = P * this.words;
    this.nonEmpty = new Int32Array(pw);
    this.pausedBits = new Int32Array(pw);
    this.freeBits = new Int32Array(pw);
    for (let p = 0; p < P; p++) for (let s = 0; s < n; s++) this.freeBits[p * this.words + (s >> 5)]! |= 1 << (s & 31);
    this.rr = new Int32Array(P).fill(-1);
    this.pauseBytes = new Float64Array(P);
    this.resumeBytes = new Float64Array(P);
    let maxDelay = 0;
    for (const port of ports) if (port.delayPs > maxDelay) maxDelay = port.delayPs;
    for (let p = 0; p < P; p++) {
      // one hop BDP: the bytes the port drains while a pause crosses the hop and the last packets sent before it arrive
      const hop = Math.ceil((ports[p]!.rateBps * 2 * maxDelay) / 8e12);
      this.pauseBytes[p] = cfg.pauseBytes > 0 ? cfg.pauseBytes : hop;
      this.resumeBytes[p] = cfg.resumeBytes > 0 ? cfg.resumeBytes : this.pauseBytes[p]!;
    }
    const ft = P * cfg.flowTableSize;
    this.ftQueue = new Int32Array(ft);
    this.ftCount = new Int32Array(ft);
    this.ftFlags = new Uint8Array(ft);
    this.ftIn = new Int32Array(ft);
    this.ftFlow = new Int32Array(ft);
    this.ftHash = new Int32Array(ft);
    this.ftNext = new Int32Array(ft);
    this.ent = new Int32Array(1024 * ES);
  }

  /** The physical queue flow `hash` is assigned at `port` (-1: no entry); tests and diagnostics. */
  queueOf(port: Port, hash: number): number {
    const slot = port.index * this.tableSize + (hash & this.tableMask);
    return this.ftCount[slot] === 0 && this.ftFlags[slot] === 0 ? -1 : this.ftQueue[slot]!;
  }

  /** Bytes in physical queue s of `port`. */
  queueBytes(port: Port, s: number): number {
    return this.bytes[port.index * this.n + s]!;
  }

  /** Whether physical queue s of `port` is paused by the downstream hop. */
  isPaused(port: Port, s: number): boolean {
    return this.pauseCnt[port.index * this.n + s]! > 0;
  }

  push(port: Port, pkt: number, q: number, size: number, meta: number, dst: number, hash: number, inPort: number): void {
    const p = port.index;
    const slot = p * this.tableSize + (hash & this.tableMask);
    const s = this.ftCount[slot] === 0 && this.ftFlags[slot] === 0 ? this.assign(p, slot, hash) : this.ftQueue[slot]!;
    this.ftCount[slot]!++;
    const qi = p * this.n + s;
    let e = this.entFree;
    if (e >= 0) this.entFree = this.ent[e * ES + X_NEXT]!;
    else e = this.newEntry();
    const ent = this.ent;
    const x = e * ES;
    ent[x + X_PKT] = pkt | 0;
    ent[x + X_META] = meta | 0;
    ent[x + X_DST] = dst | 0;
    ent[x + X_SIZE] = size | 0;
    ent[x + X_HASH] = hash | 0;
    ent[x + X_IN] = inPort | 0;
    ent[x + X_NEXT] = -1;
    if (this.pkts[qi] === 0) {
      this.head[qi] = e;
      this.nonEmpty[p * this.words + (s >> 5)]! |= 1 << (s & 31);
    } else ent[this.tail[qi]! * ES + X_NEXT] = e;
    this.tail[qi] = e;
    this.pkts[qi]!++;
    const qb = (this.bytes[qi] = this.bytes[qi]! + size);
    if (qb > this.maxQueueBytes) this.maxQueueBytes = qb;
    // the class's and the port's counts, as the port's own enqueue keeps them
    const a = this.ctx.arena;
    const b = port.qb + q * Q_STRIDE;
    const n0 = a[b + Q_PKTS]!;
    if (n0 === 0) port.nonEmpty |= 1 << q;
    a[b + Q_BYTES] = a[b + Q_BYTES]! + size;
    a[b + Q_PKTS] = n0 + 1;
    port.totalBytes += size;
    port.totalPkts++;
    port.rxBytes += size;
    if (port.totalBytes > port.maxQueueBytes) port.maxQueueBytes = port.totalBytes;
    // the class is blocked while every non-empty queue is paused
    if (this.pauseCnt[qi] === 0) {
      if (((port.blockedMask >> q) & 1) === 1) this.setBlocked(port, q, false, false);
    } else if (n0 === 0) this.setBlocked(port, q, true, false);
    // backpressure: the flow's queue is above the threshold, pause the flow at the upstream hop
    if (qb > this.pauseBytes[p]! && (this.ftFlags[slot]! & PAUSING) === 0 && metaType(meta) === PKT_DATA) {
      this.pauseUpstream(slot, qi, this.ctx.pool.flow(pkt), hash, inPort);
    }
    port.kick();
  }

  pop(port: Port, q: number): number {
    const p = port.index;
    const s = this.nextReady(p);
    this.rr[p] = s;
    const qi = p * this.n + s;
    const e = this.head[qi]!;
    const ent = this.ent;
    const x = e * ES;
    const pkt = ent[x + X_PKT]!;
    const size = ent[x + X_SIZE]!;
    const hash = ent[x + X_HASH]!;
    port.dqPkt = pkt;
    port.dqMeta = ent[x + X_META]!;
    port.dqDst = ent[x + X_DST]!;
    port.dqSize = size;
    port.dqHash = hash;
    port.dqIn = ent[x + X_IN]!;
    this.head[qi] = ent[x + X_NEXT]!;
    ent[x + X_NEXT] = this.entFree;
    this.entFree = e;
    const left = --this.pkts[qi]!;
    const qb = (this.bytes[qi] = this.bytes[qi]! - size);
    if (left === 0) this.nonEmpty[p * this.words + (s >> 5)]! &= ~(1 << (s & 31));
    const a = this.ctx.arena;
    const b = port.qb + q * Q_STRIDE;
    const n = a[b + Q_PKTS]! - 1;
    if (n === 0) port.nonEmpty &= ~(1 << q);
    a[b + Q_BYTES] = a[b + Q_BYTES]! - size;
    a[b + Q_PKTS] = n;
    port.totalBytes -= size;
    port.totalPkts--;
    port.lastQueue = q;
    const slot = p * this.tableSize + (hash & this.tableMask);
    this.ftCount[slot]!--;
    if (this.ftCount[slot] === 0 && this.ftFlags[slot] === 0) this.release(p, slot);
    if (this.pausedList[qi]! >= 0 && qb <= this.resumeBytes[p]!) this.resumeAll(p, qi);
    if (left === 0 && n > 0 && this.nextReady(p) < 0) this.setBlocked(port, q, true, false);
    return pkt;
  }

  holds(port: Port, inPort: number): boolean {
    const base = port.index * this.n;
    for (let s = 0; s < this.n; s++) {
      for (let e = this.pkts[base + s]! > 0 ? this.head[base + s]! : -1; e >= 0; e = this.ent[e * ES + X_NEXT]!) {
        if (this.ent[e * ES + X_IN] === inPort) return true;
      }
    }
    return false;
  }

  /**
   * A BFC frame arrived on port `port` from the downstream hop: pause or
   * resume flow (`hash`) at this port, i.e. count it in or out of the paused
   * flows of the physical queue it is assigned to here (assigning one if it
   * has no entry, so its next packets wait there).
   */
  onFrame(port: Port, hash: number, pause: boolean): void {
    const p = port.index;
    const slot = p * this.tableSize + (hash & this.tableMask);
    const fl = this.ftFlags[slot]!;
    if (pause === true) {
      if ((fl & PAUSED) !== 0) return;
      if (this.ftCount[slot] === 0 && fl === 0) this.assign(p, slot, hash);
      this.ftFlags[slot] = fl | PAUSED;
      const s = this.ftQueue[slot]!;
      const qi = p * this.n + s;
      if (this.pauseCnt[qi]!++ === 0) {
        this.pausedBits[p * this.words + (s >> 5)]! |= 1 << (s & 31);
        if (this.pkts[qi]! > 0 && this.nextReady(p) < 0) this.setBlocked(port, this.cls, true, false);
      }
      return;
    }
    if ((fl & PAUSED) === 0) return;
    this.ftFlags[slot] = fl & ~PAUSED;
    const s = this.ftQueue[slot]!;
    const qi = p * this.n + s;
    if (--this.pauseCnt[qi]! === 0) {
      this.pausedBits[p * this.words + (s >> 5)]! &= ~(1 << (s & 31));
      if (this.pkts[qi]! > 0 && ((port.blockedMask >> this.cls) & 1) === 1) this.setBlocked(port, this.cls, false, true);
    }
    if (this.ftCount[slot] === 0 && this.ftFlags[slot] === 0) this.release(p, slot);
  }

  /** A new flow's queue at port p: the lowest empty one, else its hash's. */
  private assign(p: number, slot: number, hash: number): number {
    const base = p * this.words;
    let s = -1;
    for (let w = 0; w < this.words; w++) {
      const f = this.freeBits[base + w]!;
      if (f !== 0) {
        s = (w << 5) + (31 - Math.clz32(f & -f));
        break;
      }
    }
    if (s < 0) s = (hash >>> 0) % this.n;
    this.ftQueue[slot] = s;
    if (this.flows[p * this.n + s]!++ === 0) this.freeBits[base + (s >> 5)]! &= ~(1 << (s & 31));
    return s;
  }

  /** The flow of `slot` left port p's table (no packets, no pause). */
  private release(p: number, slot: number): void {
    const s = this.ftQueue[slot]!;
    if (--this.flows[p * this.n + s]! === 0) this.freeBits[p * this.words + (s >> 5)]! |= 1 << (s & 31);
  }

  /** The next non-empty, unpaused queue of port p after the last served (round robin), -1: none. */
  private nextReady(p: number): number {
    const W = this.words;
    const base = p * W;
    let start = this.rr[p]! + 1;
    if (start >= this.n) start = 0;
    let w = start >> 5;
    let bits = this.nonEmpty[base + w]! & ~this.pausedBits[base + w]! & (-1 << (start & 31));
    for (let k = 0; k <= W; k++) {
      if (bits !== 0) return (w << 5) + (31 - Math.clz32(bits & -bits));
      if (++w === W) w = 0;
      bits = this.nonEmpty[base + w]! & ~this.pausedBits[base + w]!;
    }
    return -1;
  }

  /** Blocks or unblocks the split class q of `port` (in its pausedMask beside PFC's pauses); `kick`: start sending if it may. */
  private setBlocked(port: Port, q: number, on: boolean, kick: boolean): void {
    const bit = 1 << q;
    if (on === true) {
      port.blockedMask |= bit;
      port.pausedMask |= bit;
      return;
    }
    port.blockedMask &= ~bit;
    if (port.paused[q] === 0) {
      port.pausedMask &= ~bit;
      if (kick === true) port.kick();
    }
  }

  private pauseUpstream(slot: number, qi: number, flow: number, hash: number, inPort: number): void {
    this.ftFlags[slot] = this.ftFlags[slot]! | PAUSING;
    this.ftFlow[slot] = flow;
    this.ftHash[slot] = hash;
    this.ftIn[slot] = inPort;
    this.ftNext[slot] = this.pausedList[qi]!;
    this.pausedList[qi] = slot;
    this.pausesSent++;
    this.send(inPort, flow, hash, true);
  }

  /** Queue qi of port p drained to its resume threshold: resume every flow it paused upstream. */
  private resumeAll(p: number, qi: number): void {
    let sl = this.pausedList[qi]!;
    this.pausedList[qi] = -1;
    while (sl >= 0) {
      const next = this.ftNext[sl]!;
      this.ftFlags[sl] = this.ftFlags[sl]! & ~PAUSING;
      this.resumesSent++;
      this.send(this.ftIn[sl]!, this.ftFlow[sl]!, this.ftHash[sl]!, false);
      if (this.ftCount[sl] === 0 && this.ftFlags[sl] === 0) this.release(p, sl);
      sl = next;
    }
  }

  /** A pause or resume frame for the flow, out of ingress port `inPort` toward the upstream hop (its control FIFO). */
  private send(inPort: number, flow: number, hash: number, pause: boolean): void {
    const pk = this.ctx.pool;
    const f = pk.alloc(PKT_PFC);
    pk.setSize(f, this.ctx.pfcBytes);
    pk.setAux(f, this.cls);
    pk.setFlow(f, flow);
    pk.setHash(f, hash);
    pk.setFlag(f, FLAG_PAUSE, pause);
    pk.setFlag(f, FLAG_BFC, true);
    this.ports[inPort]!.enqueueCtrl(f);
  }

  private newEntry(): number {
    if ((this.entTop + 1) * ES > this.ent.length) {
      const bigger = new Int32Array(this.ent.length * 2);
      bigger.set(this.ent);
      this.ent = bigger;
    }
    return this.entTop++;
  }
}
