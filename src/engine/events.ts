/**
 * The scheduler's contracts with what its events reach (src/engine/scheduler.ts), and a
 * helper for its per-slot arrays.
 */

/** Receives events of one registered kind. */
export interface EventHandler {
  fire(id: number, tag: number): void;
}

/**
 * An element that receives the two per-packet event kinds (its transmitter is
 * free; the head of its link's in-flight FIFO arrives). The run loop calls
 * these two methods directly (`registerDirect`) instead of through a handler:
 * they are most of the events, and one call site per method stays
 * monomorphic where a shared `fire` call is not.
 */
export interface DirectTarget {
  onTxDone(): void;
  onArrive(): void;
}

/** A copy of `a` with `cap` elements (the scheduler's per-slot arrays grow by doubling). */
export function grown<T extends Float64Array | Int32Array | Uint8Array>(cap: number, a: T): T {
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}
