/**
 * The arithmetic of the cost estimate (estimate.ts): what a run or sweep will
 * simulate (estimate-work.ts: the data packets sent before the run ends, the
 * mean path length, closed loops; estimate-periodic.ts: timers and samplers),
 * and events, wall time and memory from a calibration. Kept apart from the
 * calibration run so `ccsim validate` with a cached calibration
 * (calibration-cache.ts) does not load the simulator.
 *
 * Events: the calibration's events per data packet, scaled by the run's mean
 * path length over the calibration's (a packet and its ACK cost events at
 * every link they cross; measured on the example and experiment specs,
 * data/estimate/recorded-runs.json, about 3 events per packet and link).
 * Wall time: events at the calibrated rate, slower on a fabric whose state
 * outgrows the caches, plus the set-up of the fabric and flows. Memory: a fixed base plus per flow, per route entry
 * and per sample row (fitted to the same records' peak RSS).
 */
import type { SimInput } from '../../sim/types.js';
import { periodicCosts, periodicTotals, type PeriodicCost } from '../spec/estimate-periodic.js';
import { runWork, type RunWork } from '../spec/estimate-work.js';
import { closedLoopOf, parseSpec, resolveSpec } from '../spec/resolve.js';

export interface Calibration {
  /** simulator events per data packet of the calibration run */
  eventsPerPacket: number;
  /** events per second of wall time on this machine */
  eventsPerSec: number;
}

/** What a run will simulate, independent of the machine: the work (estimate-work.ts) and its timers and samplers. */
export interface RunBasis extends RunWork {
  /** the timers and samplers (deadlock checks, retransmission timers, metrics samples; estimate-periodic.ts) */
  periodic: PeriodicCost[];
  /** their events and the rows the samplers write */
  timerEvents: number;
  sampleRows: number;
  /** nodes of the fabric (its state's size slows the event rate) */
  nodes: number;
  /** estimated peak memory (bytes) */
  memoryBytes: number;
  /** events per packet relative to a CC with one ACK per data packet (ccEventFactor) */
  eventFactor: number;
  /** event rate relative to the calibration's, for costly switch features (BFC's flow table) */
  rateFactor: number;
}

export interface CostEstimate extends Calibration, RunBasis {
  /** packet events plus timer and sampler events */
  events: number;
  /** events per data packet of this run (the calibration's, scaled by path length) */
  runEventsPerPacket: number;
  wallSecs: number;
}

/** Above this estimated wall time `validate` warns. */
export const SLOW_RUN_SECS = 600;

export interface SweepCostEstimate extends Calibration {
  points: number;
  flows: number;
  packets: number;
  /** data packets sent before each point's end, summed */
  sentPackets: number;
  events: number;
  /** workers the points share (at most one per point) */
  jobs: number;
  /** the longest point's estimated wall time: no number of workers finishes sooner */
  longestSecs: number;
  /** estimated wall time of the sweep on `jobs` workers */
  wallSecs: number;
  /** the largest point's estimated peak memory times the workers (bytes) */
  memoryBytes: number;
}

/** The calibration workload (estimate.ts runs it; here for its path length). */
export const CALIBRATION_SPEC = {
  name: 'calibration',
  topology: { type: 'spineLeaf', spines: 2, leaves: 4, hostsPerLeaf: 4, hostRate: '100Gbps', fabricRate: '100Gbps', delay: '1us' },
  cc: 'hpcc',
  workload: [{ type: 'poisson', cdf: 'websearch', load: 0.5, duration: '200us' }],
};

let calibrationHops: number | undefined;

/** Mean path length of the calibration run's packets (resolved once; no simulation). */
function calibrationPathLength(): number {
  if (calibrationHops === undefined) calibrationHops = runWork(resolveSpec(parseSpec(CALIBRATION_SPEC), process.cwd())).meanHops;
  return calibrationHops;
}

/** Fabric nodes up to which the calibration's event rate holds; beyond, the rate falls as the state leaves the caches. */
const CACHE_NODES = 200;
/** ... by this power of the size ratio (the 320-host fat tree runs at ~0.8 of the 16-host calibration's rate). */
const CACHE_EXPONENT = 0.35;
/** Wall time of a run besides its events: building the fabric, its routes and the flows, writing the results. */
const SETUP_SECS = 0.15;
const SETUP_SECS_PER_NODE = 0.0005;
/** Memory: the process with the simulator loaded, per fabric node (ports, queues, routes), per flow (state, FCT row), per sample row. */
const MEM_BASE = 85e6;
const MEM_PER_NODE = 85e3;
const MEM_PER_FLOW = 5e3;
/** ... and per listed flow that never starts (its description only) */
const MEM_PER_IDLE_FLOW = 200;
const MEM_PER_ROW = 40;

/**
 * Events per data packet of a CC relative to one ACK per packet: NDP's receiver sends a PULL
 * per packet and its overloaded switches trim packets to headers that are sent again (NDP §3;
 * measured 2-3x on OSCAR Fig 24's quick points).
 */
export function ccEventFactor(cc: string): number {
  return cc === 'ndp' ? 2 : 1;
}

/** BFC's per-port flow tables (src/net/bfc.ts) slow every packet's switch work by their size: 1024 entries ~0.9x, 65,536 ~0.1x (OSCAR Fig 17/18's quick points). */
const BFC_TABLE_SLOWDOWN = 8192;
/** ... and take memory per entry and switch port */
const MEM_PER_BFC_ENTRY = 8;

/** What the run will simulate (`input` as resolve.ts made it; its closed loops are known there). */
export function runBasis(input: SimInput): RunBasis {
  const closed = closedLoopOf(input);
  const work = runWork(input, closed);
  const periodic = periodicCosts(input, closed?.bytes ?? 0);
  const { events: timerEvents, rows: sampleRows } = periodicTotals(periodic);
  const nodes = input.topology.nodes.length;
  const bfc = input.net.switch.bfc;
  const table = bfc === undefined ? 0 : (bfc.flowTableSize ?? 1024);
  const switchPorts = input.topology.links.reduce((a, l) => a + (l.a >= input.topology.hostCount ? 1 : 0) + (l.b >= input.topology.hostCount ? 1 : 0), 0);
  const memoryBytes = table * switchPorts * MEM_PER_BFC_ENTRY + MEM_BASE + nodes * MEM_PER_NODE + (work.flows - work.startLate) * MEM_PER_FLOW + work.startLate * MEM_PER_IDLE_FLOW + sampleRows * MEM_PER_ROW;
  return { ...work, periodic, timerEvents, sampleRows, nodes, memoryBytes, eventFactor: ccEventFactor(input.cc.name), rateFactor: 1 / (1 + table / BFC_TABLE_SLOWDOWN) };
}

/** Events per data packet of a run with this basis. */
function eventsPerPacketOf(b: RunBasis, cal: Calibration): number {
  return (cal.eventsPerPacket * b.meanHops * b.eventFactor) / calibrationPathLength();
}

/** Event rate on this fabric. */
function rateOn(b: RunBasis, cal: Calibration): number {
  const rate = cal.eventsPerSec * b.rateFactor;
  return b.nodes <= CACHE_NODES ? rate : rate * Math.pow(CACHE_NODES / b.nodes, CACHE_EXPONENT);
}

/** The cost of a run with this basis at calibration `cal`. */
export function costOf(b: RunBasis, cal: Calibration): CostEstimate {
  const runEventsPerPacket = eventsPerPacketOf(b, cal);
  const events = b.sentPackets * runEventsPerPacket + b.timerEvents;
  const wallSecs = SETUP_SECS + b.nodes * SETUP_SECS_PER_NODE + events / rateOn(b, cal);
  return { ...b, eventsPerPacket: cal.eventsPerPacket, eventsPerSec: cal.eventsPerSec, runEventsPerPacket, events, wallSecs };
}

/** The cost of one run at calibration `cal`. */
export function estimateCost(input: SimInput, cal: Calibration): CostEstimate {
  return costOf(runBasis(input), cal);
}

/**
 * The cost of a sweep: the sum over its points (each point's basis known from
 * planning), and the wall time on `jobs` workers, at least the longest
 * point's and at least the total divided among the workers. Each worker is
 * taken to run at the calibrated rate (fewer cores than workers make it longer).
 */
export function estimateSweepCost(points: readonly { basis: RunBasis }[], jobs: number, cal: Calibration): SweepCostEstimate {
  let flows = 0;
  let packets = 0;
  let sent = 0;
  let events = 0;
  let secs = 0;
  let longest = 0;
  let memory = 0;
  for (const p of points) {
    const c = costOf(p.basis, cal);
    flows += c.flows;
    packets += c.packets;
    sent += c.sentPackets;
    events += c.events;
    secs += c.wallSecs;
    longest = Math.max(longest, c.wallSecs);
    memory = Math.max(memory, c.memoryBytes);
  }
  const workers = Math.max(1, Math.min(jobs, points.length));
  const wallSecs = Math.max(longest, secs / workers);
  return {
    eventsPerPacket: cal.eventsPerPacket,
    eventsPerSec: cal.eventsPerSec,
    points: points.length,
    flows,
    packets,
    sentPackets: sent,
    events,
    jobs: workers,
    longestSecs: longest,
    wallSecs,
    memoryBytes: memory * workers,
  };
}
