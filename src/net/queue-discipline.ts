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
 * per-destination rings is a storage change of the port that this interface
 * does not need to know about (not implemented; see the test discipline in
 * test/switch-edges.test.ts for a `pick` that is not strict or rr).
 */

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
