/**
 * Switch MMUs in isolation (docs/network-model.md §11.2): the D-PowerTCP "sonic" MMU
 * (dtMode 'alpha', pool layouts ptWorkload and ptBurst) and a regression check
 * that the D-HPCC / D-OSCAR / static MMU pauses where it did before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ADMITTED,
  ADMITTED_PAUSE,
  createMmu,
  DROP_EGRESS_THRESHOLD,
  DROP_HEADROOM,
  DROP_INGRESS_POOL,
  DROP_LOSSY,
  DROP_REASONS,
  Mmu,
  PASSED,
  PowerTcpMmu,
  PT_BURST_ALPHA_EGRESS,
} from '../src/net/mmu.js';
import { buildPortMap, fatTreePreset } from '../src/net/topology/index.js';
import type { SwitchConfig } from '../src/net/config.js';
import { MIB, US } from '../src/engine/units.js';
import { parseSpec } from '../src/experiment/spec/resolve.js';
import { SpecError } from '../src/engine/errors.js';
import { net, type DeepPartial } from './helpers/sim.js';
import { Rng } from '../src/engine/rng.js';

const B = 4 * MIB; // [P] BUFFER_SIZE 4

/** D-PowerTCP switch config: the hpcc profile with dtMode alpha and a 4 MiB buffer. */
function ptCfg(over: DeepPartial<SwitchConfig> = {}): SwitchConfig {
  return net('hpcc', { switch: { dtMode: 'alpha', bufferBytes: B, ...over } }).switch;
}

/** Two 100 G, 1 µs ports: xoff 37 500 B per queue, xoffTotal 2·8·37 500 = 600 000 B. */
function twoPorts(over: DeepPartial<SwitchConfig> = {}): PowerTcpMmu {
  return new PowerTcpMmu(ptCfg(over), [100e9, 100e9], [1 * US, 1 * US]);
}

test('drop reasons: the new ones are appended, the existing indices kept', () => {
  assert.deepEqual(DROP_REASONS, ['ingressHeadroom', 'buffer', 'lossyTail', 'ingressPool', 'egressThreshold', 'egressPool']);
  assert.equal(DROP_REASONS[DROP_HEADROOM], 'ingressHeadroom');
  assert.equal(DROP_REASONS[DROP_LOSSY], 'lossyTail');
  assert.equal(DROP_REASONS[DROP_INGRESS_POOL], 'ingressPool');
  assert.equal(DROP_REASONS[DROP_EGRESS_THRESHOLD], 'egressThreshold');
});

test('topology-256 fixture: headroom per queue, xoffTotal and ingressPool per switch layer (ptWorkload)', () => {
  const topo = fatTreePreset('powertcp256');
  const pm = buildPortMap(topo);
  const expected: Record<string, { count: number; xoffTotal: number; ingressPool: number; headrooms: number[] }> = {
    tor: { count: 8, xoffTotal: 3_000_000, ingressPool: 1_194_304, headrooms: [9375, 37_500] },
    agg: { count: 8, xoffTotal: 3_600_000, ingressPool: 594_304, headrooms: [37_500, 187_500] },
    core: { count: 4, xoffTotal: 6_000_000, ingressPool: B - 6_000_000, headrooms: [187_500] },
  };
  const seen: Record<string, number> = { tor: 0, agg: 0, core: 0 };
  const cfg = ptCfg();
  for (const node of topo.nodes) {
    if (node.kind !== 'switch') continue;
    const rates: number[] = [];
    const delays: number[] = [];
    for (let i = pm.portStart[node.id]!; i < pm.portStart[node.id + 1]!; i++) {
      const l = topo.links[pm.link[i]!]!;
      rates.push(l.rateBps);
      delays.push(l.delayPs);
    }
    const e = expected[node.layer];
    assert.ok(e !== undefined, `unexpected layer ${node.layer}`);
    seen[node.layer]!++;
    const mmu = createMmu(cfg, rates, delays, 25e9);
    assert.ok(mmu instanceof PowerTcpMmu);
    assert.equal(mmu.xoffTotal, e.xoffTotal, `${node.name} xoffTotal`);
    assert.equal(mmu.ingressPool, e.ingressPool, `${node.name} ingressPool`);
    assert.equal(mmu.bufferPool, B);
    assert.equal(mmu.egressPool, B);
    assert.equal(mmu.alphaEgress, 1);
    const hs = [...new Set(rates.map((_, p) => mmu.headroomOf(p)))].sort((a, b) => a - b);
    assert.deepEqual(hs, e.headrooms, `${node.name} headroom per queue`);
    if (node.layer === 'core') {
      // the uint64 pool wraps in [P]: T is effectively infinite, cores never pause
      assert.equal(mmu.threshold(0), Infinity);
      let admitted = 0;
      let r: number;
      while ((r = mmu.enqueue(0, 3, 1000)) === ADMITTED) admitted++;
      assert.equal(r, DROP_INGRESS_POOL, 'the only limit is ingressPool + xoffTotal = B');
      assert.equal(admitted, Math.floor(B / 1000));
      assert.equal(mmu.headroomBytes(0, 3), 0);
      assert.equal(mmu.upstreamPaused[3], 0);
      assert.equal(mmu.stillCongested(0, 3), false);
    } else {
      assert.ok(mmu.threshold(0) > 0 && Number.isFinite(mmu.threshold(0)));
    }
  }
  assert.deepEqual(seen, { tor: 8, agg: 8, core: 4 });
});

test('alpha: pause on the first headroom byte, at ingress > alpha·(ingressPool − shared) with the packet counted', () => {
  const mmu = twoPorts();
  const pool = B - 600_000;
  assert.equal(mmu.ingressPool, pool);
  // first k with k·1000 > floor((pool − k·1000)/8): 9k·1000 > pool → k = 400 (3 594 304 / 9000 = 399.4)
  let k = 0;
  let r = ADMITTED;
  while (r === ADMITTED) {
    r = mmu.enqueue(0, 3, 1000);
    k++;
    if (r === ADMITTED) assert.equal(mmu.headroomBytes(0, 3), 0, 'below the threshold nothing is in headroom');
  }
  assert.equal(r, ADMITTED_PAUSE);
  assert.equal(k, 400);
  assert.equal(mmu.headroomBytes(0, 3), 1000, 'the pausing packet is the first headroom packet');
  assert.equal(mmu.ingressBytes(0, 3), 400_000, 'ingress counts headroom too');
  assert.equal(mmu.xoffTotalUsed, 1000);
  assert.equal(mmu.upstreamPaused[3], 1);
  // 399 packets: 399 000 <= floor((pool − 399 000)/8) = 399 413
  assert.equal(Math.floor((pool - 399_000) / 8), 399_413);
  // later headroom packets do not pause again; headroom per queue is 37 500 B
  let absorbed = 0;
  while ((r = mmu.enqueue(0, 3, 1000)) === ADMITTED) absorbed++;
  assert.equal(r, DROP_HEADROOM);
  assert.equal(absorbed, 36, 'hdrm + size <= 37 500 → 37 headroom packets in all');
  assert.equal(mmu.headroomBytes(0, 3), 37_000);
  assert.equal(mmu.dropsByReason[DROP_HEADROOM], 1);
  assert.equal(mmu.stillCongested(0, 3), true);
});

test('alpha: headroom is sticky — once in use, every arrival goes to headroom until it drains', () => {
  const mmu = twoPorts();
  const pool = B - 600_000;
  // another ingress queue holds 300 KB of the shared pool (below its own threshold)
  for (let i = 0; i < 300; i++) assert.equal(mmu.enqueue(1, 4, 1000, 0), ADMITTED);
  // (0,3) now enters headroom at 9k·1000 > pool − 300 000 → k = 367
  let k = 0;
  while (mmu.enqueue(0, 3, 1000, 1) === ADMITTED) k++;
  assert.equal(k + 1, 367);
  assert.equal(mmu.headroomBytes(0, 3), 1000);
  // the other queue drains completely: the threshold rises far above (0,3)
  for (let i = 0; i < 300; i++) assert.equal(mmu.dequeue(1, 4, 1000, 0), false);
  assert.equal(mmu.egressPoolUsed, 367_000);
  const t = mmu.threshold(0);
  assert.equal(t, Math.floor((pool - 366_000) / 8));
  assert.ok(mmu.ingressBytes(0, 3) + 1000 <= t - 30_000, 'the next packet would fit under the threshold');
  // ... but it still goes to headroom (D-HPCC would re-evaluate and charge it to the shared part)
  assert.equal(mmu.enqueue(0, 3, 1000, 1), ADMITTED);
  assert.equal(mmu.headroomBytes(0, 3), 2000);
  assert.equal(mmu.xoffTotalUsed, 2000);
  // dequeues take from headroom first; once it is empty (and the queue is a resume offset under T) it resumes
  assert.equal(mmu.dequeue(0, 3, 1000, 1), false);
  assert.equal(mmu.headroomBytes(0, 3), 1000);
  assert.equal(mmu.dequeue(0, 3, 1000, 1), true);
  assert.equal(mmu.headroomBytes(0, 3), 0);
  assert.equal(mmu.upstreamPaused[3], 0);
  // with headroom empty and the queue under the threshold, arrivals go to the shared part again
  assert.equal(mmu.enqueue(0, 3, 1000, 1), ADMITTED);
  assert.equal(mmu.headroomBytes(0, 3), 0);
  assert.equal(mmu.ingressBytes(0, 3), 367_000);
});

test('alpha: resume needs empty headroom and ingress + xonOffset <= T (or ingress < xon)', () => {
  const mmu = twoPorts();
  const pool = B - 600_000;
  for (let i = 0; i < 399; i++) assert.equal(mmu.enqueue(0, 3, 1000), ADMITTED);
  assert.equal(mmu.enqueue(0, 3, 1000), ADMITTED_PAUSE);
  for (let i = 0; i < 9; i++) assert.equal(mmu.enqueue(0, 3, 1000), ADMITTED);
  assert.equal(mmu.headroomBytes(0, 3), 10_000);
  assert.equal(mmu.ingressBytes(0, 3), 409_000);
  const resumedAt: number[] = [];
  for (let d = 1; d <= 20; d++) {
    if (mmu.dequeue(0, 3, 1000)) resumedAt.push(d);
    if (d === 10) {
      // headroom empty, but 399 000 + 2496 > T = floor((pool − 399 000)/8) = 399 413
      assert.equal(mmu.headroomBytes(0, 3), 0);
      assert.equal(mmu.upstreamPaused[3], 1);
      assert.equal(mmu.stillCongested(0, 3), true);
    }
    if (d === 11) assert.ok(398_000 + 2496 > Math.floor((pool - 398_000) / 8));
    if (d === 12) assert.ok(397_000 + 2496 <= Math.floor((pool - 397_000) / 8));
  }
  assert.deepEqual(resumedAt, [12], 'one resume, at the first dequeue with ingress + 2496 <= T');
  assert.equal(mmu.stillCongested(0, 3), false);

  // xon branch: a tiny ingress pool (8 000 B) so that T stays below ingress + xonOffset
  const small = new PowerTcpMmu(ptCfg({ bufferBytes: 600_000 + 8000 }), [100e9, 100e9], [1 * US, 1 * US]);
  assert.equal(small.ingressPool, 8000);
  assert.equal(small.enqueue(0, 3, 800), ADMITTED); // 800 <= floor(7200/8) = 900
  assert.equal(small.enqueue(0, 3, 200), ADMITTED_PAUSE); // 1000 > floor(7000/8) = 875
  assert.equal(small.headroomBytes(0, 3), 200);
  assert.equal(small.dequeue(0, 3, 800), true, 'headroom 0 and ingress 200 < xon 1248');
  assert.ok(200 + 2496 > small.threshold(0));
  // a larger xon offset or a smaller xon keeps it paused
  const strict = new PowerTcpMmu(ptCfg({ bufferBytes: 600_000 + 8000, xonBytes: 100 }), [100e9, 100e9], [1 * US, 1 * US]);
  strict.enqueue(0, 3, 800);
  assert.equal(strict.enqueue(0, 3, 200), ADMITTED_PAUSE);
  assert.equal(strict.dequeue(0, 3, 800), false);
  assert.equal(strict.dequeue(0, 3, 200), true, 'ingress 0 < xon 100');
});

/** 16 ports, 100 G, 10 ns: xoff 375 B per queue, xoffTotal 48 000 B. Ports 0..14 send to port 15, queue 3, round robin. */
function fillOneEgressQueue(mmu: PowerTcpMmu): { reason: number; admitted: number } {
  for (let i = 0; ; i++) {
    const r = mmu.enqueue(i % 15, 3, 1000, 15);
    if (r >= 0) return { reason: r, admitted: i };
  }
}

test('alpha, ptWorkload: one egress queue alone holds about half the egress pool (alpha_e = 1)', () => {
  const rates = new Array<number>(16).fill(100e9);
  const delays = new Array<number>(16).fill(10_000);
  const mmu = new PowerTcpMmu(ptCfg(), rates, delays);
  assert.equal(mmu.headroomOf(0), 375);
  assert.equal(mmu.xoffTotal, 48_000);
  const { reason, admitted } = fillOneEgressQueue(mmu);
  assert.equal(reason, DROP_EGRESS_THRESHOLD);
  assert.equal(mmu.dropsByReason[DROP_EGRESS_THRESHOLD], 1);
  // drop when e + 1000 > B − e, i.e. at e ≈ B/2
  const e = mmu.egressBytes(15, 3);
  assert.equal(e, admitted * 1000);
  assert.ok(e <= B / 2 && e > B / 2 - 1000, `egress queue ${e}, B/2 ${B / 2}`);
  assert.equal(mmu.egressPoolUsed, e);
  assert.equal(mmu.totalUsed, e);
  // draining restores every counter
  for (let i = 0; i < admitted; i++) mmu.dequeue(i % 15, 3, 1000, 15);
  assert.equal(mmu.egressBytes(15, 3), 0);
  assert.equal(mmu.egressPoolUsed, 0);
  assert.equal(mmu.totalUsed, 0);
  assert.equal(mmu.xoffTotalUsed, 0);
  // without an egress port there is no egress accounting
  const noEgress = new PowerTcpMmu(ptCfg(), rates, delays);
  for (let i = 0; i < 2200; i++) assert.ok(noEgress.enqueue(i % 15, 3, 1000) < 0);
  assert.equal(noEgress.egressPoolUsed, 0);
});

test('alpha, ptBurst: headroom on top of the buffer, ingressPool = B, alpha_e = 65535 (no per-queue egress DT drops)', () => {
  const burst = twoPorts({ ptPools: 'ptBurst' });
  assert.equal(burst.xoffTotal, 600_000);
  assert.equal(burst.bufferPool, B + 600_000);
  assert.equal(burst.ingressPool, B);
  assert.equal(burst.egressPool, B);
  assert.equal(burst.alphaEgress, PT_BURST_ALPHA_EGRESS, 'fixed by the layout, whatever alphaEgress says');
  // single queue pauses at 9k·1000 > B → k = 467 (4 194 304 / 9000 = 466.03)
  let k = 1;
  while (burst.enqueue(0, 3, 1000) === ADMITTED) k++;
  assert.equal(k, 467);
  assert.equal(burst.upstreamPaused[3], 1);

  const rates = new Array<number>(16).fill(100e9);
  const delays = new Array<number>(16).fill(10_000);
  const mmu = new PowerTcpMmu(ptCfg({ ptPools: 'ptBurst' }), rates, delays);
  assert.equal(mmu.bufferPool, B + 48_000);
  const { reason } = fillOneEgressQueue(mmu);
  assert.notEqual(reason, DROP_EGRESS_THRESHOLD);
  assert.equal(mmu.dropsByReason[DROP_EGRESS_THRESHOLD], 0);
  // 15 ingress queues fill to their ingress thresholds (≈ 15/23 of B), well past B/2, before any drop
  assert.ok(mmu.egressBytes(15, 3) > 0.6 * B, `egress queue ${mmu.egressBytes(15, 3)}`);
  assert.equal(reason, DROP_HEADROOM, 'an ingress queue in headroom overflows its 375 B allowance');
});

test('alpha, lossy (pfcEnabled false): no headroom, tail drop at the threshold, never pauses', () => {
  const mmu = twoPorts({ pfcEnabled: false });
  assert.equal(mmu.xoffTotal, 0);
  assert.equal(mmu.ingressPool, B);
  let k = 0;
  let r: number;
  while ((r = mmu.enqueue(0, 3, 1000)) === ADMITTED) k++;
  assert.equal(r, DROP_LOSSY);
  // admit while ingress + 1000 <= floor((B − ingress)/8) (threshold before the packet): 466 packets
  assert.ok(466_000 <= Math.floor((B - 465_000) / 8) && 467_000 > Math.floor((B - 466_000) / 8));
  assert.equal(k, 466);
  assert.equal(mmu.upstreamPaused[3], 0);
  assert.equal(mmu.headroomBytes(0, 3), 0);
});

test('createMmu keeps the D-OSCAR / D-HPCC / static MMU and its pause points unchanged', () => {
  // pause, headroom absorbed, dequeues until resume — recorded from the MMU before dtMode alpha existed
  const cases: Array<{ cfg: SwitchConfig; rates: number[]; delays: number[]; pause: number; absorbed: number; resume: number }> = [
    { cfg: net('oscar').switch, rates: [100e9, 100e9], delays: [US, US], pause: 6672, absorbed: 37, resume: 40 },
    { cfg: net('oscar').switch, rates: [100e9, 400e9, 25e9], delays: [US, US, 5 * US], pause: 6602, absorbed: 149, resume: 152 },
    { cfg: net('hpcc').switch, rates: [100e9, 100e9], delays: [US, US], pause: 3724, absorbed: 36, resume: 40 },
    { cfg: net('hpcc').switch, rates: [100e9, 400e9, 25e9], delays: [US, US, 5 * US], pause: 11107, absorbed: 150, resume: 153 },
  ];
  for (const c of cases) {
    const mmu = createMmu(c.cfg, c.rates, c.delays, 100e9);
    assert.ok(mmu instanceof Mmu);
    let n = 1;
    let r: number;
    while ((r = mmu.enqueue(1, 3, 1000, 0)) === ADMITTED) n++;
    assert.equal(r, ADMITTED_PAUSE);
    assert.equal(n, c.pause, `${c.cfg.dtMode} ${c.rates.length} ports: pause`);
    let absorbed = 0;
    while (mmu.enqueue(1, 3, 1000, 0) < 0) absorbed++;
    assert.equal(absorbed, c.absorbed);
    let d = 1;
    while (!mmu.dequeue(1, 3, 1000, 0)) d++;
    assert.equal(d, c.resume);
  }
  const stat = createMmu({ ...net('hpcc').switch, dtMode: 'static' }, [100e9, 100e9], [US, US], 100e9);
  let n = 1;
  while (stat.enqueue(0, 3, 1000) !== ADMITTED_PAUSE) n++;
  assert.equal(n, 517, '512 000 B of shared part plus the 4 KiB reserve');
  assert.throws(() => new Mmu(ptCfg(), [100e9], [US], 100e9), /alpha/);
});

test('admitThrough: PASSED exactly when an enqueue and the release at once would change nothing; else it is enqueue', () => {
  // Two copies of an MMU take the same random arrivals and departures; at random arrivals copy A
  // is asked admitThrough and copy B does enqueue (then both release the packet at once, as a
  // switch does for a packet whose egress port is idle). Their whole state must stay equal.
  const small = { bufferBytes: 300_000, reservePerQueueBytes: 2000 };
  const rates = [100e9, 100e9, 400e9, 25e9];
  const delays = [US, US, US, 2 * US];
  // packets of one size reach a threshold exactly (the pause at equality of D-HPCC and static);
  // 1 ns links have a headroom smaller than a packet (drops at the threshold); a static
  // threshold above the buffer lets a lossy switch fill its buffer
  const configs: Array<[string, SwitchConfig, number, number[]]> = [
    ['D-HPCC', net('hpcc', { switch: small }).switch, 0, delays],
    ['D-HPCC, 1000 B', net('hpcc', { switch: small }).switch, 1000, delays],
    ['D-HPCC, 1 ns links', net('hpcc', { switch: small }).switch, 0, [1000, 1000, 1000, 1000]],
    ['D-OSCAR', net('oscar', { switch: small }).switch, 0, delays],
    ['static, 1000 B', net('hpcc', { switch: { ...small, dtMode: 'static', staticThresholdBytes: 20_000 } }).switch, 1000, delays],
    ['static 500 B, 1 ns links', net('hpcc', { switch: { ...small, dtMode: 'static', staticThresholdBytes: 500 } }).switch, 0, [1000, 1000, 1000, 1000]],
    ['static, threshold 0', net('hpcc', { switch: { ...small, dtMode: 'static', staticThresholdBytes: 0 } }).switch, 1000, delays],
    ['lossy', net('hpcc', { switch: { ...small, pfcEnabled: false } }).switch, 0, delays],
    ['lossy, static 1 MB', net('hpcc', { switch: { ...small, pfcEnabled: false, dtMode: 'static', staticThresholdBytes: 1e6 } }).switch, 0, delays],
    ['alpha', net('hpcc', { switch: { ...small, dtMode: 'alpha' } }).switch, 0, delays],
  ];
  type Inside = { st?: Float64Array; ingress?: Float64Array; hdrm?: Float64Array; upstreamPaused: Uint8Array; dropsByReason: Float64Array };
  const arrays = (m: unknown): ArrayLike<number>[] => {
    const o = m as Inside;
    return [o.st ?? [], o.ingress ?? [], o.hdrm ?? [], o.upstreamPaused, o.dropsByReason];
  };
  /** the first word where the two MMUs' whole states differ, or '' */
  const differ = (x: ArrayLike<number>[], y: ArrayLike<number>[]): string => {
    for (let k = 0; k < x.length; k++) {
      if (x[k]!.length !== y[k]!.length) return `array ${k} length`;
      for (let i = 0; i < x[k]!.length; i++) if (x[k]![i] !== y[k]![i]) return `array ${k} word ${i}: ${x[k]![i]} vs ${y[k]![i]}`;
    }
    return '';
  };
  for (const [name, cfg, fixedSize, linkDelays] of configs) {
    const a = createMmu(cfg, rates, linkDelays, 100e9);
    const b = createMmu(cfg, rates, linkDelays, 100e9);
    const sa = arrays(a);
    const sb = arrays(b);
    const rng = new Rng(7);
    const held: Array<[number, number, number]> = [];
    const seen = { passed: 0, enqueued: 0, paused: 0, dropped: 0, resumed: 0 };
    for (let step = 0; step < 40_000; step++) {
      // fill towards the thresholds and drain again, in turns
      const target = Math.floor(step / 5000) % 2 === 0 ? 2000 : 20;
      const leave = held.length > 0 && rng.next() < (held.length > target ? 0.7 : 0.15);
      if (leave) {
        const [p, q, size] = held.splice(rng.int(held.length), 1)[0]!;
        assert.equal(a.dequeue(p, q, size, 0), b.dequeue(p, q, size, 0));
      } else {
        const p = rng.int(4);
        const q = 1 + rng.int(2);
        const size = fixedSize > 0 ? fixedSize : 64 + rng.int(1000);
        if (rng.next() < 0.5) {
          const r = a.enqueue(p, q, size, 0);
          assert.equal(r, b.enqueue(p, q, size, 0));
          if (r < 0) held.push([p, q, size]);
        } else {
          const ra = a.admitThrough(p, q, size, 0);
          const rb = b.enqueue(p, q, size, 0);
          if (ra === PASSED) {
            seen.passed++;
            assert.equal(rb, ADMITTED, `${name} step ${step}: PASSED where enqueue says ${rb}`);
            assert.equal(b.dequeue(p, q, size, 0), false, `${name} step ${step}: PASSED, but the release resumes`);
          } else {
            assert.equal(ra, rb, `${name} step ${step}`);
            if (rb === ADMITTED) seen.enqueued++;
            else if (rb === ADMITTED_PAUSE) seen.paused++;
            else seen.dropped++;
            if (rb < 0) {
              const resume = a.dequeue(p, q, size, 0);
              assert.equal(resume, b.dequeue(p, q, size, 0));
              if (resume) seen.resumed++;
            }
          }
        }
      }
      assert.equal(differ(sa, sb), '', `${name} step ${step}`);
    }
    // the walk reaches every branch, so the checks above are not vacuous
    const why = `${name}: ${JSON.stringify(seen)}`;
    if (name === 'alpha' || name === 'static, threshold 0') {
      // alpha: no shortcut; a threshold of 0 pauses at the first byte, even inside the reserve
      assert.equal(seen.passed, 0, why);
      assert.ok(seen.enqueued + seen.paused > 1000, why);
      continue;
    }
    assert.ok(seen.passed > 1000, why);
    assert.ok(seen.paused + seen.dropped > 10, why);
    if (!name.startsWith('lossy')) assert.ok(seen.enqueued + seen.paused >= 10, why); // admitted, and charged in a way the release does not undo
  }
});

test('spec schema accepts dtMode alpha and the ptPools layouts, rejects unknown layouts', () => {
  const raw = (sw: Record<string, unknown>): unknown => ({
    name: 'x',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    cc: 'none',
    network: { switch: sw },
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1MB' }] }],
  });
  const spec = parseSpec(raw({ dtMode: 'alpha', ptPools: 'ptBurst', alphaIngress: 0.25, xonBytes: 1248, xonOffsetBytes: 2496 }));
  assert.deepEqual(spec.network?.switch, { dtMode: 'alpha', ptPools: 'ptBurst', alphaIngress: 0.25, xonBytes: 1248, xonOffsetBytes: 2496 });
  assert.throws(() => parseSpec(raw({ dtMode: 'alpha', ptPools: 'ptBurts' })), (e: unknown) => e instanceof SpecError && /ptPools/.test(e.message));
  assert.throws(() => parseSpec(raw({ dtMode: 'sonic' })), SpecError);
});
