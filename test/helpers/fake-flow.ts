/**
 * A CcFlow for unit tests of a CC's control law: no network, the CC's rate changes recorded
 * (`calls`), everything else inert. The link and path numbers are the test's.
 */
import type { CcFlow } from '../../src/cc/types.js';
import { profileDefaults, type ProfileName } from '../../src/net/config.js';

export interface RecordingFlow extends Omit<CcFlow, 'rateBps'> {
  rateBps: number;
  /** every setRate call, in order */
  calls: { bps: number; adjust: boolean | undefined }[];
}

export interface FakeFlowOptions {
  lineRateBps: number;
  /** base RTT (also the largest), ps */
  baseRttPs: number;
  /** base BDP (also the largest), bytes */
  baseBdpBytes: number;
  /** the path's own RTT when it differs from baseRttPs (the PowerTCP tree's 4 us rack path), ps */
  pathRttPs?: number;
  dst?: number;
  sizeBytes?: number;
  minRateBps?: number;
  /** wire bytes of a full data packet (default 1056) */
  dataWireBytes?: number;
  profile: ProfileName;
}

export function fakeCcFlow(o: FakeFlowOptions): RecordingFlow {
  const path = o.pathRttPs ?? o.baseRttPs;
  const f: RecordingFlow = {
    id: 0, src: 0, dst: o.dst ?? 1, sizeBytes: o.sizeBytes ?? 1e9, lineRateBps: o.lineRateBps,
    baseRttPs: o.baseRttPs, baseBdpBytes: o.baseBdpBytes, pathBaseRttPs: path, pathRttPs: path,
    maxBaseRttPs: o.baseRttPs, maxBaseBdpBytes: o.baseBdpBytes, baseOneWayPs: path / 2, dataWireBytes: o.dataWireBytes ?? 1056, mtuBytes: 1000,
    rateBps: o.lineRateBps, cwndBytes: Infinity, sndNxt: 0, sndUna: 0, maxSentSeq: 0, minRateBps: o.minRateBps ?? 0,
    net: profileDefaults(o.profile), nextAvail: 0, holdUntilPs: 0, now: () => 0, calls: [],
    setRate(bps: number, adjust?: boolean) { f.calls.push({ bps, adjust }); f.rateBps = bps; },
    setCwnd() {}, setHold() {}, setTimer() {}, cancelTimer() {}, timerPending: () => false,
  };
  return f;
}
