/**
 * Experiments end to end through `runExperiment`: the same spec and seed give
 * byte-identical result files; another seed gives other results; the shipped
 * demo runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { UsageError } from '../src/engine/errors.js';
import { runExperiment } from '../src/experiment/run/runner.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('exp-test');

const SPEC = `name: determinism
seed: 7
profile: oscar
topology: { type: spineLeaf, spines: 2, leaves: 4, hostsPerLeaf: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
network:
  switch: { bufferBytes: 2MiB }
cc: { name: dcqcn }
workload:
  - { type: poisson, cdf: websearch, load: 0.5, duration: 300us }
  - { type: incast, fanIn: 8, size: 100KB, at: [50us, 120us] }
metrics:
  queues: { ports: [{ node: 16, port: 0 }], interval: 2us }
  throughput: { ports: [{ node: 16, port: 0 }], interval: 10us }
  flowThroughput: { flows: all, interval: 20us }
`;

function files(d: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const f of readdirSync(d).sort()) m.set(f, readFileSync(join(d, f), 'utf8'));
  return m;
}

test('the same spec and seed give byte-identical result files', async () => {
  const spec = join(dir, 'det.yaml');
  writeFileSync(spec, SPEC);
  const a = await runExperiment(spec, { out: join(dir, 'a'), quiet: true });
  const b = await runExperiment(spec, { out: join(dir, 'b'), quiet: true });
  assert.ok(a.output.totals.flows > 20, `flows: ${a.output.totals.flows}`);
  assert.equal(a.output.totals.finished, a.output.totals.flows);
  const fa = files(a.outDir);
  const fb = files(b.outDir);
  assert.deepEqual([...fa.keys()], [...fb.keys()]);
  for (const name of ['fct.csv', 'summary.json', 'queues.csv', 'throughput.csv', 'flow_throughput.csv', 'counters_ports.csv', 'counters_nodes.csv']) {
    assert.ok(fa.has(name), `${name} written`);
    assert.equal(fa.get(name), fb.get(name), `${name} differs between identical runs`);
  }
  // the manifest records the run (wall time differs) but the same spec and seed
  const ma = JSON.parse(fa.get('manifest.json')!) as { seed: number };
  assert.equal(ma.seed, 7);
  // a different seed draws a different workload
  const c = await runExperiment(spec, { out: join(dir, 'c'), quiet: true, seed: 8 });
  assert.notEqual(files(c.outDir).get('fct.csv'), fa.get('fct.csv'));
});

test('the shipped demo runs and every flow finishes', async () => {
  const demo = fileURLToPath(new URL('../../examples/demo.yaml', import.meta.url));
  const r = await runExperiment(demo, { out: join(dir, 'demo'), quiet: true });
  assert.ok(r.output.totals.flows > 0);
  assert.equal(r.output.totals.finished, r.output.totals.flows);
  assert.equal(r.output.totals.drops, 0);
  // the ideal FCT is the topologically correct one: no flow beats it (issue: same-leaf pairs did)
  assert.equal(r.summary.fct.overall.belowOne, 0);
  assert.ok(!r.summary.notes.some((n) => /slowdown < 1/.test(n)), r.summary.notes.join('\n'));
  // every size-bin set accounts for every finished flow
  for (const set of r.summary.fct.binSets) {
    const fct = readFileSync(join(r.outDir, 'fct.csv'), 'utf8').trim().split('\n').slice(1);
    const inSome = fct.filter((l) => {
      const bytes = Number(l.split(',')[3]);
      return set.bins.some((b) => bytes > b.minBytes && bytes <= b.maxBytes);
    }).length;
    assert.equal(inSome + set.outside.count, r.summary.fct.overall.count, set.title);
  }
  const fct = readFileSync(join(r.outDir, 'fct.csv'), 'utf8').trim().split('\n');
  assert.equal(fct.length, r.output.totals.flows + 1);
});

/** A writable that looks like a terminal and keeps what it is sent. */
function fakeTty(): NodeJS.WritableStream & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return Object.assign(w, { isTTY: true, columns: 200, text: () => chunks.join('') });
}

test('the progress bar leaves cursor and line wrap alone and measures delivered bytes', async () => {
  const spec = join(dir, 'prog.yaml');
  writeFileSync(spec, SPEC.replace('name: determinism', 'name: prog'));
  const tty = fakeTty();
  await runExperiment(spec, { out: join(dir, 'prog'), progress: true, progressStream: tty });
  const text = tty.text();
  assert.match(text, /% of bytes delivered/);
  assert.match(text, /100% of bytes delivered/);
  // no "hide cursor" (ESC[?25l) or "line wrap off" (ESC[?7l): an interrupted run cannot leave them set
  assert.ok(!text.includes('\x1b[?25l'), 'cursor hidden');
  assert.ok(!text.includes('\x1b[?7l'), 'line wrap turned off');
});

test('an output folder that cannot be written fails before anything is simulated', async () => {
  const spec = join(dir, 'early.yaml');
  writeFileSync(spec, SPEC.replace('name: determinism', 'name: early'));
  writeFileSync(join(dir, 'a-file.txt'), 'x');
  const tty = fakeTty();
  await assert.rejects(
    runExperiment(spec, { out: join(dir, 'a-file.txt', 'sub'), progress: true, progressStream: tty }),
    (e: unknown) => e instanceof UsageError && /a-file\.txt is a file, not a folder/.test(e.message),
  );
  assert.equal(tty.text(), '', 'the simulation never started (no progress was shown)');
});
