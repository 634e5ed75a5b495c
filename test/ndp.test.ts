/**
 * Packet trimming (net/trim.ts) and NDP (cc/ndp.ts, transport/ndp-pull.ts,
 * transport/trim-recovery.ts; Handley et al. SIGCOMM'17 §3): the trimming
 * admission policy and the header queue's service by hand on one switch,
 * then a 32:1 incast on a star, where NDP must deliver every byte once,
 * keep the receiver's link busy after the first RTT, and lose no trimmed
 * header while the header queue has room; and the spec side: choosing ndp
 * turns on what it needs, a contradiction is an error naming both fields.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../src/sim/simulate.js';
import type { AdmissionChoice } from '../src/net/config.js';
import { FLAG_RTS, FLAG_TRIM, PKT_ACK, PKT_DATA, metaPrio } from '../src/net/packet.js';
import { star } from '../src/net/topology/index.js';
import { US } from '../src/engine/units.js';
import { TrimRecovery } from '../src/transport/trim-recovery.js';
import { input, net } from './helpers/sim.js';
import { arriveLabelled, serveAll } from './helpers/probe.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { SpecError } from '../src/engine/errors.js';
import { findFigure, type PointResult } from '../src/experiment/results/analysis.js';
import '../experiments/index.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers/tmp.js';

// ------------------------------------------------------------------ the trim policy by hand

const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
const TRIM_3000: AdmissionChoice = { name: 'trim', params: { thresholdBytes: 3000, headerQueueBytes: 250 } };

/** The switch (node 3) of a 3-host star with the trim policy; its port toward host 2 held busy. */
function rig() {
  const cfg = net('oscar', { switch: { pfcEnabled: false } });
  const sim = new Simulation(input(topo, [], { net: { ...cfg, switch: { ...cfg.switch, admission: [TRIM_3000] } } }));
  const sw = sim.network.switches[3]!;
  const port = sw.ports[2]!;
  port.busyUntil = Number.MAX_SAFE_INTEGER;
  const pk = sim.ctx.pool;
  return {
    sim,
    sw,
    port,
    pk,
    /** a packet (1000 B on the wire, 900 B payload) of class 1 for host 2 from host 0's port, labelled in its seq */
    arrive: (label: number, type = PKT_DATA, prio = 1, size = 1000): number => arriveLabelled(sw, pk, label, prio, type, size, type === PKT_DATA ? 900 : 0),
    /** the labels in service order */
    serve: (): number[] => serveAll(sw, port, pk),
  };
}

test('trim: data beyond the queue threshold is cut to its header in the urgent header queue; the header queue is served first', () => {
  const r = rig();
  assert.equal(r.port.urgentMask, 1 << 7, 'the header queue (7) is urgent at every port');
  for (let i = 1; i <= 3; i++) r.arrive(i);
  assert.equal(r.port.queueBytes(1), 3000, 'up to the threshold: admitted whole');
  assert.equal(r.sw.trimmed, 0);
  const t = r.arrive(4);
  assert.equal(r.sw.trimmed, 1);
  assert.ok(r.pk.has(t, FLAG_TRIM));
  assert.equal(r.pk.size(t), 100, 'the headers only: wire size minus payload');
  assert.equal(metaPrio(r.pk.meta(t)), 7);
  assert.equal(r.port.queueBytes(1), 3000, 'the data queue did not grow');
  assert.equal(r.port.queueBytes(7), 100);
  r.arrive(5);
  assert.equal(r.port.queueBytes(7), 200);
  // a control packet of the header class joins the header queue while it has room
  r.arrive(6, PKT_ACK, 7, 50);
  assert.equal(r.port.queueBytes(7), 250);
  assert.equal(r.sw.headerDrops, 0, 'nothing lost while the header queue has room');
  assert.deepEqual(r.serve(), [4, 5, 6, 1, 2, 3], 'headers (and control) first, then the data, each in order');
});

test('trim: a header that finds the header queue full returns to its sender; a control packet is dropped', () => {
  const r = rig();
  r.sim.ctx.sourceOf = () => 0; // every flow comes from host 0
  for (let i = 1; i <= 3; i++) r.arrive(i);
  r.arrive(4);
  r.arrive(5);
  const ack = r.arrive(6, PKT_ACK, 7, 100);
  assert.equal(r.port.queueBytes(7), 200, 'the ACK found no room');
  assert.equal(r.sw.headerDrops, 1);
  assert.ok(ack >= 0);
  r.sw.ports[0]!.busyUntil = Number.MAX_SAFE_INTEGER;
  const p = r.arrive(7);
  assert.equal(r.sw.returned, 1);
  assert.ok(r.pk.has(p, FLAG_RTS) && r.pk.has(p, FLAG_TRIM));
  assert.equal(r.pk.dst(p), 0, 'addressed to its sender');
  assert.equal(r.sw.ports[0]!.queueBytes(7), 100, 'in the header queue toward the sender');
  assert.equal(r.port.queueBytes(7), 200);
  // without a known source it is a header drop
  r.sim.ctx.sourceOf = () => -1;
  r.arrive(8);
  assert.equal(r.sw.headerDrops, 2);
  assert.equal(r.sw.returned, 1);
});

test('trim: a header trimmed upstream is admitted as it is while the header queue has room, else returned', () => {
  const r = rig();
  r.sim.ctx.sourceOf = () => 0;
  r.sw.ports[0]!.busyUntil = Number.MAX_SAFE_INTEGER;
  const mk = (label: number): number => {
    const p = r.pk.alloc(PKT_DATA);
    r.pk.setDst(p, 2);
    r.pk.setSize(p, 100);
    r.pk.setAux(p, 900);
    r.pk.setPrio(p, 7);
    r.pk.setSeq(p, label);
    r.pk.setFlag(p, FLAG_TRIM, true);
    r.sw.arrivals.receive(p, 0);
    return p;
  };
  mk(1);
  mk(2);
  assert.equal(r.port.queueBytes(7), 200);
  assert.equal(r.sw.trimmed, 0, 'not trimmed again');
  const back = mk(3);
  assert.equal(r.sw.returned, 1);
  assert.ok(r.pk.has(back, FLAG_RTS));
  assert.equal(r.pk.size(back), 100);
});

// ------------------------------------------------------------------ NDP, a 32:1 incast

const N = 32;
const SIZE = 300_000;
const incast = star({ hosts: N + 1, rateBps: 100e9, delayPs: 1 * US });
const incastFlows = Array.from({ length: N }, (_, i) => ({ src: i, dst: N, bytes: SIZE, startPs: 0 }));

test('NDP 32:1 incast on a star: every byte delivered once, the bottleneck >= 95 % busy after the first RTT, no trimmed header lost', () => {
  const sim = new Simulation(input(incast, incastFlows, { cc: 'ndp' }));
  const sw = sim.network.switches[N + 1]!;
  const bottleneck = sw.ports.find((p) => p.peerNode === N)!;
  // step 1 us at a time: the busy time is the bytes sent between the first RTT and the last data packet
  const firstRtt = 5 * US;
  sim.runUntil(firstRtt);
  const bytesAtRtt = bottleneck.txBytes;
  let lastChange = firstRtt;
  let last = bytesAtRtt;
  for (let t = firstRtt + US; sim.transport.finishedCount < N && t < 10_000 * US; t += US) {
    sim.runUntil(t);
    if (bottleneck.txBytes !== last) {
      last = bottleneck.txBytes;
      lastChange = t;
    }
  }
  sim.runUntil(Infinity);
  const out = sim.finish();
  assert.equal(out.totals.finished, N, 'every flow completes');
  const rec = sim.transport.recovery as TrimRecovery;
  assert.equal(rec.name, 'trim');
  assert.equal(rec.duplicates, 0, 'no byte reached the receiver twice');
  const t = out.totals;
  assert.ok((t.trimmedPackets ?? 0) > 0, 'the incast trims');
  assert.equal(t.retransmittedPackets, t.trimmedPackets, 'each trimmed (or returned) packet is resent once, and nothing else');
  assert.equal(t.timeouts, 0);
  assert.equal(t.drops, 0);
  assert.equal(t.headerDrops, 0, 'no header lost while the header queue has room');
  assert.equal(rec.headerNacks + rec.returnedHeaders, t.trimmedPackets, 'every trimmed header reached its receiver (a NACK) or came back to its sender');
  assert.equal(rec.returnedHeaders, t.returnedHeaders);
  const busy = ((last - bytesAtRtt) * 8) / 100e9 * 1e12 / (lastChange - firstRtt);
  assert.ok(busy >= 0.95, `bottleneck busy ${(busy * 100).toFixed(1)} % of the time after the first RTT`);
  // PFC is off and the fabric was never paused
  assert.equal(t.pausesSent, 0);
});

test('NDP: the first window is one base BDP sent at line rate, then one packet per PULL', () => {
  const one = [{ src: 0, dst: 1, bytes: 1_000_000, startPs: 0 }];
  const sim = new Simulation(input(star({ hosts: 2, rateBps: 100e9, delayPs: 1 * US }), one, { cc: 'ndp' }));
  sim.runUntil(1);
  const f = sim.transport.flows[0]!;
  const iw = Math.ceil(f.baseBdpBytes / f.mtuBytes);
  assert.equal(f.strategy!.pullCredit, iw);
  // back to back: the iw-th packet starts (iw - 1) serialization times after the first
  const ser = sim.network.hosts[0]!.port.serPs(f.dataWireBytes);
  sim.runUntil((iw - 1) * ser + 1);
  assert.equal(f.dataPacketsSent, iw);
  sim.runUntil(Infinity);
  const out = sim.finish();
  assert.equal(out.totals.finished, 1);
  assert.equal(out.totals.trimmedPackets, 0, 'alone, nothing is trimmed');
  // every packet beyond the first window was sent on a PULL
  const packets = Math.ceil(1_000_000 / f.mtuBytes);
  assert.equal(f.dataPacketsSent, packets);
  assert.ok(f.strategy!.pullsSent >= packets - iw, `${f.strategy!.pullsSent} PULLs for ${packets - iw} packets`);
});

// ------------------------------------------------------------------ spec side

const spec = (over: Record<string, unknown> = {}): unknown => ({
  name: 'ndp',
  topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
  cc: 'ndp',
  workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '10KB' }] }],
  ...over,
});

test('choosing ndp turns on trimming, the header queue, spraying, PULLs and no PFC, in the resolved network', () => {
  const r = resolveSpec(parseSpec(spec()), '.');
  assert.equal(r.net.switch.pfcEnabled, false);
  assert.equal(r.net.switch.loadBalancing, 'spray');
  assert.equal(r.net.transport.retxMode, 'trim');
  assert.equal(r.net.transport.sendDriver, 'ndpPull');
  const full = r.net.transport.mtuBytes + r.net.transport.dataHeaderBytes;
  assert.deepEqual(r.net.switch.admission, [{ name: 'trim', params: { thresholdBytes: 8 * full, headerQueueBytes: 8 * full } }]);
  // a spec that says the same is fine, and its own trim parameters win
  const same = resolveSpec(parseSpec(spec({ network: { switch: { pfcEnabled: false, admission: [{ name: 'trim', params: { thresholdBytes: 5000, headerQueueBytes: 999 } }] } } })), '.');
  assert.deepEqual(same.net.switch.admission, [{ name: 'trim', params: { thresholdBytes: 5000, headerQueueBytes: 999 } }]);
});

test('a spec that forces PFC on (or ECMP, or go-back-N) with ndp is a spec error naming both fields', () => {
  assert.throws(
    () => resolveSpec(parseSpec(spec({ network: { switch: { pfcEnabled: true, loadBalancing: 'ecmp' }, transport: { retxMode: 'gbn' } } })), '.'),
    (e: unknown) =>
      e instanceof SpecError &&
      /network\.switch\.pfcEnabled: true — contradicts cc\.name: ndp, which needs network\.switch\.pfcEnabled: false/.test(e.message) &&
      /network\.switch\.loadBalancing: "ecmp" — contradicts cc\.name: ndp/.test(e.message) &&
      /network\.transport\.retxMode: "gbn" — contradicts cc\.name: ndp/.test(e.message),
  );
  // PULLs without the recovery that asks for them
  assert.throws(
    () => resolveSpec(parseSpec(spec({ cc: 'none', network: { switch: { pfcEnabled: false }, transport: { sendDriver: 'ndpPull' } } })), '.'),
    (e: unknown) => e instanceof SpecError && /network\.transport\.sendDriver: "ndpPull" — ndpPull needs network\.transport\.retxMode: trim/.test(e.message),
  );
});

test('the trim policy\'s parameters are checked when a spec is resolved: a spec error names the field', () => {
  assert.throws(
    () => resolveSpec(parseSpec(spec({ cc: 'none', network: { switch: { admission: [{ name: 'trim', params: { thresholdBytes: -1, headerBytes: 5 } }] } } })), '.'),
    (e: unknown) =>
      e instanceof SpecError &&
      /network\.switch\.admission\[0\]\.params\.thresholdBytes: -1 — must be >= 1/.test(e.message) &&
      /network\.switch\.admission\[0\]\.params\.headerQueueBytes: \(missing\)|network\.switch\.admission\[0\]\.params\.headerQueueBytes/.test(e.message) &&
      /network\.switch\.admission\[0\]\.params\.headerBytes: 5 — unknown parameter/.test(e.message),
  );
});

// ------------------------------------------------------------------ Fig 24's NDP claims (hand-written result folders)

test('OSCAR Fig 24 analysis: OSCAR w/ spraying vs NDP, as a gain in % per size group and as a ratio', () => {
  const root = tempDir('ndp-fig24');
  const point = (name: string, cc: string, lb: string, small: number, large: number): PointResult => {
    const dir = join(root, name);
    mkdirSync(dir);
    const rows = ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag', `0,0,1,10000,0,1,1,1,${small},`, `1,0,1,1000000,0,1,1,1,${large},`];
    writeFileSync(join(dir, 'fct.csv'), rows.join('\n') + '\n');
    return { dir, label: name, vars: { 'topology.fabricRate': '400Gbps', 'topology.aggCoreRate': '100Gbps', cc, 'network.switch.loadBalancing': lb } };
  };
  const r = findFigure('oscar-fig24')!.analyze([point('a', 'oscar', 'spray', 1, 2), point('b', 'ndp', 'spray', 4, 4)]);
  const claim = (id: string): number => r.claims.find((c) => c.id === id)!.value;
  // NDP 4 / 4 against OSCAR w/ spraying 1 / 2: small (4-1)/4, large (4-2)/4, all (4-1.5)/4
  assert.equal(claim('fig24.4to1-aggcore.oscar-spray-vs-ndp.small.mean'), 75);
  assert.equal(claim('fig24.4to1-aggcore.oscar-spray-vs-ndp.large.mean'), 50);
  assert.equal(claim('fig24.4to1-aggcore.oscar-spray-vs-ndp.all.ratio'), 4 / 1.5);
  // the published claims name these ids
  const yaml = readFileSync(new URL('../../data/published/oscar.yaml', import.meta.url), 'utf8');
  for (const id of ['fig24.2to1-aggcore.oscar-spray-vs-ndp.small.mean', 'fig24.2to1-aggcore.oscar-spray-vs-ndp.large.mean', 'fig24.4to1-aggcore.oscar-spray-vs-ndp.all.ratio']) {
    assert.ok(yaml.includes(`id: ${id},`), id);
  }
});
