/**
 * Loss recovery and what a CC sees (docs/network-model.md §5, §7): go-back-N under
 * both NACK rules, the retransmission timeout, the AckInfo sequence under both
 * ACK orders. One flow, host 0 -> host 1, through the one switch (node 2) of a
 * 2-host star; packets are dropped on purpose on arrival at the switch. Every
 * expected time is closed form: d, a, n are the serialization times of a data
 * packet, an ACK and a NACK, p the propagation delay of a link, and with one
 * flow nothing ever queues (store and forward: a packet that starts at t
 * reaches the receiver at t + 2d + 2p).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../src/sim/simulate.js';
import type { SimOutput } from '../src/sim/types.js';
import type { NetworkConfig, ProfileName } from '../src/net/config.js';
import { star } from '../src/net/topology/index.js';
import { MS, US } from '../src/engine/units.js';
import { input, net, type DeepPartial } from './helpers/sim.js';
import { dropAtSwitch, dropFirstData, newLog, recordArrivals, recordDepartures, recordingCc, ser, type AckRecord, type CcLog, type PacketView } from './helpers/probe.js';

const SW = 2;
const P = 1 * US;
const MTU = 1000;

interface Run {
  sim: Simulation;
  out: SimOutput;
  log: CcLog;
  dropped: PacketView[];
  /** data, ACK and NACK serialization times at the host rate */
  d: number;
  a: number;
  n: number;
}

/**
 * One flow of `packets` MTU-sized packets from host 0 to host 1 on a star at
 * `rateBps`, with `drop` deciding which packets the switch loses.
 */
function oneFlow(profile: ProfileName, over: DeepPartial<NetworkConfig>, packets: number, drop: (sim: Simulation) => PacketView[], rateBps = 100e9): Run {
  const cfg = net(profile, over);
  const log = newLog();
  const topo = star({ hosts: 2, rateBps, delayPs: P });
  const sim = new Simulation(input(topo, [{ src: 0, dst: 1, bytes: packets * MTU, startPs: 0 }], { net: cfg }), recordingCc(log));
  const dropped = drop(sim);
  sim.runUntil(Infinity);
  const out = sim.finish();
  const f = log.flows[0]!;
  return { sim, out, log, dropped, d: ser(cfg, f.dataWireBytes, rateBps), a: ser(cfg, f.ackWireBytes, rateBps), n: ser(cfg, f.nackWireBytes, rateBps) };
}

const nacks = (log: CcLog): AckRecord[] => log.acks.filter((r) => r.isNack);

// ------------------------------------------------------------------ go-back-N

for (const profile of ['oscar', 'hpcc'] as const) {
  const rule = profile === 'oscar' ? 'rearmOnInOrder' : 'timer';
  test(`go-back-N (${profile}, NACK rule ${rule}): one lost packet is NACKed once, the sender rewinds to it and resends the rest`, () => {
    const N = 20;
    const i = 5; // packet i (seq 5000) is lost on its first transmission
    const r = oneFlow(profile, {}, N, (sim) => dropFirstData(sim, SW, 0, i * MTU));
    const { d, a, n, log, out, sim } = r;
    assert.equal(sim.input.net.transport.nackRule, rule);
    assert.deepEqual(
      r.dropped.map((p) => p.seq),
      [i * MTU],
    );
    // packet i+1 is the first out of order: it reaches host 1 at (i+3)d + 2p and the NACK is back at host 0 2n + 2p later
    const nackAt = (i + 3) * d + 2 * n + 4 * P;
    const nk = nacks(log);
    assert.equal(nk.length, 1, 'exactly one NACK: the later out-of-order packets trigger none');
    assert.equal(nk[0]!.seq, i * MTU, 'the NACK names the first missing byte');
    assert.equal(nk[0]!.nowPs, nackAt);
    // every packet was sent once before the NACK came back
    assert.equal(nk[0]!.maxSentSeq, N * MTU);
    // go-back-N: from the NACK on, the sender resends seq i*MTU, (i+1)*MTU, ... back to back, each marked as a retransmission
    const after = log.sends.filter((s) => s.nowPs >= nackAt);
    assert.deepEqual(
      after.map((s) => [s.seq, s.retx, s.nowPs]),
      Array.from({ length: N - i }, (_, k) => [(i + k) * MTU, true, nackAt + k * d]),
    );
    assert.equal(out.totals.retransmittedPackets, N - i);
    assert.equal(out.totals.dataPacketsSent, N + (N - i));
    assert.equal(out.totals.timeouts, 0);
    assert.equal(sim.network.hosts[0]!.port.txBytes, (2 * N - i) * r.log.flows[0]!.dataWireBytes);
    // completes with exactly its bytes delivered in order, when the last resent packet's ACK is back
    assert.equal(out.fct.length, 1);
    assert.equal(out.fct[0]!.bytes, N * MTU);
    assert.equal(r.log.flows[0]!.rcvExpected, N * MTU);
    assert.equal(r.log.flows[0]!.sndUna, N * MTU);
    assert.equal(out.fct[0]!.fctPs, nackAt + (N - i + 1) * d + 2 * a + 4 * P);
  });
}

test('NACK rules differ when the NACK is lost: the timer rule NACKs again after 500 us, the re-arm rule waits for the RTO', () => {
  // 25 G hosts so that 500 us is ~1500 packets; the flow is longer than that
  const rate = 25e9;
  const N = 2000;
  const i = 5;
  const lose = (sim: Simulation): PacketView[] => {
    let nacksSeen = 0;
    return dropAtSwitch(sim, SW, (p) => (p.type === 'data' && p.seq === i * MTU && !p.retx) || (p.type === 'nack' && nacksSeen++ === 0));
  };

  // D-HPCC timer rule: the next out-of-order packet to arrive >= 500 us after the first NACK sends another
  const h = oneFlow('hpcc', {}, N, lose, rate);
  assert.deepEqual(
    h.dropped.map((p) => `${p.type}:${p.seq}`),
    [`data:${i * MTU}`, `nack:${i * MTU}`],
  );
  const nackInterval = h.sim.input.net.transport.nackIntervalPs;
  assert.equal(nackInterval, 500 * US);
  const arrive = (k: number): number => (k + 2) * h.d + 2 * P; // packet k reaches host 1 (first transmission)
  const first = arrive(i + 1);
  let k2 = i + 1;
  while (arrive(k2) < first + nackInterval) k2++;
  assert.ok(k2 < N, 'the flow still has out-of-order packets in flight 500 us later');
  const hn = nacks(h.log);
  assert.equal(hn.length, 1);
  assert.equal(hn[0]!.seq, i * MTU);
  const t2 = arrive(k2) + 2 * h.n + 2 * P;
  assert.equal(hn[0]!.nowPs, t2);
  // go-back-N from the NACK: every packet sent so far from seq i*MTU on goes again, once; the sender is
  // still sending new packets back to back (at multiples of d), so the first resend follows the one in service
  assert.equal(h.out.totals.retransmittedPackets, (hn[0]!.maxSentSeq - i * MTU) / MTU);
  const resendAt = Math.ceil(t2 / h.d) * h.d;
  const resent = h.log.sends.filter((s) => s.retx);
  assert.deepEqual([resent[0]!.seq, resent[0]!.nowPs], [i * MTU, resendAt]);
  assert.equal(h.out.totals.timeouts, 0);
  assert.equal(h.out.fct[0]!.fctPs, resendAt + (N - i + 1) * h.d + 2 * h.a + 4 * P);

  // D-OSCAR re-arm rule: no packet at or below the expected one arrives, so no second NACK; the 10 ms RTO recovers
  const o = oneFlow('oscar', {}, N, lose, rate);
  assert.deepEqual(
    o.dropped.map((p) => `${p.type}:${p.seq}`),
    [`data:${i * MTU}`, `nack:${i * MTU}`],
  );
  assert.equal(nacks(o.log).length, 0);
  assert.deepEqual(
    o.log.hooks.filter((x) => x.startsWith('rto')),
    ['rto:0'],
  );
  // the RTO runs 10 ms after the last ACK (that of packet i-1), rewinds to seq i*MTU and resends the rest
  const lastAck = i - 1 + 2;
  const rto = lastAck * o.d + 2 * o.a + 4 * P + 10 * MS;
  assert.equal(o.sim.input.net.transport.rtoPs, 10 * MS);
  const oResent = o.log.sends.filter((s) => s.retx);
  assert.equal(oResent.length, N - i);
  assert.deepEqual([oResent[0]!.seq, oResent[0]!.nowPs], [i * MTU, rto]);
  assert.equal(o.out.totals.timeouts, 1);
  assert.equal(o.out.fct[0]!.fctPs, rto + (N - i + 1) * o.d + 2 * o.a + 4 * P);
});

test('re-arm rule (D-OSCAR): a duplicate packet re-arms NACK generation as an in-order one does', () => {
  // packet 10 is lost twice, the first NACK and the ACK of packet 9 are lost: the receiver holds 0..9, expects
  // 10 and is disarmed; the sender's last ACK says 9000. The RTO resends from 9: packet 9 is a duplicate (ACKed,
  // and it re-arms), 10 is lost again, and 11, out of order, draws a NACK at once, with no second RTO.
  const N = 20;
  const K = MTU;
  const count = new Map<string, number>();
  const nth = (key: string): number => {
    const n = (count.get(key) ?? 0) + 1;
    count.set(key, n);
    return n;
  };
  const r = oneFlow('oscar', {}, N, (sim) =>
    dropAtSwitch(sim, SW, (p) => {
      if (p.type === 'data' && p.seq === 10 * K) return nth('data') <= 2;
      if (p.type === 'nack') return nth('nack') === 1;
      if (p.type === 'ack' && p.seq === 10 * K) return nth('ack') === 1;
      return false;
    }),
  );
  assert.deepEqual(
    r.dropped.map((p) => `${p.type}:${p.seq}`),
    [`data:${10 * K}`, `ack:${10 * K}`, `nack:${10 * K}`, `data:${10 * K}`],
  );
  const { d, a, n } = r;
  // last ACK to arrive before the RTO: that of packet 8, at 10d + 2a + 4p
  const rto = 10 * d + 2 * a + 4 * P + 10 * MS;
  // resent 11 starts at rto + 2d, reaches host 1 at rto + 4d + 2p; its NACK is back 2n + 2p later
  const nackAt = rto + 4 * d + 2 * n + 4 * P;
  const nk = nacks(r.log);
  assert.deepEqual(
    nk.map((x) => [x.seq, x.nowPs]),
    [[10 * K, nackAt]],
  );
  assert.equal(r.out.totals.timeouts, 1);
  // the RTO resent 9..19; the NACK (after every one of them was out) 10..19 again
  assert.equal(r.out.totals.retransmittedPackets, N - 9 + (N - 10));
  assert.equal(r.out.fct[0]!.fctPs, nackAt + (N - 10 + 1) * d + 2 * a + 4 * P);
});

// ------------------------------------------------------------------ RTO

test('RTO: a lost last packet (no later packet to trigger a NACK) is resent 10 ms after the last ACK (D-OSCAR)', () => {
  const N = 20;
  const r = oneFlow('oscar', {}, N, (sim) => dropFirstData(sim, SW, 0, (N - 1) * MTU));
  assert.equal(r.dropped.length, 1);
  assert.equal(nacks(r.log).length, 0);
  // the last ACK (of packet N-2) is back at N·d + 2a + 4p; the RTO fires 10 ms after it
  const rto = N * r.d + 2 * r.a + 4 * P + 10 * MS;
  assert.deepEqual(
    r.log.sends.filter((s) => s.retx).map((s) => [s.seq, s.nowPs]),
    [[(N - 1) * MTU, rto]],
  );
  assert.equal(r.out.totals.timeouts, 1);
  assert.equal(r.out.totals.retransmittedPackets, 1);
  assert.equal(r.out.fct[0]!.fctPs, rto + 2 * r.d + 2 * r.a + 4 * P);
  assert.equal(r.out.fct[0]!.bytes, N * MTU);
});

test('RTO: D-HPCC has none with PFC on (a lost tail leaves the flow unfinished); lossy mode turns on 10 ms', () => {
  const N = 20;
  const tail = (sim: Simulation): PacketView[] => dropFirstData(sim, SW, 0, (N - 1) * MTU);
  const lossless = oneFlow('hpcc', {}, N, tail);
  assert.equal(lossless.out.fct.length, 0);
  assert.equal(lossless.out.unfinished.length, 1);
  assert.equal(lossless.log.flows[0]!.sndUna, (N - 1) * MTU);
  assert.equal(lossless.out.totals.timeouts, 0);
  assert.equal(lossless.out.totals.retransmittedPackets, 0);

  const lossy = oneFlow('hpcc', { switch: { pfcEnabled: false } }, N, tail);
  const rto = N * lossy.d + 2 * lossy.a + 4 * P + 10 * MS;
  assert.equal(lossy.out.totals.timeouts, 1);
  assert.equal(lossy.out.fct[0]!.fctPs, rto + 2 * lossy.d + 2 * lossy.a + 4 * P);
});

test('RTO: a lost last ACK is recovered: the resent last packet is a duplicate, and its ACK completes the flow', () => {
  // D-OSCAR ACKs duplicates by rule; D-HPCC does not, but lossy mode gives it a timeout and then it must
  // (declared fidelity fix: before it, every RTO resent the last packet, no ACK came back, and the flow never finished)
  const N = 20;
  for (const [profile, over] of [
    ['oscar', {}],
    ['hpcc', { switch: { pfcEnabled: false } }],
  ] as const) {
    let lost = false;
    const r = oneFlow(profile, over, N, (sim) => dropAtSwitch(sim, SW, (p) => p.type === 'ack' && p.seq === N * MTU && !lost && (lost = true)));
    assert.equal(r.dropped.length, 1, profile);
    // the last ACK to arrive is that of packet N-2, at N·d + 2a + 4p; 10 ms later the RTO resends packet N-1
    const rto = N * r.d + 2 * r.a + 4 * P + 10 * MS;
    assert.deepEqual(
      r.log.sends.filter((s) => s.retx).map((s) => [s.seq, s.nowPs]),
      [[(N - 1) * MTU, rto]],
      profile,
    );
    assert.equal(r.out.totals.timeouts, 1, profile);
    assert.equal(r.out.fct.length, 1, profile);
    assert.equal(r.out.fct[0]!.fctPs, rto + 2 * r.d + 2 * r.a + 4 * P, profile);
  }
});

// ------------------------------------------------------------------ ACK order

test('what the CC sees per ACK: ccFirst shows the state before the ACK, transportFirst after it (incl. the NACK rewind)', () => {
  const N = 8;
  const i = 3;
  const K = MTU;
  const runs = (['ccFirst', 'transportFirst'] as const).map((ackOrder) => oneFlow('oscar', { transport: { ackOrder } }, N, (sim) => dropFirstData(sim, SW, 0, i * K)));
  const fields = (r: AckRecord): number[] => [r.seq, r.isNack ? 1 : 0, r.newlyAckedBytes, r.ackedPackets, r.sndUna, r.sndNxt, r.maxSentSeq];
  // All N packets are out before the first ACK returns, and all N - i resent ones before the first of their ACKs.
  // ACKs 1..i, the NACK (seq i·K), then ACKs i+1..N.
  const before: number[][] = [];
  const afterAck: number[][] = [];
  for (let k = 1; k <= i; k++) {
    before.push([k * K, 0, K, 1, (k - 1) * K, N * K, N * K]);
    afterAck.push([k * K, 0, K, 1, k * K, N * K, N * K]);
  }
  before.push([i * K, 1, 0, 0, i * K, N * K, N * K]);
  afterAck.push([i * K, 1, 0, 0, i * K, i * K, N * K]); // sndNxt already rewound
  for (let k = i + 1; k <= N; k++) {
    before.push([k * K, 0, K, 1, (k - 1) * K, N * K, N * K]);
    afterAck.push([k * K, 0, K, 1, k * K, N * K, N * K]);
  }
  assert.deepEqual(runs[0]!.log.acks.map(fields), before);
  assert.deepEqual(runs[1]!.log.acks.map(fields), afterAck);
  // the last ACK: ccFirst calls the CC, then completes the flow; transportFirst completes it first (D-HPCC QpComplete)
  assert.deepEqual(runs[0]!.log.hooks.slice(-2), ['ack:0', 'finish:0']);
  assert.deepEqual(runs[1]!.log.hooks.slice(-2), ['finish:0', 'ack:0']);
  // the order changes what the CC is shown, not what the transport does
  assert.equal(runs[0]!.out.fct[0]!.fctPs, runs[1]!.out.fct[0]!.fctPs);
  assert.deepEqual(
    runs[0]!.log.sends.map((s) => s.nowPs),
    runs[1]!.log.sends.map((s) => s.nowPs),
  );
});

test('a NACK after a lost ACK: under transportFirst it acknowledges up to its sequence, under ccFirst it acknowledges nothing', () => {
  const N = 8;
  const i = 3;
  const K = MTU;
  const lose = (sim: Simulation): PacketView[] => dropAtSwitch(sim, SW, (p) => (p.type === 'data' && p.seq === i * K && !p.retx) || (p.type === 'ack' && p.seq === i * K));
  const [cc, tr] = (['ccFirst', 'transportFirst'] as const).map((ackOrder) => oneFlow('oscar', { transport: { ackOrder } }, N, lose));
  const pick = (r: Run): number[][] => r.log.acks.slice(i - 2, i + 1).map((x) => [x.seq, x.isNack ? 1 : 0, x.newlyAckedBytes, x.sndUna, x.sndNxt]);
  // rows: the last ACK before the loss (seq (i-1)K), the NACK (seq iK), the ACK of the first resent packet (seq (i+1)K)
  assert.deepEqual(pick(cc!), [
    [(i - 1) * K, 0, K, (i - 2) * K, N * K],
    [i * K, 1, 0, (i - 1) * K, N * K],
    [(i + 1) * K, 0, 2 * K, (i - 1) * K, N * K],
  ]);
  assert.deepEqual(pick(tr!), [
    [(i - 1) * K, 0, K, (i - 1) * K, N * K],
    [i * K, 1, 0, i * K, i * K],
    [(i + 1) * K, 0, K, (i + 1) * K, N * K],
  ]);
  // both resend from the NACKed sequence, the same packets at the same times
  for (const r of [cc!, tr!]) {
    assert.deepEqual(
      r.log.sends.filter((s) => s.retx).map((s) => s.seq),
      Array.from({ length: N - i }, (_, k) => (i + k) * K),
    );
  }
  assert.equal(cc!.out.fct[0]!.fctPs, tr!.out.fct[0]!.fctPs);
});

// ------------------------------------------------------------------ CNP pacing

test('CNP packets (D-OSCAR): one at the first CE mark, then at most one per 50 us per flow while marks keep coming', () => {
  // every data packet is marked (RED with kmin = kmax = 0, queue including the packet); two flows into host 2
  const N = 3000;
  const cfg = net('oscar', { switch: { ecn: { kminBytes: 0, kmaxBytes: 0, pmax: 1 } } });
  const log = newLog();
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: P });
  const flows = [
    { src: 0, dst: 2, bytes: N * MTU, startPs: 0 },
    { src: 1, dst: 2, bytes: N * MTU, startPs: 0 },
  ];
  const sim = new Simulation(input(topo, flows, { net: cfg }), recordingCc(log));
  const arrivals = recordArrivals(sim, 2);
  const sent = recordDepartures(sim, 2);
  sim.runUntil(Infinity);
  const out = sim.finish();
  assert.equal(out.fct.length, 2);
  const interval = cfg.transport.cnpIntervalPs;
  assert.equal(interval, 50 * US);
  const c = ser(cfg, cfg.transport.cnpBytes, 100e9);
  for (const id of [0, 1]) {
    // the receiver gets this flow's first (marked) packet at t0 and its last at tLast
    const data = arrivals.filter((a) => a.type === 'data' && a.flow === id);
    assert.equal(data.length, N);
    const t0 = data[0]!.nowPs;
    const tLast = data.at(-1)!.nowPs;
    // the receiver sends a CNP at t0, then at t0 + m·50 us for every m whose preceding interval saw a mark
    // (up to the end of the run, which stops when the last flow has finished)
    const last = Math.ceil((tLast - t0) / interval);
    const cnpAt = Array.from({ length: last + 1 }, (_, m) => t0 + m * interval).filter((t) => t <= out.endPs);
    assert.deepEqual(
      sent.filter((x) => x.type === 'cnp' && x.flow === id).map((x) => x.nowPs),
      cnpAt,
      `flow ${id}`,
    );
    // CNPs go first at every hop; the CC hears of those that arrive before its flow finished
    const finish = out.fct.find((r) => r.id === id)!.finishPs;
    assert.deepEqual(
      log.cnps.filter((x) => x.flow === id).map((x) => x.nowPs),
      cnpAt.map((t) => t + 2 * c + 2 * P).filter((t) => t < finish),
      `flow ${id}`,
    );
    assert.ok(cnpAt.length >= 5, `flow ${id}: ${cnpAt.length} CNPs`);
  }
});
