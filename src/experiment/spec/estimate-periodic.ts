/**
 * What a run's timers and samplers cost, before it runs: the PFC deadlock
 * check (`stop.deadlock.checkEvery`), the flows' retransmission timers
 * (`network.transport.rtoPs`) and the metrics samplers (`metrics.*.interval`)
 * fire on their own clocks, whatever the packets do, so a short period over a
 * long run costs events (and sampler rows) that the packet count does not show.
 * `ccsim validate` adds them to its estimate and the input limits
 * (`limits.timers`, `limits.samples`) refuse a spec above them, as
 * `limits.packets` does for packets.
 *
 * The run's span is estimated from below: the samplers stop when every flow
 * has finished, which is no earlier than each flow's start plus its size at
 * its host's line rate, and than each receiver's bytes at its line rate (a run
 * with `stop.at` also ends when nothing is left to happen). An
 * order-of-magnitude figure, like the packet estimate.
 */
import { formatTime } from '../../engine/units.js';
import { DEFAULT_DEADLOCK } from '../../net/deadlock.js';
import type { SimInput } from '../../sim/types.js';
import type { PathSegment } from '../../engine/errors.js';
import type { Issues } from './issues.js';
import { fmtCount } from './resolve-topology.js';
import { hostRates } from './estimate-work.js';

/** One timer or sampler of the run. */
export interface PeriodicCost {
  /** the spec field that sets its period (it may hold the default) */
  field: PathSegment[];
  /** what fires, for messages ("deadlock checks") */
  what: string;
  periodPs: number;
  /** times it fires */
  firings: number;
  /** rows it writes (samplers) */
  rows: number;
  /** the work in simulator events: firings, plus the ports a check scans */
  events: number;
}

/**
 * Port-class visits of a scan (the deadlock check, `queues: auto`) that cost
 * about one simulator event: a visit is a few typed-array reads. Measured on
 * the oscar320 fat tree (5,120 switch port-classes): a 1 us check added about
 * 2.5 events' worth of wall time per check.
 */
const VISITS_PER_EVENT = 2000;

const PS_PER_SEC = 1e12;

interface Span {
  /** estimated simulated time until every flow has finished (capped by the run's end) */
  busyPs: number;
  /** per listed flow, its shortest possible lifetime (ps), within the span */
  lifetimes: Float64Array;
}

/**
 * The run's span from below. `closedLoopBytes`: bytes that closed-loop
 * workloads (drivers) will send, whose flows are not listed.
 */
function runSpan(input: SimInput, closedLoopBytes: number): Span {
  const cap = input.stopAtPs ?? input.maxTimePs;
  const rate = hostRates(input);
  const toReceiver = new Float64Array(rate.length);
  const lifetimes = new Float64Array(input.flows.length);
  let busy = 0;
  input.flows.forEach((f, i) => {
    const r = Math.min(rate[f.src] || Infinity, rate[f.dst] || Infinity);
    const life = Number.isFinite(r) ? (f.bytes * 8 * PS_PER_SEC) / r : 0;
    lifetimes[i] = life;
    busy = Math.max(busy, f.startPs + life);
    toReceiver[f.dst] = toReceiver[f.dst]! + f.bytes;
  });
  let capacity = 0;
  for (let h = 0; h < rate.length; h++) {
    capacity += rate[h]!;
    if (rate[h]! > 0) busy = Math.max(busy, (toReceiver[h]! * 8 * PS_PER_SEC) / rate[h]!);
  }
  if (closedLoopBytes > 0 && capacity > 0) busy = Math.max(busy, (closedLoopBytes * 8 * PS_PER_SEC) / capacity);
  busy = Math.min(busy, cap);
  // a flow still sending when the run ends lives until then
  input.flows.forEach((f, i) => (lifetimes[i] = Math.max(0, Math.min(lifetimes[i]!, busy - f.startPs))));
  return { busyPs: busy, lifetimes };
}

/** Switch egress ports x 8 priority classes: what one deadlock check visits. */
function switchPortClasses(input: SimInput): number {
  const H = input.topology.hostCount;
  let ports = 0;
  for (const l of input.topology.links) ports += (l.a >= H ? 1 : 0) + (l.b >= H ? 1 : 0);
  return ports * 8;
}

/** Every timer and sampler the run will have, with its estimated firings, rows and events. */
export function periodicCosts(input: SimInput, closedLoopBytes = 0): PeriodicCost[] {
  const span = runSpan(input, closedLoopBytes);
  const out: PeriodicCost[] = [];
  const m = input.metrics;
  const add = (field: PathSegment[], what: string, periodPs: number, spanPs: number, perFiring: { rows?: number; visits?: number }): void => {
    const firings = periodPs > 0 ? Math.floor(spanPs / periodPs) : 0;
    out.push({ field, what, periodPs, firings, rows: firings * (perFiring.rows ?? 0), events: firings * (1 + (perFiring.visits ?? 0) / VISITS_PER_EVENT) });
  };
  const dl = input.deadlock === undefined ? DEFAULT_DEADLOCK : input.deadlock;
  if (dl !== null) add(['stop', 'deadlock', 'checkEvery'], 'deadlock checks', dl.checkIntervalPs, span.busyPs, { visits: switchPortClasses(input) });
  const rto = input.net.transport.rtoPs;
  if (rto > 0) {
    // each flow's timer fires (or re-posts itself) once per rtoPs while the flow is sending
    let firings = 0;
    for (const life of span.lifetimes) firings += Math.floor(life / rto);
    out.push({ field: ['network', 'transport', 'rtoPs'], what: 'retransmission-timer firings', periodPs: rto, firings, rows: 0, events: firings });
  }
  if (m.queuePorts.length > 0) add(['metrics', 'queues', 'interval'], 'queue samples', m.queueIntervalPs, span.busyPs, { rows: m.queuePorts.length });
  if (m.queueAuto !== undefined) add(['metrics', 'queues', 'interval'], 'queue samples (auto: every switch port)', m.queueIntervalPs, span.busyPs, { visits: switchPortClasses(input) / 8 });
  if (m.throughputPorts.length > 0) add(['metrics', 'throughput', 'interval'], 'throughput samples', m.throughputIntervalPs, span.busyPs, { rows: m.throughputPorts.length });
  if (m.flowThroughput !== null) {
    const n = m.flowThroughput.length === 0 ? input.flows.length : m.flowThroughput.length;
    add(['metrics', 'flowThroughput', 'interval'], 'flow goodput samples', m.flowThroughputIntervalPs, span.busyPs, { rows: n, visits: n });
  }
  if (m.ccTrace !== null) {
    // a traced flow writes a row per interval while it runs
    const traced = m.ccTrace.length === 0 ? null : new Set(m.ccTrace);
    let rows = 0;
    span.lifetimes.forEach((life, i) => {
      if (traced === null || traced.has(i)) rows += Math.floor(life / m.ccTraceIntervalPs);
    });
    const firings = Math.floor(span.busyPs / m.ccTraceIntervalPs);
    out.push({ field: ['metrics', 'ccTrace', 'interval'], what: 'CC trace samples', periodPs: m.ccTraceIntervalPs, firings, rows, events: firings + rows });
  }
  const cs = input.circuitSchedule;
  if (cs !== undefined && cs.periodPs > 0) {
    // each slot: the night's start (every circuit link down) and its end (the slot's matching up),
    // each link change an event of its own (net/link-changes.ts), while the schedule runs
    const spanPs = Math.max(0, Math.min(span.busyPs, cs.untilPs) - cs.startPs);
    const firings = Math.floor(spanPs / cs.periodPs);
    const links = cs.matchings.length === 0 ? 0 : cs.matchings.reduce((a, mt) => a + mt.length, 0) / cs.matchings.length;
    out.push({ field: ['schedule', 'period'], what: 'circuit reconfigurations', periodPs: cs.periodPs, firings, rows: 0, events: firings * (2 + 2 * links) });
  }
  if (m.switchBuffer !== undefined) {
    const sb = m.switchBuffer;
    add(['metrics', 'switchBuffer', 'interval'], 'switch buffer samples', sb.intervalPs, span.busyPs, { rows: sb.nodes.length / sb.block, visits: sb.nodes.length * 8 });
  }
  return out;
}

/** Totals over `costs`. */
export function periodicTotals(costs: readonly PeriodicCost[]): { events: number; rows: number } {
  let events = 0;
  let rows = 0;
  for (const c of costs) {
    events += c.events;
    rows += c.rows;
  }
  return { events, rows };
}

/**
 * The input limits on timers and samplers: above `limits.timers` events or
 * `limits.samples` rows the spec is refused, naming the period that costs the
 * most (as `limits.packets` refuses a workload).
 */
export function checkPeriodicCost(input: SimInput, closedLoopBytes: number, limits: { timers: number; samples: number }, issues: Issues): void {
  const costs = periodicCosts(input, closedLoopBytes);
  const { events, rows } = periodicTotals(costs);
  const top = (key: 'events' | 'rows'): PeriodicCost => costs.reduce((a, b) => (b[key] > a[key] ? b : a));
  if (events > limits.timers) {
    const c = top('events');
    issues.add(
      c.field,
      `every ${formatTime(c.periodPs)} over ~${formatTime(c.firings * c.periodPs)} of simulated time makes about ${fmtCount(c.firings)} ${c.what}, ` +
        `~${fmtCount(events)} timer and sampler events in all, above limits.timers (${limits.timers.toLocaleString('en-US')}): use a longer period, or raise limits.timers`,
    );
  }
  if (rows > limits.samples) {
    const c = top('rows');
    issues.add(
      c.field,
      `every ${formatTime(c.periodPs)} writes about ${fmtCount(c.rows)} rows of ${c.what} (~${fmtCount(rows)} sampler rows in all), ` +
        `above limits.samples (${limits.samples.toLocaleString('en-US')}): use a longer interval or fewer ports/flows, or raise limits.samples`,
    );
  }
}
