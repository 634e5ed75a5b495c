/**
 * Observation and fault injection for mechanism tests on a steppable
 * `Simulation`: a congestion control that changes nothing and records what
 * the transport shows it, a packet filter at a switch (drops chosen packets
 * on arrival), and a recorder of the packets a host NIC puts on the wire.
 */
import { z } from 'zod';
import type { AckInfo, CcDefinition, CcFlow, CcInstance, SendInfo } from '../../src/cc/types.js';
import type { Simulation } from '../../src/sim/simulate.js';
import { FLAG_ECT, FLAG_RETX, NIL, PKT_ACK, PKT_CNP, PKT_DATA, PKT_NACK, PKT_PFC, type PacketStore } from '../../src/net/packet.js';
import { txTimePs } from '../../src/engine/units.js';
import type { NetworkConfig } from '../../src/net/config.js';
import type { Flow } from '../../src/transport/flow.js';
import type { Port } from '../../src/net/port.js';
import type { Switch } from '../../src/net/switch.js';

/** The AckInfo fields a test looks at, copied (the transport reuses one AckInfo object). */
export interface AckRecord {
  flow: number;
  nowPs: number;
  seq: number;
  isNack: boolean;
  newlyAckedBytes: number;
  ackedPackets: number;
  sndUna: number;
  sndNxt: number;
  maxSentSeq: number;
}

export interface SendRecord {
  flow: number;
  nowPs: number;
  seq: number;
  retx: boolean;
}

/** What a recording CC saw, in order. `hooks` lists every hook call as `<hook>:<flow>`. */
export interface CcLog {
  /** the flows, by id, as they started (the transport's `Flow` objects; kept after the transport lets go of them) */
  flows: Flow[];
  acks: AckRecord[];
  sends: SendRecord[];
  /** times (ps) the CC was told of congestion (a CNP packet, or an ACK with the CNP flag), per flow */
  cnps: { flow: number; nowPs: number }[];
  hooks: string[];
}

export interface RecordingHooks {
  /** called from the CC's onStart (e.g. to set a rate or arm a timer) */
  start?(f: CcFlow): void;
  /** called from the CC's onTimer */
  timer?(f: CcFlow, slot: number): void;
}

/**
 * A CC that never changes rate or window (like `none` with no window) unless
 * `hooks` do, and logs every ACK, NACK, send, RTO and completion it is shown.
 */
export function recordingCc(log: CcLog, hooks: RecordingHooks = {}): CcDefinition {
  const params = z.object({}).strict();
  return {
    name: 'recording',
    description: 'test CC: records what the transport shows it',
    reference: 'test/helpers/probe.ts',
    params,
    needs: {},
    dataHeaderBytes: () => 0,
    ackHeaderBytes: () => 0,
    initialCwnd: () => Infinity,
    create(f: CcFlow): CcInstance {
      log.flows[f.id] = f as Flow;
      return {
        onStart() {
          log.hooks.push(`start:${f.id}`);
          hooks.start?.(f);
        },
        onSend(s: SendInfo) {
          log.sends.push({ flow: f.id, nowPs: s.nowPs, seq: s.seq, retx: s.isRetransmission });
        },
        onAck(a: AckInfo) {
          log.hooks.push(`${a.isNack ? 'nack' : 'ack'}:${f.id}`);
          log.acks.push({
            flow: f.id,
            nowPs: a.nowPs,
            seq: a.seq,
            isNack: a.isNack,
            newlyAckedBytes: a.newlyAckedBytes,
            ackedPackets: a.ackedPackets,
            sndUna: a.sndUna,
            sndNxt: a.sndNxt,
            maxSentSeq: a.maxSentSeq,
          });
        },
        onCnp() {
          log.hooks.push(`cnp:${f.id}`);
          log.cnps.push({ flow: f.id, nowPs: f.now() });
        },
        onRto() {
          log.hooks.push(`rto:${f.id}`);
        },
        onTimer(slot: number) {
          hooks.timer?.(f, slot);
        },
        onFinish() {
          log.hooks.push(`finish:${f.id}`);
        },
      };
    },
  };
}

export function newLog(): CcLog {
  return { flows: [], acks: [], sends: [], cnps: [], hooks: [] };
}

/** A packet as a filter or recorder sees it. */
export interface PacketView {
  type: 'data' | 'ack' | 'nack' | 'cnp' | 'pfc';
  flow: number;
  seq: number;
  retx: boolean;
}

const TYPES: Record<number, PacketView['type']> = { [PKT_DATA]: 'data', [PKT_ACK]: 'ack', [PKT_NACK]: 'nack', [PKT_CNP]: 'cnp', [PKT_PFC]: 'pfc' };

function view(pk: PacketStore, p: number): PacketView {
  return { type: TYPES[pk.type(p)]!, flow: pk.flow(p), seq: pk.seq(p), retx: pk.has(p, FLAG_RETX) };
}

/**
 * Drops, on arrival at switch `node`, every packet for which `drop` returns
 * true (the n-th call sees the n-th packet to arrive there). Returns the
 * dropped packets, in order.
 */
export function dropAtSwitch(sim: Simulation, node: number, drop: (p: PacketView) => boolean): PacketView[] {
  const sw = sim.network.switches[node]!;
  const pk = sim.ctx.pool;
  // the link hands packets to `arrive` (with the per-hop words of the in-flight ring)
  const inner = sw.arrive.bind(sw);
  const dropped: PacketView[] = [];
  sw.arrive = (pkt: number, inPort: number, meta: number, dst: number, size: number, hash: number): void => {
    const v = view(pk, pkt);
    if (drop(v)) {
      dropped.push(v);
      pk.release(pkt);
      return;
    }
    inner(pkt, inPort, meta, dst, size, hash);
  };
  return dropped;
}

/** Drops the first transmission of the data packet of `flow` at `seq`, on arrival at switch `node`. */
export function dropFirstData(sim: Simulation, node: number, flow: number, seq: number): PacketView[] {
  return dropAtSwitch(sim, node, (p) => p.type === 'data' && p.flow === flow && p.seq === seq && !p.retx);
}

/** A packet put on the wire by a host NIC. */
export interface Departure extends PacketView {
  nowPs: number;
  /** control packets (ACK, NACK, CNP) waiting in the NIC when this packet was chosen */
  controlWaiting: number;
}

/** Records, in order, every packet host `host`'s NIC starts to transmit. */
export function recordDepartures(sim: Simulation, host: number): Departure[] {
  const h = sim.network.hosts[host]!;
  const pk = sim.ctx.pool;
  const inner = h.pull.bind(h);
  const out: Departure[] = [];
  h.pull = (port) => {
    const waiting = port.totalPkts;
    const p = inner(port);
    if (p !== NIL) out.push({ ...view(pk, p), nowPs: sim.nowPs, controlWaiting: waiting });
    return p;
  };
  return out;
}

/** Serialization time of `bytes` at `rateBps` under the profile's rounding rule, ps. */
export function ser(net: NetworkConfig, bytes: number, rateBps: number): number {
  return txTimePs(bytes, rateBps, net.transport.txTimeQuantization);
}

/** Records, in order, the packets switch `node` starts to transmit on its port `port`. */
export function recordSwitchDepartures(sim: Simulation, node: number, port: number): PacketView[] {
  const p = sim.network.switches[node]!.ports[port]!;
  const pk = sim.ctx.pool;
  const inner = p.transmitDq.bind(p);
  const out: PacketView[] = [];
  // every departure starts here: from a queue (via the switch's pull and Port.transmit) or straight through
  p.transmitDq = () => {
    out.push(view(pk, p.dqPkt));
    inner();
  };
  return out;
}

/** Records, in order, every packet that reaches host `host`, with its arrival time. */
export function recordArrivals(sim: Simulation, host: number): (PacketView & { nowPs: number })[] {
  const h = sim.network.hosts[host]!;
  const pk = sim.ctx.pool;
  const inner = h.receive.bind(h);
  const out: (PacketView & { nowPs: number })[] = [];
  h.receive = (pkt: number, port: number): void => {
    out.push({ ...view(pk, pkt), nowPs: sim.nowPs });
    inner(pkt, port);
  };
  return out;
}

/**
 * Hands switch `sw` an ECN-capable packet for host 2 arriving on port 0 (from host 0), labelled
 * in its seq, as the switch-service rigs do; returns it. `aux` is its payload bytes.
 */
export function arriveLabelled(sw: Switch, pk: PacketStore, label: number, prio: number, type: number, size: number, aux: number): number {
  const p = pk.alloc(type);
  pk.setDst(p, 2);
  pk.setSize(p, size);
  pk.setAux(p, aux);
  pk.setPrio(p, prio);
  pk.setSeq(p, label);
  pk.setFlag(p, FLAG_ECT, true);
  sw.arrivals.receive(p, 0);
  return p;
}

/** Dequeues from a switch port until nothing can go; the packets' seq labels in service order (pool records released). */
export function serveAll(sw: Switch, port: Port, pk: PacketStore): number[] {
  const out: number[] = [];
  for (let p = sw.pull(port); p !== NIL; p = sw.pull(port)) {
    out.push(pk.seq(p));
    pk.release(p);
  }
  return out;
}
