/**
 * The simulation's side of closed-loop workloads (src/workload/driver.ts):
 * one `FlowInjector` for all drivers of a run, the wake-up events they arm,
 * and the finished-flow record they hear. Drivers begin at time 0, after the
 * listed flows that start at 0 have been queued (an event posted when the
 * simulation is built), so listed flows keep the ids they would have without
 * drivers.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { Flow } from '../transport/flow.js';
import type { Transport } from '../transport/transport.js';
import type { FinishedFlow, FlowInjector, JobRecord, NewFlow, WorkloadDriver } from '../workload/driver.js';
import type { FlowSpec } from '../workload/types.js';
import type { IterationReplay } from './replay.js';

/** The reused record a driver hears a finished flow through. */
class FinishedRecord implements FinishedFlow {
  id = 0;
  src = 0;
  dst = 0;
  bytes = 0;
  startPs = 0;
  finishPs = 0;
  tag = '';
}

export class Drivers implements FlowInjector {
  private readonly kWake: number;
  /** token of each armed wake-up, by wake slot; the driver's index is the event's id */
  private readonly tokens: number[] = [];
  private readonly freeSlots: number[] = [];
  /** each armed wake-up's scheduler handle (-1: none pending) and time as the drivers see it, by wake slot */
  private readonly wakeHandles: number[] = [];
  private readonly wakeTimes: number[] = [];
  private readonly wakeDrivers: number[] = [];
  /**
   * fast-forward (sim/fast-forward.ts): simulated time skipped so far, ps. Drivers see the
   * scheduler's time plus this (their flows' start times, wake-ups and job records are in it).
   */
  private offsetPs = 0;
  private readonly rec = new FinishedRecord();
  /** flows started with `notifyAtBytes` that have not reached it: flow id -> driver index */
  private readonly notifyOwner = new Map<number, number>();
  private current = -1;
  /** fast-forward's replay of recurring iterations (sim/replay.ts), or null */
  replay: IterationReplay | null = null;

  constructor(
    private readonly sched: Scheduler,
    private readonly transport: Transport,
    private readonly list: readonly WorkloadDriver[],
    /** called after every driver callback: the run may be done */
    private readonly afterCallback: () => void,
  ) {
    this.kWake = sched.register({ fire: (d, slot) => this.wake(d, slot) }, 'workload: driver wake-up');
    const kBegin = sched.register({ fire: (d) => this.begin(d) }, 'workload: driver begin');
    for (let d = 0; d < list.length; d++) sched.schedule(0, kBegin, d, 0);
  }

  get nowPs(): number {
    return this.sched.now + this.offsetPs;
  }

  start(flow: NewFlow): number {
    const spec: FlowSpec = { src: flow.src, dst: flow.dst, bytes: flow.bytes, startPs: this.sched.now + this.offsetPs };
    if (flow.prio !== undefined) spec.prio = flow.prio;
    if (flow.tag !== undefined) spec.tag = flow.tag;
    const hosts = this.transport.hosts.length;
    for (const k of ['src', 'dst'] as const) {
      const h = spec[k];
      if (!Number.isInteger(h) || h < 0 || h >= hosts) throw new Error(`workload driver ${this.current}: flow ${k} ${h} is not a host (0..${hosts - 1})`);
    }
    if (spec.src === spec.dst) throw new Error(`workload driver ${this.current}: flow from host ${spec.src} to itself`);
    if (!(Number.isSafeInteger(spec.bytes) && spec.bytes > 0)) throw new Error(`workload driver ${this.current}: flow size ${spec.bytes} is not a whole number of bytes > 0`);
    const r = this.replay;
    if (r !== null) {
      const replayed = r.start(spec);
      if (replayed >= 0) return replayed;
    }
    const f = this.transport.injectFlow(spec);
    if (flow.notifyAtBytes !== undefined) {
      const n = flow.notifyAtBytes;
      if (!(Number.isSafeInteger(n) && n > 0 && n <= spec.bytes)) throw new Error(`workload driver ${this.current}: notifyAtBytes ${n} is not a whole number of bytes in 1..${spec.bytes}`);
      f.notifyAtBytes = n;
      this.notifyOwner.set(f.id, this.current);
    }
    if (r !== null) r.started(f.id, spec);
    return f.id;
  }

  /** Whether the only driver says its iterations repeat (`WorkloadDriver.repeatsIterations`). */
  repeats(): boolean {
    const d = this.list[0];
    return this.list.length === 1 && d !== undefined && d.repeatsIterations !== undefined && d.repeatsIterations();
  }

  wakeAt(atPs: number, token: number): void {
    const now = this.nowPs;
    if (!(atPs >= now)) throw new Error(`workload driver ${this.current}: wake-up at ${atPs} ps is before now (${now} ps)`);
    const slot = this.freeSlots.length > 0 ? this.freeSlots.pop()! : this.tokens.length;
    this.tokens[slot] = token;
    this.wakeTimes[slot] = atPs;
    this.wakeDrivers[slot] = this.current;
    this.wakeHandles[slot] = this.sched.schedule(atPs - this.offsetPs, this.kWake, this.current, slot);
  }

  /** The earliest armed wake-up, as the drivers see time (Infinity: none). */
  nextWakePs(): number {
    let t = Infinity;
    for (let s = 0; s < this.wakeHandles.length; s++) if (this.wakeHandles[s]! >= 0 && this.wakeTimes[s]! < t) t = this.wakeTimes[s]!;
    return t;
  }

  /** Fast-forward skipped `ps` without running it: every armed wake-up comes that much earlier on the scheduler's clock. */
  shift(ps: number): void {
    this.offsetPs += ps;
    for (let s = 0; s < this.wakeHandles.length; s++) {
      const h = this.wakeHandles[s]!;
      if (h < 0) continue;
      this.sched.cancel(h);
      this.wakeHandles[s] = this.sched.schedule(this.wakeTimes[s]! - this.offsetPs, this.kWake, this.wakeDrivers[s]!, s);
    }
  }

  private begin(d: number): void {
    this.current = d;
    this.list[d]!.begin(this);
    this.afterCallback();
  }

  private wake(d: number, slot: number): void {
    const token = this.tokens[slot]!;
    this.wakeHandles[slot] = -1;
    this.freeSlots.push(slot);
    this.current = d;
    const drv = this.list[d]!;
    if (this.replay !== null) this.replay.atWake(d, token, this.nowPs);
    if (drv.onWake !== undefined) drv.onWake(token, this);
    this.afterCallback();
  }

  /** Flow `f` reached its `notifyAtBytes` at its destination: tells the driver that started it. */
  received(f: Flow): void {
    const d = this.notifyOwner.get(f.id);
    if (d === undefined) return;
    this.notifyOwner.delete(f.id);
    const drv = this.list[d]!;
    this.current = d;
    if (drv.onFlowReceived !== undefined) drv.onFlowReceived(f.id, this);
    this.afterCallback();
  }

  /** Tells every driver that flow `f` finished (before the stop rule looks). */
  finished(f: Flow): void {
    if (this.replay !== null) this.replay.finished(f);
    const r = this.rec;
    r.id = f.id;
    r.src = f.src;
    r.dst = f.dst;
    r.bytes = f.sizeBytes;
    r.startPs = f.startPs;
    r.finishPs = f.finishPs;
    r.tag = f.tag;
    for (let d = 0; d < this.list.length; d++) {
      const drv = this.list[d]!;
      if (drv.onFlowFinished === undefined) continue;
      this.current = d;
      drv.onFlowFinished(r, this);
    }
  }

  /** The job iterations every driver reports, driver by driver (empty when none runs jobs). */
  jobs(): JobRecord[] {
    const out: JobRecord[] = [];
    for (const d of this.list) if (d.report !== undefined) out.push(...d.report());
    return out;
  }

  /** Whether every driver is done. */
  done(): boolean {
    for (const d of this.list) if (!d.done()) return false;
    return true;
  }
}
