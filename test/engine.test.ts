import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../src/engine/scheduler.js';
import { Simulation } from '../src/sim/simulate.js';
import { star } from '../src/net/topology/index.js';
import { input } from './helpers/sim.js';
import { Rng } from '../src/engine/rng.js';
import { parseBytes, parseRate, parseTimePs, txTimePs, US, type TxTimeQuantization } from '../src/engine/units.js';

function recorder(s: Scheduler): { log: string[]; kind: number } {
  const log: string[] = [];
  const kind = s.register({ fire: (id, tag) => log.push(`${s.now}:${id}:${tag}`) });
  return { log, kind };
}

test('events run in (time, insertion) order', () => {
  const s = new Scheduler(2);
  const { log, kind } = recorder(s);
  s.schedule(30, kind, 1, 0);
  s.schedule(10, kind, 2, 0);
  s.schedule(10, kind, 3, 0);
  s.schedule(20, kind, 4, 0);
  s.schedule(10, kind, 5, 0);
  s.run();
  assert.deepEqual(log, ['10:2:0', '10:3:0', '10:5:0', '20:4:0', '30:1:0']);
  assert.equal(s.eventsProcessed, 5);
});

test('zero-delay events run after everything already queued for that instant', () => {
  const s = new Scheduler();
  const log: string[] = [];
  let kind = -1;
  kind = s.register({
    fire: (id) => {
      log.push(`${s.now}:${id}`);
      if (id === 1) s.after(0, kind, 9, 0);
    },
  });
  s.schedule(5, kind, 1, 0);
  s.schedule(5, kind, 2, 0);
  s.schedule(5, kind, 3, 0);
  s.run();
  assert.deepEqual(log, ['5:1', '5:2', '5:3', '5:9']);
});

test('cancel removes exactly the named event; stale handles are ignored', () => {
  const s = new Scheduler(4);
  const { log, kind } = recorder(s);
  const a = s.schedule(10, kind, 1, 0);
  const b = s.schedule(20, kind, 2, 0);
  s.schedule(30, kind, 3, 0);
  assert.equal(s.cancel(b), true);
  assert.equal(s.cancel(b), false);
  assert.equal(s.isPending(a), true);
  s.run(15);
  assert.equal(s.isPending(a), false);
  // the slot of `a` is recycled; its old handle must not cancel the new event
  const c = s.schedule(40, kind, 4, 0);
  assert.equal(s.cancel(a), false);
  assert.equal(s.isPending(c), true);
  s.run();
  assert.deepEqual(log, ['10:1:0', '30:3:0', '40:4:0']);
});

test('heap stays ordered under random inserts and cancels, growing past its capacity', () => {
  const s = new Scheduler(8);
  const rng = new Rng(7);
  const fired: number[] = [];
  const kind = s.register({ fire: (id) => fired.push(id) });
  const times = new Map<number, number>();
  const handles: number[] = [];
  for (let i = 0; i < 5000; i++) {
    const t = rng.int(1000);
    times.set(i, t);
    handles.push(s.schedule(t, kind, i, 0));
  }
  const cancelled = new Set<number>();
  for (let i = 0; i < 5000; i += 3) {
    assert.equal(s.cancel(handles[i]!), true);
    cancelled.add(i);
  }
  s.run();
  assert.equal(fired.length, 5000 - cancelled.size);
  for (let i = 1; i < fired.length; i++) {
    const a = fired[i - 1]!;
    const b = fired[i]!;
    const ta = times.get(a)!;
    const tb = times.get(b)!;
    assert.ok(ta < tb || (ta === tb && a < b), `order broken at ${i}: ${a}@${ta} then ${b}@${tb}`);
  }
  assert.ok(!fired.some((id) => cancelled.has(id)));
});

test('order holds across the near-future wheel and the far-future heap', () => {
  const s = new Scheduler(4);
  const rng = new Rng(11);
  const fired: number[] = [];
  const times: number[] = [];
  /** insertion order of every event, also those scheduled by handlers */
  const ins: number[] = [];
  let inserted = 0;
  const handles: number[] = [];
  let kind = -1;
  kind = s.register({
    fire: (id) => {
      fired.push(id);
      // events scheduled from inside handlers, near and far, some at the current instant
      if (id < 3000) {
        const d = [0, 1, 999, 1000, 65_535_000, 65_536_000, 200_000_000][id % 7]!;
        const nid = 3000 + id;
        times[nid] = s.now + d;
        ins[nid] = inserted++;
        s.after(d, kind, nid, 0);
      }
    },
  });
  for (let i = 0; i < 3000; i++) {
    // ps-resolution times spread over 1 ms, with many exact ties
    const t = rng.next() < 0.3 ? rng.int(50) * 1000 : rng.int(1_000_000_000);
    times[i] = t;
    ins[i] = inserted++;
    handles.push(s.schedule(t, kind, i, 0));
  }
  for (let i = 0; i < 3000; i += 5) s.cancel(handles[i]!);
  s.run();
  const seqOf = new Map<number, number>();
  fired.forEach((id, k) => seqOf.set(id, k));
  for (let k = 1; k < fired.length; k++) {
    const a = fired[k - 1]!;
    const b = fired[k]!;
    assert.ok(times[a]! <= times[b]!, `time order broken: ${a}@${times[a]} before ${b}@${times[b]}`);
  }
  // equal times keep insertion order, for events scheduled by handlers too
  let ties = 0;
  for (let k = 1; k < fired.length; k++) {
    const a = fired[k - 1]!;
    const b = fired[k]!;
    if (times[a] === times[b]) {
      ties++;
      assert.ok(ins[a]! < ins[b]!, `tie order broken: ${a} (inserted ${ins[a]}) before ${b} (inserted ${ins[b]}) at ${times[a]}`);
    }
  }
  assert.ok(ties > 100, `only ${ties} ties`);
  assert.equal(fired.filter((id) => id < 3000).length, 3000 - 600);
  assert.equal(fired.length, 2 * (3000 - 600));
});

test('an event that waited in the far-future heap runs before one scheduled later into the wheel for the same instant', () => {
  const s = new Scheduler(4);
  const fired: string[] = [];
  const T = 100_000_000; // 100 us: beyond the wheel's 65.5 us window until 34.5 us
  let kind = -1;
  kind = s.register({
    fire: (id) => {
      const name = 'ACXYDB'[id]!;
      fired.push(name);
      if (name === 'Y') s.schedule(T, kind, 4, 0); // D: at 10 us, T is still outside the window (heap)
      if (name === 'X') s.schedule(T, kind, 5, 0); // B: at 50 us, T is inside it (wheel)
    },
  });
  s.schedule(T, kind, 0, 0); // A
  s.schedule(50_000_000, kind, 2, 0); // X
  s.schedule(T, kind, 1, 0); // C
  s.schedule(10_000_000, kind, 3, 0); // Y
  s.run();
  assert.deepEqual(fired, ['Y', 'X', 'A', 'C', 'D', 'B']);
});

test('the queue grows while events are running (handlers scheduling more than its capacity)', () => {
  const s = new Scheduler(4);
  const fired: number[] = [];
  const at: number[] = [];
  let kind = -1;
  kind = s.register({
    fire: (id) => {
      fired.push(id);
      at.push(s.now);
      // the first event schedules 100 more at once, forcing several reallocations mid-run
      if (id === 0) for (let i = 1; i <= 100; i++) s.after(1000 * (101 - i), kind, i, 0);
    },
  });
  s.schedule(5, kind, 0, 0);
  s.run();
  assert.equal(fired.length, 101);
  assert.deepEqual(fired.slice(1), Array.from({ length: 100 }, (_, k) => 100 - k));
  // every event runs at the time it was scheduled for
  assert.deepEqual(at, [5, ...Array.from({ length: 100 }, (_, k) => 5 + 1000 * (k + 1))]);
});

test('run(until) stops at the bound and resumes later', () => {
  const s = new Scheduler();
  const { log, kind } = recorder(s);
  s.schedule(100, kind, 1, 0);
  s.schedule(300, kind, 2, 0);
  assert.equal(s.run(200), false);
  assert.equal(s.now, 200);
  assert.deepEqual(log, ['100:1:0']);
  assert.equal(s.run(), true);
  assert.deepEqual(log, ['100:1:0', '300:2:0']);
});

test('a cancelled wheel event is skipped lazily: pending, peekTime and run(until) see only live events', () => {
  const s = new Scheduler(4);
  const { log, kind } = recorder(s);
  // same 1 ns bucket, out-of-order insert (sorted walk), then cancel the bucket head
  const a = s.schedule(1_200, kind, 1, 0);
  s.schedule(1_500, kind, 2, 0);
  s.schedule(1_100, kind, 3, 0);
  const c = s.schedule(50_000, kind, 4, 0);
  assert.equal(s.pending, 4);
  assert.equal(s.cancel(a), true);
  assert.equal(s.isPending(a), false);
  assert.equal(s.cancel(a), false);
  assert.equal(s.pending, 3);
  assert.equal(s.peekTime(), 1_100);
  assert.equal(s.cancel(c), true);
  assert.equal(s.pending, 2);
  // run(until) between the live events: the cancelled ones never fire, the clock stops at the bound
  assert.equal(s.run(1_300), false);
  assert.deepEqual(log, ['1100:3:0']);
  assert.equal(s.run(), true);
  assert.deepEqual(log, ['1100:3:0', '1500:2:0']);
  assert.equal(s.pending, 0);
  assert.equal(s.eventsProcessed, 2);
  // the cancelled slots are recycled: stale handles stay stale, new events fire
  const d = s.schedule(2_000, kind, 5, 0);
  assert.equal(s.cancel(a), false);
  assert.equal(s.cancel(c), false);
  assert.equal(s.isPending(d), true);
  s.run();
  assert.deepEqual(log.slice(-1), ['2000:5:0']);
});

test('event kinds are registered with the method they reach', () => {
  const s = new Scheduler();
  const k0 = s.register({ fire: () => undefined }, 'Port.onArrive');
  const k1 = s.register({ fire: () => undefined }, 'Host.onWake');
  assert.deepEqual([k0, k1], [0, 1]);
  assert.deepEqual(s.kindNames(), ['Port.onArrive', 'Host.onWake']);
});

test('every event kind of a simulation names the method it reaches', () => {
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
  const sim = new Simulation(
    input(topo, [{ src: 0, dst: 2, bytes: 10_000, startPs: 0 }], {
      cc: 'dcqcn',
      metrics: { queuePorts: [{ node: 3, port: 2 }], queueIntervalPs: 1 * US },
    }),
  );
  const names = sim.sched.kindNames();
  assert.ok(!names.includes('unnamed'), names.join(', '));
  for (const n of ['Port.onTxDone', 'Port.onArrive', 'Host.onWake', 'Transport.onRtoEvent', 'CongestionControl.onTimer', 'Samplers.sample']) {
    assert.ok(names.includes(n), `${n} missing from ${names.join(', ')}`);
  }
});

test('seeded RNG is reproducible, label-separated and uniform', () => {
  const a = new Rng(42);
  const b = new Rng(42);
  const xs = Array.from({ length: 100 }, () => a.next());
  const ys = Array.from({ length: 100 }, () => b.next());
  assert.deepEqual(xs, ys);
  const c = new Rng(43);
  assert.notDeepEqual(Array.from({ length: 100 }, () => c.next()), xs);
  // forks depend on the whole label path
  assert.notEqual(new Rng(1).fork('a').fork('x').next(), new Rng(1).fork('b').fork('x').next());
  assert.equal(new Rng(1).fork('a').fork('x').next(), new Rng(1).fork('a').fork('x').next());
  const r = new Rng(5);
  let sum = 0;
  const n = 100000;
  for (let i = 0; i < n; i++) {
    const v = r.next();
    assert.ok(v >= 0 && v < 1);
    sum += v;
  }
  assert.ok(Math.abs(sum / n - 0.5) < 0.005);
  let esum = 0;
  for (let i = 0; i < n; i++) esum += r.exponential(3);
  assert.ok(Math.abs(esum / n - 3) < 0.06);
});

test('serialization time follows each reference code base (docs/network-model.md §9)', () => {
  const cases: [number, number, TxTimeQuantization, number][] = [
    [1000, 100e9, 'floorViaDouble64x64', 79],
    [1048, 100e9, 'floorViaDouble64x64', 83],
    [1090, 100e9, 'floorViaDouble64x64', 87],
    [60, 100e9, 'floorViaDouble64x64', 4],
    [1048, 400e9, 'floorViaDouble64x64', 20],
    [1090, 400e9, 'floorViaDouble64x64', 21],
    [43, 400e9, 'floorViaDouble64x64', 0],
    [1000, 100e9, 'floorExact', 80],
    [1048, 25e9, 'floorExact', 335],
    [1090, 25e9, 'floorExact', 348],
    [60, 25e9, 'floorExact', 19],
    [88, 25e9, 'floorExact', 28],
    [1054, 100e9, 'roundHalfUp', 84],
    [1096, 100e9, 'roundHalfUp', 88],
    [64, 100e9, 'roundHalfUp', 5],
    [1054, 400e9, 'roundHalfUp', 21],
    [1096, 400e9, 'roundHalfUp', 22],
    [64, 400e9, 'roundHalfUp', 1],
  ];
  for (const [bytes, rate, q, ns] of cases) assert.equal(txTimePs(bytes, rate, q), ns * 1000, `${bytes} B @ ${rate / 1e9}G ${q}`);
  assert.equal(txTimePs(1000, 100e9, 'none'), 80_000);
  assert.equal(txTimePs(1, 3e9, 'none'), 2667);
});

test('unit parsing', () => {
  assert.equal(parseRate('100Gbps'), 100e9);
  assert.equal(parseRate('25G'), 25e9);
  assert.equal(parseRate(1e9), 1e9);
  assert.equal(parseTimePs('1us'), 1_000_000);
  assert.equal(parseTimePs('10ms'), 10_000_000_000);
  assert.equal(parseTimePs(0.5), 500_000_000_000);
  assert.equal(parseBytes('32MiB'), 32 * 1024 * 1024);
  assert.equal(parseBytes('400KiB'), 400 * 1024);
  assert.equal(parseBytes('150KB'), 150_000);
  assert.throws(() => parseRate('fast'), /not a rate: "fast"/);
  assert.throws(() => parseTimePs('1 fortnight'), /not a duration/);
});
