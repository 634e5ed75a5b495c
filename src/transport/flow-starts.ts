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
  /**
   * Fast-forward's groups (sim/fast-forward-groups.ts), listed flows only: each group walks its
   * own flows on its own offset (offsets[g], owned by fast-forward), one start event per group
   * (tag: the group). Null: one chain, `offsetPs`.
   */
  private groups: { lists: Int32Array[]; next: Int32Array; pending: Int32Array; offsets: Float64Array; kind: number; started: number } | null = null;

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

  /**
   * Fast-forward's groups: from now on each group's listed flows (group `of[id]`) start on their
   * own chain, at their listed time less the group's offset (`offsets[g]`, which the caller
   * moves, then calls `shiftGroup`). Listed flows only, before any has started.
   */
  setGroups(of: Int32Array, offsets: Float64Array): void {
    const n = offsets.length;
    const lens = new Int32Array(n);
    for (let i = 0; i < this.listEnd; i++) lens[of[i]!]!++;
    const lists = Array.from(lens, (l) => new Int32Array(l));
    lens.fill(0);
    for (let i = 0; i < this.listEnd; i++) {
      const g = of[i]!;
      lists[g]![lens[g]!++] = i;
    }
    if (this.pending >= 0) this.sched.cancel(this.pending);
    this.pending = -1;
    const kind = this.sched.register({ fire: (_id, tag) => this.startDueGroup(tag) }, 'Transport.startDueGroup');
    const g = { lists, next: new Int32Array(n), pending: new Int32Array(n).fill(-1), offsets, kind, started: 0 };
    this.groups = g;
    for (let i = 0; i < n; i++) this.armGroup(i);
  }

  /** The listed start time of group `g`'s next flow to start (Infinity: none left; groups only). */
  nextStartPsOf(g: number): number {
    const gs = this.groups!;
    const l = gs.lists[g]!;
    const k = gs.next[g]!;
    return k < l.length ? this.flows[l[k]!]!.startPs : Infinity;
  }

  /** Group `g`'s offset moved: its next start moves with it. */
  shiftGroup(g: number): void {
    const gs = this.groups!;
    if (gs.pending[g]! >= 0) this.sched.cancel(gs.pending[g]!);
    this.armGroup(g);
  }

  private armGroup(g: number): void {
    const gs = this.groups!;
    const t = this.nextStartPsOf(g);
    gs.pending[g] = t === Infinity ? -1 : this.sched.schedule(t - gs.offsets[g]!, gs.kind, 0, g);
  }

  private startDueGroup(g: number): void {
    this.chainEvents++;
    const gs = this.groups!;
    const now = this.sched.now + gs.offsets[g]!;
    const l = gs.lists[g]!;
    const flows = this.flows;
    while (gs.next[g]! < l.length && flows[l[gs.next[g]!]!]!.startPs <= now) {
      const f = flows[l[gs.next[g]!++]!]!;
      gs.started++;
      if (this.local === null || this.local[f.src] === 1) this.start(f);
    }
    this.armGroup(g);
  }

  /** The listed start time of the next flow to start (Infinity: none left). */
  nextStartPs(): number {
    if (this.groups !== null) {
      let t = Infinity;
      for (let g = 0; g < this.groups.lists.length; g++) t = Math.min(t, this.nextStartPsOf(g));
      return t;
    }
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
    if (this.groups !== null) return this.groups.started < this.listEnd;
    return this.stream !== null ? this.stream.peekStartPs() !== Infinity : this.nextStart < this.listEnd;
  }

  /** Makes a flow from `spec` with the next id and starts it now. The spec's start time must be now. */
  inject(spec: FlowSpec): Flow {
    return this.makeAndStart(spec);
  }

  /** Makes the flow of `spec` with the next id (a new row of the table), not started (fast-forward's replay, sim/replay.ts). */
  makeOnly(spec: FlowSpec): Flow {
    const f = this.factory!.make(this.flows.length, spec);
    this.flows.push(f);
    this.fitFlowDrops(f.id);
    return f;
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
      if (this.groups !== null && f.started) continue;
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
