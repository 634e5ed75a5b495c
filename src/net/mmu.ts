/**
 * Shared-buffer switch MMU with dynamic threshold, headroom and PFC thresholds
 * (network-model.md §3.2), one implementation with the dialects as parameters:
 *
 * - every buffered packet is charged to its ingress (port, queue): first the
 *   private reserve, then the shared pool while under the threshold, then the
 *   headroom;
 * - threshold(p) = (sharedPool - sharedUsed) >> shift(p)  (D-HPCC shift by port
 *   rate, D-OSCAR a fixed shift), or a static value (ACC);
 * - admission drops only when both the headroom and the shared threshold would
 *   overflow (lossless), or at the threshold without headroom (lossy, §3.8);
 * - pause when headroom is in use or the shared part reaches the threshold,
 *   resume when headroom is empty and the shared part is a resume offset below it.
 *
 * D-HPCC counts headroom per port (one allowance per port, counted per queue);
 * D-OSCAR per (port, queue), and adds `headroom*(8 - lossless)` per port to the
 * buffer. Counters are typed arrays indexed by port*8 + queue.
 */
import type { SwitchConfig } from './config.js';

export const DROP_REASONS = ['ingressHeadroom', 'buffer', 'lossyTail'] as const;
export const DROP_HEADROOM = 0;
export const DROP_BUFFER = 1;
export const DROP_LOSSY = 2;
export const ADMITTED = -1;
export const ADMITTED_PAUSE = -2;

export class Mmu {
  private readonly ingress: Float64Array;
  private readonly hdrm: Float64Array;
  readonly upstreamPaused: Uint8Array;
  private readonly headroom: Float64Array;
  private readonly shift: Int32Array;
  /** 2^-shift per port (exact, so floor(free * inv) = free >> shift) */
  private readonly inv: Float64Array;
  private readonly reserve: number;
  private readonly resumeOffset: number;
  private readonly sharedPool: number;
  private readonly bufferBytes: number;
  private readonly staticThreshold: number;
  private readonly isStatic: boolean;
  private readonly lossless: boolean;
  /** pause when shared part >= threshold (D-HPCC) or > threshold (D-OSCAR) */
  private readonly pauseAtEqual: boolean;
  sharedUsed = 0;
  totalUsed = 0;
  readonly dropsByReason = new Float64Array(DROP_REASONS.length);

  /**
   * @param portRates rate of each port, bps
   * @param portDelays one-way propagation delay of each port's link, ps
   * @param hostRateBps NIC rate used by the D-HPCC shift rule
   */
  constructor(cfg: SwitchConfig, portRates: number[], portDelays: number[], hostRateBps: number) {
    const n = portRates.length;
    this.ingress = new Float64Array(n * 8);
    this.hdrm = new Float64Array(n * 8);
    this.upstreamPaused = new Uint8Array(n * 8);
    this.headroom = new Float64Array(n);
    this.shift = new Int32Array(n);
    this.inv = new Float64Array(n);
    this.reserve = cfg.reservePerQueueBytes;
    this.resumeOffset = cfg.resumeOffsetBytes;
    this.bufferBytes = cfg.bufferBytes;
    this.staticThreshold = cfg.staticThresholdBytes;
    this.isStatic = cfg.dtMode === 'static';
    this.lossless = cfg.pfcEnabled;
    this.pauseAtEqual = cfg.dtMode !== 'fixedShift';
    let sumHeadroom = 0;
    for (let p = 0; p < n; p++) {
      // 3 * rate * delay / 8 bytes, integer
      const h = Math.floor((cfg.headroomRttMultiplier * portRates[p]! * (portDelays[p]! / 1e12)) / 8);
      this.headroom[p] = cfg.pfcEnabled ? h : 0;
      sumHeadroom += this.headroom[p]!;
      let s = cfg.dtShift;
      if (cfg.dtMode === 'shiftByPortRate') {
        let r = portRates[p]!;
        while (r > hostRateBps && s > 0) {
          s--;
          r /= 2;
        }
      }
      this.shift[p] = s;
      this.inv[p] = 2 ** -s;
    }
    if (cfg.headroomMode === 'perPort') {
      this.sharedPool = cfg.bufferBytes - sumHeadroom - n * this.reserve;
    } else {
      const comp = 8 - cfg.bufferCompensationLosslessQueues;
      this.sharedPool = cfg.bufferBytes + sumHeadroom * comp - 8 * (n * this.reserve + sumHeadroom);
    }
  }

  /** Bytes of (port, queue) beyond the reserve. */
  private excl(pq: number): number {
    const v = this.ingress[pq]! - this.reserve;
    return v > 0 ? v : 0;
  }

  /** Dynamic threshold of ingress port p, bytes. */
  threshold(p: number): number {
    if (this.isStatic) return this.staticThreshold;
    const free = this.sharedPool - this.sharedUsed;
    return free > 0 ? Math.floor(free * this.inv[p]!) : 0;
  }

  /**
   * Admission for a packet of `size` MMU bytes arriving on (p, q), then the PFC
   * pause check: returns ADMITTED, ADMITTED_PAUSE (admitted, and (p, q) must now
   * pause its upstream) or a drop reason (>= 0).
   */
  enqueue(p: number, q: number, size: number): number {
    const r = this.admit(p, q, size);
    if (r >= 0) return r;
    return this.checkPause(p, q) ? ADMITTED_PAUSE : ADMITTED;
  }

  /** Releases a packet that arrived on (p, q); true if (p, q) may now resume its upstream. */
  dequeue(p: number, q: number, size: number): boolean {
    this.release(p, q, size);
    return this.upstreamPaused[p * 8 + q] === 1 && this.checkResume(p, q);
  }

  /**
   * Admission for a packet of `size` MMU bytes arriving on (p, q). Returns -1 if
   * admitted (and charges it), else the drop reason.
   */
  admit(p: number, q: number, size: number): number {
    const pq = p * 8 + q;
    const thr = this.threshold(p);
    if (!this.lossless) {
      if (size + this.excl(pq) > thr && this.ingress[pq]! + size > this.reserve) return this.drop(DROP_LOSSY);
      if (this.totalUsed + size > this.bufferBytes) return this.drop(DROP_BUFFER);
    } else if (size + this.hdrm[pq]! > this.headroom[p]! && size + this.excl(pq) > thr) {
      return this.drop(DROP_HEADROOM);
    }
    // charge
    const n = this.ingress[pq]! + size;
    if (n <= this.reserve) {
      this.ingress[pq] = n;
    } else if (this.lossless && n - this.reserve > thr) {
      this.hdrm[pq] = this.hdrm[pq]! + size;
    } else {
      const before = this.excl(pq);
      this.ingress[pq] = n;
      this.sharedUsed += n - this.reserve - before;
    }
    this.totalUsed += size;
    return -1;
  }

  private drop(reason: number): number {
    this.dropsByReason[reason] = this.dropsByReason[reason]! + 1;
    return reason;
  }

  /** Releases a packet of `size` MMU bytes that arrived on (p, q). */
  release(p: number, q: number, size: number): void {
    const pq = p * 8 + q;
    const h = this.hdrm[pq]!;
    const fromHdrm = h < size ? h : size;
    const rest = size - fromHdrm;
    const before = this.excl(pq);
    const fromShared = rest < before ? rest : before;
    this.hdrm[pq] = h - fromHdrm;
    this.ingress[pq] = this.ingress[pq]! - rest;
    this.sharedUsed -= fromShared;
    this.totalUsed -= size;
  }

  /** After an enqueue on (p, q): should a PAUSE be sent upstream? (marks it paused) */
  checkPause(p: number, q: number): boolean {
    const pq = p * 8 + q;
    if (!this.lossless || this.upstreamPaused[pq] === 1) return false;
    const e = this.excl(pq);
    const thr = this.threshold(p);
    if (this.hdrm[pq]! > 0 || (this.pauseAtEqual ? e >= thr : e > thr)) {
      this.upstreamPaused[pq] = 1;
      return true;
    }
    return false;
  }

  /** Still congested enough to keep (p, q) paused? (quanta-mode refresh) */
  stillCongested(p: number, q: number): boolean {
    const pq = p * 8 + q;
    return this.hdrm[pq]! > 0 || this.excl(pq) + this.resumeOffset > this.threshold(p);
  }

  /** After a dequeue of a packet from (p, q): should a RESUME be sent upstream? (clears it) */
  checkResume(p: number, q: number): boolean {
    const pq = p * 8 + q;
    if (this.upstreamPaused[pq] === 0) return false;
    if (this.hdrm[pq]! > 0) return false;
    const e = this.excl(pq);
    if (e === 0 || e + this.resumeOffset <= this.threshold(p)) {
      this.upstreamPaused[pq] = 0;
      return true;
    }
    return false;
  }

  /** Headroom allowance of port p (bytes; per queue or per port by mode). */
  headroomOf(p: number): number {
    return this.headroom[p]!;
  }

  sharedPoolBytes(): number {
    return this.sharedPool;
  }

  ingressBytes(p: number, q: number): number {
    return this.ingress[p * 8 + q]! + this.hdrm[p * 8 + q]!;
  }
}
