/**
 * `homa`: Homa, the receiver-driven transport with network priorities
 * (Montazeri et al., SIGCOMM'18), as PowerTCP runs it as a baseline
 * (PowerTCP §4.1: `RTTbytes` = base RTT (the topology's max) x HostBw,
 * overcommitment 1; App. C, Figs 9-11: overcommitment 1-6).
 *
 * Homa is not a congestion control in the window / rate sense: a sender
 * sends the first `RTTbytes` of a message unscheduled at line rate, and the
 * rest only against grants from the receiver, which grants to at most
 * `overcommitment` incoming messages at a time, shortest remaining first
 * (SRPT), each keeping `RTTbytes` outstanding (Homa §3.2-§3.5). That part is
 * a send driver of the transport (src/transport/homa.ts); this file holds the
 * parameters, the priority allocation (Homa §3.4) and the network settings
 * Homa needs (`network`, applied by the spec resolution; cc/network-settings.ts).
 *
 * Priorities (Homa §3.4): `priorities` levels, the highest numbered first
 * (strict priority at every switch port). The top `unscheduledPriorities`
 * carry unscheduled bytes, shorter messages higher, with cutoffs that give
 * each level an equal share of the workload's unscheduled bytes; their
 * number is the workload's unscheduled fraction of bytes times `priorities`.
 * The rest carry scheduled bytes, the priority set by the receiver in each
 * grant from the message's SRPT rank, using the lowest levels when fewer
 * messages are granted than there are levels.
 */
import { z } from 'zod';
import { sizeField } from '../engine/spec-fields.js';
import type { CcDefinition, CcInstance } from './types.js';

const params = z
  .object({
    // grants carry credit x 8 + level in a 32-bit word (transport/homa.ts): at most 2^27 bytes
    rttBytes: sizeField({ min: 0, max: 2 ** 27, bare: true })
      .default(0)
      .describe('RTTbytes (Homa §3.2): bytes a sender sends unscheduled, and the bytes each granted message keeps outstanding; 0 = max base RTT x host link rate (PowerTCP §4.1)'),
    overcommitment: z
      .number()
      .int()
      .min(1)
      .max(8)
      .default(1)
      .describe('degree of overcommitment (Homa §3.5): incoming messages a receiver grants to at once (PowerTCP §4.1: 1; App. C: 1-6)'),
    priorities: z.number().int().min(2).max(8).default(8).describe('priority levels (Homa §3.4), switch queues 0..priorities-1, highest first'),
    unscheduledPriorities: z
      .number()
      .int()
      .min(0)
      .max(7)
      .default(0)
      .describe("levels for unscheduled bytes (Homa §3.4); 0 = the workload's unscheduled fraction of bytes x priorities"),
    unscheduledCutoffsBytes: z
      .array(sizeField({ min: 1, bare: true }))
      .default([])
      .describe('message-size cutoffs of the unscheduled levels, ascending (size <= cutoff[0]: the highest level); [] = equal unscheduled bytes per level from the workload'),
  })
  .strict()
  .superRefine((p, ctx) => {
    const c = p.unscheduledCutoffsBytes;
    for (let i = 1; i < c.length; i++) {
      if (c[i]! <= c[i - 1]!) ctx.addIssue({ code: 'custom', path: ['unscheduledCutoffsBytes', i], message: 'cutoffs must be ascending' });
    }
    if (p.unscheduledPriorities >= p.priorities) {
      ctx.addIssue({ code: 'custom', path: ['unscheduledPriorities'], message: `must leave a scheduled level (< priorities, ${p.priorities})` });
    }
    if (c.length > 0 && p.unscheduledPriorities > 0 && c.length !== p.unscheduledPriorities - 1) {
      ctx.addIssue({ code: 'custom', path: ['unscheduledCutoffsBytes'], message: `${p.unscheduledPriorities} unscheduled levels take ${p.unscheduledPriorities - 1} cutoffs` });
    }
    if (c.length >= p.priorities - 1) {
      ctx.addIssue({ code: 'custom', path: ['unscheduledCutoffsBytes'], message: `at most ${p.priorities - 2} cutoffs (one scheduled level must remain)` });
    }
  });

export type HomaParams = z.output<typeof params>;

/** The priority plan of a run (Homa §3.4): how many levels carry unscheduled bytes and their size cutoffs. */
export interface HomaPriorityPlan {
  /** levels in all (switch queues 0..levels-1) */
  levels: number;
  /** the top `unscheduled` levels carry unscheduled bytes */
  unscheduled: number;
  /** ascending message sizes: size <= cutoffs[j] goes to level levels-1-j; larger to levels-unscheduled */
  cutoffs: number[];
}

/**
 * Homa's priority allocation (§3.4) for messages of sizes `sizes` and
 * `rttBytes` unscheduled bytes each: unscheduled levels in proportion to the
 * unscheduled share of all bytes (at least one, leaving one scheduled), cut
 * so that each level carries an equal share of the unscheduled bytes. The
 * parameters override either part. No sizes (a streamed or closed-loop
 * workload): one unscheduled level.
 */
export function homaPriorityPlan(sizes: ArrayLike<number>, rttBytes: number, p: HomaParams): HomaPriorityPlan {
  const levels = p.priorities;
  const given = p.unscheduledCutoffsBytes;
  if (given.length > 0) return { levels, unscheduled: given.length + 1, cutoffs: [...given] };
  const sorted = Float64Array.from(sizes).sort();
  let total = 0;
  let unsched = 0;
  for (const s of sorted) {
    total += s;
    unsched += Math.min(s, rttBytes);
  }
  let u = p.unscheduledPriorities;
  if (u === 0) u = total > 0 ? Math.round((levels * unsched) / total) : 1;
  u = Math.max(1, Math.min(levels - 1, u));
  const cutoffs: number[] = [];
  const n = sorted.length;
  let acc = 0;
  let j = 1;
  for (let i = 0; i < n && j < u; i++) {
    const s = sorted[i]!;
    acc += Math.min(s, rttBytes);
    // a boundary falls only between two sizes, and never after the largest
    if ((i + 1 < n && sorted[i + 1] === s) || s === sorted[n - 1]) continue;
    while (j < u && acc >= (j * unsched) / u) {
      if (cutoffs.length === 0 || s > cutoffs[cutoffs.length - 1]!) cutoffs.push(s);
      j++;
    }
  }
  return { levels, unscheduled: cutoffs.length + 1, cutoffs };
}

/** The unscheduled level of a message of `size` bytes under `plan`. */
export function homaUnscheduledLevel(plan: HomaPriorityPlan, size: number): number {
  const c = plan.cutoffs;
  let j = 0;
  while (j < c.length && size > c[j]!) j++;
  return plan.levels - 1 - j;
}

/**
 * The scheduled level of the message of SRPT rank `rank` (0 = fewest bytes
 * left) among `granted` messages granted at once, with `scheduledLevels`
 * levels 0..scheduledLevels-1 (Homa §3.4: the lowest levels when there are
 * fewer messages than levels, so a new shorter message can preempt).
 */
export function homaScheduledLevel(rank: number, granted: number, scheduledLevels: number): number {
  const top = (granted < scheduledLevels ? granted : scheduledLevels) - 1 - rank;
  return top > 0 ? top : 0;
}

const instance: CcInstance = { onAck() {} };

export const homaCc: CcDefinition<typeof params> = {
  name: 'homa',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'Homa: receiver grants by SRPT, RTTbytes unscheduled, 8 priority levels, overcommitment (receiver-driven)',
  reference: 'Montazeri et al., SIGCOMM 2018, §3.2-§3.5; PowerTCP §4.1 and App. C',
  params,
  // grants (ACKs) travel at the highest level (Homa §3.4: control packets at the top priority)
  needs: { highPriorityAcks: true },
  network: () => [
    { path: ['transport', 'sendDriver'], value: 'homa', why: 'the receiver schedules the sender by grants (Homa §3.3)' },
    { path: ['switch', 'service'], value: 'strict', why: "Homa's priority levels need strict priority at every port (Homa §3.4)" },
    { path: ['switch', 'discipline'], value: 'strict', why: "Homa's priority levels need strict priority at every port (Homa §3.4)" },
    { path: ['switch', 'queue0Control'], value: false, why: 'all 8 queues carry priority levels (Homa §3.4)' },
    {
      path: ['switch', 'pfcEnabled'],
      value: true,
      why: 'PowerTCP ran Homa on its lossless set-up (§4.1, PFC on every class) and this model has no RESEND (Homa §3.7)',
    },
    { path: ['switch', 'pfcMode'], value: 'onOff', why: 'the send driver holds a flow whose next level is paused and looks again at each resume frame' },
    { path: ['transport', 'retxMode'], value: 'none', why: 'priority levels reorder a message on a lossless fabric; nothing to resend' },
  ],
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  // no window: grants alone limit what is in flight; line rate (Homa §3.2)
  initialCwnd: () => Infinity,
  create: () => instance,
};
