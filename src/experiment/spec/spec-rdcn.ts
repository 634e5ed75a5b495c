/**
 * The spec of a reconfigurable datacenter topology (PowerTCP §5; net/topology/rdcn.ts,
 * docs/network-model.md §2.2): racks, the packet network, the circuits and their
 * schedule as data. `circuits.matchings` is `roundRobin` (matching k sends ToR i to ToR
 * (i+k) mod tors, k = 1..tors-1) or a list of permutations of the ToR indices 0..tors-1
 * (entry i: the ToR that ToR i's circuit reaches; i itself = no circuit).
 */
import { z } from 'zod';
import { durationField, linkDelayField, posInt, rateField } from '../../engine/spec-fields.js';
import { rdcnScheduleProblem } from '../../net/topology/rdcn.js';

const SCHEDULE_FIELD: Readonly<Record<string, string>> = { dayPs: 'day', nightPs: 'night' };

export const rdcnTopo = z
  .object({
    type: z.literal('rdcn'),
    tors: z.number().int().min(2),
    hostsPerTor: posInt,
    hostRate: rateField(),
    /** ToR to packet switch */
    packetRate: rateField(),
    circuitRate: rateField(),
    /** server links; the default of the two below */
    delay: linkDelayField(),
    packetDelay: linkDelayField().optional(),
    circuitDelay: linkDelayField().optional(),
    circuits: z
      .object({
        day: durationField(),
        night: durationField(),
        matchings: z.union([z.literal('roundRobin'), z.array(z.array(z.number())).min(1)], {
          error: 'expected "roundRobin" or a list of matchings, each a permutation of the ToR indices 0..tors-1',
        }),
        start: durationField().default(0),
      })
      .strict(),
    name: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const c = t.circuits;
    const matchings = c.matchings === 'roundRobin' ? [Array.from({ length: t.tors }, (_, i) => (i + 1) % t.tors)] : c.matchings;
    const bad = rdcnScheduleProblem(t.tors, { dayPs: c.day, nightPs: c.night, matchings });
    if (bad === null) return;
    const [path, message] = bad;
    const head = path[0] as string;
    ctx.addIssue({ code: 'custom', path: ['circuits', SCHEDULE_FIELD[head] ?? head, ...path.slice(1)], message });
  });
