/**
 * The OSCAR appendix experiments (OSCAR App. C.3 / C.6: Fig 19, 22, 23a-c, 24,
 * 25; experiments/oscar/fig19.yaml ... fig25.yaml): every spec plans at full
 * and quick size with the figure's CCs and analysis, and a few points at a
 * further reduced size (arrivals cut to 0.25 ms, ~1/40 of the full run) show
 * behaviours the paper reports that such a run can show robustly:
 * - Fig 22: without PFC, DCQCN overflows the buffer under incasts (drops,
 *   timeouts) and its slowdown is far worse than OSCAR's, which drops nothing;
 * - Fig 19: a larger D_target (queue target 150 KB instead of 37.5 KB) raises
 *   the small flows' slowdown;
 * - Fig 25: OSCAR with the one-way-delay signal differs little from OSCAR
 *   with RTT (published: 8 % on CacheFollower).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import { planSweep, type SweepPoint } from '../src/experiment/run/sweep.js';
import type { SimOutput } from '../src/sim/types.js';
import { findFigure } from '../src/experiment/results/analysis.js';
import '../experiments/index.js';
import { tempDir } from './helpers/tmp.js';
import { ownReplica } from './helpers/replica.js';

const EXP = fileURLToPath(new URL('../../experiments/oscar/', import.meta.url));
const FIG10_CCS = ['oscar', 'hpcc', 'hpcc-star', 'powertcp', 'theta-powertcp', 'swift', 'dcqcn', 'poseidon'];

function ccName(p: SweepPoint): string {
  const cc = p.vars['cc'];
  return typeof cc === 'string' ? cc : (cc as { name: string }).name;
}

function ccParams(p: SweepPoint): Record<string, unknown> {
  const cc = p.vars['cc'];
  return typeof cc === 'object' && cc !== null ? ((cc as { params?: Record<string, unknown> }).params ?? {}) : {};
}

test('appendix specs plan at full and quick size, with their figure analysis and the figure\'s CCs', () => {
  const expect: Record<string, { points: number; ccs: string[] }> = {
    fig19: { points: 9, ccs: ['oscar'] },
    fig22: { points: 14, ccs: [...FIG10_CCS, 'timely'] },
    fig23a: { points: 8, ccs: FIG10_CCS },
    fig23b: { points: 8, ccs: FIG10_CCS },
    fig23c: { points: 8, ccs: FIG10_CCS },
    fig24: { points: 16, ccs: ['oscar', 'hpcc', 'ndp'] },
    fig25: { points: 8, ccs: ['oscar'] },
  };
  for (const [f, e] of Object.entries(expect)) {
    const full = planSweep(`${EXP}${f}.yaml`);
    const quick = planSweep(`${EXP}${f}.yaml`, { quick: true });
    for (const plan of [full, quick]) {
      assert.equal(plan.figure, `oscar-${f}`, f);
      assert.ok(findFigure(plan.figure!) !== undefined, `${f}: figure analysis registered`);
      assert.equal(ownReplica(plan.points).length, e.points, `${f} points`);
      assert.deepEqual([...new Set(plan.points.map(ccName))].sort(), [...e.ccs].sort(), `${f} CCs`);
    }
    // the quick block really reduces every point (1/40 of the arrivals)
    ownReplica(full.points).forEach((p, i) => {
      const q = quick.points[i]!;
      assert.equal(ccName(q), ccName(p));
      assert.ok(q.flows * 10 < p.flows, `${f} point ${i}: ${q.flows} quick flows vs ${p.flows}`);
    });
  }
  // Fig 22 is lossy except the four lossless reference points; Fig 23b/c and the spray points of Fig 24 spray without retransmission
  const f22 = planSweep(`${EXP}fig22.yaml`, { quick: true }).points;
  assert.deepEqual(
    f22.filter((p) => p.spec.network?.switch?.pfcEnabled === true).map(ccName),
    ['oscar', 'hpcc', 'dcqcn', 'timely'],
  );
  assert.ok(f22.some((p) => ccName(p) === 'dcqcn' && ccParams(p)['window'] === 'bdp'), 'DCQCN with a fixed window');
  for (const f of ['fig23b', 'fig23c']) {
    for (const p of planSweep(`${EXP}${f}.yaml`, { quick: true }).points) {
      assert.equal(p.spec.network?.switch?.loadBalancing, 'spray');
      assert.equal(p.spec.network?.transport?.retxMode, 'none');
    }
  }
  // Fig 24: both readings of the oversubscription (agg-core only / every inter-switch link) at 2:1 and 4:1
  const f24 = planSweep(`${EXP}fig24.yaml`, { quick: true });
  const rates = new Set<string>();
  for (const p of f24.points) {
    const topo = resolveSpec(p.spec, f24.specDir).topology;
    const fabric = topo.links.filter((l) => l.a >= topo.hostCount && l.b >= topo.hostCount);
    assert.equal(fabric.length, 160);
    rates.add([...new Set(fabric.map((l) => l.rateBps / 1e9))].sort((a, b) => a - b).join('/'));
  }
  assert.deepEqual([...rates].sort(), ['100', '100/400', '200', '200/400']);
  // NDP's points: trimming switches, PULLs, spraying, no PFC (what cc ndp turns on; docs/algorithms.md §9.8)
  const ndp = f24.points.filter((p) => ccName(p) === 'ndp');
  assert.equal(ndp.length, 4);
  for (const p of ndp) {
    const n = resolveSpec(p.spec, f24.specDir).net;
    assert.equal(n.switch.pfcEnabled, false);
    assert.equal(n.switch.loadBalancing, 'spray');
    assert.deepEqual(n.switch.admission?.map((a) => a.name), ['trim']);
    assert.equal(n.transport.sendDriver, 'ndpPull');
  }
  // Fig 25: OSCAR, OSCAR-OWD, OSCAR-ACKC (three-point BLS) and real ACK coalescing on both workloads
  const f25 = planSweep(`${EXP}fig25.yaml`, { quick: true }).points;
  assert.equal(f25.filter((p) => ccParams(p)['signal'] === 'owd').length, 2);
  assert.equal(f25.filter((p) => ccParams(p)['blsPoints'] === 'threePoint').length, 2);
  assert.equal(f25.filter((p) => p.spec.network?.transport?.ackEvery === 4).length, 2);
  assert.equal(f25.filter((p) => p.spec.workload.some((w) => w.type === 'incast')).length, 4);
});

/** Runs the quick point of `file` that `pick` selects, with every workload's arrivals cut to `duration`. */
function runReduced(file: string, pick: (p: SweepPoint) => boolean, duration = '0.25ms'): SimOutput {
  const plan = planSweep(`${EXP}${file}.yaml`, { quick: true });
  const p = plan.points.find(pick);
  assert.ok(p !== undefined, `${file}: no such point`);
  const raw = structuredClone(p.raw) as { workload: Record<string, unknown>[] };
  for (const w of raw.workload) w['duration'] = duration;
  return simulate(resolveSpec(parseSpec(raw), plan.specDir, {}, { raw }));
}

function meanSlowdown(out: SimOutput, keep: (bytes: number, tag: string) => boolean = () => true): number {
  const xs = out.fct.filter((r) => r.bytes > 0 && keep(r.bytes, r.tag)).map((r) => r.slowdown);
  assert.ok(xs.length > 50, `only ${xs.length} flows`);
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

test('Fig 22 (lossy, reduced): DCQCN drops and times out under incasts and is far slower than OSCAR, which drops nothing', (t) => {
  const lossy = (cc: string) => (p: SweepPoint) => ccName(p) === cc && Object.keys(ccParams(p)).length === 0 && p.spec.network?.switch?.pfcEnabled === false;
  const oscar = runReduced('fig22', lossy('oscar'));
  const dcqcn = runReduced('fig22', lossy('dcqcn'));
  assert.equal(oscar.unfinished.length, 0);
  assert.equal(dcqcn.unfinished.length, 0, 'go-back-N and the timeout recover every loss');
  assert.equal(oscar.totals.pausesSent + dcqcn.totals.pausesSent, 0, 'no PFC');
  assert.equal(oscar.totals.drops, 0);
  assert.ok(dcqcn.totals.drops > 1000, `DCQCN drops ${dcqcn.totals.drops}`);
  assert.ok(dcqcn.totals.timeouts > 0 && dcqcn.totals.retransmittedPackets > dcqcn.totals.drops);
  const o = meanSlowdown(oscar);
  const d = meanSlowdown(dcqcn);
  t.diagnostic(`mean slowdown OSCAR ${o.toFixed(3)}, DCQCN ${d.toFixed(3)}; DCQCN drops ${dcqcn.totals.drops}, timeouts ${dcqcn.totals.timeouts}`);
  assert.ok(d > 3 * o, `mean slowdown DCQCN ${d} vs OSCAR ${o}`);
});

test('Fig 19 (reduced): a larger D_target raises the small flows\' slowdown', (t) => {
  const q = (bytes: number) => (p: SweepPoint) => ccParams(p)['targetQueueBytes'] === bytes;
  const low = runReduced('fig19', q(37500));
  const high = runReduced('fig19', q(150000));
  const small = (b: number) => b <= 150 * 1024;
  const sl = meanSlowdown(low, small);
  const sh = meanSlowdown(high, small);
  t.diagnostic(`small-flow mean slowdown: Q 37.5 KB ${sl.toFixed(3)}, Q 150 KB ${sh.toFixed(3)}`);
  assert.ok(sh > 1.04 * sl, `small flows: Q 150 KB ${sh} vs 37.5 KB ${sl}`);
});

test('Fig 25 (reduced): OSCAR with one-way delay differs little from OSCAR with RTT on CacheFollower; the analysis names the variants', (t) => {
  const cf = (p: SweepPoint) => !p.spec.workload.some((w) => w.type === 'incast') && p.spec.network?.transport?.ackEvery !== 4;
  const rtt = runReduced('fig25', (p) => cf(p) && Object.keys(ccParams(p)).length === 0);
  const owd = runReduced('fig25', (p) => cf(p) && ccParams(p)['signal'] === 'owd');
  const a = meanSlowdown(rtt);
  const b = meanSlowdown(owd);
  t.diagnostic(`mean slowdown RTT ${a.toFixed(3)}, OWD ${b.toFixed(3)}`);
  assert.notEqual(a, b, 'the signal changes the run');
  assert.ok(Math.abs(a - b) / a < 0.1, `mean slowdown RTT ${a} vs OWD ${b}`);

  // the figure analysis on these two runs: one gains row, oscar-owd, with claims under the workload's prefix
  const dir = tempDir('oscar-appendix');
  const pts = [
    { out: rtt, vars: { workload: [{ cdf: 'cachefollower' }], cc: 'oscar', 'network.transport.ackEvery': 1 } },
    { out: owd, vars: { workload: [{ cdf: 'cachefollower' }], cc: { name: 'oscar', params: { signal: 'owd' } }, 'network.transport.ackEvery': 1 } },
  ].map((x, i) => {
    const d = join(dir, `p${i}`);
    mkdirSync(d);
    const lines = ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag'];
    for (const r of x.out.fct) lines.push([r.id, r.src, r.dst, r.bytes, r.startPs, r.finishPs, r.fctPs, r.idealFctPs, r.slowdown, r.tag].join(','));
    writeFileSync(join(d, 'fct.csv'), `${lines.join('\n')}\n`);
    return { dir: d, vars: x.vars, label: `p${i}` };
  });
  const res = findFigure('oscar-fig25')!.analyze(pts);
  const gain = res.claims.find((c) => c.id === 'fig25.cachefollower.oscar-vs-oscar-owd.all.mean');
  assert.ok(gain !== undefined, res.claims.map((c) => c.id).join(' '));
  assert.ok(Math.abs(gain.value - ((b - a) / b) * 100) < 1e-6);
});

test('fig24-ndp-queue: 2:1 agg-core, OSCAR with spraying against NDP with a 64-packet data queue; the analysis files it under fig24.2to1-aggcore as ndp-q64', () => {
  const plan = planSweep(`${EXP}fig24-ndp-queue.yaml`);
  assert.equal(plan.figure, 'oscar-fig24');
  assert.deepEqual(ownReplica(plan.points).map((p) => `${ccName(p)}/${String(ccParams(p)['dataQueuePackets'] ?? '-')}/${p.spec.network?.switch?.loadBalancing}`), ['oscar/-/spray', 'ndp/64/spray']);
  // the same fabric and arrivals as fig24.yaml's 2:1 agg-core points
  const f24 = planSweep(`${EXP}fig24.yaml`).points.find((p) => p.vars['topology.aggCoreRate'] === '200Gbps' && p.vars['topology.fabricRate'] === '400Gbps' && ccName(p) === 'ndp')!;
  // links per rate of the resolved fabric: 320 host links at 100 G, 80 edge-agg at 400 G, 80 agg-core at 200 G
  const rates = (q: SweepPoint): Record<string, number> => {
    const r: Record<string, number> = {};
    for (const l of resolveSpec(parseSpec(q.raw), plan.specDir, {}, { raw: q.raw }).topology.links) r[l.rateBps] = (r[l.rateBps] ?? 0) + 1;
    return r;
  };
  assert.deepEqual(rates(f24), { 100000000000: 320, 400000000000: 80, 200000000000: 80 });
  for (const p of plan.points) {
    assert.deepEqual(p.spec.workload, f24.spec.workload);
    assert.deepEqual(rates(p), rates(f24));
  }
  const dir = tempDir('oscar-fig24-q');
  // slowdowns of a small (10 KB) and a large (1 MB) flow: OSCAR 1 and 2, NDP 2 and 4
  const pts = plan.points.map((p, i) => {
    const d = join(dir, `p${i}`);
    mkdirSync(d);
    const k = i + 1;
    writeFileSync(join(d, 'fct.csv'), ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag', `0,0,1,10000,0,1,1,1,${k},`, `1,0,1,1000000,0,1,1,1,${2 * k},`].join('\n') + '\n');
    return { dir: d, vars: p.vars, label: `p${i}` };
  });
  const res = findFigure('oscar-fig24')!.analyze(pts);
  const claim = (id: string): number | undefined => res.claims.find((c) => c.id === id)?.value;
  assert.equal(claim('fig24.2to1-aggcore.oscar-spray-vs-ndp-q64.small.mean'), 50, '(2 - 1) / 2');
  assert.equal(claim('fig24.2to1-aggcore.oscar-spray-vs-ndp-q64.large.ratio'), 2);
  assert.equal(claim('fig24.2to1-aggcore.oscar-spray-vs-ndp.small.mean'), undefined, 'not the default NDP');
});
