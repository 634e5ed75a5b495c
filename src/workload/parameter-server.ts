/**
 * `type: parameterServer`: synchronous data-parallel training with parameter
 * servers (issue 25), a closed-loop workload (docs/extending.md, "Adding a
 * workload"; docs/guide.md, "Collective workloads").
 *
 * The model of `bytes` is sharded over the S servers (bytes/S each). In each
 * iteration every worker pushes its gradient shard to every server (W·S
 * flows of bytes/S); a server answers once all W shards of the iteration
 * arrived, sending its updated shard to every worker (W flows of bytes/S). A
 * worker's iteration ends when all S answers arrived; it pushes the next
 * iteration's shards `compute` later. A job iteration (jobs.csv) runs from
 * its first push to its last answer.
 *
 * With `model` (collective-model.ts; CCC §6.4 Fig 12 trains AlexNet) the
 * gradients are the model's layers, pushed in backward order (last layer
 * first) as one flow per layer and server: `sharding: split` (default) splits
 * every layer evenly over the S servers (rounded up to whole bytes),
 * `sharding: layer` gives each layer whole to one server, round robin. A
 * server answers a shard once all W workers pushed it, so a worker's small
 * layers return while its large ones are still arriving. The model's compute
 * time (`computeScale`) comes before every iteration, the first included.
 * CCC does not say how AlexNet is sharded: hence the parameter.
 */
import { z } from 'zod';
import { durationField, hostId, posInt, sizeField } from '../engine/spec-fields.js';
import { MODEL_NAMES, loadModel, modelComputePs, type ModelName } from './collective-model.js';
import type { FinishedFlow, FlowInjector, JobRecord, WorkloadDriver } from './driver.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';

const hostList = z.array(hostId).min(1);

const schema = z
  .object({
    type: z.literal('parameterServer'),
    workers: hostList,
    servers: hostList,
    /** the model (and each worker's gradient), sharded evenly over the servers */
    bytes: sizeField({ bare: true }).optional(),
    /** a shipped model's per-layer gradients instead of `bytes` */
    model: z.string().min(1).optional(),
    sharding: z.enum(['split', 'layer']).default('split'),
    /** scale the model's gradient bytes / compute time */
    scale: z.number().gt(0).max(1).default(1),
    computeScale: z.number().min(0).default(1),
    iterations: posInt.default(1),
    /** between iterations; with `model` before each, default the model's compute time */
    compute: durationField().optional(),
    start: durationField().default(0),
    tag: z.string().min(1).default('parameterServer'),
  })
  .strict();

export type ParameterServerEntry = z.output<typeof schema>;

/** One push of a worker's gradient: a shard of `bytes` to server `server` (an index into servers). */
export interface Shard {
  server: number;
  bytes: number;
}

export interface ParameterServerPlan {
  /** a worker's pushes per iteration, in push order */
  shards: readonly Shard[];
  iterations: number;
  /** ps; before every iteration when `computeFirst`, else between iterations */
  compute: number;
  computeFirst: boolean;
  start: number;
  tag: string;
}

/** Flow keys: pushes are worker * K + shard, answers PULL + shard * W + worker. */
const PULL = 2 ** 40;

export class ParameterServerDriver implements WorkloadDriver {
  private readonly inFlight = new Map<number, number>();
  /** per shard: pushes of the current iteration arrived */
  private readonly pushed: Int32Array;
  /** per worker: answers of its current iteration arrived, and the iteration it is in */
  private readonly answered: Int32Array;
  private readonly workerIteration: Int32Array;
  /** per iteration: start, answers finished */
  private readonly iterStart: number[] = [];
  private readonly iterAnswers: number[] = [];
  private readonly records: JobRecord[] = [];
  private readonly iterBytes: number;
  private finishedWorkers = 0;

  constructor(
    private readonly workers: Int32Array,
    private readonly servers: Int32Array,
    private readonly p: ParameterServerPlan,
  ) {
    this.pushed = new Int32Array(p.shards.length);
    this.answered = new Int32Array(workers.length);
    this.workerIteration = new Int32Array(workers.length);
    let b = 0;
    for (const s of p.shards) b += s.bytes;
    this.iterBytes = 2 * workers.length * b;
  }

  begin(inj: FlowInjector): void {
    const first = this.p.start + (this.p.computeFirst ? this.p.compute : 0);
    for (let w = 0; w < this.workers.length; w++) {
      if (first === 0) this.push(w, inj);
      else inj.wakeAt(first, w);
    }
  }

  onWake(token: number, inj: FlowInjector): void {
    this.push(token, inj);
  }

  /** Worker `w` pushes every shard of its current iteration. */
  private push(w: number, inj: FlowInjector): void {
    const it = this.workerIteration[w]!;
    if (this.iterStart[it] === undefined) {
      this.iterStart[it] = inj.nowPs;
      this.iterAnswers[it] = 0;
    }
    const K = this.p.shards.length;
    for (let k = 0; k < K; k++) {
      const s = this.p.shards[k]!;
      const id = inj.start({ src: this.workers[w]!, dst: this.servers[s.server]!, bytes: s.bytes, tag: this.p.tag });
      this.inFlight.set(id, w * K + k);
    }
  }

  onFlowFinished(f: FinishedFlow, inj: FlowInjector): void {
    const key = this.inFlight.get(f.id);
    if (key === undefined) return;
    this.inFlight.delete(f.id);
    const W = this.workers.length;
    const K = this.p.shards.length;
    if (key < PULL) {
      // a push arrived; the server answers the shard to every worker once all W pushed it (a worker's
      // next push needs every answer, so no push of the next iteration arrives before the count is reset)
      const k = key % K;
      if (++this.pushed[k]! < W) return;
      this.pushed[k] = 0;
      const s = this.p.shards[k]!;
      for (let w = 0; w < W; w++) {
        const id = inj.start({ src: this.servers[s.server]!, dst: this.workers[w]!, bytes: s.bytes, tag: this.p.tag });
        this.inFlight.set(id, PULL + k * W + w);
      }
      return;
    }
    const w = (key - PULL) % W;
    const it = this.workerIteration[w]!;
    if (++this.iterAnswers[it]! === W * K) {
      this.records.push({ job: this.p.tag, iteration: it, startPs: this.iterStart[it]!, finishPs: inj.nowPs, bytes: this.iterBytes });
    }
    if (++this.answered[w]! < K) return;
    this.answered[w] = 0;
    this.workerIteration[w] = it + 1;
    if (it + 1 >= this.p.iterations) this.finishedWorkers++;
    else if (this.p.compute === 0) this.push(w, inj);
    else inj.wakeAt(inj.nowPs + this.p.compute, w);
  }

  done(): boolean {
    return this.finishedWorkers === this.workers.length;
  }

  report(): JobRecord[] {
    return this.records.map((r) => ({ ...r }));
  }
}

function prepare(e: ParameterServerEntry, ctx: WorkloadContext): PreparedWorkload {
  const workers = ctx.hostSelection(e.workers, ['workers']);
  const servers = ctx.hostSelection(e.servers, ['servers']);
  const isWorker = new Set(e.workers);
  e.servers.forEach((id, k) => {
    if (isWorker.has(id)) ctx.error(['servers', k], 'also a worker (a host is a worker or a server)', id);
  });
  const S = e.servers.length;
  const W = e.workers.length;
  const shards: Shard[] = [];
  let compute = e.compute ?? 0;
  let computeFirst = false;
  if (e.model !== undefined) {
    if (e.bytes !== undefined) ctx.error(['bytes'], 'not used with model (the model gives the gradient sizes)');
    if (!(MODEL_NAMES as readonly string[]).includes(e.model)) {
      ctx.error(['model'], `unknown model (known: ${MODEL_NAMES.join(', ')})`);
    } else {
      const m = loadModel(e.model as ModelName);
      // backward order: the last layer's gradient is ready first
      m.layers
        .filter((l) => l.gradientBytes > 0)
        .reverse()
        .forEach((l, i) => {
          const bytes = Math.max(1, Math.ceil(l.gradientBytes * e.scale));
          if (e.sharding === 'layer') shards.push({ server: i % S, bytes });
          else for (let s = 0; s < S; s++) shards.push({ server: s, bytes: Math.ceil(bytes / S) });
        });
      compute = e.compute ?? modelComputePs(m, e.computeScale);
      computeFirst = true;
    }
  } else if (e.bytes === undefined) {
    ctx.error(['bytes'], 'give bytes (the model size) or a model', 'missing');
  } else {
    if (e.scale !== 1) ctx.error(['scale'], 'only with model (it scales the gradient sizes)');
    if (e.computeScale !== 1) ctx.error(['computeScale'], 'only with model (it scales the compute time)');
    if (e.bytes % S !== 0) ctx.error(['bytes'], `not divisible by the ${S} servers (the model is split into ${S} equal shards)`, e.bytes);
    for (let s = 0; s < S; s++) shards.push({ server: s, bytes: e.bytes / S });
  }
  let perWorker = 0;
  for (const s of shards) perWorker += s.bytes;
  const plan: ParameterServerPlan = { shards, iterations: e.iterations, compute, computeFirst, start: e.start, tag: e.tag };
  return {
    estimate: { flows: e.iterations * 2 * W * shards.length, bytes: e.iterations * 2 * W * perWorker, receivers: [...workers, ...servers] },
    tags: [e.tag],
    driver: () => new ParameterServerDriver(Int32Array.from(workers), Int32Array.from(servers), plan),
  };
}

/** `type: parameterServer`: workers push shards to servers, servers answer once all shards of an iteration are in. */
export const parameterServerWorkload: WorkloadDefinition<ParameterServerEntry> = {
  type: 'parameterServer',
  summary: 'synchronous parameter servers (bytes or a model, per-layer shards): workers push shards, servers answer each shard once all workers pushed it',
  schema,
  startTimes: (e) => [[['start'], e.start] as const],
  prepare,
};
