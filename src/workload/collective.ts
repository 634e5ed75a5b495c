/**
 * `type: collective`: the collective communication of distributed training
 * (issue 25; OSCAR §6.4 Fig 12 and CCC §6.4 Fig 12 run ring all-reduce jobs on
 * a spine-leaf fabric), as a closed-loop workload (docs/extending.md, "Adding
 * a workload"; docs/guide.md, "Collective workloads").
 *
 * Each group of hosts is an independent job. Ring algorithms (allreduce,
 * allgather, reducescatter): the N hosts of a group form a ring in the order
 * listed; the per-host buffer of `bytes` is split into N chunks of bytes/N;
 * in each step every host sends one chunk to its ring successor. Host h starts
 * its send of step k+1 once (a) its own step-k send finished and (b) its
 * predecessor's step-k chunk arrived (both are flow finishes: the flow of h
 * in step k is h -> succ(h)). reducescatter and allgather take N-1 steps,
 * allreduce 2(N-1) (reduce-scatter then allgather). alltoall (direct): every
 * host sends bytes/N to each of the N-1 others, all at once. An iteration
 * ends when every flow of its last step finished; the next starts `compute`
 * later. Each iteration is a `JobRecord` (jobs.csv).
 */
import { z } from 'zod';
import { durationField, hostId, posInt, sizeField } from '../engine/spec-fields.js';
import type { FinishedFlow, FlowInjector, JobRecord, WorkloadDriver } from './driver.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';

export const COLLECTIVE_OPS = ['allreduce', 'allgather', 'reducescatter', 'alltoall'] as const;
export type CollectiveOp = (typeof COLLECTIVE_OPS)[number];

const strideGroups = z.object({ size: z.number().int().min(2), stride: posInt }).strict();

const schema = z
  .object({
    type: z.literal('collective'),
    op: z.enum(COLLECTIVE_OPS),
    /** ring for allreduce / allgather / reducescatter, direct for alltoall (the defaults) */
    algorithm: z.enum(['ring', 'direct']).optional(),
    hosts: z.union([z.literal('all'), z.array(hostId).min(1)], { error: 'expected "all" or a list of host ids' }).optional(),
    groups: z.union([z.array(z.array(hostId)).min(1), strideGroups], { error: 'expected a list of host lists or { size, stride }' }).optional(),
    /** the buffer of each host per iteration */
    bytes: sizeField(),
    iterations: posInt.default(1),
    compute: durationField().default(0),
    start: durationField().default(0),
    tag: z.string().min(1).default('collective'),
  })
  .strict();

export type CollectiveEntry = z.output<typeof schema>;

/** Steps of one iteration of `op` among `n` hosts (alltoall: one step of n(n-1) flows). */
export function collectiveSteps(op: CollectiveOp, n: number): number {
  if (op === 'allreduce') return 2 * (n - 1);
  if (op === 'alltoall') return 1;
  return n - 1;
}

/** Flows of one iteration of `op` among `n` hosts. */
export function collectiveFlowsPerIteration(op: CollectiveOp, n: number): number {
  return op === 'alltoall' ? n * (n - 1) : collectiveSteps(op, n) * n;
}

/**
 * Groups of `{ size, stride }` over `hostCount` hosts: group g holds hosts
 * b, b+stride, ..., b+(size-1)stride with b = floor(g/stride)·size·stride +
 * g mod stride (with 4 hosts per leaf and stride 4, one host per leaf). Hosts
 * beyond the last whole block of size·stride are left out.
 */
export function strideGroupIds(size: number, stride: number, hostCount: number): number[][] {
  const block = size * stride;
  const count = Math.floor(hostCount / block) * stride;
  const out: number[][] = [];
  for (let g = 0; g < count; g++) {
    const base = Math.floor(g / stride) * block + (g % stride);
    const ids: number[] = [];
    for (let k = 0; k < size; k++) ids.push(base + k * stride);
    out.push(ids);
  }
  return out;
}

/** One job: a group's hosts in ring order and its progress. */
interface Job {
  readonly name: string;
  /** topology host ids, ring order */
  readonly hosts: Int32Array;
  /** bytes of one ring chunk (the buffer / N), or of one alltoall flow */
  readonly chunk: number;
  /** per ring position: sends started, sends finished, and predecessor chunks arrived, this iteration */
  readonly started: Int32Array;
  readonly sent: Int32Array;
  readonly received: Int32Array;
  iteration: number;
  iterationStartPs: number;
  finishedInIteration: number;
  over: boolean;
}

/** The driver of one entry: all its groups (jobs). Deterministic: uses no randomness. */
export class CollectiveDriver implements WorkloadDriver {
  private readonly jobs: Job[];
  private readonly steps: number[];
  private readonly perIteration: number[];
  /** flow id -> job index * 2^20 + ring position (the flows in flight of this driver) */
  private readonly inFlight = new Map<number, number>();
  private readonly records: JobRecord[] = [];
  private active: number;

  constructor(
    groups: readonly (readonly number[])[],
    private readonly e: CollectiveEntry,
  ) {
    this.jobs = groups.map((g, j) => ({
      name: groups.length === 1 ? e.tag : `${e.tag}/${j}`,
      hosts: Int32Array.from(g),
      chunk: e.bytes / g.length,
      started: new Int32Array(g.length),
      sent: new Int32Array(g.length),
      received: new Int32Array(g.length),
      iteration: 0,
      iterationStartPs: 0,
      finishedInIteration: 0,
      over: false,
    }));
    this.steps = groups.map((g) => collectiveSteps(e.op, g.length));
    this.perIteration = groups.map((g) => collectiveFlowsPerIteration(e.op, g.length));
    this.active = groups.length;
  }

  begin(inj: FlowInjector): void {
    for (let j = 0; j < this.jobs.length; j++) {
      if (this.e.start === 0) this.startIteration(j, inj);
      else inj.wakeAt(this.e.start, j);
    }
  }

  onWake(token: number, inj: FlowInjector): void {
    this.startIteration(token, inj);
  }

  private startIteration(j: number, inj: FlowInjector): void {
    const job = this.jobs[j]!;
    job.iterationStartPs = inj.nowPs;
    job.finishedInIteration = 0;
    job.started.fill(0);
    job.sent.fill(0);
    job.received.fill(0);
    const n = job.hosts.length;
    if (this.e.op === 'alltoall') {
      const each = job.chunk;
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          if (a === b) continue;
          const id = inj.start({ src: job.hosts[a]!, dst: job.hosts[b]!, bytes: each, tag: this.e.tag });
          this.inFlight.set(id, j * 2 ** 20 + a);
        }
      }
      return;
    }
    for (let p = 0; p < n; p++) this.trySend(j, p, inj);
  }

  /**
   * Ring position `p` of job `j` sends its next chunk (step s) to its successor
   * if it may: its step s-1 send finished and its predecessor's step s-1 chunk arrived.
   */
  private trySend(j: number, p: number, inj: FlowInjector): void {
    const job = this.jobs[j]!;
    const s = job.started[p]!;
    if (s >= this.steps[j]! || job.sent[p]! < s || job.received[p]! < s) return;
    job.started[p] = s + 1;
    const n = job.hosts.length;
    const id = inj.start({ src: job.hosts[p]!, dst: job.hosts[(p + 1) % n]!, bytes: job.chunk, tag: this.e.tag });
    this.inFlight.set(id, j * 2 ** 20 + p);
  }

  onFlowFinished(f: FinishedFlow, inj: FlowInjector): void {
    const key = this.inFlight.get(f.id);
    if (key === undefined) return;
    this.inFlight.delete(f.id);
    const j = Math.floor(key / 2 ** 20);
    const p = key - j * 2 ** 20;
    const job = this.jobs[j]!;
    job.finishedInIteration++;
    if (this.e.op !== 'alltoall') {
      // p's send finished and its successor q has p's chunk: either may start its next step
      const q = (p + 1) % job.hosts.length;
      job.sent[p]!++;
      job.received[q]!++;
      this.trySend(j, p, inj);
      this.trySend(j, q, inj);
    }
    if (job.finishedInIteration < this.perIteration[j]!) return;
    // the iteration is over (OSCAR §6.4 Fig 12: the time of one all-reduce)
    this.records.push({
      job: job.name,
      iteration: job.iteration,
      startPs: job.iterationStartPs,
      finishPs: inj.nowPs,
      bytes: this.perIteration[j]! * job.chunk,
    });
    job.iteration++;
    if (job.iteration >= this.e.iterations) {
      job.over = true;
      this.active--;
    } else if (this.e.compute === 0) this.startIteration(j, inj);
    else inj.wakeAt(inj.nowPs + this.e.compute, j);
  }

  done(): boolean {
    return this.active === 0;
  }

  report(): JobRecord[] {
    return this.records.map((r) => ({ ...r }));
  }
}

function prepareCollective(e: CollectiveEntry, ctx: WorkloadContext): PreparedWorkload {
  const ring = e.op !== 'alltoall';
  const algorithm = e.algorithm ?? (ring ? 'ring' : 'direct');
  if (ring && algorithm !== 'ring') ctx.error(['algorithm'], `${e.op} runs as a ring (algorithm: ring); direct is for alltoall`);
  if (!ring && algorithm !== 'direct') ctx.error(['algorithm'], 'alltoall runs direct (every host sends to every other at once); ring is for allreduce, allgather and reducescatter');

  // the groups, as spec ids with the path of each
  let idGroups: { ids: 'all' | readonly number[]; path: (string | number)[] }[] = [];
  if ((e.hosts === undefined) === (e.groups === undefined)) {
    ctx.error(e.hosts === undefined ? [] : ['groups'], 'give hosts or groups (one of them)', e.hosts === undefined ? 'neither' : 'both');
  } else if (e.hosts !== undefined) {
    idGroups = [{ ids: e.hosts, path: ['hosts'] }];
  } else if (Array.isArray(e.groups)) {
    idGroups = e.groups.map((ids, j) => ({ ids, path: ['groups', j] }));
  } else if (e.groups !== undefined) {
    const list = strideGroupIds(e.groups.size, e.groups.stride, ctx.hostCount);
    if (list.length === 0) ctx.error(['groups'], `no group fits: size x stride = ${e.groups.size * e.groups.stride} exceeds the ${ctx.hostCount} hosts`, e.groups);
    idGroups = list.map((ids) => ({ ids, path: ['groups'] }));
  }

  const groups: number[][] = [];
  const seen = new Map<number, string>();
  for (const g of idGroups) {
    const where = g.path.length === 2 ? `groups[${g.path[1]}]` : String(g.path[0]);
    const hosts = ctx.hostSelection(g.ids, g.path);
    if (hosts.length < 2) ctx.error(g.path, 'a group needs at least 2 hosts', g.ids);
    if (g.ids !== 'all') g.ids.forEach((id, k) => {
      const other = seen.get(id);
      if (other !== undefined && other !== where) ctx.error([...g.path, k], `listed twice (also in ${other})`, id);
      seen.set(id, where);
    });
    groups.push(hosts);
  }
  const sizes = new Set(groups.map((g) => g.length));
  for (const n of sizes) {
    if (n >= 2 && e.bytes % n !== 0) ctx.error(['bytes'], `not divisible by the ${n} hosts of a group (the buffer is split into ${n} equal chunks)`, e.bytes);
  }

  let flows = 0;
  let bytes = 0;
  for (const g of groups) {
    const n = g.length;
    const per = collectiveFlowsPerIteration(e.op, n);
    flows += e.iterations * per;
    bytes += e.iterations * per * Math.floor(e.bytes / Math.max(n, 1));
  }
  return {
    estimate: { flows, bytes, receivers: groups.flat() },
    tags: [e.tag],
    driver: () => new CollectiveDriver(groups, e),
  };
}

/** `type: collective`: ring all-reduce / allgather / reduce-scatter and direct all-to-all among groups of hosts. */
export const collectiveWorkload: WorkloadDefinition<CollectiveEntry> = {
  type: 'collective',
  summary: 'collective jobs: ring allreduce / allgather / reducescatter, direct alltoall, per group, iterations with compute gaps',
  schema,
  startTimes: (e) => [[['start'], e.start] as const],
  prepare: prepareCollective,
};
