/**
 * Fast-forward's replay of recurring iterations (issue 46; docs/performance.md, "Fast-forward",
 * "Reuse of recurring contention patterns"): a closed-loop job whose iterations repeat
 * (`WorkloadDriver.repeatsIterations`) and that runs alone on a single-path fabric without
 * random draws in its dynamics. At a wake-up of the job with the network idle (no packet alive,
 * every queue empty, no pause, every flow finished), the run from there to the job's next
 * wake-up is recorded: every flow the job starts (time after the wake-up, ends, size, tag) and
 * when it finished. At a later wake-up with the network idle again, the job runs against the
 * record instead of the network: each flow it starts that the record holds (same time after
 * the wake-up, same ends, size and tag) is made but sends nothing, and finishes at the recorded
 * time after the wake-up; the network stays idle, so the state at the end is the one the
 * packet-level run would have reached. A start the record does not hold before any flow was
 * replayed ends the replay (the iteration runs packet by packet); after one, the iteration has
 * diverged from its record, which the conditions checked at the start exclude, and the run
 * stops with an error.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { FastForwardStats } from '../metrics/types.js';
import type { NetContext } from '../net/context.js';
import type { Flow } from '../transport/flow.js';
import type { Transport } from '../transport/transport.js';
import type { FlowSpec } from '../workload/types.js';

/** A recorded stretch from a wake-up: per start (key), its flows' finish times after the wake-up and finish order, in start order. */
interface Segment {
  byKey: Map<string, { rel: number; seq: number }[]>;
  flows: number;
  /** the last finish after the wake-up, ps */
  ps: number;
  /** events the recorded stretch ran */
  events: number;
}

const key = (rel: number, s: FlowSpec): string => `${rel}|${s.src}|${s.dst}|${s.bytes}|${s.tag ?? ''}|${s.prio ?? -1}`;

export class IterationReplay {
  private mode: 'idle' | 'record' | 'replay' = 'idle';
  /** the wake-up the current record or replay began at (driver time), and its key */
  private t0 = 0;
  private wakeKey = '';
  private readonly segments = new Map<string, Segment>();
  // recording
  private recKeys: string[] = [];
  private recFinish: number[] = [];
  private recSeq: number[] = [];
  private recIds = new Map<number, number>();
  private recOpen = 0;
  private recEvents = 0;
  // replaying
  private seg: Segment | null = null;
  private used = new Map<string, number>();
  private made = 0;
  private pending = 0;
  /** the replayed flows still to finish: id, time on the scheduler's clock, recorded finish order */
  private due: { id: number; at: number; seq: number }[] = [];
  /** the pending finish event's handle (-1: none) */
  private armed = -1;
  private armedAt = Infinity;
  private readonly kFinish: number;

  constructor(
    private readonly sched: Scheduler,
    private readonly ctx: NetContext,
    private readonly transport: Transport,
    private readonly stats: FastForwardStats,
  ) {
    this.kFinish = sched.register({ fire: () => this.finishDue() }, 'fast-forward: replayed finish');
  }

  private idle(): boolean {
    const t = this.transport;
    if (this.ctx.pool.alive !== 0 || t.finishedCount !== t.flows.length || t.hasUnstarted()) return false;
    for (const p of this.ctx.ports) if (p.totalBytes !== 0 || p.pausedMask !== 0) return false;
    return true;
  }

  /** Driver `d` wakes with `token` at driver time `t` (before its callback). */
  atWake(d: number, token: number, t: number): void {
    if (this.mode === 'replay') {
      if (this.pending !== 0 || this.made !== this.seg!.flows) throw new Error(`engine.fastForward.replay: a wake-up at ${t} ps during a replayed iteration (${this.made} of ${this.seg!.flows} flows made, ${this.pending} unfinished)`);
      this.mode = 'idle';
    }
    const idle = this.idle();
    if (this.mode === 'record') {
      // the record ends here: kept if every flow of it finished
      if (this.recOpen === 0 && idle && !this.segments.has(this.wakeKey)) {
        const byKey = new Map<string, { rel: number; seq: number }[]>();
        let ps = 0;
        for (let i = 0; i < this.recKeys.length; i++) {
          const k = this.recKeys[i]!;
          const x = { rel: this.recFinish[i]!, seq: this.recSeq[i]! };
          const l = byKey.get(k);
          if (l === undefined) byKey.set(k, [x]);
          else l.push(x);
          if (this.recFinish[i]! > ps) ps = this.recFinish[i]!;
        }
        this.segments.set(this.wakeKey, { byKey, flows: this.recKeys.length, ps, events: this.sched.eventsProcessed - this.recEvents });
      }
      this.mode = 'idle';
    }
    if (!idle) return;
    this.t0 = t;
    this.wakeKey = `${d}|${token}`;
    const seg = this.segments.get(this.wakeKey);
    if (seg !== undefined && seg.flows > 0) {
      this.mode = 'replay';
      this.seg = seg;
      this.used = new Map();
      this.made = 0;
      this.pending = 0;
      return;
    }
    this.mode = 'record';
    this.recKeys = [];
    this.recFinish = [];
    this.recSeq = [];
    this.recIds = new Map();
    this.recOpen = 0;
    this.recEvents = this.sched.eventsProcessed;
  }

  /** The driver starts `spec` now (driver time `spec.startPs`): the replayed flow's id, or -1 (start it for real). */
  start(spec: FlowSpec): number {
    if (this.mode !== 'replay') return -1;
    if (this.made === this.seg!.flows && this.pending === 0) {
      // the replayed stretch is over (its last finish started the next iteration at once)
      this.mode = 'idle';
      return -1;
    }
    const rel = spec.startPs - this.t0;
    const k = key(rel, spec);
    const list = this.seg!.byKey.get(k);
    const n = this.used.get(k) ?? 0;
    if (list === undefined || n >= list.length) {
      if (this.made > 0) throw new Error(`engine.fastForward.replay: the iteration diverged from its record (a flow ${spec.src} -> ${spec.dst} of ${spec.bytes} B at +${rel} ps is not in it)`);
      this.mode = 'idle';
      return -1;
    }
    this.used.set(k, n + 1);
    if (this.made === 0) {
      const st = this.stats;
      st.replays = (st.replays ?? 0) + 1;
      st.replayedPs = (st.replayedPs ?? 0) + this.seg!.ps;
      st.skippedEventsEstimate += this.seg!.events;
    }
    this.made++;
    this.pending++;
    this.stats.replayedFlows = (this.stats.replayedFlows ?? 0) + 1;
    const f = this.transport.starts.makeOnly(spec);
    f.started = true;
    const x = list[n]!;
    this.due.push({ id: f.id, at: this.sched.now + (this.t0 + x.rel - spec.startPs), seq: x.seq });
    this.arm();
    return f.id;
  }

  /** A flow the driver started for real (recording). */
  started(id: number, spec: FlowSpec): void {
    if (this.mode !== 'record') return;
    this.recIds.set(id, this.recKeys.length);
    this.recKeys.push(key(spec.startPs - this.t0, spec));
    this.recFinish.push(NaN);
    this.recSeq.push(-1);
    this.recOpen++;
  }

  /** A flow finished (recording). */
  finished(f: Flow): void {
    if (this.mode !== 'record') return;
    const i = this.recIds.get(f.id);
    if (i === undefined) return;
    this.recFinish[i] = f.finishPs - this.t0;
    this.recSeq[i] = this.recKeys.length - this.recOpen; // the finishes recorded before this one
    this.recOpen--;
  }

  /** Keeps one event armed at the earliest replayed finish. */
  private arm(): void {
    let at = Infinity;
    for (const x of this.due) if (x.at < at) at = x.at;
    if (at === this.armedAt && this.armed >= 0) return;
    if (this.armed >= 0) this.sched.cancel(this.armed);
    this.armedAt = at;
    this.armed = at === Infinity ? -1 : this.sched.schedule(at, this.kFinish, 0, 0);
  }

  /** The replayed flows due now finish, in their recorded order (one at a time: a finish may start flows). */
  private finishDue(): void {
    this.armed = -1;
    this.armedAt = Infinity;
    const now = this.sched.now;
    for (;;) {
      let k = -1;
      for (let i = 0; i < this.due.length; i++) {
        const x = this.due[i]!;
        if (x.at <= now && (k < 0 || x.seq < this.due[k]!.seq)) k = i;
      }
      if (k < 0) break;
      const id = this.due[k]!.id;
      this.due.splice(k, 1);
      this.finishPhantom(id);
    }
    this.arm();
  }

  private finishPhantom(id: number): void {
    this.pending--;
    const f = this.transport.flows[id]!;
    f.sndNxt = f.sndUna = f.maxSentSeq = f.sizeBytes;
    f.dataPacketsSent += Math.ceil(f.sizeBytes / f.mtuBytes);
    f.finished = true;
    f.finishPs = this.sched.now + this.transport.finishOffsetPs;
    this.transport.announceFinished(f);
  }
}
