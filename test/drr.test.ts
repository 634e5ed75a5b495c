/**
 * Deficit round robin (net/drr.ts; Shreedhar and Varghese, SIGCOMM'95): a queue discipline that
 * reads head-packet sizes and takes parameters. Two classes whose packets differ in size get
 * the same bytes from DRR (weighted by `weights`), where per-packet round robin gives them the
 * same packets; its parameters are spec fields with their errors at the field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../src/sim/simulate.js';
import { star } from '../src/net/topology/index.js';
import type { NetworkConfig } from '../src/net/config.js';
import { PKT_DATA } from '../src/net/packet.js';
import { US } from '../src/engine/units.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { SpecError } from '../src/engine/errors.js';
import { input, net, type DeepPartial } from './helpers/sim.js';
import { arriveLabelled, serveAll } from './helpers/probe.js';

const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });

/** Bytes served per class in the first `n` packets of a port toward host 2 that holds 40 packets of 1500 B in class 1 and 200 of 300 B in class 2. */
function servedBytes(over: DeepPartial<NetworkConfig>, n: number): { c1: number; c2: number; order: number[] } {
  const sim = new Simulation(input(topo, [], { net: net('oscar', over) }));
  const sw = sim.network.switches[3]!;
  const port = sw.ports[2]!;
  port.busyUntil = Number.MAX_SAFE_INTEGER; // hold the port busy: the packets queue
  const pk = sim.ctx.pool;
  // interleaved arrivals, labels 1xxx (class 1) and 2xxx (class 2)
  for (let i = 0; i < 200; i++) {
    if (i < 40) arriveLabelled(sw, pk, 1000 + i, 1, PKT_DATA, 1500, 1400);
    arriveLabelled(sw, pk, 2000 + i, 2, PKT_DATA, 300, 200);
  }
  const order = serveAll(sw, port, pk);
  assert.equal(order.length, 240);
  let c1 = 0;
  let c2 = 0;
  for (const label of order.slice(0, n)) {
    if (label < 2000) c1 += 1500;
    else c2 += 300;
  }
  return { c1, c2, order };
}

test('DRR serves two classes of different packet sizes the same bytes; rr serves them the same packets', () => {
  const drr = servedBytes({ switch: { discipline: 'drr', disciplineParams: { quantumBytes: 1500 } } }, 120);
  // a round: one 1500-B packet of class 1, five 300-B packets of class 2
  assert.deepEqual(drr.order.slice(0, 12), [1000, 2000, 2001, 2002, 2003, 2004, 1001, 2005, 2006, 2007, 2008, 2009]);
  assert.equal(drr.c1, 30_000);
  assert.equal(drr.c2, 30_000);
  const rr = servedBytes({ switch: { discipline: 'rr' } }, 80);
  assert.equal(rr.c1, 40 * 1500);
  assert.equal(rr.c2, 40 * 300);
  // every packet is served once in both
  assert.deepEqual([...drr.order].sort(), [...rr.order].sort());
});

test('DRR: a quantum smaller than a packet takes several rounds, weights scale the share, an emptied class keeps no credit', () => {
  // quantum 500 B: class 1 sends one 1500-B packet every third round, class 2 about five packets meanwhile
  const small = servedBytes({ switch: { discipline: 'drr', disciplineParams: { quantumBytes: '500B' } } }, 120);
  assert.ok(Math.abs(small.c1 - small.c2) <= 1500, `${small.c1} vs ${small.c2}`);
  // class 1 weighted 2: twice the bytes of class 2 while both are backlogged (a round: 2 + 5 packets)
  const weights = [1, 2, 1, 1, 1, 1, 1, 1];
  const w = servedBytes({ switch: { discipline: 'drr', disciplineParams: { quantumBytes: 1500, weights } } }, 98);
  assert.equal(w.c1, 2 * w.c2);
  // once class 1 is empty, class 2 is served alone; all 240 packets leave
  assert.deepEqual(w.order.slice(-10), [2190, 2191, 2192, 2193, 2194, 2195, 2196, 2197, 2198, 2199]);
});

test('DRR parameters are spec fields: units, defaults, and errors at the field', () => {
  const spec = (sw: Record<string, unknown>): unknown => ({
    name: 'drr',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    network: { switch: sw },
    cc: 'none',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '10KB' }] }],
  });
  const ok = resolveSpec(parseSpec(spec({ discipline: 'drr', disciplineParams: { quantumBytes: '3KB' } })), '.');
  assert.equal(ok.net.switch.discipline, 'drr');
  const run = new Simulation(ok);
  run.runUntil(Infinity);
  assert.equal(run.network.switches[3]!.ports[1]!.discipline, 'drr');
  const bad = (sw: Record<string, unknown>): string => {
    try {
      resolveSpec(parseSpec(spec(sw)), '.');
    } catch (e) {
      if (e instanceof SpecError) return e.message;
      throw e;
    }
    return 'no error';
  };
  assert.match(bad({ discipline: 'drr', disciplineParams: { quantumBytes: 0 } }), /network\.switch\.disciplineParams\.quantumBytes: 0 — /);
  assert.match(bad({ discipline: 'drr', disciplineParams: { quantum: 1500 } }), /network\.switch\.disciplineParams\.quantum: 1500 — unknown key/);
  assert.match(bad({ discipline: 'drr', disciplineParams: { weights: [1, 2] } }), /network\.switch\.disciplineParams\.weights: .*one weight per data queue \(8\)/);
  assert.match(bad({ disciplineParams: { quantumBytes: 1500 } }), /network\.switch\.disciplineParams: .*give network\.switch\.discipline too/);
  assert.match(bad({ discipline: 'rr', disciplineParams: { quantumBytes: 1500 } }), /queue discipline rr takes no parameters/);
});
