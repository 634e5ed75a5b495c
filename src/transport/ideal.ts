/**
 * Ideal (standalone) FCT, docs/network-model.md §13.1. In the transport, the lowest
 * layer that uses it (a flow gets its ideal FCT when it is made); metrics read it there.
 * - hpcc ([H] third.cc, also PowerTCP): pairRtt + (size + headers per packet)·8 / bottleneck,
 *   where pairRtt = 2·propagation + one MTU-payload serialization per hop; integer ns.
 * - oscar (OSCAR notebooks): size·8 / line rate + propagation RTT.
 */
import { NS, SEC } from '../engine/units.js';
import type { IdealFctMode } from '../net/config.js';
import type { PathInfo } from '../net/topology/types.js';

export function idealFctPs(mode: IdealFctMode, bytes: number, path: PathInfo, lineRateBps: number, mtuBytes: number, dataHeaderBytes: number): number {
  if (mode === 'hpcc') {
    let rttNs = 0;
    for (const r of path.rates) rttNs += Math.floor((mtuBytes * 8 * 1e9) / r);
    rttNs += (2 * path.delayPs) / NS;
    const total = bytes + Math.ceil(bytes / mtuBytes) * dataHeaderBytes;
    return (Math.floor(rttNs) + Math.floor((total * 8 * 1e9) / path.minRateBps)) * NS;
  }
  return Math.round((bytes * 8 * SEC) / lineRateBps) + 2 * path.delayPs;
}
