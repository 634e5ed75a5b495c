/**
 * Output-queued switch (network-model.md §3.1): on full reception a packet is
 * routed, classified, admitted by the shared-buffer MMU (charged to its ingress
 * (port, queue)), checked for PFC pause, and enqueued at the egress port. On
 * transmission start it is released from the MMU, ECN-marked (RED on the
 * egress queue, §3.4), checked for PFC resume, and stamped with an INT hop
 * (§3.5). Zero processing delay.
 */
import type { CcEcnMarking } from '../cc/types.js';
import type { Rng } from '../engine/rng.js';
import type { SwitchConfig } from './config.js';
import type { NetContext } from './context.js';
import { ADMITTED_PAUSE, createMmu, type SwitchMmu } from './mmu.js';
import { FLAG_CE, FLAG_ECT, FLAG_PAUSE, NIL, PKT_DATA, PKT_PFC, type PacketStore } from './packet.js';
import type { Port, PortOwner } from './port.js';
import type { RouteTable } from './topology/types.js';

/** murmur3 32-bit finalizer */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface SwitchFeatures {
  /** push INT hops into data packets */
  int: boolean;
  /** RED/ECN marking */
  ecn: boolean;
  /** stamp Poseidon's MPD (max per-hop queueing delay, whole us) into data packets (§3.5) */
  mpd?: boolean;
  /** a CC's own RED thresholds, replacing the profile's on every port (DCTCP, §3.4) */
  ecnMarking?: CcEcnMarking;
}

export class Switch implements PortOwner {
  readonly ports: Port[] = [];
  mmu!: SwitchMmu;
  private readonly salt: number;
  private readonly routeBase: number;
  private readonly routeCount: Uint16Array;
  private readonly routeStart: Int32Array;
  private readonly routePorts: Int32Array;
  private kmin: Float64Array = new Float64Array(0);
  private kmax: Float64Array = new Float64Array(0);
  private readonly spray: boolean;
  private readonly pmax: number;
  private readonly includePacket: boolean;
  private readonly markNonEct: boolean;
  private readonly mmuOffset: number;
  private readonly qOffset: number;
  private readonly queue0Control: boolean;
  private readonly quanta: boolean;
  /** ps a PAUSE lasts at each port in quanta mode */
  private pauseDurPs: Float64Array = new Float64Array(0);
  private readonly intTxIncludesPacket: boolean;
  private readonly mpd: boolean;
  kPfcRefresh = -1;
  private readonly pk: PacketStore;
  /** per-packet spraying choices */
  private readonly sprayRng: Rng;
  /** RED marking draws */
  private readonly ecnRng: Rng;
  drops = 0;
  ecnMarked = 0;

  constructor(
    private readonly ctx: NetContext,
    readonly id: number,
    readonly cfg: SwitchConfig,
    routes: RouteTable,
    rng: Rng,
    private readonly features: SwitchFeatures,
  ) {
    // separate streams: ECN marking draws never shift spraying choices and vice versa
    this.sprayRng = rng.fork('spray');
    this.ecnRng = rng.fork('ecn');
    this.routeCount = routes.routeCount;
    this.routeStart = routes.routeStart;
    this.routePorts = routes.ports;
    this.routeBase = (id - routes.hostCount) * routes.hostCount;
    this.salt = mix32(Math.imul(id + 1, 0x9e3779b1)) | 0;
    this.spray = cfg.loadBalancing === 'spray';
    this.pmax = features.ecnMarking !== undefined ? features.ecnMarking.pmax : cfg.ecn.pmax;
    this.mpd = features.mpd === true;
    this.includePacket = cfg.ecn.comparison === 'includingPacket';
    this.markNonEct = cfg.ecn.markNonEct;
    this.mmuOffset = cfg.mmuHeaderOffset;
    this.qOffset = cfg.queueHeaderOffset;
    this.queue0Control = cfg.queue0Control;
    this.quanta = cfg.pfcMode === 'quanta';
    this.intTxIncludesPacket = cfg.intTxIncludesPacket;
    this.pk = ctx.pool;
  }

  /** Called once all ports are attached. */
  finish(hostRateBps: number): void {
    const n = this.ports.length;
    const rates: number[] = [];
    const delays: number[] = [];
    this.kmin = new Float64Array(n);
    this.kmax = new Float64Array(n);
    this.pauseDurPs = new Float64Array(n);
    const cfgEcn = this.cfg.ecn;
    const own = this.features.ecnMarking;
    const e =
      own === undefined
        ? cfgEcn
        : { kminBytes: own.kminBytes, kmaxBytes: own.kmaxBytes, scaleWithRate: own.refRateBps !== null, refRateBps: own.refRateBps ?? cfgEcn.refRateBps };
    for (let i = 0; i < n; i++) {
      const p = this.ports[i]!;
      p.queue0Control = this.queue0Control;
      p.strict = this.cfg.service === 'strict';
      rates.push(p.rateBps);
      delays.push(p.delayPs);
      const scale = e.scaleWithRate ? p.rateBps / e.refRateBps : 1;
      this.kmin[i] = e.kminBytes * scale;
      this.kmax[i] = e.kmaxBytes * scale;
      this.pauseDurPs[i] = Math.round(((65535 * 512) / p.rateBps) * 1e12);
    }
    this.mmu = createMmu(this.cfg, rates, delays, hostRateBps);
  }

  receive(pkt: number, inPort: number): void {
    const pk = this.pk;
    if (pk.type(pkt) === PKT_PFC) {
      this.onPfc(pkt, inPort);
      return;
    }
    const q = pk.prio(pkt);
    const idx = this.routeBase + pk.dst(pkt);
    const cnt = this.routeCount[idx]!;
    if (cnt === 0) {
      this.dropPacket(pkt, this.ports[inPort]!);
      return;
    }
    const start = this.routeStart[idx]!;
    let e: number;
    if (cnt === 1) e = this.routePorts[start]!;
    else if (this.spray) e = this.routePorts[start + this.sprayRng.int(cnt)]!;
    else e = this.routePorts[start + (mix32(pk.hash(pkt) ^ this.salt) % cnt)]!;
    const out = this.ports[e]!;
    const size = pk.size(pkt);
    if (this.queue0Control && q === 0) {
      out.enqueue(pkt, 0, size);
      return;
    }
    const r = this.mmu.enqueue(inPort, q, size - this.mmuOffset, e);
    if (r >= 0) {
      this.dropPacket(pkt, out);
      return;
    }
    pk.setInPort(pkt, inPort);
    if (r === ADMITTED_PAUSE) this.sendPfc(inPort, q, true);
    out.enqueue(pkt, q, size);
  }

  private dropPacket(pkt: number, port: Port): void {
    this.drops++;
    port.drops++;
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
    if (this.queue0Control && q === 0) return pkt;
    const pk = this.pk;
    const inPort = pk.inPort(pkt);
    const size = pk.size(pkt);
    const resume = this.mmu.dequeue(inPort, q, size - this.mmuOffset, port.index);
    // ECN (RED on this egress queue)
    if (this.features.ecn && (this.markNonEct || pk.has(pkt, FLAG_ECT)) && !pk.has(pkt, FLAG_CE)) {
      let bytes = port.qBytes[q]! - this.qOffset * port.qPkts[q]!;
      if (this.includePacket) bytes += size - this.qOffset;
      const pi = port.index;
      const kmin = this.kmin[pi]!;
      const kmax = this.kmax[pi]!;
      let mark = false;
      if (this.includePacket) {
        if (bytes >= kmax) mark = true;
        else if (bytes > kmin) mark = this.ecnRng.next() < (this.pmax * (bytes - kmin)) / (kmax - kmin);
      } else {
        if (bytes > kmax) mark = true;
        else if (bytes > kmin) mark = this.ecnRng.next() < (this.pmax * (bytes - kmin)) / (kmax - kmin);
      }
      if (mark) {
        pk.setFlag(pkt, FLAG_CE, true);
        this.ecnMarked++;
        port.ecnMarked++;
      }
    }
    if (resume) this.sendPfc(inPort, q, false);
    if (this.features.int && pk.type(pkt) === PKT_DATA) {
      pk.pushIntHop(
        pkt,
        this.ctx.sched.now,
        port.totalBytes - this.qOffset * port.totalPkts,
        this.intTxIncludesPacket ? port.txBytes + size : port.txBytes,
        port.rateBps,
        port.rxBytes,
      );
    }
    if (this.mpd && pk.type(pkt) === PKT_DATA) {
      // Poseidon short INT: this hop's queueing delay (queue after dequeue), truncated to whole us
      const us = Math.floor(((port.totalBytes - this.qOffset * port.totalPkts) * 8e6) / port.rateBps);
      if (us > pk.mpd(pkt)) pk.setMpd(pkt, us);
    }
    return pkt;
  }

  private sendPfc(portIdx: number, cls: number, pause: boolean): void {
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
    const cls = pk.aux(pkt);
    const pause = pk.has(pkt, FLAG_PAUSE);
    if (this.quanta && pause) {
      const until = this.ctx.sched.now + this.pauseDurPs[inPort]!;
      port.setPaused(cls, true, until);
      this.ctx.sched.schedule(until, this.ctx.kPauseExpiry, port.gid, cls);
    } else {
      port.setPaused(cls, pause, 0);
    }
    pk.release(pkt);
  }
}
