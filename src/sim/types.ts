/**
 * What a simulation run consumes (`SimInput`, resolved from a validated spec)
 * and what it produces (`SimOutput`, the metrics layer's results, which the
 * experiment layer turns into result files). Plain data.
 */
import type { FctRow, MetricsRequest } from '../metrics/types.js';
import type { NetworkConfig } from '../net/config.js';
import type { DeadlockOptions } from '../net/deadlock.js';
import type { CircuitSchedule, LinkEvent } from '../net/link-changes.js';
import type { Topology } from '../net/topology/types.js';
import type { WorkloadDriver } from '../workload/driver.js';
import type { FlowSpec, FlowStream } from '../workload/types.js';

export type {
  CcTrace,
  CcTraceSeries,
  FastForwardStats,
  FctColumns,
  FctRow,
  FlowSeries,
  JobRecord,
  MetricsRequest,
  NodeCounters,
  PortCounters,
  PortRef,
  PortSeries,
  SeriesSample,
  SimOutput,
  UnfinishedFlow,
} from '../metrics/types.js';
export { noMetrics } from '../metrics/types.js';

/** Scheduled changes of links and circuit schedules: net/link-changes.ts (docs/network-model.md §2.1). */
export type { CircuitSchedule, LinkEvent, LinkRateEvent, LinkStateEvent } from '../net/link-changes.js';

/** Steady-state fast-forward's knobs (sim/fast-forward.ts; docs/performance.md, "Fast-forward"). */
export interface FastForwardOptions {
  /**
   * relative tolerance of every flow's per-interval goodput (plus one MTU per interval: goodput
   * moves in whole packets) and rate (or window), and of the queues, around their window means
   */
  tolerance: number;
  /**
   * relative change of a flow's goodput allowed over a skip, extrapolating the drift between the
   * window's halves: a skip is at most driftTolerance x goodput / |drift| long
   */
  driftTolerance: number;
  /** length of one observation interval, in round trips (the largest base RTT of the flows in progress) */
  intervalRtts: number;
  /** consecutive intervals that must all be steady */
  intervals: number;
  /** a skip ends this many round trips before the earliest computed finish, so finishes run packet by packet */
  marginRtts: number;
  /** skips shorter than this many round trips are not made */
  minSkipRtts: number;
  /** a queue is steady when every sample is within tolerance x its mean plus this many bytes */
  queueSlackBytes: number;
  /** replay a closed-loop job's recurring iterations from their record (sim/replay.ts); refused where it is invalid */
  replay: boolean;
}

export { DEFAULT_FAST_FORWARD } from './fast-forward-refusals.js';

export interface SimInput {
  seed: number;
  topology: Topology;
  net: NetworkConfig;
  /** `byTag`: per-workload-tag parameter overrides, already merged with `params` (spec `cc.byTag`) */
  cc: { name: string; params: Record<string, unknown>; byTag?: Record<string, Record<string, unknown>> };
  flows: FlowSpec[];
  /**
   * Flows made lazily, in start order, after none of `flows` (which must then
   * be empty): a workload of millions of flows without holding them.
   */
  flowStream?: FlowStream;
  /**
   * Closed-loop workloads (src/workload/driver.ts): each begins at time 0 and
   * starts flows while the run goes on; their flows take ids after the listed
   * flows that started before them. A run until done waits for every driver.
   */
  drivers?: WorkloadDriver[];
  /**
   * Receives every finished flow's FCT row, in flow id order, as soon as the
   * rows before it are known; the output's `fct` then stays empty and
   * `fctColumns` holds what the summary needs.
   */
  fctSink?: (row: FctRow) => void;
  /** hard stop time in ps; null = run until every flow finished (bounded by maxTimePs) */
  stopAtPs: number | null;
  maxTimePs: number;
  linkEvents: LinkEvent[];
  /** a rotating circuit schedule (PowerTCP §5): its circuit links go down and up per slot */
  circuitSchedule?: CircuitSchedule;
  metrics: MetricsRequest;
  /**
   * PFC deadlock detection (net/deadlock.ts): a run whose fabric deadlocks ends
   * at the check that finds the cycle. Absent: on with DEFAULT_DEADLOCK; null: off.
   */
  deadlock?: DeadlockOptions | null;
  /** steady-state fast-forward (sim/fast-forward.ts; spec `engine.fastForward`); absent or null: off */
  fastForward?: FastForwardOptions | null;
  /**
   * Called now and then (every ~0.2 s of wall time, never per packet) with
   * simulated time, events so far, finished flows, and the payload bytes
   * acknowledged so far out of all flows' bytes (the work done).
   */
  onProgress?: (
    nowPs: number,
    endPs: number,
    events: number,
    finishedFlows: number,
    totalFlows: number,
    ackedBytes: number,
    totalBytes: number,
  ) => void;
}
