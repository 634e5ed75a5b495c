/**
 * The reconfigurable datacenter of PowerTCP §5 (net/topology/rdcn.ts, net/rdcn.ts;
 * docs/network-model.md §2.2): circuits carry packets only within their days, the ToRs'
 * per-destination VOQs are drained by the circuit in its day and by the packet network
 * otherwise, reTCP's prebuffering fills the VOQ ahead of the circuit, and the schedule's
 * spec errors name the field and the value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { US } from '../src/engine/units.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { Simulation } from '../src/sim/simulate.js';
import { rdcn, rotationMatchings, topologyRegistry, type RdcnOptions } from '../src/net/topology/index.js';
import type { Port } from '../src/net/port.js';
import { circuitDays, measureFig8 } from '../experiments/powertcp/analysis-fig8.js';
import { input, net } from './helpers/sim.js';
import { specErrorOf } from './helpers/specs.js';
import { tempDir } from './helpers/tmp.js';

const G = 1e9;
/** 4 racks x 2 servers, 25 G servers and packet network, 100 G circuits, day 20 us, night 5 us: a week of 3 slots is 75 us */
const SMALL: RdcnOptions = { tors: 4, hostsPerTor: 2, hostRateBps: 25 * G, packetRateBps: 25 * G, circuitRateBps: 100 * G, delayPs: 1 * US, dayPs: 20 * US, nightPs: 5 * US };

/** Every server of rack 0 to its counterpart in rack 1, and rack 2 to rack 0 (long flows), under `cc`. */
function smallSim(cc: string, params: Record<string, unknown> = {}, o: Partial<RdcnOptions> = {}, stopUs = 400): Simulation {
  const topo = rdcn({ ...SMALL, ...o });
  const flows = [
    { src: 0, dst: 2, bytes: 1e9, startPs: 0 },
    { src: 1, dst: 3, bytes: 1e9, startPs: 0 },
    { src: 4, dst: 0, bytes: 1e9, startPs: 0 },
  ];
  return new Simulation(input(topo, flows, { net: net('hpcc'), cc, params, stopAtPs: stopUs * US }));
}

/** Logs every transmission a port starts: [start, end of serialization, destination host]. */
function logTransmissions(sim: Simulation, p: Port): [number, number, number][] {
  const log: [number, number, number][] = [];
  const orig = p.transmitDq.bind(p);
  p.transmitDq = () => {
    log.push([sim.sched.now, sim.sched.now + p.serPs(p.dqSize), p.dqDst]);
    orig();
  };
  return log;
}

test('rdcn: ToR ports are hosts, packet network, circuits in peer order; the round-robin generator reaches every ToR pair once a week', () => {
  const t = rdcn(SMALL);
  assert.equal(t.nodes.length, 8 + 4 + 1);
  assert.deepEqual(t.rdcn!.tors, [8, 9, 10, 11]);
  assert.equal(t.rdcn!.packetSwitch, 12);
  assert.deepEqual(rotationMatchings(4), [
    [1, 2, 3, 0],
    [2, 3, 0, 1],
    [3, 0, 1, 2],
  ]);
  const pairs = new Set<string>();
  for (const m of rotationMatchings(25)) m.forEach((j, i) => pairs.add(`${i}>${j}`));
  assert.equal(pairs.size, 25 * 24);
  const def = topologyRegistry.get('rdcn');
  assert.match(def.summary, /circuits \{ day, night, matchings/);
  assert.ok('circuits' in (def.schema as unknown as { shape: object }).shape);
});

test('no packet crosses a circuit outside its day, to the picosecond; the circuits carry most of the traffic', () => {
  const sim = smallSim('powertcp', { updates: 'perRtt' });
  const f = sim.rdcn!;
  const logs: { i: number; j: number; log: [number, number, number][] }[] = [];
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (i !== j) logs.push({ i, j, log: logTransmissions(sim, f.circuit[i]![j]!) });
  sim.runUntil(400 * US);
  const out = sim.finish();
  assert.equal(out.totals.drops, 0);
  const fabric = sim.network.topo.rdcn!;
  let n = 0;
  for (const { i, j, log } of logs) {
    const days = circuitDays({ day: fabric.dayPs, night: fabric.nightPs, start: fabric.startPs, matchings: fabric.matchings }, i, j, 400 * US);
    for (const [s, e] of log) {
      const d = days.find(([a, b]) => s >= a && e <= b);
      assert.ok(d !== undefined, `circuit ${i}->${j}: a transmission over [${s}, ${e}] ps is outside every day (${JSON.stringify(days.slice(0, 3))} ...)`);
      n++;
    }
    // the guard: nothing starts within one packet's serialization of dusk
    for (const [s] of log) assert.ok(days.some(([a, b]) => s >= a && s <= b - f.guardPs));
  }
  assert.ok(n > 1000, `${n} circuit transmissions`);
  // rack 0 -> 1 (two 25 G servers): in its days the circuit carries more than the 25 G packet network could
  const circuitBytes = f.circuit[0]![1]!.txBytes;
  const dayUs = circuitDays({ day: fabric.dayPs, night: fabric.nightPs, start: fabric.startPs, matchings: fabric.matchings }, 0, 1, 400 * US).length * 20;
  assert.ok((circuitBytes * 8) / (dayUs * 1e-6) > 25 * G, `circuit ${circuitBytes} B in ${dayUs} us of days`);
});

test('VOQs: the packet network serves only VOQs whose circuit is dark; a packet waits in its VOQ, not in the uplink', () => {
  const sim = smallSim('powertcp', { updates: 'perRtt' });
  const f = sim.rdcn!;
  const uplinkLog = logTransmissions(sim, f.uplink[0]!);
  sim.runUntil(1 * US);
  let maxUplinkQueue = 0;
  let darkVoqSeen = 0;
  for (let t = 2; t <= 300; t++) {
    sim.runUntil(t * US);
    maxUplinkQueue = Math.max(maxUplinkQueue, f.uplink[0]!.totalPkts);
    if (f.circuit[0]![1]!.isDown && f.circuit[0]![1]!.totalPkts > 0) darkVoqSeen++;
  }
  sim.runUntil(400 * US);
  sim.finish();
  // the uplink's own queues stay empty: the VOQ holds the packets until a port takes them
  assert.equal(maxUplinkQueue, 0);
  assert.ok(darkVoqSeen > 0, 'the rack-0 VOQ toward rack 1 held packets while its circuit was dark');
  const fabric = sim.network.topo.rdcn!;
  const days = circuitDays({ day: fabric.dayPs, night: fabric.nightPs, start: fabric.startPs, matchings: fabric.matchings }, 0, 1, 400 * US);
  const toRack1 = uplinkLog.filter(([, , dst]) => dst === 2 || dst === 3);
  assert.ok(toRack1.length > 100, `${toRack1.length} packets to rack 1 over the packet network`);
  // none starts while the circuit 0 -> 1 is up (it stops starting packets guardPs before dusk)
  for (const [s] of toRack1) assert.ok(!days.some(([a, b]) => s >= a && s < b - f.guardPs), `packet network used at ${s} ps with the circuit up`);
});

test('reTCP prebuffering: the VOQ fills ahead of the circuit by the prebuffering time, and reTCP fills the circuit', () => {
  // a longer week (8 ToRs: 7 slots of 25 us = 175 us) so that 100 us of prebuffering fits; ToR 0 -> 1 is up in slot 0
  const o = { tors: 8, hostsPerTor: 2 };
  const lead = 100;
  const week = 7 * 25;
  const runs = [0, lead].map((pre) => {
    const sim = smallSim('retcp', { prebufferUs: pre, weekUs: week }, o, 3 * week + 20);
    const voq = sim.rdcn!.circuit[0]![1]!;
    const q: number[] = [];
    for (let t = 1; t <= 3 * week + 20; t++) {
      sim.runUntil(t * US);
      q[t] = voq.totalBytes;
    }
    sim.finish();
    return q;
  });
  // the week-2 day of 0 -> 1 starts at week + night
  const dawn = week + 5;
  const [none, pre] = runs as [number[], number[]];
  // without prebuffering the VOQ before the day holds what the packet network has not sent; with it, far more
  assert.ok(pre[dawn - 1]! > 4 * Math.max(none[dawn - 1]!, 10_000), `VOQ at dawn: ${pre[dawn - 1]} B prebuffered, ${none[dawn - 1]} B not`);
  // and the growth starts about `lead` before dawn (plus the ACK's way back), not earlier
  const before = pre[dawn - lead - 10]!;
  assert.ok(before < pre[dawn - 1]! / 4, `VOQ ${lead + 10} us before dawn: ${before} B`);
});

test('fig8 measures: utilisation from the circuit bytes over its days; FIFO queuing latency from backlog and departures', () => {
  const dt = 1 * US;
  const t = Array.from({ length: 101 }, (_, k) => k * dt);
  // circuit up over [20, 40) us at 100 G; a backlog of 12.5 KB before it that the circuit drains in 1 us
  const voq = { t, v: t.map((x) => (x >= 10 * US && x < 20 * US ? 12_500 : 0)) };
  const circuit = { t, v: t.map((x) => (x > 20 * US && x <= 40 * US ? (x === 21 * US ? 100e9 : 50e9) : 0)) };
  const packet = { t, v: t.map(() => 0) };
  const m = measureFig8(voq, circuit, packet, [[20 * US, 40 * US]], 100e9, 0, 100 * US);
  assert.equal(m.days, 1);
  // 12.5 KB + 19 us x 50 G = 131.25 KB of the 250 KB the day offers
  assert.ok(Math.abs(m.circuitUtil - (12_500 + 19 * 6250) / 250_000) < 1e-9, `util ${m.circuitUtil}`);
  // the backlog arrived at 10 us and left at 21 us: an 11-us wait
  assert.equal(m.latP99Us, 11);
});

// ---- the spec

const dir = tempDir('rdcn-test');
let counter = 0;
const SPEC = (circuits: string, tors = 4): string => `name: x
topology: { type: rdcn, tors: ${tors}, hostsPerTor: 2, hostRate: 25Gbps, packetRate: 25Gbps, circuitRate: 100Gbps, delay: 1us, circuits: ${circuits} }
cc: powertcp
workload:
  - type: flows
    flows: [{ src: 0, dst: 2, size: 100KB }]
`;

function resolve(text: string): ReturnType<typeof loadAndResolve>['input'] {
  const p = join(dir, `spec${counter++}.yaml`);
  writeFileSync(p, text);
  return loadAndResolve(p).input;
}

test('spec: an rdcn topology with roundRobin or listed permutations resolves, the schedule in ps', () => {
  const rr = resolve(SPEC('{ day: 225us, night: 20us, matchings: roundRobin }')).topology.rdcn!;
  assert.equal(rr.matchings.length, 3);
  assert.equal(rr.dayPs, 225 * US);
  assert.equal(rr.nightPs, 20 * US);
  const listed = resolve(SPEC('{ day: 10us, night: 1us, matchings: [[1, 0, 3, 2], [2, 3, 0, 1]], start: 5us }')).topology.rdcn!;
  assert.deepEqual(listed.matchings, [
    [1, 0, 3, 2],
    [2, 3, 0, 1],
  ]);
  assert.equal(listed.startPs, 5 * US);
});

test('spec errors name the schedule field and value: not a permutation, a ToR out of range, a day or night <= 0', () => {
  const e1 = specErrorOf(() => resolve(SPEC('{ day: 10us, night: 1us, matchings: [[1, 0, 3, 2], [1, 1, 3, 2]] }')));
  assert.match(e1, /topology\.circuits\.matchings\[1\]\[1\]/);
  assert.match(e1, /ToR 1 is reached again \(from ToR 0 too\): a matching is a permutation/);
  const e2 = specErrorOf(() => resolve(SPEC('{ day: 10us, night: 1us, matchings: [[1, 0, 3, 7]] }')));
  assert.match(e2, /topology\.circuits\.matchings\[0\]\[3\]/);
  assert.match(e2, /ToR 7 is out of range \(ToRs are 0\.\.3\)/);
  const e3 = specErrorOf(() => resolve(SPEC('{ day: 10us, night: 1us, matchings: [[1, 0, 3]] }')));
  assert.match(e3, /topology\.circuits\.matchings\[0\]/);
  assert.match(e3, /permutation of 0\.\.3\), has 3 entries/);
  const e4 = specErrorOf(() => resolve(SPEC('{ day: 0us, night: 1us, matchings: roundRobin }')));
  assert.match(e4, /topology\.circuits\.day/);
  assert.match(e4, /must be > 0/);
  assert.match(e4, /got 0/);
  const e5 = specErrorOf(() => resolve(SPEC('{ day: 10us, night: 0us, matchings: roundRobin }')));
  assert.match(e5, /topology\.circuits\.night/);
  assert.match(e5, /must be > 0/);
});

test('spec: a schedule: block or a down/up event on an rdcn circuit is refused (the topology runs its circuits)', () => {
  const base = SPEC('{ day: 10us, night: 1us, matchings: roundRobin }');
  const e1 = specErrorOf(() => resolve(`${base}schedule: { period: 50us, matchings: roundRobin }\n`));
  assert.match(e1, /schedule: an rdcn topology runs its own circuit schedule \(topology\.circuits\)/);
  const e2 = specErrorOf(() => resolve(`${base}events:\n  - { at: 10us, link: [8, 9], kind: down }\n`));
  assert.match(e2, /events\[0\]\.link: \[8,\s*9\]/);
  assert.match(e2, /is a circuit of the rdcn topology/);
  // the packet network's links take events as any link does
  assert.equal(resolve(`${base}events:\n  - { at: 10us, link: [8, 12], kind: down }\n`).linkEvents.length, 1);
});
