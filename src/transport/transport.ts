/**
 * RoCEv2-style reliable transport (docs/network-model.md §10.2 D-HPCC, §10.3 D-OSCAR,
 * unified by the options of §2.5):
 *
 * sender   - builds data packets (payload <= MTU, send timestamp, in-flight bytes),
 *            paces them at the flow rate, gates them by the window, processes ACK/NACK
 *            in the profile's order (`transportFirst`: sndUna, completion, go-back-N
 *            rewind, CNP flag, CC hook; `ccFirst`: CC hook, then the transport),
 *            retransmission timeout;
 * receiver - per-packet cumulative ACK (optional coalescing: one ACK per `ackEvery`
 *            in-order packets with their count and summed in-flight stamps,
 *            docs/algorithms.md §2); CE echo on ACKs or CNP packets paced at 50 us per
 *            flow; INT stack, send time, in-flight stamp and receive time echoed to the
 *            sender when the CC needs them: receiver.ts, which this class owns.
 *
 * Two strategies, one of each per run: loss recovery (loss-recovery.ts: go-back-N, none,
 * selective) and the send driver (send-driver.ts: the CC's window, or receiver credit).
 * Sequence numbers are bytes; with a fixed MTU a PSN is seq / MTU, so the packet-based
 * D-OSCAR rules map one to one.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { AckInfo, CcDefinition, SendInfo } from '../cc/types.js';
import type { NetworkConfig, TransportConfig } from '../net/config.js';
import type { NetContext } from '../net/context.js';
import type { Host, HostEndpoint } from '../net/host.js';
import * as packet from '../net/packet.js';
import type { PacketStore } from '../net/packet.js';
import * as units from '../engine/units.js';
import type { TxTimeQuantization } from '../engine/units.js';
import type { FlowSpec, FlowStream } from '../workload/types.js';
import { copyIntEcho, newAckInfo, newSendInfo } from './ack-info.js';
import type { Flow } from './flow.js';
import type { LossRecovery } from './loss-recovery.js';
import { Receiver } from './receiver.js';
import { RetransmitTimer } from './rto.js';
import type { SendDriver } from './send-driver.js';
import { BfcPausedDriver } from './bfc-pause.js';
import { lossRecoveryRegistry, sendDriverRegistry, type StrategyBuild } from './strategies.js';
import { FlowStarts } from './flow-starts.js';
import type { FlowFactory } from './setup.js';

// the hot path's imported constants as own bindings, which V8 folds (port.ts says why)
const { FLAG_ECN_ECHO, FLAG_ECT, FLAG_RETX, PKT_DATA, PKT_NACK } = packet;
const { MS, txTimePs } = units;

export class Transport implements HostEndpoint {
  readonly sched: Scheduler;
  readonly cfg: TransportConfig;
  readonly adjustPacing: boolean;
  /**
   * Flows by id. Made up front (`addFlows`) or as they start (`addFlowStream`);
   * with `releaseFinished` a finished flow's entry becomes null once no packet
   * or timer of it can arrive any more (`release`).
   */
  readonly flows: (Flow | null)[] = [];
  /** when flows start: the listed ones, a stream's, injected ones (flow-starts.ts) */
  readonly starts: FlowStarts;
  private releaseFinished = false;
  /** counters of released flows (their objects are gone) */
  releasedRetxPackets = 0;
  releasedTimeouts = 0;
  releasedDataPackets = 0;
  /** payload bytes of the finished flows */
  finishedBytes = 0;
  private readonly pk: PacketStore;
  readonly pool: PacketStore;
  /** loss recovery of this run (`retxMode`) */
  readonly recovery: LossRecovery;
  /** who lets a flow send (`sendDriver`) */
  readonly driver: SendDriver;
  /** BFC's per-flow pauses at the NIC (bfc-pause.ts), when the switches run BFC */
  readonly bfcPause: BfcPausedDriver | null;
  /** retxMode trim only: trimmed headers to the recovery (HostEndpoint; without it the host counts them lost) */
  readonly onTrimmed?: (pkt: number) => boolean;
  /** ACKs carry the receiver's credit (a receiver-driven send driver) */
  private readonly grants: boolean;
  /** the receiver side: data arrivals, ACKs and CNPs (receiver.ts) */
  readonly rx: Receiver;
  /** the send driver sets each data packet's class (Homa's levels), not the flow; the recovery keeps lost packets to resend first (selective, trim) */
  private readonly driverPrio: boolean;
  readonly lossList: boolean;
  private readonly quantization: TxTimeQuantization;
  kCcTimer = -1;
  /** an absolute time handed to the scheduler (not a small integer: see Scheduler.scheduleFrom) */
  readonly timeArg = new Float64Array(1);
  private readonly rto: RetransmitTimer;
  finishedCount = 0;
  finishOffsetPs = 0; // time fast-forward skipped (sim/fast-forward.ts), ps: a finishPs is the scheduler's time plus this
  /** fast-forward's groups (sim/fast-forward-groups.ts): finishPs adds the group's offset; the latest finish (null: finishOffsetPs) */
  ffGroups: { of: Int32Array; offsets: Float64Array; lastFinishPs: number } | null = null;
  /** called when a flow completes, in the order they were added (`addFinishListener`) */
  private readonly finishListeners: ((f: Flow) => void)[] = [];

  private readonly ccFirst: boolean;
  private readonly cnpFlag: boolean;
  private readonly echoTs: boolean;
  private readonly echoRxTs: boolean;
  private readonly echoInflight: boolean;
  private readonly echoMpd: boolean;
  private readonly ack: AckInfo;
  private readonly send: SendInfo;
  private ccParams: unknown = undefined;
  private tagParams: ReadonlyMap<string, unknown> | null = null;
  /** retransmission timeout in ps (0 = none); lossy mode turns on 10 ms when the profile has none (docs/network-model.md §10.2) */
  private readonly rtoPs: number;

  constructor(
    readonly ctx: NetContext,
    readonly net: NetworkConfig,
    readonly hosts: Host[],
    private readonly cc: CcDefinition,
  ) {
    this.sched = ctx.sched;
    this.pk = ctx.pool;
    this.pool = ctx.pool;
    this.quantization = ctx.quantization;
    this.cfg = net.transport;
    const c = this.cfg;
    this.adjustPacing = c.pacingUpdate === 'adjustOnRateChange';
    this.ccFirst = c.ackOrder === 'ccFirst';
    this.cnpFlag = c.cnpMode === 'ackFlag';
    this.echoTs = cc.needs.ts === true;
    this.echoRxTs = cc.needs.rxTs === true;
    this.echoInflight = cc.needs.inflight === true;
    this.echoMpd = cc.needs.mpd === true;
    // the run's strategies by registered name (strategies.ts); a spec's name was checked when it was resolved
    const recoveryDef = lossRecoveryRegistry.get(c.retxMode);
    const driverDef = sendDriverRegistry.get(c.sendDriver);
    const noRetx = !recoveryDef.resends;
    this.lossList = recoveryDef.keepsLost; // (before the drivers, which take it)
    this.rtoPs = noRetx ? 0 : c.rtoPs > 0 ? c.rtoPs : net.switch.pfcEnabled ? 0 : 10 * MS;
    // a sender with a timeout resends from sndUna, below what the receiver may already hold when the
    // last ACKs were lost: those duplicates must be acknowledged or the flow never completes. D-HPCC
    // acknowledges no duplicate and has no timeout; lossy mode gives it one, so it ACKs duplicates too.
    const ackDuplicates = c.ackOnDuplicate || this.rtoPs > 0;
    const flows = this.flows;
    const rx = new Receiver(this.sched, ctx.pool, net, hosts, flows, cc, (f) => {
      if (this.releaseFinished) this.release(f);
    });
    this.rx = rx;
    const scaleWindow = c.rateScaledWindow && cc.needs.rateScaledWindow === true;
    const windowGrew = (f: Flow): void => {
      this.touch(f);
      this.onWindowGrew(f);
    };
    const build: StrategyBuild = { transport: rx, ctx, flows, hosts, net, scaleWindow, windowPackets: c.windowUnit === 'packets', lossList: this.lossList, ackHighClass: rx.ackHighClass, ackDuplicates, windowGrew };
    // the driver first, then the recovery (their event kinds are registered in this order)
    const own = driverDef.create(build);
    this.bfcPause = net.switch.bfc !== undefined ? new BfcPausedDriver(own) : null;
    this.driver = this.bfcPause ?? own;
    const recovery = recoveryDef.create(build, own);
    if (recovery.onTrimmed !== undefined) this.onTrimmed = (pkt) => recovery.onTrimmed!(pkt);
    this.recovery = recovery;
    ctx.sourceOf = (id) => flows[id]?.src ?? -1;
    rx.bind(this.driver, recovery);
    this.grants = this.driver.carriesGrants;
    this.driverPrio = this.driver.packetPrio !== undefined;
    this.ack = newAckInfo();
    this.send = newSendInfo();
    const s = this.sched;
    this.kCcTimer = s.register({
      fire: (id, tag) => {
        const f = flows[id];
        if (f === null || f === undefined) return;
        f.ccTimers[tag] = -1;
        if (!f.finished && f.cc.onTimer !== undefined) f.cc.onTimer(tag);
      },
    }, 'CongestionControl.onTimer');
    // the timeout's event kind is registered second, as it always was (kinds are numbered in order)
    this.rto = new RetransmitTimer(s, flows, hosts, this.recovery, this.timeArg, this.rtoPs);
    rx.kCnpTimer = s.register({ fire: (id) => rx.onCnpTimer(rx.flowAt(id)) }, 'Transport.onCnpTimer');
    this.starts = new FlowStarts(s, flows, ctx, (f) => this.startFlow(f));
    rx.kAckFlush = s.register({
      fire: (id) => {
        const f = flows[id];
        if (f !== null && f !== undefined) rx.onAckFlush(f);
      },
    }, 'Transport.onAckFlush');
  }

  /** `byTag`: parameters for flows of those workload tags (spec `cc.byTag`); others use `params`. */
  setCcParams(params: unknown, byTag?: ReadonlyMap<string, unknown>): void {
    this.ccParams = params;
    this.tagParams = byTag !== undefined && byTag.size > 0 ? byTag : null;
  }

  /** Registers flows (already initialised, sorted by start time) and arms the start chain. */
  addFlows(flows: Flow[], factory: FlowFactory): void {
    this.starts.addList(flows, factory);
  }

  /**
   * Flows made as they start, from `stream` (start order) by `factory`: ids
   * follow the stream's order. With `releaseFinished` finished flows drop
   * their state (per-flow memory stays bounded by the flows in progress).
   */
  addFlowStream(stream: FlowStream, factory: FlowFactory, releaseFinished: boolean): void {
    this.releaseFinished = releaseFinished;
    this.starts.addStream(stream, factory);
  }

  /** Whether flows are still to start. */
  hasUnstarted(): boolean { return this.starts.hasUnstarted(); }
  /** A partition's worker (issue 31): only the flows of these hosts (by node, 1) start; all are made. */
  startOnly(local: Uint8Array): void { this.starts.local = local; }
  /** Events of the flow-start chain so far (they belong to no node: every partition runs them). */
  get startChainEvents(): number { return this.starts.chainEvents; }

  /** Adds a listener called with every flow that completes (the FCT recorder, the stop rule, closed-loop workloads). */
  addFinishListener(fn: (f: Flow) => void): void {
    this.finishListeners.push(fn);
  }

  /** `fn` hears every flow whose in-order bytes at its destination reach its `notifyAtBytes` (once per flow; one listener). */
  setReceivedListener(fn: (f: Flow) => void): void {
    this.rx.onReceived = fn;
  }

  /** Makes a flow from `spec` with the next id and starts it now (a closed-loop workload's injector, src/sim/drivers.ts). */
  injectFlow(spec: FlowSpec): Flow {
    return this.starts.inject(spec);
  }

  /** The flows not yet started, in id order, with their ids (drains a stream). */
  unstarted(): Generator<{ id: number; spec: FlowSpec }> { return this.starts.unstarted(); }

  private startFlow(f: Flow): void {
    f.started = true;
    f.rateBps = f.lineRateBps;
    f.nextAvail = this.sched.now;
    // one lookup per flow start, only when the spec has per-tag parameters
    const params = this.tagParams === null ? this.ccParams : (this.tagParams.get(f.tag) ?? this.ccParams);
    f.cwndBytes = this.cc.initialCwnd(f, params);
    f.cc = this.cc.create(f, params);
    if (f.cc.onStart !== undefined) f.cc.onStart();
    this.driver.onStart(f);
    this.hosts[f.src]!.addFlow(f);
  }

  /** Builds the next data packet of f (the NIC decided f may send now). */
  sendData(f: Flow): number {
    const now = this.sched.now;
    // a lost packet first (selective retransmission), else the next at sndNxt
    const seq = this.lossList === true && f.lostBytes() > 0 ? this.recovery.takeLost(f) : f.sndNxt;
    const left = f.sizeBytes - seq;
    const payload = left < f.mtuBytes ? left : f.mtuBytes;
    const wire = payload + f.dataHeaderBytes;
    const pk = this.pk;
    const p = pk.alloc(PKT_DATA);
    pk.setFlow(p, f.id);
    pk.setDst(p, f.dst);
    pk.setSeq(p, seq);
    pk.setAux(p, payload);
    pk.setSize(p, wire);
    pk.setPrio(p, this.driverPrio === true ? this.driver.packetPrio!(f, seq) : f.prio);
    pk.setFlag(p, FLAG_ECT, true);
    pk.setSendTs(p, now);
    pk.setHash(p, f.hash);
    const retx = seq < f.maxSentSeq;
    if (retx) pk.setFlag(p, FLAG_RETX, true);
    if (seq === f.sndNxt) {
      f.sndNxt = seq + payload;
      if (f.sndNxt > f.maxSentSeq) f.maxSentSeq = f.sndNxt;
    }
    f.dataPacketsSent++;
    if (retx) {
      f.retxPackets++;
      f.state().retxBytes += payload;
    }
    const cc = f.cc;
    let gap = -1;
    if (cc.onSend !== undefined) {
      const si = this.send;
      si.seq = seq;
      si.payloadBytes = payload;
      si.wireBytes = wire;
      si.nowPs = now;
      si.isRetransmission = retx;
      si.inflightStamp = f.sndNxt - f.sndUna;
      si.nextGapPs = -1;
      cc.onSend(si);
      pk.setInflight(p, si.inflightStamp);
      gap = si.nextGapPs;
    } else pk.setInflight(p, f.sndNxt - f.sndUna);
    f.nextAvail = now + (gap >= 0 ? gap : this.serPs(f, wire));
    f.lastPktWire = wire;
    if (this.rtoPs > 0 && !f.rtoPending) this.rto.arm(f, now);
    return p;
  }

  /**
   * Serialization time of `wire` bytes at f's current rate (NetContext.txTime),
   * cached per flow. It takes the flow, not its rate: a rate in bps is not a
   * small integer, and V8 allocates a heap number for it at every call it
   * does not inline (sendData's inlining budget often leaves the tx-time call
   * out).
   */
  serPs(f: Flow, wire: number): number {
    const rate = f.rateBps;
    if (wire !== f.serBytes || rate !== f.serRate) {
      f.serPs = txTimePs(wire, rate, this.quantization);
      f.serBytes = wire;
      f.serRate = rate;
    }
    return f.serPs;
  }

  // ------------------------------------------------------------------ receiver (receiver.ts)

  /** Returns true when the packet is kept as the echo source of a pending coalesced ACK. */
  onData(pkt: number): boolean {
    return this.rx.onData(pkt);
  }

  // ------------------------------------------------------------------ sender

  onCnpPacket(pkt: number): void {
    const f = this.flows[this.pk.flow(pkt)];
    if (f !== null && f !== undefined && !f.finished && f.cc.onCnp !== undefined) f.cc.onCnp();
  }

  onAck(pkt: number): void {
    // boolean fields compare with true / false: a bare test is V8's generic truthiness check (Port's note)
    const pk = this.pk;
    const f = this.flows[pk.flow(pkt)];
    if (f === null || f === undefined || f.finished === true) return;
    const now = this.sched.now;
    const isNack = pk.type(pkt) === PKT_NACK;
    const seq = pk.seq(pkt);
    const ai = this.ack;
    ai.seq = seq;
    ai.isNack = isNack;
    ai.ecnEcho = pk.has(pkt, FLAG_ECN_ECHO);
    ai.tcd = pk.tcd(pkt);
    ai.sendTsPs = this.echoTs === true ? pk.sendTs(pkt) : -1;
    ai.rxTsPs = this.echoRxTs === true ? pk.rxTs(pkt) : -1;
    ai.ackedPackets = pk.aux(pkt);
    if (this.echoInflight === true) {
      ai.inflightBytes = pk.inflight(pkt);
      ai.sumInflightBytes = pk.sumInflight(pkt);
    } else {
      ai.inflightBytes = 0;
      ai.sumInflightBytes = 0;
    }
    ai.newlyAckedBytes = !isNack && seq > f.sndUna ? seq - f.sndUna : 0;
    ai.nowPs = now;
    ai.receiverEcho = pk.echo(pkt);
    ai.mpdUs = this.echoMpd === true ? pk.mpd(pkt) : 0;
    const n = pk.intN(pkt);
    ai.intHops = n;
    if (n > 0) copyIntEcho(ai, pk, pkt, n);
    const cc = f.cc;
    if (this.ccFirst === true) {
      ai.sndNxt = f.sndNxt;
      ai.sndUna = f.sndUna;
      ai.maxSentSeq = f.maxSentSeq;
      cc.onAck(ai);
      if (isNack && cc.onNack !== undefined) cc.onNack(ai);
      if (ai.ecnEcho === true && this.cnpFlag === true && cc.onCnp !== undefined) cc.onCnp();
      if (isNack) this.recovery.onNack(f, seq, pkt);
      else if (seq > f.sndUna) f.sndUna = seq;
      if (f.sndUna >= f.sizeBytes) this.complete(f);
    } else {
      if (seq > f.sndUna) f.sndUna = seq;
      if (f.sndUna >= f.sizeBytes) this.complete(f);
      else if (isNack) this.recovery.onNack(f, seq, pkt);
      if (ai.ecnEcho === true && this.cnpFlag === true && cc.onCnp !== undefined && f.finished === false) cc.onCnp();
      ai.sndNxt = f.sndNxt;
      ai.sndUna = f.sndUna;
      ai.maxSentSeq = f.maxSentSeq;
      cc.onAck(ai);
      if (isNack && cc.onNack !== undefined) cc.onNack(ai);
    }
    // complete() may have finished it (TypeScript still narrows `finished` to false here)
    if (f.finished) return;
    if (this.lossList === true && f.lostBytes() > 0) this.recovery.onAcked(f);
    if (this.grants === true && !isNack) this.driver.onGrant(f, seq, pk.xack(pkt));
    if (this.rtoPs > 0) f.rtoDeadline = now + this.rtoPs;
    const host = this.hosts[f.src]!;
    // sndUna / sndNxt moved
    host.touch(f);
    host.port.kick();
  }

  /** Counts `f` finished and tells the finish listeners (also fast-forward's replayed flows, sim/replay.ts, which set their state). */
  announceFinished(f: Flow): void {
    this.finishedCount++;
    this.finishedBytes += f.sizeBytes;
    for (const l of this.finishListeners) l(f);
    if (this.releaseFinished) this.release(f);
  }

  private complete(f: Flow): void {
    f.finished = true;
    f.finishPs = this.sched.now + this.finishOffsetPs;
    const gs = this.ffGroups;
    if (gs !== null) gs.lastFinishPs = Math.max(gs.lastFinishPs, (f.finishPs += gs.offsets[gs.of[f.id]!]!));
    if (f.strategy !== null) f.strategy.release();
    f.cancelAllTimers();
    if (f.cc.onFinish !== undefined) f.cc.onFinish();
    this.hosts[f.src]!.removeFlow(f);
    this.announceFinished(f);
  }

  /**
   * Drops a finished flow's state once nothing can reach it any more. A flow
   * that never retransmitted sent every data packet once, and it finished
   * when the last one was acknowledged, so none is left in flight; ACKs and
   * CNPs still on their way find a null entry and are ignored, as they were
   * by the finished flow. A running CNP timer (receiver side) can still send
   * a CNP: the flow goes when it stops. A flow that retransmitted may still
   * have data packets in flight and keeps its state.
   */
  private release(f: Flow): void {
    if (f.retxPackets > 0 || f.cnpTimerRunning || this.flows[f.id] !== f) return;
    this.releasedRetxPackets += f.retxPackets;
    this.releasedTimeouts += f.timeouts;
    this.releasedDataPackets += f.dataPacketsSent;
    this.flows[f.id] = null;
  }

  /** A CC moved the pacing time of f: make sure the NIC looks at it in time. */
  onPacingChanged(f: Flow): void {
    if (f.started) this.hosts[f.src]!.wakeFor(f);
  }

  /** Something that decides whether f may send, or when, changed: tell its NIC. */
  touch(f: Flow): void {
    if (f.started && !f.finished) this.hosts[f.src]!.touch(f);
  }

  /** The first switch paused or resumed flow `id` (BFC, net/bfc.ts). */
  onFlowPause(id: number, pause: boolean): void {
    const f = this.flows[id];
    if (f === null || f === undefined || this.bfcPause === null || !this.bfcPause.set(f, pause)) return;
    this.touch(f);
    if (!pause && f.started && !f.finished) this.onWindowGrew(f);
  }

  /** A CC opened the window of f. */
  onWindowGrew(f: Flow): void {
    this.hosts[f.src]!.port.kick();
  }
}
