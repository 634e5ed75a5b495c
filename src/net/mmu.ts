/**
 * Shared-buffer switch MMUs (docs/network-model.md §11.2). Two implementations behind
 * one interface, `SwitchMmu`, chosen by `createMmu` from `dtMode`:
 *
 * `Mmu`: D-HPCC, D-OSCAR and ACC (dtMode shiftByPortRate, fixedShift, static),
 * one implementation with the dialects as parameters:
 *
 * - every buffered packet is charged to its ingress (port, queue): first the
 *   private reserve, then the shared pool while under the threshold, then the
 *   headroom;
 * - threshold(p) = (sharedPool - sharedUsed) >> shift(p)  (D-HPCC shift by port
 *   rate, D-OSCAR a fixed shift), or a static value (ACC);
 * - admission drops only when both the headroom and the shared threshold would
 *   overflow (lossless), or at the threshold without headroom (lossy, docs/network-model.md §11.7);
 * - pause when headroom is in use or the shared part reaches the threshold,
 *   resume when headroom is empty and the shared part is a resume offset below it.
 *
 * D-HPCC counts headroom per port (one allowance per port, counted per queue);
 * D-OSCAR per (port, queue), and adds `headroom*(8 - lossless)` per port to the
 * buffer. Each (port, queue)'s counters and port constants share
 * one 64-byte record of a Float64Array, so a packet's admission and release
 * touch one line (plus the switch-wide counters).
 *
 * `PowerTcpMmu`: D-PowerTCP, the "sonic" MMU (dtMode alpha), see its comment.
 */
import type { PtPoolLayout, SwitchConfig } from './config.js';

/** Drop reasons, indexed by the DROP_* constants (append only: indices are reported). */
export const DROP_REASONS = ['ingressHeadroom', 'buffer', 'lossyTail', 'ingressPool', 'egressThreshold', 'egressPool'] as const;
// Each value is bound twice: exported, and as this module's own const for its methods,
// because V8 reads an exported binding through a cell at every use (see port.ts).
const HEADROOM = 0;
const BUFFER = 1;
const LOSSY = 2;
const INGRESS_POOL = 3;
const EGRESS_THRESHOLD = 4;
const EGRESS_POOL = 5;
const OK = -1;
const OK_PAUSE = -2;
const PASS = -3;
export const DROP_HEADROOM = HEADROOM;
export const DROP_BUFFER = BUFFER;
export const DROP_LOSSY = LOSSY;
export const DROP_INGRESS_POOL = INGRESS_POOL;
export const DROP_EGRESS_THRESHOLD = EGRESS_THRESHOLD;
export const DROP_EGRESS_POOL = EGRESS_POOL;
export const ADMITTED = OK;
export const ADMITTED_PAUSE = OK_PAUSE;
/** `admitThrough`: admitted, and nothing charged (the release at once would undo it) */
export const PASSED = PASS;

/** Egress alpha of the `ptBurst` layout ([P] `SetAlphaEgress(UINT16_MAX)`). */
export const PT_BURST_ALPHA_EGRESS = 65535;

/** What the switch needs from an MMU. */
export interface SwitchMmu {
  /** 1 while ingress (port, queue) port*8+queue is pausing its upstream */
  readonly upstreamPaused: Uint8Array;
  /** drop counts indexed like DROP_REASONS */
  readonly dropsByReason: Float64Array;
  /** bytes buffered in the switch (all ingress counters, headroom included) */
  readonly totalUsed: number;
  /**
   * Admission of a packet of `size` MMU bytes arriving on (p, q), headed for
   * egress port `egressPort` (-1: unknown, no egress accounting), then the PFC
   * pause check. Returns ADMITTED, ADMITTED_PAUSE (admitted, and (p, q) must now
   * pause its upstream) or a drop reason (>= 0).
   */
  enqueue(p: number, q: number, size: number, egressPort?: number): number;
  /**
   * Admission of a packet that leaves at once (its egress port is idle and
   * empty), to be followed by `dequeue` at the same instant: PASSED when the
   * enqueue and that release together would leave every counter as it was and
   * signal nothing, and then charges nothing (the caller skips the release);
   * otherwise the same as `enqueue`.
   */
  admitThrough(p: number, q: number, size: number, egressPort?: number): number;
  /**
   * Releases a packet that arrived on (p, q) (pass the same `egressPort` as to
   * its enqueue); true if (p, q) may now resume its upstream.
   */
  dequeue(p: number, q: number, size: number, egressPort?: number): boolean;
  /** Still congested enough to keep (p, q) paused? (quanta-mode refresh) */
  stillCongested(p: number, q: number): boolean;
  /** Current ingress (PFC) threshold of port p, bytes (may be Infinity). */
  threshold(p: number): number;
  /** Headroom allowance of port p, bytes. */
  headroomOf(p: number): number;
  /** Bytes buffered from (p, q), headroom included. */
  ingressBytes(p: number, q: number): number;
}

/**
 * The MMU for `cfg.dtMode`: `PowerTcpMmu` for 'alpha', else `Mmu`.
 * @param portRates rate of each port, bps
 * @param portDelays one-way propagation delay of each port's link, ps
 * @param hostRateBps NIC rate used by the D-HPCC shift rule
 */
export function createMmu(cfg: SwitchConfig, portRates: number[], portDelays: number[], hostRateBps: number): SwitchMmu {
  return cfg.dtMode === 'alpha' ? new PowerTcpMmu(cfg, portRates, portDelays) : new Mmu(cfg, portRates, portDelays, hostRateBps);
}

/**
 * Words of an (ingress port, queue) record in `Mmu.st`, one 64-byte line each:
 * the two counters the admission and release of every packet update and,
 * copied from the port, the two constants they compare with. One line per
 * packet instead of four typed arrays (ingress, headroom used, headroom
 * allowance, threshold scale) and two boxed doubles; the pause flag stays in
 * `upstreamPaused`, which the switch and the tests read.
 */
const R = 8;
/** bytes charged to (p, q) outside the headroom: reserve, then shared */
const R_ING = 0;
/** headroom bytes in use by (p, q) */
const R_HDRM = 1;
/** port p's headroom allowance, bytes */
const R_HEADROOM = 2;
/** 2^-shift(p) */
const R_INV = 3;
/** `st` words of the switch-wide counters, before the records */
const S_SHARED = 0;
const S_TOTAL = 1;
const REC0 = 8;

export class Mmu implements SwitchMmu {
  /** S_SHARED, S_TOTAL, then a record of R words per (port, queue) at REC0 + (p * 8 + q) * R */
  private readonly st: Float64Array;
  readonly upstreamPaused: Uint8Array;
  private readonly reserve: number;
  private readonly resumeOffset: number;
  private readonly sharedPool: number;
  private readonly bufferBytes: number;
  private readonly staticThreshold: number;
  private readonly isStatic: boolean;
  private readonly lossless: boolean;
  /** pause when shared part >= threshold (D-HPCC) or > threshold (D-OSCAR) */
  private readonly pauseAtEqual: boolean;
  readonly dropsByReason = new Float64Array(DROP_REASONS.length);

  /**
   * @param portRates rate of each port, bps
   * @param portDelays one-way propagation delay of each port's link, ps
   * @param hostRateBps NIC rate used by the D-HPCC shift rule
   */
  constructor(cfg: SwitchConfig, portRates: number[], portDelays: number[], hostRateBps: number) {
    if (cfg.dtMode === 'alpha') throw new Error("Mmu: dtMode 'alpha' is the D-PowerTCP MMU; use createMmu / PowerTcpMmu");
    const n = portRates.length;
    this.st = new Float64Array(REC0 + n * 8 * R);
    this.upstreamPaused = new Uint8Array(n * 8);
    this.reserve = cfg.reservePerQueueBytes;
    this.resumeOffset = cfg.resumeOffsetBytes;
    this.bufferBytes = cfg.bufferBytes;
    this.staticThreshold = cfg.staticThresholdBytes;
    this.isStatic = cfg.dtMode === 'static';
    this.lossless = cfg.pfcEnabled;
    this.pauseAtEqual = cfg.dtMode !== 'fixedShift';
    let sumHeadroom = 0;
    for (let p = 0; p < n; p++) {
      // 3 * rate * delay / 8 bytes, integer (+ headroomExtraBytes, 0 in the reference sizing)
      const h = cfg.pfcEnabled ? Math.floor((cfg.headroomRttMultiplier * portRates[p]! * (portDelays[p]! / 1e12)) / 8) + (cfg.headroomExtraBytes ?? 0) : 0;
      sumHeadroom += h;
      let s = cfg.dtShift;
      if (cfg.dtMode === 'shiftByPortRate') {
        let r = portRates[p]!;
        while (r > hostRateBps && s > 0) {
          s--;
          r /= 2;
        }
      }
      for (let q = 0; q < 8; q++) {
        const r = REC0 + (p * 8 + q) * R;
        this.st[r + R_HEADROOM] = h;
        // exact, so floor(free * inv) = free >> s
        this.st[r + R_INV] = 2 ** -s;
      }
    }
    if (cfg.headroomMode === 'perPort') {
      this.sharedPool = cfg.bufferBytes - sumHeadroom - n * this.reserve;
    } else {
      const comp = 8 - cfg.bufferCompensationLosslessQueues;
      this.sharedPool = cfg.bufferBytes + sumHeadroom * comp - 8 * (n * this.reserve + sumHeadroom);
    }
  }

  /** Bytes of the shared pool in use. */
  get sharedUsed(): number {
    return this.st[S_SHARED]!;
  }

  /** Bytes buffered in the switch (all ingress counters, headroom included). */
  get totalUsed(): number {
    return this.st[S_TOTAL]!;
  }

  /** Dynamic threshold of ingress port p, bytes. */
  threshold(p: number): number {
    return this.thresholdFor(this.st[S_SHARED]!, this.st[REC0 + p * 8 * R + R_INV]!);
  }

  /**
   * Admission for a packet of `size` MMU bytes arriving on (p, q), then the PFC
   * pause check: returns ADMITTED, ADMITTED_PAUSE (admitted, and (p, q) must now
   * pause its upstream) or a drop reason (>= 0). The egress port is not used
   * by these dialects (egress admission always passes).
   */
  enqueue(p: number, q: number, size: number, _egressPort?: number): number {
    const st = this.st;
    const pq = p * 8 + q;
    const r = REC0 + pq * R;
    const reserve = this.reserve;
    const lossless = this.lossless === true;
    const ing = st[r + R_ING]!;
    const hd = st[r + R_HDRM]!;
    const inv = st[r + R_INV]!;
    let shared = st[S_SHARED]!;
    const thr = this.thresholdFor(shared, inv);
    const ex = this.excess(ing);
    if (!lossless) {
      if (size + ex > thr && ing + size > reserve) return this.drop(LOSSY);
      if (st[S_TOTAL]! + size > this.bufferBytes) return this.drop(BUFFER);
    } else if (size + hd > st[r + R_HEADROOM]! && size + ex > thr) {
      return this.drop(HEADROOM);
    }
    const n = ing + size;
    let ing2 = ing;
    let hd2 = hd;
    if (n <= reserve) {
      st[r + R_ING] = ing2 = n;
    } else if (lossless && n - reserve > thr) {
      st[r + R_HDRM] = hd2 = hd + size;
    } else {
      st[r + R_ING] = ing2 = n;
      shared = shared + (n - reserve - ex);
      st[S_SHARED] = shared;
    }
    st[S_TOTAL] = st[S_TOTAL]! + size;
    if (!lossless || this.upstreamPaused[pq] === 1) return OK;
    const e = this.excess(ing2);
    const thr2 = this.thresholdFor(shared, inv);
    if (hd2 > 0 || (this.pauseAtEqual === true ? e >= thr2 : e > thr2)) {
      this.upstreamPaused[pq] = 1;
      return OK_PAUSE;
    }
    return OK;
  }

  /**
   * `enqueue`'s decisions without its writes, for a (p, q) that is not
   * pausing: a packet admitted into the reserve or the shared pool without a
   * pause is released by `dequeue` from the same places (integer byte counts,
   * so exactly), and the release then signals no resume. Anything else (a
   * drop, a headroom charge, a pause) goes to `enqueue`.
   */
  admitThrough(p: number, q: number, size: number, egressPort?: number): number {
    const st = this.st;
    const pq = p * 8 + q;
    const r = REC0 + pq * R;
    // (headroom in use means (p, q) is pausing: a charge to headroom pauses, a resume needs it empty)
    if (this.upstreamPaused[pq] === 1) return this.enqueue(p, q, size, egressPort);
    const reserve = this.reserve;
    const ing = st[r + R_ING]!;
    const inv = st[r + R_INV]!;
    const shared = st[S_SHARED]!;
    const thr = this.thresholdFor(shared, inv);
    const ex = this.excess(ing);
    const n = ing + size;
    if (this.lossless === false) {
      if ((size + ex > thr && n > reserve) || st[S_TOTAL]! + size > this.bufferBytes) return this.enqueue(p, q, size, egressPort);
      return PASS; // lossy: never headroom, never a pause
    }
    // (no headroom in use here)
    if (size > st[r + R_HEADROOM]! && size + ex > thr) return this.enqueue(p, q, size, egressPort);
    // the pause check sees the packet charged: its shared part and the threshold after it
    if (n <= reserve) return (this.pauseAtEqual === true ? 0 >= thr : 0 > thr) ? this.enqueue(p, q, size, egressPort) : PASS;
    // (a charge to headroom, at n - reserve > thr, fails the pause check below too: thr2 <= thr)
    const e = n - reserve;
    const thr2 = this.thresholdFor(shared + (e - ex), inv);
    return (this.pauseAtEqual === true ? e >= thr2 : e > thr2) ? this.enqueue(p, q, size, egressPort) : PASS;
  }

  /** Bytes of an ingress count `ing` beyond the private reserve (the shared part). */
  private excess(ing: number): number {
    return ing > this.reserve ? ing - this.reserve : 0;
  }

  private thresholdFor(shared: number, inv: number): number {
    if (this.isStatic === true) return this.staticThreshold;
    const free = this.sharedPool - shared;
    return free > 0 ? Math.floor(free * inv) : 0;
  }

  /** Releases a packet that arrived on (p, q); true if (p, q) may now resume its upstream. */
  dequeue(p: number, q: number, size: number, _egressPort?: number): boolean {
    const st = this.st;
    const pq = p * 8 + q;
    const r = REC0 + pq * R;
    const h = st[r + R_HDRM]!;
    const ing = st[r + R_ING]!;
    const fromHdrm = h < size ? h : size;
    const rest = size - fromHdrm;
    const before = this.excess(ing);
    const fromShared = rest < before ? rest : before;
    const hd2 = h - fromHdrm;
    const ing2 = ing - rest;
    st[r + R_HDRM] = hd2;
    st[r + R_ING] = ing2;
    const shared = st[S_SHARED]! - fromShared;
    st[S_SHARED] = shared;
    st[S_TOTAL] = st[S_TOTAL]! - size;
    if (this.upstreamPaused[pq] === 0 || hd2 > 0) return false;
    const e = this.excess(ing2);
    if (e === 0 || e + this.resumeOffset <= this.thresholdFor(shared, st[r + R_INV]!)) {
      this.upstreamPaused[pq] = 0;
      return true;
    }
    return false;
  }

  private drop(reason: number): number {
    this.dropsByReason[reason] = this.dropsByReason[reason]! + 1;
    return reason;
  }

  /** Still congested enough to keep (p, q) paused? (quanta-mode refresh) */
  stillCongested(p: number, q: number): boolean {
    const r = REC0 + (p * 8 + q) * R;
    return this.st[r + R_HDRM]! > 0 || this.excess(this.st[r + R_ING]!) + this.resumeOffset > this.threshold(p);
  }

  /** Headroom allowance of port p (bytes; per queue or per port by mode). */
  headroomOf(p: number): number {
    return this.st[REC0 + p * 8 * R + R_HEADROOM]!;
  }

  sharedPoolBytes(): number {
    return this.sharedPool;
  }

  ingressBytes(p: number, q: number): number {
    const r = REC0 + (p * 8 + q) * R;
    return this.st[r + R_ING]! + this.st[r + R_HDRM]!;
  }
}

/**
 * D-PowerTCP switch MMU ([P] "sonic" model; docs/network-model.md §11.2, dtMode 'alpha').
 *
 * - Headroom `xoff[p] = floor(rate_p * delay_p / 8) * headroomRttMultiplier` bytes
 *   for each of the 8 queues of every port; `xoffTotal` = 8 * sum over ports.
 *   No private reserve (0). `reservePerQueueBytes`, `headroomMode`, `dtShift`,
 *   `resumeOffsetBytes` and `bufferCompensationLosslessQueues` do not apply.
 * - Counters: ingress[p][q] (every byte from (p, q), headroom included),
 *   hdrm[p][q], egress[e][q], totalUsed, xoffTotalUsed, egressPoolUsed.
 * - Ingress threshold T = floor(alphaIngress * (ingressPool - (totalUsed -
 *   xoffTotalUsed))) when the bracket is positive, else 0; on arrival it sees
 *   the packet already in ingress[p][q] and totalUsed. If ingressPool <= 0
 *   (ptWorkload with more headroom than buffer, e.g. topology-256 cores) T is
 *   +Infinity: the reference's uint64 pool wraps to ~2^64, so that switch never
 *   pauses.
 * - Sticky headroom: with hdrm == 0, a packet is charged to headroom iff
 *   ingress[p][q] > T; with hdrm > 0 every arrival is. Releases take from
 *   headroom first.
 * - Pause on the first headroom byte; resume when hdrm == 0 and
 *   (ingress < xon or ingress + xonOffset <= T).
 * - Lossless ingress admission drops iff hdrm > 0 and (hdrm + size > xoff or
 *   xoffTotalUsed + size > xoffTotal) [ingressHeadroom], or totalUsed + size >
 *   ingressPool + xoffTotal (= bufferPool in both layouts, so exact signed
 *   arithmetic reproduces the uint64 wrap-around sum) [ingressPool].
 * - Egress admission (only when the egress port is given) drops iff
 *   egress[e][q] + size > floor(alphaEgress * (egressPool - egressPoolUsed))
 *   [egressThreshold], or egressPoolUsed + size > egressPool [egressPool]; its
 *   buffer check equals the ingress one above.
 * - Pools (`ptPools`), B = bufferBytes: ptWorkload bufferPool B, ingressPool
 *   B - xoffTotal, egressPool B, alphaEgress = cfg.alphaEgress (default 1);
 *   ptBurst bufferPool B + xoffTotal, ingressPool B, egressPool B, alphaEgress
 *   = 65535 (fixed by the layout).
 * - Lossy (pfcEnabled false, not in [P]): no headroom (xoff 0), tail drop iff
 *   ingress[p][q] + size > T evaluated before the packet [lossyTail] (docs/network-model.md §11.7), pool
 *   and egress checks as above, never pauses.
 */
export class PowerTcpMmu implements SwitchMmu {
  private readonly ingress: Float64Array;
  private readonly hdrm: Float64Array;
  private readonly egress: Float64Array;
  readonly upstreamPaused: Uint8Array;
  /** per-queue headroom limit of each port */
  private readonly xoff: Float64Array;
  readonly xoffTotal: number;
  readonly bufferPool: number;
  /** B - xoffTotal (ptWorkload; may be <= 0) or B (ptBurst) */
  readonly ingressPool: number;
  readonly egressPool: number;
  readonly alphaIngress: number;
  readonly alphaEgress: number;
  readonly pools: PtPoolLayout;
  private readonly xon: number;
  private readonly xonOffset: number;
  /** ingressPool <= 0: T = +Infinity */
  private readonly unlimited: boolean;
  private readonly lossless: boolean;
  totalUsed = 0;
  xoffTotalUsed = 0;
  egressPoolUsed = 0;
  readonly dropsByReason = new Float64Array(DROP_REASONS.length);

  /**
   * @param portRates rate of each port, bps
   * @param portDelays one-way propagation delay of each port's link, ps
   */
  constructor(cfg: SwitchConfig, portRates: number[], portDelays: number[]) {
    if (cfg.ptPools !== 'ptWorkload' && cfg.ptPools !== 'ptBurst') {
      throw new Error(`PowerTcpMmu: unknown ptPools '${String(cfg.ptPools)}'`);
    }
    const n = portRates.length;
    this.ingress = new Float64Array(n * 8);
    this.hdrm = new Float64Array(n * 8);
    this.egress = new Float64Array(n * 8);
    this.upstreamPaused = new Uint8Array(n * 8);
    this.xoff = new Float64Array(n);
    this.lossless = cfg.pfcEnabled;
    this.xon = cfg.xonBytes;
    this.xonOffset = cfg.xonOffsetBytes;
    this.alphaIngress = cfg.alphaIngress;
    this.pools = cfg.ptPools;
    let xoffTotal = 0;
    for (let p = 0; p < n; p++) {
      // [P]: floor(rate * delay_ns / 8 / 1e9) * 3, delay here in ps
      const h = this.lossless ? Math.floor((portRates[p]! * portDelays[p]!) / 8e12) * cfg.headroomRttMultiplier : 0;
      this.xoff[p] = h;
      xoffTotal += 8 * h;
    }
    this.xoffTotal = xoffTotal;
    const b = cfg.bufferBytes;
    if (cfg.ptPools === 'ptBurst') {
      this.bufferPool = b + xoffTotal;
      this.ingressPool = b;
      this.alphaEgress = PT_BURST_ALPHA_EGRESS;
    } else {
      this.bufferPool = b;
      this.ingressPool = b - xoffTotal;
      this.alphaEgress = cfg.alphaEgress;
    }
    this.egressPool = b;
    this.unlimited = this.ingressPool <= 0;
  }

  /** Ingress DT threshold (the same for every port and queue), bytes; Infinity if the ingress pool is <= 0. */
  threshold(_p?: number): number {
    if (this.unlimited) return Infinity;
    const rem = this.ingressPool - (this.totalUsed - this.xoffTotalUsed);
    return rem > 0 ? Math.floor(this.alphaIngress * rem) : 0;
  }

  /** Egress DT threshold (the same for every egress queue), bytes. */
  egressThreshold(): number {
    const free = this.egressPool - this.egressPoolUsed;
    return free > 0 ? Math.floor(this.alphaEgress * free) : 0;
  }

  enqueue(p: number, q: number, size: number, egressPort = -1): number {
    const pq = p * 8 + q;
    const h = this.hdrm[pq]!;
    const ing = this.ingress[pq]!;
    if (this.lossless) {
      // (ingress + size > reserve 0 holds for every packet)
      if (h > 0 && (h + size > this.xoff[p]! || this.xoffTotalUsed + size > this.xoffTotal)) return this.drop(HEADROOM);
    } else if (ing + size > this.threshold(p)) {
      return this.drop(LOSSY);
    }
    if (this.totalUsed + size > this.bufferPool) return this.drop(INGRESS_POOL);
    if (egressPort >= 0) {
      const eq = egressPort * 8 + q;
      const e = this.egress[eq]!;
      if (e + size > this.egressThreshold()) return this.drop(EGRESS_THRESHOLD);
      if (this.egressPoolUsed + size > this.egressPool) return this.drop(EGRESS_POOL);
      this.egress[eq] = e + size;
      this.egressPoolUsed += size;
    }
    // charge: the threshold below sees the packet in ingress and totalUsed
    this.ingress[pq] = ing + size;
    this.totalUsed += size;
    if (!this.lossless) return OK;
    if (h > 0 || ing + size > this.threshold(p)) {
      this.hdrm[pq] = h + size;
      this.xoffTotalUsed += size;
      if (this.upstreamPaused[pq] === 0) {
        this.upstreamPaused[pq] = 1;
        return OK_PAUSE;
      }
    }
    return OK;
  }

  /** No shortcut here: the same as `enqueue`. */
  admitThrough(p: number, q: number, size: number, egressPort = -1): number {
    return this.enqueue(p, q, size, egressPort);
  }

  dequeue(p: number, q: number, size: number, egressPort = -1): boolean {
    const pq = p * 8 + q;
    const h = this.hdrm[pq]!;
    let hLeft = 0;
    if (h > 0) {
      const fromHdrm = h < size ? h : size;
      hLeft = h - fromHdrm;
      this.hdrm[pq] = hLeft;
      this.xoffTotalUsed -= fromHdrm;
    }
    const ing = this.ingress[pq]! - size;
    this.ingress[pq] = ing;
    this.totalUsed -= size;
    if (egressPort >= 0) {
      const eq = egressPort * 8 + q;
      this.egress[eq] = this.egress[eq]! - size;
      this.egressPoolUsed -= size;
    }
    if (this.upstreamPaused[pq] === 0 || hLeft > 0) return false;
    if (ing < this.xon || ing + this.xonOffset <= this.threshold(p)) {
      this.upstreamPaused[pq] = 0;
      return true;
    }
    return false;
  }

  stillCongested(p: number, q: number): boolean {
    const pq = p * 8 + q;
    if (this.hdrm[pq]! > 0) return true;
    const ing = this.ingress[pq]!;
    return !(ing < this.xon || ing + this.xonOffset <= this.threshold(p));
  }

  private drop(reason: number): number {
    this.dropsByReason[reason] = this.dropsByReason[reason]! + 1;
    return reason;
  }

  /** Per-queue headroom limit of port p, bytes. */
  headroomOf(p: number): number {
    return this.xoff[p]!;
  }

  ingressBytes(p: number, q: number): number {
    return this.ingress[p * 8 + q]!;
  }

  headroomBytes(p: number, q: number): number {
    return this.hdrm[p * 8 + q]!;
  }

  egressBytes(e: number, q: number): number {
    return this.egress[e * 8 + q]!;
  }
}
