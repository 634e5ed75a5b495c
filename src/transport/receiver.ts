/**
 * The receiver side of the transport (docs/network-model.md §10.2-10.3; transport.ts is
 * the sender side and owns the flows): a data packet's arrival (CE-marked packets start
 * or feed the flow's CNP timer when the dialect sends CNP packets), then the run's loss
 * recovery (loss-recovery.ts), which calls back here to acknowledge: per-packet
 * cumulative ACKs or NACKs, optionally coalesced (one ACK per `ackEvery` in-order packets
 * with their count and summed in-flight stamps, a timer flushing a partial one,
 * docs/algorithms.md §2), echoing the CE mark, the INT stack, the send time, in-flight
 * stamp and receive time and the CC's receiver hook when the CC needs them.
 *
 * It is the `RecoveryHost` the loss recoveries are built with (and the `HomaHost` of
 * Homa's driver). The transport makes it first, builds its strategies, then hands it the
 * send driver (whose credit ACKs carry) and the recovery (`bind`), and registers its two
 * event kinds where they have always been numbered.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { CcDefinition, ReceiverInfo } from '../cc/types.js';
import type { NetworkConfig, TransportConfig } from '../net/config.js';
import type { Host } from '../net/host.js';
import * as packet from '../net/packet.js';
import type { PacketStore } from '../net/packet.js';
import type { Flow } from './flow.js';
import type { HomaHost } from './homa.js';
import type { LossRecovery, RecoveryHost } from './loss-recovery.js';
import type { SendDriver } from './send-driver.js';

// the hot path's imported constants as own bindings, which V8 folds (port.ts says why)
const { FLAG_CE, FLAG_ECN_ECHO, NIL, PKT_ACK, PKT_CNP, PKT_NACK } = packet;

export class Receiver implements RecoveryHost, HomaHost {
  readonly pool: PacketStore;
  private readonly pk: PacketStore;
  private readonly cfg: TransportConfig;
  private readonly cnpPacket: boolean;
  private readonly ackStrict: boolean;
  private readonly echoInt: boolean;
  private readonly echoMpd: boolean;
  /** ACK class when the CC needs high-priority ACKs (ACC §4.3), else -1: the dialect's rule */
  readonly ackHighClass: number;
  /** the CC's receiver hook (null: none) and the per-host count of flows being received (docs/algorithms.md §8 [AMB-S7]) */
  private readonly rxHook: ((rx: ReceiverInfo) => number) | null;
  private readonly rxInfo: ReceiverInfo;
  private readonly rxActive: Int32Array;
  readonly countsReceiving: boolean;
  /** ACK coalescing timer (ps; 0 = none): only with ackEvery > 1 */
  private readonly coalesceTimeoutPs: number;
  /** an absolute time handed to the scheduler (not a small integer: see Scheduler.scheduleFrom) */
  private readonly timeArg = new Float64Array(1);
  /** the run's loss recovery and send driver (`bind`) */
  private recovery: LossRecovery;
  private driver: SendDriver;
  /** ACKs carry the receiver's credit (a receiver-driven send driver) */
  private grants = false;
  /** the transport's received-listener (`Transport.addReceivedListener`): a flow's in-order bytes reached `notifyAtBytes` */
  onReceived: (f: Flow) => void = () => undefined;
  kCnpTimer = -1;
  kAckFlush = -1;

  constructor(
    private readonly sched: Scheduler,
    pool: PacketStore,
    net: NetworkConfig,
    readonly hosts: readonly Host[],
    private readonly flows: readonly (Flow | null)[],
    cc: CcDefinition,
    /** the CNP timer of a finished flow stopped: the transport may drop the flow's state */
    private readonly cnpStopped: (f: Flow) => void,
  ) {
    this.pool = pool;
    this.pk = pool;
    const c = net.transport;
    this.cfg = c;
    this.coalesceTimeoutPs = c.ackEvery > 1 ? c.ackCoalesceTimeoutPs : 0;
    this.cnpPacket = c.cnpMode === 'cnpPacket';
    this.ackStrict = c.ackPriority === 'strictAtHost';
    this.echoInt = cc.needs.int === true;
    this.echoMpd = cc.needs.mpd === true;
    // D-HPCC switches serve queue 0 first and never pause it; strict-priority switches serve the highest class first
    this.ackHighClass = cc.needs.highPriorityAcks === true ? (net.switch.queue0Control ? 0 : 7) : -1;
    const hook = cc.receiverEcho;
    this.rxHook = hook === undefined ? null : hook.bind(cc);
    this.rxInfo = { flowId: 0, host: 0, activeFlowsAtHost: 0, nowPs: 0 };
    this.rxActive = new Int32Array(hook === undefined ? 0 : hosts.length);
    this.countsReceiving = hook !== undefined;
    // (until `bind`: nothing arrives before the run starts)
    this.recovery = null as unknown as LossRecovery;
    this.driver = null as unknown as SendDriver;
  }

  /** The run's send driver and loss recovery, once the transport built them. */
  bind(driver: SendDriver, recovery: LossRecovery): void {
    this.driver = driver;
    this.grants = driver.carriesGrants;
    this.recovery = recovery;
  }

  flowAt(id: number): Flow {
    const f = this.flows[id];
    if (f === null || f === undefined) throw new Error(`internal: packet or timer of flow ${id}, which was released`);
    return f;
  }

  /** Returns true when the packet is kept as the echo source of a pending coalesced ACK. */
  onData(pkt: number): boolean {
    const pk = this.pk;
    const f = this.flowAt(pk.flow(pkt));
    const ce = pk.has(pkt, FLAG_CE);
    const seq = pk.seq(pkt);
    if (ce && this.cnpPacket) {
      if (!f.cnpTimerRunning) {
        this.sendCnp(f);
        f.cnpTimerRunning = true;
        f.cnpEcnSeen = false;
        this.sched.post(this.cfg.cnpIntervalPs, 0, this.kCnpTimer, f.id, 0);
      } else f.cnpEcnSeen = true;
    }
    const kept = this.recovery.onData(f, pkt, seq, pk.aux(pkt), ce);
    if (f.rcvExpected >= f.notifyAtBytes) {
      // once: a closed-loop workload waits for this much of the flow at its destination
      f.notifyAtBytes = Infinity;
      this.onReceived(f);
    }
    return kept;
  }

  now(): number {
    return this.sched.now;
  }

  /** In-order delivery moved f.rcvExpected up from `exp`: flows being received by this host, from the first delivered packet until the last (docs/algorithms.md §8 [AMB-S7]). */
  countReceiving(f: Flow, exp: number): void {
    if (exp === 0) this.rxActive[f.dst]!++;
    if (f.rcvExpected >= f.sizeBytes) this.rxActive[f.dst]!--;
  }

  /**
   * An accepted data packet joins the receiver's pending ACK: one ACK per
   * `ackEvery` packets (at once for the flow's last byte or a CE mark), with
   * the count and the summed in-flight stamps of the packets it covers.
   */
  countForAck(f: Flow, pkt: number, ce: boolean): boolean {
    f.ackCounter++;
    f.rcvSumInflight += this.pk.inflight(pkt);
    if (f.ackCounter >= this.cfg.ackEvery || f.rcvExpected >= f.sizeBytes || ce) {
      this.sendAck(f, pkt, false, f.ackCounter, f.rcvSumInflight, -1);
      f.ackCounter = 0;
      f.rcvSumInflight = 0;
      if (f.ackHeld !== NIL) {
        this.pk.release(f.ackHeld);
        f.ackHeld = NIL;
      }
      return false;
    }
    if (this.coalesceTimeoutPs === 0) return false;
    // keep the newest covered packet: a flush by the timer echoes it, as an ACK it triggered would
    if (f.ackHeld !== NIL) this.pk.release(f.ackHeld);
    else {
      // the first packet of a new partial ACK starts the timer (one pending event per flow)
      f.ackFlushAt = this.sched.now + this.coalesceTimeoutPs;
      if (!f.ackFlushPending) {
        f.ackFlushPending = true;
        this.postAckFlush(f);
      }
    }
    f.ackHeld = pkt;
    return true;
  }

  /** The coalescing timer: the pending partial ACK goes out now. */
  onAckFlush(f: Flow): void {
    f.ackFlushPending = false;
    const held = f.ackHeld;
    if (held === NIL) return;
    if (this.sched.now < f.ackFlushAt) {
      // an ACK went out meanwhile and a later partial one started its own timer
      f.ackFlushPending = true;
      this.postAckFlush(f);
      return;
    }
    this.sendAck(f, held, false, f.ackCounter, f.rcvSumInflight, -1);
    f.ackCounter = 0;
    f.rcvSumInflight = 0;
    this.pk.release(held);
    f.ackHeld = NIL;
  }

  sendAck(f: Flow, data: number, nack: boolean, covered: number, sumInflight: number, lostSeq: number): void {
    const pk = this.pk;
    const a = pk.alloc(nack ? PKT_NACK : PKT_ACK);
    pk.setFlow(a, f.id);
    pk.setDst(a, f.src);
    pk.setSeq(a, f.rcvExpected);
    pk.setSize(a, nack ? f.nackWireBytes : f.ackWireBytes);
    const high = this.ackHighClass;
    pk.setPrio(a, high >= 0 ? high : f.prio);
    pk.setHash(a, f.ackHash);
    if (pk.has(data, FLAG_CE)) pk.setFlag(a, FLAG_ECN_ECHO, true);
    pk.setTcd(a, pk.tcd(data));
    pk.setSendTs(a, pk.sendTs(data));
    pk.setInflight(a, pk.inflight(data));
    pk.setSumInflight(a, sumInflight);
    pk.setRxTs(a, this.sched.now);
    pk.setAux(a, covered);
    if (nack) {
      if (lostSeq >= 0) pk.setXack(a, lostSeq / f.mtuBytes);
    } else if (this.grants === true) pk.setXack(a, this.driver.grant(f));
    const hook = this.rxHook;
    if (hook !== null) {
      const ri = this.rxInfo;
      ri.flowId = f.id;
      ri.host = f.dst;
      // the last packet already left the count; it is still being received when acknowledged
      ri.activeFlowsAtHost = this.rxActive[f.dst]! + (f.rcvExpected >= f.sizeBytes ? 1 : 0);
      ri.nowPs = this.sched.now;
      pk.setEcho(a, hook(ri));
    }
    if (this.echoInt === true && (!nack || this.cfg.nackCarriesEcho)) pk.copyInt(data, a);
    if (this.echoMpd === true && (!nack || this.cfg.nackCarriesEcho)) pk.setMpd(a, pk.mpd(data));
    this.hosts[f.dst]!.sendControl(a, high >= 0 ? high : this.ackStrict === true ? this.cfg.ackClass : f.prio);
  }

  private sendCnp(f: Flow): void {
    const pk = this.pk;
    const c = pk.alloc(PKT_CNP);
    pk.setFlow(c, f.id);
    pk.setDst(c, f.src);
    pk.setSize(c, this.cfg.cnpBytes);
    pk.setPrio(c, this.cfg.cnpPriority);
    pk.setHash(c, f.ackHash);
    this.hosts[f.dst]!.sendControl(c, this.cfg.cnpPriority);
  }

  onCnpTimer(f: Flow): void {
    if (f.cnpEcnSeen) {
      this.sendCnp(f);
      f.cnpEcnSeen = false;
      this.sched.post(this.cfg.cnpIntervalPs, 0, this.kCnpTimer, f.id, 0);
    } else {
      f.cnpTimerRunning = false;
      if (f.finished) this.cnpStopped(f);
    }
  }

  // f's ACK-flush event at its deadline, the time through `timeArg` (see Scheduler.scheduleFrom)
  private postAckFlush(f: Flow): void {
    const a = this.timeArg;
    a[0] = f.ackFlushAt;
    this.sched.postAt(a, 0, this.kAckFlush, f.id, 0);
  }
}
