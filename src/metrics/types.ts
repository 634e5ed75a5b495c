/**
 * What a run measures, as plain data: the FCT rows, counters and sampled
 * series the metrics layer collects, and what a simulation asks it to sample.
 * `SimOutput` (src/sim/types.ts re-exports it) is the whole of it.
 */
import type { DeadlockReport } from '../engine/deadlock-report.js';
import type { JobRecord } from '../workload/driver.js';

export type { JobRecord } from '../workload/driver.js';

/** An egress port: node id and port number (k-th link of that node). */
export interface PortRef {
  node: number;
  port: number;
}

export interface MetricsRequest {
  /** sampled egress queue length (bytes, all classes) */
  queuePorts: PortRef[];
  queueIntervalPs: number;
  /**
   * `metrics.queues: auto`: watch every switch egress port every queueIntervalPs and
   * report the `queueAuto` ports with the highest peak queue (src/metrics/samplers.ts);
   * absent = only `queuePorts`
   */
  queueAuto?: number;
  /** sampled transmitted throughput per port */
  throughputPorts: PortRef[];
  throughputIntervalPs: number;
  /** sampled per-flow goodput (acked payload); null = off, [] = all flows */
  flowThroughput: number[] | null;
  flowThroughputIntervalPs: number;
  /** sampled CC state (CcDefinition.traceFields) per flow; null = off, [] = all flows */
  ccTrace: number[] | null;
  ccTraceIntervalPs: number;
  /**
   * Switch buffer sampler (docs/network-model.md §13.3, PowerTCP's printBuffer): every
   * intervalPs the egress bytes summed over all ports of each switch, reported as
   * the maximum of each block of `block` samples. Absent = off.
   */
  switchBuffer?: { nodes: number[]; intervalPs: number; block: number };
  /** the exact FCT breakdown per flow and per port (metrics/breakdown.ts); absent = off */
  breakdown?: boolean;
}

/** A metrics request that samples nothing (intervals at 10 us). */
export function noMetrics(): MetricsRequest {
  return {
    queuePorts: [],
    queueIntervalPs: 10_000_000,
    throughputPorts: [],
    throughputIntervalPs: 10_000_000,
    flowThroughput: null,
    flowThroughputIntervalPs: 10_000_000,
    ccTrace: null,
    ccTraceIntervalPs: 1_000_000,
  };
}

export interface FctRow {
  id: number;
  src: number;
  dst: number;
  bytes: number;
  startPs: number;
  finishPs: number;
  fctPs: number;
  idealFctPs: number;
  slowdown: number;
  tag: string;
  /** with `metrics.breakdown`: where the flow's time went (metrics/breakdown.ts) */
  breakdown?: FlowBreakdown;
}

/** One finished flow's FCT breakdown (docs/guide.md, "Why a flow was slow"): parts in BREAKDOWN_PARTS order, ps, summing to the FCT. */
export interface FlowBreakdown {
  parts: number[];
  /** the port where the flow waited longest in total (-1 / '' when it never waited) */
  worstNode: number;
  worstPort: number;
  worstRole: string;
  worstQueuePs: number;
}

/** A port's breakdown totals: queueing its flows met there, time it was paused, pause time it caused upstream (ps). */
export interface PortBreakdown {
  node: number;
  port: number;
  peer: number;
  role: string;
  queuePs: number;
  pausedPs: number;
  pauseCausedPs: number;
}

/** The breakdown of a run: the finished flows' parts (in completion order) and the per-port totals. */
export interface BreakdownOutput {
  parts: string[];
  count: number;
  bytes: Float64Array;
  fctPs: Float64Array;
  tag: string[];
  /** count x parts.length, flow-major */
  values: Float64Array;
  ports: PortBreakdown[];
}

/**
 * The finished flows' numbers a summary needs, as typed columns (one entry
 * per finished flow, in completion order): what a run keeps in place of FCT
 * rows when the rows stream to a file (`SimInput.fctSink`).
 */
export interface FctColumns {
  count: number;
  bytes: Float64Array;
  slowdown: Float64Array;
  fctPs: Float64Array;
  /** index into `tags` */
  tag: Int32Array;
  tags: string[];
}

export interface UnfinishedFlow {
  id: number;
  src: number;
  dst: number;
  bytes: number;
  ackedBytes: number;
  startPs: number;
  tag: string;
}

export interface SeriesSample {
  tPs: number;
  value: number;
}

export interface PortSeries {
  node: number;
  port: number;
  /** sample times (ps) */
  t: number[];
  /** queue bytes, or throughput bps */
  v: number[];
}

export interface FlowSeries {
  flow: number;
  t: number[];
  /** goodput bps over the interval ending at t */
  v: number[];
}

/** Per node counters (ports summed) with a per-port breakdown. */
export interface NodeCounters {
  node: number;
  name: string;
  layer: string;
  pausesSent: number;
  pausesReceived: number;
  resumesSent: number;
  resumesReceived: number;
  drops: number;
  /** drop counts by reason (docs/network-model.md §11.8) */
  dropsByReason: Record<string, number>;
  txBytes: number;
  ecnMarked: number;
}

export interface PortCounters {
  node: number;
  port: number;
  peer: number;
  pausesSent: number;
  pausesReceived: number;
  drops: number;
  txBytes: number;
  txPackets: number;
  maxQueueBytes: number;
}

/** Sampled CC state of one flow: `v` holds `fields.length` values per sample time, flattened. */
export interface CcTraceSeries {
  flow: number;
  t: number[];
  v: number[];
}

export interface CcTrace {
  /** the CC's traceFields (empty if the CC traces nothing) */
  fields: string[];
  series: CcTraceSeries[];
}

/**
 * What fast-forward skipped (`engine.fastForward`, sim/fast-forward.ts; docs/performance.md,
 * "Fast-forward"). Times are simulated ps; the port and node counters and `events` count the
 * simulated packets only, not the skipped bytes.
 */
export interface FastForwardStats {
  /** skips made */
  skips: number;
  /** simulated time skipped, ps */
  skippedPs: number;
  /** events the skipped spans would have run, at each span's observed event rate */
  skippedEventsEstimate: number;
  /** payload bytes delivered in the skipped spans (added to the flows' sequence numbers) */
  skippedBytes: number;
  /** with `replay` (sim/replay.ts): iterations replayed from their record, their recorded span (ps, not in skippedPs) and flows */
  replays?: number;
  replayedPs?: number;
  replayedFlows?: number;
  /** the largest relative deviation of a flow's per-interval goodput from its mean in a window that led to a skip */
  maxGoodputDeviation: number;
  /** when each skip started (simulated ps, as reported), how long it was, and (with more than one group, sim/fast-forward-groups.ts) of which group */
  spans: { atPs: number; ps: number; flows: number; group?: number }[];
}

export interface SimOutput {
  /** FCT rows of the finished flows in id order (empty when they went to `SimInput.fctSink`) */
  fct: FctRow[];
  /** with `SimInput.fctSink`: the finished flows' numbers for the summary */
  fctColumns?: FctColumns;
  /**
   * flows whose state the run still held at the end: the started, unfinished
   * ones and finished ones that could not be released (they retransmitted),
   * or every flow when a per-flow sampler (flowThroughput, ccTrace) needed them
   */
  heldFlows?: number;
  unfinished: UnfinishedFlow[];
  queues: PortSeries[];
  throughput: PortSeries[];
  flowThroughput: FlowSeries[];
  /** per switch, max-of-block total egress bytes (metrics.switchBuffer); t = end of the block */
  switchBuffer?: { node: number; t: number[]; v: number[] }[];
  /** sampled CC state, when metrics.ccTrace asked for it */
  ccTrace?: CcTrace;
  nodes: NodeCounters[];
  ports: PortCounters[];
  totals: {
    flows: number;
    finished: number;
    drops: number;
    pausesSent: number;
    retransmittedPackets: number;
    timeouts: number;
    dataPacketsSent: number;
    /**
     * only when some switch trims (admission.ts TRIM, e.g. NDP): data packets
     * cut to their header, packets of the header queue lost (no room, or
     * returned twice), and headers returned to their sender
     */
    trimmedPackets?: number;
    headerDrops?: number;
    returnedHeaders?: number;
    /**
     * only when the switches run BFC (net/bfc.ts): per-flow pause frames sent,
     * flows given a physical queue that already held a flow because none was
     * empty (queue sharing, head-of-line blocking), and the most physical
     * queues with flows at one port at once
     */
    bfcPauses?: number;
    bfcSharedAssignments?: number;
    bfcMaxQueuesInUse?: number;
  };
  /** simulated time reached, ps */
  endPs: number;
  events: number;
  wallMs: number;
  /** present only when the run ended on a PFC deadlock */
  deadlock?: DeadlockReport;
  /** iterations of the jobs closed-loop workloads ran (collectives), present only when there are some */
  jobs?: JobRecord[];
  /** with `metrics.breakdown` (metrics/breakdown.ts) */
  breakdown?: BreakdownOutput;
  /** with `engine.fastForward`: what was skipped */
  fastForward?: FastForwardStats;
}
