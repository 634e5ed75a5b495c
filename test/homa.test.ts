/**
 * Homa (cc/homa.ts, transport/homa.ts; Montazeri et al., SIGCOMM'18 §3; PowerTCP
 * §4.1 and App. C): the priority plan of Homa §3.4, grant scheduling by SRPT
 * with overcommitment, SRPT's effect on a short message (it finishes near its
 * ideal time while a long transfer goes to the same receiver), the incast
 * queue overcommitment leaves (App. C, Figs 9-10: higher overcommitment, a
 * longer queue), and the network settings choosing `homa` turns on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homaCc, homaPriorityPlan, homaScheduledLevel, homaUnscheduledLevel, type HomaParams } from '../src/cc/homa.js';
import { applyCcNetwork, ccNetworkSettings } from '../src/cc/network-settings.js';
import { resolveSpec, parseSpec } from '../src/experiment/spec/resolve.js';
import { US } from '../src/engine/units.js';
import { star } from '../src/net/topology/index.js';
import { Simulation } from '../src/sim/simulate.js';
import type { SimOutput } from '../src/sim/types.js';
import { HomaDriver } from '../src/transport/homa.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';
import { specErrorOf } from './helpers/specs.js';

const params = (p: Record<string, unknown> = {}): HomaParams => homaCc.params.parse(p);

test('priority plan (Homa §3.4): unscheduled levels in proportion to unscheduled bytes, equal unscheduled bytes per level', () => {
  // 60 messages of 1 KB, 30 of 10 KB, 10 of 1 MB, RTTbytes 10 KB: unscheduled 60 + 300 + 100 KB = 460 KB of 10.36 MB
  const sizes = [...Array(60).fill(1000), ...Array(30).fill(10_000), ...Array(10).fill(1_000_000)];
  const plan = homaPriorityPlan(sizes, 10_000, params());
  // 8 x 460 / 10360 = 0.36 -> at least one level
  assert.equal(plan.unscheduled, 1);
  assert.deepEqual(plan.cutoffs, []);
  // forced to 4 unscheduled levels: cutoffs where the cumulative unscheduled bytes pass 1/4, 2/4, 3/4 of 460 KB
  const four = homaPriorityPlan(sizes, 10_000, params({ unscheduledPriorities: 4 }));
  // 1 KB messages carry 60 KB (13 %), 10 KB ones 300 KB (to 78 %), 1 MB ones the rest: 1/4 and 2/4 fall in the 10 KB
  // group, 3/4 too; one boundary per size: cutoffs [1 KB? no: 60 KB < 115 KB] -> the first boundary after 10 KB
  assert.deepEqual(four.cutoffs, [10_000]);
  assert.equal(four.unscheduled, 2);
  // a workload of small messages only: most levels unscheduled, one scheduled level left
  const small = homaPriorityPlan([100, 200, 300, 400, 500, 600, 700, 800], 10_000, params());
  assert.equal(small.unscheduled, small.cutoffs.length + 1);
  assert.ok(small.unscheduled >= 5 && small.unscheduled <= 7, `got ${small.unscheduled}`);
  // given cutoffs win; smaller messages get higher levels
  const given = homaPriorityPlan(sizes, 10_000, params({ unscheduledCutoffsBytes: [2000, 20_000] }));
  assert.deepEqual(given, { levels: 8, unscheduled: 3, cutoffs: [2000, 20_000] });
  assert.equal(homaUnscheduledLevel(given, 1000), 7);
  assert.equal(homaUnscheduledLevel(given, 2000), 7);
  assert.equal(homaUnscheduledLevel(given, 5000), 6);
  assert.equal(homaUnscheduledLevel(given, 1e6), 5);
});

test('scheduled levels (Homa §3.4): rank 0 highest, the lowest levels used when fewer messages are granted than levels', () => {
  // 7 scheduled levels, 1 granted message: level 0; 3 granted: ranks 0, 1, 2 -> 2, 1, 0
  assert.equal(homaScheduledLevel(0, 1, 7), 0);
  assert.deepEqual([0, 1, 2].map((r) => homaScheduledLevel(r, 3, 7)), [2, 1, 0]);
  // more granted than levels: the rest share the lowest
  assert.deepEqual([0, 1, 2, 3].map((r) => homaScheduledLevel(r, 4, 2)), [1, 0, 0, 0]);
});

const HOST_RATE = 25e9;

function homaRun(n: number, flows: FlowSpec[], p: Record<string, unknown>, stopPs: number | null, metrics = {}): { sim: Simulation; out: SimOutput } {
  const cfg = net('hpcc');
  // the run applies what homa turns on (simulate.ts, cc/network-settings.ts)
  assert.equal(applyCcNetwork(cfg, ccNetworkSettings(homaCc, homaCc.params.parse(p ?? {}), cfg)).transport.sendDriver, 'homa');
  const sim = new Simulation(
    input(star({ hosts: n, rateBps: HOST_RATE, delayPs: 1 * US }), flows, { net: cfg, cc: 'homa', params: p, stopAtPs: stopPs, metrics }),
  );
  sim.runUntil(Infinity);
  return { sim, out: sim.finish() };
}

test('SRPT (Homa §3.3): a short message arriving during a long transfer to the same receiver finishes within 2x its ideal FCT', () => {
  const flows: FlowSpec[] = [
    { src: 0, dst: 2, bytes: 10_000_000, startPs: 0 },
    { src: 1, dst: 2, bytes: 100_000, startPs: 500 * US },
  ];
  const { out } = homaRun(3, flows, {}, null);
  const short = out.fct.find((r) => r.id === 1)!;
  const long = out.fct.find((r) => r.id === 0)!;
  assert.ok(short.fctPs <= 2 * short.idealFctPs, `short message: ${short.fctPs / 1e6} us, ideal ${short.idealFctPs / 1e6} us`);
  // the long transfer only yields the short message's bytes: it still finishes close to its own ideal
  assert.ok(long.slowdown < 1.1, `long slowdown ${long.slowdown}`);
  // the same pair without Homa (line rate, one-BDP windows, one class) shares the port and the short message is slower
  const plain = new Simulation(
    input(star({ hosts: 3, rateBps: HOST_RATE, delayPs: 1 * US }), flows, { net: net('hpcc'), cc: 'none', params: { window: 'bdp' } }),
  );
  plain.runUntil(Infinity);
  const ps = plain.finish().fct.find((r) => r.id === 1)!;
  assert.ok(ps.fctPs > 1.5 * short.fctPs, `without SRPT ${ps.fctPs / 1e6} us vs Homa ${short.fctPs / 1e6} us`);
});

test('grant scheduling (Homa §3.5): a receiver grants to at most `overcommitment` messages, fewest bytes left first', () => {
  // three messages to host 3; the 3 MB one (most bytes left) is not granted while the 1 and 2 MB ones run
  const flows: FlowSpec[] = [
    { src: 0, dst: 3, bytes: 3_000_000, startPs: 0 },
    { src: 1, dst: 3, bytes: 1_000_000, startPs: 0 },
    { src: 2, dst: 3, bytes: 2_000_000, startPs: 0 },
  ];
  const { sim } = homaRun(4, flows, { overcommitment: 2 }, 300 * US);
  const d = sim.transport.driver as HomaDriver;
  const rtt = d.rtt;
  const f = sim.transport.flows;
  // 300 us at 25 G is 937 KB: the two granted messages share it, the third holds its unscheduled bytes
  assert.ok(f[0]!.rcvExpected <= rtt + 1000, `${f[0]!.rcvExpected}`);
  assert.ok(f[1]!.rcvExpected > f[2]!.rcvExpected, `SRPT rank 0 first: ${f[1]!.rcvExpected} vs ${f[2]!.rcvExpected}`);
  assert.ok(f[1]!.rcvExpected + f[2]!.rcvExpected > 800_000);
  // after the 1 MB message is fully granted, the 3 MB one enters the two granted and gets a grant of its own
  const later = homaRun(4, flows, { overcommitment: 2 }, 600 * US);
  assert.ok(later.sim.transport.flows[0]!.rcvExpected > rtt, 'the third message is granted once the first is fully granted');
  // overcommitment 1: only one message at a time, the shortest first
  const one = homaRun(4, flows, { overcommitment: 1 }, 300 * US);
  const g = one.sim.transport.flows;
  // (the first packet to arrive is granted before the shorter messages are known: one packet more at most)
  assert.ok(g[0]!.rcvExpected <= rtt + 1000 && g[2]!.rcvExpected <= rtt + 1000, `${g[0]!.rcvExpected}, ${g[2]!.rcvExpected}`);
  assert.ok(g[1]!.rcvExpected > 800_000);
});

test('overcommitment 1 vs 6 (PowerTCP App. C, Figs 9-10): the incast queue after the unscheduled burst grows with the degree', () => {
  // a long transfer to host 11, then a 10:1 incast of long transfers to it (PowerTCP Fig. 4's 10:1 pattern)
  const N = 11;
  const flows: FlowSpec[] = [{ src: 0, dst: N, bytes: 1e9, startPs: 0 }];
  for (let i = 1; i < N; i++) flows.push({ src: i, dst: N, bytes: 1e9, startPs: 100 * US });
  const standing = (k: number): { queue: number; peak: number; rtt: number; util: number } => {
    const { sim, out } = homaRun(N + 1, flows, { overcommitment: k }, 500 * US, { queuePorts: [{ node: N + 1, port: N }], queueIntervalPs: 1 * US });
    const v = out.queues[0]!.v;
    const after = v.slice(300);
    // received bytes, in order or held out of order (priority levels reorder a message)
    const rx = sim.transport.flows.reduce((s, f) => s + f!.rcvExpected + (f!.strategy?.rcvOooBytes ?? 0), 0);
    return {
      queue: after.reduce((a, b) => a + b, 0) / after.length,
      peak: Math.max(...v),
      rtt: (sim.transport.driver as HomaDriver).rtt,
      util: (rx * 8) / (HOST_RATE * 500e-6),
    };
  };
  const one = standing(1);
  const six = standing(6);
  // both take the unscheduled burst of the ten new messages (about 10 x RTTbytes)
  assert.ok(one.peak > 8 * one.rtt && six.peak >= one.peak, `peaks ${one.peak}, ${six.peak}`);
  // then overcommitment 1 keeps about one RTTbytes in flight: near-zero queue; 6 keeps 6 RTTbytes: ~5 RTTbytes queued
  assert.ok(one.queue < 0.2 * one.rtt, `k=1 standing queue ${one.queue}`);
  assert.ok(six.queue > 4 * six.rtt && six.queue < 6 * six.rtt, `k=6 standing queue ${six.queue}, RTTbytes ${six.rtt}`);
  // and neither loses throughput (Fig. 4: "HOMA sustains throughput")
  assert.ok(one.util > 0.95 && six.util > 0.95, `utilization ${one.util}, ${six.util}`);
});

test('PFC by packet level: a host NIC paused for one of Homa\'s levels holds the packets of that level, and nothing is lost', () => {
  // 12:1 incast of 2 MB messages (3 us apart) into a 100 KB lossless buffer at overcommitment 6: the
  // unscheduled bursts and six granted messages fill it, the switch pauses the senders' levels.
  // A NIC that paused only the flows' own class would overrun the headroom (36 drops, 9 messages stuck).
  const N = 12;
  const flows: FlowSpec[] = [];
  for (let i = 0; i < N; i++) flows.push({ src: i, dst: N, bytes: 2_000_000, startPs: i * 3 * US });
  const cfg = net('hpcc', { switch: { bufferBytes: 100_000 } });
  assert.equal(applyCcNetwork(cfg, ccNetworkSettings(homaCc, homaCc.params.parse({ overcommitment: 6 }), cfg)).transport.sendDriver, 'homa');
  const sim = new Simulation(input(star({ hosts: N + 1, rateBps: HOST_RATE, delayPs: 1 * US }), flows, { net: cfg, cc: 'homa', params: { overcommitment: 6 } }));
  sim.runUntil(Infinity);
  const out = sim.finish();
  assert.ok(out.totals.pausesSent > 0, 'the incast pauses the senders');
  assert.equal(out.totals.drops, 0);
  assert.equal(out.fct.length, N);
  // SRPT among equal messages: they finish one after another, not all at the end
  const fin = out.fct.map((r) => r.finishPs).sort((a, b) => a - b);
  assert.ok(fin[0]! < fin[N - 1]! / 2, `first ${fin[0]}, last ${fin[N - 1]}`);
});

const spec = (network: Record<string, unknown> = {}, cc: unknown = 'homa'): ReturnType<typeof parseSpec> =>
  parseSpec({
    name: 'homa-settings',
    profile: 'hpcc',
    topology: { type: 'star', hosts: 4, rate: '25Gbps', delay: '1us' },
    network,
    cc,
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 3, size: '100KB', start: 0 }] }],
  });

test('choosing homa turns on its network settings; a spec that contradicts one is an error naming both fields', () => {
  const r = resolveSpec(spec(), '.');
  assert.equal(r.net.transport.sendDriver, 'homa');
  assert.equal(r.net.switch.service, 'strict');
  assert.equal(r.net.switch.discipline, 'strict');
  assert.equal(r.net.switch.queue0Control, false);
  assert.equal(r.net.switch.pfcEnabled, true);
  assert.equal(r.net.transport.retxMode, 'none');
  // other CCs keep the profile's
  const h = resolveSpec(spec({}, 'hpcc'), '.');
  assert.equal(h.net.transport.sendDriver, 'sender');
  assert.equal(h.net.switch.queue0Control, true);
  // the same value given explicitly is fine
  resolveSpec(spec({ switch: { pfcEnabled: true, service: 'strict' } }), '.');
  const msg = specErrorOf(() => resolveSpec(spec({ switch: { pfcEnabled: false } }), '.'));
  assert.match(msg, /network\.switch\.pfcEnabled/);
  assert.match(msg, /cc\.name: homa/);
  assert.match(specErrorOf(() => resolveSpec(spec({ switch: { discipline: 'rr' } }), '.')), /network\.switch\.discipline.*cc\.name: homa/s);
  assert.match(specErrorOf(() => resolveSpec(spec({ transport: { sendDriver: 'receiverGrant' } }), '.')), /network\.transport\.sendDriver.*contradicts cc\.name: homa/s);
  assert.match(specErrorOf(() => resolveSpec(spec({ transport: { sendDriver: 'homa' } }, 'hpcc'), '.')), /sendDriver.*needs cc\.name: homa/s);
  // bad parameters name the field
  assert.match(specErrorOf(() => parseSpec({ ...spec(), cc: { name: 'homa', params: { overcommitment: 9 } } })), /overcommitment/);
  assert.match(specErrorOf(() => parseSpec({ ...spec(), cc: { name: 'homa', params: { unscheduledCutoffsBytes: [5000, 1000] } } })), /unscheduledCutoffsBytes/);
  // a run built without resolution gets them applied (simulate.ts), as NDP's do
  const bare = new Simulation(input(star({ hosts: 2, rateBps: HOST_RATE, delayPs: US }), [{ src: 0, dst: 1, bytes: 50_000, startPs: 0 }], { net: net('hpcc'), cc: 'homa' }));
  bare.runUntil(Infinity);
  const o = bare.finish();
  assert.equal(o.fct.length, 1);
  assert.equal(o.totals.drops, 0);
});
