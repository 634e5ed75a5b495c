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
 * port calls its `pick` with the candidate set as a bitmask.
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

/** How a discipline is chosen by name (`SwitchConfig.discipline`, switch-registry.ts). */
export interface QueueDisciplineDefinition {
  readonly name: string;
  /** one of the built-in ids, or DISC_CUSTOM with `create` */
  readonly id: number;
  /** a fresh discipline for one port (DISC_CUSTOM only) */
  create?(): QueueDiscipline;
}

export const strictDiscipline: QueueDisciplineDefinition = { name: 'strict', id: DISC_STRICT };
export const rrDiscipline: QueueDisciplineDefinition = { name: 'rr', id: DISC_RR };

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
