/**
 * The sender's part of the FCT breakdown (`metrics.breakdown`; the states are defined in
 * docs/guide.md, "Why a flow was slow"). A flow's time from its start to its completion is cut
 * at the start and end of each of its transmissions at its NIC:
 *
 * - a transmission is `tx` (new data) or `loss` (a retransmission: `FLAG_RETX`);
 * - the wait before a retransmission is `loss` (the wait for the NACK, a timeout);
 * - the wait before a new packet is, instant by instant: `pfc` while the flow's class was paused
 *   at its NIC; else `cc` until the CC and send driver allowed the packet (window or credit
 *   open, pacing time and hold passed); else `nic` (allowed, the NIC sent other packets);
 * - after its last transmission ends, the tail: `tail_queue` (the queueing on every hop of the
 *   ACK that completed the flow and of the data packet it answers, at most the tail) and
 *   `tail_base` (the rest: propagation, serialization after the NIC, the receiver's ACK delay).
 *
 * The parts are integer ps and add up to the FCT by construction: each instant is counted once.
 * The window opening is seen when the NIC is told the flow changed (`touch`); an opening it was
 * not told of counts as held until the packet.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { Host, NicFlow } from '../net/host.js';
import * as packet from '../net/packet.js';
import type { PacketStore } from '../net/packet.js';
import type { FlowAccount, QueueAccount } from '../net/queue-account.js';
import type { Flow } from './flow.js';
import type { Transport } from './transport.js';

const { FLAG_RETX } = packet;

/** The parts of a flow's FCT, in the order of `FlowParts`' values and of fct.csv's columns. */
export const BREAKDOWN_PARTS = ['tx', 'cc', 'pfc', 'nic', 'loss', 'tail_queue', 'tail_base'] as const;
export type BreakdownPart = (typeof BREAKDOWN_PARTS)[number];
const K = BREAKDOWN_PARTS.length;
const TX = 0;
const CC = 1;
const PFC = 2;
const NIC = 3;
const LOSS = 4;
const TAIL_QUEUE = 5;
const TAIL_BASE = 6;

/**
 * A block's words in `SenderAccount.w`, side by side (a data packet's accounting touches one or two
 * cache lines, not one per array): the parts, the end of the flow's last transmission, when its
 * window last opened, whether it is closed now, the part the last transmission went to.
 */
const W = 16;
const CUR = K;
const OPEN_AT = K + 1;
const BLOCKED = K + 2;
const LAST_PART = K + 3;

export class SenderAccount implements FlowAccount {
  private readonly sched: Scheduler;
  private readonly pool: PacketStore;
  /** per block (QueueAccount's), W words: see W */
  private w = new Float64Array(0);
  /** `finish`'s answer: the parts of the flow that finished (ps) */
  readonly out = new Float64Array(K);

  constructor(
    private readonly transport: Transport,
    private readonly qa: QueueAccount,
    private readonly hosts: readonly Host[],
  ) {
    this.sched = transport.sched;
    this.pool = transport.pool;
  }

  private open(f: Flow): number {
    const b = this.qa.open(f.id);
    if ((b + 1) * W > this.w.length) {
      const w = new Float64Array(this.qa.blockCapacity * W);
      w.set(this.w);
      this.w = w;
    }
    const o = b * W;
    this.w.fill(0, o, o + K);
    this.w[o + CUR] = f.startPs;
    this.w[o + OPEN_AT] = f.startPs;
    this.w[o + BLOCKED] = 0;
    this.w[o + LAST_PART] = TX;
    return b;
  }

  /** The NIC chose flow `nf` to send now: builds its packet and accounts the wait before it and its transmission. */
  build(nf: NicFlow): number {
    const f = nf as Flow;
    const now = this.sched.now;
    const qa = this.qa;
    let b = qa.blockOf(f.id);
    if (b < 0) b = this.open(f);
    const w = this.w;
    const o = b * W;
    // what allowed this packet, read before building it moves the pacer
    let e = w[o + BLOCKED] === 1 ? now : w[o + OPEN_AT]!;
    const ready = f.readyAt();
    if (ready > e) e = ready;
    const p = this.transport.sendData(f);
    const port = this.hosts[f.src]!.port;
    const t0 = w[o + CUR]!;
    const retx = this.pool.has(p, FLAG_RETX);
    if (now > t0) {
      if (retx) w[o + LOSS] = w[o + LOSS]! + (now - t0);
      else {
        if (e < t0) e = t0;
        if (e > now) e = now;
        let pfc = 0;
        let cc = e - t0;
        let nic = now - e;
        if (qa.everPaused(port.gid, f.prio)) {
          const p0 = qa.pausedAt(port.gid, f.prio, t0);
          const pe = qa.pausedAt(port.gid, f.prio, e);
          const p1 = qa.pausedAt(port.gid, f.prio, now);
          pfc = p1 - p0;
          cc -= pe - p0;
          nic -= p1 - pe;
        }
        w[o + CC] = w[o + CC]! + cc;
        w[o + PFC] = w[o + PFC]! + pfc;
        w[o + NIC] = w[o + NIC]! + nic;
        if (pfc + nic > 0) qa.addFlowQueue(b, port.gid, pfc + nic, true);
      }
    }
    const ser = port.serPs(this.pool.size(p));
    const k = retx ? LOSS : TX;
    w[o + k] = w[o + k]! + ser;
    w[o + LAST_PART] = k;
    w[o + CUR] = now + ser;
    w[o + BLOCKED] = f.maySend() ? 0 : 1;
    return p;
  }

  /** Something that decides whether `nf` may send changed: note when its window (or credit) opens. */
  touch(nf: NicFlow): void {
    const b = this.qa.blockOf(nf.id);
    if (b < 0) return;
    const may = nf.maySend();
    const o = b * W;
    if (this.w[o + BLOCKED] === 1) {
      if (may) {
        this.w[o + BLOCKED] = 0;
        this.w[o + OPEN_AT] = this.sched.now;
      }
    } else if (!may) this.w[o + BLOCKED] = 1;
  }

  /**
   * Flow f completed: its parts into `out`, its worst port into the QueueAccount's
   * `worstGid` / `worstQ` / `worstT`; its blocks are freed.
   */
  finish(f: Flow): void {
    let b = this.qa.blockOf(f.id);
    if (b < 0) b = this.open(f);
    const w = this.w;
    const o = b * W;
    let tail = f.finishPs - w[o + CUR]!;
    if (tail < 0) {
      // completed while a (needless) retransmission was still leaving the NIC: its end is cut off
      const lp = o + w[o + LAST_PART]!;
      w[lp] = w[lp]! + tail;
      tail = 0;
    }
    const aq = this.qa.ackQueue(f.id, f.finishPs);
    const tq = aq < tail ? aq : tail;
    w[o + TAIL_QUEUE] = tq;
    w[o + TAIL_BASE] = tail - tq;
    for (let i = 0; i < K; i++) this.out[i] = w[o + i]!;
    this.qa.close(f.id);
  }
}
