/**
 * BFC, Backpressure Flow Control (Goyal et al., NSDI'22; src/net/bfc.ts,
 * docs/network-model.md §11.9), the comparison point and substrate of OSCAR
 * App. C.2: the flow-to-queue assignment, the pause and resume thresholds, the
 * lossless incast without PFC, and per-flow backpressure that leaves a victim
 * flow through the same port alone where PFC with the same thresholds blocks it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation, simulate } from '../src/sim/simulate.js';
import { dumbbell, star } from '../src/net/topology/index.js';
import { FLAG_BFC, FLAG_PAUSE, NIL, PKT_ACK, PKT_DATA } from '../src/net/packet.js';
import { bfcConfig } from '../src/net/bfc.js';
import { BfcPausedDriver } from '../src/transport/bfc-pause.js';
import type { SendDriver } from '../src/transport/send-driver.js';
import type { Flow } from '../src/transport/flow.js';
import type { NetworkConfig } from '../src/net/config.js';
import { US } from '../src/engine/units.js';
import { input, net, type DeepPartial } from './helpers/sim.js';
import { specErrorOf } from './helpers/specs.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';

const bfcNet = (bfc: DeepPartial<NetworkConfig['switch']>['bfc'], over: DeepPartial<NetworkConfig['switch']> = {}): NetworkConfig =>
  net('oscar', { switch: { pfcEnabled: false, ...over, bfc } });

// ------------------------------------------------------------------ a BFC switch by hand

/** The switch of a 3-host star (hosts 0, 1 send to host 2); its port toward host 2 held busy. */
function rig(queues: number, pauseBytes = 0, flowTableSize = 1024) {
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
  const sim = new Simulation(input(topo, [], { net: bfcNet({ queues, flowTableSize, ...(pauseBytes > 0 ? { pauseBytes } : {}) }) }));
  const sw = sim.network.switches[3]!;
  const out = sw.ports[2]!;
  // every port held busy: frames and packets stay queued where the test looks at them
  for (const p of sw.ports) p.busyUntil = Number.MAX_SAFE_INTEGER;
  const pk = sim.ctx.pool;
  return {
    sim,
    sw,
    out,
    pk,
    bfc: sw.bfc!,
    /** a 1000-B packet of flow (`hash`) from host `from` to host 2 */
    arrive(hash: number, from = 0, type = PKT_DATA, flow = hash): number {
      const p = pk.alloc(type);
      pk.setDst(p, 2);
      pk.setSize(p, 1000);
      pk.setAux(p, 900);
      pk.setHash(p, hash);
      pk.setFlow(p, flow);
      sw.arrivals.receive(p, from);
      return p;
    },
    /** the BFC frames waiting in ingress port `from`'s control FIFO, as 'pause:<flow>' / 'resume:<flow>' */
    frames(from = 0): string[] {
      const port = sw.ports[from]!;
      const seen: string[] = [];
      // (nothing else goes toward the senders: only control frames are queued there)
      for (let f = port.dequeue(); f !== NIL; f = port.dequeue()) {
        assert.equal(port.lastQueue, -1);
        assert.ok(pk.has(f, FLAG_BFC));
        seen.push(`${pk.has(f, FLAG_PAUSE) ? 'pause' : 'resume'}:${pk.flow(f)}`);
        pk.release(f);
      }
      return seen;
    },
    /** one packet out of the port toward host 2: its hash */
    serve(): number {
      const p = sw.pull(out);
      if (p === NIL) return NIL;
      const h = pk.hash(p);
      pk.release(p);
      return h;
    },
  };
}

test('queue assignment: a new flow takes the lowest empty queue, shares a hashed one when none is empty, and keeps it while it has packets', () => {
  const r = rig(4);
  for (const h of [10, 11, 12, 13]) r.arrive(h);
  assert.deepEqual([10, 11, 12, 13].map((h) => r.bfc.queueOf(r.out, h)), [0, 1, 2, 3], 'the lowest empty queue, in arrival order');
  r.arrive(10);
  assert.equal(r.bfc.queueOf(r.out, 10), 0, 'a second packet joins its flow queue');
  r.arrive(102);
  assert.equal(r.bfc.queueOf(r.out, 102), 102 % 4, 'no empty queue: hashed onto one (queue sharing)');
  assert.equal(r.out.queuePkts(r.bfc.cls), 6, 'the class counts every packet');
  assert.equal(r.out.queueBytes(r.bfc.cls), 6000);
  // round robin over the physical queues: one packet of each flow queue in turn
  assert.deepEqual([r.serve(), r.serve(), r.serve(), r.serve()], [10, 11, 12, 13]);
  assert.equal(r.bfc.queueOf(r.out, 11), -1, 'flow 11 has no packet left: its entry is gone');
  r.arrive(20);
  assert.equal(r.bfc.queueOf(r.out, 20), 1, 'and its queue is empty again for a new flow');
  assert.deepEqual([r.serve(), r.serve(), r.serve(), r.serve()], [10, 20, 102, NIL], 'round robin on from queue 0');
  assert.equal(r.out.totalPkts, 0);
  assert.equal(r.out.totalBytes, 0);
});

test('pause and resume thresholds: a flow is paused upstream when its queue exceeds the threshold, resumed when it drains to it', () => {
  const r = rig(8, 3500);
  assert.equal(r.bfc.pauseBytes[2], 3500);
  for (let i = 0; i < 3; i++) r.arrive(7);
  assert.deepEqual(r.frames(), [], '3000 B: at or below the threshold, no pause');
  r.arrive(7);
  assert.deepEqual(r.frames(), ['pause:7'], '4000 B > 3500 B: the flow is paused at its upstream, once');
  r.arrive(7);
  r.arrive(9, 1);
  r.arrive(9, 1);
  assert.deepEqual(r.frames(), [], 'already paused: no second frame');
  assert.deepEqual(r.frames(1), [], 'flow 9 in its own queue (2000 B) is not paused');
  assert.deepEqual([r.serve(), r.serve()], [7, 9], 'round robin between the two flow queues');
  assert.deepEqual(r.frames(), [], '4000 B left in flow 7 queue: still paused');
  assert.equal(r.serve(), 7);
  assert.deepEqual(r.frames(), ['resume:7'], 'flow 7 queue drained to 3000 B: resumed');
  assert.equal(r.bfc.pausesSent, 1);
  assert.equal(r.bfc.resumesSent, 1);
});

test('two flows colliding in the flow table, arriving on two ingress ports, are both paused, each toward its own upstream', () => {
  // issue 42: the pause state sat in the flow-table entry and went out of the first flow's ingress only
  const r = rig(8, 3500, 4);
  for (let i = 0; i < 4; i++) r.arrive(5, 0);
  assert.deepEqual(r.frames(0), ['pause:5'], '4000 B > 3500 B: flow 5 paused at its upstream (port 0)');
  r.arrive(9, 1);
  assert.equal(r.bfc.queueOf(r.out, 9), r.bfc.queueOf(r.out, 5), 'FIDs 5 and 9 collide in a 4-entry table: one entry, one queue');
  assert.deepEqual(r.frames(1), ['pause:9'], 'flow 9 joins the queue above the threshold: paused at its own upstream (port 1)');
  r.arrive(9, 1);
  r.arrive(5, 0);
  assert.deepEqual([...r.frames(0), ...r.frames(1)], [], 'each is paused once');
  assert.deepEqual(r.bfc.pausedBy(r.out, r.bfc.queueOf(r.out, 5)).sort(), ['5@0', '9@1']);
  for (let i = 0; i < 3; i++) r.serve();
  assert.deepEqual([...r.frames(0), ...r.frames(1)], [], '4000 B left: both still paused');
  r.serve();
  assert.deepEqual([r.frames(0), r.frames(1)], [['resume:5'], ['resume:9']], 'drained to 3000 B: both resumed');
  assert.equal(r.bfc.pausesSent, 2);
  assert.equal(r.bfc.resumesSent, 2);
});

test('flows sharing a physical queue (no empty queue left) are each paused when it is above the threshold', () => {
  const r = rig(2, 3500);
  r.arrive(10);
  r.arrive(11);
  r.arrive(12);
  assert.equal(r.bfc.queueOf(r.out, 12), r.bfc.queueOf(r.out, 10), 'no empty queue: flow 12 shares flow 10\'s');
  assert.equal(r.bfc.sharedAssignments, 1);
  assert.equal(r.bfc.maxQueuesInUse, 2);
  for (let i = 0; i < 3; i++) r.arrive(10);
  assert.deepEqual(r.frames(), ['pause:10']);
  r.arrive(12);
  assert.deepEqual(r.frames(), ['pause:12'], 'the other flow of the shared queue is paused too');
  assert.deepEqual(r.bfc.pausedBy(r.out, 1), [], 'flow 11 in its own queue (1000 B) is not');
});

test('upstream side: pauses are counted, so a queue paused for two colliding flows waits until both are resumed', () => {
  const r = rig(4, 0, 4);
  r.bfc.onFrame(r.out, 5, true);
  r.bfc.onFrame(r.out, 9, true);
  const q = r.bfc.queueOf(r.out, 5);
  assert.equal(r.bfc.queueOf(r.out, 9), q, 'one entry, one queue');
  r.arrive(5);
  assert.equal(r.serve(), NIL);
  r.bfc.onFrame(r.out, 5, false);
  assert.ok(r.bfc.isPaused(r.out, q), 'flow 9 is still paused downstream: the queue waits');
  assert.equal(r.serve(), NIL);
  r.bfc.onFrame(r.out, 9, false);
  assert.ok(!r.bfc.isPaused(r.out, q));
  assert.equal(r.serve(), 5);
  assert.equal(r.bfc.queueOf(r.out, 5), -1, 'no packet and no pause left: the entry is freed');
  r.bfc.onFrame(r.out, 5, false);
  assert.ok(!r.bfc.isPaused(r.out, q), 'a resume without a pause changes nothing');
});

test('host side: a flow paused by two queues of the first switch sends again only when both resumed it', () => {
  const inner = { name: 'window', carriesGrants: false, onStart: () => {}, mayPut: () => true, grant: () => 0, onGrant: () => {} } as unknown as SendDriver;
  const d = new BfcPausedDriver(inner);
  const f = { id: 3 } as Flow;
  assert.equal(d.set(f, true), true, 'paused');
  assert.equal(d.set(f, true), false, 'a second pause: still paused');
  assert.equal(d.set(f, false), false, 'one resume of two');
  assert.equal(d.mayPut(f), false);
  assert.equal(d.set(f, false), true, 'both resumed');
  assert.equal(d.mayPut(f), true);
  assert.equal(d.set(f, false), false);
  assert.equal(d.pausesOf(3), 2);
});

test('an ACK flow never pauses its upstream, whatever its queue', () => {
  const r = rig(4, 1500);
  for (let i = 0; i < 5; i++) r.arrive(5, 0, PKT_ACK);
  assert.deepEqual(r.frames(), []);
});

test('upstream side: a pause frame pauses the queue of that flow only; the class waits only when every non-empty queue is paused', () => {
  const r = rig(4);
  r.out.busyUntil = 0;
  r.arrive(1); // flow 1 goes straight out through the idle port (the gate path: queued, then sent)
  r.out.busyUntil = Number.MAX_SAFE_INTEGER;
  r.arrive(1);
  r.arrive(2);
  const q1 = r.bfc.queueOf(r.out, 1);
  r.bfc.onFrame(r.out, 1, true);
  assert.ok(r.bfc.isPaused(r.out, q1));
  assert.ok(!r.bfc.isPaused(r.out, r.bfc.queueOf(r.out, 2)));
  assert.equal(r.serve(), 2, 'flow 2 goes on');
  assert.equal(r.serve(), NIL, 'flow 1 waits: the class is blocked');
  r.bfc.onFrame(r.out, 1, false);
  assert.equal(r.serve(), 1, 'resumed');
  r.bfc.onFrame(r.out, 3, true);
  const q3 = r.bfc.queueOf(r.out, 3);
  assert.ok(q3 >= 0 && r.bfc.isPaused(r.out, q3), 'a pause for a flow with no packets here gives it a (paused) queue');
  r.arrive(3);
  assert.equal(r.serve(), NIL, 'its next packet waits in it');
  r.bfc.onFrame(r.out, 3, false);
  assert.equal(r.serve(), 3);
});

// ------------------------------------------------------------------ whole runs

test('16:1 incast into one port under BFC with PFC off: nothing is lost and the buffer is never exceeded (without BFC it drops)', () => {
  const topo = star({ hosts: 17, rateBps: 100e9, delayPs: 1 * US });
  const flows = Array.from({ length: 16 }, (_, i) => ({ src: i, dst: 16, bytes: 1_000_000, startPs: 0 }));
  const buffer = 2_000_000;
  const run = (bfc: boolean) => {
    const cfg = bfc ? bfcNet({ queues: 32 }, { bufferBytes: buffer }) : net('oscar', { switch: { pfcEnabled: false, bufferBytes: buffer } });
    const sim = new Simulation(input(topo, flows, { net: cfg }));
    sim.runUntil(Infinity);
    return { sim, out: sim.finish() };
  };
  const { sim, out } = run(true);
  assert.equal(out.totals.finished, 16);
  assert.equal(out.totals.drops, 0, 'lossless without PFC');
  assert.equal(out.totals.retransmittedPackets, 0);
  const sw = sim.network.switches[17]!;
  assert.ok(sw.ports[16]!.maxQueueBytes <= buffer, `peak ${sw.ports[16]!.maxQueueBytes} B <= ${buffer} B`);
  assert.ok(sw.bfc!.pausesSent > 0 && sw.bfc!.resumesSent === sw.bfc!.pausesSent, 'the hosts were paused and every pause was lifted');
  // each flow's queue stays near one hop BDP (25 kB at 100 G, 2 us): a pause takes a hop to act
  assert.ok(sw.bfc!.maxQueueBytes < 2.5 * sw.bfc!.pauseBytes[16]!, `largest queue ${sw.bfc!.maxQueueBytes} B`);
  assert.ok(out.endPs < 1.1 * ((16 * 1_000_000 * 8) / 100e9) * 1e12, 'the receiver link stays busy');
  const lossy = run(false).out;
  assert.ok(lossy.totals.drops > 0, 'the same buffer without BFC drops');
});

test('incasts whose flows all collide in a one-entry flow table drop nothing without PFC, at one switch and across two (they overflow without BFC)', () => {
  // issue 42: with the pause state in the shared entry only the first flow was paused and the rest overflowed the buffer
  const buffer = 1_000_000;
  const bfc = bfcNet({ queues: 32, flowTableSize: 1 }, { bufferBytes: buffer });
  const lossy = net('oscar', { switch: { pfcEnabled: false, bufferBytes: buffer } });
  const one = star({ hosts: 17, rateBps: 100e9, delayPs: 1 * US });
  const oneFlows = Array.from({ length: 16 }, (_, i) => ({ src: i, dst: 16, bytes: 500_000, startPs: 0 }));
  // switch A (hosts 0-8) - 400 G - switch B (hosts 9, 10): 8 flows into host 9 and one into host 10
  const two = dumbbell({ left: 9, right: 2, hostRateBps: 100e9, bottleneckRateBps: 400e9, delayPs: 1 * US });
  const twoFlows = Array.from({ length: 9 }, (_, i) => ({ src: i, dst: i === 8 ? 10 : 9, bytes: 1_000_000, startPs: 0 }));
  for (const [name, topo, flows] of [['star', one, oneFlows], ['two switches', two, twoFlows]] as const) {
    const out = simulate(input(topo, flows, { net: bfc }));
    assert.equal(out.totals.finished, flows.length, name);
    assert.equal(out.totals.drops, 0, `${name}: nothing dropped`);
    assert.ok((out.totals.bfcPauses ?? 0) > flows.length, `${name}: every flow paused (${out.totals.bfcPauses} pauses)`);
    assert.ok(simulate(input(topo, flows, { net: lossy })).totals.drops > 0, `${name}: the same buffer without BFC drops`);
  }
});

test('32 and 128 queues differ once more than 32 flows are queued at a port: a short flow shares a queue (head-of-line) under BFC-32 only', () => {
  // 48 long flows into host 50 fill every queue of BFC-32; a 20 KB flow from host 48 arrives 30 us later
  const topo = star({ hosts: 51, rateBps: 100e9, delayPs: 1 * US });
  const flows = Array.from({ length: 48 }, (_, i) => ({ src: i, dst: 50, bytes: 1_000_000, startPs: 0 }));
  flows.push({ src: 48, dst: 50, bytes: 20_000, startPs: 30 * US });
  const run = (queues: number) => simulate(input(topo, flows, { net: bfcNet({ queues }) }));
  const b32 = run(32);
  const b128 = run(128);
  for (const o of [b32, b128]) {
    assert.equal(o.totals.finished, 49);
    assert.equal(o.totals.drops, 0);
  }
  assert.equal(b32.totals.bfcMaxQueuesInUse, 32);
  assert.ok(b32.totals.bfcSharedAssignments! > 0, 'BFC-32: flows share queues');
  assert.equal(b128.totals.bfcSharedAssignments, 0, 'BFC-128: every flow has its own queue');
  assert.ok(b128.totals.bfcMaxQueuesInUse! > 32, `BFC-128: ${b128.totals.bfcMaxQueuesInUse} queues in use at once`);
  const short = (o: typeof b32): number => o.fct.find((f) => f.id === 48)!.fctPs;
  assert.ok(short(b32) > 1.3 * short(b128), `short flow ${(short(b32) / 1e6).toFixed(1)} us under BFC-32, ${(short(b128) / 1e6).toFixed(1)} us under BFC-128`);
  assert.notDeepEqual(
    b32.fct.map((f) => f.fctPs),
    b128.fct.map((f) => f.fctPs),
  );
});

test('BFC pauses only the queues of the congested flows: a victim through the same port keeps its rate; PFC with the same threshold blocks it', () => {
  // switch A (hosts 0-8) - 400 G - switch B (hosts 9, 10): 8 flows into host 9 congest B's port to it;
  // the victim (host 8 to host 10) shares the A-B link and A's port toward B
  const topo = dumbbell({ left: 9, right: 2, hostRateBps: 100e9, bottleneckRateBps: 400e9, delayPs: 1 * US });
  const flows = Array.from({ length: 8 }, (_, i) => ({ src: i, dst: 9, bytes: 2_000_000, startPs: 0 }));
  flows.push({ src: 8, dst: 10, bytes: 2_000_000, startPs: 20 * US });
  const run = (cfg: NetworkConfig) => {
    const sim = new Simulation(input(topo, flows, { net: cfg }));
    sim.runUntil(Infinity);
    return { sim, out: sim.finish() };
  };
  const b = run(bfcNet({ queues: 32, pauseBytes: 50_000 }));
  assert.equal(b.out.totals.finished, 9);
  assert.equal(b.out.totals.drops, 0);
  const victim = b.out.fct.find((f) => f.id === 8)!;
  assert.ok(victim.slowdown < 1.1, `victim slowdown ${victim.slowdown.toFixed(3)} under BFC`);
  const hostPause = b.sim.transport.bfcPause!;
  assert.equal(hostPause.pausesOf(8), 0, 'the victim is never paused at its host');
  for (let i = 0; i < 8; i++) assert.ok(hostPause.pausesOf(i) > 0, `incast flow ${i} paused at its host`);
  const swB = b.sim.network.switches[12]!;
  assert.ok(swB.bfc!.pausesSent > 0, 'B paused the incast flows at A (per flow)');
  // PFC with BFC's threshold as a static Xoff: the whole class on A -> B is paused, the victim with it
  const p = run(net('oscar', { switch: { dtMode: 'static', staticThresholdBytes: 50_000, resumeOffsetBytes: 0 } }));
  const pv = p.out.fct.find((f) => f.id === 8)!;
  assert.equal(p.out.totals.drops, 0);
  assert.ok(pv.slowdown > 3, `victim slowdown ${pv.slowdown.toFixed(2)} under PFC (head-of-line blocking)`);
});

test('BFC costs nothing when off and the same run is deterministic when on', () => {
  const topo = star({ hosts: 5, rateBps: 100e9, delayPs: 1 * US });
  const flows = Array.from({ length: 4 }, (_, i) => ({ src: i, dst: 4, bytes: 200_000, startPs: i * 1000 }));
  const sim = new Simulation(input(topo, flows));
  assert.equal(sim.network.switches[5]!.bfc, null);
  assert.equal(sim.network.switches[5]!.ports[0]!.splitCls, -1);
  const a = simulate(input(topo, flows, { net: bfcNet({ queues: 32 }) }));
  const b = simulate(input(topo, flows, { net: bfcNet({ queues: 32 }) }));
  assert.deepEqual(a.fct, b.fct);
  assert.equal(a.events, b.events);
});

test('BFC queue counts the port cannot hold are spec errors naming the field and value', () => {
  const spec = (bfc: Record<string, unknown>): unknown => ({
    name: 'bfc-bad',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    network: { switch: { pfcEnabled: false, bfc } },
    cc: 'none',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 2, size: '10KB' }] }],
  });
  const resolve = (raw: unknown) => resolveSpec(parseSpec(raw), '.', {}, { raw });
  for (const q of [256, 0, 33.5]) {
    const m = specErrorOf(() => resolve(spec({ queues: q })));
    assert.match(m, /network\.switch\.bfc\.queues/);
    assert.match(m, new RegExp(String(q).replace('.', '\\.')));
  }
  assert.match(specErrorOf(() => resolve(spec({ queues: 32, flowTableSize: 1000 }))), /flowTableSize.*1000.*power of two/s);
  assert.throws(() => bfcConfig({ queues: 129 }), /switch\.bfc\.queues: 129/);
  const hpcc = (bfc: Record<string, unknown>): unknown => ({ ...(spec(bfc) as object), profile: 'hpcc' });
  assert.match(specErrorOf(() => resolve(hpcc({ queues: 32, cls: 0 }))), /network\.switch\.bfc\.cls: 0 — the control queue/);
  assert.equal(resolve(hpcc({ queues: 32 })).net.transport.dataPriority, 3, 'D-HPCC: BFC splits data class 3');
  assert.equal(resolve(spec({ queues: 128 })).net.switch.bfc!.queues, 128);
});
