/**
 * `metrics.queues: auto`: every switch egress port is watched and the ports
 * with the highest peak queue are written to queues.csv, so the hot ports
 * appear without knowing the topology's numbering. An incast onto host 0
 * makes host 0's ToR port the hottest; the sampled peak is the port's queue
 * maximum at a sample instant (never above the exact maximum in
 * counters_ports); a long run merges neighbouring samples into their maximum,
 * keeping the buffer bounded and the peak exact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExperiment } from '../src/experiment/run/runner.js';
import { readTable } from '../src/experiment/results/results.js';
import { AUTO_CAP } from '../src/metrics/samplers.js';
import { specErrorOf } from './helpers/specs.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('queues-auto');

function spec(name: string, queues: string): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `name: ${name}
topology: { type: spineLeaf, spines: 2, leaves: 2, hostsPerLeaf: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: incast, fanIn: 6, size: 200KB, receiver: 0, at: [5us] }
metrics:
  queues: ${queues}
`,
  );
  return file;
}

function series(out: string): Map<string, { t: number[]; v: number[] }> {
  const m = new Map<string, { t: number[]; v: number[] }>();
  for (const r of readTable(out, 'queues') ?? []) {
    const k = `${r['node']}:${r['port']}`;
    let s = m.get(k);
    if (!s) m.set(k, (s = { t: [], v: [] }));
    s.t.push(Number(r['t_ps']));
    s.v.push(Number(r['bytes']));
  }
  return m;
}

test('queues: auto writes the top ports by peak queue, the incast receiver port first', async () => {
  const out = join(dir, 'auto');
  await runExperiment(spec('auto', 'auto'), { out, quiet: true });
  const s = series(out);
  assert.ok(s.size >= 1 && s.size <= 4, `${s.size} ports`);
  // host 0 hangs off leaf 8: its port toward host 0 has the highest peak (exact maximum from the counters)
  const ports = readTable(out, 'counters_ports') ?? [];
  const toHost0 = ports.find((p) => Number(p['node']) === 8 && Number(p['peer']) === 0)!;
  const key = `8:${toHost0['port']}`;
  const peaks = [...s.entries()].map(([k, x]) => [k, Math.max(...x.v)] as const).sort((a, b) => b[1] - a[1]);
  assert.equal(peaks[0]![0], key);
  const exact = Number(toHost0['max_queue_bytes']);
  assert.ok(peaks[0]![1] <= exact && peaks[0]![1] > 0.8 * exact, `sampled peak ${peaks[0]![1]} vs exact ${exact}`);
  // 6 x 200 KB into one 100 Gbps port from 2 leaves: hundreds of KB queue up
  assert.ok(peaks[0]![1] > 300_000, `${peaks[0]![1]}`);
  // samples every 1 us (the default interval) from 0
  const t = s.get(key)!.t;
  assert.deepEqual(t.slice(0, 3), [0, 1e6, 2e6]);
});

test('queues: auto on a long run merges samples into their maxima: bounded buffer, same peak as explicit sampling', async () => {
  const a = join(dir, 'long-auto');
  const e = join(dir, 'long-explicit');
  await runExperiment(spec('longauto', '{ ports: auto, top: 1, interval: 10ns }'), { out: a, quiet: true });
  const sa = series(a);
  assert.equal(sa.size, 1);
  const [key, auto] = [...sa.entries()][0]!;
  const [node, port] = key.split(':').map(Number);
  const ports = readTable(a, 'counters_ports') ?? [];
  const peer = Number(ports.find((p) => Number(p['node']) === node && Number(p['port']) === port)!['peer']);
  await runExperiment(spec('longexplicit', `{ ports: [{ link: [${node}, ${peer}] }], interval: 10ns }`), { out: e, quiet: true });
  const explicit = [...series(e).values()][0]!;
  assert.ok(explicit.v.length > AUTO_CAP, `explicit sampling has ${explicit.v.length} samples`);
  assert.ok(auto.v.length <= AUTO_CAP && auto.v.length > AUTO_CAP / 4, `${auto.v.length} samples`);
  const step = auto.t[1]! - auto.t[0]!;
  assert.ok(step >= 20_000 && (step / 10_000) % 2 === 0, `interval ${step} ps: a doubling of 10 ns`);
  assert.equal(Math.max(...auto.v), Math.max(...explicit.v));
  // each merged sample is the maximum of the explicit samples it covers
  const k = step / 10_000;
  for (let j = 0; j < 50; j++) assert.equal(auto.v[j], Math.max(...explicit.v.slice(j * k, (j + 1) * k)));
});

test('queues: a bad ports value names the field', () => {
  const msg = specErrorOf(() => loadAndResolve(spec('bad', '{ ports: all }')));
  assert.match(msg, /metrics\.queues/);
  assert.match(msg, /auto/);
});
