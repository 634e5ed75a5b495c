/**
 * One registry type for every plug-in kind (engine/registry.ts, issue 43): names are unique
 * (a clash names both sources), an unknown name lists the known ones, iteration is in
 * registration order, and every built-in kind is one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from '../src/engine/registry.js';
import { ccRegistry, findCc } from '../src/cc/registry.js';
import { workloadRegistry } from '../src/workload/registry.js';
import { admissionPolicyRegistry, dequeuePolicyRegistry, disciplineRegistry } from '../src/net/switch-registry.js';
import { figureRegistry } from '../src/experiment/results/analysis.js';
import { parallelUnsupported } from '../src/sim/parallel/parallel.js';
import { star } from '../src/net/topology/index.js';
import { US } from '../src/engine/units.js';
import { input } from './helpers/sim.js';

interface Def {
  name: string;
  v: number;
}

test('a registry keeps registration order, refuses a clashing name naming both sources, and lists the known names for an unknown one', () => {
  const r = new Registry<Def>({ kind: 'widget', key: (d) => d.name });
  assert.equal(r.version, 0);
  r.register({ name: 'b', v: 1 });
  r.register({ name: 'a', v: 2 }, '/home/me/a.mjs');
  r.register({ name: 'c', v: 3 }, '/home/me/c.mjs');
  assert.deepEqual(r.names(), ['b', 'a', 'c']);
  assert.deepEqual([...r].map((d) => d.v), [1, 2, 3]);
  assert.equal(r.version, 3);
  assert.equal(r.get('a').v, 2);
  assert.equal(r.find('zz'), undefined);
  assert.equal(r.sourceOf('a'), '/home/me/a.mjs');
  assert.equal(r.sourceOf('b'), 'built-in');
  assert.throws(() => r.register({ name: 'a', v: 9 }, '/tmp/other.mjs'), {
    message: 'widget "a" from /tmp/other.mjs clashes with the one already registered from /home/me/a.mjs (choose another name)',
  });
  assert.throws(() => r.register({ name: 'b', v: 9 }), /widget "b" from built-in clashes with the one already registered from built-in/);
  assert.throws(() => r.get('zz'), { message: 'unknown widget "zz" (known: b, a, c)' });
  assert.throws(() => r.register({ name: '', v: 0 }, 'x.mjs'), /widget from x.mjs: a definition needs a non-empty name/);
  assert.equal(r.version, 3, 'a refused registration changes nothing');
  assert.throws(() => new Registry<Def>({ kind: 'gadget', key: (d) => d.name }).get('x'), { message: 'unknown gadget "x" (none registered)' });
});

test('sameObjectAgain: the very same definition again is a no-op, another one under its name still clashes', () => {
  const r = new Registry<Def>({ kind: 'figure analysis', key: (d) => d.name, sameObjectAgain: true });
  const d = { name: 'f', v: 1 };
  r.register(d, 'paper p');
  r.register(d, 'paper p');
  assert.equal(r.size, 1);
  assert.throws(() => r.register({ ...d }, 'paper q'), /"f" from paper q clashes with the one already registered from paper p/);
});

test('every built-in plug-in kind is a Registry, built-ins first in their list order', () => {
  for (const reg of [ccRegistry, workloadRegistry, admissionPolicyRegistry, dequeuePolicyRegistry, disciplineRegistry, figureRegistry]) assert.ok(reg instanceof Registry, reg.kind);
  assert.deepEqual(ccRegistry.names().slice(0, 4), ['none', 'dcqcn', 'hpcc', 'hpcc-star']);
  assert.deepEqual(workloadRegistry.names(), ['poisson', 'incast', 'flows', 'query', 'collective', 'parameterServer', 'passes']);
  assert.deepEqual(disciplineRegistry.names(), ['strict', 'rr', 'drr']);
  assert.deepEqual(dequeuePolicyRegistry.names(), ['red', 'tcd', 'int', 'mpd']);
  assert.deepEqual(admissionPolicyRegistry.names(), ['trim']);
  assert.deepEqual(figureRegistry.names(), ['slowdown-table']);
  assert.throws(() => disciplineRegistry.get('wfq'), { message: 'unknown queue discipline "wfq" (known: strict, rr, drr)' });
});

test('parallel capability: CCs and disciplines run on threads only when their definition says so', () => {
  const ccs = ccRegistry.values();
  assert.deepEqual(ccs.filter((c) => c.parallel !== true).map((c) => c.name), ['oracle', 'retcp']);
  const topo = star({ hosts: 4, rateBps: 100e9, delayPs: 1 * US });
  const base = input(topo, [{ src: 0, dst: 1, bytes: 10_000, startPs: 0 }], { cc: 'dcqcn' });
  assert.equal(parallelUnsupported(base), null);
  assert.match(parallelUnsupported({ ...base, cc: { name: 'oracle', params: {} } }) ?? '', /^cc oracle \(the engine runs none, dcqcn, hpcc, /);
  const withDisc = (discipline: string) => ({ ...base, net: { ...base.net, switch: { ...base.net.switch, discipline } } });
  assert.equal(parallelUnsupported(withDisc('drr')), null);
  disciplineRegistry.register({ name: 'test-serial', id: 0 }, 'test');
  assert.equal(parallelUnsupported(withDisc('test-serial')), 'queue discipline test-serial (its definition does not declare parallel: true)');
  assert.ok(findCc('dcqcn')!.parallel);
});
