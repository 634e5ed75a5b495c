/**
 * Output-queued switch (docs/network-model.md §11.1): on full reception a packet is
 * routed, classified, admitted by the shared-buffer MMU (charged to its ingress
 * (port, queue)), checked for PFC pause, and enqueued at the egress port. On
 * transmission start it is released from the MMU, run through the switch's
 * marking policies (RED/ECN §3.4, TCD), checked for PFC resume, and run
 * through its telemetry policies (INT, MPD §3.5); the policy lists are built
 * once from the profile and the CC's needs (the needs table, switch-features.ts;
 * dequeue-policies.ts). Before the MMU's admission, the switch's admission
 * policies, if it has any, may drop, trim, mark or hold the packet
 * (admission.ts; the switch's `AdmissionGate`, switch-admission.ts, runs them
 * on the way in). Which queue a port serves next is its discipline
 * (queue-discipline.ts). Zero processing delay.
 */
import type { Rng } from '../engine/rng.js';
import type { SwitchConfig } from './config.js';
import type { NetContext } from './context.js';
import * as mmuModule from './mmu.js';
import { createMmu, type SwitchMmu } from './mmu.js';
import type { DequeuePolicy, DequeuePolicyContext } from './dequeue-policies.js';
import type { AdmissionContext, AdmissionPolicy } from './admission.js';
import { Bfc, bfcConfig } from './bfc.js';
import { DISC_RR, DISC_STRICT, makeDiscipline } from './queue-discipline.js';
import { findAdmissionPolicy, findDequeuePolicy, findDiscipline } from './switch-registry.js';
import { admissionParams } from './admission.js';
import { switchPolicyNames, type SwitchNeeds } from './switch-features.js';
import { mix32 } from './hash.js';
import { ns3EcmpIndex, ns3RouteOrder } from './ecmp-ns3.js';
import * as packet from './packet.js';
import type { PacketStore } from './packet.js';
import type { Port, PortOwner } from './port.js';
import { pfcReceived } from './pfc-rx.js';
import { AdmissionGate } from './switch-admission.js';
import type { RouteTable } from './topology/types.js';

// the hot path's imported constants as own bindings, which V8 folds (port.ts says why)
const { ADMITTED_PAUSE, PASSED } = mmuModule;
const { FLAG_BFC, FLAG_PAUSE, NIL, PKT_PFC, metaPrio, metaType } = packet;

/**
 * `mix32` as a signed int32 (the same bits). For the per-packet ECMP hash: a
 * uint32 of 2^31 or more is not a small integer to V8, and returning one from
 * a call it does not inline allocates a heap number per packet.
 */
function mix32i(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

export type { SwitchNeeds } from './switch-features.js';

export class Switch implements PortOwner {
  readonly ports: Port[] = [];
  mmu!: SwitchMmu;
  private readonly salt: number;
  /**
   * this switch's routes by destination host, two words each (one cache line
   * for both): the number of equal-cost next hops, then the egress port itself
   * when there is one, else the start of the hops in `routePorts`
   */
  private readonly route: Int32Array;
  private readonly routePorts: Int32Array;
  private readonly spray: boolean;
  /** loadBalancing ns3Hash, and its next-hop lists in descending node id (made at the first use) */
  private readonly ns3: boolean;
  private ns3Ports: Int32Array | null = null;
  readonly mmuOffset: number;
  /** egress processing at dequeue: marking before the PFC resume check, telemetry after (dequeue-policies.ts) */
  private marking: DequeuePolicy[] = [];
  private telemetry: DequeuePolicy[] = [];
  /** admission policies before the MMU (admission.ts); their number, 0 on every profile's switch */
  admission: AdmissionPolicy[] = [];
  private nAdmission = 0;
  readonly queue0Control: boolean;
  private readonly quanta: boolean;
  /** ps a PAUSE lasts at each port in quanta mode */
  private pauseDurPs: Float64Array = new Float64Array(0);
  kPfcRefresh = -1;
  readonly pk: PacketStore;
  /** per-packet spraying choices */
  private readonly sprayRng: Rng;
  /** RED marking draws */
  private readonly ecnRng: Rng;
  drops = 0;
  /** by verdict of the admission policies: packets dropped, trimmed, marked; (port, class) holds begun */
  admissionDrops = 0;
  trimmed = 0;
  admissionMarks = 0;
  holds = 0;
  /** packets of the header queue lost here (no room, or returned twice; admission.ts), and headers returned to their sender (RETURN) */
  headerDrops = 0;
  returned = 0;
  /** what the links deliver to: this switch, or its admission gate when it has admission policies (`Network` points the ports there) */
  arrivals: PortOwner = this;
  /** 1 while an admission policy holds ingress (port, class) port*8+class paused (HOLD); sized with admission */
  held: Uint8Array = new Uint8Array(0);
  /** the data queue of trimmed headers */
  trimQueue = 7;
  /** BFC's physical queues and backpressure (bfc.ts), when `cfg.bfc` is set; its class defaults to this (the transport's data class, set by `Network`) */
  bfc: Bfc | null = null;
  dataClass = 0;
  /** an admission policy of this switch may trim (admission.ts `trims`): it has a header queue */
  trims = false;

  constructor(
    readonly ctx: NetContext,
    readonly id: number,
    readonly cfg: SwitchConfig,
    routes: RouteTable,
    rng: Rng,
    private readonly needs: SwitchNeeds,
  ) {
    // separate streams: ECN marking draws never shift spraying choices and vice versa
    this.sprayRng = rng.fork('spray');
    this.ecnRng = rng.fork('ecn');
    this.routePorts = routes.ports;
    const hosts = routes.hostCount;
    const base = (id - hosts) * hosts;
    this.route = new Int32Array(2 * hosts);
    for (let h = 0; h < hosts; h++) {
      const cnt = routes.routeCount[base + h]!;
      const start = routes.routeStart[base + h]!;
      this.route[2 * h] = cnt;
      this.route[2 * h + 1] = cnt === 1 ? routes.ports[start]! : start;
    }
    // ecmpSeed 0 keeps the default salts; another seed redraws every switch's (paths per flow)
    const seedMix = cfg.ecmpSeed === 0 ? 0 : mix32(Math.imul(cfg.ecmpSeed, 0x85ebca6b) ^ 0x27d4eb2f);
    this.salt = mix32(Math.imul(id + 1, 0x9e3779b1) ^ seedMix) | 0;
    this.spray = cfg.loadBalancing === 'spray';
    this.ns3 = cfg.loadBalancing === 'ns3Hash';
    this.mmuOffset = cfg.mmuHeaderOffset;
    this.queue0Control = cfg.queue0Control;
    this.quanta = cfg.pfcMode === 'quanta';
    this.pk = ctx.pool;
  }

  /** Called once all ports are attached. */
  finish(hostRateBps: number): void {
    const n = this.ports.length;
    const rates: number[] = [];
    const delays: number[] = [];
    this.pauseDurPs = new Float64Array(n);
    const disc = this.cfg.discipline;
    for (let i = 0; i < n; i++) {
      const p = this.ports[i]!;
      p.urgentMask = this.queue0Control === true ? 1 : 0;
      if (disc === undefined) p.setDiscipline(this.cfg.service === 'strict' ? DISC_STRICT : DISC_RR);
      else this.setDiscipline(i, disc);
      rates.push(p.rateBps);
      delays.push(p.delayPs);
      this.pauseDurPs[i] = Math.round(((65535 * 512) / p.rateBps) * 1e12);
    }
    this.mmu = createMmu(this.cfg, rates, delays, hostRateBps);
    // the needs table says which policies the CC's needs install (switch-features.ts)
    const names = switchPolicyNames(this.needs, this.cfg);
    const dc: DequeuePolicyContext = { pk: this.pk, cfg: this.cfg, ecnMarking: this.needs.ecnMarking, ports: { rateBps: rates }, ecnRng: this.ecnRng, sched: this.ctx.sched };
    this.marking = names.marking.map((name) => findDequeuePolicy(name).create(dc));
    this.telemetry = names.telemetry.map((name) => findDequeuePolicy(name).create(dc));
    const chosen = [...(this.cfg.admission ?? []), ...names.admission.map((name) => ({ name }))];
    if (chosen.length > 0) this.buildAdmission(chosen, rates);
    if (this.cfg.bfc !== undefined) this.buildBfc();
  }

  /** BFC (bfc.ts): every port's class split into physical queues; arrivals take the gate's path (no straight-through hop). */
  private buildBfc(): void {
    const c = bfcConfig(this.cfg.bfc!);
    const cls = c.cls >= 0 ? c.cls : this.dataClass;
    if (this.queue0Control === true && cls === 0) throw new Error('switch.bfc.cls: 0 — the control queue (queue0Control) cannot be split');
    this.bfc = new Bfc(this.ctx, this.ports, c, cls);
    for (const p of this.ports) {
      p.splitCls = cls;
      p.split = this.bfc;
    }
    if (this.arrivals === this) this.arrivals = new AdmissionGate(this);
  }

  /** The admission policies (admission.ts), their per-(port, class) hold flags, and the header queue if one may trim. */
  private buildAdmission(chosen: { name: string; params?: Record<string, unknown> }[], rates: number[]): void {
    const ac: AdmissionContext = { pk: this.pk, cfg: this.cfg, sched: this.ctx.sched, rateBps: rates, rng: this.sprayRng.fork('admission') };
    const defs = chosen.map((c) => findAdmissionPolicy(c.name));
    this.admission = chosen.map((c, i) => defs[i]!.create(ac, admissionParams(defs[i]!, c.params ?? {})));
    this.nAdmission = this.admission.length;
    this.arrivals = new AdmissionGate(this);
    this.held = new Uint8Array(this.ports.length * 8);
    this.trimQueue = this.cfg.trimQueue ?? 7;
    if (this.queue0Control === true && this.trimQueue === 0) throw new Error('switch: trimQueue 0 is the control queue (queue0Control); choose another');
    this.trims = defs.some((d) => d.trims === true);
    if (this.trims) for (const p of this.ports) p.urgentMask |= 1 << this.trimQueue;
  }

  /** Sets the service discipline of port `index` by registry name (queue-discipline.ts, switch-registry.ts). */
  setDiscipline(index: number, name: string, params: Readonly<Record<string, unknown>> | undefined = this.cfg.disciplineParams): void {
    const d = findDiscipline(name);
    this.ports[index]!.setDiscipline(d.id, makeDiscipline(d, this.ports[index]!, params));
  }

  /** Names of the dequeue policies in run order (diagnostics and tests; allocates). */
  policyNames(): string[] {
    return [...this.marking.map((p) => p.name), 'pfcResume', ...this.telemetry.map((p) => p.name)];
  }

  /** Names of the admission policies in run order (diagnostics and tests; allocates). */
  admissionNames(): string[] {
    return this.admission.map((p) => p.name);
  }

  receive(pkt: number, inPort: number): void {
    const pk = this.pk;
    this.arrive(pkt, inPort, pk.meta(pkt), pk.dst(pkt), pk.size(pkt), pk.hash(pkt));
  }

  /**
   * The per-hop words come from the in-flight ring (Port.onArrive): the
   * packet's record is not read on the way through, only when it is dropped.
   */
  arrive(pkt: number, inPort: number, meta: number, dst: number, size: number, hash: number): void {
    if (metaType(meta) === PKT_PFC) {
      this.onPfc(pkt, inPort);
      return;
    }
    const q = metaPrio(meta);
    const ri = 2 * dst;
    const cnt = this.route[ri]!;
    let e = this.route[ri + 1]!;
    if (cnt !== 1) {
      if (cnt === 0) {
        this.dropPacket(pkt, this.ports[inPort]!);
        return;
      }
      if (this.spray === true) e = this.routePorts[e + this.sprayRng.int(cnt)]!;
      else if (this.ns3 === true) e = this.ns3Port(pkt, dst, cnt);
      else {
        // ECMP: the uint32 hash mod cnt, a mask when cnt is a power of two (the low bits are the same as an int32)
        const h = mix32i(hash ^ this.salt);
        e = this.routePorts[e + ((cnt & (cnt - 1)) === 0 ? h & (cnt - 1) : (h >>> 0) % cnt)]!;
      }
    }
    const out = this.ports[e]!;
    if (this.queue0Control === true && q === 0) {
      // the control queue: no MMU accounting and no dequeue processing
      if (out.idleFor(0) === true) {
        out.startThrough(pkt, 0, size, meta, dst, hash, inPort);
        out.transmitDq();
      } else out.enqueueEntry(pkt, 0, size, meta, dst, hash, inPort);
      return;
    }
    let r: number;
    // (a port that is not idle stays so through the admission: a PAUSE goes out on the ingress port)
    const idle = out.idleFor(q);
    if (idle === true) {
      // it leaves at once: when the MMU's admission and release would cancel out, neither is done
      r = this.mmu.admitThrough(inPort, q, size - this.mmuOffset, e);
      if (r === PASSED) {
        out.startThrough(pkt, q, size, meta, dst, hash, inPort);
        this.process(pkt, out, q, size, -1);
        out.transmitDq();
        return;
      }
    } else r = this.mmu.enqueue(inPort, q, size - this.mmuOffset, e);
    if (r >= 0) {
      this.dropPacket(pkt, out);
      return;
    }
    if (r === ADMITTED_PAUSE) this.sendPfc(inPort, q, true);
    if (idle === true && out.idleFor(q) === true) {
      // straight through: enqueued and dequeued at once, in the order pull() would (§11.1)
      out.startThrough(pkt, q, size, meta, dst, hash, inPort);
      this.depart(pkt, out, q, inPort, size);
      out.transmitDq();
    } else out.enqueueEntry(pkt, q, size, meta, dst, hash, inPort);
  }

  /**
   * The egress port number toward host `dst` (ECMP by the flow hash, or a
   * sprayed draw; docs/network-model.md §11.6), or -1 without a route: the
   * choice `arrive` makes inline on the hop, for the admission path (switch-admission.ts).
   */
  egressPort(dst: number, hash: number, pkt: number): number {
    const cnt = this.route[2 * dst]!;
    const first = this.route[2 * dst + 1]!;
    if (cnt <= 1) return cnt === 0 ? -1 : first;
    if (this.spray === true) return this.routePorts[first + this.sprayRng.int(cnt)]!;
    if (this.ns3 === true) return this.ns3Port(pkt, dst, cnt);
    const h = mix32i(hash ^ this.salt);
    return this.routePorts[first + ((cnt & (cnt - 1)) === 0 ? h & (cnt - 1) : (h >>> 0) % cnt)]!;
  }

  /** loadBalancing ns3Hash: the next hop toward `dst` by the ns-3 simulators' hash (ecmp-ns3.ts). */
  private ns3Port(pkt: number, dst: number, cnt: number): number {
    const order = (this.ns3Ports ??= ns3RouteOrder(this.route, this.routePorts, (p) => this.ports[p]!.peerNode));
    return order[this.route[2 * dst + 1]! + ns3EcmpIndex(this.ctx.flowKeys, this.pk.flow(pkt), dst, this.id, cnt)]!;
  }

  /** Ends an admission policy's hold of ingress (port, class): resumes its upstream unless the MMU still pauses it. */
  releaseHold(inPort: number, cls: number): void {
    const pq = inPort * 8 + cls;
    if (this.held[pq] !== 1) return;
    this.held[pq] = 0;
    if (this.mmu.upstreamPaused[pq] === 0) this.sendPfc(inPort, cls, false);
  }

  dropPacket(pkt: number, port: Port): void {
    this.drops++;
    port.drops++;
    const fid = this.pk.flow(pkt);
    const fd = this.ctx.flowDrops;
    if (fid >= 0 && fid < fd.length) fd[fid]!++;
    this.pk.release(pkt);
  }

  hasMore(port: Port): boolean {
    return port.hasQueued();
  }

  pull(port: Port): number {
    const pkt = port.dequeue();
    if (pkt === NIL) return NIL;
    const q = port.lastQueue;
    if (q < 0) return pkt; // PFC frame
    if (this.queue0Control === true && q === 0) return pkt;
    // from the packet's queue entry: the record is read only by a policy that marks it
    this.depart(pkt, port, q, port.dqIn, port.dqSize);
    return pkt;
  }

  /**
   * Serves a data packet of port `voq`'s queues on port `out` (a reconfigurable ToR's
   * packet-network port taking a VOQ whose circuit is down, net/rdcn.ts): the MMU releases
   * it from `voq`, where it was admitted; marking and telemetry run as `out`'s hop with
   * `voq`'s backlog as its queue (the VOQ the packet waited in). Its words go to `out`'s dq
   * fields for `out.transmitDq`. NIL if nothing is served (everything paused).
   */
  pullVia(voq: Port, out: Port): number {
    const pkt = voq.dequeue();
    if (pkt === NIL) return NIL;
    const q = voq.lastQueue;
    const size = voq.dqSize;
    const inPort = voq.dqIn;
    out.dqPkt = pkt;
    out.dqMeta = voq.dqMeta;
    out.dqDst = voq.dqDst;
    out.dqSize = size;
    out.dqHash = voq.dqHash;
    out.dqIn = inPort;
    out.lastQueue = q;
    voq.dqPkt = NIL;
    if (q < 0 || (this.queue0Control === true && q === 0)) return pkt;
    const resume = this.mmu.dequeue(inPort, q, size - this.mmuOffset, voq.index);
    const bytes = out.totalBytes;
    const pkts = out.totalPkts;
    out.totalBytes = voq.totalBytes;
    out.totalPkts = voq.totalPkts;
    this.process(pkt, out, q, size, resume === true ? inPort : -1);
    out.totalBytes = bytes;
    out.totalPkts = pkts;
    return pkt;
  }

  /**
   * A data packet's dequeue processing at egress `port` (its words in the
   * port's dq fields): MMU release, marking, PFC resume, telemetry.
   */
  private depart(pkt: number, port: Port, q: number, inPort: number, size: number): void {
    const resume = this.mmu.dequeue(inPort, q, size - this.mmuOffset, port.index);
    this.process(pkt, port, q, size, resume === true ? inPort : -1);
  }

  /** Marking, then the PFC resume of ingress port `resumePort` (-1: none), then telemetry. */
  private process(pkt: number, port: Port, q: number, size: number, resumePort: number): void {
    const marking = this.marking;
    for (let i = 0; i < marking.length; i++) marking[i]!.apply(pkt, port, q, size);
    if (resumePort >= 0) this.sendPfc(resumePort, q, false);
    const telemetry = this.telemetry;
    for (let i = 0; i < telemetry.length; i++) telemetry[i]!.apply(pkt, port, q, size);
  }

  sendPfc(portIdx: number, cls: number, pause: boolean): void {
    // an admission policy's hold keeps the class paused: releaseHold resumes it
    if (pause === false && this.nAdmission !== 0 && this.held[portIdx * 8 + cls] === 1) return;
    const port = this.ports[portIdx]!;
    const pk = this.pk;
    const f = pk.alloc(PKT_PFC);
    pk.setSize(f, this.ctx.pfcBytes);
    pk.setAux(f, cls);
    pk.setFlag(f, FLAG_PAUSE, pause);
    if (pause) {
      port.pausesSent++;
      if (this.quanta) {
        const at = this.pauseDurPs[portIdx]! - 2 * port.delayPs;
        this.ctx.sched.after(at > 0 ? at : 0, this.kPfcRefresh, port.gid, cls);
      }
    } else port.resumesSent++;
    port.enqueueCtrl(f);
  }

  /** Quanta mode: re-send a PAUSE before the previous one expires while still congested. */
  onPfcRefresh(portIdx: number, cls: number): void {
    if (this.mmu.upstreamPaused[portIdx * 8 + cls] === 1 && this.mmu.stillCongested(portIdx, cls)) {
      this.sendPfc(portIdx, cls, true);
    }
  }

  private onPfc(pkt: number, inPort: number): void {
    const port = this.ports[inPort]!;
    const pk = this.pk;
    if (pk.has(pkt, FLAG_BFC) === true) {
      // a BFC pause or resume of one flow at this port (bfc.ts)
      this.bfc?.onFrame(port, pk.hash(pkt), pk.has(pkt, FLAG_PAUSE));
      pk.release(pkt);
      return;
    }
    const cls = pk.aux(pkt);
    const pause = pk.has(pkt, FLAG_PAUSE);
    if (this.quanta && pause) {
      const until = this.ctx.sched.now + this.pauseDurPs[inPort]!;
      pfcReceived(port, this.ctx.sched.now, cls, true, until);
      this.ctx.sched.schedule(until, this.ctx.kPauseExpiry, port.gid, cls);
    } else {
      pfcReceived(port, this.ctx.sched.now, cls, pause, 0);
    }
    pk.release(pkt);
  }
}
