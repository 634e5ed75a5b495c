/**
 * TIMELY `preset: powertcp`, rule by rule against the PowerTCP authors' ns-3.39 simulator
 * (its UpdateRateTimely / HandleAckTimely and the burst program's config column), issue 42
 * item 8. Each test drives one rule with synthetic ACKs; together they say that the update
 * law is the reference's, so the incast gap of issue 42 comes from the set-up (the window,
 * test/reference-incast.test.ts), not from the law. Where the TIMELY paper (Mittal et al.,
 * SIGCOMM'15, Alg. 1) differs from the reference, ccsim follows the reference
 * (docs/algorithms.md §9.3): an update once per RTT on per-packet ACKs instead of per
 * completed segment, a staged step of RATE_AI / RATE_HAI instead of N·δ, and a T_low
 * increase that also counts as a stage.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findCc } from '../src/cc/registry.js';
import { type AckInfo, type CcInstance, INT_MAX_HOPS } from '../src/cc/types.js';
import { US } from '../src/engine/units.js';
import { fakeCcFlow, type RecordingFlow } from './helpers/fake-flow.js';

const C = 25e9;
const MB = 1e6; // Mb/s in bps

type Fake = RecordingFlow;

function fakeFlow(): Fake {
  return fakeCcFlow({ lineRateBps: C, baseRttPs: 28.96 * US, baseBdpBytes: 90_500, pathRttPs: 4 * US, dst: 16, sizeBytes: 1e12, profile: 'hpcc' });
}

/** An ACK up to `seq` whose data packet was sent at `sentPs` and is acknowledged `rttPs` later, with the sender's snd_nxt. */
function ack(seq: number, sentPs: number, rttPs: number, sndNxt: number): AckInfo {
  const z = (): Float64Array => new Float64Array(INT_MAX_HOPS);
  return {
    seq, isNack: false, ecnEcho: false, tcd: 0, sendTsPs: sentPs, rxTsPs: -1, inflightBytes: 0, ackedPackets: 1, sumInflightBytes: 0,
    newlyAckedBytes: 1000, intHops: 0, intTsPs: z(), intQlenBytes: z(), intTxBytes: z(), intRateBps: z(), intRxBytes: z(), mpdUs: 0,
    sndNxt, sndUna: seq, maxSentSeq: sndNxt, nowPs: sentPs + rttPs, receiverEcho: 0,
  };
}

function timely(f: Fake, params: Record<string, unknown> = {}): CcInstance {
  const def = findCc('timely')!;
  return def.create(f, def.params.parse({ preset: 'powertcp', ...params }));
}

/**
 * Feeds one ACK per RTT: the k-th ACK acknowledges exactly the sequence the previous
 * update recorded as snd_nxt, so every ACK after the first is a full update.
 */
function perRtt(cc: CcInstance, rttsUs: number[]): void {
  let seq = 1000;
  let t = 0;
  for (const r of rttsUs) {
    cc.onAck(ack(seq + 1, t, r * US, seq + 10_000));
    seq += 10_000;
    t += 100 * US;
  }
}

test('the first ACK only records the RTT and snd_nxt (the reference skips the first RTT)', () => {
  const f = fakeFlow();
  perRtt(timely(f), [400]); // far above T_low with no history: no decision yet
  assert.deepEqual(f.calls, []);
});

test('one update per RTT: ACKs up to the snd_nxt recorded at the last update change nothing', () => {
  const f = fakeFlow();
  const cc = timely(f);
  cc.onAck(ack(1000, 0, 5 * US, 20_000)); // first: records snd_nxt 20,000
  for (let s = 2000; s <= 20_000; s += 1000) cc.onAck(ack(s, s * 1000, 300 * US, 40_000)); // ack_seq <= 20,000
  assert.deepEqual(f.calls, []);
  cc.onAck(ack(21_000, 0, 300 * US, 40_000)); // the ACK past it is the update
  assert.equal(f.calls.length, 1);
});

test('the RTT is now minus the echoed send stamp of the acknowledged packet', () => {
  // the same arrival time with two send stamps: 40 us (< T_low, increase) and 60 us (> T_low, rising: cut)
  for (const [sentUs, up] of [[60, true], [40, false]] as const) {
    const f = fakeFlow();
    const cc = timely(f);
    cc.onAck(ack(1000, 0, 30 * US, 10_000));
    cc.onAck(ack(11_000, sentUs * US, (100 - sentUs) * US, 20_000)); // arrives at 100 us
    const r = f.calls.at(-1)!.bps;
    assert.equal(r > 5e9, up, `send stamp ${sentUs} us: rate ${r}`);
  }
});

test('staged steps from a rate below C: 50, 50, 50, 50, 50, then 100 Mb/s (incStage < 5 ? RATE_AI : RATE_HAI)', () => {
  const f = fakeFlow();
  const cc = timely(f);
  // one decrease to leave line rate: RTT 30 -> 60 us, gradient 0.875 * 30 / 20 = 1.31, c < 0 -> floor
  perRtt(cc, [30, 60]);
  assert.equal(f.calls[0]!.bps, 100 * MB, 'a cut with 1 - beta * gradient < 0 lands on MIN_RATE (100 Mb/s)');
  // then RTTs below T_low
  let seq = 30_000;
  let t = 1000 * US;
  for (let k = 0; k < 7; k++) {
    cc.onAck(ack(seq + 1, t, 10 * US, seq + 10_000));
    seq += 10_000;
    t += 100 * US;
  }
  const rates = f.calls.slice(1).map((c) => Math.round(c.bps / MB));
  assert.deepEqual(rates, [150, 200, 250, 300, 350, 450, 550]);
});

test('between T_low and T_high: gradient = EWMA(alpha 0.875 on the new RTT difference) / minRTT 20 us; rate x (1 - 0.8 gradient)', () => {
  const f = fakeFlow();
  const cc = timely(f);
  perRtt(cc, [60, 64, 66]);
  const d1 = 0.875 * 4;
  const g1 = d1 / 20; // 0.175
  const g2 = (0.125 * d1 + 0.875 * 2) / 20; // 0.109
  const r1 = C * (1 - 0.8 * g1);
  const r2 = r1 * (1 - 0.8 * g2);
  assert.ok(Math.abs(f.calls[0]!.bps - r1) < 1, `${f.calls[0]!.bps} vs ${r1}`);
  assert.ok(Math.abs(f.calls[1]!.bps - r2) < 1, `${f.calls[1]!.bps} vs ${r2}`);
});

test('between T_low and T_high a non-positive gradient increases (staged step)', () => {
  const f = fakeFlow();
  const cc = timely(f);
  perRtt(cc, [60, 100, 90]); // 100 us: gradient 1.75, to the floor; 90 us: EWMA 0.125 x 35 - 0.875 x 10 < 0
  assert.equal(f.calls[0]!.bps, 100 * MB);
  assert.equal(f.calls[1]!.bps, 150 * MB);
});

test('above T_high (500 us): rate x (1 - beta (1 - T_high / RTT)), the gradient ignored', () => {
  const f = fakeFlow();
  const cc = timely(f);
  perRtt(cc, [900, 800]); // falling RTT, but above T_high
  const want = C * (1 - 0.8 * (1 - 500 / 800));
  assert.ok(Math.abs(f.calls[0]!.bps - want) < 1, `${f.calls[0]!.bps} vs ${want}`);
});

test('the new rate is assigned without moving the packet already scheduled (no ChangeRate), and never below 100 Mb/s', () => {
  const f = fakeFlow();
  const cc = timely(f);
  perRtt(cc, [5, 60, 200]);
  assert.ok(f.calls.length >= 2);
  for (const c of f.calls) {
    assert.equal(c.adjust, false);
    assert.ok(c.bps >= 100 * MB, `rate ${c.bps}`);
  }
  // the default column (the HPCC scripts) moves it and floors at 0.001 C
  const d = fakeFlow();
  const dc = findCc('timely')!;
  const inst = dc.create(d, dc.params.parse({}));
  perRtt(inst, [5, 60]);
  assert.equal(d.calls[0]!.adjust, true);
  assert.equal(d.calls[0]!.bps, 0.001 * C);
});
