/**
 * The topology over time (net/link-changes.ts; docs/network-model.md §2.1): links that go
 * down and up, per direction or both; a rotating circuit schedule (PowerTCP §5) on the
 * torMesh topology; the spec fields and their errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { specErrorOf } from './helpers/specs.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { simulate, Simulation } from '../src/sim/simulate.js';
import type { LinkEvent, SimInput } from '../src/sim/types.js';
import { US } from '../src/engine/units.js';
import { circuitLinks, type CircuitSchedule } from '../src/net/link-changes.js';
import { dumbbell, roundRobinMatchings, torMesh } from '../src/net/topology/index.js';
import { input, net } from './helpers/sim.js';
import { tempDir } from './helpers/tmp.js';

const G100 = 100e9;

/** One 1 MB flow h0 -> h1 across the dumbbell's A-B link (nodes 2-3), with `events`. */
function dumbbellRun(events: LinkEvent[]): ReturnType<typeof simulate> {
  const topo = dumbbell({ left: 1, right: 1, hostRateBps: G100, bottleneckRateBps: G100, delayPs: 1 * US });
  const inp = input(topo, [{ src: 0, dst: 1, bytes: 1_000_000, startPs: 0 }], {
    net: net('oscar'),
    metrics: { throughputPorts: [{ node: 2, port: 1 }], throughputIntervalPs: 5 * US },
  });
  inp.linkEvents = events;
  return simulate(inp);
}

test('a down link holds its packets (lossless) and the flow finishes later by the time it was down', () => {
  const base = dumbbellRun([]);
  const down = dumbbellRun([
    { atPs: 30 * US, a: 2, b: 3, kind: 'down' },
    { atPs: 70 * US, a: 2, b: 3, kind: 'up' },
  ]);
  assert.equal(down.totals.finished, 1);
  assert.equal(down.totals.drops, 0);
  const late = down.fct[0]!.fctPs - base.fct[0]!.fctPs;
  // 40 us down; a packet on the wire finishes, so at most a packet's time either way
  assert.ok(Math.abs(late - 40 * US) < 1 * US, `finished ${late / US} us later`);
  const tp = down.throughput[0]!;
  for (let i = 0; i < tp.t.length; i++) if (tp.t[i]! > 31 * US && tp.t[i]! < 70 * US) assert.equal(tp.v[i], 0, `t ${tp.t[i]! / US} us`);
});

test('rate events are unchanged: kind absent = rate, and rate 0 then back is the same run as down then up', () => {
  const r0 = dumbbellRun([
    { atPs: 30 * US, a: 2, b: 3, rateBps: 0 },
    { atPs: 70 * US, a: 2, b: 3, rateBps: G100 },
  ]);
  const r1 = dumbbellRun([
    { atPs: 30 * US, a: 2, b: 3, kind: 'rate', rateBps: 0 },
    { atPs: 70 * US, a: 2, b: 3, kind: 'rate', rateBps: G100 },
  ]);
  const d = dumbbellRun([
    { atPs: 30 * US, a: 2, b: 3, kind: 'down' },
    { atPs: 70 * US, a: 2, b: 3, kind: 'up' },
  ]);
  assert.deepEqual(r1.fct, r0.fct);
  assert.deepEqual(d.fct, r0.fct);
  assert.equal(d.events, r0.events);
  // a rate change while down is kept for when the link is up
  const slow = dumbbellRun([
    { atPs: 30 * US, a: 2, b: 3, kind: 'down' },
    { atPs: 40 * US, a: 2, b: 3, rateBps: 50e9 },
    { atPs: 70 * US, a: 2, b: 3, kind: 'up' },
  ]);
  const tp = slow.throughput[0]!;
  const i = tp.t.findIndex((t) => t >= 90 * US);
  assert.ok(Math.abs(tp.v[i]! - 50e9) < 2e9, `after up: ${tp.v[i]}`);
});

test('oneWay takes down only the direction from a to b', () => {
  const topo = dumbbell({ left: 1, right: 1, hostRateBps: G100, bottleneckRateBps: G100, delayPs: 1 * US });
  const inp = input(topo, [{ src: 0, dst: 1, bytes: 1_000_000, startPs: 0 }], { net: net('oscar') });
  inp.linkEvents = [{ atPs: 10 * US, a: 3, b: 2, kind: 'down', oneWay: true }];
  const sim = new Simulation(inp);
  sim.runUntil(20 * US);
  assert.equal(sim.network.portToward(3, 2)!.isDown, true);
  assert.equal(sim.network.portToward(2, 3)!.isDown, false);
  // data still crosses A -> B; the ACKs wait at B, so the flow cannot finish
  const tx = sim.network.portToward(2, 3)!.txBytes;
  sim.runUntil(40 * US);
  assert.ok(sim.network.portToward(2, 3)!.txBytes > tx);
  assert.equal(sim.finish().totals.finished, 0);
});

test('roundRobinMatchings: every ToR pair once, each node at most once per matching', () => {
  for (const n of [2, 3, 4, 5, 8]) {
    const ms = roundRobinMatchings(10, n);
    assert.equal(ms.length, n % 2 === 0 ? n - 1 : n);
    const pairs = new Set<string>();
    for (const m of ms) {
      const nodes = m.flat();
      assert.equal(new Set(nodes).size, nodes.length);
      for (const [a, b] of m) {
        assert.ok(a < b && a >= 10 && b < 10 + n);
        pairs.add(`${a},${b}`);
      }
    }
    assert.equal(pairs.size, (n * (n - 1)) / 2);
  }
});

/** 4 racks of 2 hosts, circuits at 100 G; every host sends 200 KB to the next rack's host. */
function rotorInput(schedule: CircuitSchedule): SimInput {
  const topo = torMesh({ tors: 4, hostsPerTor: 2, hostRateBps: G100, delayPs: 1 * US });
  const flows = Array.from({ length: 8 }, (_, h) => ({ src: h, dst: (h + 2) % 8, bytes: 200_000, startPs: 0 }));
  const inp = input(topo, flows, { net: net('oscar'), metrics: { throughputPorts: [{ node: 8, port: 2 }], throughputIntervalPs: 5 * US } });
  inp.circuitSchedule = schedule;
  return inp;
}

test('a rotating circuit schedule: flows between racks finish, a circuit carries nothing outside its slots', () => {
  const topo = torMesh({ tors: 4, hostsPerTor: 2, hostRateBps: G100, delayPs: 1 * US });
  assert.equal(topo.links.length, 8 + 6);
  const matchings = roundRobinMatchings(8, 4);
  const s: CircuitSchedule = { periodPs: 50 * US, reconfigurePs: 5 * US, matchings, startPs: 0, untilPs: Infinity };
  assert.equal(circuitLinks(s).length, 6);
  const out = simulate(rotorInput(s));
  assert.equal(out.totals.finished, 8);
  assert.equal(out.totals.drops, 0);
  // port 2 of ToR 8 is its circuit to ToR 9: up only in the slots whose matching has [8, 9]
  const k89 = matchings.findIndex((m) => m.some(([a, b]) => a === 8 && b === 9));
  const tp = out.throughput[0]!;
  let onBytes = 0;
  for (let i = 0; i < tp.t.length; i++) {
    const end = tp.t[i]!;
    const start = end - 5 * US;
    const slot = Math.floor(start / (50 * US));
    const dayStart = slot * 50 * US + 5 * US;
    const inDay = slot % 3 === k89 && start >= dayStart && end <= (slot + 1) * 50 * US;
    // a window wholly outside the circuit's days (a packet on the wire may end just after the day)
    const off = slot % 3 !== k89 && Math.floor((end - 1) / (50 * US)) === slot && start >= slot * 50 * US + 1 * US;
    if (off) assert.equal(tp.v[i], 0, `window ending ${end / US} us`);
    if (inDay) onBytes += tp.v[i]!;
  }
  assert.ok(onBytes > 0);
  // the flows wait for their circuits: each needs its slot, so the last one ends after the first rotation
  assert.ok(Math.max(...out.fct.map((r) => r.finishPs)) > 100 * US);
});

test('the schedule is expanded lazily and ends at until (every circuit up again)', () => {
  const s: CircuitSchedule = { periodPs: 10 * US, reconfigurePs: 1 * US, matchings: roundRobinMatchings(8, 4), startPs: 0, untilPs: 200 * US };
  const inp = rotorInput(s);
  // a hard stop: running until every flow finished would end before `until`
  inp.stopAtPs = 300 * US;
  const sim = new Simulation(inp);
  const before = sim.sched.pending;
  sim.runUntil(105 * US);
  assert.ok(sim.sched.pending <= before + 40, `pending ${sim.sched.pending}`);
  sim.runUntil(250 * US);
  for (const [a, b] of circuitLinks(s)) assert.equal(sim.network.portToward(a, b)!.isDown, false);
  assert.equal(sim.finish().totals.finished, 8);
});

// ---- the spec

const dir = tempDir('topology-change-test');
let counter = 0;
const ROTOR = `name: x
topology: { type: torMesh, tors: 4, hostsPerTor: 2, hostRate: 100Gbps, delay: 1us }
cc: none
workload:
  - type: flows
    flows: [{ src: 0, dst: 2, size: 100KB }]
`;

function resolve(text: string): SimInput {
  const p = join(dir, `spec${counter++}.yaml`);
  writeFileSync(p, text);
  return loadAndResolve(p).input;
}

function errorText(text: string): string {
  return specErrorOf(() => resolve(text));
}

test('spec: events of kind rate, down and up, oneWay, and a schedule resolve to topology ids', () => {
  const inp = resolve(
    `${ROTOR}events:\n  - { at: 10us, link: [8, 9], kind: down, oneWay: true }\n  - { at: 5us, link: [8, 10], rate: 50Gbps }\n  - { at: 20us, link: [9, 8], kind: up }\n` +
      `schedule: { period: 225us, reconfigure: 20us, matchings: [[[8, 11], [9, 10]], [[8, 10]]], start: 1us, until: 2ms }\n`,
  );
  assert.deepEqual(inp.linkEvents, [
    { atPs: 5 * US, a: 8, b: 10, rateBps: 50e9 },
    { atPs: 10 * US, a: 8, b: 9, kind: 'down', oneWay: true },
    { atPs: 20 * US, a: 9, b: 8, kind: 'up' },
  ]);
  assert.deepEqual(inp.circuitSchedule, {
    periodPs: 225 * US,
    reconfigurePs: 20 * US,
    matchings: [[[8, 11], [9, 10]], [[8, 10]]],
    startPs: 1 * US,
    untilPs: 2000 * US,
  });
  const rr = resolve(`${ROTOR}schedule: { period: 50us, matchings: roundRobin }\n`).circuitSchedule!;
  assert.equal(rr.matchings.length, 3);
  assert.equal(rr.untilPs, Infinity);
  assert.equal(rr.reconfigurePs, 0);
});

test('spec: topology-change errors name the field and the value', () => {
  const t = errorText(
    `${ROTOR}events:\n  - { at: 1us, link: [8, 9], kind: sideways }\n  - { at: 1us, link: [8, 9] }\n  - { at: 1us, link: [8, 9], kind: up, rate: 1Gbps }\n` +
      `schedule: { period: 20us, reconfigure: 20us, matchings: [[[8, 9], [9, 10]], [[8, 8]]], start: 5us, until: 5us }\n`,
  );
  assert.match(t, /^events\[0\]\.kind: "sideways" — must be one of rate, down, up$/m);
  assert.match(t, /^events\[1\]\.rate: .*required with kind rate/m);
  assert.match(t, /^events\[2\]\.rate: .*only with kind rate/m);
  assert.match(t, /^schedule\.reconfigure: "20us" — must be less than period \(20\.000us\)/m);
  assert.match(t, /^schedule\.until: "5us" — must be after start/m);
  assert.match(t, /^schedule\.matchings\[0\]\[1\]: \[9,10\] — names node 9 again \(matchings\[0\]\[0\] has it\)/m);
  assert.match(t, /^schedule\.matchings\[1\]\[0\]: \[8,8\] — a circuit joins two different nodes/m);
  const t2 = errorText(`${ROTOR}events:\n  - { at: 1us, link: [8, 9], kind: down }\nschedule: { period: 50us, matchings: [[[8, 9]], [[0, 9]], [[8, 99]]] }\n`);
  assert.match(t2, /^schedule\.matchings\[1\]\[0\]: \[0,9\] — nodes 0 and 9 are not connected$/m);
  assert.match(t2, /^schedule\.matchings\[2\]\[0\]\[1\]: 99 — no such node \(nodes are 0\.\.11\)$/m);
  const t3 = errorText(`${ROTOR}events:\n  - { at: 1us, link: [9, 8], kind: down }\nschedule: { period: 50us, matchings: [[[8, 9]]] }\n`);
  assert.match(t3, /^events\[0\]\.link: \[9,8\] — is a circuit of schedule/m);
  const t4 = errorText(ROTOR.replace('type: torMesh, tors: 4, hostsPerTor: 2, hostRate: 100Gbps', 'type: star, hosts: 4, rate: 100Gbps') + `schedule: { period: 50us, matchings: roundRobin }\n`);
  assert.match(t4, /^schedule\.matchings: .*needs at least two ToRs/m);
});
