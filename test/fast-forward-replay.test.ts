/**
 * Fast-forward's replay of recurring iterations (issue 46; sim/replay.ts, docs/performance.md
 * "Reuse of recurring contention patterns"): a ring all-reduce running alone on a star repeats
 * its iterations; from the third on they are replayed from the second's record, exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { checkFastForward } from '../src/sim/fast-forward-check.js';
import type { SimInput } from '../src/sim/types.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { specErrorOf } from './helpers/specs.js';

function ring(over: Record<string, unknown> = {}, ff: Record<string, unknown> = { replay: true }): SimInput {
  return resolveSpec(
    parseSpec({
      name: 'ff-replay',
      profile: 'hpcc',
      topology: { type: 'star', hosts: 4, rate: '100Gbps', delay: '1us' },
      cc: 'hpcc',
      workload: [{ type: 'collective', op: 'allreduce', hosts: [0, 1, 2, 3], bytes: '8MB', iterations: 5, compute: '20us', tag: 'ring' }],
      engine: { fastForward: ff },
      ...over,
    }),
    '.',
  );
}

test('replay alone (no skips): iterations, FCTs and the end exactly as the packet-level run, 3 of 5 iterations replayed', () => {
  const exact = simulate({ ...ring(), fastForward: null });
  const i = ring();
  const r = simulate({ ...i, fastForward: { ...i.fastForward!, minSkipRtts: 1e12 } });
  const st = r.fastForward!;
  assert.equal(st.skips, 0);
  assert.equal(st.replays, 3);
  assert.equal(st.replayedFlows, 3 * 24);
  assert.deepEqual(r.jobs, exact.jobs);
  assert.deepEqual(r.fct, exact.fct);
  assert.equal(r.endPs, exact.endPs);
  assert.ok(r.events < 0.5 * exact.events, `events ${r.events} vs ${exact.events}`);
  // the estimate is the recorded iteration's events, three times
  const saved = exact.events - r.events;
  assert.ok(Math.abs(st.skippedEventsEstimate - saved) / saved < 0.01, `estimate ${st.skippedEventsEstimate} vs saved ${saved}`);
});

test('replay with skips: iterations within 0.2 %, events cut 3x', () => {
  const c = checkFastForward(() => ring({}, { replay: true }));
  assert.equal(c.fast.fastForward!.replays, 3);
  assert.ok(c.eventRatio >= 3, `events ${c.exact.events} vs ${c.fast.events}`);
  const it = (o: typeof c.exact): number[] => o.jobs!.map((j) => j.finishPs - j.startPs);
  const x = it(c.exact);
  const y = it(c.fast);
  for (let k = 0; k < x.length; k++) assert.ok(Math.abs(y[k]! - x[k]!) / x[k]! <= 0.002, `iteration ${k}: ${y[k]} vs ${x[k]}`);
});

test('replay is refused where it is invalid, naming why', () => {
  const refused = (i: () => SimInput): string => {
    try {
      simulate(i());
    } catch (e) {
      return String(e);
    }
    assert.fail('expected a refusal');
  };
  // equal-cost paths: a leaf-spine with two spines
  assert.match(refused(() => ring({ topology: { type: 'spineLeaf', spines: 2, leaves: 2, hostsPerLeaf: 2, hostRate: '100Gbps', fabricRate: '100Gbps', delay: '1us' } })), /engine\.fastForward\.replay: .*equal-cost paths/);
  // MoE draws its experts at random
  const moe = { workload: [{ type: 'collective', op: 'alltoall', hosts: [0, 1, 2, 3], bytes: '1MB', experts: { zipf: 1 }, iterations: 3, compute: '20us', tag: 'moe' }] };
  assert.match(refused(() => ring(moe)), /engine\.fastForward\.replay: the closed-loop workload does not repeat/);
  // two groups are two jobs at once; listed flows beside the job
  assert.match(specErrorOf(() => ring({ workload: [{ type: 'collective', op: 'allreduce', hosts: [0, 1], bytes: '1MB', iterations: 3, tag: 'a' }, { type: 'collective', op: 'allreduce', hosts: [2, 3], bytes: '1MB', iterations: 3, tag: 'b' }] })), /engine\.fastForward.*replay: 2 closed-loop workloads/);
  assert.match(specErrorOf(() => ring({ workload: [{ type: 'collective', op: 'allreduce', hosts: [0, 1], bytes: '1MB', iterations: 3, tag: 'a' }, { type: 'flows', flows: [{ src: 2, dst: 3, size: '1MB' }] }] })), /replay: listed or streamed flows/);
  // a CC that reacts to random ECN marks
  assert.match(specErrorOf(() => ring({ profile: 'oscar', cc: 'dcqcn' })), /replay: dcqcn reacts to ECN marks/);
});
