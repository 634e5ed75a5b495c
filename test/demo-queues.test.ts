/**
 * The README demo (examples/demo.yaml) samples the ports its 16:1 incasts hit
 * (`queues: auto`), not a port the incasts never touch: every port in its
 * queues.csv is a switch port towards an incast receiver (or its ToR), and `ccsim run`
 * prints those ports' peaks under the slowdown table (with its p99.9 column).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { readTable } from '../src/experiment/results/results.js';
import { buildPortMap } from '../src/net/topology/routing.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('demo: queues.csv holds the incast receivers\' downlinks and run prints their peaks and p99.9', () => {
  const spec = join(ROOT, 'examples', 'demo.yaml');
  const { loaded, input } = loadAndResolve(spec);
  assert.equal(loaded.spec.metrics.queues, 'auto');
  const receivers = new Set(input.flows.filter((f) => f.tag === 'incast').map((f) => f.dst));
  assert.ok(receivers.size >= 1);
  const pm = buildPortMap(input.topology);
  // a host's only port (0) leads to its ToR: a spine's port towards it carries the incast too
  const receiverTors = new Set([...receivers].map((h) => pm.peerNode[pm.portStart[h]!]!));
  const out = join(tempDir('demo-queues'), 'run');
  const shown = spawnSync(process.execPath, [CLI, 'run', spec, '-o', out], { encoding: 'utf8' });
  assert.equal(shown.status, 0, shown.stderr);
  const q = readTable(out, 'queues') ?? [];
  const ports = new Set(q.map((row) => `${row['node']}/${row['port']}`));
  assert.equal(ports.size, 4);
  let peakMax = 0;
  for (const p of ports) {
    const [node, port] = p.split('/').map(Number) as [number, number];
    const peer = pm.peerNode[pm.portStart[node]! + port]!;
    assert.ok(receivers.has(peer) || receiverTors.has(peer), `sampled port ${p} leads to node ${peer}, neither an incast receiver nor its ToR`);
  }
  for (const row of q) peakMax = Math.max(peakMax, Number(row.bytes));
  // 16 senders x 64 KB onto one 100 Gbps downlink: hundreds of KB queue (the issue saw 581 KB)
  assert.ok(peakMax > 200_000, `peak ${peakMax} B`);
  assert.match(shown.stdout, /p99\.9/);
  const peaks = /queue peaks \(queues\.csv\): (.*)/.exec(shown.stdout);
  assert.ok(peaks, shown.stdout);
  assert.match(peaks[1]!, new RegExp(`${Math.round(peakMax / 1000).toLocaleString('en-US')} KB`));
});
