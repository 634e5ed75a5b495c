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
 *
 * Training forms: `model` all-reduces a shipped model's gradients in buckets
 * (collective-model.ts: each bucket 2(N-1) ring steps, the ring rule carrying
 * across buckets) after the model's compute time; `experts` makes alltoall a
 * mixture-of-experts pass with seeded destinations (collective-moe.ts);
 * `schedule` runs a schedule file instead of an op (collective-schedule.ts).
 */
import { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import { durationField, hostId, posInt, sizeField } from '../engine/spec-fields.js';
import { MODEL_NAMES, gradientBuckets, loadModel, modelComputePs, type ModelName } from './collective-model.js';
import { expertCdf, expertsSchema, moePass } from './collective-moe.js';
import { ScheduleDriver, parseSchedule, scheduleSize, type Schedule } from './collective-schedule.js';
import type { FinishedFlow, FlowInjector, JobRecord, WorkloadDriver } from './driver.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';

export const COLLECTIVE_OPS = ['allreduce', 'allgather', 'reducescatter', 'alltoall'] as const;
export type CollectiveOp = (typeof COLLECTIVE_OPS)[number];

const strideGroups = z.object({ size: z.number().int().min(2), stride: posInt }).strict();
/** `hosts` / `groups` of an entry whose groups of hosts each run one job (also passes.ts) */
export const hostsField = z.union([z.literal('all'), z.array(hostId).min(1)], { error: 'expected "all" or a list of host ids' }).optional();
export const groupsField = z.union([z.array(z.array(hostId)).min(1), strideGroups], { error: 'expected a list of host lists or { size, stride }' }).optional();

/** PyTorch DDP's default gradient bucket (25 MiB) */
export const DEFAULT_BUCKET_BYTES = 25 * 2 ** 20;

const schema = z
  .object({
    type: z.literal('collective'),
    /** required unless `schedule` gives the steps */
    op: z.enum(COLLECTIVE_OPS).optional(),
    /** ring for allreduce / allgather / reducescatter, direct for alltoall (the defaults) */
    algorithm: z.enum(['ring', 'direct']).optional(),
    hosts: hostsField,
    groups: groupsField,
    /** the buffer of each host per iteration (alltoall with experts: what each host sends per pass) */
    bytes: sizeField({ bare: true }).optional(),
    /** all-reduce a model's gradients (collective-model.ts), instead of `bytes` */
    model: z.string().min(1).optional(),
    /** gradient bucket cap (bytes, default DEFAULT_BUCKET_BYTES), or `layer` for one all-reduce per layer */
    bucket: z.union([z.literal('layer'), sizeField()]).optional(),
    /** scales the model's gradient bytes (reduced-size runs) */
    scale: z.number().gt(0).max(1).default(1),
    /** scales the model's compute time (0: none) */
    computeScale: z.number().min(0).default(1),
    /** alltoall: mixture-of-experts destinations (collective-moe.ts) */
    experts: expertsSchema.optional(),
    /** a schedule file (collective-schedule.ts), relative to the spec */
    schedule: z.string().min(1).optional(),
    iterations: posInt.default(1),
    /** between iterations; with `model` before each iteration, default the model's compute time */
    compute: durationField().optional(),
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

/** What a collective driver runs, per entry (resolved by `prepare`). */
export interface CollectivePlan {
  op: CollectiveOp;
  /** ring ops: bytes of one chunk per ring step (a model's buckets give several sizes); alltoall: [bytes per flow] */
  readonly chunksOf: (n: number) => Float64Array;
  /** alltoall with experts: the selection CDF per group size, bytes per pass and draws */
  readonly moe?: { cdfOf: (n: number) => Float64Array; bytes: number; draws: number };
  iterations: number;
  /** ps; before every iteration when `computeFirst`, else between iterations */
  compute: number;
  computeFirst: boolean;
  start: number;
  tag: string;
}

/** One job: a group's hosts in ring order and its progress. */
interface Job {
  readonly name: string;
  /** topology host ids, ring order */
  readonly hosts: Int32Array;
  /** per ring step, the chunk bytes (alltoall: one entry, the flow bytes) */
  readonly chunks: Float64Array;
  readonly cdf: Float64Array | undefined;
  /** per ring position: sends started, sends finished, and predecessor chunks arrived, this iteration */
  readonly started: Int32Array;
  readonly sent: Int32Array;
  readonly received: Int32Array;
  iteration: number;
  iterationStartPs: number;
  /** flows of this iteration started, finished, and their bytes */
  flowsStarted: number;
  flowsFinished: number;
  bytes: number;
}

/**
 * The driver of one entry: all its groups (jobs). Uses the entry's random
 * stream only for the experts of a MoE all-to-all.
 */
export class CollectiveDriver implements WorkloadDriver {
  private readonly jobs: Job[];
  /** flow id -> job index * 2^20 + ring position (the flows in flight of this driver) */
  private readonly inFlight = new Map<number, number>();
  private readonly records: JobRecord[] = [];
  private readonly pass: Float64Array;
  private active: number;

  constructor(
    groups: readonly (readonly number[])[],
    private readonly p: CollectivePlan,
    private readonly rng: Rng | undefined,
  ) {
    this.jobs = groups.map((g, j) => ({
      name: groups.length === 1 ? p.tag : `${p.tag}/${j}`,
      hosts: Int32Array.from(g),
      chunks: p.chunksOf(g.length),
      cdf: p.moe?.cdfOf(g.length),
      started: new Int32Array(g.length),
      sent: new Int32Array(g.length),
      received: new Int32Array(g.length),
      iteration: 0,
      iterationStartPs: 0,
      flowsStarted: 0,
      flowsFinished: 0,
      bytes: 0,
    }));
    this.pass = new Float64Array(Math.max(0, ...groups.map((g) => g.length)));
    this.active = groups.length;
  }

  begin(inj: FlowInjector): void {
    const first = this.p.start + (this.p.computeFirst ? this.p.compute : 0);
    for (let j = 0; j < this.jobs.length; j++) {
      if (first === 0) this.startIteration(j, inj);
      else inj.wakeAt(first, j);
    }
  }

  onWake(token: number, inj: FlowInjector): void {
    this.startIteration(token, inj);
  }

  repeatsIterations(): boolean {
    // one job; MoE draws new experts every pass
    return this.jobs.length === 1 && this.p.moe === undefined;
  }

  private flow(j: number, a: number, b: number, bytes: number, inj: FlowInjector): void {
    const job = this.jobs[j]!;
    const id = inj.start({ src: job.hosts[a]!, dst: job.hosts[b]!, bytes, tag: this.p.tag });
    this.inFlight.set(id, j * 2 ** 20 + a);
    job.flowsStarted++;
    job.bytes += bytes;
  }

  private startIteration(j: number, inj: FlowInjector): void {
    const job = this.jobs[j]!;
    job.iterationStartPs = inj.nowPs;
    job.flowsStarted = 0;
    job.flowsFinished = 0;
    job.bytes = 0;
    job.started.fill(0);
    job.sent.fill(0);
    job.received.fill(0);
    const n = job.hosts.length;
    if (this.p.op !== 'alltoall') {
      for (let q = 0; q < n; q++) this.trySend(j, q, inj);
      return;
    }
    const moe = this.p.moe;
    for (let a = 0; a < n; a++) {
      if (moe === undefined) {
        for (let b = 0; b < n; b++) if (a !== b) this.flow(j, a, b, job.chunks[0]!, inj);
        continue;
      }
      // MoE: this pass's destinations drawn from the expert-selection distribution (collective-moe.ts)
      moePass(job.cdf!, a, moe.bytes, moe.draws, this.rng!, this.pass);
      for (let b = 0; b < n; b++) if (this.pass[b]! > 0) this.flow(j, a, b, this.pass[b]!, inj);
    }
    // every draw of the pass stayed local: the pass is over as it starts
    if (job.flowsStarted === 0) this.endIteration(j, inj);
  }

  /**
   * Ring position `q` of job `j` sends its next chunk (step s) to its successor
   * if it may: its step s-1 send finished and its predecessor's step s-1 chunk arrived.
   */
  private trySend(j: number, q: number, inj: FlowInjector): void {
    const job = this.jobs[j]!;
    const s = job.started[q]!;
    if (s >= job.chunks.length || job.sent[q]! < s || job.received[q]! < s) return;
    job.started[q] = s + 1;
    this.flow(j, q, (q + 1) % job.hosts.length, job.chunks[s]!, inj);
  }

  onFlowFinished(f: FinishedFlow, inj: FlowInjector): void {
    const key = this.inFlight.get(f.id);
    if (key === undefined) return;
    this.inFlight.delete(f.id);
    const j = Math.floor(key / 2 ** 20);
    const q = key - j * 2 ** 20;
    const job = this.jobs[j]!;
    job.flowsFinished++;
    if (this.p.op !== 'alltoall') {
      // q's send finished and its successor r has q's chunk: either may start its next step
      const r = (q + 1) % job.hosts.length;
      job.sent[q]!++;
      job.received[r]!++;
      this.trySend(j, q, inj);
      this.trySend(j, r, inj);
      if (job.flowsFinished < job.chunks.length * job.hosts.length) return;
    } else if (job.flowsFinished < job.flowsStarted) return;
    this.endIteration(j, inj);
  }

  /** The iteration is over (OSCAR §6.4 Fig 12: the time of one collective). */
  private endIteration(j: number, inj: FlowInjector): void {
    const job = this.jobs[j]!;
    this.records.push({ job: job.name, iteration: job.iteration, startPs: job.iterationStartPs, finishPs: inj.nowPs, bytes: job.bytes });
    job.iteration++;
    if (job.iteration >= this.p.iterations) this.active--;
    else if (this.p.compute === 0) this.startIteration(j, inj);
    else inj.wakeAt(inj.nowPs + this.p.compute, j);
  }

  done(): boolean {
    return this.active === 0;
  }

  report(): JobRecord[] {
    return this.records.map((r) => ({ ...r }));
  }
}

/** The entry's groups as topology host lists (problems recorded through `ctx`). */
export function resolveGroups(e: Pick<CollectiveEntry, 'hosts' | 'groups'>, ctx: WorkloadContext): number[][] {
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
  return groups;
}

/** Each of `fields` that the entry gives is a problem: `form` does not use it. */
function onlyWith(e: CollectiveEntry, ctx: WorkloadContext, form: string, fields: readonly (keyof CollectiveEntry)[]): void {
  for (const f of fields) if (e[f] !== undefined) ctx.error([f], `not used with ${form}`);
}

function prepareSchedule(e: CollectiveEntry, file: string, groups: number[][], ctx: WorkloadContext): PreparedWorkload | undefined {
  onlyWith(e, ctx, 'schedule (the file gives the steps)', ['op', 'algorithm', 'bytes', 'model', 'experts']);
  const text = ctx.readText(file, ['schedule']);
  if (text === undefined) return undefined;
  const s = parseSchedule(text);
  if ('problems' in s) {
    for (const [at, msg] of s.problems) ctx.error(['schedule'], `${file}${at === '' ? '' : ` ${at}`}: ${msg}`, file);
    return undefined;
  }
  groups.forEach((g, j) => {
    if (g.length !== s.ranks) ctx.error(e.hosts !== undefined ? ['hosts'] : ['groups', j], `${g.length} hosts, but the schedule is written for ${s.ranks} ranks`, e.hosts ?? e.groups);
  });
  const size = scheduleSize(s);
  const sched: Schedule = s;
  const compute = e.compute ?? 0;
  return {
    estimate: { flows: e.iterations * groups.length * size.flows, bytes: e.iterations * groups.length * size.bytes, receivers: groups.flat() },
    tags: [e.tag],
    driver: () => new ScheduleDriver(sched, groups, { iterations: e.iterations, compute, start: e.start, tag: e.tag }),
  };
}

function prepareCollective(e: CollectiveEntry, ctx: WorkloadContext): PreparedWorkload {
  const groups = resolveGroups(e, ctx);
  const none: PreparedWorkload = { estimate: { flows: 0, bytes: 0, receivers: [] }, tags: [e.tag] };
  if (e.schedule !== undefined) return prepareSchedule(e, e.schedule, groups, ctx) ?? none;
  if (e.op === undefined) {
    ctx.error(['op'], `give op (${COLLECTIVE_OPS.join(', ')}) or a schedule file`, 'missing');
    return none;
  }
  const op = e.op;
  const ring = op !== 'alltoall';
  const algorithm = e.algorithm ?? (ring ? 'ring' : 'direct');
  if (ring && algorithm !== 'ring') ctx.error(['algorithm'], `${op} runs as a ring (algorithm: ring); direct is for alltoall`);
  if (!ring && algorithm !== 'direct') ctx.error(['algorithm'], 'alltoall runs direct (every host sends to every other at once); ring is for allreduce, allgather and reducescatter');
  const sizes = [...new Set(groups.map((g) => g.length))].filter((n) => n >= 2);

  let chunksOf: (n: number) => Float64Array = () => new Float64Array(0);
  let compute = e.compute ?? 0;
  let computeFirst = false;
  let moe: CollectivePlan['moe'];
  if (e.model !== undefined) {
    if (op !== 'allreduce') ctx.error(['model'], `a model's gradients are all-reduced: use op allreduce (not ${op})`);
    if (e.bytes !== undefined) ctx.error(['bytes'], 'not used with model (the model gives the gradient sizes)');
    if (!(MODEL_NAMES as readonly string[]).includes(e.model)) {
      ctx.error(['model'], `unknown model (known: ${MODEL_NAMES.join(', ')})`);
      return none;
    }
    const m = loadModel(e.model as ModelName);
    const cap = e.bucket === 'layer' ? 0 : (e.bucket ?? DEFAULT_BUCKET_BYTES);
    chunksOf = (n) => {
      const out: number[] = [];
      for (const b of gradientBuckets(m, cap, e.scale, n)) for (let k = 0; k < collectiveSteps(op, n); k++) out.push(b / n);
      return Float64Array.from(out);
    };
    compute = e.compute ?? modelComputePs(m, e.computeScale);
    computeFirst = true;
  } else {
    if (e.scale !== 1) ctx.error(['scale'], 'only with model (it scales the gradient sizes)');
    if (e.computeScale !== 1) ctx.error(['computeScale'], 'only with model (it scales the compute time)');
    if (e.bucket !== undefined) ctx.error(['bucket'], 'only with model (it groups the gradients)');
    if (e.bytes === undefined) {
      ctx.error(['bytes'], 'give bytes (the buffer of each host) or a model', 'missing');
      return none;
    }
    const bytes = e.bytes;
    if (e.experts !== undefined) {
      if (op !== 'alltoall') ctx.error(['experts'], `experts choose all-to-all destinations: use op alltoall (not ${op})`);
      const x = e.experts;
      for (const n of sizes) {
        const c = expertCdf(x, n);
        if (typeof c === 'string') ctx.error(['experts'], c, x);
      }
      moe = { cdfOf: (n) => expertCdf(x, n) as Float64Array, bytes, draws: x.draws };
    } else {
      for (const n of sizes) {
        if (bytes % n !== 0) ctx.error(['bytes'], `not divisible by the ${n} hosts of a group (the buffer is split into ${n} equal chunks)`, bytes);
      }
    }
    chunksOf = (n) => new Float64Array(collectiveSteps(op, n)).fill(bytes / n);
  }

  let flows = 0;
  let bytes = 0;
  for (const g of groups) {
    const n = g.length;
    if (n < 2) continue;
    if (moe !== undefined) {
      flows += e.iterations * n * Math.min(moe.draws, n - 1);
      bytes += e.iterations * n * moe.bytes;
      continue;
    }
    const c = chunksOf(n);
    const per = op === 'alltoall' ? n * (n - 1) : c.length * n;
    let b = 0;
    for (const x of c) b += x;
    flows += e.iterations * per;
    bytes += e.iterations * (op === 'alltoall' ? per * c[0]! : b * n);
  }
  const plan: CollectivePlan = { op, chunksOf, moe, iterations: e.iterations, compute, computeFirst, start: e.start, tag: e.tag };
  return {
    estimate: { flows, bytes, receivers: groups.flat() },
    tags: [e.tag],
    driver: (rng) => new CollectiveDriver(groups, plan, moe === undefined ? undefined : rng),
  };
}

/** `type: collective`: ring all-reduce / allgather / reduce-scatter and direct all-to-all among groups of hosts. */
export const collectiveWorkload: WorkloadDefinition<CollectiveEntry> = {
  type: 'collective',
  summary: 'collective jobs: ring allreduce / allgather / reducescatter (bytes or a model), direct or MoE alltoall, schedule files; per group, iterations with compute gaps',
  schema,
  startTimes: (e) => [[['start'], e.start] as const],
  prepare: prepareCollective,
};
