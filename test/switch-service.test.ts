/**
 * Switch egress service (docs/network-model.md §3 "Service", §2): strict priority
 * over the 8 queues (D-OSCAR) or per-packet round robin over queues 1-7 with
 * queue 0 a strict, never-paused control queue (D-HPCC), and the control FIFO
 * (PFC frames) ahead of everything. First by hand on one port held busy, then
 * the service order and shares two flows get at a shared egress port.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../src/sim/simulate.js';
import type { NetworkConfig, ProfileName } from '../src/net/config.js';
import { PKT_DATA, PKT_PFC } from '../src/net/packet.js';
import { star } from '../src/net/topology/index.js';
import { US } from '../src/engine/units.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net, type DeepPartial } from './helpers/sim.js';
import { recordSwitchDepartures, serveAll } from './helpers/probe.js';
import { pfcReceived } from '../src/net/pfc-rx.js';

const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });

/**
 * The switch (node 3) of a 3-host star with its port toward host 2 held busy,
 * so packets queue there and the test dequeues them itself.
 */
function egress(profile: ProfileName, over: DeepPartial<NetworkConfig> = {}) {
  const sim = new Simulation(input(topo, [], { net: net(profile, over) }));
  const sw = sim.network.switches[3]!;
  const port = sw.ports[2]!;
  port.busyUntil = Number.MAX_SAFE_INTEGER;
  const pk = sim.ctx.pool;
  return {
    port,
    /** a 1000-B data packet of class `prio` for host 2, labelled `label` (in its seq field), arrives from host 0 */
    arrive(prio: number, label: number): void {
      const p = pk.alloc(PKT_DATA);
      pk.setDst(p, 2);
      pk.setSize(p, 1000);
      pk.setPrio(p, prio);
      pk.setSeq(p, label);
      sw.receive(p, 0);
    },
    /** a PFC frame waiting in the port's control FIFO */
    pfcFrame(): void {
      const p = pk.alloc(PKT_PFC);
      pk.setSize(p, 64);
      pk.setSeq(p, -1);
      port.enqueueCtrl(p);
    },
    /** dequeues until nothing can go: the labels in service order (-1 = PFC frame) */
    serve: (): number[] => serveAll(sw, port, pk),
  };
}

test('strict priority (D-OSCAR): highest class first, FIFO within a class, paused classes skipped', () => {
  const e = egress('oscar');
  assert.equal(e.port.discipline, 'strict');
  for (const [prio, labels] of [
    [1, [10, 11, 12]],
    [3, [30, 31, 32]],
    [5, [50, 51]],
    [0, [0]],
  ] as const) {
    for (const l of labels) e.arrive(prio, l);
  }
  assert.deepEqual(e.serve(), [50, 51, 30, 31, 32, 10, 11, 12, 0]);
  e.arrive(5, 50);
  e.arrive(3, 30);
  pfcReceived(e.port, 0, 5, true, 0);
  assert.deepEqual(e.serve(), [30]);
  pfcReceived(e.port, 0, 5, false, 0);
  assert.deepEqual(e.serve(), [50]);
});

test('round robin (D-HPCC): one packet per non-empty class in turn; queue 0 strict and never paused; PFC frames first', () => {
  const e = egress('hpcc');
  assert.equal(e.port.discipline, 'rr');
  for (const [prio, labels] of [
    [1, [10, 11, 12]],
    [3, [30, 31, 32]],
    [5, [50, 51]],
  ] as const) {
    for (const l of labels) e.arrive(prio, l);
  }
  assert.deepEqual(e.serve(), [10, 30, 50, 11, 31, 51, 12, 32]);
  // queue 0 goes ahead of the round, which then resumes after the class it served last (3)
  e.arrive(3, 33);
  e.arrive(1, 13);
  e.arrive(0, 0);
  assert.deepEqual(e.serve(), [0, 13, 33]);
  // a paused class is skipped; pausing class 0 does not stop the control queue
  pfcReceived(e.port, 0, 3, true, 0);
  pfcReceived(e.port, 0, 0, true, 0);
  e.arrive(3, 34);
  e.arrive(5, 52);
  e.arrive(0, 1);
  assert.deepEqual(e.serve(), [1, 52]);
  pfcReceived(e.port, 0, 3, false, 0);
  assert.deepEqual(e.serve(), [34]);
  // the control FIFO goes before every queue, queue 0 included
  e.arrive(0, 2);
  e.arrive(1, 14);
  e.pfcFrame();
  assert.deepEqual(e.serve(), [-1, 2, 14]);
});

/** Flow A (class 1) from host 0 and flow B (class 2) from host 1, 30 packets each, into host 2 at line rate. */
function sharedEgress(service: 'rr' | 'strict'): string {
  const flows: FlowSpec[] = [
    { src: 0, dst: 2, bytes: 30_000, startPs: 0, prio: 1 },
    { src: 1, dst: 2, bytes: 30_000, startPs: 0, prio: 2 },
  ];
  const sim = new Simulation(input(topo, flows, { net: net('hpcc', { switch: { service } }) }));
  const dep = recordSwitchDepartures(sim, 3, 2);
  sim.runUntil(Infinity);
  assert.equal(sim.transport.finishedCount, 2);
  return dep.map((p) => (p.type === 'data' ? 'AB'[p.flow] : '?')).join('');
}

test('two classes at one egress port: round robin alternates them (equal shares), strict priority serves the higher first', () => {
  // A's first packet arrives first (its host's link event was scheduled first) and finds the port idle;
  // from then on both classes are backlogged, since each sends at line rate into a port of the same rate
  assert.equal(sharedEgress('rr'), 'AB'.repeat(30));
  assert.equal(sharedEgress('strict'), 'A' + 'B'.repeat(30) + 'A'.repeat(29));
});
