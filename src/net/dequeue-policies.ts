/**
 * Egress processing at dequeue (transmission start) as an ordered list of
 * per-port policies (docs/network-model.md §11.1 "on dequeue": counters, marking,
 * PFC resume, telemetry). Which policies a switch runs is decided once, when
 * the network is built, from the profile and from what the CC declares it
 * needs (`CcNeeds`), by the needs table of switch-features.ts: RED/ECN (docs/network-model.md §11.4, the profile's thresholds or a CC's own
 * such as DCTCP's kmin = kmax step), TCD ternary marking (docs/algorithms.md §5),
 * INT hops (§3.5) and Poseidon's MPD stamp (§3.5).
 *
 * Policies run in two phases around the PFC resume check, as the references
 * order them: *marking* policies (RED, TCD) before the resume, *telemetry*
 * policies (INT, MPD) after it. Each policy keeps its per-port state in typed
 * arrays indexed by the port number; `apply` allocates nothing.
 */
import type { Rng } from '../engine/rng.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { CcEcnMarking, SwitchConfig } from './config.js';
import * as packet from './packet.js';
import type { PacketStore } from './packet.js';
import type { Port } from './port.js';

// the hot path's imported constants as own bindings, which V8 folds (port.ts says why)
const { FLAG_CE, FLAG_ECT, INT_QLEN, INT_RATE, INT_RX, INT_TS, INT_TX, PKT_DATA, TCD_CE, TCD_NO, TCD_UE, metaTcd, metaType } = packet;

/** One step of egress processing, run for every data-queue packet a port dequeues. */
export interface DequeuePolicy {
  /** short name for diagnostics (`red`, `tcd`, `int`, `mpd`) */
  readonly name: string;
  /**
   * `pkt` left queue `q` of `port` now and was released from the MMU; `size`
   * is its wire size. May mark or stamp the packet. The packet's meta word is
   * `port.dqMeta` (its queue entry's copy): read it there, and a policy that
   * changes the record's meta word sets `port.dqMeta` to it. A policy that
   * needs the time reads the scheduler's `now` itself: a time in ps is not a
   * small integer, and as an argument V8 would box it for every packet.
   */
  apply(pkt: number, port: Port, q: number, size: number): void;
}

/** Per-port facts a policy may need when the switch's ports are all attached. */
export interface PortFacts {
  rateBps: number[];
}

/**
 * RED/ECN marking on the egress queue (docs/network-model.md §11.4): mark CE above
 * kmax, with probability pmax·(q − kmin)/(kmax − kmin) between; q excludes the
 * packet (`afterRemoval`, D-HPCC) or includes it (`includingPacket`, D-OSCAR).
 * With a CC's own thresholds (`CcNeeds.ecnMarking`, e.g. DCTCP's step) the
 * comparison rule stays the profile's.
 */
export class RedEcnPolicy implements DequeuePolicy {
  readonly name = 'red';
  private readonly kmin: Float64Array;
  private readonly kmax: Float64Array;
  private readonly pmax: number;
  private readonly includePacket: boolean;
  private readonly markNonEct: boolean;
  private readonly qOffset: number;
  marked = 0;

  constructor(
    private readonly pk: PacketStore,
    cfg: SwitchConfig,
    own: CcEcnMarking | undefined,
    ports: PortFacts,
    private readonly rng: Rng,
  ) {
    const e =
      own === undefined
        ? cfg.ecn
        : { kminBytes: own.kminBytes, kmaxBytes: own.kmaxBytes, scaleWithRate: own.refRateBps !== null, refRateBps: own.refRateBps ?? cfg.ecn.refRateBps };
    this.pmax = own !== undefined ? own.pmax : cfg.ecn.pmax;
    const n = ports.rateBps.length;
    this.kmin = new Float64Array(n);
    this.kmax = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const scale = e.scaleWithRate ? ports.rateBps[i]! / e.refRateBps : 1;
      this.kmin[i] = e.kminBytes * scale;
      this.kmax[i] = e.kmaxBytes * scale;
    }
    this.includePacket = cfg.ecn.comparison === 'includingPacket';
    this.markNonEct = cfg.ecn.markNonEct;
    this.qOffset = cfg.queueHeaderOffset;
  }

  apply(pkt: number, port: Port, q: number, size: number): void {
    const meta = port.dqMeta;
    if (!(this.markNonEct === true || (meta & FLAG_ECT) !== 0) || (meta & FLAG_CE) !== 0) return;
    let bytes = port.queueBytes(q) - this.qOffset * port.queuePkts(q);
    const pi = port.index;
    const kmin = this.kmin[pi]!;
    const kmax = this.kmax[pi]!;
    let mark = false;
    if (this.includePacket === true) {
      bytes += size - this.qOffset;
      if (bytes >= kmax) mark = true;
      else if (bytes > kmin) mark = this.rng.next() < (this.pmax * (bytes - kmin)) / (kmax - kmin);
    } else {
      if (bytes > kmax) mark = true;
      else if (bytes > kmin) mark = this.rng.next() < (this.pmax * (bytes - kmin)) / (kmax - kmin);
    }
    if (mark) {
      const pk = this.pk;
      pk.setFlag(pkt, FLAG_CE, true);
      port.dqMeta = pk.meta(pkt);
      this.marked++;
      port.ecnMarked++;
    }
  }
}

/**
 * TCD ternary congestion detection (ACC §2.2, §4; reconstructed in
 * docs/algorithms.md §5 since TCD's own algorithm is not in the corpus). Per
 * (egress port, class) ON/OFF state comes from the port's PFC state
 * (`Port.lastOnStartPs`, the time the class last went OFF→ON). At dequeue of a
 * data packet with q bytes still queued in its class:
 *   q <= threshold                      → non-congestion, no mark;
 *   ON continuously for >= maxTon       → congestion port, mark CE;
 *   otherwise (paused within maxTon)    → undetermined port, mark UE unless CE.
 * A port that was never paused therefore marks like a threshold-ECN marker
 * with K = threshold. Marks only raise (CE > UE > NO).
 */
export class TcdPolicy implements DequeuePolicy {
  readonly name = 'tcd';
  private readonly maxTonPs: number;
  private readonly thresholdBytes: number;
  private readonly qOffset: number;
  /** data packets marked CE / UE by this switch */
  ce = 0;
  ue = 0;

  constructor(
    private readonly pk: PacketStore,
    cfg: SwitchConfig,
    private readonly sched: Scheduler,
  ) {
    this.maxTonPs = cfg.tcd.maxTonPs;
    this.thresholdBytes = cfg.tcd.queueThresholdBytes;
    this.qOffset = cfg.queueHeaderOffset;
  }

  apply(pkt: number, port: Port, q: number): void {
    if (metaType(port.dqMeta) !== PKT_DATA) return;
    const bytes = port.queueBytes(q) - this.qOffset * port.queuePkts(q);
    if (bytes <= this.thresholdBytes) return;
    const pk = this.pk;
    if (this.sched.now - port.lastOnStartPs[q]! >= this.maxTonPs) {
      pk.setTcd(pkt, TCD_CE);
      port.dqMeta = pk.meta(pkt);
      this.ce++;
      port.tcdCe++;
    } else if (metaTcd(port.dqMeta) === TCD_NO) {
      pk.setTcd(pkt, TCD_UE);
      port.dqMeta = pk.meta(pkt);
      this.ue++;
      port.tcdUe++;
    }
  }
}

/**
 * INT hop (docs/network-model.md §11.5): dequeue time, queue bytes of the port
 * after this packet, txBytes (with or without this packet, per dialect), port
 * rate and rx bytes, pushed into data packets.
 */
export class IntPolicy implements DequeuePolicy {
  readonly name = 'int';
  private readonly qOffset: number;
  private readonly txIncludesPacket: boolean;

  constructor(
    private readonly pk: PacketStore,
    cfg: SwitchConfig,
    private readonly sched: Scheduler,
  ) {
    this.qOffset = cfg.queueHeaderOffset;
    this.txIncludesPacket = cfg.intTxIncludesPacket;
  }

  apply(pkt: number, port: Port, _q: number, size: number): void {
    if (metaType(port.dqMeta) !== PKT_DATA) return;
    const pk = this.pk;
    // the hop's doubles go through the store's scratch array, not as arguments (PacketStore.intHop)
    const h = pk.intHop;
    h[INT_TS] = this.sched.now;
    h[INT_QLEN] = port.totalBytes - this.qOffset * port.totalPkts;
    h[INT_TX] = this.txIncludesPacket === true ? port.txBytes + size : port.txBytes;
    h[INT_RATE] = port.rateBps;
    h[INT_RX] = port.rxBytes;
    pk.pushIntHopFrom(pkt);
    port.dqMeta = pk.meta(pkt); // the hop count
  }
}

/**
 * Poseidon's short INT (docs/network-model.md §11.5, docs/algorithms.md §9.6): this hop's queueing
 * delay (port queue after dequeue / port rate) in whole us, kept as the max
 * over the path.
 */
export class MpdPolicy implements DequeuePolicy {
  readonly name = 'mpd';
  private readonly qOffset: number;

  constructor(
    private readonly pk: PacketStore,
    cfg: SwitchConfig,
  ) {
    this.qOffset = cfg.queueHeaderOffset;
  }

  apply(pkt: number, port: Port): void {
    if (metaType(port.dqMeta) !== PKT_DATA) return;
    const pk = this.pk;
    const us = Math.floor(((port.totalBytes - this.qOffset * port.totalPkts) * 8e6) / port.rateBps);
    if (us > pk.mpd(pkt)) pk.setMpd(pkt, us);
  }
}

/** What a dequeue policy may use when a switch builds it (after its ports are attached). */
export interface DequeuePolicyContext {
  readonly pk: PacketStore;
  readonly cfg: SwitchConfig;
  /** a CC's own RED thresholds (`CcNeeds.ecnMarking`), replacing the profile's on every port */
  readonly ecnMarking: CcEcnMarking | undefined;
  readonly ports: PortFacts;
  /** the switch's RED marking stream */
  readonly ecnRng: Rng;
  readonly sched: Scheduler;
}

/** A named dequeue policy (switch-registry.ts); the needs table (switch-features.ts) says when it runs. */
export interface DequeuePolicyDefinition {
  readonly name: string;
  create(ctx: DequeuePolicyContext): DequeuePolicy;
}

export const redDequeue: DequeuePolicyDefinition = { name: 'red', create: (c) => new RedEcnPolicy(c.pk, c.cfg, c.ecnMarking, c.ports, c.ecnRng) };
export const tcdDequeue: DequeuePolicyDefinition = { name: 'tcd', create: (c) => new TcdPolicy(c.pk, c.cfg, c.sched) };
export const intDequeue: DequeuePolicyDefinition = { name: 'int', create: (c) => new IntPolicy(c.pk, c.cfg, c.sched) };
export const mpdDequeue: DequeuePolicyDefinition = { name: 'mpd', create: (c) => new MpdPolicy(c.pk, c.cfg) };
