/**
 * The exact FCT breakdown (metrics.breakdown, issue 41; docs/guide.md, "Why a flow was slow"):
 * on an incast with PFC, Poisson traffic on an ECMP fat tree, a lossy run with retransmissions,
 * NDP with trimming and a ring all-reduce, every finished flow's parts add up to its FCT exactly,
 * none is negative, and a part is zero where it must be (no PFC time without pauses, no loss time
 * without retransmissions); with the breakdown off, a run's output is the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import type { SimOutput } from '../src/sim/types.js';
import { BREAKDOWN_PARTS } from '../src/metrics/breakdown.js';

function run(raw: Record<string, unknown>, breakdown = true): SimOutput {
  const metrics = { ...((raw.metrics as Record<string, unknown> | undefined) ?? {}), ...(breakdown ? { breakdown: true } : {}) };
  return simulate(resolveSpec(parseSpec({ seed: 1, ...raw, metrics }), '.'));
}

const P = (name: string): number => BREAKDOWN_PARTS.indexOf(name as (typeof BREAKDOWN_PARTS)[number]);

/** Checks the sums and signs; returns the parts summed over the finished flows. */
function check(out: SimOutput): Record<string, number> {
  assert.ok(out.fct.length > 0, 'flows finished');
  const sums: Record<string, number> = Object.fromEntries(BREAKDOWN_PARTS.map((p) => [p, 0]));
  for (const r of out.fct) {
    const b = r.breakdown;
    assert.ok(b !== undefined, `flow ${r.id} has a breakdown`);
    assert.equal(b.parts.length, BREAKDOWN_PARTS.length);
    let s = 0;
    b.parts.forEach((v, k) => {
      assert.ok(Number.isInteger(v) && v >= 0, `flow ${r.id}: ${BREAKDOWN_PARTS[k]} = ${v}`);
      s += v;
      sums[BREAKDOWN_PARTS[k]!]! += v;
    });
    assert.equal(s, r.fctPs, `flow ${r.id}: parts ${b.parts.join(' + ')} = ${s}, FCT ${r.fctPs}`);
    assert.ok(b.worstQueuePs >= 0);
    assert.ok(b.parts[P('tx')]! > 0, `flow ${r.id} transmitted`);
  }
  if (out.totals.retransmittedPackets === 0) assert.equal(sums.loss, 0, 'no loss time without retransmissions');
  const hostPaused = out.breakdown!.ports.filter((p) => p.role === 'host-nic').reduce((a, p) => a + p.pausedPs, 0);
  if (hostPaused === 0) assert.equal(sums.pfc, 0, 'no PFC time without pauses at a NIC');
  if (out.totals.pausesSent === 0) for (const p of out.breakdown!.ports) assert.equal(p.pausedPs, 0);
  return sums;
}

const star = { type: 'star', hosts: 17, rate: '100Gbps', delay: '1us' };

test('breakdown: an incast with PFC pauses (cc none): exact sums, PFC time at the senders, the receiver downlink is the hot port', () => {
  const out = run({
    name: 'bd-incast',
    profile: 'oscar',
    topology: star,
    network: { switch: { bufferBytes: '1MiB' } },
    cc: { name: 'none', params: { window: 'none' } },
    workload: [{ type: 'incast', fanIn: 16, size: '256KB', receiver: 16, at: [0] }],
  });
  assert.ok(out.totals.pausesSent > 0, 'PFC paused');
  assert.equal(out.totals.drops, 0);
  const sums = check(out);
  assert.ok(sums.pfc! > 0, 'senders were paused');
  assert.equal(sums.loss, 0);
  const hot = [...out.breakdown!.ports].sort((a, b) => b.queuePs - a.queuePs)[0]!;
  assert.deepEqual([hot.node, hot.peer, hot.role], [17, 16, 'tor-down']);
  // the switch port toward each sender paused it: pause time caused upstream
  assert.ok(out.breakdown!.ports.some((p) => p.node === 17 && p.pauseCausedPs > 0));
  for (const r of out.fct) assert.ok(r.breakdown!.worstRole === 'tor-down' || r.breakdown!.worstRole === 'host-nic');
});

test('breakdown: Poisson on an ECMP fat tree (DCQCN): exact sums, no PFC or loss time without pauses or drops', () => {
  const out = run({
    name: 'bd-fattree',
    profile: 'oscar',
    topology: { type: 'fatTree', pods: 4, edgesPerPod: 2, aggsPerPod: 2, hostsPerEdge: 4, cores: 4, hostRate: '100Gbps', fabricRate: '100Gbps', delay: '1us' },
    cc: 'dcqcn',
    workload: [{ type: 'poisson', cdf: 'websearch', load: 0.5, duration: '100us' }],
  });
  check(out);
  const roles = new Set(out.breakdown!.ports.map((p) => p.role));
  for (const r of ['host-nic', 'tor-up', 'tor-down', 'agg-up', 'agg-down', 'core-down']) assert.ok(roles.has(r), `role ${r} in ${[...roles].join(', ')}`);
});

test('breakdown: a lossy run (no PFC, small buffer, go-back-N): loss time only in flows that retransmitted', () => {
  const out = run({
    name: 'bd-lossy',
    profile: 'oscar',
    topology: star,
    network: { switch: { pfcEnabled: false, bufferBytes: '300KB' } },
    cc: 'dcqcn',
    workload: [{ type: 'incast', fanIn: 8, size: '200KB', receiver: 16, at: [0] }],
  });
  assert.ok(out.totals.drops > 0 && out.totals.retransmittedPackets > 0, 'drops and retransmissions');
  const sums = check(out);
  assert.ok(sums.loss! > 0);
  assert.equal(sums.pfc, 0);
});

test('breakdown: NDP with trimming: exact sums, loss time from the trimmed packets resent', () => {
  const out = run({
    name: 'bd-ndp',
    profile: 'oscar',
    topology: star,
    cc: 'ndp',
    workload: [{ type: 'incast', fanIn: 16, size: '100KB', receiver: 16, at: [0] }],
  });
  assert.ok((out.totals.trimmedPackets ?? 0) > 0, 'trimmed');
  const sums = check(out);
  assert.ok(sums.loss! > 0);
});

test('breakdown: a ring all-reduce (collective): exact sums', () => {
  const out = run({
    name: 'bd-ring',
    profile: 'oscar',
    topology: { type: 'spineLeaf', spines: 2, leaves: 4, hostsPerLeaf: 4, hostRate: '100Gbps', fabricRate: '100Gbps', delay: '1us' },
    cc: 'hpcc',
    workload: [{ type: 'collective', op: 'allreduce', algorithm: 'ring', groups: { size: 4, stride: 4 }, bytes: '1MB', iterations: 2, compute: '5us', tag: 'allreduce' }],
  });
  check(out);
});

test('breakdown: off and on give the same FCTs and counters (the accounting only observes)', () => {
  const spec = {
    name: 'bd-same',
    profile: 'oscar',
    topology: star,
    network: { switch: { bufferBytes: '1MiB' } },
    cc: 'hpcc',
    workload: [{ type: 'incast', fanIn: 16, size: '64KB', receiver: 16, at: [0, '20us'] }],
  };
  const on = run(spec);
  const off = run(spec, false);
  assert.equal(off.breakdown, undefined);
  assert.deepEqual(
    on.fct.map(({ breakdown: _b, ...r }) => r),
    off.fct,
  );
  assert.deepEqual(on.ports, off.ports);
  assert.equal(on.events, off.events);
});
