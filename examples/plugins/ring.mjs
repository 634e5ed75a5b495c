// A topology type in your own file (docs/extending.md, "Adding a topology"): switches in a
// ring with hosts on each, so traffic to the switch opposite has two equal-cost paths. A
// spec loads it with `plugins: [./ring.mjs]` and names it like a built-in type:
//
//   topology: { type: ring, switches: 4, hostsPerSwitch: 1, rate: 100Gbps, delay: 1us }
//
// `schema` is the spec entry (checked, listed by `ccsim list topologies` and written into
// the JSON schema like a built-in's); `build` returns the plain-data topology, made with the
// builder the built-in types use: hosts first (ids 0..H-1), then switches, then links.

/** @param {import('ccsim').PluginApi} ccsim */
export default function plugin(ccsim) {
  const { z, fields } = ccsim;

  const schema = z
    .object({
      type: z.literal('ring'),
      switches: z.number().int().min(3).describe('switches in the ring'),
      hostsPerSwitch: z.number().int().min(1).default(1).describe('host s·hostsPerSwitch + j is on switch s'),
      rate: fields.rateField().describe('every link'),
      delay: fields.linkDelayField().describe('every link, one way'),
      name: z.string().min(1).optional(),
    })
    .strict();

  ccsim.registerTopology({
    type: 'ring',
    summary: 'switches in a ring, hosts on each (examples/plugins/ring.mjs)',
    schema,
    // checked against the spec's limits before anything is built
    estimate: (t) => ({ hosts: t.switches * t.hostsPerSwitch, links: t.switches * t.hostsPerSwitch + t.switches }),
    build: (t) => {
      const b = new ccsim.TopologyBuilder();
      const hosts = t.switches * t.hostsPerSwitch;
      b.addHosts(hosts);
      const sw0 = b.addSwitches(t.switches, 'switch');
      for (let h = 0; h < hosts; h++) b.link(h, sw0 + Math.floor(h / t.hostsPerSwitch), t.rate, t.delay);
      for (let s = 0; s < t.switches; s++) b.link(sw0 + s, sw0 + ((s + 1) % t.switches), t.rate, t.delay);
      return b.finish(t.name ?? `ring${t.switches}`);
    },
  });
}
