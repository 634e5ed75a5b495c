// A queue discipline in your own file (docs/extending.md, "Plug-ins in your own files"):
// strict priority for some data queues, deficit round robin (Shreedhar and Varghese,
// SIGCOMM 1995) over the others, as many switches combine them. A spec loads it with
// `plugins: [./sp-drr.mjs]` and chooses it with
//
//   network:
//     switch: { discipline: sp-drr, disciplineParams: { strictQueues: [7], quantumBytes: 1500 } }
//
// A discipline object is made per port (`create(port, params)`) and asked `pick(ready)`:
// `ready` has bit q set for each non-empty, unpaused data queue; it returns the queue to
// serve now and may read the port's queues (`port.headSize(q)`, `port.queueBytes(q)`).

/** @param {import('ccsim').PluginApi} ccsim */
export default function plugin(ccsim) {
  const { z, fields } = ccsim;

  const params = z
    .object({
      strictQueues: z.array(z.number().int().min(0).max(7)).default([7]).describe('queues served first, highest first'),
      quantumBytes: fields.sizeField({ min: 1, bare: true }).default(1500).describe('DRR quantum of the other queues'),
    })
    .strict();

  class SpDrr {
    constructor(port, p) {
      this.name = 'sp-drr';
      this.port = port;
      this.quantum = p.quantumBytes;
      this.strictMask = p.strictQueues.reduce((m, q) => m | (1 << q), 0);
      this.deficit = new Float64Array(8);
      this.cur = -1;
    }

    pick(ready) {
      const strict = ready & this.strictMask;
      if (strict !== 0) return 31 - Math.clz32(strict);
      const rest = ready & ~this.strictMask;
      let q = this.cur;
      if (q >= 0 && ((rest >> q) & 1) === 1 && this.deficit[q] >= this.port.headSize(q)) return this.serve(q);
      for (;;) {
        const after = rest & (0xff << (q + 1));
        const next = after !== 0 ? after : rest;
        q = 31 - Math.clz32(next & -next);
        this.deficit[q] += this.quantum;
        if (this.deficit[q] >= this.port.headSize(q)) {
          this.cur = q;
          return this.serve(q);
        }
      }
    }

    serve(q) {
      this.deficit[q] = this.port.queuePkts(q) <= 1 ? 0 : this.deficit[q] - this.port.headSize(q);
      return q;
    }

    served(q) {
      this.deficit[q] = 0;
    }
  }

  ccsim.registerQueueDiscipline({
    name: 'sp-drr',
    description: 'strict priority for strictQueues, DRR over the rest (examples/plugins/sp-drr.mjs)',
    id: ccsim.DISC_CUSTOM,
    parallel: true,
    params,
    create: (port, p) => new SpDrr(port, p),
  });
}
