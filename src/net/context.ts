/**
 * What every network element shares within one simulation: the scheduler and
 * its registered event kinds, the packet pool, the serialization-time rule and
 * a per-rate table of serialization times by packet size. One per `Sim`; no
 * module-level state.
 */
import { Scheduler } from '../engine/scheduler.js';
import { txTimePs, type TxTimeQuantization } from '../engine/units.js';
import { PacketStore } from './packet.js';
import type { Port } from './port.js';
import type { FlowAccount, QueueAccount } from './queue-account.js';
import { pfcExpiry } from './pfc-rx.js';

/** Largest packet whose serialization time is cached per rate. */
const SER_TABLE_SIZE = 10_000;

export class NetContext {
  readonly sched: Scheduler;
  readonly pool = new PacketStore();
  readonly ports: Port[] = [];
  readonly quantization: TxTimeQuantization;
  private readonly serTables = new Map<number, Float64Array>();

  /** wire size of a PFC frame */
  pfcBytes = 64;
  /** packets (data, ACK, NACK, CNP) of each flow dropped anywhere, by flow id (sized when flows exist) */
  flowDrops: Int32Array = new Int32Array(0);
  /** loadBalancing ns3Hash: per flow id its three hash words (ecmp-ns3.ts), set by the transport; empty otherwise */
  flowKeys: Int32Array = new Int32Array(0);

  /**
   * The source host of flow `id`, or -1: the transport sets it (a switch
   * that returns a trimmed header to its sender asks it, admission.ts RETURN;
   * rare, never on a packet's ordinary hop).
   */
  sourceOf: (id: number) => number = () => -1;

  /** the FCT breakdown's accounting (`metrics.breakdown`, queue-account.ts); null: off, the hooks' one test */
  acct: QueueAccount | null = null;
  flowAcct: FlowAccount | null = null;

  kPortTx = -1;
  kLinkArrive = -1;
  kPauseExpiry = -1;

  /**
   * Held links (docs/architecture.md, "Parallel runs"): every switch-to-switch link holds
   * the packets it sends until the end of the window of this many ps they were sent in
   * (the topology's shortest such delay; 0: no link is held). Then `releaseHeld` posts
   * their arrivals in port order. Every run does this, on one thread or many, so a
   * partition's events keep the one-thread order without any key beyond time and FIFO.
   */
  holdGridPs = 0;
  /** ports that held packets this window (gids; `held` of them in use) */
  private heldPorts = new Int32Array(64);
  private held = 0;

  /** Port `gid` took its first held packet this window. */
  markHeld(gid: number): void {
    if (this.held === this.heldPorts.length) {
      const g = new Int32Array(this.held * 2);
      g.set(this.heldPorts);
      this.heldPorts = g;
    }
    this.heldPorts[this.held++] = gid;
  }

  /** Whether any link holds packets (a window's end has work). */
  get holding(): boolean {
    return this.held > 0;
  }

  /** The window's end: every held link's packets join its in-flight FIFO, in port order. */
  releaseHeld(): void {
    const n = this.held;
    if (n === 0) return;
    const list = this.heldPorts.subarray(0, n);
    if (n > 1) list.sort();
    this.held = 0;
    const ports = this.ports;
    for (let i = 0; i < n; i++) ports[list[i]!]!.releaseHeld();
  }

  /**
   * The ports' per-hop memory in one buffer: each port's queue words, data
   * queue rings and in-flight ring are regions of it (Port). One buffer instead
   * of a few typed arrays per port: a hop loads no per-port typed-array header,
   * only the region's own lines. Regions are 8-word (32-byte) aligned. Read
   * `arena` / `arenaF` again after anything that may call `alloc` (it can
   * replace them).
   */
  arena = new Int32Array(1 << 16);
  /** the same memory as doubles */
  arenaF = new Float64Array(this.arena.buffer);
  private arenaTop = 0;
  /** freed regions by size class (log2 of their words) */
  private readonly arenaFree: number[][] = [];

  constructor(sched: Scheduler, quantization: TxTimeQuantization) {
    this.sched = sched;
    this.quantization = quantization;
    const ports = this.ports;
    // the two per-packet kinds: the scheduler's loop calls these two Port methods directly
    const k = sched.registerDirect(ports, 'Port.onTxDone', 'Port.onArrive');
    this.kPortTx = k.tx;
    this.kLinkArrive = k.arrive;
    this.kPauseExpiry = sched.register({ fire: (id, tag) => pfcExpiry(ports[id]!, sched.now, tag) }, 'Port.onPauseExpiry');
  }

  /** A zeroed region of `words` words (a power of two, at least 8) in `arena`; returns its offset. */
  alloc(words: number): number {
    const c = 31 - Math.clz32(words);
    const free = this.arenaFree[c];
    if (free !== undefined && free.length > 0) {
      const at = free.pop()!;
      this.arena.fill(0, at, at + words);
      return at;
    }
    if (this.arenaTop + words > this.arena.length) {
      let n = this.arena.length * 2;
      while (this.arenaTop + words > n) n *= 2;
      const a = new Int32Array(n);
      a.set(this.arena);
      this.arena = a;
      this.arenaF = new Float64Array(a.buffer);
    }
    const at = this.arenaTop;
    this.arenaTop += words;
    return at;
  }

  /** Gives back a region from `alloc`. */
  freeRegion(at: number, words: number): void {
    const c = 31 - Math.clz32(words);
    (this.arenaFree[c] ??= []).push(at);
  }

  /**
   * Copies a ring's `n` entries of `1 << shift` words from `head` on (capacity `oldCap`, 0: none) to a new
   * region of `cap` entries, freeing the old; returns the new region (a port's queue and in-flight rings).
   */
  regrowRing(old: number, head: number, n: number, oldCap: number, cap: number, shift: number): number {
    const r = this.alloc(cap << shift);
    const a = this.arena;
    for (let k = 0; k < n; k++) {
      const from = old + (((head + k) & (oldCap - 1)) << shift);
      a.copyWithin(r + (k << shift), from, from + (1 << shift));
    }
    if (oldCap > 0) this.freeRegion(old, oldCap << shift);
    return r;
  }

  /** Serialization (or pacing) time in ps for `bytes` at `rateBps`, per the profile's quantization. */
  txTime(bytes: number, rateBps: number): number {
    return txTimePs(bytes, rateBps, this.quantization);
  }

  /** Shared lazily-filled table of serialization times by size for one rate (-1 = not computed). */
  serTable(rateBps: number): Float64Array {
    let t = this.serTables.get(rateBps);
    if (t === undefined) {
      t = new Float64Array(SER_TABLE_SIZE).fill(-1);
      this.serTables.set(rateBps, t);
    }
    return t;
  }
}
