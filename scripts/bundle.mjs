#!/usr/bin/env node
/**
 * The `ccsim` command as one bundle (dist/cli/ccsim.mjs), built from the
 * TypeScript output (dist/src) by esbuild. Loading ~180 small ES modules
 * (zod, yaml, commander and ccsim's own) cost most of the start-up of
 * `ccsim --help` and `ccsim validate`; a bundle is a handful of files
 * (docs/performance.md, "Start-up").
 *
 * - Entries: the CLI (dist/src/cli/main.js -> ccsim.mjs), the sweep worker
 *   (dist/src/experiment/run/sweep-worker.js -> sweep-worker.mjs), which
 *   src/experiment/run/sweep-run.ts starts next to the chunk that runs it, and the
 *   worker of a parallel run (parallel-worker.mjs: src/experiment/run/parallel-worker.ts,
 *   which loads the plug-ins and serves a partition of src/sim/parallel/; the engine's
 *   default entry resolves to the same file in the bundle).
 * - Code splitting keeps each command's dynamic import() lazy: `--help` and
 *   `validate` do not load the simulator or the report code.
 * - echarts, @resvg/resvg-js and hyparquet-writer stay in node_modules (large,
 *   optional, or loaded only by `report`/Parquet output).
 * - Files of the package (data/, experiments/, package.json) are found from
 *   the package root (src/workload/package-root.ts), not from the module.
 *
 * Incremental: nothing is done when the last bundle is newer than every input
 * esbuild read for it (its metafile) and than this script. `--force` rebuilds.
 */
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist', 'cli');
const META = join(ROOT, 'dist', '.bundle-meta.json'); // esbuild's metafile of the last bundle: its inputs
const ENTRIES = { ccsim: 'dist/src/cli/main.js', 'sweep-worker': 'dist/src/experiment/run/sweep-worker.js', 'parallel-worker': 'dist/src/experiment/run/parallel-worker.js' };
const EXTERNAL = ['echarts', '@resvg/resvg-js', 'hyparquet-writer'];
// CommonJS dependencies (commander, cli-progress) call require(); an ES module has none
const BANNER = "import { createRequire as __ccsimCreateRequire } from 'node:module'; const require = __ccsimCreateRequire(import.meta.url);";

function upToDate() {
  try {
    const meta = JSON.parse(readFileSync(META, 'utf8'));
    const built = statSync(META).mtimeMs;
    if (statSync(fileURLToPath(import.meta.url)).mtimeMs > built) return false;
    for (const input of Object.keys(meta.inputs)) if (statSync(join(ROOT, input)).mtimeMs > built) return false;
    for (const output of Object.keys(meta.outputs)) if (!existsSync(join(ROOT, output))) return false;
    return true;
  } catch {
    return false;
  }
}

if (process.argv.includes('--force') || !upToDate()) {
  for (const f of Object.values(ENTRIES)) {
    if (!existsSync(join(ROOT, f))) {
      console.error(`bundle: ${f} is missing: compile first (npx tsc -p .)`);
      process.exit(1);
    }
  }
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.error('bundle: esbuild is not installed (it is a devDependency: npm ci)');
    process.exit(1);
  }
  rmSync(OUT, { recursive: true, force: true }); // chunk names change with their content
  const r = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: BANNER },
    metafile: true,
    logLevel: 'warning',
  });
  chmodSync(join(OUT, 'ccsim.mjs'), 0o755);
  writeFileSync(META, JSON.stringify(r.metafile));
}
