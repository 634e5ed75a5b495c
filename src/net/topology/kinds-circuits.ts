/**
 * The topology types with circuits (PowerTCP §5; docs/network-model.md §2.1-2.2), each as a
 * `TopologyDefinition` (kinds.ts): `torMesh`, racks whose ToRs are linked pairwise by
 * circuits that a `schedule:` takes down and up (circuit.ts), and `rdcn`, a reconfigurable
 * datacenter whose circuit schedule is part of the topology (rdcn.ts). For `rdcn`,
 * `circuits.matchings` is `roundRobin` (matching k sends ToR i to ToR (i+k) mod tors,
 * k = 1..tors-1) or a list of permutations of the ToR indices 0..tors-1 (entry i: the ToR
 * that ToR i's circuit reaches; i itself = no circuit).
 */
import { z } from 'zod';
import { durationField, linkDelayField, posInt, rateField } from '../../engine/spec-fields.js';
import { torMesh, type TorMeshOptions } from './circuit.js';
import { builderOptions } from './kinds-builders.js';
import type { TopologyDefinition } from './kinds.js';
import { rdcn, rdcnScheduleProblem, rotationMatchings } from './rdcn.js';

/** Racks whose ToRs are linked pairwise by circuits (circuit.ts). */
const torMeshTopo = z
  .object({
    type: z.literal('torMesh'),
    tors: z.number().int().min(2),
    hostsPerTor: posInt,
    hostRate: rateField(),
    /** default hostRate */
    circuitRate: rateField().optional(),
    delay: linkDelayField(),
    /** default delay */
    circuitDelay: linkDelayField().optional(),
    name: z.string().min(1).optional(),
  })
  .strict();

export const TOR_MESH_TOPOLOGY: TopologyDefinition<z.output<typeof torMeshTopo>> = {
  type: 'torMesh',
  summary: 'racks with ToRs linked pairwise by circuits (PowerTCP §5; circuit schedule)',
  schema: torMeshTopo,
  estimate: (t) => ({ hosts: t.tors * t.hostsPerTor, links: t.tors * t.hostsPerTor + (t.tors * (t.tors - 1)) / 2 }),
  build: (t) => torMesh(builderOptions(t) as unknown as TorMeshOptions),
};

const SCHEDULE_FIELD: Readonly<Record<string, string>> = { dayPs: 'day', nightPs: 'night' };

const rdcnTopo = z
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

export const RDCN_TOPOLOGY: TopologyDefinition<z.output<typeof rdcnTopo>> = {
  type: 'rdcn',
  summary:
    'reconfigurable DC (PowerTCP §5): racks, a packet switch, one rotating circuit switch, per-destination VOQs; circuits { day, night, matchings: roundRobin | permutations of 0..tors-1, start }',
  schema: rdcnTopo,
  estimate: (t) => ({ hosts: t.tors * t.hostsPerTor, links: t.tors * t.hostsPerTor + t.tors + (t.tors * (t.tors - 1)) / 2 }),
  build: (t) => {
    const c = t.circuits;
    return rdcn({
      tors: t.tors,
      hostsPerTor: t.hostsPerTor,
      hostRateBps: t.hostRate,
      packetRateBps: t.packetRate,
      circuitRateBps: t.circuitRate,
      delayPs: t.delay,
      ...(t.packetDelay !== undefined ? { packetDelayPs: t.packetDelay } : {}),
      ...(t.circuitDelay !== undefined ? { circuitDelayPs: t.circuitDelay } : {}),
      matchings: c.matchings === 'roundRobin' ? rotationMatchings(t.tors) : c.matchings,
      dayPs: c.day,
      nightPs: c.night,
      startPs: c.start,
      ...(t.name !== undefined ? { name: t.name } : {}),
    });
  },
};
