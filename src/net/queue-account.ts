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
 *
 * Where the numbers travel: a packet's arrival time rides in its port-queue entry (port.ts writes
 * the time it was queued, which is its arrival at a switch and its making at a host, into the
 * entry's unused words, and hands it to `at` when it dequeues the packet; a packet that goes
 * straight through did not wait). Only its queueing sum is kept per packet id (`pq`), and a hop
 * touches it only when the packet waited, at its sender's NIC and at its receiver: a hop that did
 * not wait reads nothing per packet (docs/performance.md, "The FCT breakdown's cost"). A BFC
 * switch's split queues keep entries of their own (bfc.ts), so with one in the network the
 * arrival times are kept per packet id (`arr`) and read from there.
 *
 * A flow's waits count at a switch port while the flow runs: those that end at or after its
 * completion time do not (on one thread the block is closed at completion, and a wait that ended
 * at that same picosecond before it is taken back, `close`). On the parallel engine a partition
 * counts the flows of other partitions' senders in blocks of its own (`partition`), keeps a log of
 * the window's waits, and when it learns at the window's end that such a flow completed takes back
 * the waits at or after its completion (`settle`) and gives its worst port as a candidate: the same
 * numbers as one thread, with no dependence on the order of events at one picosecond.
 */
import type { Scheduler } from '../engine/scheduler.js';
import * as packet from './packet.js';
import type { PacketStore } from './packet.js';
import type { NicFlow } from './host.js';

const { PKT_ACK, PKT_CNP, PKT_DATA, PKT_NACK, PKT_PFC, metaType } = packet;

/**
 * Ports per block of a flow (a flow that meets more, spraying over many paths, chains a further
 * block: every port a flow meets is counted). A flow's block of slots is laid out by the ports' slot hints (`slotOf`, by gid: the port's
 * role in the fabric, metrics/breakdown.ts): a flow on one path meets one port per role (its NIC,
 * the ToR's uplink, ..., the ToR's downlink), so its packet at a port finds the port's slot at
 * the hinted place with one comparison instead of scanning the ports it met before. A port whose
 * hinted slot another port holds (several paths) takes the first free slot.
 */
export const FLOW_PORT_SLOTS = 8;
/**
 * a slot's words in `QueueAccount.sl`, side by side in one cache line: gid, queueing, end of the
 * last wait counted, when it was taken (the start of the first wait counted), the last wait's part
 */
const SLOT_W = 8;
const S_Q = 1;
const S_END = 2;
const S_T = 3;
const S_LAST = 4;
const BLOCK_W = FLOW_PORT_SLOTS * SLOT_W;
/** `blockOfFlow` of a flow that completed (no block, and none is opened for it) */
const CLOSED = -2;
/** a log entry (`partition`): the flow, its slot's index in `sl`, the port, the wait's end and the part counted */
const LOG_W = 5;

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
  /** per packet id: its queueing on the hops so far (ps) */
  private pq = new Float64Array(4096);
  /**
   * The arrival at its node of the packet a port dequeued last (port.ts, from the packet's queue
   * entry), for that packet's `hop`; Infinity after it (a packet that went straight through).
   */
  at = Infinity;
  /** per packet id, when it reached the node it is at: kept only for BFC's split queues (`trackArrivals`), else null */
  private arr: Float64Array | null = null;
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
  // per flow: a block of port slots while it runs (-1: none yet, CLOSED: completed)
  private blockOfFlow = new Int32Array(1024).fill(-1);
  private readonly freeBlocks: number[] = [];
  private blocks = 0;
  /** per block: the block chained after it (a flow that meets more ports than a block holds), -1: none */
  private next = new Int32Array(0);
  /**
   * slot k at 8 k, its words side by side (one cache line per access): the port's gid (-1: free),
   * the flow's queueing there, the end of the last wait counted there, when the slot was taken (the
   * worst port of equal queueing is the one met first) and the last wait's counted part
   */
  private sl = new Float64Array(0);
  /** by port gid: the slot it takes in a flow's block when free (0 .. FLOW_PORT_SLOTS - 1) */
  private readonly slotOf: Uint8Array;
  /** per block: the queueing of the flow's last data packet received (its ACK carries it back) */
  private lastQ = new Float64Array(0);
  /** the last ACK or NACK a host received: its flow, time and queueing (data packet and ACK) */
  private ackFlow = -1;
  private ackAt = -1;
  private ackQ = 0;
  /** `close`'s answer: the flow's port with the most queueing (gid, -1: none), that queueing, and when the flow met it */
  worstGid = -1;
  worstQ = 0;
  worstT = 0;

  /** a waiting data packet's arrival and transmission start (`hop` to `addFlowWait`: fields, not double arguments V8 would box) */
  private waitFrom = 0;
  private waitTo = 0;
  /** on the parallel engine (`partition`): whether another partition sends flow `id` (asked once per flow); null on one thread */
  private remote: ((id: number) => boolean) | null = null;
  /** per block: 1 when its flow's sender is in another partition */
  private remoteBlock = new Uint8Array(0);
  /** the window's waits of other partitions' flows (LOG_W words each), and by flow id the completion time `settle` takes back from */
  private log = new Float64Array(0);
  private logN = 0;
  private doneAt = new Float64Array(0);

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
    let n = this.pq.length;
    while (n <= pkt) n *= 2;
    const a = new Float64Array(n);
    a.set(this.pq);
    this.pq = a;
    if (this.arr !== null) {
      const r = new Float64Array(n);
      r.set(this.arr);
      this.arr = r;
    }
  }

  /**
   * A switch keeps some packets in split queues (BFC, bfc.ts) whose entries have no time: every
   * packet's arrival is kept per id, and `hop` takes it from there (as it did before the queue
   * entries carried it).
   */
  trackArrivals(): void {
    this.arr ??= new Float64Array(this.pq.length);
  }

  /**
   * Port gid starts transmitting packet `pkt` now; it reaches the next node after `ser` + `delay`
   * ps. The hooks take the time from the scheduler and only small integers as arguments: a double
   * passed to a call V8 does not inline is boxed (an allocation per packet and hop).
   */
  hop(gid: number, pkt: number, meta: number, ser: number, delay: number): void {
    if (pkt >= this.pq.length) this.growPackets(pkt);
    const type = metaType(meta);
    // (a PFC frame may go out between a data packet's dequeue and its hop: `at` stays the packet's)
    if (type === PKT_PFC) return;
    let a = this.at;
    this.at = Infinity;
    const now = this.sched.now;
    const arr = this.arr;
    if (arr !== null) {
      // `trackArrivals`: the arrival kept per id (the same sums as the port's: (now + ser) + delay)
      a = arr[pkt]!;
      arr[pkt] = now + ser + delay;
    }
    const pq = this.pq;
    if (this.isHost[gid] === 1) {
      // a data packet starts here (its waits are the sender's); a control packet waited since it was made
      if (type === PKT_DATA) pq[pkt] = 0;
      else if (now > a) pq[pkt] = pq[pkt]! + (now - a);
      return;
    }
    if (now <= a) return;
    pq[pkt] = pq[pkt]! + (now - a);
    if (type !== PKT_DATA) return;
    // the rest in a call of its own: hop stays small enough for V8 to inline it into the port's transmission
    this.waitFrom = a;
    this.waitTo = now;
    this.addFlowWait(pkt, gid);
  }

  /**
   * Data packet `pkt` waited at port gid from `waitFrom` to `waitTo`: its flow's time queued there
   * grows by the part of that interval not already counted (the union of its packets' waits, so at
   * most the time it was running; a port serves one flow's packets of a class in order).
   */
  private addFlowWait(pkt: number, gid: number): void {
    const flow = this.pool.flow(pkt);
    let b = this.blockOf(flow);
    if (b < 0) {
      // one thread: the flow completed; a partition: another partition's flow met here first
      if (b === CLOSED || this.remote === null || !this.remote(flow)) return;
      b = this.open(flow);
      this.remoteBlock[b] = 1;
    }
    const a = this.waitFrom;
    const s = this.waitTo;
    let sl = this.sl;
    let x = b * BLOCK_W + this.slotOf[gid]! * SLOT_W;
    if (sl[x] !== gid) {
      x = this.slotFor(b, gid);
      // (a chained block may have grown the slots)
      sl = this.sl;
    }
    const end = sl[x + S_END]!;
    if (s <= end) return;
    const add = s - (a > end ? a : end);
    sl[x + S_Q] = sl[x + S_Q]! + add;
    sl[x + S_END] = s;
    sl[x + S_LAST] = add;
    this.queuePs[gid] = this.queuePs[gid]! + add;
    if (this.remote !== null && this.remoteBlock[b] === 1) this.logWait(flow, x, gid, s, add);
  }

  /**
   * Port gid's slot in block b's chain (its index in `sl`), taken now if the port has none: its
   * hinted slot if free, else the first free one, else one in a block chained to the last.
   */
  private slotFor(b: number, gid: number): number {
    const sl = this.sl;
    let x = b * BLOCK_W + this.slotOf[gid]! * SLOT_W;
    if (sl[x] !== -1) {
      // the hinted slot is another port's: the port is elsewhere in the chain, or takes the first free slot
      let free = -1;
      let last = b;
      for (let c = b; c >= 0; c = this.next[c]!) {
        last = c;
        for (let y = c * BLOCK_W; y < (c + 1) * BLOCK_W; y += SLOT_W) {
          if (this.sl[y] === gid) return y;
          if (free < 0 && this.sl[y] === -1) free = y;
        }
      }
      if (free < 0) {
        const nb = this.newBlock();
        this.next[last] = nb;
        free = nb * BLOCK_W;
      }
      x = free;
    }
    const s = this.sl;
    s[x] = gid;
    s[x + S_Q] = 0;
    s[x + S_END] = 0;
    s[x + S_T] = this.sched.now;
    s[x + S_LAST] = 0;
    return x;
  }

  /** A host made control packet `pkt` (ACK, NACK, CNP) now; an ACK carries its data packet's queueing. */
  created(pkt: number): void {
    if (pkt >= this.pq.length) this.growPackets(pkt);
    // (its making time is its queue entry's, port.ts, and with `trackArrivals` here)
    if (this.arr !== null) this.arr[pkt] = this.sched.now;
    const b = metaType(this.pool.meta(pkt)) === PKT_CNP ? -1 : this.blockOf(this.pool.flow(pkt));
    this.pq[pkt] = b >= 0 ? this.lastQ[b]! : 0;
  }

  /** A host received `pkt` now. */
  rx(pkt: number, meta: number): void {
    if (pkt >= this.pq.length) return;
    const type = metaType(meta);
    if (type === PKT_DATA) {
      const flow = this.pool.flow(pkt);
      let b = this.blockOf(flow);
      if (b === -1 && this.remote !== null && this.remote(flow)) {
        b = this.open(flow);
        this.remoteBlock[b] = 1;
      }
      if (b >= 0) this.lastQ[b] = this.pq[pkt]!;
    } else if (type === PKT_ACK || type === PKT_NACK) {
      this.ackFlow = this.pool.flow(pkt);
      this.ackAt = this.sched.now;
      this.ackQ = this.pq[pkt]!;
    }
  }

  /** The queueing of the ACK that flow `id` received at `now` and of the data packet it answers, or 0 if none arrived then. */
  ackQueue(id: number, now: number): number {
    return this.ackFlow === id && this.ackAt === now ? this.ackQ : 0;
  }

  /** Packet `pkt`'s queueing so far (it leaves for another partition: net/crossing.ts). */
  queued(pkt: number): number {
    return pkt < this.pq.length ? this.pq[pkt]! : 0;
  }

  /** Packet `pkt` came from another partition: it reaches its node at `arrival` with `q` ps of queueing so far. */
  crossed(pkt: number, arrival: number, q: number): void {
    if (pkt >= this.pq.length) this.growPackets(pkt);
    // (its arrival is its link entry's, port.ts `acceptCrossing`)
    if (this.arr !== null) this.arr[pkt] = arrival;
    this.pq[pkt] = q;
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

  /**
   * The end of the run: pauses still in force count up to `now`, in (port, class) order. With
   * `open`, they are listed there instead (gid, since): a partition's end is not the run's.
   */
  closePauses(now: number, open?: number[]): void {
    const s = this.pauseSince;
    for (let k = 0; k < s.length; k++) {
      if (s[k]! < 0) continue;
      const gid = k >> 3;
      if (open !== undefined) open.push(gid, s[k]!);
      else this.pausedPs[gid] = this.pausedPs[gid]! + (now - s[k]!);
      s[k] = -1;
    }
  }

  /** Flow `id`'s block of port slots (-1: none, CLOSED (-2): it completed). */
  blockOf(id: number): number {
    return id >= 0 && id < this.blockOfFlow.length ? this.blockOfFlow[id]! : -1;
  }

  /** Gives flow `id` a block (it starts being accounted); returns it. */
  open(id: number): number {
    if (id >= this.blockOfFlow.length) this.growFlows(id);
    const b = this.newBlock();
    this.blockOfFlow[id] = b;
    this.lastQ[b] = 0;
    return b;
  }

  private growFlows(id: number): void {
    let n = this.blockOfFlow.length;
    while (n <= id) n *= 2;
    const a = new Int32Array(n).fill(-1);
    a.set(this.blockOfFlow);
    this.blockOfFlow = a;
  }

  /** A free block, its slots free. */
  private newBlock(): number {
    let b = this.freeBlocks.pop();
    if (b === undefined) {
      b = this.blocks++;
      if (b >= this.lastQ.length) this.growBlocks(Math.max(64, b * 2));
    }
    this.next[b] = -1;
    this.remoteBlock[b] = 0;
    for (let x = b * BLOCK_W; x < (b + 1) * BLOCK_W; x += SLOT_W) this.sl[x] = -1;
    return b;
  }

  /** Number of blocks in use or made (the transport sizes its per-block state by it). */
  get blockCapacity(): number {
    return this.lastQ.length;
  }

  private growBlocks(cap: number): void {
    const sl = new Float64Array(cap * BLOCK_W);
    sl.set(this.sl);
    this.sl = sl;
    const l = new Float64Array(cap);
    l.set(this.lastQ);
    this.lastQ = l;
    const n = new Int32Array(cap);
    n.set(this.next);
    this.next = n;
    const r = new Uint8Array(cap);
    r.set(this.remoteBlock);
    this.remoteBlock = r;
  }

  /** Adds `w` ps of queueing of the flow of block b at port gid (and to the port's total when `port`). */
  addFlowQueue(b: number, gid: number, w: number, port = false): void {
    if (port) this.queuePs[gid] = this.queuePs[gid]! + w;
    let x = b * BLOCK_W + this.slotOf[gid]! * SLOT_W;
    if (this.sl[x] !== gid) x = this.slotFor(b, gid);
    this.sl[x + S_Q] = this.sl[x + S_Q]! + w;
  }

  /**
   * Flow `id` completed now: sets `worstGid` / `worstQ` / `worstT` (of the ports whose queueing is
   * largest, the one met first, then the lowest gid) and frees its blocks. A wait at a switch port
   * that ended now, before the completion in this picosecond's order of events, is taken back:
   * waits count while the flow runs, whatever the order of events at one time (and on the parallel
   * engine a partition could not see that order).
   */
  close(id: number): void {
    this.closeBlocks(id, true);
  }

  private closeBlocks(id: number, takeBackNow: boolean): void {
    this.worstGid = -1;
    this.worstQ = 0;
    this.worstT = 0;
    const b = this.blockOf(id);
    if (id >= this.blockOfFlow.length) this.growFlows(id);
    this.blockOfFlow[id] = CLOSED;
    if (b < 0) return;
    const sl = this.sl;
    const now = this.sched.now;
    for (let c = b; c >= 0; c = this.next[c]!) {
      for (let x = c * BLOCK_W; x < (c + 1) * BLOCK_W; x += SLOT_W) {
        const g = sl[x]!;
        if (g === -1) continue;
        let q = sl[x + S_Q]!;
        if (takeBackNow && sl[x + S_END] === now && this.isHost[g] === 0) {
          q -= sl[x + S_LAST]!;
          sl[x + S_Q] = q;
          this.queuePs[g] = this.queuePs[g]! - sl[x + S_LAST]!;
        }
        this.offer(g, q, sl[x + S_T]!);
      }
      this.freeBlocks.push(c);
    }
  }

  /** Makes port g (queueing q, met at t) the worst if it is worse than the worst so far. */
  offer(g: number, q: number, t: number): void {
    if (q <= 0) return;
    if (q > this.worstQ || (q === this.worstQ && (t < this.worstT || (t === this.worstT && g < this.worstGid)))) {
      this.worstGid = g;
      this.worstQ = q;
      this.worstT = t;
    }
  }

  /**
   * The parallel engine: this account is one partition's of a run of `flows` flows; `remote` tells
   * whether another partition runs a flow's sender. Their waits here are counted in blocks of their
   * own and logged for the window, until `settle` learns that they completed.
   */
  partition(remote: (id: number) => boolean, flows: number): void {
    this.remote = remote;
    this.doneAt = new Float64Array(flows).fill(Infinity);
    this.log = new Float64Array(1024 * LOG_W);
  }

  private logWait(flow: number, x: number, gid: number, s: number, add: number): void {
    let o = this.logN * LOG_W;
    if (o + LOG_W > this.log.length) {
      const l = new Float64Array(this.log.length * 2);
      l.set(this.log);
      this.log = l;
    }
    const log = this.log;
    log[o++] = flow;
    log[o++] = x;
    log[o++] = gid;
    log[o++] = s;
    log[o] = add;
    this.logN++;
  }

  /**
   * The window is over and another partition's flows `ids` completed at `at` (ps, the same order):
   * the waits counted here at or after its completion are taken back (in the window's log: later
   * windows see the flow closed), then each flow's worst port here is passed to `found` (its id,
   * gid, queueing and when it was met) and its blocks freed. The log starts again.
   */
  settle(ids: readonly number[], at: readonly number[], found: (id: number, gid: number, q: number, t: number) => void): void {
    const done = this.doneAt;
    for (let i = 0; i < ids.length; i++) done[ids[i]!] = at[i]!;
    const log = this.log;
    const sl = this.sl;
    for (let o = (this.logN - 1) * LOG_W; o >= 0; o -= LOG_W) {
      if (log[o + 3]! < done[log[o]!]!) continue;
      const x = log[o + 1]!;
      const g = log[o + 2]!;
      sl[x + S_Q] = sl[x + S_Q]! - log[o + 4]!;
      this.queuePs[g] = this.queuePs[g]! - log[o + 4]!;
    }
    this.logN = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      done[id] = Infinity;
      this.closeBlocks(id, false);
      if (this.worstGid >= 0) found(id, this.worstGid, this.worstQ, this.worstT);
    }
  }
}
