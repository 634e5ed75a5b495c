/**
 * The NIC's ready set (src/net/nic-ready.ts) must pick exactly the flow, and
 * arm exactly the wake-up, that the round-robin scan of every sending flow
 * picks (docs/network-model.md §10.2 rrPerPacket): a random sequence of joins,
 * leaves, sends, window / pacing / hold changes, PFC pauses and the moves
 * between the scan and the set is run against a plain model of the scan.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NicReadySet } from '../src/net/nic-ready.js';
import { Rng } from '../src/engine/rng.js';
import { FakeFlow, ScanModel } from './helpers/nic-model.js';

for (const seed of [1, 2, 3, 4]) {
  test(`ready set picks as the round-robin scan does (random run, seed ${seed})`, () => {
    const rng = new Rng(seed);
    const set = new NicReadySet();
    const model = new ScanModel();
    const paused = new Uint8Array(8);
    let now = 0;
    let nextId = 0;
    let picks = 0;
    let wakes = 0;
    const classes = seed % 2 === 0 ? [3] : [1, 3, 5];
    for (let step = 0; step < 20_000; step++) {
      const op = rng.int(100);
      const flows = model.flows;
      // seeds 3, 4: phases of mostly joins and mostly leaves, so freed slots pile up and the table compacts
      const shrink = seed >= 3 && Math.floor(step / 2500) % 2 === 1;
      const joinUpTo = seed >= 3 ? (shrink ? 4 : 16) : 12;
      if (op < joinUpTo || flows.length === 0) {
        const f = new FakeFlow(nextId++, classes[rng.int(classes.length)]!);
        f.ready = now + (rng.int(2) === 0 ? 0 : rng.int(50));
        f.open = rng.int(5) !== 0;
        model.flows.push(f);
        set.add(f);
      } else if (op < 20) {
        const f = flows[rng.int(flows.length)]!;
        model.remove(f);
        set.remove(f);
      } else if (op < 40) {
        // a change that decides sending: window, pacing or hold time, acknowledgement
        const f = flows[rng.int(flows.length)]!;
        if (rng.int(2) === 0) f.open = !f.open;
        else f.ready = now + rng.int(40) - 10;
        set.touch(f);
      } else if (op < 52) {
        now += rng.int(20);
      } else if (op < 56) {
        const c = classes[rng.int(classes.length)]!;
        paused[c] = paused[c] === 0 ? 1 : 0;
      } else if (op < 58) {
        // now and then the host moves its flows between the set and a scan (few flows) and back
        if (rng.int(10) !== 0) continue;
        const { flows: order, lastServed } = set.drain();
        assert.deepEqual(
          order.map((f) => (f as FakeFlow).id),
          model.flows.map((f) => f.id),
        );
        assert.equal(lastServed, model.rr);
        set.load(order, lastServed + 1);
      } else {
        const want = model.pick(now, paused);
        const got = set.pick(now, paused);
        assert.equal(got === null ? -1 : (got as FakeFlow).id, want.f === null ? -1 : want.f.id, `step ${step}`);
        if (got === null) {
          assert.equal(set.wakeTime, want.wake, `wake at step ${step}`);
          if (want.wake !== Infinity) wakes++;
        } else {
          picks++;
          // a sent packet moves the flow's pacing time and may close its window
          const f = got as FakeFlow;
          f.ready = now + rng.int(30);
          if (rng.int(4) === 0) f.open = false;
        }
      }
      assert.equal(set.count, model.flows.length);
    }
    assert.ok(picks > 1000 && wakes > 20, `${picks} picks, ${wakes} wake-ups`);
  });
}
