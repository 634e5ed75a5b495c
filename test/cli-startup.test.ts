/**
 * Start-up: `ccsim --help` and `ccsim validate` load only what they use.
 * main.ts parses the command line with nothing but commander and Node's
 * own modules; each command imports its module when it runs; validate does
 * not load the simulator, the sweep runner or the charting library.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAPERS } from '../src/report/published.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

function staticImports(file: string): string[] {
  return [...readFileSync(join(ROOT, file), 'utf8').matchAll(/^import (?!type )[^'"]*['"]([^'"]+)['"];?$/gm)].map((m) => m[1]!);
}

test('main.ts imports only commander and node modules; run.ts leaves the simulator and sweeps to the command that runs them', () => {
  // compare-commands.ts declares `compare` and `anchors` with commander alone (their work loads when they run)
  assert.deepEqual(staticImports('src/cli/main.ts').filter((m) => !m.startsWith('node:')), ['commander', './compare-commands.js']);
  assert.deepEqual(staticImports('src/cli/compare-commands.ts'), []);
  const run = staticImports('src/cli/run.ts');
  for (const heavy of ['../experiment/runner.js', '../experiment/sweep.js', '../experiment/sweep-run.js', '../report/html.js', 'echarts']) assert.ok(!run.includes(heavy), heavy);
  for (const f of ['src/report/html.ts', 'src/report/charts.ts', 'src/report/charts-series.ts', 'src/cli/report.ts']) assert.ok(!staticImports(f).includes('echarts'), f);
});

test('ccsim --help and --version answer without loading a command', () => {
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
