#!/usr/bin/env node
/**
 * Records what example and experiment runs really cost, for the cost model's
 * test (test/estimate-recorded.test.ts compares the estimate's events with the
 * events recorded here; events are the same on every machine, wall time is not).
 *
 *   npm run build && node scripts/record-costs.mjs [--timeout 60] [--only substring] [--quick-sweep spec]...
 *
 * For each example spec (full size) and each experiment spec (`--quick`): its
 * first and last sweep point, each run in a child process with a time limit.
 * A run over the limit is recorded as `timedOut` (a lower bound on its cost).
 * Writes data/estimate/recorded-runs.json (merged with what is there, keyed by
 * spec, quick and point).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'ccsim.mjs');
const OUT = join(ROOT, 'data', 'estimate', 'recorded-runs.json');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const timeoutSecs = Number(opt('--timeout', '60'));
const only = opt('--only', undefined);

await import(join(ROOT, 'dist', 'experiments', 'index.js'));
const { planSweep } = await import(join(ROOT, 'dist', 'src', 'experiment', 'run', 'sweep.js'));
const { readSpecFile } = await import(join(ROOT, 'dist', 'src', 'experiment', 'spec', 'resolve.js'));

const record = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : { runs: [] };
const keyOf = (r) => `${r.spec}|${r.quick}|${r.point ?? ''}`;
const runs = new Map(record.runs.map((r) => [keyOf(r), r]));
const save = () => {
  mkdirSync(join(ROOT, 'data', 'estimate'), { recursive: true });
  const sorted = [...runs.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, node: process.version };
  writeFileSync(OUT, JSON.stringify({ about: 'measured runs of the example and experiment specs (scripts/record-costs.mjs)', machine, runs: sorted }, null, 1) + '\n');
};

function manifestUnder(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name === 'manifest.json') return JSON.parse(readFileSync(join(e.parentPath ?? e.path, e.name), 'utf8'));
  }
  return undefined;
}

function measure(spec, quick, point) {
  const tmp = mkdtempSync(join(tmpdir(), 'ccsim-cost-'));
  const argv = point === undefined ? [CLI, 'run', spec, '-o', join(tmp, 'run'), '--quiet'] : [CLI, 'sweep', spec, '--point', String(point), '-o', tmp, '--quiet'];
  if (quick) argv.push('--quick');
  const t0 = Date.now();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', timeout: timeoutSecs * 1000, killSignal: 'SIGKILL' });
  const secs = (Date.now() - t0) / 1000;
  const rel = relative(ROOT, spec);
  const base = { spec: rel, quick, ...(point !== undefined ? { point } : {}) };
  let rec;
  if (r.error !== undefined || r.signal !== null) rec = { ...base, timedOut: true, limitSecs: timeoutSecs };
  else if (r.status !== 0) rec = { ...base, failed: (r.stderr || r.stdout).split('\n')[0] };
  else {
    const m = manifestUnder(tmp);
    const run = m?.run;
    rec = run === undefined ? { ...base, failed: 'no manifest' } : { ...base, events: run.events, simWallMs: Math.round(run.wallMs), wallSecs: Math.round(secs * 10) / 10, simulatedPs: run.simulatedPs, peakRssMB: Math.round(run.peakRssBytes / 1e6) };
  }
  rmSync(tmp, { recursive: true, force: true });
  runs.set(keyOf(rec), rec);
  save();
  process.stdout.write(`${JSON.stringify(rec)}\n`);
}

const specs = [];
for (const f of readdirSync(join(ROOT, 'examples'))) if (f.endsWith('.yaml') && f !== 'reference.yaml') specs.push({ path: join(ROOT, 'examples', f), quick: false });
for (const d of readdirSync(join(ROOT, 'experiments'), { withFileTypes: true })) {
  if (!d.isDirectory()) continue;
  for (const f of readdirSync(join(ROOT, 'experiments', d.name)).sort()) if (f.endsWith('.yaml')) specs.push({ path: join(ROOT, 'experiments', d.name, f), quick: true });
}
const todo = [];
for (const s of specs) {
  if (only !== undefined && !s.path.includes(only)) continue;
  const raw = readSpecFile(s.path);
  if (raw !== null && typeof raw === 'object' && 'sweep' in raw) {
    let plan;
    try {
      plan = planSweep(s.path, { quick: s.quick });
    } catch (e) {
      process.stdout.write(`skip ${s.path}: ${String(e).split('\n')[0]}\n`);
      continue;
    }
    const n = plan.points.length;
    todo.push([s.path, s.quick, 0]);
    if (n > 1) todo.push([s.path, s.quick, n - 1, true]);
  } else todo.push([s.path, s.quick, undefined]);
}
// first points of every spec first, then the last points
todo.sort((a, b) => Number(a[3] === true) - Number(b[3] === true));
for (const [spec, quick, point] of todo) {
  const k = `${relative(ROOT, spec)}|${quick}|${point ?? ''}`;
  if (runs.has(k) && args.includes('--resume')) continue;
  measure(spec, quick, point);
}
