/**
 * NDP's receiver-driven sending (`sendDriver: ndpPull`; Handley et al.,
 * SIGCOMM'17 §3.2-3.3): a flow starts with an initial window sent at line
 * rate without asking (`grantWindowBytes`, 0 = one base BDP, in whole
 * packets); after that it sends one data packet, a lost one first, for each
 * PULL its receiver sends. Each receiving host keeps one PULL queue for all
 * the flows arriving at it: every data packet or trimmed header that arrives
 * adds one PULL for its flow, and the queue sends them at the receiver's link
 * rate (one per serialization time of the flow's full data packet at the
 * host's port), so the data they elicit arrives at that rate whatever the
 * number of senders.
 *
 * PULLs are ACK packets of the header class (the CC needs high-priority
 * ACKs) carrying a per-flow PULL counter in their `xack` word, as NDP's PULLs
 * carry a pull sequence number: a lost PULL's credit comes with the next one.
 * Every ACK carries the counter too (`grant`). The sender may have sent, in
 * all, its initial window plus the highest counter heard plus the packets
 * given back to it (`credit`: a header a switch returned, a timeout), counted
 * by `Flow.dataPacketsSent` (resent packets too).
 *
 * Losses are learnt from trimmed headers (retxMode `trim`,
 * trim-recovery.ts), which calls `onArrival` for each data packet or header
 * received. Per packet: one ring slot per PULL, one scheduler event per PULL
 * sent; nothing is allocated (the rings grow by doubling).
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { NetContext } from '../net/context.js';
import type { Host } from '../net/host.js';
import { controlAck } from './ack-info.js';
import type { Flow } from './flow.js';
import type { PullSource, SendDriver } from './send-driver.js';


export class NdpPull implements SendDriver, PullSource {
  readonly name = 'ndpPull';
  readonly carriesGrants = true;
  /** the trim recovery asks for PULLs (trim-recovery.ts) */
  readonly pulls: PullSource = this;
  private readonly sched: Scheduler;
  private readonly kind: number;
  /** per receiving host: a ring of flow ids, one per PULL waiting */
  private readonly rings: Int32Array[];
  private readonly head: Int32Array;
  private readonly count: Int32Array;
  /** per host: a PULL event is pending */
  private readonly pending: Uint8Array;
  /** per host: the earliest time its next PULL may leave, ps */
  private readonly nextAt: Float64Array;
  /** PULLs sent (diagnostics) */
  pullsSent = 0;

  constructor(
    private readonly ctx: NetContext,
    private readonly flows: readonly (Flow | null)[],
    private readonly hosts: readonly Host[],
    /** initial window per flow, bytes (0: the flow's base BDP), rounded up to whole packets */
    private readonly initialBytes: number,
    /** the class PULLs travel in (the header class) */
    private readonly pullClass: number,
  ) {
    this.sched = ctx.sched;
    const n = hosts.length;
    this.rings = Array.from({ length: n }, () => new Int32Array(16));
    this.head = new Int32Array(n);
    this.count = new Int32Array(n);
    this.pending = new Uint8Array(n);
    this.nextAt = new Float64Array(n);
    this.kind = this.sched.register({ fire: (h) => this.onPullTimer(h) }, 'NdpPull.onPullTimer');
  }

  onStart(f: Flow): void {
    const mtu = f.mtuBytes;
    const w = this.initialBytes > 0 ? this.initialBytes : f.baseBdpBytes;
    const iw = Math.max(1, Math.ceil(w / mtu));
    const s = f.state();
    s.pullBase = iw;
    s.pullCredit = iw;
  }

  mayPut(f: Flow): boolean {
    return f.dataPacketsSent < f.strategy!.pullCredit;
  }

  grant(f: Flow): number {
    return f.state().pullsSent;
  }

  onGrant(f: Flow, _seq: number, pulls: number): void {
    const s = f.state();
    const c = s.pullBase + pulls;
    if (c > s.pullCredit) s.pullCredit = c;
  }

  /** Sender: f may send `n` more packets without a PULL (a returned header, a timeout). */
  credit(f: Flow, n: number): void {
    const s = f.state();
    s.pullBase += n;
    s.pullCredit += n;
  }

  /** Receiver: a data packet or header of f arrived; one PULL joins its host's queue unless f has all its bytes. */
  onArrival(f: Flow): void {
    if (f.rcvExpected >= f.sizeBytes) return;
    const h = f.dst;
    let ring = this.rings[h]!;
    const n = this.count[h]!;
    if (n === ring.length) ring = this.grow(h);
    ring[(this.head[h]! + n) & (ring.length - 1)] = f.id;
    this.count[h] = n + 1;
    if (this.pending[h] === 0) {
      this.pending[h] = 1;
      const wait = this.nextAt[h]! - this.sched.now;
      this.sched.post(wait > 0 ? wait : 0, 0, this.kind, h, 0);
    }
  }

  private grow(h: number): Int32Array {
    const old = this.rings[h]!;
    const m = old.length;
    const ring = new Int32Array(2 * m);
    const hd = this.head[h]!;
    for (let i = 0; i < m; i++) ring[i] = old[(hd + i) & (m - 1)]!;
    this.rings[h] = ring;
    this.head[h] = 0;
    return ring;
  }

  /** Host h's PULL pacer: the first queued PULL of a flow still receiving goes out; the next one a packet time later. */
  private onPullTimer(h: number): void {
    this.pending[h] = 0;
    const ring = this.rings[h]!;
    const mask = ring.length - 1;
    while (this.count[h]! > 0) {
      const id = ring[this.head[h]!]!;
      this.head[h] = (this.head[h]! + 1) & mask;
      this.count[h]!--;
      const f = this.flows[id];
      if (f === null || f === undefined || f.rcvExpected >= f.sizeBytes) continue;
      this.sendPull(f);
      const port = this.hosts[h]!.port;
      // (a host link that is down has no serialization table: its rate when it comes back up)
      const gap = port.isDown === false ? port.serPs(f.dataWireBytes) : this.ctx.txTime(f.dataWireBytes, port.rateBps > 0 ? port.rateBps : f.lineRateBps);
      this.nextAt[h] = this.sched.now + gap;
      if (this.count[h]! > 0) {
        this.pending[h] = 1;
        this.sched.post(gap, 0, this.kind, h, 0);
      }
      return;
    }
  }

  private sendPull(f: Flow): void {
    const pk = this.ctx.pool;
    const a = controlAck(pk, f, this.pullClass);
    pk.setSendTs(a, -1);
    pk.setAux(a, 0);
    pk.setXack(a, ++f.state().pullsSent);
    this.pullsSent++;
    this.hosts[f.dst]!.sendControl(a, this.pullClass);
  }
}
