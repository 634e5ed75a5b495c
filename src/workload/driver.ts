/**
 * Closed-loop workloads (docs/extending.md, "Adding a workload"): a driver
 * starts flows while the simulation runs, through a `FlowInjector`, hears
 * every flow that finishes, and says when it is done. A collective's next
 * ring step starts when the step before it has arrived; a client sends its
 * next request when the previous response finished; a parameter server
 * answers when all shards of an iteration are in.
 *
 * The simulation (src/sim/simulate.ts) owns the injector. Flow ids of a run
 * are given in the order flows start: the open-loop flows of every entry
 * first claim ids as they start, and an injected flow takes the next id at
 * the instant it is injected, so the same spec and seed give the same ids.
 * A run whose drivers are all done and whose flows have all finished ends
 * (unless it has a hard stop); a stop rule ends it earlier.
 */

/** A flow a driver starts now. Host ids are topology host ids. */
export interface NewFlow {
  src: number;
  dst: number;
  bytes: number;
  /** priority class 0..7; undefined = the profile's data priority */
  prio?: number;
  /** label carried to the FCT rows (and to `cc.byTag`) */
  tag?: string;
  /**
   * Once the destination has received this many bytes of the flow in order (1..bytes), the
   * driver's `onFlowReceived` hears of it: a receiver that acts before the whole flow is in
   * (the OSCAR artifact's training passes, src/workload/passes.ts).
   */
  notifyAtBytes?: number;
}

/** A finished flow, as a driver hears of it. The record is reused: copy what you keep. */
export interface FinishedFlow {
  readonly id: number;
  readonly src: number;
  readonly dst: number;
  readonly bytes: number;
  readonly startPs: number;
  readonly finishPs: number;
  readonly tag: string;
}

/** What a driver may do during a run. */
export interface FlowInjector {
  /** simulated time now, ps */
  readonly nowPs: number;
  /** Starts a flow now and returns its id. */
  start(flow: NewFlow): number;
  /** Calls the driver's `onWake(token)` at simulated time `atPs` (>= now): think or compute time. */
  wakeAt(atPs: number, token: number): void;
}

/**
 * One iteration of a job a driver runs (a collective's all-reduce, a
 * parameter server's round): what jobs.csv and summary.json's `jobs` report
 * (docs/guide.md, "Collective workloads").
 */
export interface JobRecord {
  /** the job's name (a collective: its tag, or tag/group index when the entry has several groups) */
  job: string;
  /** 0-based */
  iteration: number;
  startPs: number;
  finishPs: number;
  /** payload bytes the iteration's flows carried */
  bytes: number;
}

/** A closed-loop workload during one run. */
export interface WorkloadDriver {
  /** Called once, at time 0, before any event: start the first flows or arm a wake-up. */
  begin(inj: FlowInjector): void;
  /** Every finished flow of the run (the driver's own and the others'), at its finish time. */
  onFlowFinished?(f: FinishedFlow, inj: FlowInjector): void;
  /** Flow `id` (one this driver started with `notifyAtBytes`) has that many bytes in order at its destination, now. */
  onFlowReceived?(id: number, inj: FlowInjector): void;
  /** A wake-up armed with `wakeAt`. */
  onWake?(token: number, inj: FlowInjector): void;
  /** True once the driver will start no more flows (the run may end when its flows have finished). */
  done(): boolean;
  /** The iterations of its jobs that finished, in finish order (read once, after the run). */
  report?(): JobRecord[];
  /**
   * True when the driver runs one job whose iterations, each begun by a wake-up, start the same
   * flows at the same times after the wake-up given the same finish times (no random draw):
   * fast-forward may then replay an iteration whose network state matches (sim/replay.ts).
   * Absent: false.
   */
  repeatsIterations?(): boolean;
}
