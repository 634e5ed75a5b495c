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

  kPortTx = -1;
  kLinkArrive = -1;
  kPauseExpiry = -1;

  constructor(sched: Scheduler, quantization: TxTimeQuantization) {
    this.sched = sched;
    this.quantization = quantization;
    const ports = this.ports;
    // the two per-packet kinds: the scheduler's loop calls these two Port methods directly
    const k = sched.registerDirect(ports, 'Port.onTxDone', 'Port.onArrive');
    this.kPortTx = k.tx;
    this.kLinkArrive = k.arrive;
    this.kPauseExpiry = sched.register({ fire: (id, tag) => ports[id]!.onPauseExpiry(tag) }, 'Port.onPauseExpiry');
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
