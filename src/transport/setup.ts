/**
 * Turns flow specs into `Flow` objects: wire sizes with the CC's headers, the
 * base RTT and BDP the CC is told (docs/network-model.md §9), the ideal FCT
 * (docs/network-model.md §13.1), and the (sport, dport) identifiers and ECMP hashes (docs/network-model.md §11.6).
 */
import { NS, SEC } from '../engine/units.js';
import { idealFctPs } from './ideal.js';
import type { NetworkConfig } from '../net/config.js';
import type { Network } from '../net/network.js';
import { mix32 } from '../net/hash.js';
import { setNs3FlowKey } from '../net/ecmp-ns3.js';
import type { PathOracle } from '../net/topology/routing.js';
import type { PathInfo } from '../net/topology/types.js';
import type { FlowSpec } from '../workload/types.js';
import { Flow } from './flow.js';
import type { Transport } from './transport.js';

const floorNs = (ps: number): number => Math.floor(ps / NS) * NS;

/** Extra header bytes the CC puts on data packets and ACKs. */
export interface CcHeaderBytes {
  data: number;
  ack: number;
}

/**
 * Makes `Flow`s one at a time, in start order: a flow's id is its rank in
 * that order, and the per-pair / per-host port counters advance in id order,
 * so making flows lazily (as they start) gives the same flows as making them
 * all up front.
 */
export class FlowFactory {
  private readonly ackWire: number;
  private readonly nackWire: number;
  private readonly mtu: number;
  private readonly hdr: number;
  private readonly H: number;
  private readonly globalRtt: number;
  private readonly globalBdp: number;
  private readonly offset: number;
  private readonly maxDelayPs: number;
  private readonly pairCount = new Map<number, number>();
  private readonly qpCount: Int32Array;

  constructor(
    private readonly net: NetworkConfig,
    private readonly transport: Transport,
    private readonly network: Network,
    private readonly oracle: PathOracle,
    cc: CcHeaderBytes,
  ) {
    const tc = net.transport;
    const ackHdr = tc.ackBytes + cc.ack;
    this.ackWire = Math.max(tc.ackMinBytes, ackHdr);
    // D-OSCAR NACKs carry no CC echo; their padding is computed from the ACK header (docs/network-model.md §8)
    this.nackWire = tc.nackCarriesEcho ? this.ackWire : tc.ackBytes + Math.max(0, tc.ackMinBytes - ackHdr);
    this.mtu = tc.mtuBytes;
    this.hdr = tc.dataHeaderBytes + cc.data;
    this.H = network.hosts.length;
    this.globalRtt = oracle.maxPairRttPs(this.mtu);
    this.globalBdp = oracle.maxPairBdpBytes(this.mtu);
    // OSCAR's notebooks class a pair (same rack / pod / other) by host IP = id + 1, so one host
    // per rack is classed with the next rack (docs/network-model.md §13.1, oscarIdealIndexOffset).
    // Here the class of (src, dst) is the path between src + offset and dst + offset; an id
    // past the last host falls in a rack of its own, i.e. the longest path.
    this.offset = net.metrics.idealFct === 'oscar' ? net.metrics.oscarIdealIndexOffset : 0;
    this.maxDelayPs = this.offset !== 0 ? oracle.maxPairRttPs(0) / 2 : 0;
    this.qpCount = new Int32Array(this.H);
  }

  private idealPath(src: number, dst: number, path: PathInfo): PathInfo {
    const offset = this.offset;
    if (offset === 0) return path;
    const a = src + offset;
    const b = dst + offset;
    const H = this.H;
    if (a >= 0 && b >= 0 && a < H && b < H) return { ...path, delayPs: this.oracle.info(a, b).delayPs };
    return { ...path, delayPs: this.maxDelayPs };
  }

  /** The flow with id `id` (the next id in start order) from its spec. */
  make(id: number, s: FlowSpec): Flow {
    const tc = this.net.transport;
    const { mtu, hdr, ackWire, H, oracle, transport } = this;
    const f = new Flow(transport, id, s.src, s.dst, s.bytes, s.startPs, s.prio ?? tc.dataPriority, s.tag ?? '');
    const lineRate = this.network.hosts[s.src]!.port.rateBps;
    f.lineRateBps = lineRate;
    f.mtuBytes = mtu;
    f.dataHeaderBytes = hdr;
    f.dataWireBytes = mtu + hdr;
    f.ackWireBytes = ackWire;
    f.nackWireBytes = this.nackWire;
    f.minRateBps = tc.minRateRatio * lineRate;
    f.rateBps = lineRate;
    const path = oracle.info(s.src, s.dst);
    f.maxBaseRttPs = this.globalRtt;
    f.maxBaseBdpBytes = this.globalBdp;
    if (tc.baseRtt === 'globalMaxHpcc') {
      f.baseRttPs = this.globalRtt;
      f.baseBdpBytes = this.globalBdp;
      f.baseOneWayPs = Math.round(this.globalRtt / 2);
      f.pathBaseRttPs = oracle.pairRttPs(s.src, s.dst, mtu);
    } else {
      // D-OSCAR: every hop at the host rate, each term truncated to ns
      const pktSer = floorNs(((mtu + tc.dataHeaderBytes) * 8 * SEC) / lineRate);
      const ackSer = floorNs((ackWire * 8 * SEC) / lineRate);
      f.baseRttPs = 2 * path.delayPs + path.hops * (pktSer + ackSer);
      f.baseBdpBytes = (lineRate / 8) * (f.baseRttPs / SEC);
      f.baseOneWayPs = path.delayPs + path.hops * pktSer;
      f.pathBaseRttPs = f.baseRttPs;
    }
    // the flow's own unloaded RTT: propagation both ways + one data and one ACK serialization per link
    let pathRtt = 2 * path.delayPs;
    for (const r of path.rates) pathRtt += transport.ctx.txTime(mtu + hdr, r) + transport.ctx.txTime(ackWire, r);
    f.pathRttPs = pathRtt;
    f.idealFctPs = idealFctPs(this.net.metrics.idealFct, s.bytes, this.idealPath(s.src, s.dst, path), lineRate, mtu, tc.dataHeaderBytes);
    if (tc.portRule === 'hpcc') {
      const key = s.src * H + s.dst;
      const k = this.pairCount.get(key) ?? 0;
      this.pairCount.set(key, k + 1);
      f.sport = 10000 + k;
      f.dport = s.tag === 'incast' ? 200 : 100;
    } else {
      f.sport = ++this.qpCount[s.src]!;
      f.dport = ++this.qpCount[s.dst]!;
    }
    if (s.sport !== undefined) f.sport = s.sport;
    if (s.dport !== undefined) f.dport = s.dport;
    const keys = transport.ctx.flowKeys;
    if (keys.length > 0) setNs3FlowKey(keys, id, s.src, s.dst, f.sport, f.dport);
    // kept as int32 so packets hold them as small integers
    f.hash = mix32(mix32(mix32(s.src + 1) ^ (s.dst + 0x3c6ef372)) ^ (f.sport | (f.dport << 16))) | 0;
    f.ackHash = mix32(mix32(mix32(s.dst + 1) ^ (s.src + 0x3c6ef372)) ^ (f.dport | (f.sport << 16))) | 0;
    return f;
  }
}

/**
 * Indices of `specs` in start order (stable: equal start times keep their
 * list order); flow ids follow this order. Checks that no flow sends to itself.
 */
export function startOrder(specs: readonly FlowSpec[]): Int32Array {
  const order = new Int32Array(specs.length);
  for (let i = 0; i < specs.length; i++) {
    const s = specs[i]!;
    if (s.src === s.dst) throw new Error(`flow ${i}: src and dst are both host ${s.src}`);
    order[i] = i;
  }
  order.sort((a, b) => specs[a]!.startPs - specs[b]!.startPs || a - b);
  return order;
}

/** Builds all flows up front with `factory`, ordered by start time (stable); a flow's id is its index in that order. */
export function createFlows(specsIn: readonly FlowSpec[], factory: FlowFactory): Flow[] {
  const order = startOrder(specsIn);
  const flows: Flow[] = [];
  for (let id = 0; id < order.length; id++) flows.push(factory.make(id, specsIn[order[id]!]!));
  return flows;
}
