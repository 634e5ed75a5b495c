/**
 * The switch's open edges (issue 24 item 3): admission policies before the MMU
 * (net/admission.ts) with their verdicts, pluggable queue-service disciplines
 * (net/queue-discipline.ts), and the CC-needs table (net/switch-features.ts).
 * The admission policies and the discipline here are toys, registered with
 * one line each as a plug-in would be; no profile runs any of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../src/sim/simulate.js';
import { ADMIT, DROP, HOLD, MARK, TRIM, type AdmissionPolicyDefinition } from '../src/net/admission.js';
import type { AdmissionChoice, NetworkConfig, ProfileName } from '../src/net/config.js';
import { FLAG_CE, FLAG_TRIM, PKT_ACK, PKT_DATA } from '../src/net/packet.js';
import { DISC_CUSTOM, type QueueDisciplineDefinition } from '../src/net/queue-discipline.js';
import { SWITCH_FEATURES, switchPolicyNames, unmetSwitchNeeds } from '../src/net/switch-features.js';
import { registerAdmissionPolicy, registerQueueDiscipline } from '../src/net/switch-registry.js';
import { star } from '../src/net/topology/index.js';
import { findCc } from '../src/cc/registry.js';
import { unmetNeeds } from '../src/cc/types.js';
import { US } from '../src/engine/units.js';
import { input, net, type DeepPartial } from './helpers/sim.js';
import { arriveLabelled, serveAll } from './helpers/probe.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { SpecError } from '../src/engine/errors.js';
import { pfcReceived } from '../src/net/pfc-rx.js';

// ------------------------------------------------------------------ toy plug-ins

/** Drops every n-th data packet the switch sees (`params.every`). */
const dropEvery: AdmissionPolicyDefinition = {
  name: 'test-drop-every',
  create: (_ctx, params) => {
    const every = Number(params['every']);
    let seen = 0;
    return { name: 'test-drop-every', admit: () => (++seen % every === 0 ? DROP : ADMIT) };
  },
};

/** Trims a packet when its egress queue already holds `params.bytes` or more (NDP-like). */
const trimAbove: AdmissionPolicyDefinition = {
  name: 'test-trim-above',
  trims: true,
  create: (_ctx, params) => {
    const limit = Number(params['bytes']);
    return { name: 'test-trim-above', admit: (_pkt, out, q) => (out.queueBytes(q) >= limit ? TRIM : ADMIT) };
  },
};

/** Returns whatever verdict the test sets in `verdict.next`. */
const verdict = { next: ADMIT };
const fixedVerdict: AdmissionPolicyDefinition = {
  name: 'test-verdict',
  trims: true,
  create: () => ({ name: 'test-verdict', admit: () => verdict.next }),
};

/** Serves the lowest non-empty class first (the reverse of strict priority). */
const lowestFirst: QueueDisciplineDefinition = {
  name: 'test-lowest-first',
  id: DISC_CUSTOM,
  create: () => ({ name: 'test-lowest-first', pick: (ready) => 31 - Math.clz32(ready & -ready), served: () => {} }),
};

registerAdmissionPolicy(dropEvery);
registerAdmissionPolicy(trimAbove);
registerAdmissionPolicy(fixedVerdict);
registerQueueDiscipline(lowestFirst);

// ------------------------------------------------------------------ a switch by hand

const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });

function cfgWith(profile: ProfileName, admission: AdmissionChoice[], over: DeepPartial<NetworkConfig> = {}): NetworkConfig {
  const cfg = net(profile, over);
  return admission.length > 0 ? { ...cfg, switch: { ...cfg.switch, admission } } : cfg;
}

/** The switch (node 3) of a 3-host star; its port toward host 2 held busy unless `idle`. */
function rig(cfg: NetworkConfig, idle = false) {
  const sim = new Simulation(input(topo, [], { net: cfg }));
  const sw = sim.network.switches[3]!;
  const port = sw.ports[2]!;
  if (!idle) port.busyUntil = Number.MAX_SAFE_INTEGER;
  const pk = sim.ctx.pool;
  return {
    sim,
    sw,
    port,
    pk,
    /** a data packet (1000 B on the wire, 900 B payload, ECN-capable) of class `prio` for host 2, labelled in its seq, from host 0 */
    arrive: (prio: number, label: number, type = PKT_DATA): number => arriveLabelled(sw, pk, label, prio, type, 1000, 900),
    /** the labels in service order */
    serve: (): number[] => serveAll(sw, port, pk),
  };
}

test('no admission policies on any profile: the lists are empty and only D-HPCC queue 0 is urgent', () => {
  for (const profile of ['oscar', 'hpcc', 'acc'] as const) {
    const { sw } = rig(net(profile));
    assert.deepEqual(sw.admissionNames(), []);
    assert.equal(sw.ports[0]!.urgentMask, profile === 'oscar' ? 0 : 1);
    assert.equal(sw.ports[0]!.discipline, profile === 'oscar' ? 'strict' : 'rr');
  }
});

test('DROP: a packet that would go straight through an idle port is dropped before the MMU, and counted', () => {
  const r = rig(cfgWith('oscar', [{ name: 'test-verdict' }]), true);
  verdict.next = DROP;
  r.arrive(1, 1);
  assert.equal(r.sw.drops, 1);
  assert.equal(r.sw.admissionDrops, 1);
  assert.equal(r.port.drops, 1);
  assert.equal(r.port.txPackets, 0, 'nothing transmitted');
  assert.equal(r.sw.mmu.totalUsed, 0);
  verdict.next = ADMIT;
  r.arrive(1, 2);
  assert.equal(r.port.txPackets, 1, 'admitted: straight through');
});

test('TRIM: a data packet becomes its headers in the header queue, charged as such, and is served first (rr, D-HPCC)', () => {
  const r = rig(cfgWith('hpcc', [{ name: 'test-verdict' }]));
  assert.equal(r.port.urgentMask, 1 | (1 << 7), 'control queue 0 and the header queue 7');
  verdict.next = ADMIT;
  r.arrive(3, 30);
  r.arrive(4, 40);
  verdict.next = TRIM;
  const t = r.arrive(3, 31);
  assert.equal(r.pk.size(t), 100, '1000 B minus the 900 B payload');
  assert.ok(r.pk.has(t, FLAG_TRIM));
  assert.equal(r.port.queuePkts(7), 1);
  assert.equal(r.port.queueBytes(7), 100);
  assert.equal(r.sw.mmu.ingressBytes(0, 7), 100);
  assert.equal(r.sw.trimmed, 1);
  assert.equal(r.port.trimmed, 1);
  // trimmed again at a later switch: it stays as it is
  const t2 = r.pk.alloc(PKT_DATA);
  r.pk.setDst(t2, 2);
  r.pk.setSize(t2, 100);
  r.pk.setAux(t2, 900);
  r.pk.setPrio(t2, 7);
  r.pk.setSeq(t2, 70);
  r.pk.setFlag(t2, FLAG_TRIM, true);
  r.sw.receive(t2, 0);
  assert.equal(r.pk.size(t2), 100);
  assert.equal(r.sw.trimmed, 1);
  assert.equal(r.port.queuePkts(7), 2);
  // a non-data packet cannot be trimmed: it is dropped
  r.arrive(3, 32, PKT_ACK);
  assert.equal(r.sw.admissionDrops, 1);
  verdict.next = ADMIT;
  assert.deepEqual(r.serve(), [31, 70, 30, 40]);
  assert.equal(r.sw.mmu.totalUsed, 0, 'every charge released');
});

test('MARK: CE is set and the packet admitted; HOLD pauses the ingress class until released', () => {
  const r = rig(cfgWith('oscar', [{ name: 'test-verdict' }]));
  verdict.next = MARK;
  const p = r.arrive(1, 1);
  assert.ok(r.pk.has(p, FLAG_CE));
  assert.equal(r.sw.admissionMarks, 1);
  verdict.next = HOLD;
  r.arrive(1, 2);
  r.arrive(1, 3);
  const ingress = r.sw.ports[0]!;
  assert.equal(r.sw.holds, 1);
  assert.equal(ingress.pausesSent, 1, 'one PAUSE for the held class');
  verdict.next = ADMIT;
  assert.deepEqual(r.serve(), [1, 2, 3]);
  assert.equal(ingress.resumesSent, 0, 'the hold outlives the queue');
  r.sw.releaseHold(0, 1);
  assert.equal(ingress.resumesSent, 1);
  r.sw.releaseHold(0, 1);
  assert.equal(ingress.resumesSent, 1, 'released once');
});

test('policies run in order; a DROP ends the list', () => {
  const r = rig(cfgWith('oscar', [{ name: 'test-drop-every', params: { every: 2 } }, { name: 'test-verdict' }]));
  assert.deepEqual(r.sw.admissionNames(), ['test-drop-every', 'test-verdict']);
  verdict.next = MARK;
  r.arrive(1, 1);
  r.arrive(1, 2);
  assert.equal(r.sw.admissionDrops, 1);
  assert.equal(r.sw.admissionMarks, 1, 'the dropped packet was not asked again');
  verdict.next = ADMIT;
});

test('an unknown admission policy or discipline is a clear error', () => {
  assert.throws(() => rig(cfgWith('oscar', [{ name: 'no-such' }])), /unknown admission policy "no-such"/);
  assert.throws(() => rig(net('oscar', { switch: { discipline: 'no-such' } })), /unknown queue discipline "no-such" \(known: strict, rr/);
});

// ------------------------------------------------------------------ disciplines

test('a registered discipline serves by its pick (lowest class first); per port', () => {
  const r = rig(net('oscar', { switch: { discipline: 'test-lowest-first' } }));
  assert.equal(r.port.discipline, 'test-lowest-first');
  for (const [prio, label] of [[5, 50], [1, 10], [3, 30], [1, 11]] as const) r.arrive(prio, label);
  assert.deepEqual(r.serve(), [10, 11, 30, 50]);
  // paused classes are not candidates
  r.arrive(1, 10);
  r.arrive(3, 30);
  pfcReceived(r.port, 0, 1, true, 0);
  assert.deepEqual(r.serve(), [30]);
  pfcReceived(r.port, 0, 1, false, 0);
  assert.deepEqual(r.serve(), [10]);
  // one port back to round robin, by name
  r.sw.setDiscipline(2, 'rr');
  assert.equal(r.port.discipline, 'rr');
  assert.equal(r.sw.ports[1]!.discipline, 'test-lowest-first');
});

test('strict and rr by name are the built-ins: the same order as the profile service', () => {
  const order = (profile: ProfileName, over: DeepPartial<NetworkConfig>): number[] => {
    const r = rig(net(profile, over));
    for (const [prio, label] of [[2, 20], [5, 50], [2, 21], [5, 51], [4, 40]] as const) r.arrive(prio, label);
    return r.serve();
  };
  assert.deepEqual(order('hpcc', { switch: { discipline: 'rr' } }), order('hpcc', {}));
  assert.deepEqual(order('hpcc', { switch: { discipline: 'strict' } }), order('oscar', {}));
  assert.deepEqual(order('oscar', {}), [50, 51, 40, 20, 21]);
  assert.deepEqual(order('hpcc', {}), [20, 40, 50, 21, 51]);
});

// ------------------------------------------------------------------ the needs table

test('the needs table: policies by phase in reference order, and what the profile must provide', () => {
  const acc = net('acc').switch;
  assert.deepEqual(
    SWITCH_FEATURES.map((f) => f.name),
    ['ecn', 'tcd', 'int', 'mpd'],
  );
  assert.deepEqual(switchPolicyNames({ int: true, tcd: true, mpd: true }, acc), { marking: ['red', 'tcd'], telemetry: ['int', 'mpd'], admission: [] });
  assert.deepEqual(switchPolicyNames({}, { ...acc, ecn: { ...acc.ecn, enabled: false } }).marking, []);
  const oscar = net('oscar');
  const noTcd = unmetSwitchNeeds('x', { tcd: true }, oscar);
  assert.equal(noTcd.length, 1);
  assert.match(noTcd[0]!, /needs TCD marks, but network.switch.tcd.enabled is false in profile "oscar"/);
  const dcqcnTcd = findCc('dcqcn-tcd')!;
  assert.deepEqual(unmetNeeds(dcqcnTcd, oscar), unmetSwitchNeeds(dcqcnTcd.name, dcqcnTcd.needs, oscar));
});

// ------------------------------------------------------------------ scenarios

const incast = star({ hosts: 5, rateBps: 100e9, delayPs: 1 * US });
const flows = [0, 1, 2, 3].map((src) => ({ src, dst: 4, bytes: 200_000, startPs: 0 }));

test('scenario: a drop policy on every switch (every 50th data packet): drops recorded, every flow completes', () => {
  const cfg = cfgWith('oscar', [{ name: 'test-drop-every', params: { every: 50 } }]);
  const sim = new Simulation(input(incast, flows, { net: cfg, cc: 'dcqcn' }));
  sim.runUntil(Infinity);
  const out = sim.finish();
  const sw = sim.network.switches[5]!;
  assert.ok(sw.admissionDrops > 0);
  assert.equal(out.totals.drops, sw.admissionDrops);
  assert.ok(out.totals.retransmittedPackets > 0);
  assert.equal(out.totals.finished, flows.length);
});

test('scenario: trimming above a queue depth: headers reach the receiver, count as its losses, every flow completes', () => {
  const cfg = cfgWith('oscar', [{ name: 'test-trim-above', params: { bytes: 20_000 } }]);
  const sim = new Simulation(input(incast, flows, { net: cfg, cc: 'dcqcn' }));
  sim.runUntil(Infinity);
  const out = sim.finish();
  const sw = sim.network.switches[5]!;
  assert.ok(sw.trimmed > 0, 'some packets trimmed');
  assert.equal(sim.network.hosts[4]!.trimmedLost, sw.trimmed, 'every header reached the receiver');
  assert.equal(out.totals.drops, 0);
  assert.ok(out.totals.retransmittedPackets > 0);
  assert.equal(out.totals.finished, flows.length);
  // without the policy the same run trims nothing and is another run
  const base = new Simulation(input(incast, flows, { net: net('oscar'), cc: 'dcqcn' }));
  base.runUntil(Infinity);
  assert.equal(base.network.switches[5]!.trimmed, 0);
});

test('a spec names switch policies and disciplines by registered name; an unknown one is a spec error naming the field', () => {
  const spec = (sw: Record<string, unknown>): unknown => ({
    name: 'edges',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    network: { switch: sw },
    cc: 'none',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '10KB' }] }],
  });
  const ok = resolveSpec(parseSpec(spec({ discipline: 'test-lowest-first', admission: [{ name: 'test-drop-every', params: { every: 2 } }] })), '.');
  assert.equal(ok.net.switch.discipline, 'test-lowest-first');
  assert.throws(
    () => resolveSpec(parseSpec(spec({ discipline: 'fifo', admission: [{ name: 'nope' }] })), '.'),
    (e: unknown) =>
      e instanceof SpecError &&
      /network\.switch\.discipline: "fifo" — unknown queue discipline \(known: strict, rr, /.test(e.message) &&
      /network\.switch\.admission\[0\]\.name: "nope" — unknown admission policy \(known: trim, test-drop-every/.test(e.message),
  );
});
