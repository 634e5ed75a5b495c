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
 *   packets at the port or the downstream hop has it paused; flows whose FIDs
 *   collide in the table share the entry.
 * - **Backpressure** (BFC §3, per-flow pause): every data packet that joins a
 *   queue holding more than the pause threshold (one hop BDP by default)
 *   pauses its flow at the upstream hop it came from, unless this queue has
 *   already paused that flow there: a pause record per (flow, ingress port) in
 *   the queue's list, so every flow of a shared queue, and every ingress that
 *   feeds it, is paused, whichever flow-table entry the flows share. The frame
 *   names the flow; the upstream switch pauses the physical queue that flow is
 *   assigned to there (a queue is paused while it has outstanding pauses: a
 *   count per queue and per flow-table entry), and a host NIC stops the flow.
 *   When the queue drains to the resume threshold, every pause it sent is
 *   lifted. The frames are PFC-sized control frames (`FLAG_BFC`) sent through
 *   the ingress port's control FIFO, so a pause takes its serialization plus
 *   one link delay, as a PFC PAUSE does.
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
const C_STRIDE = 8;
const C_BYTES = 2;
const C_PKTS = 3;

// a queued packet's entry: the port ring's words plus a link
const ES = 8;
const X_PKT = 0;
const X_META = 1;
const X_DST = 2;
const X_SIZE = 3;
const X_HASH = 4;
const X_IN = 5;
const X_NEXT = 6;

// a physical queue's record: its entry list, packets, bytes, flows assigned, pauses from the
// downstream hop outstanding (the queue is paused while > 0), and the first of the pause records
// of the flows it paused upstream (-1: none)
const QS = 8;
const Q_HEAD = 0;
const Q_TAIL = 1;
const Q_PKTS = 2;
const Q_BYTES = 3;
const Q_FLOWS = 4;
const Q_PAUSED = 5;
const Q_PLIST = 6;

// a flow-table entry: the flow's queue, its packets here, and the pauses from the downstream hop
// outstanding for the flows of the entry (each counts once in its queue's Q_PAUSED)
const FS = 4;
const F_QUEUE = 0;
const F_COUNT = 1;
const F_PAUSES = 2;

// a pause record (pooled): a flow this switch paused at the upstream hop of ingress port R_IN
// because the queue holding the record was above the threshold; the next record of that queue
const RS = 4;
const R_FLOW = 0;
const R_HASH = 1;
const R_IN = 2;
const R_NEXT = 3;

export class Bfc implements SplitQueues {
  /** physical queues per port, bitmap words per port, flow-table entries per port and its mask */
  readonly n: number;
  private readonly words: number;
  private readonly tableSize: number;
  private readonly tableMask: number;
  /** per (port, physical queue) a record of QS words (one line per packet's visit), at (port * n + queue) * QS */
  private readonly qs: Int32Array;
  // per port: bitmaps of non-empty, paused and free (no flow) queues; round-robin pointer; thresholds
  private readonly nonEmpty: Int32Array;
  private readonly pausedBits: Int32Array;
  private readonly freeBits: Int32Array;
  private readonly rr: Int32Array;
  readonly pauseBytes: Float64Array;
  readonly resumeBytes: Float64Array;
  /** the flow tables: a record of FS words per entry, at (port * tableSize + (FID & tableMask)) * FS */
  private readonly ft: Int32Array;
  // pooled entries
  private ent: Int32Array;
  private entTop = 0;
  private entFree = -1;
  // pooled pause records
  private rec: Int32Array;
  private recTop = 0;
  private recFree = -1;
  /** pause and resume frames sent, the largest physical queue seen (bytes) */
  pausesSent = 0;
  resumesSent = 0;
  maxQueueBytes = 0;
  /** flows given a queue that already had a flow because none was empty (queue sharing), and the most queues with flows at one port */
  sharedAssignments = 0;
  maxQueuesInUse = 0;
  /** per port: queues with at least one flow assigned */
  private readonly inUse: Int32Array;

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
    this.qs = new Int32Array(P * n * QS);
    for (let i = 0; i < P * n; i++) this.qs[i * QS + Q_PLIST] = -1;
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
    this.ft = new Int32Array(P * cfg.flowTableSize * FS);
    this.ent = new Int32Array(1024 * ES);
    this.rec = new Int32Array(256 * RS);
    this.inUse = new Int32Array(P);
  }

  /** The physical queue flow `hash` is assigned at `port` (-1: no entry); tests and diagnostics. */
  queueOf(port: Port, hash: number): number {
    const f = (port.index * this.tableSize + (hash & this.tableMask)) * FS;
    return this.ft[f + F_COUNT] === 0 && this.ft[f + F_PAUSES] === 0 ? -1 : this.ft[f + F_QUEUE]!;
  }

  /** Flows this switch has paused at the upstream hop through `port`'s queue s, as 'flow@ingress' (tests, diagnostics). */
  pausedBy(port: Port, s: number): string[] {
    const out: string[] = [];
    for (let x = this.qs[(port.index * this.n + s) * QS + Q_PLIST]!; x >= 0; x = this.rec[x * RS + R_NEXT]!) {
      out.push(`${this.rec[x * RS + R_FLOW]}@${this.rec[x * RS + R_IN]}`);
    }
    return out;
  }

  /** Bytes in physical queue s of `port`. */
  queueBytes(port: Port, s: number): number {
    return this.qs[(port.index * this.n + s) * QS + Q_BYTES]!;
  }

  /** Whether physical queue s of `port` is paused by the downstream hop. */
  isPaused(port: Port, s: number): boolean {
    return this.qs[(port.index * this.n + s) * QS + Q_PAUSED]! > 0;
  }

  push(port: Port, pkt: number, q: number, size: number, meta: number, dst: number, hash: number, inPort: number): void {
    const p = port.index;
    const ft = this.ft;
    const f = (p * this.tableSize + (hash & this.tableMask)) * FS;
    const s = ft[f + F_COUNT] === 0 && ft[f + F_PAUSES] === 0 ? this.assign(p, f, hash) : ft[f + F_QUEUE]!;
    ft[f + F_COUNT] = ft[f + F_COUNT]! + 1;
    const qs = this.qs;
    const r = (p * this.n + s) * QS;
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
    if (qs[r + Q_PKTS] === 0) {
      qs[r + Q_HEAD] = e;
      this.nonEmpty[p * this.words + (s >> 5)]! |= 1 << (s & 31);
    } else ent[qs[r + Q_TAIL]! * ES + X_NEXT] = e;
    qs[r + Q_TAIL] = e;
    qs[r + Q_PKTS] = qs[r + Q_PKTS]! + 1;
    const qb = (qs[r + Q_BYTES] = qs[r + Q_BYTES]! + size);
    if (qb > this.maxQueueBytes) this.maxQueueBytes = qb;
    // the class's and the port's counts, as the port's own enqueue keeps them
    const a = this.ctx.arena;
    const b = port.qb + q * C_STRIDE;
    const n0 = a[b + C_PKTS]!;
    if (n0 === 0) port.nonEmpty |= 1 << q;
    a[b + C_BYTES] = a[b + C_BYTES]! + size;
    a[b + C_PKTS] = n0 + 1;
    port.totalBytes += size;
    port.totalPkts++;
    port.rxBytes += size;
    if (port.totalBytes > port.maxQueueBytes) port.maxQueueBytes = port.totalBytes;
    // the class is blocked while every non-empty queue is paused
    if (qs[r + Q_PAUSED] === 0) {
      if (((port.blockedMask >> q) & 1) === 1) this.setBlocked(port, q, false, false);
    } else if (n0 === 0) this.setBlocked(port, q, true, false);
    // backpressure: the flow's queue is above the threshold, pause the flow at the upstream hop it came from
    if (qb > this.pauseBytes[p]! && metaType(meta) === PKT_DATA) this.pauseUpstream(r, this.ctx.pool.flow(pkt), hash, inPort);
    port.kick();
  }

  pop(port: Port, q: number): number {
    const p = port.index;
    const s = this.nextReady(p);
    this.rr[p] = s;
    const qs = this.qs;
    const r = (p * this.n + s) * QS;
    const e = qs[r + Q_HEAD]!;
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
    qs[r + Q_HEAD] = ent[x + X_NEXT]!;
    ent[x + X_NEXT] = this.entFree;
    this.entFree = e;
    const left = qs[r + Q_PKTS]! - 1;
    qs[r + Q_PKTS] = left;
    const qb = (qs[r + Q_BYTES] = qs[r + Q_BYTES]! - size);
    if (left === 0) this.nonEmpty[p * this.words + (s >> 5)]! &= ~(1 << (s & 31));
    const a = this.ctx.arena;
    const b = port.qb + q * C_STRIDE;
    const n = a[b + C_PKTS]! - 1;
    if (n === 0) port.nonEmpty &= ~(1 << q);
    a[b + C_BYTES] = a[b + C_BYTES]! - size;
    a[b + C_PKTS] = n;
    port.totalBytes -= size;
    port.totalPkts--;
    port.lastQueue = q;
    const ft = this.ft;
    const f = (p * this.tableSize + (hash & this.tableMask)) * FS;
    const c = ft[f + F_COUNT]! - 1;
    ft[f + F_COUNT] = c;
    if (c === 0 && ft[f + F_PAUSES] === 0) this.release(p, f);
    if (qs[r + Q_PLIST]! >= 0 && qb <= this.resumeBytes[p]!) this.resumeAll(r);
    if (left === 0 && n > 0 && this.nextReady(p) < 0) this.setBlocked(port, q, true, false);
    return pkt;
  }

  holds(port: Port, inPort: number): boolean {
    for (let s = 0; s < this.n; s++) {
      const r = (port.index * this.n + s) * QS;
      for (let e = this.qs[r + Q_PKTS]! > 0 ? this.qs[r + Q_HEAD]! : -1; e >= 0; e = this.ent[e * ES + X_NEXT]!) {
        if (this.ent[e * ES + X_IN] === inPort) return true;
      }
    }
    return false;
  }

  /**
   * A BFC frame arrived on port `port` from the downstream hop: pause or
   * resume flow (`hash`) at this port, i.e. count one pause in or out of the
   * flow's entry and of the physical queue it is assigned to here (assigning
   * one if it has no entry, so its next packets wait there). Pauses are
   * counted, not flagged: the downstream sends one per (flow, its queue), and
   * flows sharing an entry here share its queue, so each pause holds the
   * queue until its own resume.
   */
  onFrame(port: Port, hash: number, pause: boolean): void {
    const p = port.index;
    const ft = this.ft;
    const qs = this.qs;
    const f = (p * this.tableSize + (hash & this.tableMask)) * FS;
    const held = ft[f + F_PAUSES]!;
    if (pause === true) {
      if (ft[f + F_COUNT] === 0 && held === 0) this.assign(p, f, hash);
      ft[f + F_PAUSES] = held + 1;
      const s = ft[f + F_QUEUE]!;
      const r = (p * this.n + s) * QS;
      const was = qs[r + Q_PAUSED]!;
      qs[r + Q_PAUSED] = was + 1;
      if (was === 0) {
        this.pausedBits[p * this.words + (s >> 5)]! |= 1 << (s & 31);
        if (qs[r + Q_PKTS]! > 0 && this.nextReady(p) < 0) this.setBlocked(port, this.cls, true, false);
      }
      return;
    }
    if (held === 0) return;
    ft[f + F_PAUSES] = held - 1;
    const s = ft[f + F_QUEUE]!;
    const r = (p * this.n + s) * QS;
    const now = qs[r + Q_PAUSED]! - 1;
    qs[r + Q_PAUSED] = now;
    if (now === 0) {
      this.pausedBits[p * this.words + (s >> 5)]! &= ~(1 << (s & 31));
      if (qs[r + Q_PKTS]! > 0 && ((port.blockedMask >> this.cls) & 1) === 1) this.setBlocked(port, this.cls, false, true);
    }
    if (ft[f + F_COUNT] === 0 && held === 1) this.release(p, f);
  }

  /** A new flow's queue at port p (flow-table record f): the lowest empty one, else its hash's. */
  private assign(p: number, f: number, hash: number): number {
    const base = p * this.words;
    let s = -1;
    for (let w = 0; w < this.words; w++) {
      const b = this.freeBits[base + w]!;
      if (b !== 0) {
        s = (w << 5) + (31 - Math.clz32(b & -b));
        break;
      }
    }
    if (s < 0) {
      s = (hash >>> 0) % this.n;
      this.sharedAssignments++;
    }
    this.ft[f + F_QUEUE] = s;
    const r = (p * this.n + s) * QS;
    const was = this.qs[r + Q_FLOWS]!;
    this.qs[r + Q_FLOWS] = was + 1;
    if (was === 0) {
      this.freeBits[base + (s >> 5)]! &= ~(1 << (s & 31));
      const used = ++this.inUse[p]!;
      if (used > this.maxQueuesInUse) this.maxQueuesInUse = used;
    }
    return s;
  }

  /** The flow of record f left port p's table (no packets, no pause). */
  private release(p: number, f: number): void {
    const s = this.ft[f + F_QUEUE]!;
    const r = (p * this.n + s) * QS;
    const now = this.qs[r + Q_FLOWS]! - 1;
    this.qs[r + Q_FLOWS] = now;
    if (now === 0) {
      this.freeBits[p * this.words + (s >> 5)]! |= 1 << (s & 31);
      this.inUse[p]!--;
    }
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

  /**
   * Queue record r is above the threshold and a data packet of `flow` joined
   * it from ingress `inPort`: pause the flow at that upstream hop unless this
   * queue already has (one record per flow and ingress, whatever entry or
   * queue the flow shares).
   */
  private pauseUpstream(r: number, flow: number, hash: number, inPort: number): void {
    const rec = this.rec;
    for (let x = this.qs[r + Q_PLIST]!; x >= 0; x = rec[x * RS + R_NEXT]!) {
      if (rec[x * RS + R_FLOW] === flow && rec[x * RS + R_IN] === inPort) return;
    }
    let x = this.recFree;
    if (x >= 0) this.recFree = this.rec[x * RS + R_NEXT]!;
    else x = this.newRecord();
    const o = x * RS;
    this.rec[o + R_FLOW] = flow;
    this.rec[o + R_HASH] = hash;
    this.rec[o + R_IN] = inPort;
    this.rec[o + R_NEXT] = this.qs[r + Q_PLIST]!;
    this.qs[r + Q_PLIST] = x;
    this.pausesSent++;
    this.send(inPort, flow, hash, true);
  }

  /** Queue record r drained to its resume threshold: resume every flow it paused upstream. */
  private resumeAll(r: number): void {
    const rec = this.rec;
    let x = this.qs[r + Q_PLIST]!;
    this.qs[r + Q_PLIST] = -1;
    while (x >= 0) {
      const o = x * RS;
      const next = rec[o + R_NEXT]!;
      this.resumesSent++;
      this.send(rec[o + R_IN]!, rec[o + R_FLOW]!, rec[o + R_HASH]!, false);
      rec[o + R_NEXT] = this.recFree;
      this.recFree = x;
      x = next;
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

  private newRecord(): number {
    if ((this.recTop + 1) * RS > this.rec.length) {
      const bigger = new Int32Array(this.rec.length * 2);
      bigger.set(this.rec);
      this.rec = bigger;
    }
    return this.recTop++;
  }
}
