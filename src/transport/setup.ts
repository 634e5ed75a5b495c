/**
 * Turns flow specs into `Flow` objects: wire sizes with the CC's headers, the
 * base RTT and BDP the CC is told (network-model.md §1.5), the ideal FCT
 * (§6.2), and the (sport, dport) identifiers and ECMP hashes (§2.8).
 */
import { NS, SEC } from '../engine/units.js';
import { idealFctPs } from '../metrics/ideal.js';
import type { NetworkConfig } from '../net/config.js';
import type { Network } from '../net/network.js';
import { mix32 } from '../net/switch.js';
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
 * Builds the flows, ordered by start time (stable); a flow's id is its index
 * in that order.
 */
export function createFlows(specsIn: readonly FlowSpec[], net: NetworkConfig, transport: Transport, network: Network, oracle: PathOracle, cc: CcHeaderBytes): Flow[] {
  const tc = net.transport;
  const ackHdr = tc.ackBytes + cc.ack;
  const ackWire = Math.max(tc.ackMinBytes, ackHdr);
  // D-OSCAR NACKs carry no CC echo; their padding is computed from the ACK header (§1.4)
  const nackWire = tc.nackCarriesEcho ? ackWire : tc.ackBytes + Math.max(0, tc.ackMinBytes - ackHdr);
  const mtu = tc.mtuBytes;
  const hdr = tc.dataHeaderBytes + cc.data;
  const H = network.hosts.length;
  const globalRtt = oracle.maxPairRttPs(mtu);
  const globalBdp = oracle.maxPairBdpBytes(mtu);
  // OSCAR's notebooks class a pair (same rack / pod / other) by host IP = id + 1, so one host
  // per rack is classed with the next rack (network-model.md §6.2, oscarIdealIndexOffset).
  // Here the class of (src, dst) is the path between src + offset and dst + offset; an id
  // past the last host falls in a rack of its own, i.e. the longest path.
  const offset = net.metrics.idealFct === 'oscar' ? net.metrics.oscarIdealIndexOffset : 0;
  const maxDelayPs = offset !== 0 ? oracle.maxPairRttPs(0) / 2 : 0;
  const idealPath = (src: number, dst: number, path: PathInfo): PathInfo => {
    if (offset === 0) return path;
    const a = src + offset;
    const b = dst + offset;
    if (a >= 0 && b >= 0 && a < H && b < H) return { ...path, delayPs: oracle.info(a, b).delayPs };
    return { ...path, delayPs: maxDelayPs };
  };
  const specs = specsIn.map((f, i) => ({ f, i }));
  specs.sort((a, b) => a.f.startPs - b.f.startPs || a.i - b.i);
  const pairCount = new Map<number, number>();
  const qpCount = new Int32Array(H);
  const flows: Flow[] = [];
  for (let id = 0; id < specs.length; id++) {
    const s = specs[id]!.f;
    if (s.src === s.dst) throw new Error(`flow ${specs[id]!.i}: src and dst are both host ${s.src}`);
    const f = new Flow(transport, id, s.src, s.dst, s.bytes, s.startPs, s.prio ?? tc.dataPriority, s.tag ?? '');
    const lineRate = network.hosts[s.src]!.port.rateBps;
    f.lineRateBps = lineRate;
    f.mtuBytes = mtu;
    f.dataHeaderBytes = hdr;
    f.dataWireBytes = mtu + hdr;
    f.ackWireBytes = ackWire;
    f.nackWireBytes = nackWire;
    f.minRateBps = tc.minRateRatio * lineRate;
    f.rateBps = lineRate;
    const path = oracle.info(s.src, s.dst);
    f.maxBaseRttPs = globalRtt;
    f.maxBaseBdpBytes = globalBdp;
    if (tc.baseRtt === 'globalMaxHpcc') {
      f.baseRttPs = globalRtt;
      f.baseBdpBytes = globalBdp;
      f.baseOneWayPs = Math.round(globalRtt / 2);
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
    f.idealFctPs = idealFctPs(net.metrics.idealFct, s.bytes, idealPath(s.src, s.dst, path), lineRate, mtu, tc.dataHeaderBytes);
    if (tc.portRule === 'hpcc') {
      const key = s.src * H + s.dst;
      const k = pairCount.get(key) ?? 0;
      pairCount.set(key, k + 1);
      f.sport = 10000 + k;
      f.dport = s.tag === 'incast' ? 200 : 100;
    } else {
      f.sport = ++qpCount[s.src]!;
      f.dport = ++qpCount[s.dst]!;
    }
    // kept as int32 so packets hold them as small integers
    f.hash = mix32(mix32(mix32(s.src + 1) ^ (s.dst + 0x3c6ef372)) ^ (f.sport | (f.dport << 16))) | 0;
    f.ackHash = mix32(mix32(mix32(s.dst + 1) ^ (s.src + 0x3c6ef372)) ^ (f.dport | (f.sport << 16))) | 0;
    flows.push(f);
  }
  return flows;
}
