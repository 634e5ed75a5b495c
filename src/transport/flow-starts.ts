/**
 * When flows start (docs/architecture.md, "A packet's journey", step 1): the
 * flows listed up front (`addList`, made before the run), the flows of a
 * stream (made as they start, so a run of millions holds only the ones in
 * progress), and flows a closed-loop workload injects now (`inject`). One
 * event kind walks the start times; a flow's id is its position in the
 * transport's flow table, i.e. the order flows were made in. The chain
 * belongs to no node: a partition of a parallel run walks it too and starts
 * only its own hosts' flows (`local`).
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { NetContext } from '../net/context.js';
import type { FlowSpec, FlowStream } from '../workload/types.js';
import type { Flow } from './flow.js';
import type { FlowFactory } from './setup.js';

export class FlowStarts {
  private stream: FlowStream | null = null;
  private factory: FlowFactory | null = null;
  /** next listed flow to start */
  private nextStart = 0;
  /** flows of the up-front list; injected flows come after them */
  private listEnd = 0;
  private readonly kStart: number;
  /** events of the start chain run so far: they run in every partition of a parallel run (issue 31), which counts them once */
  chainEvents = 0;
  /** a partition's worker (issue 31): hosts whose flows start here, by node (null: all); every flow is still made */
  local: Uint8Array | null = null;
  /**
   * Fast-forward (sim/fast-forward.ts): simulated time skipped so far, ps. A flow whose start
   * time is t (as listed) starts at the scheduler's t - offsetPs; 0 without fast-forward.
   */
  private offsetPs = 0;
  /** the pending start event's handle (-1: none) */
  private pending = -1;

  constructor(
    private readonly sched: Scheduler,
    /** the transport's flow table, by id */
    private readonly flows: (Flow | null)[],
    private readonly ctx: NetContext,
    /** starts a made flow now (the transport's `startFlow`) */
    private readonly start: (f: Flow) => void,
  ) {
    this.kStart = sched.register({ fire: () => this.startDue() }, 'Transport.startDueFlows');
  }

  /** Registers flows (already made, sorted by start time) and arms the start chain. */
  addList(flows: Flow[], factory: FlowFactory): void {
    for (const f of flows) this.flows.push(f);
    this.listEnd = this.flows.length;
    this.factory = factory;
    if (this.flows.length > 0) this.pending = this.sched.schedule(this.flows[0]!.startPs, this.kStart, 0, 0);
  }

  /** Flows made as they start, from `stream` (start order) by `factory`. */
  addStream(stream: FlowStream, factory: FlowFactory): void {
    this.stream = stream;
    this.factory = factory;
    const t = stream.peekStartPs();
    if (t !== Infinity) this.pending = this.sched.schedule(t, this.kStart, 0, 0);
  }

  /** The listed start time of the next flow to start (Infinity: none left). */
  nextStartPs(): number {
    if (this.stream !== null) return this.stream.peekStartPs();
    return this.nextStart < this.listEnd ? this.flows[this.nextStart]!.startPs : Infinity;
  }

  /**
   * Fast-forward skipped `ps` of simulated time without running it: every flow still to start
   * starts that much earlier on the scheduler's clock (its listed start time stays).
   */
  shift(ps: number): void {
    this.offsetPs += ps;
    const t = this.nextStartPs();
    if (t === Infinity) return;
    if (this.pending >= 0) this.sched.cancel(this.pending);
    this.pending = this.sched.schedule(t - this.offsetPs, this.kStart, 0, 0);
  }

  /** Whether listed or streamed flows are still to start. */
  hasUnstarted(): boolean {
    return this.stream !== null ? this.stream.peekStartPs() !== Infinity : this.nextStart < this.listEnd;
  }

  /** Makes a flow from `spec` with the next id and starts it now. The spec's start time must be now. */
  inject(spec: FlowSpec): Flow {
    return this.makeAndStart(spec);
  }

  /** Makes the flow of `spec` with the next id (a new row of the table) and starts it now. */
  private makeAndStart(spec: FlowSpec): Flow {
    const flows = this.flows;
    const f = this.factory!.make(flows.length, spec);
    flows.push(f);
    this.fitFlowDrops(f.id);
    if (this.local === null || this.local[f.src] === 1) this.start(f);
    return f;
  }

  /** The flows not yet started, in id order, with their ids (drains a stream). */
  *unstarted(): Generator<{ id: number; spec: FlowSpec }> {
    if (this.stream !== null) {
      let id = this.flows.length;
      while (this.stream.peekStartPs() !== Infinity) yield { id: id++, spec: this.stream.next() };
      return;
    }
    for (let i = this.nextStart; i < this.listEnd; i++) {
      const f = this.flows[i]!;
      yield { id: f.id, spec: { src: f.src, dst: f.dst, bytes: f.sizeBytes, startPs: f.startPs, prio: f.prio, tag: f.tag } };
    }
  }

  /** Grows the per-flow drop counters to hold flow `id`. */
  private fitFlowDrops(id: number): void {
    const drops = this.ctx.flowDrops;
    if (id < drops.length) return;
    const grown = new Int32Array(Math.max(1024, 2 * drops.length, id + 1));
    grown.set(drops);
    this.ctx.flowDrops = grown;
  }

  private startDue(): void {
    this.chainEvents++;
    const now = this.sched.now + this.offsetPs;
    const off = this.offsetPs;
    const flows = this.flows;
    const st = this.stream;
    if (st !== null) {
      while (st.peekStartPs() <= now) this.makeAndStart(st.next());
      this.nextStart = flows.length;
      const t = st.peekStartPs();
      this.pending = t !== Infinity ? this.sched.schedule(t - off, this.kStart, 0, 0) : -1;
      return;
    }
    const end = this.listEnd;
    while (this.nextStart < end && flows[this.nextStart]!.startPs <= now) {
      const f = flows[this.nextStart++]!;
      if (this.local === null || this.local[f.src] === 1) this.start(f);
    }
    this.pending = this.nextStart < end ? this.sched.schedule(flows[this.nextStart]!.startPs - off, this.kStart, 0, 0) : -1;
  }
}
