/**
 * The shared objects the transport shows a CC (cc/types.ts `AckInfo`,
 * `SendInfo`; docs/network-model.md §10.1): one of each per transport,
 * overwritten for every ACK / data packet, so nothing is allocated per packet.
 */
import type { AckInfo, SendInfo } from '../cc/types.js';
import * as packet from '../net/packet.js';
import type { PacketStore } from '../net/packet.js';
import type { Flow } from './flow.js';

const { INT_MAX_HOPS, INT_QLEN, INT_RATE, INT_RX, INT_TS, INT_TX } = packet;

export function newAckInfo(): AckInfo {
  return {
    seq: 0,
    isNack: false,
    ecnEcho: false,
    tcd: 0,
    sendTsPs: -1,
    rxTsPs: -1,
    inflightBytes: 0,
    ackedPackets: 0,
    sumInflightBytes: 0,
    newlyAckedBytes: 0,
    intHops: 0,
    intTsPs: new Float64Array(INT_MAX_HOPS),
    intQlenBytes: new Float64Array(INT_MAX_HOPS),
    intTxBytes: new Float64Array(INT_MAX_HOPS),
    intRateBps: new Float64Array(INT_MAX_HOPS),
    intRxBytes: new Float64Array(INT_MAX_HOPS),
    mpdUs: 0,
    sndNxt: 0,
    sndUna: 0,
    maxSentSeq: 0,
    nowPs: 0,
    receiverEcho: 0,
  };
}

export function newSendInfo(): SendInfo {
  return { seq: 0, payloadBytes: 0, wireBytes: 0, nowPs: 0, isRetransmission: false, inflightStamp: 0, nextGapPs: -1 };
}

/** Copies the `n` INT hops ACK `pkt` echoes into `ai` (hop i at index i; at most INT_MAX_HOPS). */
export function copyIntEcho(ai: AckInfo, pk: PacketStore, pkt: number, n: number): void {
  const a = pk.intArray();
  const b = pk.intBase(pkt);
  const m = n < INT_MAX_HOPS ? n : INT_MAX_HOPS;
  for (let i = 0; i < m; i++) {
    ai.intTsPs[i] = a[b + INT_TS + i]!;
    ai.intQlenBytes[i] = a[b + INT_QLEN + i]!;
    ai.intTxBytes[i] = a[b + INT_TX + i]!;
    ai.intRateBps[i] = a[b + INT_RATE + i]!;
    ai.intRxBytes[i] = a[b + INT_RX + i]!;
  }
}

/**
 * A receiver-made control ACK of flow `f` toward its sender, in class `cls`, with the
 * cumulative sequence and nothing else: what a receiver-driven send driver (Homa's grant,
 * NDP's PULL) writes its credit word into before `Host.sendControl`.
 */
export function controlAck(pk: PacketStore, f: Flow, cls: number): number {
  const a = pk.alloc(packet.PKT_ACK);
  pk.setFlow(a, f.id);
  pk.setDst(a, f.src);
  pk.setSeq(a, f.rcvExpected);
  pk.setSize(a, f.ackWireBytes);
  pk.setPrio(a, cls);
  pk.setHash(a, f.ackHash);
  return a;
}
