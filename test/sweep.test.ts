/**
 * Sweeps: planning (cartesian product, zips, quick, bad input named by point
 * and field, before anything runs), running on worker threads, resume after a
 * SIGKILL without losing or deleting anything, and a failing point that does
 * not stop the others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecError } from '../src/engine/errors.js';
import { planSweep } from '../src/experiment/run/sweep.js';
import { runSweep } from '../src/experiment/run/sweep-run.js';
import { loadSpec } from '../src/experiment/spec/resolve.js';
import { UsageError } from '../src/engine/errors.js';
import { sealJson } from '../src/experiment/results/ownership.js';
import { tempDir } from './helpers/tmp.js';
import { star9Incast } from './helpers/specs.js';
import { parquetReadObjects } from 'hyparquet';
import { PARQUET_FIXED_COLUMNS } from '../src/experiment/run/sweep-parquet.js';
import { CLI } from './helpers/cli.js';

const dir = tempDir('sweep-test');

const BASE = star9Incast('sw');

function write(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function ccsim(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function specIssues(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof SpecError) return e.lines();
    throw e;
  }
  assert.fail('expected a SpecError');
}

test('plan: cartesian product (first field outermost) times a named zip; folder names from the values', () => {
  const p = write(
    'plan.yaml',
    `${BASE}sweep:
  cc: [hpcc, dcqcn]
  workload[0].fanIn: [4, 8]
  zip:
    burst:
      workload[0].size: [16KB, 32KB, 64KB]
      seed: [1, 2, 3]
`,
  );
  const plan = planSweep(p);
  assert.equal(plan.points.length, 2 * 2 * 3);
  assert.deepEqual(
    plan.fields.map((f) => f.path),
    ['cc', 'workload[0].fanIn', 'workload[0].size', 'seed'],
  );
  const p0 = plan.points[0]!;
  assert.deepEqual(p0.vars, { cc: 'hpcc', 'workload[0].fanIn': 4, 'workload[0].size': '16KB', seed: 1 });
  assert.equal(p0.id, 'cc=hpcc,fanIn=4,size=16KB,seed=1');
  // zip members vary together; the last entry varies fastest
  assert.deepEqual(plan.points[1]!.vars, { cc: 'hpcc', 'workload[0].fanIn': 4, 'workload[0].size': '32KB', seed: 2 });
  assert.equal(plan.points[6]!.vars['cc'], 'dcqcn');
  assert.equal(plan.points[6]!.spec.cc.name, 'dcqcn');
  assert.equal(plan.points[6]!.spec.workload[0]!.type, 'incast');
  assert.equal(new Set(plan.points.map((x) => x.id)).size, plan.points.length);
  assert.equal(new Set(plan.points.map((x) => x.hash)).size, plan.points.length);
  // fanIn 4 → 4 flows per point
  assert.equal(p0.flows, 4);
});

test('plan: cc.params into a cc written as a name; --quick merges paths and sweeps', () => {
  const p = write(
    'params.yaml',
    `${BASE}sweep:
  cc.params.eta: [0.9, 0.95]
quick:
  workload[0].size: 8KB
  sweep: { cc.params.eta: [0.5] }
`,
  );
  const full = planSweep(p);
  assert.equal(full.points.length, 2);
  assert.deepEqual(full.points[1]!.raw['cc'], { name: 'hpcc', params: { eta: 0.95 } });
  assert.equal(full.points[1]!.spec.cc.params['eta'], 0.95);
  const quick = planSweep(p, { quick: true });
  assert.equal(quick.points.length, 1);
  assert.equal(quick.points[0]!.spec.workload[0]!.type === 'incast' && quick.points[0]!.spec.workload[0]!.size, 8 * 1000);
});

test('bad sweeps: unknown fields, empty sweep, unequal zip, invalid points; each named', () => {
  const unknown = specIssues(() =>
    planSweep(write('u.yaml', `${BASE}sweep:\n  workload[0].fanin: [1]\n  network.nosuch: [1]\n  workload[2].load: [0.5]\n  cc.params.bogus: [1]\n`)),
  );
  assert.deepEqual(unknown, [
    'sweep.workload[0].fanin: does not exist in the spec (workload[0].fanin: unknown key)',
    'sweep.network.nosuch: does not exist in the spec (network.nosuch: unknown key)',
    'sweep.workload[2].load: does not exist in the spec: index 2 out of range (the list has 1 entry)',
    'sweep.cc.params.bogus: does not exist in the spec (cc.params.bogus: unknown key)',
  ]);
  assert.match(specIssues(() => planSweep(write('e.yaml', `${BASE}sweep: {}\n`))).join('\n'), /^sweep: \{\} — an empty sweep/);
  assert.match(specIssues(() => planSweep(write('e2.yaml', `${BASE}sweep:\n  cc: []\n`))).join('\n'), /^sweep\.cc: \[\] — must list at least one value/);
  assert.match(
    specIssues(() => planSweep(write('z.yaml', `${BASE}sweep:\n  zip: [{ seed: [1, 2], cc: [hpcc] }]\n`))).join('\n'),
    /sweep\.zip\[0\]: the lists of a zip group must have equal lengths \(seed: 2, cc: 1\)/,
  );
  assert.match(specIssues(() => planSweep(write('bp.yaml', `${BASE}sweep:\n  bad path: [1]\n`))).join('\n'), /sweep\.bad path: not a field path/);
  // schema errors and resolution errors of single points name the point and the field
  const pts = specIssues(() => planSweep(write('p.yaml', `${BASE}sweep:\n  workload[0].fanIn: [4, 12]\n  cc: [hpcc, nosuchcc]\n`)));
  assert.ok(pts.includes('2 points, e.g. point 1 (fanIn=4 cc=nosuchcc): cc: "nosuchcc" — unknown congestion control (known: ' + pts[0]!.split('(known: ')[1]), pts.join('\n'));
  assert.ok(pts.some((l) => /^point 2 \(fanIn=12 cc=hpcc\): workload\[0\]\.fanIn: 12 — exceeds the 8 hosts/.test(l)), pts.join('\n'));
  assert.match(specIssues(() => planSweep(write('f.yaml', `${BASE}sweep:\n  cc: [hpcc]\nfigure: no-such-figure\n`))).join('\n'), /^figure: "no-such-figure" — unknown figure analysis/);
});

test('run / validate on a sweep spec: run points to `ccsim sweep`, validate checks every point', () => {
  const p = write('rv.yaml', `${BASE}sweep:\n  cc: [hpcc, dcqcn]\n`);
  assert.throws(() => loadSpec(p), (e: unknown) => e instanceof UsageError && /run it with `ccsim sweep/.test(e.message));
  const r = ccsim('run', p);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is a sweep .*ccsim sweep/);
  const v = ccsim('validate', p);
  assert.equal(v.code, 0, v.stderr);
  assert.match(v.stdout, /^ok: sw: sweep of 2 points over cc \(16 flows in all\)/);
  // figure/quick keys alone do not stop `run`
  const q = write('q.yaml', `${BASE}quick: { 'workload[0].size': 1KB }\n`);
  const rq = ccsim('validate', q, '--quick');
  assert.equal(rq.code, 0, rq.stderr);
});

test('sweep on 2 workers: every point in its folder with its manifest, index files, flows.parquet, identical to a 1-worker run', async () => {
  const p = write(
    'run.yaml',
    BASE.replace('name: sw', 'name: sw-run') + `sweep:\n  cc: [hpcc, dcqcn]\n  workload[0].fanIn: [4, 8]\n`,
  );
  const a = await runSweep(p, { out: join(dir, 'run-a'), jobs: 2, quiet: true });
  assert.equal(a.failed.length, 0);
  assert.equal(a.ran, 4);
  assert.equal(a.jobs, 2);
  const index = JSON.parse(readFileSync(join(a.dir, 'sweep.json'), 'utf8')) as { fields: string[]; points: { id: string; dir: string; hash: string }[] };
  assert.deepEqual(index.fields, ['cc', 'workload[0].fanIn']);
  assert.equal(index.points.length, 4);
  for (const pt of index.points) {
    const m = JSON.parse(readFileSync(join(a.dir, pt.dir, 'manifest.json'), 'utf8')) as { sweep: { hash: string; id: string }; resolved: { cc: { name: string } } };
    assert.equal(m.sweep.hash, pt.hash);
    assert.equal(m.sweep.id, pt.id);
    assert.ok(existsSync(join(a.dir, pt.dir, 'fct.csv')));
  }
  const csv = readFileSync(join(a.dir, 'points.csv'), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'index,id,status,cc,workload[0].fanIn,events,wall_s,error');
  assert.equal(csv.length, 5);
  assert.ok(csv.slice(1).every((l) => l.includes(',done,')));
  // flows.parquet: one row per flow of every point, the varied fields as columns
  const buf = readFileSync(join(a.dir, 'flows.parquet'));
  const table = (await parquetReadObjects({ file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) })) as Record<string, unknown>[];
  const fctRows = index.points.map((pt) => readFileSync(join(a.dir, pt.dir, 'fct.csv'), 'utf8').trim().split('\n').length - 1);
  assert.equal(table.length, fctRows.reduce((x, y) => x + y, 0));
  assert.deepEqual(Object.keys(table[0]!), [...PARQUET_FIXED_COLUMNS, 'fanIn']);
  const dcqcn8 = table.filter((r) => r['cc'] === 'dcqcn' && r['fanIn'] === 8);
  assert.equal(dcqcn8.length, 8);
  assert.ok(dcqcn8.every((r) => r['cc_name'] === 'dcqcn' && r['finished'] === true && r['tag'] === 'incast' && r['bytes'] === 64000n));
  const csv8 = readFileSync(join(a.dir, 'points', 'cc=dcqcn,fanIn=8', 'fct.csv'), 'utf8').trim().split('\n').slice(1);
  const meanCsv = csv8.reduce((s, l) => s + Number(l.split(',')[8]), 0) / csv8.length;
  const meanPq = dcqcn8.reduce((s, r) => s + (r['slowdown'] as number), 0) / dcqcn8.length;
  assert.ok(Math.abs(meanCsv - meanPq) < 1e-12, `${meanCsv} vs ${meanPq}`);
  const b = await runSweep(p, { out: join(dir, 'run-b'), jobs: 1, quiet: true });
  for (const pt of index.points) {
    assert.equal(readFileSync(join(b.dir, pt.dir, 'fct.csv'), 'utf8'), readFileSync(join(a.dir, pt.dir, 'fct.csv'), 'utf8'));
  }
  assert.equal(readFileSync(join(a.dir, 'sweep.json'), 'utf8'), readFileSync(join(b.dir, 'sweep.json'), 'utf8'));
});

/** The sweep.json of an earlier ccsim sweep in the same folder (sealed, so ccsim recognises it as its own). */
const EARLIER_SWEEP = JSON.stringify(sealJson({ ccsim: '0.0.0', kind: 'sweep', name: 'earlier', points: [] }), null, 2) + '\n';

test('a failing point is reported with its error, the others finish, exit code 3, and the blocking files are kept', () => {
  const p = write('fail.yaml', BASE.replace('name: sw', 'name: sw-fail') + `sweep:\n  cc: [hpcc, dcqcn, none]\n`);
  const out = join(dir, 'fail-out');
  // a folder that ccsim did not write sits where the dcqcn point goes
  mkdirSync(join(out, 'points', 'cc=dcqcn'), { recursive: true });
  writeFileSync(join(out, 'sweep.json'), EARLIER_SWEEP);
  writeFileSync(join(out, 'points', 'cc=dcqcn', 'notes.txt'), 'mine');
  const r = ccsim('sweep', p, '--out', out, '--jobs', '2');
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /1 of 3 points failed:\n {2}point 1 \(cc=dcqcn\): cannot write results to .* is not empty and is not a ccsim result/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.equal(readFileSync(join(out, 'points', 'cc=dcqcn', 'notes.txt'), 'utf8'), 'mine');
  assert.ok(existsSync(join(out, 'points', 'cc=hpcc', 'manifest.json')));
  assert.ok(existsSync(join(out, 'points', 'cc=none', 'manifest.json')));
  assert.match(readFileSync(join(out, 'points.csv'), 'utf8'), /\n1,cc=dcqcn,failed,dcqcn,,,cannot write results to/);
  const failed = JSON.parse(readFileSync(join(out, 'points', 'cc=dcqcn.failed.json'), 'utf8')) as { error: string };
  assert.match(failed.error, /not a ccsim result/);
  // fixed by the user: the re-run runs only that point and clears the failure record
  rmSync(join(out, 'points', 'cc=dcqcn'), { recursive: true });
  const r2 = ccsim('sweep', p, '--out', out, '--jobs', '2');
  assert.equal(r2.code, 0, r2.stderr);
  assert.match(r2.stdout, /3\/3 points finished, 2 skipped \(already finished\); 1 run/);
  assert.ok(!existsSync(join(out, 'points', 'cc=dcqcn.failed.json')));
});

test('sweep folder rules: a non-sweep folder is refused before anything runs', () => {
  const p = write('dirs.yaml', `${BASE}sweep:\n  cc: [hpcc]\n`);
  const out = join(dir, 'someone-elses');
  mkdirSync(out);
  writeFileSync(join(out, 'data.txt'), 'x');
  const r = ccsim('sweep', p, '--out', out);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is not empty and is not a ccsim sweep \(no sweep\.json\); refusing/);
  assert.deepEqual(readdirSync(out), ['data.txt']);
});

test('resume after SIGKILL mid-sweep: finished points are kept and skipped, nothing half-written, user files untouched', async () => {
  // 6 points of a few hundred ms each, one worker: kill after the first point lands
  const spec = write(
    'kill.yaml',
    `name: sw-kill
topology: { type: spineLeaf, spines: 2, leaves: 4, hostsPerLeaf: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: poisson, cdf: websearch, load: 0.6, duration: 200us }
sweep:
  seed: [1, 2, 3, 4, 5, 6]
`,
  );
  const out = join(dir, 'kill-out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'sweep.json'), EARLIER_SWEEP);
  writeFileSync(join(out, 'my-notes.md'), 'keep me');
  const child = spawn(process.execPath, [CLI, 'sweep', spec, '--out', out, '--jobs', '1'], { cwd: dir, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (/\[1\/6\] done/.test(stdout)) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`sweep ended before it was killed:\n${stdout}`)));
  });
  await new Promise((r) => child.once('exit', r));
  const points = join(out, 'points');
  // a point looks finished only with a final manifest, and then every file it lists is there
  const finalManifest = (e: string): { files: string[] } | undefined => {
    try {
      const m = JSON.parse(readFileSync(join(points, e, 'manifest.json'), 'utf8')) as { files: string[]; incomplete?: boolean };
      return m.incomplete === true ? undefined : m;
    } catch {
      return undefined;
    }
  };
  const finished = readdirSync(points).filter((e) => finalManifest(e) !== undefined);
  assert.ok(finished.length >= 1 && finished.length < 6, `finished before the kill: ${finished.join(', ')}`);
  for (const e of finished) for (const f of finalManifest(e)!.files) assert.ok(existsSync(join(points, e, f)), `${e}/${f} listed but missing`);
  const before = new Map(finished.map((f) => [f, readFileSync(join(points, f, 'manifest.json'), 'utf8')]));

  const r = ccsim('sweep', spec, '--out', out, '--jobs', '2');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`6/6 points finished, ${finished.length} skipped \\(already finished\\); ${6 - finished.length} run`));
  // finished points were not re-run (their manifests are untouched), the rest are there
  for (const [f, m] of before) assert.equal(readFileSync(join(points, f, 'manifest.json'), 'utf8'), m);
  assert.equal(readdirSync(points).filter((e) => existsSync(join(points, e, 'manifest.json'))).length, 6);
  assert.deepEqual(
    readdirSync(points).filter((e) => /\.(tmp|old)-/.test(e)),
    [],
  );
  // no staging folder of the killed attempt is left inside any point
  for (const e of readdirSync(points)) assert.deepEqual(readdirSync(join(points, e)).filter((f) => f.startsWith('.ccsim-staging-')), [], e);
  assert.equal(readFileSync(join(out, 'my-notes.md'), 'utf8'), 'keep me');
});
