/**
 * Output-queued switch (network-model.md §3.1): on full reception a packet is
 * routed, classified, admitted by the shared-buffer MMU (charged to its ingress
 * (port, queue)), checked for PFC pause, and enqueued at the egress port. On
 * transmission start it is released from the MMU, ECN-marked (RED on the
 * egress queue, §3.4), checked for PFC resume, and stamped with an INT hop
 * (§3.5). Zero processing delay.
 */
import type { Rng } from '../engine/rng.js';
import type { SwitchConfig } from './config.js';
import type { NetContext } from './context.js';
import { ADMITTED_PAUSE, createMmu, type SwitchMmu } from './mmu.js';
import { INT_QLEN, INT_RATE, INT_TS, INT_TX, PKT_DATA, PKT_PFC, intOf, type Packet } from './packet.js';
import type { Port, PortOwner } from './port.js';
import type { RouteTable } from './topology/types.js';
import { INT_MAX_HOPS } from '../cc/types.js';

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
  kPfcRefresh = -1;
  readonly dropsByQueue: Float64Array;
  drops = 0;
  ecnMarked = 0;

  constructor(
    private readonly ctx: NetContext,
    readonly id: number,
    readonly cfg: SwitchConfig,
    routes: RouteTable,
    private readonly rng: Rng,
    private readonly features: SwitchFeatures,
  ) {
    this.routeCount = routes.routeCount;
    this.routeStart = routes.routeStart;
    this.routePorts = routes.ports;
    this.routeBase = (id - routes.hostCount) * routes.hostCount;
    this.salt = mix32(Math.imul(id + 1, 0x9e3779b1)) | 0;
    this.spray = cfg.loadBalancing === 'spray';
    this.pmax = cfg.ecn.pmax;
    this.includePacket = cfg.ecn.comparison === 'includingPacket';
    this.markNonEct = cfg.ecn.markNonEct;
    this.mmuOffset = cfg.mmuHeaderOffset;
    this.qOffset = cfg.queueHeaderOffset;
    this.queue0Control = cfg.queue0Control;
    this.quanta = cfg.pfcMode === 'quanta';
    this.intTxIncludesPacket = cfg.queueHeaderOffset > 0;
    this.dropsByQueue = new Float64Array(8);
  }

  /** Called once all ports are attached. */
  finish(hostRateBps: number): void {
    const n = this.ports.length;
    const rates: number[] = [];
    const delays: number[] = [];
    this.kmin = new Float64Array(n);
    this.kmax = new Float64Array(n);
    this.pauseDurPs = new Float64Array(n);
    const e = this.cfg.ecn;
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

  receive(pkt: Packet, inPort: number): void {
    if (pkt.type === PKT_PFC) {
      this.onPfc(pkt, inPort);
      return;
    }
    const idx = this.routeBase + pkt.dst;
    const cnt = this.routeCount[idx]!;
    if (cnt === 0) {
      this.dropPacket(pkt, this.ports[inPort]!, pkt.prio);
      return;
    }
    const start = this.routeStart[idx]!;
    let e: number;
    if (cnt === 1) e = this.routePorts[start]!;
    else if (this.spray) e = this.routePorts[start + this.rng.int(cnt)]!;
    else e = this.routePorts[start + (mix32(pkt.hash ^ this.salt) % cnt)]!;
    const out = this.ports[e]!;
    const q = pkt.prio;
    if (this.queue0Control && q === 0) {
      out.enqueue(pkt, 0);
      return;
    }
    const r = this.mmu.enqueue(inPort, q, pkt.size - this.mmuOffset, e);
    if (r >= 0) {
      this.dropPacket(pkt, out, q);
      return;
    }
    pkt.inPort = inPort;
    if (r === ADMITTED_PAUSE) this.sendPfc(inPort, q, true);
    out.enqueue(pkt, q);
  }

  private dropPacket(pkt: Packet, port: Port, q: number): void {
    this.drops++;
    port.drops++;
    this.dropsByQueue[q] = this.dropsByQueue[q]! + 1;
    this.ctx.pool.release(pkt);
  }

  hasMore(port: Port): boolean {
    return port.hasQueued();
  }

  pull(port: Port): Packet | null {
    const pkt = port.dequeue();
    if (pkt === null) return null;
    const q = port.lastQueue;
    if (q < 0) return pkt; // PFC frame
    if (this.queue0Control && q === 0) return pkt;
    const inPort = pkt.inPort;
    const resume = this.mmu.dequeue(inPort, q, pkt.size - this.mmuOffset, port.index);
    // ECN (RED on this egress queue)
    if (this.features.ecn && (pkt.ect || this.markNonEct) && !pkt.ce) {
      let bytes = port.qBytes[q]! - this.qOffset * port.qPkts[q]!;
      if (this.includePacket) bytes += pkt.size - this.qOffset;
      const pi = port.index;
      const kmin = this.kmin[pi]!;
      const kmax = this.kmax[pi]!;
      let mark = false;
      if (this.includePacket) {
        if (bytes >= kmax) mark = true;
        else if (bytes > kmin) mark = this.rng.next() < (this.pmax * (bytes - kmin)) / (kmax - kmin);
      } else {
        if (bytes > kmax) mark = true;
        else if (bytes > kmin) mark = this.rng.next() < (this.pmax * (bytes - kmin)) / (kmax - kmin);
      }
      if (mark) {
        pkt.ce = true;
        this.ecnMarked++;
        port.ecnMarked++;
      }
    }
    if (resume) this.sendPfc(inPort, q, false);
    if (this.features.int && pkt.type === PKT_DATA) {
      const slot = pkt.intN % INT_MAX_HOPS;
      pkt.intN++;
      const a = intOf(pkt);
      a[INT_TS + slot] = this.ctx.sched.now;
      a[INT_QLEN + slot] = port.totalBytes - this.qOffset * port.totalPkts;
      a[INT_TX + slot] = this.intTxIncludesPacket ? port.txBytes + pkt.size : port.txBytes;
      a[INT_RATE + slot] = port.rateBps;
    }
    return pkt;
  }

  private sendPfc(portIdx: number, cls: number, pause: boolean): void {
    const port = this.ports[portIdx]!;
    const f = this.ctx.pool.alloc();
    f.type = PKT_PFC;
    f.size = this.ctx.pfcBytes;
    f.pfcClass = cls;
    f.pfcPause = pause;
    f.prio = 0;
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

  private onPfc(pkt: Packet, inPort: number): void {
    const port = this.ports[inPort]!;
    if (this.quanta && pkt.pfcPause) {
      const until = this.ctx.sched.now + this.pauseDurPs[inPort]!;
      port.setPaused(pkt.pfcClass, true, until);
      this.ctx.sched.schedule(until, this.ctx.kPauseExpiry, port.gid, pkt.pfcClass);
    } else {
      port.setPaused(pkt.pfcClass, pkt.pfcPause, 0);
    }
    this.ctx.pool.release(pkt);
  }
}
