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
 */
import { z } from 'zod';
import { durationField, hostId, posInt, sizeField } from '../engine/spec-fields.js';
import type { FinishedFlow, FlowInjector, JobRecord, WorkloadDriver } from './driver.js';
import type { PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';

const hostList = z.array(hostId).min(1);

const schema = z
  .object({
    type: z.literal('parameterServer'),
    workers: hostList,
    servers: hostList,
    /** the model (and each worker's gradient), sharded evenly over the servers */
    bytes: sizeField(),
    iterations: posInt.default(1),
    compute: durationField().default(0),
    start: durationField().default(0),
    tag: z.string().min(1).default('parameterServer'),
  })
  .strict();

export type ParameterServerEntry = z.output<typeof schema>;

/** Flow keys: pushes are worker * S + server, answers PULL + server * W + worker. */
const PULL = 2 ** 40;

export class ParameterServerDriver implements WorkloadDriver {
  private readonly shard: number;
  private readonly inFlight = new Map<number, number>();
  /** per server: pushes of the current iteration arrived */
  private readonly pushed: Int32Array;
  /** per worker: answers of its current iteration arrived, and the iteration it is in */
  private readonly answered: Int32Array;
  private readonly workerIteration: Int32Array;
  /** per iteration: start, answers finished */
  private readonly iterStart: number[] = [];
  private readonly iterAnswers: number[] = [];
  private readonly records: JobRecord[] = [];
  private finishedWorkers = 0;

  constructor(
    private readonly workers: Int32Array,
    private readonly servers: Int32Array,
    private readonly e: ParameterServerEntry,
  ) {
    this.shard = e.bytes / servers.length;
    this.pushed = new Int32Array(servers.length);
    this.answered = new Int32Array(workers.length);
    this.workerIteration = new Int32Array(workers.length);
  }

  begin(inj: FlowInjector): void {
    for (let w = 0; w < this.workers.length; w++) {
      if (this.e.start === 0) this.push(w, inj);
      else inj.wakeAt(this.e.start, w);
    }
  }

  onWake(token: number, inj: FlowInjector): void {
    this.push(token, inj);
  }

  /** Worker `w` pushes its shards of its current iteration to every server. */
  private push(w: number, inj: FlowInjector): void {
    const it = this.workerIteration[w]!;
    if (this.iterStart[it] === undefined) {
      this.iterStart[it] = inj.nowPs;
      this.iterAnswers[it] = 0;
    }
    const S = this.servers.length;
    for (let s = 0; s < S; s++) {
      const id = inj.start({ src: this.workers[w]!, dst: this.servers[s]!, bytes: this.shard, tag: this.e.tag });
      this.inFlight.set(id, w * S + s);
    }
  }

  onFlowFinished(f: FinishedFlow, inj: FlowInjector): void {
    const key = this.inFlight.get(f.id);
    if (key === undefined) return;
    this.inFlight.delete(f.id);
    const W = this.workers.length;
    const S = this.servers.length;
    if (key < PULL) {
      // a push arrived; the server answers every worker once all W shards are in (a worker's next push
      // needs this server's answer, so no push of the next iteration arrives before the count is reset)
      const s = key % S;
      if (++this.pushed[s]! < W) return;
      this.pushed[s] = 0;
      for (let w = 0; w < W; w++) {
        const id = inj.start({ src: this.servers[s]!, dst: this.workers[w]!, bytes: this.shard, tag: this.e.tag });
        this.inFlight.set(id, PULL + s * W + w);
      }
      return;
    }
    const w = (key - PULL) % W;
    const it = this.workerIteration[w]!;
    if (++this.iterAnswers[it]! === W * S) {
      this.records.push({ job: this.e.tag, iteration: it, startPs: this.iterStart[it]!, finishPs: inj.nowPs, bytes: 2 * W * S * this.shard });
    }
    if (++this.answered[w]! < S) return;
    this.answered[w] = 0;
    this.workerIteration[w] = it + 1;
    if (it + 1 >= this.e.iterations) this.finishedWorkers++;
    else if (this.e.compute === 0) this.push(w, inj);
    else inj.wakeAt(inj.nowPs + this.e.compute, w);
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
  if (e.bytes % S !== 0) ctx.error(['bytes'], `not divisible by the ${S} servers (the model is split into ${S} equal shards)`, e.bytes);
  return {
    estimate: { flows: e.iterations * 2 * W * S, bytes: e.iterations * 2 * W * S * Math.floor(e.bytes / S), receivers: [...workers, ...servers] },
    tags: [e.tag],
    driver: () => new ParameterServerDriver(Int32Array.from(workers), Int32Array.from(servers), e),
  };
}

/** `type: parameterServer`: workers push shards to servers, servers answer once all shards of an iteration are in. */
export const parameterServerWorkload: WorkloadDefinition<ParameterServerEntry> = {
  type: 'parameterServer',
  summary: 'synchronous parameter servers: workers push shards, servers answer when all shards of an iteration arrived',
  schema,
  startTimes: (e) => [[['start'], e.start] as const],
  prepare,
};
