/**
 * `node dist/bench/par-costs.js [workers] [rounds]`: the two costs a parallel run adds to
 * the events themselves (issue 31; docs/performance.md, "Projecting one run on many
 * cores"), measured on this machine:
 * - one window barrier: every worker arrives at a shared counter (Atomics.add), the last
 *   one bumps the generation and wakes the rest (Atomics.notify), the others sleep on it
 *   (Atomics.wait); timed over `rounds` barriers with no work between them;
 * - one cross-partition packet: its eight words (packet fields and arrival time) written
 *   into a shared-memory ring by one worker and read back by another, in batches of a
 *   window's worth, timed per packet.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

interface Job {
  sab: SharedArrayBuffer;
  ring: SharedArrayBuffer;
  workers: number;
  rounds: number;
  me: number;
  packets: number;
}

/** counter of arrivals, generation */
const ARRIVED = 0;
const GEN = 1;

function barrier(ctl: Int32Array, n: number): void {
  const gen = Atomics.load(ctl, GEN);
  if (Atomics.add(ctl, ARRIVED, 1) === n - 1) {
    Atomics.store(ctl, ARRIVED, 0);
    Atomics.add(ctl, GEN, 1);
    Atomics.notify(ctl, GEN);
  } else {
    while (Atomics.load(ctl, GEN) === gen) Atomics.wait(ctl, GEN, gen);
  }
}

function work(j: Job): number {
  const ctl = new Int32Array(j.sab);
  const ring = new Int32Array(j.ring);
  const t0 = performance.now();
  for (let r = 0; r < j.rounds; r++) barrier(ctl, j.workers);
  const barrierUs = ((performance.now() - t0) * 1000) / j.rounds;
  // cross packets: worker 0 writes a window's batch, barrier, worker 1 reads it, barrier
  const batch = j.packets;
  let sum = 0;
  const t1 = performance.now();
  for (let r = 0; r < 200; r++) {
    if (j.me === 0) {
      for (let k = 0; k < batch; k++) {
        const w = k << 3;
        ring[w] = k;
        ring[w + 1] = r;
        ring[w + 2] = k & 255;
        ring[w + 3] = 1000 + (k & 7);
        ring[w + 4] = k * 7;
        ring[w + 5] = -1;
        ring[w + 6] = r * 1000 + k;
        ring[w + 7] = 0;
      }
    }
    barrier(ctl, j.workers);
    if (j.me === 1) for (let k = 0; k < batch; k++) sum += ring[(k << 3) + 3]! + ring[(k << 3) + 6]!;
    barrier(ctl, j.workers);
  }
  const crossNs = (((performance.now() - t1) * 1e6) / (200 * batch)) - (2 * barrierUs * 1000) / batch;
  return j.me === 1 ? crossNs + (sum === -1 ? 1 : 0) : barrierUs;
}

if (isMainThread) {
  const workers = Number(process.argv[2] ?? 2);
  const rounds = Number(process.argv[3] ?? 20000);
  const packets = 4096;
  const sab = new SharedArrayBuffer(8);
  const ring = new SharedArrayBuffer(packets * 32);
  const file = fileURLToPath(import.meta.url);
  const results = await Promise.all(
    Array.from({ length: workers }, (_, me) =>
      new Promise<number>((resolve, reject) => {
        const w = new Worker(file, { workerData: { sab, ring, workers, rounds, me, packets } satisfies Job });
        w.once('message', (m: number) => resolve(m));
        w.once('error', reject);
      }),
    ),
  );
  process.stdout.write(
    `${workers} workers, ${rounds} barriers: ${results[0]!.toFixed(2)} us per barrier; ` +
      `a cross-partition packet through a shared ring (batches of ${packets}): ${results[1]!.toFixed(1)} ns\n`,
  );
} else {
  parentPort!.postMessage(work(workerData as Job));
}
