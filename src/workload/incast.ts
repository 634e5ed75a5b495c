/**
 * Incast (N:1) traffic (docs/network-model.md §12.3): at each event, fanIn senders
 * each send `bytes` to one receiver. Events come from an explicit list of
 * times or from a Poisson process; receiver and senders are fixed or drawn
 * per event.
 */
import { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import { durationField, hostId, hostSelection, loadField, posInt, prio, sizeField } from '../engine/spec-fields.js';
import { formatTime, NS, SEC } from '../engine/units.js';
import type { FieldPath, PreparedWorkload, WorkloadContext, WorkloadDefinition } from './plugin.js';
import type { FlowSpec } from './types.js';

export interface IncastOptions {
  /** host pool that random receivers and senders are drawn from */
  hosts: number[];
  /** senders per event */
  fanIn: number;
  /** bytes per sender per event */
  bytes: number;
  /** fixed receiver; otherwise uniform over `hosts` per event */
  receiver?: number;
  /** fixed senders (length fanIn); otherwise fanIn distinct hosts != receiver per event */
  senders?: number[];
  /** explicit event times, ps (exclusive with eventRatePerSec) */
  times?: number[];
  /** Poisson event process rate, events/s, over [startPs, startPs + durationPs) */
  eventRatePerSec?: number;
  startPs?: number;
  durationPs?: number;
  /** sender j (0-based, in draw order) starts at event + j * staggerPs */
  staggerPs?: number;
  /**
   * what multiplies staggerPs: the sender's place in the draw (`order`, default) or its host
   * id (`host`, as the OSCAR artifact's FileRequest generator: IncastFlowInterval x node index)
   */
  staggerBy?: 'order' | 'host';
  /**
   * Event times come from rng.fork('incast/events'), receivers and senders from
   * rng.fork('incast/pick'): pass distinct streams to distinct generators.
   */
  rng: Rng;
  prio?: number;
  /** default 'incast' */
  tag?: string;
}

/**
 * Incast events per second that make the aggregate incast bytes `load` of the
 * total host capacity: load·hostCount·hostRateBps / (fanIn·bytes·8)
 * (the OSCAR / ACC definition of incast load).
 */
export function incastEventRateForLoad(
  load: number,
  hostCount: number,
  hostRateBps: number,
  fanIn: number,
  bytes: number,
): number {
  if (!(load >= 0)) throw new Error(`incast: load must be >= 0, got ${load}`);
  if (!(hostCount > 0)) throw new Error(`incast: hostCount must be > 0, got ${hostCount}`);
  if (!(hostRateBps > 0)) throw new Error(`incast: hostRateBps must be > 0, got ${hostRateBps}`);
  if (!(fanIn > 0)) throw new Error(`incast: fanIn must be > 0, got ${fanIn}`);
  if (!(bytes > 0)) throw new Error(`incast: bytes must be > 0, got ${bytes}`);
  return (load * hostCount * hostRateBps) / (fanIn * bytes * 8);
}

/** Event times (ps) of a Poisson process, gaps truncated to whole ns. */
function poissonEventTimes(ratePerSec: number, startPs: number, durationPs: number, rng: Rng): number[] {
  const meanGapNs = SEC / NS / ratePerSec;
  if (!(meanGapNs >= 1)) {
    throw new Error(`incast: eventRatePerSec ${ratePerSec} gives a mean gap below 1 ns`);
  }
  const endPs = startPs + durationPs;
  const times: number[] = [];
  let t = startPs;
  for (;;) {
    t += Math.floor(rng.exponential(meanGapNs)) * NS;
    if (t >= endPs) break;
    times.push(t);
  }
  return times;
}

/**
 * Generates the incast flows, sorted by start time (stable: event order, then
 * sender order).
 */
export function incastFlows(o: IncastOptions): FlowSpec[] {
  const hosts = o.hosts;
  const hostSet = new Set<number>();
  // option values (ids, sizes, times, priorities) are validated once, by the spec schema and resolve.ts
  for (let i = 0; i < hosts.length; i++) {
    if (hostSet.has(hosts[i]!)) throw new Error(`incast: hosts[${i}]: host ${hosts[i]} is listed twice`);
    hostSet.add(hosts[i]!);
  }
  const stagger = o.staggerPs ?? 0;
  const byHost = o.staggerBy === 'host';
  const fanIn = o.fanIn;
  const receiver = o.receiver;

  if (receiver === undefined && hosts.length === 0) throw new Error('incast: hosts is empty and no receiver is given');

  const fixedSenders = o.senders;
  if (fixedSenders !== undefined) {
    if (fixedSenders.length !== fanIn) {
      throw new Error(`incast: senders has ${fixedSenders.length} hosts but fanIn is ${fanIn}`);
    }
    const s = new Set<number>();
    for (let i = 0; i < fixedSenders.length; i++) {
      const h = fixedSenders[i]!;
      if (s.has(h)) throw new Error(`incast: senders[${i}]: host ${h} is listed twice`);
      if (h === receiver) throw new Error(`incast: senders[${i}]: host ${h} is the receiver`);
      s.add(h);
    }
    if (receiver === undefined && !hosts.some((h) => !s.has(h))) {
      throw new Error(`incast: no host left to be the receiver (every host in hosts is a sender)`);
    }
  } else {
    const available = receiver === undefined ? hosts.length - 1 : hosts.filter((h) => h !== receiver).length;
    if (fanIn > available) {
      throw new Error(
        `incast: fanIn ${fanIn} exceeds the ${Math.max(available, 0)} hosts available as senders` +
          ` (${hosts.length} hosts, receiver excluded)`,
      );
    }
  }

  // event times
  let times: number[];
  if (o.times !== undefined && o.eventRatePerSec !== undefined) {
    throw new Error('incast: give either times or eventRatePerSec, not both');
  }
  if (o.times !== undefined) {
    times = o.times;
  } else if (o.eventRatePerSec !== undefined) {
    const rate = o.eventRatePerSec;
    const startPs = o.startPs ?? 0;
    if (o.durationPs === undefined) throw new Error('incast: durationPs is required with eventRatePerSec');
    times = rate === 0 ? [] : poissonEventTimes(rate, startPs, o.durationPs, o.rng.fork('incast/events'));
  } else {
    throw new Error('incast: give the event times (times) or an event rate (eventRatePerSec)');
  }

  const pick = o.rng.fork('incast/pick');
  const tag = o.tag ?? 'incast';
  const flows: FlowSpec[] = [];
  const pool: number[] = [];
  const senders: number[] = new Array<number>(fanIn);
  for (const t of times) {
    let rcv: number;
    if (receiver !== undefined) rcv = receiver;
    else if (fixedSenders !== undefined) {
      do rcv = hosts[pick.int(hosts.length)]!;
      while (fixedSenders.includes(rcv));
    } else rcv = hosts[pick.int(hosts.length)]!;

    if (fixedSenders !== undefined) {
      for (let j = 0; j < fanIn; j++) senders[j] = fixedSenders[j]!;
    } else {
      // partial Fisher-Yates over the hosts other than the receiver
      pool.length = 0;
      for (const h of hosts) if (h !== rcv) pool.push(h);
      const m = pool.length;
      for (let j = 0; j < fanIn; j++) {
        const k = j + pick.int(m - j);
        const tmp = pool[j]!;
        pool[j] = pool[k]!;
        pool[k] = tmp;
        senders[j] = pool[j]!;
      }
    }
    for (let j = 0; j < fanIn; j++) {
      const f: FlowSpec = { src: senders[j]!, dst: rcv, bytes: o.bytes, startPs: t + (byHost ? senders[j]! : j) * stagger, tag };
      if (o.prio !== undefined) f.prio = o.prio;
      flows.push(f);
    }
  }
  flows.sort((a, b) => a.startPs - b.startPs);
  return flows;
}

// ---------------------------------------------------------------------------------------------
// the `incast` workload type (docs/extending.md, "Adding a workload")

const incastSchema = z
  .object({
    type: z.literal('incast'),
    fanIn: posInt,
    /** bytes per sender per event */
    size: sizeField(),
    /** fixed receiver; default uniform over `hosts` per event */
    receiver: hostId.optional(),
    /** fixed senders (exactly fanIn); default fanIn distinct random hosts per event */
    senders: z.array(hostId).min(1).optional(),
    /** pool for random receivers and senders */
    hosts: hostSelection.default('all'),
    /** explicit event times */
    at: z.array(durationField()).min(1).optional(),
    /** incast load (aggregate incast bytes / total host capacity of `hosts`) → Poisson event rate */
    load: loadField.optional(),
    /** Poisson event rate, events per second */
    eventRate: z.number().gt(0).optional(),
    start: durationField().default(0),
    duration: durationField({ positive: true }).optional(),
    /** sender j starts at event + j·stagger */
    stagger: durationField().default(0),
    /** `order`: j is the sender's place in the draw; `host`: its host id (the OSCAR artifact's Fig 10c generator) */
    staggerBy: z.enum(['order', 'host']).default('order'),
    prio: prio.optional(),
    tag: z.string().default('incast'),
  })
  .strict()
  .superRefine((w, ctx) => {
    const given = (['at', 'load', 'eventRate'] as const).filter((k) => w[k] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give event times (`at`), an incast `load`, or an `eventRate`' });
    } else if (given.length > 1) {
      ctx.addIssue({ code: 'custom', path: [given[1]!], message: `conflicts with \`${given[0]}\`: give only one of at, load, eventRate` });
    }
    if ((w.load !== undefined || w.eventRate !== undefined) && w.duration === undefined) {
      ctx.addIssue({ code: 'custom', path: ['duration'], message: 'required with `load` or `eventRate`' });
    }
    if (w.senders !== undefined && w.senders.length !== w.fanIn) {
      ctx.addIssue({ code: 'custom', path: ['senders'], message: `must list exactly fanIn (${w.fanIn}) hosts` });
    }
  });

export type IncastEntry = z.output<typeof incastSchema>;

function prepareIncast(w: IncastEntry, ctx: WorkloadContext): PreparedWorkload {
  const pool = ctx.hostSelection(w.hosts, ['hosts']);
  const receiver = w.receiver !== undefined ? ctx.host(w.receiver, ['receiver']) : undefined;
  let senders: number[] | undefined;
  if (w.senders !== undefined) {
    senders = ctx.hostSelection(w.senders, ['senders']);
    if (w.receiver !== undefined) {
      const k = w.senders.indexOf(w.receiver);
      if (k >= 0) ctx.error(['senders', k], 'is the receiver', w.receiver);
    }
  } else {
    const available = receiver === undefined ? pool.length - 1 : pool.filter((h) => h !== receiver).length;
    if (w.fanIn > available) ctx.error(['fanIn'], `exceeds the ${Math.max(available, 0)} hosts available as senders (receiver excluded)`);
  }
  const meanRate = (): number => pool.reduce((sum, h) => sum + ctx.hostRate[h]!, 0) / Math.max(pool.length, 1);
  // events: listed, or rate x duration
  let events = w.at?.length ?? 0;
  if (w.eventRate !== undefined) events = w.eventRate * ((w.duration ?? 0) / 1e12);
  else if (w.load !== undefined) events = ((w.load * pool.length * meanRate()) / (w.fanIn * w.size * 8)) * ((w.duration ?? 0) / 1e12);
  return {
    estimate: { flows: events * w.fanIn, bytes: events * w.fanIn * w.size, receivers: receiver !== undefined ? [receiver] : pool },
    tags: [w.tag],
    addOfferedLoad: () => w.load ?? 0,
    flows(rng: Rng): FlowSpec[] {
      const o: IncastOptions = { hosts: pool, fanIn: w.fanIn, bytes: w.size, rng, tag: w.tag, startPs: w.start, staggerPs: w.stagger, staggerBy: w.staggerBy };
      if (receiver !== undefined) o.receiver = receiver;
      if (senders !== undefined) o.senders = senders;
      if (w.prio !== undefined) o.prio = w.prio;
      if (w.duration !== undefined) o.durationPs = w.duration;
      if (w.at !== undefined) o.times = w.at;
      else if (w.eventRate !== undefined) o.eventRatePerSec = w.eventRate;
      else if (w.load !== undefined) {
        const load = w.load;
        o.eventRatePerSec = ctx.guard(['load'], () => incastEventRateForLoad(load, pool.length, meanRate(), w.fanIn, w.size));
      }
      return ctx.guard([], () => incastFlows(o));
    },
  };
}

/**
 * The events' named times, and with a stagger the last sender of the latest
 * listed event (or of an event at `start`, the earliest a Poisson event can
 * be): sender fanIn starts (fanIn - 1) x stagger after its event, so a stagger
 * that pushes it past the end of the run leaves senders that never start.
 */
function* incastStartTimes(w: IncastEntry): Iterable<readonly [FieldPath, number] | readonly [FieldPath, number, string]> {
  let event = w.start;
  if (w.at !== undefined) {
    event = 0;
    for (let j = 0; j < w.at.length; j++) {
      yield [['at', j], w.at[j]!];
      event = Math.max(event, w.at[j]!);
    }
  } else yield [['start'], w.start];
  if (w.stagger > 0 && w.fanIn > 1) {
    const which = w.at !== undefined && w.at.length > 1 ? 'the latest event' : 'the event';
    yield [['stagger'], event + (w.fanIn - 1) * w.stagger, `sender ${w.fanIn} of ${which} (at ${formatTime(event)}, ${w.fanIn - 1} x stagger later)`];
  }
}

/** `type: incast`: N:1 events at listed times or as a Poisson process (docs/network-model.md §12.3). */
export const incastWorkload: WorkloadDefinition<IncastEntry> = {
  type: 'incast',
  summary: 'N:1 incast events (fanIn senders, one receiver) at listed times, at an incast load or an event rate',
  schema: incastSchema,
  startTimes: incastStartTimes,
  prepare: prepareIncast,
};
