/**
 * The CC interface taking effect (issue 6 item 1): `needs` decides what ACKs
 * echo, ACK coalescing carries cnt and sumInfl, ECN marking and spraying draw
 * from separate random streams, retxMode none accepts reordered packets, and
 * bad CC input is a spec error before anything runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { registerCc } from '../src/cc/registry.js';
import { unmetNeeds, type AckInfo, type CcDefinition, type CcNeeds, type SendInfo } from '../src/cc/types.js';
import { SpecError } from '../src/engine/errors.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import { MIB, US } from '../src/engine/units.js';
import { spineLeafPreset, star } from '../src/net/topology/index.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';
import { tempDir } from './helpers/tmp.js';

interface Seen {
  sendTs: number[];
  rxTs: number[];
  infl: number[];
  sumInfl: number[];
  cnt: number[];
  stamps: Map<number, number>;
}

/** A probe CC (line rate, no window) recording what its ACKs carry; stamps each packet with its seq + 1. */
function probe(name: string, needs: CcNeeds, seen: Seen): CcDefinition {
  return {
    name,
    description: 'test probe',
    reference: 'test',
    params: z.object({}).strict(),
    needs,
    dataHeaderBytes: () => 0,
    ackHeaderBytes: () => 0,
    initialCwnd: () => Infinity,
    create: () => ({
      onSend(s: SendInfo) {
        s.inflightStamp = s.seq + 1;
        seen.stamps.set(s.seq, s.seq + 1);
      },
      onAck(a: AckInfo) {
        if (a.isNack) return;
        seen.sendTs.push(a.sendTsPs);
        seen.rxTs.push(a.rxTsPs);
        seen.infl.push(a.inflightBytes);
        seen.sumInfl.push(a.sumInflightBytes);
        seen.cnt.push(a.ackedPackets);
      },
    }),
  };
}

const newSeen = (): Seen => ({ sendTs: [], rxTs: [], infl: [], sumInfl: [], cnt: [], stamps: new Map() });

/** Registers the probe CC (each probe has its own name, so it stays registered) and runs `fn`. */
function withProbe<T>(def: CcDefinition, fn: () => T): T {
  registerCc(def);
  return fn();
}

function oneFlow(cc: string, ackEvery = 1) {
  const topo = star({ hosts: 2, rateBps: 100e9, delayPs: 1 * US });
  return simulate(input(topo, [{ src: 0, dst: 1, bytes: 20_500, startPs: 0 }], { cc, net: net('oscar', { transport: { ackEvery } }) }));
}

test('needs: send time, receive time and in-flight stamps reach only CCs that declare them', () => {
  const bare = newSeen();
  const full = newSeen();
  withProbe(probe('probe-bare', {}, bare), () => oneFlow('probe-bare'));
  withProbe(probe('probe-full', { ts: true, rxTs: true, inflight: true }, full), () => oneFlow('probe-full'));
  assert.equal(bare.sendTs.length, 21);
  assert.ok(bare.sendTs.every((t) => t === -1) && bare.rxTs.every((t) => t === -1));
  assert.ok(bare.infl.every((v) => v === 0) && bare.sumInfl.every((v) => v === 0));
  // first packet: sent at 0, reaches the receiver after 2 x (84 ns + 1 us), ACKed 2 x (5 ns + 1 us) later (64-B ACK)
  assert.equal(full.sendTs[0], 0);
  assert.equal(full.rxTs[0], 2 * (84_000 + 1 * US));
  assert.deepEqual(full.infl.slice(0, 3), [1, 1001, 2001]);
  assert.deepEqual(full.sumInfl.slice(0, 3), [1, 1001, 2001]);
});

test('ACK coalescing: one ACK per ackEvery packets with cnt and the sum of their in-flight stamps (docs/algorithms.md §2)', () => {
  const s = newSeen();
  withProbe(probe('probe-co', { ts: true, inflight: true }, s), () => oneFlow('probe-co', 4));
  // 21 packets: 5 ACKs of 4 and the last packet's ACK at once
  assert.deepEqual(s.cnt, [4, 4, 4, 4, 4, 1]);
  // the first ACK covers seq 0, 1000, 2000, 3000 (stamps seq + 1) and echoes the send time of the fourth
  assert.equal(s.sumInfl[0], 1 + 1001 + 2001 + 3001);
  assert.equal(s.infl[0], 3001);
  assert.equal(s.sumInfl[5], 20_001);
  const total = s.sumInfl.reduce((a, b) => a + b, 0);
  assert.equal(total, [...s.stamps.values()].reduce((a, b) => a + b, 0));
});

test('ACK coalescing timer: a window below ackEvery packets is acknowledged after ackCoalesceTimeoutPs, echoing the newest packet; without the timer the flow waits for the RTO', () => {
  const topo = star({ hosts: 2, rateBps: 100e9, delayPs: 1 * US });
  const run = (timeoutPs: number) => {
    const s = newSeen();
    // a 2-packet window: each pair of packets gets no ACK of its own under ackEvery 4
    const name = `probe-win-${timeoutPs}`;
    const def = { ...probe(name, { ts: true, inflight: true }, s), initialCwnd: () => 2000 };
    const out = withProbe(def, () =>
      simulate(input(topo, [{ src: 0, dst: 1, bytes: 10_000, startPs: 0 }], { cc: name, net: net('oscar', { transport: { ackEvery: 4, ackCoalesceTimeoutPs: timeoutPs } }) })),
    );
    return { s, out };
  };
  const timed = run(2 * US);
  // five pairs, each flushed by the timer with cnt 2 (the last pair's second packet ends the flow: at once)
  assert.deepEqual(timed.s.cnt, [2, 2, 2, 2, 2]);
  // the first flush echoes the second packet (sent after one 84-ns serialization), not the first
  assert.equal(timed.s.sendTs[0], 84_000);
  assert.equal(timed.s.sumInfl[0], 1 + 1001);
  // first pair: packet 1 reaches the receiver at 2 x (84 ns + 1 us), the timer fires 2 us later,
  // then four more rounds; all well within 50 us
  assert.equal(timed.out.fct.length, 1);
  assert.ok(timed.out.fct[0]!.fctPs < 50 * US, `FCT ${timed.out.fct[0]!.fctPs} ps`);
  // without the timer the first pair is never acknowledged: only the 10-ms retransmission timeout moves the flow
  const untimed = run(0);
  assert.equal(untimed.out.fct.length, 1);
  assert.ok(untimed.out.fct[0]!.fctPs > 10_000 * US);
});

function sprayRun(ecn: boolean, retxMode: 'gbn' | 'none') {
  const topo = spineLeafPreset('spraying44');
  const flows: FlowSpec[] = [];
  for (let i = 0; i < 4; i++) flows.push({ src: i, dst: 4 + i, bytes: 2_000_000, startPs: 0 });
  // cnpMode ackFlag: a CE mark changes no packet size or count, so only the random streams could differ
  const n = net('oscar', {
    switch: { loadBalancing: 'spray', bufferBytes: 100 * MIB, ecn: { enabled: ecn, kminBytes: 1000, kmaxBytes: 50_000, pmax: 0.5 } },
    transport: { cnpMode: 'ackFlag', retxMode },
  });
  return simulate(input(topo, flows, { cc: 'none', net: n }));
}

test('ECN marking and spraying use separate random streams: marking on or off never changes the paths (fidelity fix)', () => {
  const on = sprayRun(true, 'none');
  const off = sprayRun(false, 'none');
  const marked = on.nodes.reduce((a, n) => a + (n.ecnMarked ?? 0), 0);
  assert.ok(marked > 0, 'marks happened');
  const tx = (o: typeof on) => o.ports.map((p) => `${p.node}:${p.port}:${p.txPackets}`).join(',');
  assert.equal(tx(on), tx(off));
  assert.deepEqual(
    on.fct.map((r) => r.finishPs),
    off.fct.map((r) => r.finishPs),
  );
});

test('retxMode none (D-OSCAR spraying runs): reordered packets are buffered, no NACK, no retransmission; go-back-N retransmits', () => {
  const none = sprayRun(false, 'none');
  assert.equal(none.totals.finished, 4);
  assert.equal(none.totals.retransmittedPackets, 0);
  assert.equal(none.totals.dataPacketsSent, 4 * 2000);
  const gbn = sprayRun(false, 'gbn');
  assert.ok(gbn.totals.retransmittedPackets > 0, 'spraying reorders packets');
});

const dir = tempDir('cc-interface');
let k = 0;
function specError(ccYaml: string, extra = ''): string {
  const p = join(dir, `s${k++}.yaml`);
  writeFileSync(
    p,
    `name: x\ntopology: { type: star, hosts: 3, rate: 100Gbps, delay: 1us }\ncc: ${ccYaml}\n${extra}workload:\n  - type: flows\n    flows: [{ src: 0, dst: 2, size: 1MB }]\n`,
  );
  try {
    loadAndResolve(p);
  } catch (e) {
    assert.ok(e instanceof SpecError, `expected a SpecError, got ${String(e)}`);
    return e.message;
  }
  assert.fail('expected a SpecError');
}

test('bad CC input is a spec error naming the field and the value', () => {
  assert.match(specError('{ name: oscar, params: { uAi: 2 } }'), /^cc\.params\.uAi: 2 — /m);
  assert.match(specError('{ name: oscar, params: { tauNs: 0 } }'), /^cc\.params\.tauNs: 0 — /m);
  assert.match(specError('{ name: oscar, params: { targetQueueBytes: -1 } }'), /^cc\.params\.targetQueueBytes: -1 — /m);
  assert.match(specError('{ name: oscar, params: { uMin: 0.5, uMax: 0.2 } }'), /^cc\.params\.uMin: 0\.5 — must be <= uMax/m);
  assert.match(specError('{ name: oscar, params: { target: 3 } }'), /^cc\.params\.target: 3 — unknown key/m);
  // DCQCN needs ECN marking; a profile with marking off cannot run it
  assert.match(specError('dcqcn', 'network: { switch: { ecn: { enabled: false } } }\n'), /^cc: "dcqcn" — .*needs ECN marking, but network\.switch\.ecn\.enabled is false/m);
  const tcd: CcDefinition = { ...probe('probe-tcd', { tcd: true }, newSeen()) };
  assert.equal(unmetNeeds(tcd, net('oscar')).length, 1);
  withProbe(tcd, () => assert.throws(() => oneFlow('probe-tcd'), /needs TCD marks/));
});
