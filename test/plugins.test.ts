/**
 * Plug-ins from a user's own files (experiment/run/plugins.ts; docs/extending.md, "Plug-ins in
 * your own files"): examples/plugins/ (a toy AIMD CC, a periodic all-to-one workload, a
 * strict-priority + DRR queue discipline and a ring topology) copied to a folder outside the repository and run
 * from its spec, with nothing in src/ changed: as one run (also on 2 threads), as a sweep
 * on 1 and 2 worker threads (the same results), and with the errors a broken plug-in gives.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runExperiment } from '../src/experiment/run/runner.js';
import { runSweep } from '../src/experiment/run/sweep-run.js';
import { ccRegistry } from '../src/cc/registry.js';
import { workloadRegistry } from '../src/workload/registry.js';
import { disciplineRegistry } from '../src/net/switch-registry.js';
import { topologyRegistry } from '../src/net/topology/index.js';
import { readFctRecords } from '../src/experiment/results/results.js';
import { loadPlugins } from '../src/experiment/run/plugins.js';
import { UsageError } from '../src/engine/errors.js';
import { CLI } from './helpers/cli.js';
import { tempDir } from './helpers/tmp.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/plugins/', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

/**
 * examples/plugins/ copied to a folder outside the repository, once for the file: a plug-in
 * file is loaded once per thread, and a copy elsewhere registering the same names would clash.
 */
const USER = tempDir('plugins');
cpSync(EXAMPLES, USER, { recursive: true });

function userFolder(): string {
  assert.ok(relative(REPO, USER).startsWith('..'), `${USER} is outside the repository`);
  return USER;
}

/** fct.csv and summary.json of each point of a sweep folder, by point id. */
function pointResults(sweepDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of readdirSync(join(sweepDir, 'points')).filter((n) => !n.endsWith('.json')).sort()) {
    out.set(id, readFileSync(join(sweepDir, 'points', id, 'fct.csv'), 'utf8') + readFileSync(join(sweepDir, 'points', id, 'summary.json'), 'utf8'));
  }
  return out;
}

test('a spec in a folder outside the repository runs its own CC, workload, queue discipline and topology by name', async () => {
  const dir = userFolder();
  const r = await runExperiment(join(dir, 'spec.yaml'), { out: join(dir, 'out'), quiet: true });
  // registered from the user's files, and named as their source
  assert.equal(ccRegistry.sourceOf('aimd'), join(dir, 'aimd-cc.mjs'));
  assert.equal(workloadRegistry.sourceOf('allToOne'), join(dir, 'all-to-one.mjs'));
  assert.equal(disciplineRegistry.sourceOf('sp-drr'), join(dir, 'sp-drr.mjs'));
  assert.equal(topologyRegistry.sourceOf('ring'), join(dir, 'ring.mjs'));
  // the ring: hosts 0..3, one on each of switches 4..7, the switches joined in a cycle
  assert.equal(r.input.topology.name, 'ring4');
  assert.deepEqual(r.input.topology.links.slice(4).map((l) => [l.a, l.b]), [[4, 5], [5, 6], [6, 7], [7, 4]]);
  assert.equal(r.input.cc.name, 'aimd');
  assert.deepEqual(r.input.cc.params, { increaseBytes: 2000, decrease: 0.6, minWindowBytes: 1000 });
  assert.equal(r.input.net.switch.discipline, 'sp-drr');
  // the workload: hosts 1 and 2 send 100 KB in class 1 every 20 us (5 rounds), host 3 sends 1 MB in class 2 twice, 50 us apart
  const flows = r.input.flows;
  assert.equal(flows.length, 12);
  const small = flows.filter((f) => f.tag === 'small');
  assert.deepEqual([...new Set(small.map((f) => f.startPs))], [0, 20e6, 40e6, 60e6, 80e6]);
  assert.ok(small.every((f) => f.dst === 0 && f.bytes === 100_000 && f.prio === 1 && (f.src === 1 || f.src === 2)));
  const large = flows.filter((f) => f.tag === 'large');
  assert.deepEqual(large.map((f) => [f.src, f.dst, f.bytes, f.startPs, f.prio]), [[3, 0, 1e6, 0, 2], [3, 0, 1e6, 50e6, 2]]);
  // every flow finished (fct.csv)
  const rows = readFctRecords(join(dir, 'out'));
  assert.equal(rows.length, 12);
  assert.ok(rows.every((f) => f.fctPs > 0));
});

test('the plug-in CC reacts to its parameters, and the same spec on 2 threads gives the one-thread result', async () => {
  const dir = userFolder();
  // a dumbbell splits into two partitions; the partition worker loads the plug-in files too
  const spec = readFileSync(join(dir, 'spec.yaml'), 'utf8').replace(
    'topology: { type: ring, switches: 4, rate: 100Gbps, delay: 1us }',
    'topology: { type: dumbbell, left: 2, right: 2, hostRate: 100Gbps, bottleneckRate: 100Gbps, delay: 1us }',
  );
  writeFileSync(join(dir, 'dumbbell.yaml'), spec);
  writeFileSync(join(dir, 'gentle.yaml'), spec.replace('decrease: 0.6', 'decrease: 0.95'));
  // the ring itself splits in two (four switch groups): the same rows as the one-thread run of the first test
  await runExperiment(join(dir, 'spec.yaml'), { out: join(dir, 'ring2'), quiet: true, threads: 2 });
  assert.equal(JSON.parse(readFileSync(join(dir, 'ring2', 'manifest.json'), 'utf8')).threads.used, 2);
  assert.equal(readFileSync(join(dir, 'ring2', 'fct.csv'), 'utf8'), readFileSync(join(dir, 'out', 'fct.csv'), 'utf8'));
  const one = await runExperiment(join(dir, 'dumbbell.yaml'), { out: join(dir, 'one'), quiet: true });
  const two = await runExperiment(join(dir, 'dumbbell.yaml'), { out: join(dir, 'two'), quiet: true, threads: 2 });
  assert.equal(JSON.parse(readFileSync(join(dir, 'two', 'manifest.json'), 'utf8')).threads.used, 2);
  assert.equal(readFileSync(join(dir, 'two', 'fct.csv'), 'utf8'), readFileSync(join(dir, 'one', 'fct.csv'), 'utf8'));
  assert.equal(two.output.totals.flows, one.output.totals.flows);
  // a gentler cut keeps the windows larger: different completion times
  await runExperiment(join(dir, 'gentle.yaml'), { out: join(dir, 'gentle'), quiet: true });
  assert.notEqual(readFileSync(join(dir, 'gentle', 'fct.csv'), 'utf8'), readFileSync(join(dir, 'one', 'fct.csv'), 'utf8'));
});

test('the same spec as a sweep: 2 worker threads load the plug-ins and give the results of 1', async () => {
  const dir = userFolder();
  const a = await runSweep(join(dir, 'sweep.yaml'), { out: join(dir, 'j1'), jobs: 1, quiet: true });
  const b = await runSweep(join(dir, 'sweep.yaml'), { out: join(dir, 'j2'), jobs: 2, quiet: true });
  assert.equal(a.finished, 4);
  assert.equal(b.finished, 4);
  assert.equal(b.jobs, 2);
  assert.deepEqual(b.failed, []);
  const r1 = pointResults(join(dir, 'j1'));
  const r2 = pointResults(join(dir, 'j2'));
  assert.equal(r1.size, 4);
  assert.deepEqual(r2, r1);
  // the points differ: the CC's decrease and the discipline's quantum are swept
  assert.equal(new Set(r1.values()).size, 4);
});

test('a plug-in that cannot be loaded, exports no function or registers a taken name is an error naming its file (CLI: exit 2, no stack)', async () => {
  const dir = userFolder();
  writeFileSync(join(dir, 'clash.mjs'), "export default function (ccsim) { ccsim.registerCc({ name: 'dcqcn' }); }\n");
  writeFileSync(join(dir, 'nodefault.mjs'), 'export const x = 1;\n');
  writeFileSync(join(dir, 'clash-topo.mjs'), "export default function (ccsim) { const { z } = ccsim; ccsim.registerTopology({ type: 'star', summary: 's', schema: z.object({ type: z.literal('star') }), build: () => null }); }\n");
  writeFileSync(join(dir, 'bad-topo.mjs'), "export default function (ccsim) { const { z } = ccsim; ccsim.registerTopology({ type: 'torus', summary: 's', schema: z.object({ type: z.literal('ring') }), build: () => null }); }\n");
  writeFileSync(join(dir, 'broken.mjs'), 'export default function (ccsim) { this is not JavaScript }\n');
  const spec = readFileSync(join(dir, 'spec.yaml'), 'utf8');
  const cases: [string, RegExp][] = [
    ['./clash.mjs', /^error: plugin \S+clash\.mjs: congestion control "dcqcn" from \S+clash\.mjs clashes with the one already registered from built-in/],
    ['./clash-topo.mjs', /^error: plugin \S+clash-topo\.mjs: topology type "star" from \S+clash-topo\.mjs clashes with the one already registered from built-in/],
    ['./bad-topo.mjs', /^error: plugin \S+bad-topo\.mjs: topology type "torus" from \S+bad-topo\.mjs: its schema must be a zod object whose type is z\.literal\('torus'\)/],
    ['./nodefault.mjs', /^error: plugin \S+nodefault\.mjs: its default export must be a function/],
    ['./broken.mjs', /^error: plugin \S+broken\.mjs: cannot be loaded: /],
    ['./missing.mjs', /^error: plugin \S+missing\.mjs: file not found/],
  ];
  for (const [file, message] of cases) {
    writeFileSync(join(dir, 'bad.yaml'), spec.replace('plugins: [', `plugins: [${file}, `));
    for (const cmd of ['validate', 'run']) {
      const r = spawnSync(process.execPath, [CLI, cmd, join(dir, 'bad.yaml'), ...(cmd === 'run' ? ['--out', join(dir, 'o')] : [])], { encoding: 'utf8' });
      assert.equal(r.status, 2, `${cmd} ${file}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
  }
  // the API: a UsageError; a file is loaded once, and a second load of a failed one fails the same way
  await assert.rejects(loadPlugins(['clash.mjs'], dir), (e: unknown) => e instanceof UsageError && /clash\.mjs: congestion control "dcqcn"/.test(e.message));
  await assert.rejects(loadPlugins([join(dir, 'clash.mjs')]), /clash\.mjs: congestion control "dcqcn"/);
  // a spec whose `plugins` is not a list of paths is a spec error at the field
  writeFileSync(join(dir, 'bad.yaml'), spec.replace(/plugins: \[.*\]/, 'plugins: ./aimd-cc.mjs'));
  const r = spawnSync(process.execPath, [CLI, 'validate', join(dir, 'bad.yaml')], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /plugins: "\.\/aimd-cc\.mjs" — expected a list of plug-in module paths/);
});

test('ccsim list and ccsim schema with --plugins show a plug-in as they show built-ins', () => {
  const dir = userFolder();
  const files = ['aimd-cc.mjs', 'all-to-one.mjs', 'sp-drr.mjs', 'ring.mjs'].map((f) => join(dir, f));
  const list = spawnSync(process.execPath, [CLI, 'list', '--plugins', ...files], { encoding: 'utf8' });
  assert.equal(list.status, 0, list.stderr);
  assert.match(list.stdout, /^ {2}aimd: toy AIMD window CC/m);
  assert.match(list.stdout, /^ {6}decrease = 0\.5 {2}\(number\) {2}fraction of the window kept after a mark$/m);
  assert.match(list.stdout, /^ {2}allToOne +every sender starts a flow to one host each period/m);
  assert.match(list.stdout, /^ {2}sp-drr +strict priority for strictQueues, DRR over the rest/m);
  assert.match(list.stdout, /^ {2}drr +deficit round robin/m);
  assert.match(list.stdout, /^ {2}ring +switches in a ring, hosts on each \(examples\/plugins\/ring\.mjs\)$/m);
  assert.match(list.stdout, /^ {17}fields: switches \(int\), hostsPerSwitch\? \(int = 1\), rate \(rate\), delay \(time\), name\? \(string\)$/m);
  const schema = spawnSync(process.execPath, [CLI, 'schema', '--plugins', ...files], { encoding: 'utf8' });
  assert.equal(schema.status, 0, schema.stderr);
  const s = JSON.parse(schema.stdout) as { $defs: Record<string, { properties?: Record<string, { description?: string }> }> };
  assert.equal(s.$defs['cc-params-aimd']?.properties?.['decrease']?.description, 'fraction of the window kept after a mark');
  assert.match(schema.stdout, /"const": "allToOne"/);
  assert.match(schema.stdout, /"const": "ring"/);
});
