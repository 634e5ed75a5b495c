/**
 * The spec's topology over time (docs/network-model.md §2.1): `events:` (a link's rate,
 * or the link down or up, both directions or one), `schedule:` (a rotating circuit
 * schedule, PowerTCP §5; its circuits live in a `torMesh` topology, net/topology/kinds-circuits.ts).
 * The checks that need no topology are here; resolve-topology-change.ts checks the nodes
 * and links against the built topology.
 */
import { z } from 'zod';
import { formatTime } from '../../engine/units.js';
import { LINK_EVENT_KINDS, type LinkEventKind } from '../../net/link-changes.js';
import { durationField, nodeId, rateField } from '../../engine/spec-fields.js';

const pair = z.tuple([nodeId, nodeId]);

/**
 * `{ at, link: [a, b], kind: rate | down | up, rate, oneWay }`: `kind` defaults to
 * `rate` (which needs `rate`; 0 stops the link); `oneWay: true` changes only the
 * direction a -> b.
 */
export const linkEvent = z
  .object({
    at: durationField(),
    link: pair,
    /** absent = rate (a spec's manifest keeps what the spec wrote) */
    kind: z.enum(LINK_EVENT_KINDS as [LinkEventKind, ...LinkEventKind[]]).optional(),
    /** new rate (kind rate); 0 = link stopped */
    rate: rateField({ allowZero: true }).optional(),
    oneWay: z.boolean().optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    const kind = e.kind ?? 'rate';
    if (kind === 'rate' && e.rate === undefined) ctx.addIssue({ code: 'custom', path: ['rate'], message: 'required with kind rate (the new rate; 0 stops the link)' });
    if (kind !== 'rate' && e.rate !== undefined) ctx.addIssue({ code: 'custom', path: ['rate'], message: `only with kind rate (this event is kind ${kind})` });
    if (e.link[0] === e.link[1]) ctx.addIssue({ code: 'custom', path: ['link'], message: 'a link joins two different nodes' });
  });

/**
 * A rotating circuit schedule (PowerTCP §5): slots of `period` from `start`, each a night
 * of `reconfigure` (every circuit down) then the slot's matching up; `matchings` lists
 * the matchings as lists of node pairs, or `roundRobin` (every ToR pair once per round,
 * the circle method); `until` ends it (every circuit up again).
 */
export const schedule = z
  .object({
    period: durationField({ positive: true }),
    reconfigure: durationField().default(0),
    matchings: z.union([z.literal('roundRobin'), z.array(z.array(pair).min(1)).min(1)], {
      error: 'expected "roundRobin" or a list of matchings, each a list of node pairs [a, b]',
    }),
    start: durationField().default(0),
    until: durationField({ positive: true }).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.reconfigure >= s.period) {
      ctx.addIssue({ code: 'custom', path: ['reconfigure'], message: `must be less than period (${formatTime(s.period)}): a slot needs time with its circuits up` });
    }
    if (s.until !== undefined && s.until <= s.start) ctx.addIssue({ code: 'custom', path: ['until'], message: `must be after start (${formatTime(s.start)})` });
    if (s.matchings === 'roundRobin') return;
    s.matchings.forEach((m, k) => {
      const where = new Map<number, number>();
      m.forEach(([a, b], j) => {
        if (a === b) ctx.addIssue({ code: 'custom', path: ['matchings', k, j], message: 'a circuit joins two different nodes' });
        for (const n of a === b ? [a] : [a, b]) {
          const i = where.get(n);
          if (i !== undefined) ctx.addIssue({ code: 'custom', path: ['matchings', k, j], message: `names node ${n} again (matchings[${k}][${i}] has it): a matching uses each node once` });
          else where.set(n, j);
        }
      });
    });
  });
