/**
 * Start-up: `ccsim --help` and `ccsim validate` load only what they use.
 * `ccsim` is a bundle (scripts/bundle.mjs: a few files instead of ~180 ES
 * modules, whose loading was most of the start-up). main.ts parses the
 * command line with nothing but commander and Node's own modules; each
 * command imports its module when it runs (separate chunks of the bundle);
 * validate does not load the simulator, the sweep runner or the charting
 * library, nor, with its calibration cached, the simulator for the estimate.
 * The time these take is measured by hand (docs/performance.md, "Start-up"),
 * never asserted in a test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PAPERS } from '../src/report/published.js';
import { CLI, CLI_TSC } from './helpers/cli.js';
import { tempDir } from './helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const scratch = tempDir('startup');

interface Loaded {
  status: number | null;
  stdout: string;
  stderr: string;
  /** the files (relative to the package root) the command loaded as ES modules */
  files: string[];
  /** the sources bundled into them (dist/src/..., node_modules/...), from the bundle's metafile */
  inputs: string[];
}

/** Runs the CLI with a module loader hook that logs every file it loads. */
function loaded(args: string[], env: NodeJS.ProcessEnv = {}): Loaded {
  const log = join(scratch, `loads-${Math.random().toString(36).slice(2)}.txt`);
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      if (url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
      return next(url, context);
    }`;
  const preload = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  let urls: string[] = [];
  try {
    urls = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    // nothing loaded (reported by the caller's assertions)
  }
  const files = urls.map((u) => relative(ROOT, fileURLToPath(u)));
  const meta = JSON.parse(readFileSync(join(ROOT, 'dist', '.bundle-meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const inputs = files.flatMap((f) => Object.keys(meta.outputs[f]?.inputs ?? {}));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, files, inputs };
}

test('ccsim is the bundle: package.json bin, executable, with the sweep worker next to it', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: { ccsim: string }; files: string[] };
  assert.equal(join(ROOT, pkg.bin.ccsim), CLI);
  assert.ok(pkg.files.includes('dist/cli'));
  accessSync(CLI, constants.X_OK);
  assert.match(readFileSync(CLI, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  accessSync(join(CLI, '..', 'sweep-worker.mjs'));
  accessSync(join(CLI, '..', 'parallel-worker.mjs'));
  // the TypeScript output is a working ccsim too (the library's layout; in-process tests use it)
  assert.equal(spawnSync(process.execPath, [CLI_TSC, '--version'], { encoding: 'utf8' }).stdout.trim(), JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
});

test('--help loads three files of the bundle; validate a dozen, without the simulator, sweeps, reports or node_modules', () => {
  const help = loaded(['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.ok(help.files.length <= 4 && help.files.every((f) => f.startsWith('dist/cli/')), help.files.join(' '));
  assert.ok(!help.inputs.some((i) => i.includes('zod') || i.includes('yaml')), 'help loads neither zod nor yaml');

  const spec = join(ROOT, 'examples', 'demo.yaml');
  const v = loaded(['validate', '--no-estimate', spec]);
  assert.equal(v.status, 0, v.stderr);
  // 15: with the fluid bounds of estimate-work.ts (its warning about flows a stop time cuts short needs no estimate);
  // 17 since the result layer and the paper analyses no longer reach the simulator (issue 43): the small modules they
  // share with validate (units, io, errors, the registry, CDFs) are chunks of their own, 1-10 kB each, with no
  // start-up time measurable against the build before (8 runs of validate each, same sitting); 19 after the merges of
  // 2026-11-28 (fast-forward's refusals, the breakdown on threads, the transport registry): esbuild splits the modules
  // validate shares with the simulator (net/packet's constants, the topology index) into two more chunks, 16 kB in all;
  // validate took a median 391 ms against 370 ms on the build before (6 alternating runs each on a loaded machine,
  // ranges 347-460 and 342-391 ms)
  assert.ok(v.files.length <= 19 && v.files.every((f) => f.startsWith('dist/cli/')), v.files.join(' '));
  assert.ok(v.inputs.some((i) => i.endsWith('dist/src/experiment/spec/resolve.js')), 'the inputs are read from the metafile');
  const heavy = (inputs: string[]): string[] =>
    inputs.filter((i) => /dist\/src\/(sim\/simulate|experiment\/run\/(runner|sweep-run|estimate)\.js|report\/)|\/echarts\/|\/hyparquet/.test(i));
  assert.deepEqual(heavy(v.inputs), []);

  // with a cached calibration the estimate does not load the simulator; measuring does
  const cache = { CCSIM_CACHE_DIR: join(scratch, 'cache') };
  const first = loaded(['validate', spec], cache);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /events\/s measured just now/);
  assert.ok(first.inputs.some((i) => i.endsWith('dist/src/sim/simulate.js')));
  const again = loaded(['validate', spec], cache);
  assert.match(again.stdout, /events\/s, measured \d{4}-\d\d-\d\d and cached, --recalibrate to measure again/);
  assert.deepEqual(heavy(again.inputs), []);
});

function staticImports(file: string): string[] {
  return [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^import (?!type )[^'"]*['"]([^'"]+)['"];?$/gm)].map((m) => m[1]!);
}

test('main.ts imports only commander and node modules; run.ts leaves the simulator and sweeps to the command that runs them', () => {
  // compare-commands.ts declares `compare` and `anchors` with commander alone (their work loads when they run)
  // (and the package root, to read its version: package-root.ts uses Node's modules alone)
  assert.deepEqual(staticImports('src/cli/main.ts').filter((m) => !m.startsWith('node:')), ['commander', './compare-commands.js', '../workload/package-root.js']);
  assert.deepEqual(staticImports('src/workload/package-root.ts').filter((m) => !m.startsWith('node:')), []);
  assert.deepEqual(staticImports('src/cli/compare-commands.ts'), []);
  const run = staticImports('src/cli/run.ts');
  for (const heavy of ['../experiment/run/runner.js', '../experiment/run/sweep.js', '../experiment/run/sweep-run.js', '../experiment/run/estimate.js', '../report/html.js', 'echarts']) assert.ok(!run.includes(heavy), heavy);
  // the cost arithmetic and the calibration cache leave the simulator to the measurement itself (estimate.ts)
  for (const f of ['src/experiment/run/estimate-cost.ts', 'src/experiment/run/calibration-cache.ts']) {
    for (const m of staticImports(f)) assert.ok(!['../../sim/simulate.js', './estimate.js'].includes(m), `${f} imports ${m}`);
  }
  for (const f of ['src/report/html.ts', 'src/report/charts.ts', 'src/report/charts-series.ts', 'src/cli/report.ts']) assert.ok(!staticImports(f).includes('echarts'), f);
});

test('ccsim --help and --version answer without loading a command', () => {
  assert.equal(pathToFileURL(CLI).pathname.endsWith('/dist/cli/ccsim.mjs'), true);
  const h = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  assert.equal(h.status, 0);
  for (const c of ['run', 'validate', 'sweep', 'report', 'reproduce', 'claims', 'list', 'schema', 'compare', 'anchors']) assert.match(h.stdout, new RegExp(`^  ${c}\\b`, 'm'), c);
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.equal(spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' }).stdout.trim(), pkg.version);
  // the papers named in the help (main.ts keeps its own copy so as not to load published.ts)
  assert.match(readFileSync(join(ROOT, 'src/cli/main.ts'), 'utf8'), new RegExp(`export const PAPERS = '${PAPERS.join(' \\| ')}';`));
});

test('validate reads its spec file once and never starts ICU number formatting (about 60 ms of start-up)', () => {
  // a preload that counts Number#toLocaleString calls and opens of the spec file, reported at exit
  const spec = join(ROOT, 'examples', 'demo.yaml');
  const preload = `
    import fs from 'node:fs';
    import { syncBuiltinESMExports } from 'node:module';
    let locale = 0, opens = 0;
    const tl = Number.prototype.toLocaleString;
    Number.prototype.toLocaleString = function (...a) { locale++; return tl.apply(this, a); };
    const open = fs.openSync;
    fs.openSync = function (p, ...a) { if (String(p) === ${JSON.stringify(spec)}) opens++; return open.call(this, p, ...a); };
    syncBuiltinESMExports();
    process.on('exit', () => process.stderr.write('COUNTS ' + JSON.stringify({ locale, opens }) + '\\n'));
  `;
  const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, CLI, 'validate', spec, '--no-estimate'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^ok: demo: 64 hosts, 18 switches, 612 flows/);
  const counts = JSON.parse(/COUNTS (.*)/.exec(r.stderr)![1]!) as { locale: number; opens: number };
  assert.deepEqual(counts, { locale: 0, opens: 1 });
});

test('fmtInt writes integers as toLocaleString("en-US") does', async () => {
  const { fmtInt } = await import('../src/cli/format.js');
  for (const x of [0, 7, -7, 999, 1000, -1000, 12345, 999999, 1000000, 404906.4, -9876543.6, 2 ** 53 - 1, 1e21]) {
    assert.equal(fmtInt(x), Math.round(x).toLocaleString('en-US'), String(x));
  }
});
