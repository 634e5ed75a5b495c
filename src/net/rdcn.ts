/**
 * Runs a reconfigurable fabric (PowerTCP §5; topology/rdcn.ts; docs/network-model.md
 * §2.2) on a built network: the circuit schedule and the ToRs' per-destination VOQs.
 *
 * - VOQs: at ToR i, the egress queue of the circuit link toward ToR j holds everything
 *   routed to rack j (routing prefers the one-hop circuit): it is ToR i's VOQ for j.
 * - Circuits: the circuit i -> j is up during the days whose matching sends i to j, and
 *   down otherwise, including the night. A circuit port stops starting transmissions
 *   `guardPs` before its day ends (the serialization time of the largest packet at the
 *   circuit rate), so every packet crosses the circuit entirely within a day.
 * - Packet network: ToR i's port to the packet switch serves the VOQs whose circuit is
 *   down (round robin over destinations, a packet at a time): "ToR switches forward
 *   packets exclusively on the circuit network when available" (PowerTCP §5). It takes
 *   them from the VOQ at the moment it can transmit, so a packet never commits to the
 *   slower path while it waits (`Port.spill` wakes it when a packet joins a dark VOQ).
 *   Marking and telemetry of such a hop see the packet-network port's rate and counters
 *   and the VOQ's backlog (`Switch.pullVia`).
 *
 * Nothing here runs per packet unless the topology has a fabric; the schedule holds one
 * scheduler entry at a time (each phase posts the next).
 */
import type { Scheduler } from '../engine/scheduler.js';
import type { Network } from './network.js';
import * as packet from './packet.js';
import type { Port, PortOwner } from './port.js';
import type { Switch } from './switch.js';
import type { RdcnFabric } from './topology/rdcn.js';

const { NIL } = packet;

/** The packet-network port of a reconfigurable ToR: its own queue (PFC frames, if any) first, then the dark VOQs. */
class VoqUplink implements PortOwner {
  /** index of the VOQ served last */
  private rr = -1;

  constructor(
    private readonly sw: Switch,
    private readonly voqs: Port[],
  ) {}

  pull(port: Port): number {
    if (port.hasQueued() === true) return this.sw.pull(port);
    const v = this.voqs;
    const n = v.length;
    for (let k = 1; k <= n; k++) {
      const i = (this.rr + k) % n;
      const c = v[i]!;
      if (c.isDown === true && c.totalPkts > 0 && c.hasCtrl === false) {
        const pkt = this.sw.pullVia(c, port);
        if (pkt !== NIL) {
          this.rr = i;
          return pkt;
        }
      }
    }
    return NIL;
  }

  hasMore(port: Port): boolean {
    if (port.hasQueued() === true) return true;
    const v = this.voqs;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (c.isDown === true && c.totalPkts > 0) return true;
    }
    return false;
  }

  receive(pkt: number, port: number): void {
    this.sw.arrivals.receive(pkt, port);
  }

  arrive(pkt: number, port: number, meta: number, dst: number, size: number, hash: number): void {
    this.sw.arrivals.arrive(pkt, port, meta, dst, size, hash);
  }
}

/** Phases of the schedule's events (the event tag). */
const DAY = 0;
const DUSK = 1;

/** The fabric as installed: the circuit ports by ToR index and the packet-network ports (for tests and metrics). */
export interface RdcnInstance {
  /** circuit[i][j]: ToR i's port on the circuit link to ToR j (null for i = j) */
  circuit: (Port | null)[][];
  /** ToR i's port to the packet switch */
  uplink: Port[];
  /** ps before a day's end at which circuit ports stop starting transmissions */
  guardPs: number;
  /** [start, end) of day k's circuits (end = the dusk, start of the night) */
  dayWindow(k: number): [number, number];
}

/**
 * Installs `fabric` on `network`: every circuit port dark, the VOQ service of the
 * packet-network ports, and the rotation. `guardBytes`: the largest packet a circuit
 * carries (its serialization at the circuit rate is the guard before dusk).
 */
export function installRdcn(sched: Scheduler, network: Network, fabric: RdcnFabric, guardBytes: number): RdcnInstance {
  const T = fabric.tors.length;
  const circuit: (Port | null)[][] = [];
  const uplink: Port[] = [];
  let guardPs = 0;
  for (let i = 0; i < T; i++) {
    const row: (Port | null)[] = [];
    const up = network.portToward(fabric.tors[i]!, fabric.packetSwitch);
    if (up === undefined) throw new Error(`rdcn: ToR ${fabric.tors[i]} has no link to the packet switch ${fabric.packetSwitch}`);
    const voqs: Port[] = [];
    for (let j = 0; j < T; j++) {
      if (j === i) {
        row.push(null);
        continue;
      }
      const c = network.portToward(fabric.tors[i]!, fabric.tors[j]!);
      if (c === undefined) throw new Error(`rdcn: ToRs ${fabric.tors[i]} and ${fabric.tors[j]} have no circuit link`);
      c.setDown(true);
      c.spill = up;
      voqs.push(c);
      row.push(c);
      const g = network.ctx.txTime(guardBytes, c.rateBps);
      if (g > guardPs) guardPs = g;
    }
    const sw = network.switches[fabric.tors[i]!];
    if (sw === null || sw === undefined) throw new Error(`rdcn: node ${fabric.tors[i]} is not a switch`);
    up.owner = new VoqUplink(sw, voqs);
    circuit.push(row);
    uplink.push(up);
  }
  const period = fabric.nightPs + fabric.dayPs;
  if (guardPs >= fabric.dayPs) throw new Error(`rdcn: a day (${fabric.dayPs} ps) is shorter than one packet's serialization on a circuit (${guardPs} ps)`);
  const dayWindow = (k: number): [number, number] => {
    const s = fabric.startPs + k * period + fabric.nightPs;
    return [s, s + fabric.dayPs];
  };
  let slot = 0;
  const M = fabric.matchings.length;
  const setMatching = (k: number, down: boolean): void => {
    const m = fabric.matchings[k % M]!;
    for (let i = 0; i < T; i++) {
      const j = m[i]!;
      if (j !== i) circuit[i]![j]!.setDown(down);
    }
    // the packet network takes over the VOQs that just went dark
    if (down) for (let i = 0; i < T; i++) if (m[i] !== i) uplink[i]!.kick();
  };
  const kind = sched.register(
    {
      fire: (_id, phase) => {
        if (phase === DAY) {
          setMatching(slot, false);
          sched.schedule(dayWindow(slot)[1] - guardPs, kind, 0, DUSK);
        } else {
          setMatching(slot, true);
          slot++;
          sched.schedule(dayWindow(slot)[0], kind, 0, DAY);
        }
      },
    },
    'rdcn: circuit schedule',
  );
  sched.schedule(dayWindow(0)[0], kind, 0, DAY);
  return { circuit, uplink, guardPs, dayWindow };
}
