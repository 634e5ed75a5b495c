// A periodic all-to-one workload type, as a ccsim plug-in in your own file
// (docs/extending.md, "Plug-ins in your own files"). A spec loads it with
// `plugins: [./all-to-one.mjs]` and uses it as a workload entry:
//
//   workload:
//     - { type: allToOne, to: 0, from: all, size: 20KB, period: 20us, count: 5, prio: 1 }
//
// Every `period` from `start`, each sender in `from` starts one flow of `size` to `to`
// (a synchronised incast that repeats, as a parameter server's gradient pushes do).

/** @param {import('ccsim').PluginApi} ccsim */
export default function plugin(ccsim) {
  const { z, fields } = ccsim;

  const schema = z
    .object({
      type: z.literal('allToOne'),
      to: fields.hostId.describe('the receiving host'),
      from: fields.hostSelection.default('all').describe('the senders: "all" (every host but `to`) or a list of host ids'),
      size: fields.sizeField({ min: 1 }).describe('bytes per flow'),
      period: fields.durationField({ positive: true }).describe('time between two rounds'),
      count: fields.posInt.describe('rounds'),
      start: fields.durationField().default(0).describe('time of the first round'),
      prio: fields.prio.optional().describe('traffic class of the flows (default: the transport data class)'),
      tag: z.string().default('all-to-one').describe('tag of the flows (cc.byTag, fct.csv)'),
    })
    .strict();

  ccsim.registerWorkload({
    type: 'allToOne',
    summary: 'every sender starts a flow to one host each period (examples/plugins/all-to-one.mjs)',
    schema,
    // start times a spec error can point at: the first round and the last
    startTimes: (e) => [
      [['start'], e.start],
      [['count'], e.start + (e.count - 1) * e.period, `round ${e.count}`],
    ],
    prepare(e, ctx) {
      const to = ctx.host(e.to, ['to']);
      // (ids as the spec gives them; ctx maps them to topology hosts and reports bad ones at the field)
      const chosen = e.from === 'all' ? ctx.allHosts().filter((h) => h !== to) : ctx.hostSelection(e.from, ['from']);
      const senders = chosen.filter((h) => h !== to);
      if (senders.length === 0) ctx.error(['from'], 'no sender other than `to`');
      return {
        estimate: { flows: senders.length * e.count, bytes: senders.length * e.count * e.size, receivers: [to] },
        tags: [e.tag],
        flows() {
          const out = [];
          for (let r = 0; r < e.count; r++) {
            for (const src of senders) {
              const f = { src, dst: to, bytes: e.size, startPs: e.start + r * e.period, tag: e.tag };
              if (e.prio !== undefined) f.prio = e.prio;
              out.push(f);
            }
          }
          return out; // in start order, as a workload must return them
        },
      };
    },
  });
}
