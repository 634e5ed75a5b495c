/**
 * Earliest-ready-first NIC arbitration (`fifoWhenQueueEmpty`, D-OSCAR's turn
 * taking, docs/network-model.md §10.2) without a scan: the ready set
 * (src/net/nic-ready.ts, fifo mode) must pick exactly the flow, and arm
 * exactly the wake-up, that the scan of every sending flow does: the earliest
 * ready time among flows that may send now, ties to the first such flow from
 * one past the last served, in join order, wrapping. Ready times are drawn
 * from a coarse grid so that ties are frequent, and the tie-break is checked
 * on every pick. A second test drives the Host itself (its one-pass scan over
 * the ready times it keeps until a flow is touched or served, the moves
 * between scan and set at 32 / 8 flows) against the same model, for both
 * arbitrations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Host } from '../src/net/host.js';
import { NicReadySet } from '../src/net/nic-ready.js';
import type { NetContext } from '../src/net/context.js';
import type { TransportConfig } from '../src/net/config.js';
import type { Port } from '../src/net/port.js';
import { NIL } from '../src/net/packet.js';
import { Rng } from '../src/engine/rng.js';
import { FakeFlow, ScanModel } from './helpers/nic-model.js';

/** Coarse ready times (multiples of 5 around now), so that flows often tie. */
function readyNear(rng: Rng, now: number): number {
  return now + 5 * (rng.int(10) - 3);
}

for (const seed of [1, 2, 3, 4, 5, 6]) {
  test(`fifo ready set picks as the earliest-ready scan does, ties included (random run, seed ${seed})`, () => {
    const rng = new Rng(seed);
    const set = new NicReadySet(true);
    const model = new ScanModel(true);
    const paused = new Uint8Array(8);
    let now = 0;
    let nextId = 0;
    let picks = 0;
    let tiedPicks = 0;
    let wakes = 0;
    const classes = seed % 2 === 0 ? [3] : [1, 3, 5];
    for (let step = 0; step < 20_000; step++) {
      const op = rng.int(100);
      const flows = model.flows;
      // seeds 3-6: phases of mostly joins and mostly leaves, so freed slots pile up and the table compacts
      const shrink = seed >= 3 && Math.floor(step / 2500) % 2 === 1;
      const joinUpTo = seed >= 3 ? (shrink ? 4 : 16) : 12;
      if (op < joinUpTo || flows.length === 0) {
        const f = new FakeFlow(nextId++, classes[rng.int(classes.length)]!);
        // flows that join together often share their ready time (now)
        f.ready = rng.int(2) === 0 ? now : readyNear(rng, now);
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
        else f.ready = readyNear(rng, now);
        set.touch(f);
      } else if (op < 52) {
        now += 5 * rng.int(3);
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
        // how many flows share the earliest due ready time: the pick is a tie-break when > 1
        let tMin = Infinity;
        let ties = 0;
        for (const f of flows) {
          if (paused[f.prio] !== 0 || !f.open || f.ready > now) continue;
          if (f.ready < tMin) {
            tMin = f.ready;
            ties = 1;
          } else if (f.ready === tMin) ties++;
        }
        const want = model.pick(now, paused);
        const got = set.pick(now, paused);
        assert.equal(got === null ? -1 : (got as FakeFlow).id, want.f === null ? -1 : want.f.id, `step ${step} (${ties} flows tie)`);
        if (got === null) {
          assert.equal(set.wakeTime, want.wake, `wake at step ${step}`);
          if (want.wake !== Infinity) wakes++;
        } else {
          picks++;
          if (ties > 1) tiedPicks++;
          // a sent packet moves the flow's pacing time and may close its window
          const f = got as FakeFlow;
          f.ready = now + 5 * rng.int(4);
          if (rng.int(4) === 0) f.open = false;
        }
      }
      assert.equal(set.count, model.flows.length);
    }
    // the run must exercise what it checks: many picks, many of them among tied flows, and wake-ups
    assert.ok(picks > 1000 && tiedPicks > 1000 && wakes > 20, `${picks} picks, ${tiedPicks} among tied flows, ${wakes} wake-ups`);
  });
}

/** The parts of the scheduler and port the host's pick uses; records the wake-up it arms. */
function fakeHost(fifo: boolean): { host: Host; sched: { now: number; armed: number }; paused: Uint8Array } {
  const sched = {
    now: 0,
    armed: -1,
    // the host hands the time and its handle through typed arrays (Scheduler.scheduleFrom)
    scheduleFrom(times: Float64Array, i: number, _kind: number, _id: number, _tag: number, handles: Float64Array, j: number): void {
      this.armed = times[i]!;
      handles[j] = 1;
    },
    isPendingFrom(): boolean {
      return true;
    },
    cancelFrom(): boolean {
      return true;
    },
  };
  const paused = new Uint8Array(8);
  const port = { paused, dequeue: () => NIL, hasQueued: () => false, kick: () => {} };
  const cfg = { ackPriority: 'sameAsData', nicArbitration: fifo ? 'fifoWhenQueueEmpty' : 'rrPerPacket' };
  const host = new Host({ sched, acct: null, flowAcct: null } as unknown as NetContext, 0, cfg as TransportConfig);
  host.port = port as unknown as Port;
  return { host, sched, paused };
}

for (const fifo of [true, false]) {
  for (const seed of [1, 2]) {
    test(`host ${fifo ? 'earliest-ready' : 'round-robin'} arbitration, scan and set, picks as the scan model (seed ${seed})`, () => {
      const rng = new Rng(100 + seed);
      const { host, sched, paused } = fakeHost(fifo);
      const model = new ScanModel(fifo);
      let nextId = 0;
      let picks = 0;
      let wakes = 0;
      let maxFlows = 0;
      let backToScan = 0;
      const classes = seed === 1 ? [3] : [1, 3];
      for (let step = 0; step < 30_000; step++) {
        const flows = model.flows;
        // phases: grow past 32 flows (the host moves them into its set), then shrink below 8 (back to the scan)
        const grow = Math.floor(step / 3000) % 2 === 0;
        const op = rng.int(100);
        if (flows.length === 0 || op < (grow ? 14 : 2)) {
          const f = new FakeFlow(nextId++, classes[rng.int(classes.length)]!);
          f.ready = rng.int(2) === 0 ? sched.now : readyNear(rng, sched.now);
          f.open = rng.int(5) !== 0;
          flows.push(f);
          host.addFlow(f);
        } else if (op < (grow ? 20 : 16)) {
          const f = flows[rng.int(flows.length)]!;
          model.remove(f);
          host.removeFlow(f);
          if (flows.length === 7) backToScan++;
        } else if (op < 40) {
          const f = flows[rng.int(flows.length)]!;
          if (rng.int(2) === 0) f.open = !f.open;
          else f.ready = readyNear(rng, sched.now);
          host.touch(f);
        } else if (op < 52) {
          sched.now += 5 * rng.int(3);
        } else if (op < 55) {
          const c = classes[rng.int(classes.length)]!;
          paused[c] = paused[c] === 0 ? 1 : 0;
        } else {
          const want = model.pick(sched.now, paused);
          // forget the wake-up armed before, so that this pick arms its own
          host.onWake();
          sched.armed = -1;
          const got = host.pull(host.port);
          assert.equal(got, want.f === null ? NIL : want.f.id, `step ${step}, ${flows.length} flows`);
          if (want.f === null) {
            assert.equal(sched.armed, want.wake === Infinity ? -1 : want.wake, `wake at step ${step}`);
            if (want.wake !== Infinity) wakes++;
          } else {
            picks++;
            want.f.ready = sched.now + 5 * rng.int(4);
            if (rng.int(4) === 0) want.f.open = false;
            host.touch(want.f);
          }
        }
        if (flows.length > maxFlows) maxFlows = flows.length;
      }
      assert.ok(picks > 1000 && wakes > 20 && maxFlows > 32 && backToScan > 1, `${picks} picks, ${wakes} wake-ups, up to ${maxFlows} flows, ${backToScan} moves back to the scan`);
    });
  }
}
