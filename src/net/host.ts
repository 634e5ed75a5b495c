/**
 * Host NIC (docs/network-model.md §10.2 scheduler, §10.3 hand-off): one port; many
 * flows. When the port is free the NIC sends, in order: a queued ACK / NACK /
 * CNP (strict priority over data in D-HPCC; alternating with data in D-OSCAR,
 * where ACKs share the data class), then one data packet from a flow that has
 * bytes left, an open window, a due pacing time and an unpaused class. Flows
 * are picked round robin per packet (D-HPCC `rrPerPacket`) or earliest-ready
 * first (`fifoWhenQueueEmpty`, D-OSCAR's first-come turn taking). When no flow
 * is ready the NIC arms one wake-up timer at the earliest pacing time.
 * A few sending flows are scanned per pick, from two small arrays of their
 * ready times and classes that a flow's `touch` (or being served) marks
 * stale, so a pick asks only the flows whose state changed; many (above 32)
 * are kept in a `NicReadySet` that makes the same picks and wake-ups without
 * a scan, for either arbitration. Hosts never send PFC; they obey PFC from
 * their switch.
 *
 * The layers point one way: the NIC knows sending flows only as `NicFlow`s and
 * hands received packets to a `HostEndpoint`; the transport implements both.
 */
import type { TransportConfig } from './config.js';
import type { NetContext } from './context.js';
import * as packet from './packet.js';
import { NicReadySet } from './nic-ready.js';
import type { Port, PortOwner } from './port.js';
import { pfcReceived } from './pfc-rx.js';

// the hot path's imported constants as own bindings, which V8 folds (port.ts says why)
const { FLAG_BFC, FLAG_PAUSE, FLAG_TRIM, NIL, PKT_ACK, PKT_CNP, PKT_DATA, PKT_NACK, PKT_PFC, metaType } = packet;

/** A sending flow as the NIC sees it (a transport connection implements it). */
export interface NicFlow {
  /** the flow's id (the FCT breakdown's accounting, queue-account.ts) */
  readonly id: number;
  /** traffic class of its data packets (PFC pauses per class) */
  readonly prio: number;
  /** earliest time (ps) the flow may start its next data packet: its pacer and any CC hold */
  readyAt(): number;
  /** the flow has bytes left and its window admits another packet (time and PFC aside) */
  maySend(): boolean;
  /** builds the flow's next data packet, now (the NIC chose it); returns the packet id */
  buildPacket(): number;
  /** the NIC's bookkeeping: the flow's slot in its ready set, or its index among the scanned flows (-1 when not sending) */
  nicSlot: number;
}

/** Where a host delivers the packets it receives (the transport). */
export interface HostEndpoint {
  /** returns true when the endpoint keeps the packet (it releases it later) */
  onData(pkt: number): boolean;
  /** an ACK or a NACK */
  onAck(pkt: number): void;
  onCnpPacket(pkt: number): void;
  /**
   * a data packet a switch trimmed to its headers (`FLAG_TRIM`, admission.ts):
   * returns true when the endpoint keeps it. Without this hook the host counts
   * the packet's payload as lost (`Host.trimmedLost`, the flow's drop count).
   */
  onTrimmed?(pkt: number): boolean;
  /** a BFC pause or resume of one sending flow by the first switch (net/bfc.ts) */
  onFlowPause?(flowId: number, pause: boolean): void;
}

/**
 * The NIC keeps its flows in a ready set above this many sending flows (for
 * earliest-ready first too: measured, the set costs more than a scan of the
 * 1-18 flows per host of bench (b), and saves ~40 % of the CPU time with
 * ~110 flows per host, bench (e) at 4 x 10^5 flows under that arbitration)...
 */
const SET_ABOVE = 32;
/** ...and goes back to scanning them below this many. */
const SCAN_BELOW = 8;
/** room in the scan's per-flow arrays (a host scans at most SET_ABOVE + 1 flows) */
const SCAN_CAP = 64;
/** `scanT` of a flow whose state changed since it was last looked at */
const STALE = -1;

export class Host implements PortOwner {
  port!: Port;
  /** sending flows in the order they started, scanned for each pick (all of them, or a few in round robin) */
  private active: NicFlow[] = [];
  /**
   * by index in `active` (the flow's `nicSlot` while scanned): its ready time
   * if it may send, Infinity if not (bytes or window), STALE if something
   * changed since the scan last asked the flow (`touch`, or it was served).
   * The scan reads these two small arrays instead of every flow's own state,
   * which in a large fabric is a cold line or two per flow per pick.
   */
  private readonly scanT = new Float64Array(SCAN_CAP);
  /** by index in `active`: the flow's traffic class */
  private readonly scanCls = new Uint8Array(SCAN_CAP);
  /**
   * with many sending flows they are kept in a ready set instead (same picks,
   * same wake-ups as the scan, for either arbitration)
   */
  private readonly ready: NicReadySet;
  /** whether the flows are in the ready set (else in `active`) */
  private inSet = false;
  private rr = -1;
  private wakeTime = Infinity;
  /**
   * [0]: the time argument of `armWake`; [1]: the pending wake-up's handle (-1: none).
   * In a typed array because neither is a small integer (see Scheduler.scheduleFrom).
   */
  private readonly wakeT = new Float64Array([0, -1]);
  private preferData = false;
  private readonly ackStrict: boolean;
  private readonly fifo: boolean;
  kWake = -1;
  endpoint!: HostEndpoint;
  /**
   * Called after a PFC resume at this NIC (null: none): a send driver whose
   * packets' classes are not their flow's (Homa's levels) re-checks the flows
   * it held back for a paused class (transport/homa.ts).
   */
  onResume: (() => void) | null = null;
  /** trimmed data packets received without an endpoint that takes them (their payload lost) */
  trimmedLost = 0;

  constructor(
    private readonly ctx: NetContext,
    readonly id: number,
    cfg: TransportConfig,
    /** PFC frames carry pause quanta (pfcMode quanta) instead of on/off */
    private readonly pfcQuanta = false,
  ) {
    this.ackStrict = cfg.ackPriority === 'strictAtHost';
    this.fifo = cfg.nicArbitration === 'fifoWhenQueueEmpty';
    this.ready = new NicReadySet(this.fifo);
  }

  hasMore(port: Port): boolean {
    return port.hasQueued() || (this.inSet === true ? this.ready.count > 0 : this.active.length > 0);
  }

  pull(port: Port): number {
    // boolean fields compare with true: a bare test is V8's generic truthiness check (Port's note)
    if (this.ackStrict === true) {
      const p = port.dequeue();
      if (p !== NIL) return p;
      return this.pullData();
    }
    if (this.preferData === true) {
      const d = this.pullData();
      if (d !== NIL) {
        this.preferData = false;
        return d;
      }
      return port.dequeue();
    }
    const p = port.dequeue();
    if (p !== NIL) {
      this.preferData = true;
      return p;
    }
    return this.pullData();
  }

  private pullData(): number {
    // the scan stays small enough for V8 to inline it into `pull` (460 bytes of bytecode)
    if (this.inSet === true) return this.pullFromSet();
    const act = this.active;
    const n = act.length;
    if (n === 0) return NIL;
    const now = this.ctx.sched.now;
    const paused = this.port.paused;
    const scanT = this.scanT;
    const cls = this.scanCls;
    // one pass from one past the last served flow, wrapping; it also finds
    // the wake-up time (the earliest ready time of a flow that may send)
    let best = -1;
    let wake = Infinity;
    let i = this.rr;
    if (this.fifo === true) {
      // earliest ready first; ties go to the first in that order
      let bestT = Infinity;
      for (let k = 0; k < n; k++) {
        if (++i === n) i = 0;
        let t = scanT[i]!;
        if (t === STALE) t = this.lookAt(i);
        if (paused[cls[i]!] !== 0) continue;
        if (t <= now) {
          if (t < bestT) {
            best = i;
            bestT = t;
          }
        } else if (t < wake) wake = t;
      }
    } else {
      for (let k = 0; k < n; k++) {
        if (++i === n) i = 0;
        let t = scanT[i]!;
        if (t === STALE) t = this.lookAt(i);
        if (paused[cls[i]!] !== 0) continue;
        if (t <= now) {
          best = i;
          break;
        }
        if (t < wake) wake = t;
      }
    }
    if (best < 0) {
      if (wake !== Infinity) {
        this.wakeT[0] = wake;
        this.armWake();
      }
      return NIL;
    }
    this.rr = best;
    const p = act[best]!.buildPacket();
    // sending moved its sequence and pacing time
    scanT[best] = STALE;
    return p;
  }

  /**
   * Asks scanned flow i whether it may send and when (the "may this flow
   * send" test apart from time and PFC, docs/network-model.md §10: bytes
   * left and window open; the time is `NicFlow.readyAt()`, the later of the
   * pacer's next send time and the CC hold). Keeps the answer until the flow
   * is touched or served.
   */
  private lookAt(i: number): number {
    const f = this.active[i]!;
    const t = f.maySend() ? f.readyAt() : Infinity;
    this.scanT[i] = t;
    return t;
  }

  /** `pullData` with the flows in the ready set. */
  private pullFromSet(): number {
    const ready = this.ready;
    if (ready.count === 0) return NIL;
    const now = this.ctx.sched.now;
    const f = ready.pick(now, this.port.paused);
    if (f === null) {
      const t = ready.wakeTime;
      if (t !== Infinity && t > now) {
        this.wakeT[0] = t;
        this.armWake();
      }
      return NIL;
    }
    return f.buildPacket();
  }

  /** Makes sure the NIC looks again at time t. */
  wakeAt(t: number): void {
    this.wakeT[0] = t;
    this.armWake();
  }

  /** Makes sure the NIC looks again when f may send (its ready time, or now if that has passed). */
  wakeFor(f: NicFlow): void {
    const now = this.ctx.sched.now;
    const t = f.readyAt();
    this.wakeT[0] = t > now ? t : now;
    this.armWake();
  }

  /**
   * `wakeAt(wakeT[0])`. The time comes through a typed array: a time in ps is
   * not a small integer, and V8 allocates a heap number for it at every call
   * it does not inline.
   */
  private armWake(): void {
    const s = this.ctx.sched;
    const w = this.wakeT;
    const t = w[0]!;
    if (w[1]! >= 0) {
      if (this.wakeTime <= t && s.isPendingFrom(w, 1)) return;
      s.cancelFrom(w, 1);
    }
    this.wakeTime = t;
    s.scheduleFrom(w, 0, this.kWake, this.id, 0, w, 1);
  }

  onWake(): void {
    this.wakeT[1] = -1;
    this.wakeTime = Infinity;
    this.port.kick();
  }

  addFlow(f: NicFlow): void {
    if (this.inSet) this.ready.add(f);
    else {
      this.scanAppend(f);
      if (this.active.length > SET_ABOVE) {
        // the scan would look at many flows per pick: move them into the ready set
        this.ready.load(this.active, this.rr + 1);
        this.active = [];
        this.inSet = true;
      }
    }
    this.port.kick();
  }

  /** Adds f at the end of the scanned flows. */
  private scanAppend(f: NicFlow): void {
    const i = this.active.length;
    this.active.push(f);
    f.nicSlot = i;
    this.scanT[i] = STALE;
    this.scanCls[i] = f.prio;
  }

  /**
   * Something that decides whether f may send, or when, changed (rate,
   * window, hold, acknowledged or rewound sequence): the ready set looks at f
   * again at the next pick.
   */
  touch(f: NicFlow): void {
    if (this.inSet) this.ready.touch(f);
    else if (f.nicSlot >= 0) this.scanT[f.nicSlot] = STALE;
    if (this.ctx.flowAcct !== null) this.ctx.flowAcct.touch(f);
  }

  removeFlow(f: NicFlow): void {
    if (this.inSet) {
      const ready = this.ready;
      ready.remove(f);
      if (ready.count < SCAN_BELOW) {
        // few flows left: a scan is cheaper than keeping the set
        const { flows, lastServed } = ready.drain();
        this.active = [];
        for (const g of flows) this.scanAppend(g);
        this.rr = lastServed;
        this.inSet = false;
      }
      return;
    }
    const act = this.active;
    const i = f.nicSlot;
    if (i < 0 || act[i] !== f) return;
    act.splice(i, 1);
    f.nicSlot = -1;
    const n = act.length;
    this.scanT.copyWithin(i, i + 1, n + 1);
    this.scanCls.copyWithin(i, i + 1, n + 1);
    for (let k = i; k < n; k++) act[k]!.nicSlot = k;
    if (this.rr >= i) this.rr--;
  }

  /** Sends a receiver-generated packet (ACK, NACK, CNP) through NIC queue `queue`. */
  sendControl(pkt: number, queue: number): void {
    if (this.ctx.acct !== null) this.ctx.acct.created(pkt);
    this.port.enqueue(pkt, queue, this.ctx.pool.size(pkt));
  }

  arrive(pkt: number, port: number): void {
    this.receive(pkt, port);
  }

  receive(pkt: number, _port: number): void {
    const tr = this.endpoint;
    const meta = this.ctx.pool.meta(pkt);
    if (this.ctx.acct !== null) this.ctx.acct.rx(pkt, meta);
    switch (metaType(meta)) {
      case PKT_DATA:
        if ((meta & FLAG_TRIM) !== 0) {
          if (this.onTrimmed(pkt)) return;
        } else if (tr.onData(pkt)) return;
        break;
      case PKT_ACK:
      case PKT_NACK:
        tr.onAck(pkt);
        break;
      case PKT_CNP:
        tr.onCnpPacket(pkt);
        break;
      case PKT_PFC:
        this.onPfc(pkt);
        break;
    }
    this.ctx.pool.release(pkt);
  }

  /** A trimmed data packet (admission.ts TRIM): to the endpoint if it takes headers, else a loss of its flow. */
  private onTrimmed(pkt: number): boolean {
    const tr = this.endpoint;
    if (tr.onTrimmed !== undefined) return tr.onTrimmed(pkt);
    this.trimmedLost++;
    const fid = this.ctx.pool.flow(pkt);
    const fd = this.ctx.flowDrops;
    if (fid >= 0 && fid < fd.length) fd[fid]!++;
    return false;
  }

  /**
   * PFC frame from the switch: pause or resume class `aux` of the NIC port
   * (docs/network-model.md §11.3). With quanta the pause lapses after 65535 quanta
   * of 512 bit times unless refreshed.
   */
  private onPfc(pkt: number): void {
    const port = this.port;
    const pk = this.ctx.pool;
    const cls = pk.aux(pkt);
    const pause = pk.has(pkt, FLAG_PAUSE);
    if (pk.has(pkt, FLAG_BFC) === true) {
      this.endpoint.onFlowPause?.(pk.flow(pkt), pause);
      return;
    }
    if (this.pfcQuanta && pause) {
      const s = this.ctx.sched;
      const until = s.now + Math.round(((65535 * 512) / port.rateBps) * 1e12);
      pfcReceived(port, s.now, cls, true, until);
      s.schedule(until, this.ctx.kPauseExpiry, port.gid, cls);
    } else {
      pfcReceived(port, this.ctx.sched.now, cls, pause, 0);
      if (pause === false && this.onResume !== null) this.onResume();
    }
  }
}
