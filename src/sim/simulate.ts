/**
 * Builds a simulation from a resolved `SimInput`, runs it and collects a
 * `SimOutput`, in one call (`simulate`) or in steps (`Simulation`). Everything
 * lives in objects created here (one `Scheduler`, one `NetContext`), so two
 * runs in one process never share state.
 */
import { findCc, ccNames } from '../cc/registry.js';
import { ccNeeds, unmetNeeds, type CcDefinition } from '../cc/types.js';
import { applyCcNetwork, ccNetworkSettings } from '../cc/network-settings.js';
import { Rng } from '../engine/rng.js';
import { Scheduler } from '../engine/scheduler.js';
import { US } from '../engine/units.js';
import { collectResults, FctRecorder } from '../metrics/collect.js';
import { Breakdown } from '../metrics/breakdown.js';
import { Samplers, type AutoQueues } from '../metrics/samplers.js';
import { NetContext } from '../net/context.js';
import { DEFAULT_DEADLOCK, findDeadlockCycle, type DeadlockOptions, type DeadlockReport } from '../net/deadlock.js';
import { installLinkChanges } from '../net/link-changes.js';
import { installRdcn, type RdcnInstance } from '../net/rdcn.js';
import { Network } from '../net/network.js';
import { buildPortMap, computeRoutes, PathOracle } from '../net/topology/routing.js';
import { holdGridPs } from '../net/topology/partition.js';
import type { Flow } from '../transport/flow.js';
import { createFlows, FlowFactory, startOrder } from '../transport/setup.js';
import { Transport } from '../transport/transport.js';
import type { FlowSpec, FlowStream } from '../workload/types.js';
import { Drivers } from './drivers.js';
import { FastForward, fastForwardRefusals } from './fast-forward.js';
import { flowGroups, type FlowGroups } from './fast-forward-groups.js';
import { IterationReplay } from './replay.js';
import type { SimInput, SimOutput } from './types.js';

/** A flow list as a stream, in start order (`startOrder`). */
class SpecListStream implements FlowStream {
  private i = 0;
  constructor(
    private readonly specs: readonly FlowSpec[],
    private readonly order: Int32Array,
  ) {}
  peekStartPs(): number {
    return this.i < this.order.length ? this.specs[this.order[this.i]!]!.startPs : Infinity;
  }
  next(): FlowSpec {
    return this.specs[this.order[this.i++]!]!;
  }
}

/** Fast-forward's groups when there are several to advance on their own (sim/fast-forward-groups.ts), else null. */
function ffGroupsOf(input: SimInput, network: Network, stream: FlowStream | undefined): FlowGroups | null {
  if (input.fastForward === undefined || input.fastForward === null) return null;
  if (stream !== undefined || (input.drivers ?? []).length > 0 || input.stopAtPs !== null || input.flows.length < 2) return null;
  if (input.topology.rdcn !== undefined || input.circuitSchedule !== undefined) return null; // refused (fast-forward-refusals.ts)
  const order = startOrder(input.flows);
  const ends = new Int32Array(2 * order.length);
  for (let id = 0; id < order.length; id++) {
    const f = input.flows[order[id]!]!;
    ends[2 * id] = f.src;
    ends[2 * id + 1] = f.dst;
  }
  const g = flowGroups(network, ends);
  return g.count > 1 ? g : null;
}

/**
 * Runs `input` to its end (every flow finished, `stopAtPs`, `maxTimePs`, or a
 * PFC deadlock) and returns the results.
 */
export function simulate(input: SimInput): SimOutput {
  const sim = new Simulation(input);
  sim.runUntil(Infinity);
  return sim.finish();
}

/**
 * One simulation that can be advanced in steps: `runUntil(ps)` as often as
 * wanted, then `finish()`. Stepping does not change the results: the event
 * order is fixed by (time, insertion order) and the deadlock checks happen at
 * fixed simulated times, so any sequence of `runUntil` calls gives what
 * `simulate` gives. Several simulations may be stepped in turn in one process
 * (they share no state). The network and transport are exposed for tests and
 * tools that observe a run; changing them changes the run.
 */
export class Simulation {
  readonly input: SimInput;
  readonly sched: Scheduler;
  /** the reconfigurable fabric, when the topology has one (net/rdcn.ts) */
  rdcn: RdcnInstance | null = null;
  readonly ctx: NetContext;
  readonly network: Network;
  readonly transport: Transport;
  private readonly wallStart: number;
  private readonly stream: FlowStream | undefined;
  private readonly recorder: FctRecorder;
  /** the FCT breakdown (metrics.breakdown), or null */
  readonly breakdown: Breakdown | null;
  private readonly samplers: Samplers;
  private readonly untilDone: boolean;
  private endPs: number;
  /** the scheduler was stopped when everything was done: the events left at that instant still run */
  private stoppedAtDone = false;
  private readonly dl: DeadlockOptions | null;
  private readonly listBytes: number;
  private done: boolean;
  private over = false;
  private nextCheck: number;
  private deadlock: DeadlockReport | undefined;
  private chunk = 10 * US;
  private lastProgress: number;
  private live = 0;
  private readonly drivers: Drivers | null;
  /** the link events run so far (net/link-changes.ts) */
  private readonly linkChanges: { fired: number };
  /** the end of the window whose held packets are released next (NetContext.holdGridPs; Infinity: none held) */
  private holdEnd = Infinity;
  /**
   * false in a partition of a parallel run (sim/partition-run.ts): its window loop
   * (sim/parallel/partition-loop.ts) releases the held links, and a scheduler that runs out of
   * events only idles to the window's end, since packets may still come across a cut
   */
  ownWindows = true;
  /** in a partition: when this scheduler last ran out of events (ps), and its event count then */
  idleAtPs = 0;
  private idleEvents = -1;
  /** steady-state fast-forward (sim/fast-forward.ts), or null (off) */
  readonly ff: FastForward | null = null;
  /** the next fast-forward sampling time on the scheduler's clock (Infinity: off) */
  private ffNext = Infinity;
  /** a partition's worker (sim/partition-run.ts): replaces the deadlock check, true to end the run */
  deadlockHook: ((nowPs: number, minPausedPs: number, frozen: boolean) => boolean) | null = null;

  /** Builds the simulation; `cc` replaces the registry's `input.cc.name` (tests with their own CC). */
  constructor(input: SimInput, cc?: CcDefinition) {
    this.wallStart = performance.now();
    this.input = input;
    const def = cc ?? findCc(input.cc.name);
    if (def === undefined) throw new Error(`unknown congestion control "${input.cc.name}" (known: ${ccNames().join(', ')})`);
    const params: unknown = def.params.parse(input.cc.params ?? {});
    // what the CC turns on in the network (NDP: trimming, spraying, no PFC); a resolved spec has it already
    const net = applyCcNetwork(input.net, ccNetworkSettings(def, params, input.net));
    const tc = net.transport;
    const unmet = unmetNeeds(def, net, params);
    if (unmet.length > 0) throw new Error(unmet.join('; '));

    const sched = new Scheduler(4096);
    this.sched = sched;
    const ctx = new NetContext(sched, tc.txTimeQuantization);
    this.ctx = ctx;
    ctx.pfcBytes = tc.pfcBytes;
    const rng = new Rng(input.seed);
    const topo = input.topology;
    const portMap = buildPortMap(topo);
    const routes = computeRoutes(topo, portMap);
    const oracle = new PathOracle(topo, portMap);
    const network = new Network(ctx, topo, net, portMap, routes, rng.fork('net'), ccNeeds(def, params));
    this.network = network;
    const transport = new Transport(ctx, net, network.hosts, def);
    this.transport = transport;
    const byTag = new Map<string, unknown>();
    for (const [tag, p] of Object.entries(input.cc.byTag ?? {})) byTag.set(tag, def.params.parse(p));
    transport.setCcParams(params, byTag);
    // a driver that plans from the run's CC and message sizes (Homa's priority plan, transport/homa.ts)
    if (transport.driver.prepareRun !== undefined) transport.driver.prepareRun({ name: def.name, params }, input.flows.map((f) => f.bytes));
    for (const h of network.hosts) h.endpoint = transport;

    // ---- flows: made as they start and dropped when finished, unless a per-flow sampler needs
    // every flow from the start (metrics.flowThroughput / ccTrace)
    const ccHeaders = { data: def.dataHeaderBytes(net, params as never), ack: def.ackHeaderBytes(net, params as never) };
    const stream = input.flowStream;
    this.stream = stream;
    if (stream !== undefined && input.flows.length > 0) throw new Error('simulate: give flows or flowStream, not both');
    // fast-forward's groups (sim/fast-forward-groups.ts): listed flows, no closed-loop workload, run
    // until done; with more than one, every flow is made up front (its group's starts walk its own chain)
    const ffGroups = ffGroupsOf(input, network, stream);
    const eager = input.metrics.flowThroughput !== null || input.metrics.ccTrace !== null || ffGroups !== null;
    const factory = new FlowFactory(net, transport, network, oracle, ccHeaders);
    let flows: Flow[] = [];
    if (eager) {
      let specs = input.flows;
      if (stream !== undefined) {
        specs = [];
        while (stream.peekStartPs() !== Infinity) specs.push(stream.next());
      }
      if (net.switch.loadBalancing === 'ns3Hash') ctx.flowKeys = new Int32Array(3 * specs.length);
      flows = createFlows(specs, factory);
      transport.addFlows(flows, factory);
      ctx.flowDrops = new Int32Array(flows.length);
    } else {
      transport.addFlowStream(stream ?? new SpecListStream(input.flows, startOrder(input.flows)), factory, true);
      ctx.flowDrops = new Int32Array(input.flows.length);
      if (net.switch.loadBalancing === 'ns3Hash') ctx.flowKeys = new Int32Array(3 * input.flows.length);
    }
    const recorder = new FctRecorder(net.metrics.clampSlowdownAt1, input.fctSink ?? null);
    this.recorder = recorder;

    // ---- closed-loop workloads, then the stop rule: a run is done when no listed flow is left to
    // start, every flow started has finished, and every driver is done
    const drivers = input.drivers ?? [];
    this.drivers = drivers.length > 0 ? new Drivers(sched, transport, drivers, () => this.checkDone()) : null;
    const untilDone = input.stopAtPs === null;
    this.untilDone = untilDone;
    this.done = this.allDone();
    const bd = input.metrics.breakdown === true ? new Breakdown(ctx, network, transport, topo) : null;
    this.breakdown = bd;
    if (bd !== null) {
      transport.addFinishListener((f) => bd.finished(f));
      recorder.attach = (row) => bd.attach(row);
    }
    transport.addFinishListener((f) => recorder.add(f));
    if (this.drivers !== null) {
      const d = this.drivers;
      transport.addFinishListener((f) => d.finished(f));
      transport.setReceivedListener((f) => d.received(f));
    }
    transport.addFinishListener(() => this.checkDone());

    // ---- the topology over time: link events and a circuit schedule (net/link-changes.ts)
    this.linkChanges = installLinkChanges(sched, network, input.linkEvents, input.circuitSchedule);
    // links between switches hold what they send until the window's end (NetContext.holdGridPs);
    // not on circuit fabrics, whose ports change peers (they run on one thread only)
    const hold = topo.rdcn === undefined && input.circuitSchedule === undefined ? holdGridPs(topo) : 0;
    if (hold > 0) {
      ctx.holdGridPs = hold;
      this.holdEnd = hold;
      for (const p of ctx.ports) if (p.node >= topo.hostCount && p.peerNode >= topo.hostCount && p.delayPs >= hold) p.holdLink();
    }
    // a reconfigurable fabric's circuits and VOQs (net/rdcn.ts): the largest data packet sets the guard before dusk
    if (topo.rdcn !== undefined) this.rdcn = installRdcn(sched, network, topo.rdcn, tc.mtuBytes + tc.dataHeaderBytes + ccHeaders.data);

    // ---- samplers
    // with held links the samplers go on to the run's end (the held links' window of the last finish, or stop.at), as a
    // partition of a parallel run, which cannot know that every flow is done, does
    this.samplers = new Samplers(sched, input.metrics, network, flows, () => this.done && ctx.holdGridPs === 0, def.traceFields);

    // ---- steady-state fast-forward (engine.fastForward): refused where it cannot be exact enough
    if (input.fastForward !== undefined && input.fastForward !== null) {
      const no = fastForwardRefusals(input, def, net);
      if (no.length > 0) throw new Error(`engine.fastForward refused: ${no.join('; ')}`);
      const timerPs = def.fastForwardTimerPs === undefined ? 0 : def.fastForwardTimerPs(params as never, net, network.hostRateBps);
      this.ff = new FastForward(input.fastForward, sched, ctx, transport, this.drivers, 0, ffGroups, timerPs);
      if (input.fastForward.replay) {
        // docs/performance.md, "Reuse of recurring contention patterns": the conditions the run's build shows
        const no: string[] = [];
        if (this.drivers === null || !this.drivers.repeats()) no.push('the closed-loop workload does not repeat its iterations (one job, no random draws: a collective with one group, not MoE)');
        if (ctx.holdGridPs > 0) no.push(`held links (a ${ctx.holdGridPs} ps window grid) make the run depend on absolute time`);
        if (routes.routeCount.some((c) => c > 1)) no.push('the fabric has equal-cost paths: a flow\'s path depends on its identity');
        if (no.length > 0) throw new Error(`engine.fastForward refused: engine.fastForward.replay: ${no.join('; ')}`);
        this.drivers!.replay = new IterationReplay(sched, ctx, transport, this.ff.stats);
      }
      this.ffNext = 0;
    }

    // ---- run
    this.endPs = input.stopAtPs ?? input.maxTimePs;
    if (this.done && untilDone) this.endAt(0);
    this.dl = input.deadlock === undefined ? DEFAULT_DEADLOCK : input.deadlock;
    this.nextCheck = this.dl === null ? Infinity : this.dl.checkIntervalPs;
    this.lastProgress = performance.now();
    // progress: work done out of all flows' bytes (a stream's flows count from when they start)
    let listBytes = 0;
    for (const f of input.flows) listBytes += f.bytes;
    this.listBytes = listBytes;
  }

  private allDone(): boolean {
    const t = this.transport;
    return !t.hasUnstarted() && t.finishedCount === t.flows.length && (this.drivers === null || this.drivers.done());
  }

  /**
   * Ends a run-until-done run once everything is done (after every finished flow and driver
   * callback): with held links, at the last picosecond of the held links' window it happened in
   * (the events up to that instant still run, so a run ends at the same instant on one thread
   * and on many, whose windows are the grid's: docs/architecture.md, "Parallel runs"); without
   * them (one partition only), at once.
   */
  private checkDone(): void {
    if (this.done || !this.allDone()) return;
    this.done = true;
    if (this.untilDone && this.ctx.holdGridPs === 0) {
      // no held links (so never more than one partition): the run ends now
      this.endAt(this.sched.now);
      this.sched.stop();
    } else if (this.untilDone) {
      const g = this.ctx.holdGridPs;
      this.endAt((Math.floor(this.sched.now / g) + 1) * g - 1);
      // (the running slice may reach past the end: stop it, and let runUntil run the rest of the window)
      this.sched.stop();
      this.stoppedAtDone = true;
    }
  }

  /** Ends the run at `ps` (>= now) if it would end later: a partition of a parallel run learns the end from the others (sim/parallel/parallel-worker.ts). */
  endAt(ps: number): void {
    if (ps < this.endPs) this.endPs = ps;
  }

  /** `queues: auto`'s raw state (metrics/samplers.ts), for a parallel run's merge; null without it. */
  autoQueues(): AutoQueues | null {
    return this.samplers.autoRaw();
  }

  /** Events of no node run so far (the flow-start chain, the samplers): every partition of a parallel run runs them. */
  get globalEvents(): number {
    return this.transport.startChainEvents + this.samplers.fires + this.linkChanges.fired;
  }

  /** Simulated time, ps. */
  get nowPs(): number {
    return this.sched.now;
  }

  /** Whether the run has ended (every flow finished, the stop or end time, or a deadlock). */
  get ended(): boolean {
    return this.over;
  }

  private checkDeadlock(frozen: boolean): boolean {
    const dl = this.dl;
    if (dl === null || this.done) return false;
    const now = this.sched.now;
    if (this.deadlockHook !== null) return this.deadlockHook(now, dl.minPausedPs, frozen);
    const cycle = findDeadlockCycle(this.network, now, dl.minPausedPs, frozen);
    if (cycle === null) return false;
    this.deadlock = { detectedAtPs: now, minPausedPs: dl.minPausedPs, frozen, cycle, unfinishedFlows: 0, drops: 0, unfinishedWithDrops: 0, dropsRuledOut: false };
    return true;
  }

  private report(): void {
    const input = this.input;
    if (input.onProgress === undefined) return;
    const transport = this.transport;
    let acked = transport.finishedBytes;
    let startedBytes = transport.finishedBytes;
    const all = transport.flows;
    // flows below `live` have all finished: skip them (flows tend to finish in start order)
    let live = this.live;
    while (live < all.length && (all[live] === null || all[live]!.finished)) live++;
    this.live = live;
    for (let i = live; i < all.length; i++) {
      const f = all[i]!;
      if (f === null || f.finished) continue;
      acked += f.sndUna;
      startedBytes += f.sizeBytes;
    }
    const total = this.stream === undefined && this.drivers === null ? input.flows.length : all.length;
    const endPs = this.endPs;
    const totalBytes = this.stream === undefined && this.drivers === null ? this.listBytes : startedBytes;
    input.onProgress(Math.min(this.sched.now, endPs), endPs, this.sched.eventsProcessed, transport.finishedCount, total, acked, totalBytes);
  }

  /**
   * Runs every event up to simulated time `limitPs` (inclusive), or until the
   * run ends if that comes first. Returns true once the run has ended. With
   * fast-forward, `limitPs` is on the scheduler's clock (reported time minus
   * what was skipped so far: `ff.offsetPs`).
   */
  runUntil(limitPs: number): boolean {
    const sched = this.sched;
    // run in slices of simulated time sized to take ~0.1-0.5 s of wall time each, so progress can be shown;
    // slices also end at the deadlock-check times (fixed simulated times: results do not depend on the slicing)
    while (!this.over) {
      const t0 = performance.now();
      let until = Math.min(sched.now + this.chunk, this.endPs, this.nextCheck, this.ffNext, limitPs);
      const edge = this.ownWindows ? this.holdEnd - 1 : Infinity;
      if (edge < until) until = edge;
      let emptied = sched.run(until);
      if (sched.now >= edge || (emptied && this.ctx.holding && this.ownWindows)) {
        // a window's end: the held links' packets join their links (NetContext.releaseHeld)
        this.ctx.releaseHeld();
        const next = sched.peekTime();
        if (next !== Infinity) emptied = false;
        this.holdEnd = next === Infinity ? Infinity : (Math.floor(next / this.ctx.holdGridPs) + 1) * this.ctx.holdGridPs;
      }
      const t1 = performance.now();
      if (t1 - t0 < 100) this.chunk *= 2;
      else if (t1 - t0 > 500 && this.chunk > 1 * US) this.chunk = Math.floor(this.chunk / 2);
      if (t1 - this.lastProgress > 200) {
        this.report();
        this.lastProgress = t1;
      }
      if (emptied && !this.ownWindows) {
        // a partition: packets may still come across a cut (net/crossing.ts), so the window goes on, empty
        if (sched.eventsProcessed !== this.idleEvents) {
          this.idleAtPs = sched.now;
          this.idleEvents = sched.eventsProcessed;
        }
        sched.now = until;
      } else if (emptied) {
        // nothing can happen any more: paused queues stay paused for ever
        this.checkDeadlock(true);
        break;
      }
      if (sched.now >= this.ffNext && !emptied) this.fastForward();
      if (sched.now >= this.nextCheck) {
        this.nextCheck += this.dl!.checkIntervalPs;
        if (this.checkDeadlock(false)) break;
      }
      const stopped = this.stoppedAtDone;
      this.stoppedAtDone = false;
      if (sched.now >= this.endPs && !stopped) break;
      if (sched.now >= limitPs) return false;
    }
    this.over = true;
    return true;
  }

  /** At a fast-forward sampling time: sample, and skip when the run is steady (sim/fast-forward.ts). */
  private fastForward(): void {
    const ff = this.ff!;
    if (!this.done) this.endPs -= ff.check(this.endPs);
    this.ffNext = this.done ? Infinity : ff.nextPs;
  }

  /** Collects the results at the current simulated time (normally after `runUntil` returned true). */
  finish(): SimOutput {
    this.report();
    const input = this.input;
    const results = collectResults(this.transport, this.recorder, input.topology, this.network);
    const deadlock = this.deadlock;
    if (deadlock !== undefined) {
      deadlock.unfinishedFlows = results.totals.flows - results.totals.finished;
      deadlock.drops = results.totals.drops;
      let lossy = 0;
      for (const u of results.unfinished) if ((this.ctx.flowDrops[u.id] ?? 0) > 0) lossy++;
      deadlock.unfinishedWithDrops = lossy;
      deadlock.dropsRuledOut = lossy === 0;
    }
    const samplers = this.samplers;
    const jobs = this.drivers === null ? [] : this.drivers.jobs();
    return {
      ...results,
      queues: samplers.queues,
      throughput: samplers.throughput,
      flowThroughput: samplers.flows,
      ccTrace: samplers.ccTrace,
      ...(input.metrics.switchBuffer !== undefined ? { switchBuffer: samplers.switchBuffer } : {}),
      endPs: this.ff === null ? this.sched.now : this.ff.reportedEndPs(this.sched.now),
      events: this.sched.eventsProcessed,
      wallMs: performance.now() - this.wallStart,
      ...(deadlock !== undefined ? { deadlock } : {}),
      ...(jobs.length > 0 ? { jobs } : {}),
      ...(this.breakdown !== null ? { breakdown: this.breakdown.output(this.sched.now) } : {}),
      ...(this.ff !== null ? { fastForward: this.ff.stats } : {}),
    };
  }
}
