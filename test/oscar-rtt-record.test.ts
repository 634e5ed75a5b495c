/**
 * OSCAR's `rttRecord` (docs/algorithms.md §2, ART-16): which packet a delay
 * sample describes when ACKs arrive out of order (per-packet spraying with
 * `retxMode: none`, Fig 10b). `echo` takes the packet that triggered the ACK;
 * `cumulative` (the OSCAR artifact's record keyed by packet number) takes the
 * sender's record of the last packet below the ACK's cumulative sequence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oscarCc, type OscarInstance } from '../src/cc/oscar.js';
import type { CcFlow, SendInfo } from '../src/cc/types.js';
import { newAckInfo } from '../src/transport/ack-info.js';
import { fakeCcFlow } from './helpers/fake-flow.js';
import { US } from '../src/engine/units.js';

const C = 100e9;
const RTT = 12 * US;
const MTU = 1000;
const WIRE = 1060;

function flow(): CcFlow {
  return fakeCcFlow({ lineRateBps: C, baseRttPs: RTT, baseBdpBytes: (C / 8) * (RTT / 1e12), sizeBytes: 200 * MTU, minRateBps: 0.001 * C, dataWireBytes: WIRE, profile: 'oscar' });
}

const GAP = 84_800; // one 1060-B packet at 100 G, ps
const T0 = 1e9;
const ONE_WAY = 8 * US;

/**
 * Sends packets 0..n-1 every GAP and delivers them with a fixed one-way delay,
 * except that packet `late` arrives `lateBy` ps after its turn. Each arrival is
 * ACKed at once with the receiver's cumulative sequence (retxMode none) and the
 * ACK reaches the sender ONE_WAY later. Returns the first closed batch's delay.
 */
function run(rttRecord: 'echo' | 'cumulative', late: number, lateBy: number): { delayPs: number; gradient: number } {
  const o = oscarCc.create(flow(), oscarCc.params.parse({ rttRecord })) as OscarInstance;
  const n = 80;
  const s: SendInfo = { seq: 0, payloadBytes: MTU, wireBytes: WIRE, nowPs: 0, isRetransmission: false, inflightStamp: 0, nextGapPs: -1 };
  const arrivals: { k: number; at: number }[] = [];
  for (let k = 0; k < n; k++) {
    s.seq = k * MTU;
    s.nowPs = T0 + k * GAP;
    s.inflightStamp = 10 * MTU;
    o.onSend(s);
    arrivals.push({ k, at: s.nowPs + ONE_WAY + (k === late ? lateBy : 0) });
  }
  arrivals.sort((a, b) => a.at - b.at);
  const got = new Uint8Array(n);
  let expected = 0;
  const a = newAckInfo();
  for (const { k, at } of arrivals) {
    got[k] = 1;
    while (expected < n && got[expected] === 1) expected++;
    a.seq = expected * MTU;
    a.sendTsPs = T0 + k * GAP;
    a.nowPs = at + ONE_WAY;
    a.rxTsPs = at;
    a.sumInflightBytes = 10 * WIRE;
    o.onAck(a);
    if (o.updates > 0) break;
  }
  assert.ok(o.updates > 0, 'a batch closed');
  return { delayPs: o.lastDelayPs, gradient: o.lastGradient };
}

test('OSCAR rttRecord: in-order delivery gives the same sample either way', () => {
  const e = run('echo', -1, 0);
  const c = run('cumulative', -1, 0);
  assert.equal(e.delayPs, 2 * ONE_WAY);
  assert.equal(c.delayPs, e.delayPs);
  assert.equal(c.gradient, e.gradient);
});

test('OSCAR rttRecord cumulative: ACKs behind a late packet repeat the record of the last in-order packet: a higher mean delay and a falling gradient (ART-16)', () => {
  // packet 3 arrives 2 us late: the ~23 packets behind it are ACKed with cumulative 3
  const e = run('echo', 3, 2 * US);
  const c = run('cumulative', 3, 2 * US);
  // echo: only the late packet's own sample (1 of the batch's ~60) is longer
  assert.ok(e.delayPs < 2 * ONE_WAY + 0.05 * US, `echo delay ${e.delayPs}`);
  // cumulative: each of those ACKs measures from packet 2's send time to its own arrival
  // (up to 2 us more, about 1 us on average over a third of the batch)
  assert.ok(c.delayPs > 2 * ONE_WAY + 0.3 * US, `cumulative delay ${c.delayPs}`);
  // those high samples sit at one early send time, so the regression over send time reads a falling delay
  assert.ok(c.gradient < e.gradient - 0.1, `gradients ${c.gradient} vs ${e.gradient}`);
});

test('OSCAR rttRecord cumulative: an ACK that acknowledges nothing yet gives no sample', () => {
  const o = oscarCc.create(flow(), oscarCc.params.parse({ rttRecord: 'cumulative' })) as OscarInstance;
  const s: SendInfo = { seq: MTU, payloadBytes: MTU, wireBytes: WIRE, nowPs: T0, isRetransmission: false, inflightStamp: 0, nextGapPs: -1 };
  o.onSend(s);
  const a = newAckInfo();
  a.seq = 0; // packet 1 arrived before packet 0
  for (let i = 0; i < 200; i++) {
    a.nowPs = T0 + RTT + i * GAP;
    a.sendTsPs = T0;
    o.onAck(a);
  }
  assert.equal(o.updates, 0);
});
