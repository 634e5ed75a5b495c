/**
 * Periodic samplers (docs/network-model.md §13.3, §13.4): egress queue bytes per
 * chosen port, transmitted throughput per chosen port and acknowledged goodput
 * per chosen flow, and the state of the CC of chosen flows (the fields named by
 * `CcDefinition.traceFields`, read through `CcInstance.traceState`). One event per interval per kind, whatever the number of
 * sampled items; sampling stops once every flow has finished.
 *
 * `metrics.queues: auto` (MetricsRequest.queueAuto = k): every switch egress port
 * is watched at the queue interval into a fixed buffer per port (AUTO_CAP
 * samples; when full, neighbouring samples merge into their maximum and the
 * recorded interval doubles, so memory stays bounded and peaks are kept); at
 * the end the k ports with the highest peak are reported as queue series. Off
 * unless asked for: the sampling event is not even scheduled.
 *
 * Time stamps: a queue sample is the queue at its time stamp (the first at 0;
 * after auto's merging, the maximum over the interval starting there);
 * a throughput or goodput sample covers the interval that ENDS at its time
 * stamp, (t - interval, t] (the first at t = interval).
 */
import type { Scheduler } from '../engine/scheduler.js';
import { SEC } from '../engine/units.js';
import type { CcTrace, FlowSeries, MetricsRequest, PortRef, PortSeries } from './types.js';
import type { Network } from '../net/network.js';
import type { Port } from '../net/port.js';
import type { Flow } from '../transport/flow.js';

const QUEUE = 0;
const THROUGHPUT = 1;
const GOODPUT = 2;
const CC_STATE = 3;
const SWITCH_BUFFER = 4;
const QUEUE_AUTO = 5;
/** samples kept per watched port by `queues: auto` before neighbours merge (a power of two) */
export const AUTO_CAP = 2048;

export class Samplers {
  private readonly chosenQueues: PortSeries[];
  readonly throughput: PortSeries[];
  readonly flows: FlowSeries[];
  private readonly qPorts: Port[];
  private readonly tPorts: Port[];
  private readonly tLast: number[];
  private readonly sampledFlows: Flow[];
  private readonly kind: number;
  /** sampling events run: they belong to no node, so every partition of a parallel run runs them (issue 31) */
  fires = 0;
  /** CC state trace (metrics ccTrace): flows sampled while running, one scratch row */
  readonly ccTrace: CcTrace;
  private readonly tracedFlows: Flow[];
  private readonly traceRow: Float64Array;
  /** switch buffer sampler: ports per sampled switch, running block max, ticks in the block */
  readonly switchBuffer: { node: number; t: number[]; v: number[] }[] = [];
  private readonly sbPorts: Port[][] = [];
  private readonly sbMax: Float64Array;
  private sbTicks = 0;
  /** queues: auto: watched ports, their sample buffers, the running max of the open sample, peaks */
  private readonly autoPorts: Port[] = [];
  private readonly autoBuf: Uint32Array[] = [];
  private readonly autoOpen: Float64Array;
  private readonly autoPeak: Float64Array;
  private autoLen = 0;
  private autoStride = 1;
  private autoTicks = 0;
  private autoQueues: PortSeries[] | undefined;

  constructor(
    private readonly sched: Scheduler,
    private readonly m: MetricsRequest,
    network: Network,
    flows: readonly Flow[],
    private readonly finished: () => boolean,
    traceFields?: readonly string[],
  ) {
    const port = (r: PortRef, what: string): Port => {
      const p = network.nodePorts[r.node]?.[r.port];
      if (p === undefined) throw new Error(`${what}: node ${r.node} has no port ${r.port}`);
      return p;
    };
    this.qPorts = m.queuePorts.map((r) => port(r, 'metrics.queues'));
    this.chosenQueues = this.qPorts.map((p) => ({ node: p.node, port: p.index, t: [], v: [] }));
    if (m.queueAuto !== undefined) {
      network.nodePorts.forEach((ports, n) => {
        if (network.switches[n] === null || network.switches[n] === undefined) return;
        for (const p of ports) {
          this.autoPorts.push(p);
          this.autoBuf.push(new Uint32Array(AUTO_CAP));
        }
      });
    }
    this.autoOpen = new Float64Array(this.autoPorts.length);
    this.autoPeak = new Float64Array(this.autoPorts.length);
    this.tPorts = m.throughputPorts.map((r) => port(r, 'metrics.throughput'));
    this.throughput = this.tPorts.map((p) => ({ node: p.node, port: p.index, t: [], v: [] }));
    this.tLast = this.tPorts.map(() => 0);
    const ids = m.flowThroughput === null ? [] : m.flowThroughput.length === 0 ? flows.map((f) => f.id) : m.flowThroughput;
    this.sampledFlows = [];
    this.flows = [];
    for (const id of ids) {
      const f = flows[id];
      if (f === undefined) throw new Error(`metrics.flowThroughput: there is no flow ${id} (flows 0..${flows.length - 1})`);
      this.sampledFlows.push(f);
      this.flows.push({ flow: id, t: [], v: [] });
    }
    const fields = traceFields ?? [];
    this.ccTrace = { fields: [...fields], series: [] };
    this.tracedFlows = [];
    this.traceRow = new Float64Array(fields.length);
    if (m.ccTrace !== null && fields.length > 0) {
      const tids = m.ccTrace.length === 0 ? flows.map((f) => f.id) : m.ccTrace;
      for (const id of tids) {
        const f = flows[id];
        if (f === undefined) throw new Error(`metrics.ccTrace: there is no flow ${id} (flows 0..${flows.length - 1})`);
        this.tracedFlows.push(f);
        this.ccTrace.series.push({ flow: id, t: [], v: [] });
      }
    }
    const sb = m.switchBuffer;
    if (sb !== undefined) {
      for (const n of sb.nodes) {
        const ports = network.nodePorts[n];
        if (ports === undefined) throw new Error(`metrics.switchBuffer: there is no node ${n}`);
        this.sbPorts.push(ports);
        this.switchBuffer.push({ node: n, t: [], v: [] });
      }
    }
    this.sbMax = new Float64Array(this.sbPorts.length);
    this.kind = sched.register({ fire: (_id, tag) => this.sample(tag) }, 'Samplers.sample');
    if (this.qPorts.length > 0) sched.schedule(0, this.kind, 0, QUEUE);
    if (this.tPorts.length > 0) sched.after(m.throughputIntervalPs, this.kind, 0, THROUGHPUT);
    if (this.flows.length > 0) sched.after(m.flowThroughputIntervalPs, this.kind, 0, GOODPUT);
    if (this.tracedFlows.length > 0) sched.schedule(0, this.kind, 0, CC_STATE);
    if (this.sbPorts.length > 0) sched.schedule(0, this.kind, 0, SWITCH_BUFFER);
    if (this.autoPorts.length > 0) sched.schedule(0, this.kind, 0, QUEUE_AUTO);
  }

  /** The sampled queue series: the chosen ports, then with `queues: auto` the top ports by peak. */
  get queues(): PortSeries[] {
    if (this.m.queueAuto === undefined) return this.chosenQueues;
    this.autoQueues ??= [...this.chosenQueues, ...this.topQueues(this.m.queueAuto)];
    return this.autoQueues;
  }

  /** One tick of `queues: auto`: the open sample keeps each port's maximum; full buffers merge pairs. */
  private sampleAuto(): void {
    const ports = this.autoPorts;
    const open = this.autoOpen;
    for (let i = 0; i < ports.length; i++) {
      const b = ports[i]!.totalBytes;
      if (b > open[i]!) open[i] = b;
    }
    if (++this.autoTicks < this.autoStride) return;
    this.closeAutoSample();
  }

  private closeAutoSample(): void {
    const open = this.autoOpen;
    if (this.autoLen === AUTO_CAP) {
      const half = AUTO_CAP / 2;
      for (const buf of this.autoBuf) for (let j = 0; j < half; j++) buf[j] = Math.max(buf[2 * j]!, buf[2 * j + 1]!);
      this.autoLen = half;
      this.autoStride *= 2;
    }
    for (let i = 0; i < open.length; i++) {
      this.autoBuf[i]![this.autoLen] = open[i]!;
      if (open[i]! > this.autoPeak[i]!) this.autoPeak[i] = open[i]!;
      open[i] = 0;
    }
    this.autoLen++;
    this.autoTicks = 0;
  }

  /** The k watched ports with the highest peak queue (peak > 0; ties: lower node, port first), in node/port order. */
  private topQueues(k: number): PortSeries[] {
    const raw = this.autoRaw()!;
    return topAutoQueues(raw, k, this.m.queueIntervalPs);
  }

  /**
   * `queues: auto`'s state once its open sample is closed: every watched port's peak and buffer.
   * A parallel run merges them from the partitions that own the ports (sim/parallel/parallel.ts).
   */
  autoRaw(): AutoQueues | null {
    if (this.autoPorts.length === 0) return null;
    if (this.autoTicks > 0) this.closeAutoSample();
    const ports = this.autoPorts.map((p) => ({ node: p.node, port: p.index }));
    return { ports, peaks: [...this.autoPeak], bufs: this.autoBuf.map((b) => b.subarray(0, this.autoLen)), len: this.autoLen, stride: this.autoStride };
  }

  /** One tick of the switch buffer sampler; every `block` ticks the block maxima are recorded. */
  private sampleSwitchBuffer(now: number, block: number): void {
    for (let i = 0; i < this.sbPorts.length; i++) {
      const ports = this.sbPorts[i]!;
      let sum = 0;
      for (let j = 0; j < ports.length; j++) sum += ports[j]!.totalBytes;
      if (sum > this.sbMax[i]!) this.sbMax[i] = sum;
    }
    if (++this.sbTicks < block) return;
    for (let i = 0; i < this.sbPorts.length; i++) {
      this.switchBuffer[i]!.t.push(now);
      this.switchBuffer[i]!.v.push(this.sbMax[i]!);
      this.sbMax[i] = 0;
    }
    this.sbTicks = 0;
  }

  /** One sample of the CC state of every traced flow that is running. */
  private sampleCcState(now: number): void {
    const row = this.traceRow;
    const k = row.length;
    for (let i = 0; i < this.tracedFlows.length; i++) {
      const f = this.tracedFlows[i]!;
      if (!f.started || f.finished || f.cc.traceState === undefined) continue;
      f.cc.traceState(row);
      const s = this.ccTrace.series[i]!;
      s.t.push(now);
      for (let j = 0; j < k; j++) s.v.push(row[j]!);
    }
  }

  private sample(tag: number): void {
    this.fires++;
    const now = this.sched.now;
    const m = this.m;
    let interval: number;
    if (tag === QUEUE) {
      for (let i = 0; i < this.qPorts.length; i++) {
        this.chosenQueues[i]!.t.push(now);
        this.chosenQueues[i]!.v.push(this.qPorts[i]!.totalBytes);
      }
      interval = m.queueIntervalPs;
    } else if (tag === QUEUE_AUTO) {
      this.sampleAuto();
      interval = m.queueIntervalPs;
    } else if (tag === THROUGHPUT) {
      for (let i = 0; i < this.tPorts.length; i++) {
        const b = this.tPorts[i]!.txBytes;
        this.throughput[i]!.t.push(now);
        this.throughput[i]!.v.push(((b - this.tLast[i]!) * 8 * SEC) / m.throughputIntervalPs);
        this.tLast[i] = b;
      }
      interval = m.throughputIntervalPs;
    } else if (tag === SWITCH_BUFFER) {
      const sb = m.switchBuffer!;
      this.sampleSwitchBuffer(now, sb.block);
      interval = sb.intervalPs;
    } else if (tag === CC_STATE) {
      this.sampleCcState(now);
      interval = m.ccTraceIntervalPs;
    } else {
      for (let i = 0; i < this.sampledFlows.length; i++) {
        const f = this.sampledFlows[i]!;
        this.flows[i]!.t.push(now);
        this.flows[i]!.v.push(((f.sndUna - f.lastSampledAcked) * 8 * SEC) / m.flowThroughputIntervalPs);
        f.lastSampledAcked = f.sndUna;
      }
      interval = m.flowThroughputIntervalPs;
    }
    if (!this.finished()) this.sched.after(interval, this.kind, 0, tag);
  }
}

/** `queues: auto`'s state: the watched ports, their peaks and sample buffers (`len` samples each, one every `stride` ticks). */
export interface AutoQueues {
  ports: { node: number; port: number }[];
  peaks: number[];
  bufs: Uint32Array[];
  len: number;
  stride: number;
}

/** The k ports of `raw` with the highest peak (peak > 0; ties: the earlier port), in port order, as series. */
export function topAutoQueues(raw: AutoQueues, k: number, intervalPs: number): PortSeries[] {
  const idx = raw.ports.map((_, i) => i).filter((i) => raw.peaks[i]! > 0);
  idx.sort((a, b) => raw.peaks[b]! - raw.peaks[a]! || a - b);
  const chosen = idx.slice(0, k).sort((a, b) => a - b);
  const step = intervalPs * raw.stride;
  return chosen.map((i) => {
    const buf = raw.bufs[i]!;
    const t: number[] = [];
    const v: number[] = [];
    for (let j = 0; j < raw.len; j++) {
      t.push(j * step);
      v.push(buf[j]!);
    }
    return { node: raw.ports[i]!.node, port: raw.ports[i]!.port, t, v };
  });
}
