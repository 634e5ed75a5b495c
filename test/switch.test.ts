/**
 * Switch mechanisms in isolation: RED/ECN marking probability, INT stamping,
 * PFC thresholds of the MMU. The egress port is held busy so the test controls
 * exactly which packets are queued when one is dequeued.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../src/engine/scheduler.js';
import { Rng } from '../src/engine/rng.js';
import { NetContext } from '../src/net/context.js';
import { Network } from '../src/net/network.js';
import { ADMITTED, ADMITTED_PAUSE, DROP_HEADROOM, Mmu } from '../src/net/mmu.js';
import { FLAG_CE, FLAG_ECT, INT_QLEN, INT_RATE, INT_TS, INT_TX, PKT_DATA } from '../src/net/packet.js';
import { buildPortMap, computeRoutes, star } from '../src/net/topology/index.js';
import type { NetworkConfig } from '../src/net/config.js';
import { US } from '../src/engine/units.js';
import { net } from './helpers/sim.js';

function rig(cfg: NetworkConfig): { network: Network; ctx: NetContext } {
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
  const ctx = new NetContext(new Scheduler(), cfg.transport.txTimeQuantization);
  const pm = buildPortMap(topo);
  const network = new Network(ctx, topo, cfg, pm, computeRoutes(topo, pm), new Rng(3), { int: true, ecn: true });
  return { network, ctx };
}

function dataPkt(ctx: NetContext, size: number): number {
  const pk = ctx.pool;
  const p = pk.alloc(PKT_DATA);
  pk.setDst(p, 2);
  pk.setSize(p, size);
  pk.setAux(p, size);
  pk.setPrio(p, 1);
  pk.setFlag(p, FLAG_ECT, true);
  return p;
}

function markFraction(cfg: NetworkConfig, queuePkts: number, trials: number): number {
  const { network, ctx } = rig(cfg);
  const sw = network.switches[3]!;
  const out = sw.ports[2]!;
  out.busyUntil = 1e15; // never transmits: the test dequeues by hand
  for (let i = 0; i < queuePkts; i++) sw.receive(dataPkt(ctx, 1000), 0);
  let marked = 0;
  for (let i = 0; i < trials; i++) {
    const p = sw.pull(out);
    if (ctx.pool.has(p, FLAG_CE)) marked++;
    ctx.pool.release(p);
    sw.receive(dataPkt(ctx, 1000), 0);
  }
  return marked / trials;
}

test('ECN marking follows Kmin/Kmax/Pmax (queue including the departing packet, D-OSCAR)', () => {
  const cfg = net('oscar', {
    switch: { mmuHeaderOffset: 0, queueHeaderOffset: 0, ecn: { kminBytes: 10_000, kmaxBytes: 30_000, pmax: 0.2, scaleWithRate: false, comparison: 'includingPacket' } },
  });
  assert.equal(markFraction(cfg, 10, 2000), 0); // n = 10 000 <= kmin
  assert.equal(markFraction(cfg, 30, 2000), 1); // n >= kmax
  const p20 = markFraction(cfg, 20, 40000); // p = 0.2 · 10 000 / 20 000 = 0.1
  assert.ok(Math.abs(p20 - 0.1) < 0.006, `mark fraction ${p20}`);
  const p25 = markFraction(cfg, 25, 40000); // 0.15
  assert.ok(Math.abs(p25 - 0.15) < 0.007, `mark fraction ${p25}`);
});

test('ECN marking on the queue after removal, thresholds scaled by port rate (D-HPCC)', () => {
  // kmin/kmax given at 25 G; the 100 G port scales them by 4
  const cfg = net('hpcc', { switch: { ecn: { kminBytes: 2_500, kmaxBytes: 7_500, pmax: 0.5, scaleWithRate: true, refRateBps: 25e9, comparison: 'afterRemoval' } } });
  assert.equal(markFraction(cfg, 11, 2000), 0); // e = 10 000 = kmin: not above
  assert.equal(markFraction(cfg, 32, 2000), 1); // e = 31 000 > kmax 30 000
  const p = markFraction(cfg, 21, 40000); // e = 20 000: 0.5 · 10 000 / 20 000 = 0.25
  assert.ok(Math.abs(p - 0.25) < 0.008, `mark fraction ${p}`);
});

test('INT hop carries the egress queue state at dequeue', () => {
  for (const profile of ['hpcc', 'oscar'] as const) {
    const cfg = net(profile);
    const { network, ctx } = rig(cfg);
    ctx.sched.now = 7 * US;
    const sw = network.switches[3]!;
    const out = sw.ports[2]!;
    out.busyUntil = 1e15;
    out.txBytes = 123_456;
    const sizes = [1048, 900, 1096, 500];
    for (const s of sizes) sw.receive(dataPkt(ctx, s), 0);
    const p = sw.pull(out);
    const pk = ctx.pool;
    assert.equal(pk.intN(p), 1);
    const a = pk.intArray();
    const b = pk.intBase(p);
    assert.equal(a[b + INT_TS], 7 * US);
    assert.equal(a[b + INT_RATE], 100e9);
    const off = cfg.switch.queueHeaderOffset;
    // total bytes of all queues after removing this packet (less the per-packet header offset in D-OSCAR)
    assert.equal(a[b + INT_QLEN], 900 + 1096 + 500 - 3 * off);
    assert.equal(out.totalBytes, 900 + 1096 + 500);
    // D-HPCC: bytes sent before this packet; D-OSCAR: including it
    assert.equal(a[b + INT_TX], profile === 'hpcc' ? 123_456 : 123_456 + 1048);
    // the next packet sees the queue after both removals
    const q = sw.pull(out);
    assert.equal(pk.intArray()[pk.intBase(q) + INT_QLEN], 1096 + 500 - 2 * off);
  }
});

test('MMU: pause at the dynamic threshold, resume a resume-offset below it, nothing dropped while headroom lasts', () => {
  const cfg = net('oscar').switch;
  const mmu = new Mmu(cfg, [100e9, 100e9], [1 * US, 1 * US], 100e9);
  const pool = mmu.sharedPoolBytes();
  // D-OSCAR: 32 MiB + 2·37 500·6 − 8·(2·4096 + 2·37 500)
  assert.equal(pool, 33_554_432 + 2 * 37_500 * 6 - 8 * (2 * 4096 + 2 * 37_500));
  // enqueue = admission + pause check; dequeue = release + resume check
  let n = 0;
  let r: number;
  while ((r = mmu.enqueue(0, 0, 1000)) === ADMITTED) n++;
  assert.equal(r, ADMITTED_PAUSE);
  n++;
  // pause when the shared part exceeds (pool − shared)/4, i.e. just above pool/5
  const shared = n * 1000 - 4096;
  assert.ok(shared > pool / 5 && shared <= pool / 5 + 1000 + 1, `paused at shared ${shared}, pool/5 = ${pool / 5}`);
  // headroom absorbs in-flight packets after the pause, up to 3·rate·delay/8 per queue; then drops
  let absorbed = 0;
  while ((r = mmu.enqueue(0, 0, 1000)) === ADMITTED) absorbed++;
  assert.equal(r, DROP_HEADROOM);
  assert.equal(absorbed, Math.floor(37_500 / 1000));
  // drain: resume only after headroom is empty and the queue fell below threshold − 3 KiB
  let drained = 1;
  while (!mmu.dequeue(0, 0, 1000)) drained++;
  assert.ok(drained > absorbed, 'headroom drains first');
  assert.ok(mmu.threshold(0) - (mmu.ingressBytes(0, 0) - 4096) >= 3 * 1024);
});
