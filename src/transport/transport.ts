/**
 * RoCEv2-style reliable transport (network-model.md §2.2 D-HPCC, §2.3 D-OSCAR,
 * unified by the options of §2.5):
 *
 * sender   - builds data packets (payload <= MTU, send timestamp, in-flight
 *            bytes), paces them at the flow rate, gates them by the window,
 *            processes ACK/NACK in the profile's order (`transportFirst`:
 *            sndUna, completion, go-back-N rewind, CNP flag, CC hook;
 *            `ccFirst`: CC hook, then the transport), retransmission timeout;
 * receiver - per-packet cumulative ACK (optional coalescing), NACK on a gap
 *            (500 us timer rule or one NACK re-armed by in-order/duplicate
 *            packets), CE echo on ACKs or CNP packets paced at 50 us per flow,
 *            INT stack and send time echoed to the sender.
 *
 * Sequence numbers are bytes; with a fixed MTU a PSN is seq / MTU, so the
 * packet-based D-OSCAR rules map one to one.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { AckInfo, CcDefinition, SendInfo } from '../cc/types.js';
import { INT_MAX_HOPS } from '../cc/types.js';
import type { NetworkConfig, TransportConfig } from '../net/config.js';
import type { NetContext } from '../net/context.js';
import type { Host } from '../net/host.js';
import { INT_QLEN, INT_RATE, INT_TS, INT_TX, PKT_ACK, PKT_CNP, PKT_DATA, PKT_NACK, copyInt, type Packet } from '../net/packet.js';
import { MS } from '../engine/units.js';
import type { Flow } from './flow.js';

export class Transport {
  readonly sched: Scheduler;
  readonly cfg: TransportConfig;
  readonly adjustPacing: boolean;
  readonly flows: Flow[] = [];
  kCcTimer = -1;
  private kRto = -1;
  private kCnpTimer = -1;
  private kFlowStart = -1;
  private nextStart = 0;
  finishedCount = 0;
  /** called when a flow completes */
  onFinish: ((f: Flow) => void) | null = null;

  private readonly windowPackets: boolean;
  private readonly ccFirst: boolean;
  private readonly cnpFlag: boolean;
  private readonly cnpPacket: boolean;
  private readonly nackTimerRule: boolean;
  private readonly ackStrict: boolean;
  private readonly echoInt: boolean;
  private readonly quanta: boolean;
  private readonly ack: AckInfo;
  private readonly send: SendInfo;
  private ccParams: unknown = undefined;
  /** retransmission timeout in ps (0 = none); lossy mode turns on 10 ms when the profile has none (§2.2) */
  private readonly rtoPs: number;

  constructor(
    readonly ctx: NetContext,
    readonly net: NetworkConfig,
    readonly hosts: Host[],
    private readonly cc: CcDefinition,
  ) {
    this.sched = ctx.sched;
    this.cfg = net.transport;
    const c = this.cfg;
    this.adjustPacing = c.pacingUpdate === 'adjustOnRateChange';
    this.windowPackets = c.windowUnit === 'packets';
    this.ccFirst = c.ackOrder === 'ccFirst';
    this.cnpFlag = c.cnpMode === 'ackFlag';
    this.cnpPacket = c.cnpMode === 'cnpPacket';
    this.nackTimerRule = c.nackRule === 'timer';
    this.ackStrict = c.ackPriority === 'strictAtHost';
    this.echoInt = cc.needs.int === true;
    this.quanta = net.switch.pfcMode === 'quanta';
    this.rtoPs = c.rtoPs > 0 ? c.rtoPs : net.switch.pfcEnabled ? 0 : 10 * MS;
    this.ack = {
      seq: 0,
      isNack: false,
      ecnEcho: false,
      tcd: 0,
      sendTsPs: 0,
      inflightBytes: 0,
      ackedPackets: 0,
      intHops: 0,
      intTsPs: new Float64Array(INT_MAX_HOPS),
      intQlenBytes: new Float64Array(INT_MAX_HOPS),
      intTxBytes: new Float64Array(INT_MAX_HOPS),
      intRateBps: new Float64Array(INT_MAX_HOPS),
      sndNxt: 0,
      sndUna: 0,
      maxSentSeq: 0,
      nowPs: 0,
    };
    this.send = { seq: 0, payloadBytes: 0, wireBytes: 0, nowPs: 0, isRetransmission: false };
    const flows = this.flows;
    const s = this.sched;
    this.kCcTimer = s.register({
      fire: (id, tag) => {
        const f = flows[id]!;
        f.ccTimers[tag] = -1;
        if (!f.finished && f.cc.onTimer !== undefined) f.cc.onTimer(tag);
      },
    });
    this.kRto = s.register({ fire: (id) => this.onRtoEvent(flows[id]!) });
    this.kCnpTimer = s.register({ fire: (id) => this.onCnpTimer(flows[id]!) });
    this.kFlowStart = s.register({ fire: () => this.startDueFlows() });
  }

  setCcParams(params: unknown): void {
    this.ccParams = params;
  }

  /** Registers flows (already initialised, sorted by start time) and arms the start chain. */
  addFlows(flows: Flow[]): void {
    for (const f of flows) this.flows.push(f);
    if (this.flows.length > 0) this.sched.schedule(this.flows[0]!.startPs, this.kFlowStart, 0, 0);
  }

  private startDueFlows(): void {
    const now = this.sched.now;
    const flows = this.flows;
    while (this.nextStart < flows.length && flows[this.nextStart]!.startPs <= now) {
      this.startFlow(flows[this.nextStart++]!);
    }
    if (this.nextStart < flows.length) this.sched.schedule(flows[this.nextStart]!.startPs, this.kFlowStart, 0, 0);
  }

  private startFlow(f: Flow): void {
    f.started = true;
    f.rateBps = f.lineRateBps;
    f.nextAvail = this.sched.now;
    f.cwndBytes = this.cc.initialCwnd(f, this.ccParams);
    f.cc = this.cc.create(f, this.ccParams);
    if (f.cc.onStart !== undefined) f.cc.onStart();
    this.hosts[f.src]!.addFlow(f);
  }

  /** May flow f put another packet in flight? (window test, §2.2 / §2.3) */
  windowOpen(f: Flow): boolean {
    const w = f.cwndBytes;
    if (w === Infinity) return true;
    const infl = f.sndNxt - f.sndUna;
    if (this.windowPackets) return Math.ceil(infl / f.mtuBytes) < Math.ceil(w / f.dataWireBytes);
    return infl < w;
  }

  /** Builds the next data packet of f (the NIC decided f may send now). */
  sendData(f: Flow): Packet {
    const now = this.sched.now;
    const seq = f.sndNxt;
    const left = f.sizeBytes - seq;
    const payload = left < f.mtuBytes ? left : f.mtuBytes;
    const wire = payload + f.dataHeaderBytes;
    const p = this.ctx.pool.alloc();
    p.type = PKT_DATA;
    p.flowId = f.id;
    p.src = f.src;
    p.dst = f.dst;
    p.seq = seq;
    p.payload = payload;
    p.size = wire;
    p.prio = f.prio;
    p.ect = true;
    p.ce = false;
    p.tcd = 0;
    p.intN = 0;
    p.sendTs = now;
    p.hash = f.hash;
    const retx = seq < f.maxSentSeq;
    p.isRetx = retx;
    f.sndNxt = seq + payload;
    if (f.sndNxt > f.maxSentSeq) f.maxSentSeq = f.sndNxt;
    p.inflight = f.sndNxt - f.sndUna;
    f.dataPacketsSent++;
    if (retx) f.retxPackets++;
    const cc = f.cc;
    if (cc.onSend !== undefined) {
      const si = this.send;
      si.seq = seq;
      si.payloadBytes = payload;
      si.wireBytes = wire;
      si.nowPs = now;
      si.isRetransmission = retx;
      cc.onSend(si);
    }
    f.nextAvail = now + this.ctx.txTime(wire, f.rateBps);
    f.lastPktWire = wire;
    if (this.rtoPs > 0 && !f.rtoPending) {
      f.rtoDeadline = now + this.rtoPs;
      f.rtoPending = true;
      this.sched.schedule(f.rtoDeadline, this.kRto, f.id, 0);
    }
    return p;
  }

  // ---------------------------------------------------------------- receiver

  onData(pkt: Packet): void {
    const f = this.flows[pkt.flowId]!;
    const now = this.sched.now;
    if (pkt.ce && this.cnpPacket) {
      if (!f.cnpTimerRunning) {
        this.sendCnp(f);
        f.cnpTimerRunning = true;
        f.cnpEcnSeen = false;
        this.sched.after(this.cfg.cnpIntervalPs, this.kCnpTimer, f.id, 0);
      } else f.cnpEcnSeen = true;
    }
    const exp = f.rcvExpected;
    if (pkt.seq === exp) {
      f.rcvExpected = exp + pkt.payload;
      f.nackArmed = true;
      f.ackCounter++;
      if (f.ackCounter >= this.cfg.ackEvery || f.rcvExpected >= f.sizeBytes || pkt.ce) {
        this.sendAck(f, pkt, false, f.ackCounter);
        f.ackCounter = 0;
      }
    } else if (pkt.seq < exp) {
      if (this.cfg.ackOnDuplicate) {
        f.nackArmed = true;
        this.sendAck(f, pkt, false, 1);
      }
    } else if (this.nackTimerRule) {
      if (now >= f.nackTimerPs || f.lastNack !== exp) {
        this.sendAck(f, pkt, true, 0);
        f.nackTimerPs = now + this.cfg.nackIntervalPs;
        f.lastNack = exp;
      }
    } else if (f.nackArmed) {
      this.sendAck(f, pkt, true, 0);
      f.nackArmed = false;
    }
  }

  private sendAck(f: Flow, data: Packet, nack: boolean, covered: number): void {
    const a = this.ctx.pool.alloc();
    a.type = nack ? PKT_NACK : PKT_ACK;
    a.flowId = f.id;
    a.src = f.dst;
    a.dst = f.src;
    a.seq = f.rcvExpected;
    a.payload = 0;
    a.size = nack ? f.nackWireBytes : f.ackWireBytes;
    a.prio = f.prio;
    a.hash = f.ackHash;
    a.ect = false;
    a.ce = false;
    a.ecnEcho = data.ce;
    a.tcd = data.tcd;
    a.sendTs = data.sendTs;
    a.inflight = data.inflight;
    a.ackedPkts = covered;
    if (this.echoInt && (!nack || this.cfg.nackCarriesEcho)) copyInt(data, a);
    else a.intN = 0;
    this.hosts[f.dst]!.sendControl(a, this.ackStrict ? this.cfg.ackClass : f.prio);
  }

  private sendCnp(f: Flow): void {
    const c = this.ctx.pool.alloc();
    c.type = PKT_CNP;
    c.flowId = f.id;
    c.src = f.dst;
    c.dst = f.src;
    c.seq = 0;
    c.size = this.cfg.cnpBytes;
    c.prio = this.cfg.cnpPriority;
    c.hash = f.ackHash;
    c.ect = false;
    c.intN = 0;
    this.hosts[f.dst]!.sendControl(c, this.cfg.cnpPriority);
  }

  private onCnpTimer(f: Flow): void {
    if (f.cnpEcnSeen) {
      this.sendCnp(f);
      f.cnpEcnSeen = false;
      this.sched.after(this.cfg.cnpIntervalPs, this.kCnpTimer, f.id, 0);
    } else f.cnpTimerRunning = false;
  }

  // ------------------------------------------------------------------ sender

  onCnpPacket(pkt: Packet): void {
    const f = this.flows[pkt.flowId]!;
    if (!f.finished && f.cc.onCnp !== undefined) f.cc.onCnp();
  }

  onAck(pkt: Packet): void {
    const f = this.flows[pkt.flowId]!;
    if (f.finished) return;
    const now = this.sched.now;
    const isNack = pkt.type === PKT_NACK;
    const ai = this.ack;
    ai.seq = pkt.seq;
    ai.isNack = isNack;
    ai.ecnEcho = pkt.ecnEcho;
    ai.tcd = pkt.tcd;
    ai.sendTsPs = pkt.sendTs;
    ai.inflightBytes = pkt.inflight;
    ai.ackedPackets = pkt.ackedPkts;
    ai.nowPs = now;
    const n = pkt.intN;
    ai.intHops = n;
    if (n > 0) {
      const a = pkt.int!;
      const m = n < INT_MAX_HOPS ? n : INT_MAX_HOPS;
      for (let i = 0; i < m; i++) {
        ai.intTsPs[i] = a[INT_TS + i]!;
        ai.intQlenBytes[i] = a[INT_QLEN + i]!;
        ai.intTxBytes[i] = a[INT_TX + i]!;
        ai.intRateBps[i] = a[INT_RATE + i]!;
      }
    }
    const cc = f.cc;
    if (this.ccFirst) {
      ai.sndNxt = f.sndNxt;
      ai.sndUna = f.sndUna;
      ai.maxSentSeq = f.maxSentSeq;
      cc.onAck(ai);
      if (isNack && cc.onNack !== undefined) cc.onNack(ai);
      if (ai.ecnEcho && this.cnpFlag && cc.onCnp !== undefined) cc.onCnp();
      if (isNack) {
        // go-back-N from the NACKed sequence (the NACK itself acknowledges nothing)
        f.sndNxt = pkt.seq > f.sndUna ? pkt.seq : f.sndUna;
      } else if (pkt.seq > f.sndUna) f.sndUna = pkt.seq;
      if (f.sndUna >= f.sizeBytes) this.complete(f);
    } else {
      if (pkt.seq > f.sndUna) f.sndUna = pkt.seq;
      if (f.sndUna >= f.sizeBytes) this.complete(f);
      else if (isNack) f.sndNxt = f.sndUna;
      if (ai.ecnEcho && this.cnpFlag && cc.onCnp !== undefined && !f.finished) cc.onCnp();
      ai.sndNxt = f.sndNxt;
      ai.sndUna = f.sndUna;
      ai.maxSentSeq = f.maxSentSeq;
      cc.onAck(ai);
      if (isNack && cc.onNack !== undefined) cc.onNack(ai);
    }
    if (f.finished) return;
    if (this.rtoPs > 0) f.rtoDeadline = now + this.rtoPs;
    this.hosts[f.src]!.port.kick();
  }

  private onRtoEvent(f: Flow): void {
    f.rtoPending = false;
    if (f.finished) return;
    const now = this.sched.now;
    if (now < f.rtoDeadline) {
      f.rtoPending = true;
      this.sched.schedule(f.rtoDeadline, this.kRto, f.id, 0);
      return;
    }
    if (f.sndUna >= f.maxSentSeq) {
      // nothing outstanding: re-arm lazily on the next send
      return;
    }
    f.timeouts++;
    f.sndNxt = f.sndUna;
    if (f.cc.onRto !== undefined) f.cc.onRto();
    f.rtoDeadline = now + this.rtoPs;
    f.rtoPending = true;
    this.sched.schedule(f.rtoDeadline, this.kRto, f.id, 0);
    this.hosts[f.src]!.port.kick();
  }

  private complete(f: Flow): void {
    f.finished = true;
    f.finishPs = this.sched.now;
    f.cancelAllTimers();
    if (f.cc.onFinish !== undefined) f.cc.onFinish();
    this.hosts[f.src]!.removeFlow(f);
    this.finishedCount++;
    if (this.onFinish !== null) this.onFinish(f);
  }

  /** A CC moved the pacing time of f: make sure the NIC looks at it in time. */
  onPacingChanged(f: Flow): void {
    if (!f.started) return;
    const now = this.sched.now;
    this.hosts[f.src]!.wakeAt(f.nextAvail > now ? f.nextAvail : now);
  }

  /** A CC opened the window of f. */
  onWindowGrew(f: Flow): void {
    this.hosts[f.src]!.port.kick();
  }

  onPfcAtHost(host: Host, pkt: Packet): void {
    const port = host.port;
    if (this.quanta && pkt.pfcPause) {
      const until = this.sched.now + Math.round(((65535 * 512) / port.rateBps) * 1e12);
      port.setPaused(pkt.pfcClass, true, until);
      this.sched.schedule(until, this.ctx.kPauseExpiry, port.gid, pkt.pfcClass);
    } else {
      port.setPaused(pkt.pfcClass, pkt.pfcPause, 0);
    }
  }
}
