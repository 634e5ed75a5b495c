/**
 * `type: passes`: the training traffic of the OSCAR artifact's Fig 12 (OSCAR §6.4; the
 * artifact's "Parallelism" traffic pattern, experiments/oscar/README.md "What the OSCAR
 * artifact's Fig 12 runs and plots"), as a closed-loop workload (docs/extending.md,
 * "Adding a workload"). Unlike `type: collective`, whose ring steps run in lock step and
 * whose metric is the time of one collective, a member here sends passes back to back
 * over a fixed window and the metric is how many flows were started in it.
 *
 * `pattern: ring` (data parallelism): the N members of a group form a ring in the order
 * listed. Each pass of a member is ONE flow of `flowBytes` (default floor(2(N-1)/N x
 * modelBytes), a ring all-reduce's traffic per member) to its ring successor. Every
 * member starts its first pass at `start`. A member's next pass is triggered when it has
 * received `modelBytes` of one of its predecessor's flows in order (`trigger: model`,
 * the artifact's receiver, which compares the bytes it read of a flow with the model's
 * size) or the whole flow (`trigger: flow`), and starts `compute` after that; each
 * received flow triggers one pass, so passes of one member may overlap on its link. No
 * pass is triggered at or after `start + window`; flows triggered before it still start.
 * The run then ends when every flow has finished.
 *
 * `pattern: moe` (expert parallelism, the artifact's MOE type): every member sends one
 * flow of `flowBytes` at `start` to an expert drawn from `experts` (a group member other
 * than itself: a draw of itself is drawn again; each group draws from its own stream forked
 * from the entry's, so a group's experts do not depend on the other groups' timing). A group's
 * pass ends when all its flows have been received whole (a barrier); then every member
 * sends one new flow per flow it received in that pass, to a fresh draw, `compute` later
 * (the artifact's receivers poll the barrier every 1 us: that lag is not modelled). A
 * pass whose barrier falls at or after `start + window` starts no flows.
 *
 * Each group reports one job record (jobs.csv): from `start` to its last pass's start,
 * with the bytes of all its passes; the flows themselves carry `tag`.
 */
import { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import { durationField, sizeField } from '../engine/spec-fields.js';
import { groupsField, hostsField, resolveGroups } from './collective.js';
import { drawExpert, expertCdf, expertsSchema } from './collective-moe.js';
import type { FlowInjector, JobRecord, WorkloadDriver } from './driver.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';

const schema = z
  .object({
    type: z.literal('passes'),
    pattern: z.enum(['ring', 'moe']).default('ring'),
    hosts: hostsField,
    groups: groupsField,
    /** ring: the model's gradient bytes per member (the artifact: the sum of its layers' weight-gradient sizes) */
    modelBytes: sizeField({ bare: true, min: 1 }).optional(),
    /** bytes of one pass's flow; ring default floor(2(N-1)/N x modelBytes); moe: required */
    flowBytes: sizeField({ bare: true, min: 1 }).optional(),
    /** moe: the experts' selection weights, one per group member (collective-moe.ts) */
    experts: expertsSchema.optional(),
    /** ring: what triggers a member's next pass: `model` bytes of its predecessor's flow received (the artifact), or the whole `flow` */
    trigger: z.enum(['model', 'flow']).optional(),
    /** from the trigger to the next pass's start */
    compute: durationField(),
    start: durationField().default(0),
    /** passes are triggered only before start + window */
    window: durationField({ positive: true }),
    tag: z.string().min(1).default('passes'),
  })
  .strict();

export type PassesEntry = z.output<typeof schema>;

/** What a passes driver runs (resolved by `prepare`). */
export interface PassesPlan {
  /** bytes of one pass's flow, per group size */
  readonly flowBytesOf: (n: number) => number;
  /** in-order bytes at the successor that trigger its next pass, per group size */
  readonly triggerBytesOf: (n: number) => number;
  readonly computePs: number;
  /** moe: the expert-selection CDF per group size (else undefined: a ring) */
  readonly moeCdfOf?: (n: number) => Float64Array;
  readonly startPs: number;
  readonly windowPs: number;
  readonly tag: string;
}

/** Bytes of a ring pass's flow among `n` members (the artifact truncates 2(n-1)/n x model bytes to whole bytes). */
export function ringFlowBytes(modelBytes: number, n: number): number {
  return Math.floor(2 * ((n - 1) / n) * modelBytes);
}

const KEY = 2 ** 20;
/** moe: the wake-up token's member part for a group's barrier (members are below it) */
const BARRIER = KEY - 1;

/** The driver of one entry: every group's ring of passes. */
export class PassesDriver implements WorkloadDriver {
  private readonly hosts: Int32Array[];
  private readonly flowBytes: Float64Array;
  private readonly triggerBytes: Float64Array;
  /** per group: passes started, bytes, and the start of the last pass (ps) */
  private readonly started: Int32Array;
  private readonly bytes: Float64Array;
  private readonly lastStartPs: Float64Array;
  /** flow id -> group * 2^20 + ring position of its sender, until the flow triggers the next pass */
  private readonly awaiting = new Map<number, number>();
  private pendingWakes = 0;
  /** false until `begin` (the run asks `done` before it starts the drivers) */
  private begun = false;

  /** moe: per group, its own stream of draws (forked from the entry's: a group draws the same experts whatever the CC, as long as its passes do), the selection CDF, flows of the pass not yet received, and per member the flows it received in this pass */
  private readonly rngs: Rng[];
  private readonly cdf: Float64Array[];
  private readonly open: Int32Array;
  private readonly got: Int32Array[];

  constructor(
    groups: readonly (readonly number[])[],
    private readonly p: PassesPlan,
    rng: Rng | undefined,
  ) {
    this.hosts = groups.map((g) => Int32Array.from(g));
    this.rngs = rng === undefined ? [] : groups.map((_, j) => rng.fork(`group${j}`));
    this.cdf = p.moeCdfOf === undefined ? [] : groups.map((g) => p.moeCdfOf!(g.length));
    this.open = new Int32Array(groups.length);
    this.got = groups.map((g) => new Int32Array(g.length));
    this.flowBytes = Float64Array.from(groups, (g) => p.flowBytesOf(g.length));
    this.triggerBytes = Float64Array.from(groups, (g) => p.triggerBytesOf(g.length));
    this.started = new Int32Array(groups.length);
    this.bytes = new Float64Array(groups.length);
    this.lastStartPs = new Float64Array(groups.length);
  }

  begin(inj: FlowInjector): void {
    this.begun = true;
    for (let j = 0; j < this.hosts.length; j++) {
      for (let q = 0; q < this.hosts[j]!.length; q++) {
        if (this.p.startPs === 0) this.pass(j, q, inj);
        else this.arm(this.p.startPs, j * KEY + q, inj);
      }
    }
  }

  /** Member `q` of group `j` starts a pass now: one flow to its ring successor, or to a drawn expert. */
  private pass(j: number, q: number, inj: FlowInjector): void {
    const h = this.hosts[j]!;
    let dst = (q + 1) % h.length;
    const rng = this.rngs[j];
    if (rng !== undefined) {
      // the artifact draws again while the draw is the sender itself
      do dst = drawExpert(this.cdf[j]!, rng);
      while (dst === q);
      this.open[j]!++;
    }
    const id = inj.start({ src: h[q]!, dst: h[dst]!, bytes: this.flowBytes[j]!, tag: this.p.tag, notifyAtBytes: this.triggerBytes[j]! });
    this.awaiting.set(id, j * KEY + (rng !== undefined ? dst : q));
    this.started[j]!++;
    this.bytes[j]! += this.flowBytes[j]!;
    this.lastStartPs[j] = inj.nowPs;
  }

  private arm(atPs: number, token: number, inj: FlowInjector): void {
    this.pendingWakes++;
    inj.wakeAt(atPs, token);
  }

  onWake(token: number, inj: FlowInjector): void {
    this.pendingWakes--;
    const j = Math.floor(token / KEY);
    if (token - j * KEY !== BARRIER) {
      this.pass(j, token - j * KEY, inj);
      return;
    }
    // moe: the group's pass after a barrier: each member sends one flow per flow it received
    const got = this.got[j]!;
    for (let q = 0; q < got.length; q++) {
      const k = got[q]!;
      got[q] = 0;
      for (let i = 0; i < k; i++) this.pass(j, q, inj);
    }
  }

  /** The successor of the flow's sender has its trigger bytes: it starts its next pass `compute` later, if the window is open. */
  onFlowReceived(id: number, inj: FlowInjector): void {
    const key = this.awaiting.get(id);
    if (key === undefined) return;
    this.awaiting.delete(id);
    if (this.rngs.length > 0) {
      this.received(key, inj);
      return;
    }
    if (inj.nowPs >= this.p.startPs + this.p.windowPs) return;
    const j = Math.floor(key / KEY);
    const r = (key - j * KEY + 1) % this.hosts[j]!.length;
    if (this.p.computePs === 0) this.pass(j, r, inj);
    else this.arm(inj.nowPs + this.p.computePs, j * KEY + r, inj);
  }

  /** moe: expert `key` (group * 2^20 + member) received a whole flow; the last one of the group's pass opens the next. */
  private received(key: number, inj: FlowInjector): void {
    const j = Math.floor(key / KEY);
    this.got[j]![key - j * KEY]!++;
    if (--this.open[j]! > 0 || inj.nowPs >= this.p.startPs + this.p.windowPs) return;
    // one wake-up per group (onWake sends every member's flows)
    if (this.p.computePs > 0) this.arm(inj.nowPs + this.p.computePs, j * KEY + BARRIER, inj);
    else {
      this.pendingWakes++;
      this.onWake(j * KEY + BARRIER, inj);
    }
  }

  /** Passes started so far, per group. */
  passesStarted(): number[] {
    return [...this.started];
  }

  done(): boolean {
    return this.begun && this.awaiting.size === 0 && this.pendingWakes === 0;
  }

  report(): JobRecord[] {
    return this.hosts.map((_, j) => ({
      job: this.hosts.length === 1 ? this.p.tag : `${this.p.tag}/${j}`,
      iteration: 0,
      startPs: this.p.startPs,
      finishPs: this.lastStartPs[j]!,
      bytes: this.bytes[j]!,
    }));
  }
}

function preparePasses(e: PassesEntry, ctx: WorkloadContext): PreparedWorkload {
  const groups = resolveGroups(e, ctx);
  const moe = e.pattern === 'moe';
  const model = e.modelBytes ?? 0;
  const trigger = e.trigger ?? (moe ? 'flow' : 'model');
  if (moe) {
    if (e.modelBytes !== undefined) ctx.error(['modelBytes'], 'only with pattern ring (moe sends flowBytes per pass)');
    if (trigger !== 'flow') ctx.error(['trigger'], 'moe passes end when every flow was received whole (trigger: flow)');
    if (e.flowBytes === undefined) ctx.error(['flowBytes'], 'give flowBytes (what each member sends per flow)', 'missing');
    if (e.experts === undefined) ctx.error(['experts'], 'give experts (their selection weights)', 'missing');
    else for (const n of new Set(groups.map((g) => g.length))) {
      const c = expertCdf(e.experts, n);
      if (typeof c === 'string') ctx.error(['experts'], c, e.experts);
    }
  } else {
    if (e.experts !== undefined) ctx.error(['experts'], 'only with pattern moe');
    if (e.modelBytes === undefined) ctx.error(['modelBytes'], 'give modelBytes (the gradient bytes of the model)', 'missing');
  }
  const flowBytesOf = (n: number): number => e.flowBytes ?? ringFlowBytes(model, n);
  for (const g of groups) {
    const fb = flowBytesOf(g.length);
    if (!moe && trigger === 'model' && model > fb) ctx.error(['modelBytes'], `more than the ${fb} bytes of a pass's flow (trigger: model waits for this many bytes of it)`, model);
  }
  const x = e.experts;
  const plan: PassesPlan = {
    flowBytesOf,
    triggerBytesOf: (n) => (trigger === 'model' ? Math.min(model, flowBytesOf(n)) : flowBytesOf(n)),
    ...(moe && x !== undefined ? { moeCdfOf: (n: number) => expertCdf(x, n) as Float64Array } : {}),
    computePs: e.compute,
    startPs: e.start,
    windowPs: e.window,
    tag: e.tag,
  };
  // an upper bound for the input limits: a pass per member every (trigger bytes at line rate + compute);
  // moe: a pass lasts at least as long as the most popular expert takes to receive its share
  let flows = 0;
  let bytes = 0;
  for (const g of groups) {
    const rate = Math.max(1, ...g.map((h) => ctx.hostRate[h] ?? 0));
    let share = 1;
    if (plan.moeCdfOf !== undefined) {
      const c = plan.moeCdfOf(g.length);
      let top = 0;
      for (let k = 0; k < c.length; k++) top = Math.max(top, c[k]! - (k > 0 ? c[k - 1]! : 0));
      share = Math.max(1, top * g.length);
    }
    const cyclePs = e.compute + (share * plan.triggerBytesOf(g.length) * 8 * 1e12) / rate;
    const per = g.length * (1 + Math.ceil(e.window / Math.max(1, cyclePs)));
    flows += per;
    bytes += per * flowBytesOf(g.length);
  }
  return {
    estimate: { flows, bytes, receivers: groups.flat() },
    tags: [e.tag],
    driver: (rng) => new PassesDriver(groups, plan, moe ? rng : undefined),
  };
}

/** `type: passes`: the OSCAR artifact's training passes (one flow per member per pass, back to back over a window). */
export const passesWorkload: WorkloadDefinition<PassesEntry> = {
  type: 'passes',
  summary: "training passes as the OSCAR artifact's Fig 12 runs them: per member one flow per pass to its ring successor, the next pass a compute gap after the trigger bytes arrive, over a window",
  schema,
  startTimes: (e) => [[['start'], e.start] as const],
  prepare: preparePasses,
};
