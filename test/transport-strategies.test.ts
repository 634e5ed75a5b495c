/**
 * The transport's strategies beyond the references' (src/transport/loss-recovery.ts,
 * send-driver.ts): selective retransmission (`retxMode: selective`, one NACK
 * per missing packet, only those resent; OSCAR §6, NDP baseline) and
 * receiver-driven sending (`sendDriver: receiverGrant`, the sender sends only
 * against credit the receiver grants on its ACKs). One flow, host 0 -> host 1,
 * through the one switch (node 2) of a 2-host star, with packets dropped on
 * purpose at the switch; and lossy incasts (small buffer, no PFC) where the
 * switch drops by itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../src/sim/simulate.js';
import type { SimOutput } from '../src/sim/types.js';
import { networkSchema } from '../src/experiment/spec/spec.js';
import type { NetworkConfig, ProfileName } from '../src/net/config.js';
import { star } from '../src/net/topology/index.js';
import { KIB, US } from '../src/engine/units.js';
import type { Flow } from '../src/transport/flow.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net, type DeepPartial } from './helpers/sim.js';
import { dropAtSwitch, newLog, recordingCc, type CcLog, type PacketView } from './helpers/probe.js';

const MTU = 1000;

interface Run {
  sim: Simulation;
  out: SimOutput;
  log: CcLog;
  dropped: PacketView[];
  flows: Flow[];
}

function run(profile: ProfileName, over: DeepPartial<NetworkConfig>, hosts: number, flows: FlowSpec[], drop: (p: PacketView) => boolean = () => false): Run {
  const cfg = net(profile, over);
  const log = newLog();
  const sim = new Simulation(input(star({ hosts, rateBps: 100e9, delayPs: 1 * US }), flows, { net: cfg }), recordingCc(log));
  const dropped = dropAtSwitch(sim, hosts, drop); // the star's switch is node `hosts`
  sim.runUntil(Infinity);
  const out = sim.finish();
  return { sim, out, log, dropped, flows: log.flows.slice() };
}

const oneFlow = (profile: ProfileName, over: DeepPartial<NetworkConfig>, packets: number, drop: (p: PacketView) => boolean): Run =>
  run(profile, over, 2, [{ src: 0, dst: 1, bytes: packets * MTU, startPs: 0 }], drop);

/** drops the first transmission of the data packets at these packet indices */
const loseFirst = (...idx: number[]) => (p: PacketView): boolean => p.type === 'data' && !p.retx && idx.includes(p.seq / MTU);

const retransmittedBytes = (r: Run): number => r.flows.reduce((s, f) => s + (f.strategy?.retxBytes ?? 0), 0);

// ------------------------------------------------------------ selective retransmission

for (const profile of ['oscar', 'hpcc'] as const) {
  test(`selective (${profile}): one lost packet is NACKed by name and resent alone; go-back-N resends the rest of the window`, () => {
    const N = 20;
    const i = 5;
    const sel = oneFlow(profile, { transport: { retxMode: 'selective' } }, N, loseFirst(i));
    assert.deepEqual(sel.dropped.map((p) => p.seq), [i * MTU]);
    const nacks = sel.log.acks.filter((a) => a.isNack);
    assert.equal(nacks.length, 1, 'one NACK: the packet after the hole reveals it, later ones do not');
    assert.equal(nacks[0]!.seq, i * MTU, 'the NACK carries the cumulative sequence (the hole is its first byte here)');
    const resent = sel.log.sends.filter((s) => s.retx);
    assert.deepEqual(resent.map((s) => s.seq), [i * MTU], 'only the lost packet is resent');
    assert.equal(sel.out.totals.retransmittedPackets, 1);
    assert.equal(sel.out.totals.dataPacketsSent, N + 1);
    assert.equal(sel.out.totals.timeouts, 0);
    assert.equal(sel.out.fct.length, 1);
    const f = sel.flows[0]!;
    assert.equal(f.rcvExpected, N * MTU);
    assert.equal(f.sndUna, N * MTU);
    assert.equal(f.strategy!.retxBytes, MTU);
    assert.equal(f.lostBytes(), 0);

    const gbn = oneFlow(profile, {}, N, loseFirst(i));
    assert.equal(gbn.out.totals.retransmittedPackets, N - i);
    assert.ok(sel.out.fct[0]!.fctPs < gbn.out.fct[0]!.fctPs, 'resending one packet finishes sooner than resending fifteen');
  });
}

test('selective: a burst of losses and a second hole get one NACK per missing packet, each resent once', () => {
  const N = 30;
  const lost = [4, 5, 6, 12];
  const r = oneFlow('oscar', { transport: { retxMode: 'selective' } }, N, loseFirst(...lost));
  assert.deepEqual(r.dropped.map((p) => p.seq / MTU), lost);
  const nacks = r.log.acks.filter((a) => a.isNack);
  assert.equal(nacks.length, lost.length);
  // every NACK carries the cumulative sequence: the first hole until it is filled
  for (const n of nacks) assert.equal(n.seq, 4 * MTU);
  assert.deepEqual(
    r.log.sends.filter((s) => s.retx).map((s) => s.seq / MTU),
    lost,
  );
  assert.equal(r.out.totals.timeouts, 0);
  assert.equal(r.flows[0]!.rcvExpected, N * MTU);
  assert.equal(r.out.fct.length, 1);
});

test('selective: a lost tail packet (no later packet reveals it) is recovered by the timeout, alone', () => {
  const N = 10;
  const r = oneFlow('oscar', { transport: { retxMode: 'selective' } }, N, loseFirst(N - 1));
  assert.equal(r.dropped.length, 1);
  assert.equal(r.log.acks.filter((a) => a.isNack).length, 0, 'nothing arrives after it: no NACK');
  assert.equal(r.out.totals.timeouts, 1);
  assert.deepEqual(
    r.log.sends.filter((s) => s.retx).map((s) => s.seq / MTU),
    [N - 1],
  );
  assert.equal(r.flows[0]!.rcvExpected, N * MTU);
  assert.equal(r.out.fct.length, 1);
});

test('selective: a lost retransmission is recovered by the timeout, which presumes everything outstanding lost', () => {
  const N = 10;
  // packet 3 is lost twice (its first copy and the retransmission its NACK asked for)
  let copies = 0;
  const r = oneFlow('oscar', { transport: { retxMode: 'selective' } }, N, (p) => p.type === 'data' && p.seq === 3 * MTU && copies++ < 2);
  assert.equal(r.dropped.length, 2);
  assert.equal(r.out.totals.timeouts, 1);
  assert.deepEqual(
    r.log.sends.filter((s) => s.retx).map((s) => s.seq / MTU),
    [3, 3, 4, 5, 6, 7, 8, 9],
  );
  assert.equal(r.flows[0]!.rcvExpected, N * MTU);
  assert.equal(r.out.fct.length, 1);
});

/** k senders to host k at line rate, a small switch buffer and no PFC: the switch drops */
function lossyIncast(over: DeepPartial<NetworkConfig>, k = 4, packets = 200): Run {
  const flows: FlowSpec[] = [];
  for (let s = 0; s < k; s++) flows.push({ src: s, dst: k, bytes: packets * MTU, startPs: s * 100_000 });
  const lossy: DeepPartial<NetworkConfig> = { switch: { pfcEnabled: false, bufferBytes: 64 * KIB } };
  return run('oscar', { switch: lossy.switch, transport: over.transport }, k + 1, flows);
}

test('lossy incast: both recoveries deliver every flow; selective resends fewer bytes than go-back-N', () => {
  const gbn = lossyIncast({});
  const sel = lossyIncast({ transport: { retxMode: 'selective' } });
  for (const r of [gbn, sel]) {
    assert.ok(r.out.totals.drops > 20, `the switch drops (${r.out.totals.drops})`);
    assert.equal(r.out.fct.length, 4, 'every flow finishes');
    for (const f of r.flows) assert.equal(f.rcvExpected, f.sizeBytes);
  }
  const g = retransmittedBytes(gbn);
  const s = retransmittedBytes(sel);
  assert.ok(s > 0);
  assert.ok(s < g, `selective resent ${s} B, go-back-N ${g} B`);
  // selective resends about what was lost (a lost retransmission is resent again), go-back-N far more
  assert.ok(s <= 2 * sel.out.totals.drops * MTU, `selective resent ${s} B for ${sel.out.totals.drops} drops`);
  assert.ok(g > 2 * s, `go-back-N resent ${g} B, selective ${s} B`);
});

// ------------------------------------------------------------ receiver-driven sending

test('receiverGrant: the sender starts a packet only below the credit the last ACK granted (one packet per packet received)', () => {
  const N = 40;
  const W = 4;
  const grant = oneFlow('oscar', { transport: { sendDriver: 'receiverGrant', grantWindowBytes: W * MTU } }, N, () => false);
  assert.equal(grant.out.fct.length, 1, 'the flow completes');
  const f = grant.flows[0]!;
  assert.equal(f.rcvExpected, N * MTU);
  assert.equal(f.strategy!.grantWindowBytes, W * MTU);
  // the CC (recording, no window) would send everything at once: the grants hold it to W packets in flight
  const acks = grant.log.acks;
  let a = 0;
  let acked = 0;
  let maxInFlight = 0;
  for (const s of grant.log.sends) {
    while (a < acks.length && acks[a]!.nowPs <= s.nowPs) acked = Math.max(acked, acks[a++]!.seq);
    assert.ok(s.seq < acked + W * MTU, `packet ${s.seq / MTU} sent at ${s.nowPs} with ${acked / MTU} acknowledged`);
    maxInFlight = Math.max(maxInFlight, (s.seq + MTU - acked) / MTU);
  }
  assert.equal(maxInFlight, W);
  // credit-limited: slower than the same flow sent by the sender at line rate
  const free = oneFlow('oscar', {}, N, () => false);
  assert.ok(grant.out.fct[0]!.fctPs > free.out.fct[0]!.fctPs);
  assert.equal(free.flows[0]!.strategy, null, 'the sender-driven default keeps no credit limit (no strategy state)');
});

test('receiverGrant with the base-BDP default window, and with losses under both recoveries: every flow completes', () => {
  const dflt = oneFlow('hpcc', { transport: { sendDriver: 'receiverGrant' } }, 50, () => false);
  assert.equal(dflt.out.fct.length, 1);
  const f = dflt.flows[0]!;
  assert.equal(f.strategy!.grantWindowBytes, Math.ceil(f.baseBdpBytes / MTU) * MTU);
  for (const retxMode of ['gbn', 'selective'] as const) {
    const r = oneFlow('oscar', { transport: { sendDriver: 'receiverGrant', grantWindowBytes: 8 * MTU, retxMode } }, 60, loseFirst(3, 20, 21, 59));
    assert.equal(r.out.fct.length, 1, `${retxMode}: completes`);
    assert.equal(r.flows[0]!.rcvExpected, 60 * MTU);
  }
  const inc = lossyIncast({ transport: { sendDriver: 'receiverGrant', grantWindowBytes: 8 * MTU, retxMode: 'selective' } });
  assert.equal(inc.out.fct.length, 4);
});

test('spec: retxMode selective and sendDriver receiverGrant are accepted, other values rejected', () => {
  assert.ok(networkSchema.safeParse({ transport: { retxMode: 'selective', sendDriver: 'receiverGrant', grantWindowBytes: 8000 } }).success);
  assert.ok(!networkSchema.safeParse({ transport: { sendDriver: 'pull' } }).success);
  assert.ok(!networkSchema.safeParse({ transport: { retxMode: 'sack' } }).success);
});
