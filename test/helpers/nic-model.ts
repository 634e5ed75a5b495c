/** A scripted NIC flow and the flow scan the NIC's ready set replaces (test/nic-ready, test/nic-fifo). */
import type { NicFlow } from '../../src/net/host.js';

export class FakeFlow implements NicFlow {
  nicSlot = -1;
  ready = 0;
  open = true;
  constructor(
    readonly id: number,
    readonly prio: number,
  ) {}
  readyAt(): number {
    return this.ready;
  }
  maySend(): boolean {
    return this.open;
  }
  buildPacket(): number {
    return this.id;
  }
}

/**
 * The scan as the host did it before the set existed (kept verbatim in
 * spirit): from one past the last served flow, wrapping, the flow that may
 * send now with the strictly earliest ready time (earliest-ready-first) or
 * the first one (round robin); with none, the earliest ready time of a flow
 * that may send.
 */
export class ScanModel {
  flows: FakeFlow[] = [];
  rr = -1;
  constructor(private readonly fifo = false) {}
  pick(now: number, paused: Uint8Array): { f: FakeFlow | null; wake: number } {
    const n = this.flows.length;
    let best = -1;
    let bestT = Infinity;
    for (let k = 1; k <= n; k++) {
      const i = (this.rr + k) % n;
      const f = this.flows[i]!;
      const t = f.readyAt();
      if (t <= now && t < bestT && paused[f.prio] === 0 && f.maySend()) {
        best = i;
        bestT = t;
        if (!this.fifo) break;
      }
    }
    if (best >= 0) {
      this.rr = best;
      return { f: this.flows[best]!, wake: Infinity };
    }
    let t = Infinity;
    for (const f of this.flows) if (paused[f.prio] === 0 && f.maySend() && f.readyAt() < t) t = f.readyAt();
    return { f: null, wake: t };
  }
  remove(f: FakeFlow): void {
    const i = this.flows.indexOf(f);
    this.flows.splice(i, 1);
    if (this.rr >= i) this.rr--;
  }
}
