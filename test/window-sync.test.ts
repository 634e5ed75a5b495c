/**
 * The shared-memory pieces of a parallel run's windows (src/engine/window-sync.ts; issue 31):
 * three worker threads run 300 windows, each sending the others a varying number of entries
 * per window through one ring per ordered pair, and meeting at a barrier that reduces the
 * earliest next event time and the sum of a count. Every entry must arrive once, in order, in
 * the window it was sent, and every worker must see the same reductions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { WindowBarrier, WindowRing } from '../src/engine/window-sync.js';

interface Report {
  errors: string[];
  received: number;
  mins: number[];
  sums: number[];
}

test('three workers exchange entries through per-pair rings and agree on every barrier reduction', async () => {
  const workers = 3;
  const windows = 300;
  const capacity = 4 * 8;
  const barrier = new SharedArrayBuffer(WindowBarrier.bytes(workers));
  const rings = Array.from({ length: workers }, (_, a) => Array.from({ length: workers }, (_, b) => (a === b ? null : new SharedArrayBuffer(WindowRing.bytes(capacity)))));
  const url = new URL('./helpers/window-worker.js', import.meta.url);
  const reports = await Promise.all(
    Array.from(
      { length: workers },
      (_, me) =>
        new Promise<Report>((resolve, reject) => {
          const w = new Worker(url, { workerData: { barrier, rings, capacity, workers, me, windows } });
          w.once('message', (m: Report) => resolve(m));
          w.once('error', reject);
        }),
    ),
  );
  const sent = (k: number, w: number, v: number): number => (k * 7 + w * 3 + v) % 5;
  for (let me = 0; me < workers; me++) {
    const r = reports[me]!;
    assert.deepEqual(r.errors, []);
    let want = 0;
    for (let k = 0; k < windows; k++) for (let u = 0; u < workers; u++) if (u !== me) want += sent(k, u, me);
    assert.equal(r.received, want);
    // the earliest next event is worker 0's; the sums are the counts as of each barrier, the same for all
    assert.deepEqual(r.mins, Array.from({ length: windows }, (_, k) => 1000 * k + 5));
    assert.deepEqual(r.sums, reports[0]!.sums);
  }
  assert.equal(reports[0]!.sums.at(-1), reports.reduce((a, r) => a + r.received, 0) - reports.reduce((a, r, me) => a + sentInLast(me), 0));

  function sentInLast(me: number): number {
    let n = 0;
    for (let u = 0; u < workers; u++) if (u !== me) n += sent(windows - 1, u, me);
    return n;
  }
});

test('a ring refuses more than its capacity per window, naming it', () => {
  const r = new WindowRing(new SharedArrayBuffer(WindowRing.bytes(8)), 8);
  assert.throws(() => r.publish(0, 12), /12 doubles in one window, capacity 8/);
});

test('a failed partition releases the barrier: a worker arriving after WindowBarrier.fail throws instead of waiting for ever', () => {
  const sab = new SharedArrayBuffer(WindowBarrier.bytes(2));
  const bar = new WindowBarrier(sab, 2, 0);
  WindowBarrier.fail(sab);
  assert.throws(() => bar.arrive(0, 0), /another partition failed/);
});
