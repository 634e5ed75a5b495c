/**
 * The network's part of the FCT breakdown (`metrics.breakdown`, docs/guide.md "Why a flow was
 * slow"): how long each packet waited at each port, summed per flow and per port, and when each
 * port's classes were paused by PFC. Made only when the spec asks for the breakdown; the hot
 * path's hooks are one null test of `NetContext.acct` (port.ts `transmitDq`, host.ts `receive` /
 * `sendControl`, pfc-rx.ts).
 *
 * A packet's queueing at a port is the time from its arrival at the port's node (the previous
 * hop's transmission end plus the link's delay) to the start of its transmission there. A
 * sender NIC's data packet is built when it starts transmitting: the sender's waits are the
 * transport's (transport/breakdown-sender.ts), which adds them to the NIC's port here.
 */
import type { Scheduler } from '../engine/scheduler.js';
import * as packet from './packet.js';
import type { PacketStore } from './packet.js';
import type { NicFlow } from './host.js';

const { PKT_ACK, PKT_CNP, PKT_DATA, PKT_NACK, PKT_PFC, metaType } = packet;

/**
 * Ports remembered per flow (the ones beyond go to one "other" sum: spraying over many paths).
 * A flow's block of slots is laid out by the ports' slot hints (`slotOf`, by gid: the port's
 * role in the fabric, metrics/breakdown.ts): a flow on one path meets one port per role (its NIC,
 * the ToR's uplink, ..., the ToR's downlink), so its packet at a port finds the port's slot at
 * the hinted place with one comparison instead of scanning the ports it met before. A port whose
 * hinted slot another port holds (several paths) takes the first free slot.
 */
export const FLOW_PORT_SLOTS = 16;
/** a slot's words in `QueueAccount.sl`: gid, queueing, end of the last wait counted, when taken */
const SLOT_W = 4;
const S_Q = 1;
const S_END = 2;
const S_SEQ = 3;

/** The transport's per-flow hooks (transport/breakdown-sender.ts): the NIC builds a flow's packet, or looks at the flow again. */
export interface FlowAccount {
  build(f: NicFlow): number;
  touch(f: NicFlow): void;
}

/** When one (port, class) was paused: transitions pause, resume, pause, ... and the paused time before each. */
class PauseHistory {
  t = new Float64Array(16);
  c = new Float64Array(16);
  n = 0;

  push(now: number): void {
    const n = this.n;
    if (n === this.t.length) {
      const t = new Float64Array(n * 2);
      t.set(this.t);
      this.t = t;
      const c = new Float64Array(n * 2);
      c.set(this.c);
      this.c = c;
    }
    // an odd index is a resume: the interval since the pause before it counts
    this.c[n] = n === 0 ? 0 : (n & 1) === 1 ? this.c[n - 1]! + (now - this.t[n - 1]!) : this.c[n - 1]!;
    this.t[n] = now;
    this.n = n + 1;
  }

  /** Paused time in [0, at] (ps). Searches back from the newest transition (queries are recent). */
  at(at: number): number {
    const t = this.t;
    let i = this.n - 1;
    while (i >= 0 && t[i]! > at) i--;
    if (i < 0) return 0;
    return (i & 1) === 0 ? this.c[i]! + (at - t[i]!) : this.c[i]!;
  }
}

export class QueueAccount {
  /**
   * per packet id, side by side (one cache line per hop): at 2 id when it reached the node it is
   * at, at 2 id + 1 its queueing on the hops so far (ps)
   */
  private pt = new Float64Array(2 * 4096);
  /** by port gid: 1 for a host's NIC */
  readonly isHost: Uint8Array;
  /**
   * by port gid: the time its flows queued there, summed over flows (ps): a flow queues at a switch
   * port while one of its data packets waits there, at its NIC during its `nic` and `pfc` time
   */
  readonly queuePs: Float64Array;
  /** by port gid: time any class of the port was paused by its peer's PFC, summed over classes (ps) */
  readonly pausedPs: Float64Array;
  private readonly pauseSince: Float64Array;
  private readonly hist = new Map<number, PauseHistory>();
  /** by gid * 8 + class: 1 once a NIC class was paused (`everPaused`, asked per data packet: no Map lookup) */
  private readonly histSeen: Uint8Array;
  // per flow: a block of port slots while it runs
  private blockOfFlow = new Int32Array(1024).fill(-1);
  private readonly freeBlocks: number[] = [];
  private blocks = 0;
  /**
   * slot k at 4 k, its words side by side (one cache line per access): the port's gid (-1: free),
   * the flow's queueing there, the end of the last wait counted there, and when the slot was taken
   * (a count: the worst port of equal queueing is the one met first)
   */
  private sl = new Float64Array(0);
  private seq = 0;
  /** by port gid: the slot it takes in a flow's block when free (0 .. FLOW_PORT_SLOTS - 1) */
  private readonly slotOf: Uint8Array;
  private otherQ = new Float64Array(0);
  /** per block: the queueing of the flow's last data packet received (its ACK carries it back) */
  private lastQ = new Float64Array(0);
  /** the last ACK or NACK a host received: its flow, time and queueing (data packet and ACK) */
  private ackFlow = -1;
  private ackAt = -1;
  private ackQ = 0;
  /** `close`'s answer: the flow's port with the most queueing (gid, -1: none) and that queueing */
  worstGid = -1;
  worstQ = 0;

  /** a waiting data packet's arrival and transmission start (`hop` to `addFlowWait`: fields, not double arguments V8 would box) */
  private waitFrom = 0;
  private waitTo = 0;

  constructor(
    private readonly pool: PacketStore,
    private readonly sched: Scheduler,
    hostPorts: readonly number[],
    portCount: number,
    slotHints?: ArrayLike<number>,
  ) {
    this.slotOf = new Uint8Array(portCount);
    if (slotHints !== undefined) for (let g = 0; g < portCount; g++) this.slotOf[g] = slotHints[g]! % FLOW_PORT_SLOTS;
    this.isHost = new Uint8Array(portCount);
    for (const g of hostPorts) this.isHost[g] = 1;
    this.queuePs = new Float64Array(portCount);
    this.pausedPs = new Float64Array(portCount);
    this.pauseSince = new Float64Array(portCount * 8).fill(-1);
    this.histSeen = new Uint8Array(portCount * 8);
  }

  private growPackets(pkt: number): void {
    let n = this.pt.length;
    while (n <= 2 * pkt + 1) n *= 2;
    const a = new Float64Array(n);
    a.set(this.pt);
    this.pt = a;
  }

  /**
   * Port gid starts transmitting packet `pkt` now; it reaches the next node after `ser` + `delay`
   * ps. The hooks take the time from the scheduler and only small integers as arguments: a double
   * passed to a call V8 does not inline is boxed (an allocation per packet and hop).
   */
  hop(gid: number, pkt: number, meta: number, ser: number, delay: number): void {
    const i = 2 * pkt;
    if (i >= this.pt.length) this.growPackets(pkt);
    const type = metaType(meta);
    if (type === PKT_PFC) return;
    const now = this.sched.now;
    const pt = this.pt;
    const a = pt[i]!;
    // the same sums as the port's: (now + ser) + delay
    pt[i] = now + ser + delay;
    if (this.isHost[gid] === 1) {
      // a data packet starts here (its waits are the sender's); a control packet waited since it was made
      if (type === PKT_DATA) pt[i + 1] = 0;
      else if (now > a) pt[i + 1] = pt[i + 1]! + (now - a);
      return;
    }
    if (now <= a) return;
    pt[i + 1] = pt[i + 1]! + (now - a);
    if (type !== PKT_DATA) return;
    const b = this.blockOf(this.pool.flow(pkt));
    if (b < 0) return;
    this.waitFrom = a;
    this.waitTo = now;
    this.addFlowWait(b, gid);
  }

  /**
   * The flow of block b had a data packet waiting at port gid from `waitFrom` to `waitTo`: its time
   * queued there grows by the part of that interval not already counted (the union of its packets'
   * waits, so at most the time it was running; a port serves one flow's packets of a class in order).
   */
  private addFlowWait(b: number, gid: number): void {
    const a = this.waitFrom;
    const s = this.waitTo;
    const sl = this.sl;
    let x = (b * FLOW_PORT_SLOTS + this.slotOf[gid]!) * SLOT_W;
    if (sl[x] !== gid) {
      x = this.slotFor(b, gid);
      if (x < 0) {
        // more ports than slots (spraying over many paths): the port's total still counts it
        this.queuePs[gid] = this.queuePs[gid]! + (s - a);
        this.otherQ[b] = this.otherQ[b]! + (s - a);
        return;
      }
    }
    const end = sl[x + S_END]!;
    const add = s - (a > end ? a : end);
    if (add > 0) {
      sl[x + S_Q] = sl[x + S_Q]! + add;
      this.queuePs[gid] = this.queuePs[gid]! + add;
    }
    if (s > end) sl[x + S_END] = s;
  }

  /**
   * Port gid's slot in block b (its index in `sl`), taken now if the port has none: its hinted
   * slot if free, else the first free one; -1: all taken.
   */
  private slotFor(b: number, gid: number): number {
    const o = b * FLOW_PORT_SLOTS * SLOT_W;
    const last = o + FLOW_PORT_SLOTS * SLOT_W;
    const sl = this.sl;
    let x = o + this.slotOf[gid]! * SLOT_W;
    if (sl[x] !== -1) {
      // the hinted slot is another port's: the port is elsewhere in the block, or takes the first free slot
      let free = -1;
      for (x = o; x < last; x += SLOT_W) {
        if (sl[x] === gid) return x;
        if (free < 0 && sl[x] === -1) free = x;
      }
      if (free < 0) return -1;
      x = free;
    }
    sl[x] = gid;
    sl[x + S_Q] = 0;
    sl[x + S_END] = 0;
    sl[x + S_SEQ] = this.seq++;
    return x;
  }

  /** A host made control packet `pkt` (ACK, NACK, CNP) now; an ACK carries its data packet's queueing. */
  created(pkt: number): void {
    if (2 * pkt >= this.pt.length) this.growPackets(pkt);
    this.pt[2 * pkt] = this.sched.now;
    const b = metaType(this.pool.meta(pkt)) === PKT_CNP ? -1 : this.blockOf(this.pool.flow(pkt));
    this.pt[2 * pkt + 1] = b >= 0 ? this.lastQ[b]! : 0;
  }

  /** A host received `pkt` now. */
  rx(pkt: number, meta: number): void {
    if (2 * pkt >= this.pt.length) return;
    const type = metaType(meta);
    if (type === PKT_DATA) {
      const b = this.blockOf(this.pool.flow(pkt));
      if (b >= 0) this.lastQ[b] = this.pt[2 * pkt + 1]!;
    } else if (type === PKT_ACK || type === PKT_NACK) {
      this.ackFlow = this.pool.flow(pkt);
      this.ackAt = this.sched.now;
      this.ackQ = this.pt[2 * pkt + 1]!;
    }
  }

  /** The queueing of the ACK that flow `id` received at `now` and of the data packet it answers, or 0 if none arrived then. */
  ackQueue(id: number, now: number): number {
    return this.ackFlow === id && this.ackAt === now ? this.ackQ : 0;
  }

  /** Class `cls` of port gid was paused (true) or resumed now: only changes of its state. */
  pause(gid: number, cls: number, now: number, pause: boolean): void {
    const k = gid * 8 + cls;
    if (pause) this.pauseSince[k] = now;
    else if (this.pauseSince[k]! >= 0) {
      this.pausedPs[gid] = this.pausedPs[gid]! + (now - this.pauseSince[k]!);
      this.pauseSince[k] = -1;
    } else return;
    if (this.isHost[gid] !== 1) return;
    let h = this.hist.get(k);
    if (h === undefined) {
      if (!pause) return;
      h = new PauseHistory();
      this.hist.set(k, h);
      this.histSeen[k] = 1;
    }
    h.push(now);
  }

  /** Paused time of class `cls` of NIC port gid in [0, at], ps (0 if it was never paused). */
  pausedAt(gid: number, cls: number, at: number): number {
    const h = this.hist.get(gid * 8 + cls);
    return h === undefined ? 0 : h.at(at);
  }

  /** Whether class `cls` of NIC port gid was ever paused. */
  everPaused(gid: number, cls: number): boolean {
    return this.histSeen[gid * 8 + cls] === 1;
  }

  /** The end of the run: pauses still in force count up to `now`. */
  closePauses(now: number): void {
    const s = this.pauseSince;
    for (let k = 0; k < s.length; k++) {
      if (s[k]! < 0) continue;
      const gid = k >> 3;
      this.pausedPs[gid] = this.pausedPs[gid]! + (now - s[k]!);
      s[k] = -1;
    }
  }

  /** Flow `id`'s block of port slots (-1: none). */
  blockOf(id: number): number {
    return id >= 0 && id < this.blockOfFlow.length ? this.blockOfFlow[id]! : -1;
  }

  /** Gives flow `id` a block (it starts being accounted); returns it. */
  open(id: number): number {
    if (id >= this.blockOfFlow.length) {
      let n = this.blockOfFlow.length;
      while (n <= id) n *= 2;
      const a = new Int32Array(n).fill(-1);
      a.set(this.blockOfFlow);
      this.blockOfFlow = a;
    }
    let b = this.freeBlocks.pop();
    if (b === undefined) {
      b = this.blocks++;
      if (b >= this.lastQ.length) this.growBlocks(Math.max(64, b * 2));
    }
    this.blockOfFlow[id] = b;
    for (let x = b * FLOW_PORT_SLOTS * SLOT_W; x < (b + 1) * FLOW_PORT_SLOTS * SLOT_W; x += SLOT_W) this.sl[x] = -1;
    this.otherQ[b] = 0;
    this.lastQ[b] = 0;
    return b;
  }

  /** Number of blocks in use or made (the transport sizes its per-block state by it). */
  get blockCapacity(): number {
    return this.lastQ.length;
  }

  private growBlocks(cap: number): void {
    const sl = new Float64Array(cap * FLOW_PORT_SLOTS * SLOT_W);
    sl.set(this.sl);
    this.sl = sl;
    const o = new Float64Array(cap);
    o.set(this.otherQ);
    this.otherQ = o;
    const l = new Float64Array(cap);
    l.set(this.lastQ);
    this.lastQ = l;
  }

  /** Adds `w` ps of queueing of the flow of block b at port gid (and to the port's total when `port`). */
  addFlowQueue(b: number, gid: number, w: number, port = false): void {
    if (port) this.queuePs[gid] = this.queuePs[gid]! + w;
    let x = (b * FLOW_PORT_SLOTS + this.slotOf[gid]!) * SLOT_W;
    if (this.sl[x] !== gid) x = this.slotFor(b, gid);
    if (x < 0) this.otherQ[b] = this.otherQ[b]! + w;
    else this.sl[x + S_Q] = this.sl[x + S_Q]! + w;
  }

  /** Flow `id` is done: sets `worstGid` / `worstQ` (the first port of the most queueing) and frees its block. */
  close(id: number): void {
    this.worstGid = -1;
    this.worstQ = 0;
    const b = this.blockOf(id);
    if (b < 0) return;
    const sl = this.sl;
    const o = b * FLOW_PORT_SLOTS * SLOT_W;
    let seq = 0;
    for (let x = o; x < o + FLOW_PORT_SLOTS * SLOT_W; x += SLOT_W) {
      const g = sl[x]!;
      if (g === -1) continue;
      const q = sl[x + S_Q]!;
      // of equal queueing, the port the flow met first (slots are by role, not in the order met)
      if (q > this.worstQ || (q === this.worstQ && q > 0 && sl[x + S_SEQ]! < seq)) {
        this.worstQ = q;
        this.worstGid = g;
        seq = sl[x + S_SEQ]!;
      }
    }
    this.blockOfFlow[id] = -1;
    this.freeBlocks.push(b);
  }
}
