/**
 * A CCC instance on a fake 25 G flow (RTT_min = 20 us, 1000-byte MTU) and the ACKs it is fed,
 * for the unit tests of CCC's law (docs/algorithms.md §6): no network, setRate logged.
 */
import { US } from '../../src/engine/units.js';
import { cccCc } from '../../src/cc/ccc.js';
import { INT_MAX_HOPS, type AckInfo, type CcFlow, type CcInstance } from '../../src/cc/types.js';
import { profileDefaults } from '../../src/net/config.js';

export const G25 = 25e9;
export const RTT_MIN = 20 * US;

/** A CCC instance on the fake flow, started; `rates` logs every setRate. */
export function cccOnFakeFlow(params: Record<string, unknown>): { cc: CcInstance; rates: number[] } {
  const rates: number[] = [];
  const f = {
    id: 0, src: 0, dst: 1, sizeBytes: 1e9, lineRateBps: G25, baseRttPs: RTT_MIN, baseBdpBytes: 62_500, pathBaseRttPs: RTT_MIN, pathRttPs: RTT_MIN,
    maxBaseRttPs: RTT_MIN, maxBaseBdpBytes: 62_500, baseOneWayPs: RTT_MIN / 2, dataWireBytes: 1062, mtuBytes: 1000, rateBps: G25,
    cwndBytes: 62_500, sndNxt: 0, sndUna: 0, maxSentSeq: 0, minRateBps: 1e8, net: profileDefaults('hpcc'),
    nextAvail: 0, holdUntilPs: 0, now: () => 0,
    setRate(bps: number) { rates.push(bps); f.rateBps = bps; },
    setCwnd(b: number) { f.cwndBytes = b; }, setHold() {}, setTimer() {}, cancelTimer() {}, timerPending: () => false,
  };
  const cc = cccCc.create(f as unknown as CcFlow, cccCc.params.parse(params));
  cc.onStart?.();
  return { cc, rates };
}

/** An ACK arriving at nowPs whose packet saw an RTT of rttPs. */
export function ack(nowPs: number, rttPs: number): AckInfo {
  const z = new Float64Array(INT_MAX_HOPS);
  return {
    seq: 1000, isNack: false, ecnEcho: false, tcd: 0, sendTsPs: nowPs - rttPs, rxTsPs: -1, inflightBytes: 0, ackedPackets: 1, sumInflightBytes: 0,
    newlyAckedBytes: 1000, intHops: 0, intTsPs: z, intQlenBytes: z, intTxBytes: z, intRateBps: z, intRxBytes: z, mpdUs: 0,
    sndNxt: 0, sndUna: 0, maxSentSeq: 0, nowPs, receiverEcho: 0,
  };
}
