/**
 * The training passes of the OSCAR artifact's Fig 12 (src/workload/passes.ts): the timing
 * rule (a member's next pass starts `compute` after it received the trigger bytes of its
 * predecessor's flow, passes overlap, nothing is triggered once the window closed) on a
 * driver fed by hand, then end to end on a star, where the trigger is the receiver's
 * in-order bytes (src/transport/receiver.ts `notifyAtBytes`), not the flow's end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { simulate } from '../src/sim/simulate.js';
import type { FlowInjector, NewFlow } from '../src/workload/driver.js';
import { PassesDriver, ringFlowBytes } from '../src/workload/passes.js';
import { specErrorOf } from './helpers/specs.js';

/** An injector that records what the driver starts and arms; the test moves time. */
class FakeInjector implements FlowInjector {
  nowPs = 0;
  readonly flows: (NewFlow & { id: number; atPs: number })[] = [];
  readonly wakes: { atPs: number; token: number }[] = [];
  start(flow: NewFlow): number {
    const id = this.flows.length;
    this.flows.push({ ...flow, id, atPs: this.nowPs });
    return id;
  }
  wakeAt(atPs: number, token: number): void {
    this.wakes.push({ atPs, token });
  }
}

test('passes: ring timing rule — next pass = trigger + compute, overlapping passes, window closes triggers', () => {
  const plan = { flowBytesOf: (n: number) => ringFlowBytes(3000, n), triggerBytesOf: () => 3000, computePs: 50, startPs: 0, windowPs: 1000, tag: 'r' };
  const d = new PassesDriver([[10, 11, 12]], plan, undefined);
  const inj = new FakeInjector();
  assert.equal(d.done(), false, 'not done before it began');
  d.begin(inj);
  // every member starts its first pass at start, one flow of floor(2 x 2/3 x 3000) = 4000 B to its successor
  assert.deepEqual(inj.flows.map((f) => [f.src, f.dst, f.bytes, f.notifyAtBytes, f.atPs]), [[10, 11, 4000, 3000, 0], [11, 12, 4000, 3000, 0], [12, 10, 4000, 3000, 0]]);
  assert.equal(d.done(), false);
  // member 11 has received 3000 B of 10's flow at t = 100: its next pass is armed for 150, while its first is still in flight
  inj.nowPs = 100;
  d.onFlowReceived(0, inj);
  assert.deepEqual(inj.wakes, [{ atPs: 150, token: 1 }]);
  inj.nowPs = 150;
  d.onWake(1, inj);
  assert.deepEqual([inj.flows[3]!.src, inj.flows[3]!.dst, inj.flows[3]!.atPs], [11, 12, 150]);
  // a flow triggers once: a second notice is ignored
  d.onFlowReceived(0, inj);
  assert.equal(inj.wakes.length, 1);
  // 12 receives both of 11's flows: each triggers one pass of 12 (they overlap)
  inj.nowPs = 200;
  d.onFlowReceived(1, inj);
  inj.nowPs = 260;
  d.onFlowReceived(3, inj);
  assert.deepEqual(inj.wakes.slice(1), [{ atPs: 250, token: 2 }, { atPs: 310, token: 2 }]);
  // once the window has closed (start + 1000), a received flow triggers nothing
  inj.nowPs = 1000;
  d.onFlowReceived(2, inj);
  assert.equal(inj.wakes.length, 3);
  assert.equal(d.done(), false, 'two wake-ups still pending');
  inj.nowPs = 1010;
  d.onWake(2, inj);
  d.onWake(2, inj);
  // the last two flows (12 -> 10) reach their trigger after the window: no more passes, done
  d.onFlowReceived(4, inj);
  d.onFlowReceived(5, inj);
  assert.equal(inj.wakes.length, 3);
  assert.equal(d.done(), true);
  assert.deepEqual(d.passesStarted(), [6]);
  assert.deepEqual(d.report(), [{ job: 'r', iteration: 0, startPs: 0, finishPs: 1010, bytes: 24000 }]);
});

function spec(entry: Record<string, unknown>): Record<string, unknown> {
  return { name: 'passes', seed: 1, topology: { type: 'star', hosts: 4, rate: '100Gbps', delay: '1us' }, cc: { name: 'none' }, workload: [{ type: 'passes', groups: [[0, 1, 2, 3]], ...entry }] };
}

test('passes: end to end on a star — the trigger is the receiver having the model bytes, before the flow ends', () => {
  const compute = 5e6; // 5 us
  const input = resolveSpec(parseSpec(spec({ modelBytes: 100_000, compute: '5us', start: '10us', window: '60us', tag: 'ring' })), '.');
  const out = simulate(input);
  assert.equal(out.unfinished.length, 0);
  const rows = [...out.fct].sort((a, b) => a.id - b.id);
  assert.ok(rows.every((r) => r.bytes === 150_000 && r.dst === (r.src + 1) % 4));
  const bySrc = new Map<number, typeof rows>();
  for (const r of rows) (bySrc.get(r.src) ?? bySrc.set(r.src, []).get(r.src)!).push(r);
  // 100 KB at 100 G is 8 us of payload; the flow (150 KB) takes 12 us: passes start before the previous flow has ended
  for (const [src, mine] of bySrc) {
    const pred = bySrc.get((src + 3) % 4)!;
    assert.equal(mine[0]!.startPs, 10e6);
    for (let k = 1; k < mine.length; k++) {
      const gap = mine[k]!.startPs - pred[k - 1]!.startPs - compute;
      assert.ok(gap > 8e6 && gap < 12e6, `host ${src} pass ${k}: trigger ${gap} ps after the predecessor's pass started`);
      assert.ok(mine[k]!.startPs < pred[k - 1]!.finishPs + compute, 'triggered before the flow finished');
      assert.ok(mine[k]!.startPs - compute < 70e6, 'triggered inside the window');
    }
    assert.ok(mine.length >= 4, `host ${src}: ${mine.length} passes`);
  }
  assert.deepEqual((out.jobs ?? []).map((j) => j.job), ['ring']);
});

test('passes: trigger flow waits for the whole flow; bad entries are spec errors', () => {
  const input = resolveSpec(parseSpec(spec({ modelBytes: 100_000, trigger: 'flow', compute: '5us', window: '40us' })), '.');
  const out = simulate(input);
  const rows = [...out.fct].sort((a, b) => a.id - b.id);
  const first = rows.filter((r) => r.src === 0)[0]!;
  const second = rows.filter((r) => r.src === 1)[1]!;
  assert.ok(second.startPs - 5e6 >= first.startPs + 12e6, 'the whole 150 KB flow arrived first');
  assert.match(specErrorOf(() => resolveSpec(parseSpec(spec({ modelBytes: 100_000, flowBytes: 50_000, compute: '5us', window: '40us' })), '.')), /modelBytes.*more than the 50000 bytes/);
  assert.match(specErrorOf(() => resolveSpec(parseSpec(spec({ modelBytes: 100_000, compute: '5us' })), '.')), /window/);
});

test('passes: moe — every received flow is sent on after the group barrier, to a drawn expert other than the sender', () => {
  const s = spec({ pattern: 'moe', flowBytes: 50_000, experts: { weights: [4, 1, 1, 1] }, compute: '1us', start: '5us', window: '60us', tag: 'moe' });
  const out = simulate(resolveSpec(parseSpec(s), '.'));
  assert.equal(out.unfinished.length, 0);
  const rows = [...out.fct].sort((a, b) => a.id - b.id);
  const passes = new Map<number, typeof rows>();
  for (const r of rows) (passes.get(r.startPs) ?? passes.set(r.startPs, []).get(r.startPs)!).push(r);
  const starts = [...passes.keys()].sort((a, b) => a - b);
  assert.equal(starts[0], 5e6);
  assert.ok(starts.length >= 3, `${starts.length} passes`);
  for (let k = 0; k < starts.length; k++) {
    const mine = passes.get(starts[k]!)!;
    assert.equal(mine.length, 4, 'four flows per pass, always');
    assert.ok(mine.every((r) => r.src !== r.dst && r.bytes === 50_000));
    if (k === 0) {
      assert.deepEqual(mine.map((r) => r.src).sort(), [0, 1, 2, 3]);
      continue;
    }
    const prev = passes.get(starts[k - 1]!)!;
    // the senders of a pass are the receivers of the one before, once each per flow received
    assert.deepEqual(mine.map((r) => r.src).sort(), prev.map((r) => r.dst).sort());
    // after the barrier: the last flow of the pass received (before its ACK is back), plus compute
    const last = Math.max(...prev.map((r) => r.finishPs));
    assert.ok(starts[k]! > last - 3e6 && starts[k]! <= last + 1e6, `pass ${k} starts ${starts[k]} ps, last flow of the pass before finished ${last} ps`);
    assert.ok(starts[k]! - 1e6 < 65e6, 'barrier inside the window');
  }
  // the heavy expert (member 0) receives most flows; seeded, so the same run twice is identical
  const again = simulate(resolveSpec(parseSpec(s), '.'));
  assert.deepEqual([...again.fct].sort((a, b) => a.id - b.id).map((r) => [r.src, r.dst, r.startPs]), rows.map((r) => [r.src, r.dst, r.startPs]));
  assert.match(specErrorOf(() => resolveSpec(parseSpec(spec({ pattern: 'moe', flowBytes: 50_000, compute: '1us', window: '60us' })), '.')), /experts/);
  assert.match(specErrorOf(() => resolveSpec(parseSpec(spec({ pattern: 'moe', flowBytes: 50_000, experts: { weights: [1, 1] }, compute: '1us', window: '60us' })), '.')), /2 weights for a group of 4/);
});
