/**
 * Queue-service disciplines: which data queue an egress port serves next
 * (docs/network-model.md §3 "Service"). Chosen per port (`Port.setDiscipline`).
 *
 * The two of the references are built into `Port.dequeue` as small integer
 * ids, so the hot path is one integer switch with no call:
 * - `DISC_STRICT`: strict priority, highest non-empty unpaused queue first
 *   (D-OSCAR, and every host NIC);
 * - `DISC_RR`: per-packet round robin over the non-empty unpaused queues,
 *   starting after the last one served (D-HPCC).
 * Any other discipline is a `QueueDiscipline` object (`DISC_CUSTOM`): the
 * port calls its `pick` with the candidate set as a bitmask. It is made for
 * one port (`create(port, params)`), so it may read that port's queues:
 * `port.headSize(q)` (the wire size of queue q's head packet),
 * `port.queueBytes(q)`, `port.queuePkts(q)`; its parameters are a zod schema
 * (`params`), checked when a spec is resolved (`network.switch.disciplineParams`).
 * Deficit round robin (./drr.ts) is one.
 *
 * Ahead of every discipline, the port serves its control FIFO (PFC frames)
 * and then its *urgent* queues (`Port.urgentMask`): strict among themselves,
 * highest first, and never paused. D-HPCC's control queue 0 is one
 * (`SwitchConfig.queue0Control`); a switch with trimming admission makes its
 * trimmed-header queue one (NDP's header queue, served first; admission.ts).
 *
 * Per-destination VOQs fit the same interface: a VOQ discipline keeps its
 * own per-destination order inside a class (the port's 8 data queues stay the
 * PFC classes) and `pick` returns the class to serve; splitting a class into
 * several queues is the port's storage (`SplitQueues` below; BFC's physical
 * queues, bfc.ts), which this interface does not need to know about (see the
 * test discipline in test/switch-edges.test.ts for a `pick` that is not
 * strict or rr).
 */

import type { z } from 'zod';
import type { Capabilities } from '../engine/registry.js';
import type { Port } from './port.js';

/** strict priority: `31 - clz32(ready)` */
export const DISC_STRICT = 0;
/** per-packet round robin from the queue after the last served */
export const DISC_RR = 1;
/** a `QueueDiscipline` object */
export const DISC_CUSTOM = 2;

/** A pluggable queue-service discipline (one object per port: it may keep per-port state in fields). */
export interface QueueDiscipline {
  /** registry name */
  readonly name: string;
  /**
   * The data queue to serve now. `ready` has bit q set for each data queue q
   * that is non-empty, not paused and not urgent; it is never 0 and only its
   * low 8 bits can be set. Called only when that queue's head is then
   * dequeued: a discipline with state (a round-robin pointer, deficits)
   * updates it here. Allocates nothing.
   */
  pick(ready: number): number;
  /**
   * Queue q was served without `pick`: a packet found the port idle and
   * empty and went straight through (`Port.startThrough`).
   */
  served(q: number): void;
}

/**
 * How a discipline is chosen by name (`SwitchConfig.discipline`, switch-registry.ts). `parallel`
 * (engine/registry.ts): its objects read nothing but their own port, so a run with it may use
 * several threads; absent, such a run stays on one.
 */
export interface QueueDisciplineDefinition<P = Record<string, unknown>> extends Capabilities {
  readonly name: string;
  /** one line for `ccsim list` */
  readonly description?: string;
  /** one of the built-in ids, or DISC_CUSTOM with `create` */
  readonly id: number;
  /**
   * Its parameters (`network.switch.disciplineParams`): a strict zod object with defaults, units
   * in the keys (`quantumBytes`) or parsed by engine/spec-fields.ts. Absent: it takes none.
   */
  readonly params?: z.ZodType<P>;
  /** a fresh discipline for `port` (DISC_CUSTOM only); `params` parsed by `params` */
  create?(port: Port, params: P): QueueDiscipline;
}

/**
 * The object of a DISC_CUSTOM discipline for `port`, with its parameters parsed (defaults
 * filled); null for a built-in id. Parameters were checked when the spec was resolved; a
 * program that builds a network itself gets the first problem as an error here.
 */
export function makeDiscipline(def: QueueDisciplineDefinition, port: Port, params: Readonly<Record<string, unknown>> | undefined): QueueDiscipline | null {
  if (def.id !== DISC_CUSTOM) return null;
  if (def.create === undefined) throw new Error(`queue discipline ${def.name}: DISC_CUSTOM needs create(port, params)`);
  if (def.params === undefined) return def.create(port, params ?? {});
  const r = def.params.safeParse(params ?? {});
  if (!r.success) throw new Error(`network.switch.disciplineParams of ${def.name}: ${r.error.issues.map((i) => `${i.path.join('.') || '(params)'}: ${i.message}`).join('; ')}`);
  return def.create(port, r.data);
}

export const strictDiscipline: QueueDisciplineDefinition = { name: 'strict', id: DISC_STRICT, parallel: true, description: 'strict priority, highest non-empty queue first' };
export const rrDiscipline: QueueDisciplineDefinition = { name: 'rr', id: DISC_RR, parallel: true, description: 'per-packet round robin over the non-empty queues' };

/**
 * Storage for a data class split into several physical queues (BFC's per-port
 * queues, bfc.ts; `Port.splitCls`, `Port.split`). The port hands it the
 * class's entries; it keeps them, counts them in the port's class and port
 * totals as the port's own rings do, chooses the physical queue at `push` and
 * the next one at `pop`, and blocks the class (`Port.blockedMask`, in
 * `pausedMask`) while every non-empty physical queue is paused.
 */
export interface SplitQueues {
  /** `Port.enqueueEntry` for class q: stores and counts the entry, then kicks the port */
  push(port: Port, pkt: number, q: number, size: number, meta: number, dst: number, hash: number, inPort: number): void;
  /** `Port.dequeue` of class q (the discipline chose it): the next entry into the port's dq fields; returns its packet */
  pop(port: Port, q: number): number;
  /** whether a queued packet arrived on `inPort` (deadlock diagnosis) */
  holds(port: Port, inPort: number): boolean;
}
