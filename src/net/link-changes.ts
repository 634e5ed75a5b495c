/**
 * The topology over time (docs/network-model.md §2.1): scheduled changes of links, as
 * data, applied to the ports of a built `Network`.
 *
 * - A `LinkEvent` changes one link at one time: its rate (`rate`, the original link
 *   event), or takes it `down` or `up` (`Port.setDown`), in both directions or, with
 *   `oneWay`, only the direction from `a` to `b`.
 * - A `CircuitSchedule` is a circuit switch that rotates through matchings of ToR pairs
 *   (a reconfigurable datacenter network, PowerTCP §5, whose baseline is reTCP): time
 *   from `startPs` is cut into slots of `periodPs`; each slot begins with a night of
 *   `reconfigurePs` in which every circuit link is down, then the slot's matching
 *   (`matchings[k mod M]` in slot k) is up for the rest of the slot. A circuit link is an
 *   ordinary link of the topology between the two nodes (ToR to ToR); routing is the
 *   static shortest-path routing of the topology, so a packet whose route crosses a
 *   circuit that is down waits in that port's queue (lossless, PFC backpressure as for
 *   any slow port) until its circuit comes up. Before `startPs` and from `untilPs` on,
 *   every circuit link is up (the topology as built).
 *
 * The schedule is expanded lazily: one event at each night and one at each day, each
 * posting the next, so a long run holds two scheduler entries, not one per slot.
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { Network } from './network.js';
import type { Port } from './port.js';

interface LinkEventBase {
  atPs: number;
  /** link endpoints (node ids) */
  a: number;
  b: number;
  /** only the direction from a to b changes (default: both) */
  oneWay?: boolean;
}

/** A link's new rate in bps (0 = stopped, as `down`); `kind` absent = `rate` (the original link event). */
export interface LinkRateEvent extends LinkEventBase {
  kind?: 'rate';
  rateBps: number;
}

/** A link goes down (transmits nothing; packets wait) or comes up again. */
export interface LinkStateEvent extends LinkEventBase {
  kind: 'down' | 'up';
}

export type LinkEvent = LinkRateEvent | LinkStateEvent;

export type LinkEventKind = NonNullable<LinkEvent['kind']>;
export const LINK_EVENT_KINDS: readonly LinkEventKind[] = ['rate', 'down', 'up'];

/** A rotating circuit schedule (PowerTCP §5). Times in ps. */
export interface CircuitSchedule {
  /** slot length, night included (> reconfigurePs) */
  periodPs: number;
  /** the night at the start of each slot, every circuit link down (>= 0) */
  reconfigurePs: number;
  /** matchings[k]: the linked node pairs whose circuits are up in slot k (mod the count); a node at most once per matching */
  matchings: [number, number][][];
  /** first slot's start */
  startPs: number;
  /** the schedule's end (every circuit up again); Infinity = never */
  untilPs: number;
}

/** The circuit links of a schedule: every pair that some matching names, once, in first-mention order. */
export function circuitLinks(s: CircuitSchedule): [number, number][] {
  const seen = new Set<string>();
  const out: [number, number][] = [];
  for (const m of s.matchings) {
    for (const [a, b] of m) {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push([a, b]);
    }
  }
  return out;
}

/** The ports of link a-b (a toward b, then b toward a unless `oneWay`); throws if the nodes are not linked. */
function linkPorts(network: Network, a: number, b: number, oneWay: boolean, what: string): Port[] {
  const out: Port[] = [];
  for (const [x, y] of oneWay ? [[a, b]] : [[a, b], [b, a]]) {
    const p = network.portToward(x!, y!);
    if (p === undefined) throw new Error(`${what}: nodes ${a} and ${b} are not linked`);
    out.push(p);
  }
  return out;
}

/**
 * Schedules `events` (applied in time order, ties in list order) and the circuit
 * `schedule` on `network`'s ports. The events' kind is registered even when there are
 * none (the kinds' numbering of a run without changes stays what it was); the
 * schedule's only when there is one.
 */
export function installLinkChanges(sched: Scheduler, network: Network, events: readonly LinkEvent[], schedule?: CircuitSchedule): { fired: number } {
  const linkEvents = [...events].sort((a, b) => a.atPs - b.atPs);
  // (the link events that ran: they belong to no node, so each partition of a parallel run runs them all)
  const count = { fired: 0 };
  const kLink = sched.register(
    {
      fire: (i) => {
        count.fired++;
        const e = linkEvents[i]!;
        for (const p of linkPorts(network, e.a, e.b, e.oneWay === true, `events[${i}]`)) {
          if (e.kind === undefined || e.kind === 'rate') p.setRate(e.rateBps);
          else p.setDown(e.kind === 'down');
        }
      },
    },
    'linkEvents: Port.setRate, Port.setDown',
  );
  linkEvents.forEach((e, i) => sched.schedule(e.atPs, kLink, i, 0));
  if (schedule !== undefined) new CircuitRotor(sched, network, schedule);
  return count;
}

/** Phases of the circuit schedule's events (the event tag). */
const NIGHT = 0;
const DAY = 1;

/**
 * Runs a `CircuitSchedule` (PowerTCP §5): at each slot start every circuit goes down
 * (the night), `reconfigurePs` later the slot's matching comes up (the day); the event
 * of each phase posts the next one. With no night the two happen at the same time.
 */
class CircuitRotor {
  /** ports of each circuit link, both directions */
  private readonly ports: Port[][];
  /** per matching, the indices (into `ports`) of its circuits */
  private readonly up: number[][];
  private readonly kind: number;
  /** slot number of the pending event */
  private slot = 0;

  constructor(
    private readonly sched: Scheduler,
    network: Network,
    private readonly s: CircuitSchedule,
  ) {
    const links = circuitLinks(s);
    const index = new Map<string, number>();
    links.forEach(([a, b], i) => {
      index.set(`${a},${b}`, i);
      index.set(`${b},${a}`, i);
    });
    this.ports = links.map(([a, b]) => linkPorts(network, a, b, false, 'schedule'));
    this.up = s.matchings.map((m) => m.map(([a, b]) => index.get(`${a},${b}`)!));
    this.kind = sched.register({ fire: (_id, tag) => this.fire(tag) }, 'circuitSchedule: Port.setDown');
    if (s.startPs < s.untilPs) sched.schedule(s.startPs, this.kind, 0, NIGHT);
  }

  private fire(phase: number): void {
    const s = this.s;
    const now = this.sched.now;
    if (now >= s.untilPs) {
      // the schedule is over: the topology as built
      for (const ps of this.ports) for (const p of ps) p.setDown(false);
      return;
    }
    const slotStart = s.startPs + this.slot * s.periodPs;
    if (phase === NIGHT) {
      for (const ps of this.ports) for (const p of ps) p.setDown(true);
      if (s.reconfigurePs > 0) {
        this.sched.schedule(Math.min(slotStart + s.reconfigurePs, s.untilPs), this.kind, 0, DAY);
        return;
      }
    }
    const m = this.up[this.slot % this.up.length]!;
    for (const i of m) for (const p of this.ports[i]!) p.setDown(false);
    this.slot++;
    this.sched.schedule(Math.min(slotStart + s.periodPs, s.untilPs), this.kind, 0, NIGHT);
  }
}
