/**
 * Deficit round robin (Shreedhar and Varghese, "Efficient Fair Queuing using Deficit Round
 * Robin", SIGCOMM'95, §3): the port visits its non-empty data queues in turn; a queue's
 * deficit grows by its quantum at each visit, and it sends head packets while the deficit
 * covers the head packet's size, paying for each. Queues with different packet sizes then get
 * the same bytes per round (weighted by `weights`), where per-packet round robin (`rr`) gives
 * them the same packets. A queue that empties loses its deficit (§3, "Deficit Counter").
 *
 * A queue discipline of queue-discipline.ts (`DISC_CUSTOM`): one object per port, reading the
 * head packet's size with `Port.headSize`. Choose it with `network.switch.discipline: drr` and
 * `network.switch.disciplineParams: { quantumBytes, weights }`.
 *
 * The port's urgent queues and control FIFO come first, as for every discipline; a paused
 * queue is skipped and keeps its deficit. A class split into physical queues (BFC, bfc.ts) has
 * no head in the port's own ring (`headSize` 0): DRR serves it as a queue of empty packets, so
 * do not combine the two. Allocates nothing per packet.
 */
import { z } from 'zod';
import { sizeField } from '../engine/spec-fields.js';
import type { Port } from './port.js';
import { DISC_CUSTOM, type QueueDiscipline, type QueueDisciplineDefinition } from './queue-discipline.js';

const params = z
  .object({
    quantumBytes: sizeField({ min: 1, bare: true })
      .default(1500)
      .describe('bytes a queue may send per round (times its weight); at least the largest packet keeps a dequeue O(1)'),
    weights: z
      .array(z.number().gt(0))
      .length(8, 'one weight per data queue (8)')
      .optional()
      .describe('per-queue multipliers of the quantum, queue 0 first; default all 1'),
  })
  .strict();

export type DrrParams = z.output<typeof params>;

/** One port's DRR state. */
export class Drr implements QueueDiscipline {
  readonly name = 'drr';
  private readonly deficit = new Float64Array(8);
  private readonly quantum = new Float64Array(8);
  /** the queue being served this round (-1: none yet) */
  private cur = -1;

  constructor(
    private readonly port: Port,
    p: DrrParams,
  ) {
    for (let q = 0; q < 8; q++) this.quantum[q] = p.quantumBytes * (p.weights?.[q] ?? 1);
  }

  pick(ready: number): number {
    const port = this.port;
    let q = this.cur;
    if (q >= 0 && ((ready >> q) & 1) === 1) {
      const size = port.headSize(q);
      if (this.deficit[q]! >= size) return this.serve(q, size);
    }
    // the next ready queue after q, wrapping; each visit adds its quantum until one covers its head
    for (;;) {
      const after = ready & (0xff << (q + 1));
      const pick = after !== 0 ? after : ready;
      q = 31 - Math.clz32(pick & -pick);
      this.deficit[q]! += this.quantum[q]!;
      const size = port.headSize(q);
      if (this.deficit[q]! >= size) {
        this.cur = q;
        return this.serve(q, size);
      }
    }
  }

  /** q sends its head packet of `size` bytes; a queue this empties starts its next turn with no deficit. */
  private serve(q: number, size: number): number {
    this.deficit[q] = this.port.queuePkts(q) <= 1 ? 0 : this.deficit[q]! - size;
    return q;
  }

  served(q: number): void {
    // a packet went straight through an idle, empty port: every queue was empty, so no deficit to keep
    this.deficit[q] = 0;
    this.cur = q;
  }
}

export const drrDiscipline: QueueDisciplineDefinition<DrrParams> = {
  name: 'drr',
  description: 'deficit round robin: byte-fair (weighted) service of the data queues (Shreedhar and Varghese, SIGCOMM 1995)',
  id: DISC_CUSTOM,
  parallel: true,
  params,
  create: (port, p) => new Drr(port, p),
};
