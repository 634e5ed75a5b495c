/**
 * BFC at the sending host (Goyal et al., NSDI'22; net/bfc.ts): the first
 * switch pauses and resumes single flows, and the NIC stops a paused flow
 * while the others go on. A send driver around the run's own driver: a
 * paused flow may put nothing in flight. Chosen by the transport only when
 * the switches run BFC (`network.switch.bfc`), so other runs pay nothing.
 */
import type { Flow } from './flow.js';
import type { SendDriver } from './send-driver.js';

export class BfcPausedDriver implements SendDriver {
  readonly name: SendDriver['name'];
  readonly carriesGrants: boolean;
  packetPrio?: (f: Flow, seq: number) => number;
  /** by flow id: pauses outstanding (the flow is paused while > 0; the switch may hold several, one per queue that paused it) */
  private paused = new Int32Array(1024);
  /** by flow id: pauses received (tests, diagnostics) */
  private pauseCounts = new Int32Array(1024);
  /** pause frames received by all flows */
  pauses = 0;

  constructor(private readonly inner: SendDriver) {
    this.name = inner.name;
    this.carriesGrants = inner.carriesGrants;
    // a driver that sets each packet's class (Homa's levels) keeps doing so under BFC
    if (inner.packetPrio !== undefined) this.packetPrio = (f: Flow, seq: number): number => inner.packetPrio!(f, seq);
  }

  /** Counts a pause of f in or out; true when it changed whether f is paused. */
  set(f: Flow, pause: boolean): boolean {
    const id = f.id;
    if (id >= this.paused.length) this.grow(id);
    const was = this.paused[id]!;
    if (pause === true) {
      this.paused[id] = was + 1;
      this.pauses++;
      this.pauseCounts[id]!++;
      return was === 0;
    }
    if (was === 0) return false;
    this.paused[id] = was - 1;
    return was === 1;
  }

  /** Whether flow `id` is paused now. */
  isPaused(id: number): boolean {
    return id < this.paused.length && this.paused[id]! > 0;
  }

  /** How often flow `id` was paused. */
  pausesOf(id: number): number {
    return id < this.pauseCounts.length ? this.pauseCounts[id]! : 0;
  }

  private grow(id: number): void {
    let n = this.paused.length;
    while (n <= id) n *= 2;
    const p = new Int32Array(n);
    p.set(this.paused);
    this.paused = p;
    const c = new Int32Array(n);
    c.set(this.pauseCounts);
    this.pauseCounts = c;
  }

  onStart(f: Flow): void {
    this.inner.onStart(f);
  }

  mayPut(f: Flow): boolean {
    const id = f.id;
    if (id < this.paused.length && this.paused[id]! > 0) return false;
    return this.inner.mayPut(f);
  }

  grant(f: Flow): number {
    return this.inner.grant(f);
  }

  onGrant(f: Flow, seq: number, creditBytes: number): void {
    this.inner.onGrant(f, seq, creditBytes);
  }
}
