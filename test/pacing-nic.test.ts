/**
 * When packets leave a host (docs/network-model.md §4, §5, §7): the two
 * pacing-update rules (what a rate change does to the send already
 * scheduled), the two NIC arbitration rules between flows, and the two ACK
 * priority rules between ACKs and data. Send times and orders are asserted
 * exactly; d is the serialization time of a data packet at the host rate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../src/sim/simulate.js';
import type { NetworkConfig, PacingUpdate, ProfileName } from '../src/net/config.js';
import { star } from '../src/net/topology/index.js';
import { US } from '../src/engine/units.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net, type DeepPartial } from './helpers/sim.js';
import { newLog, recordDepartures, recordingCc, ser, type CcLog, type Departure, type RecordingHooks } from './helpers/probe.js';

const C = 100e9;

function build(profile: ProfileName, over: DeepPartial<NetworkConfig>, flows: FlowSpec[], hooks: RecordingHooks = {}): { sim: Simulation; log: CcLog; cfg: NetworkConfig } {
  const cfg = net(profile, over);
  const log = newLog();
  const topo = star({ hosts: 2, rateBps: C, delayPs: 1 * US });
  const sim = new Simulation(input(topo, flows, { net: cfg }), recordingCc(log, hooks));
  return { sim, log, cfg };
}

// ------------------------------------------------------------------ pacing update

/**
 * One flow of 12 packets; the CC sets rate `r0` at the start and `r1` at
 * time `at(d, g0)` (a timer), where g0 is the packet gap at r0. Returns the send times.
 */
function pacedSends(profile: ProfileName, rule: PacingUpdate, r0: number, r1: number, at: (d: number, g0: number) => number): { times: number[]; d: number; g0: number; g1: number; x: number } {
  const probe = build(profile, {}, []);
  const wire = probe.cfg.transport.mtuBytes + probe.cfg.transport.dataHeaderBytes;
  const d = ser(probe.cfg, wire, C);
  const g0 = ser(probe.cfg, wire, r0);
  const g1 = ser(probe.cfg, wire, r1);
  const x = at(d, g0);
  const { sim, log } = build(profile, { transport: { pacingUpdate: rule } }, [{ src: 0, dst: 1, bytes: 12_000, startPs: 0 }], {
    start(f) {
      f.setRate(r0);
      f.setTimer(0, x);
    },
    timer(f) {
      f.setRate(r1);
    },
  });
  sim.runUntil(Infinity);
  assert.equal(log.flows[0]!.finished, true);
  return { times: log.sends.map((s) => s.nowPs), d, g0, g1, x };
}

for (const profile of ['oscar', 'hpcc'] as const) {
  test(`pacing (${profile}): a rate cut between sends moves the pending send (adjustOnRateChange) or not (noReschedule)`, () => {
    // line rate, then half rate half-way between the 3rd and 4th packet: the 4th is pending for 3d
    const at = (d: number): number => 2 * d + Math.floor(d / 2) + 1;
    const keep = pacedSends(profile, 'noReschedule', C, C / 2, at);
    const { d, g1 } = keep;
    // noReschedule: the 4th packet keeps its time 3d; the gaps after it are at the new rate
    assert.deepEqual(
      keep.times,
      Array.from({ length: 12 }, (_, k) => (k < 4 ? k * d : 3 * d + (k - 3) * g1)),
    );
    // adjustOnRateChange: the pending send moves by the difference of the gaps (D-HPCC ChangeRate): 2d + g1
    const adj = pacedSends(profile, 'adjustOnRateChange', C, C / 2, at);
    assert.deepEqual(
      adj.times,
      Array.from({ length: 12 }, (_, k) => (k < 3 ? k * d : 2 * d + (k - 2) * g1)),
    );
  });

  test(`pacing (${profile}): a rate rise sends at once if the new gap has passed (adjustOnRateChange), else waits for the old time`, () => {
    // a quarter of line rate, then line rate half-way between the 3rd and 4th packet
    const at = (_d: number, g0: number): number => 2 * g0 + Math.floor(g0 / 2) + 1;
    const keep = pacedSends(profile, 'noReschedule', C / 4, C, at);
    const { d, g0, x } = keep;
    assert.ok(2 * g0 + d < x, 'the new gap after the 3rd packet has passed when the rate rises');
    assert.deepEqual(
      keep.times,
      Array.from({ length: 12 }, (_, k) => (k < 4 ? k * g0 : 3 * g0 + (k - 3) * d)),
    );
    const adj = pacedSends(profile, 'adjustOnRateChange', C / 4, C, at);
    assert.deepEqual(
      adj.times,
      Array.from({ length: 12 }, (_, k) => (k < 3 ? k * g0 : x + (k - 3) * d)),
    );
  });
}

// ------------------------------------------------------------------ NIC arbitration

test('NIC arbitration: round robin per packet serves a late flow at its turn; earliest-ready serves flows in the order they became ready', () => {
  // flows A, B, C (ids 0-2) from t = 0, D (id 3) from 4.5 d; all to host 1 at line rate with no window
  const orders: Record<string, string> = {};
  for (const nicArbitration of ['rrPerPacket', 'fifoWhenQueueEmpty'] as const) {
    const probe = build('oscar', {}, []);
    const d = ser(probe.cfg, 1054, C);
    const flows: FlowSpec[] = [0, 0, 0, 4.5 * d].map((startPs) => ({ src: 0, dst: 1, bytes: 20_000, startPs }));
    const { sim, log } = build('oscar', { transport: { nicArbitration } }, flows);
    sim.runUntil(Infinity);
    const first = log.sends.slice(0, 16);
    // the NIC is never idle: the k-th packet leaves at k·d
    assert.deepEqual(
      first.map((s) => s.nowPs),
      Array.from({ length: 16 }, (_, k) => k * d),
    );
    orders[nicArbitration] = first.map((s) => 'ABCD'[s.flow]).join('');
    assert.equal(sim.transport.finishedCount, 4);
  }
  // round robin: D joins the cycle right after the flow served before its arrival (C at 5d)
  assert.equal(orders.rrPerPacket, 'ABCABCDABCDABCDA');
  // earliest ready: at 6d, A (ready since 4d) goes before D (ready since 4.5d); D then follows A every cycle
  assert.equal(orders.fifoWhenQueueEmpty, 'ABCABCADBCADBCAD');
});

// ------------------------------------------------------------------ ACK priority

/**
 * Host 0 and host 1 each send 60 packets to the other; host 1's NIC carries
 * its own data and the ACKs for host 0's flow. Returns host 1's departures
 * up to its last data packet.
 */
function twoWay(ackPriority: 'strictAtHost' | 'sameAsData'): Departure[] {
  const flows: FlowSpec[] = [
    { src: 0, dst: 1, bytes: 60_000, startPs: 0 },
    { src: 1, dst: 0, bytes: 60_000, startPs: 0 },
  ];
  const { sim } = build('oscar', { transport: { ackPriority } }, flows);
  const dep = recordDepartures(sim, 1);
  sim.runUntil(Infinity);
  assert.equal(sim.transport.finishedCount, 2);
  let last = -1;
  dep.forEach((p, k) => {
    if (p.type === 'data') last = k;
  });
  return dep.slice(0, last + 1);
}

test('ACK priority: strictAtHost sends every waiting ACK before data; sameAsData alternates ACK and data while both wait', () => {
  const strict = twoWay('strictAtHost');
  const strictWaiting = strict.filter((p) => p.controlWaiting > 0);
  assert.ok(strictWaiting.length >= 30, `ACKs waited at ${strictWaiting.length} departures`);
  assert.ok(
    strictWaiting.every((p) => p.type === 'ack'),
    'a data packet left while an ACK was waiting',
  );
  assert.equal(strict.filter((p) => p.type === 'data').length, 60);

  const shared = twoWay('sameAsData');
  let alternations = 0;
  for (let k = 1; k < shared.length; k++) {
    const p = shared[k]!;
    if (p.controlWaiting === 0) {
      assert.equal(p.type, 'data', 'with no ACK waiting only data leaves');
      continue;
    }
    // one class: after data an ACK goes, after an ACK the (always ready) data goes
    assert.equal(p.type, shared[k - 1]!.type === 'data' ? 'ack' : 'data', `departure ${k}`);
    if (p.type === 'data') alternations++;
  }
  assert.ok(alternations >= 20, `data left ahead of a waiting ACK ${alternations} times`);
  // ACKs reach host 1 one per data packet time d; strictly first, each leaves at the next pull, so at most one
  // waits; sharing the class they are served one per (d + ACK time) and pile up
  const most = (dep: Departure[]): number => Math.max(...dep.map((p) => p.controlWaiting));
  assert.equal(most(strict), 1);
  assert.ok(most(shared) > 1, `at most ${most(shared)} ACKs waited`);
});
