/**
 * A worker of test/window-sync.test.ts: runs `windows` windows against the other workers
 * through shared-memory rings and a barrier, as a partition's worker would, and reports what
 * it received and the reductions it saw.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { WindowBarrier, WindowRing } from '../../src/engine/window-sync.js';

interface Job {
  barrier: SharedArrayBuffer;
  /** rings[from][to] (null on the diagonal) */
  rings: (SharedArrayBuffer | null)[][];
  capacity: number;
  workers: number;
  me: number;
  windows: number;
}

// (the test runner also loads this file as a module of dist/test: then there is nothing to do)
if (!isMainThread) work(workerData as Job);

function work(j: Job): void {
  const bar = new WindowBarrier(j.barrier, j.workers, j.me);
const ring = (from: number, to: number): WindowRing => new WindowRing(j.rings[from]![to]!, j.capacity);
/** entries worker w sends worker v in window k: 4 doubles each */
const entries = (k: number, w: number, v: number): number => (k * 7 + w * 3 + v) % 5;
const errors: string[] = [];
let received = 0;
const mins: number[] = [];
const sums: number[] = [];
for (let k = 0; k < j.windows; k++) {
  for (let v = 0; v < j.workers; v++) {
    if (v === j.me) continue;
    const r = ring(j.me, v);
    const h = r.half(k);
    const n = entries(k, j.me, v);
    for (let i = 0; i < n; i++) h.set([k, j.me, v, i], 4 * i);
    r.publish(k, 4 * n);
  }
  bar.arrive(1000 * k + 10 * j.me + 5, received);
  mins.push(bar.minNext);
  sums.push(bar.sum);
  for (let u = 0; u < j.workers; u++) {
    if (u === j.me) continue;
    const got = ring(u, j.me).received(k);
    const n = entries(k, u, j.me);
    if (got.length !== 4 * n) errors.push(`window ${k}: ${got.length / 4} entries from ${u}, sent ${n}`);
    for (let i = 0; i < got.length / 4; i++) {
      const e = [...got.subarray(4 * i, 4 * i + 4)];
      if (e.join() !== [k, u, j.me, i].join()) errors.push(`window ${k}: entry ${i} from ${u} is ${e.join()}`);
    }
    received += got.length / 4;
  }
}
parentPort!.postMessage({ errors, received, mins, sums });
}
