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
