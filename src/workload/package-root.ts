/**
 * Where ccsim's own files are. ccsim runs from two layouts: the TypeScript
 * output (dist/src/<layer>/<file>.js, used by the tests and the library entry)
 * and the CLI bundle (dist/cli/ccsim.mjs and its chunks, scripts/bundle.mjs).
 * Paths relative to a module therefore differ between the two; the package
 * root (the folder of ccsim's package.json) does not, so files shipped with
 * the package (data/, experiments/, package.json) are found from it.
 * The workload layer is the lowest that reads such files (the built-in CDFs).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True in the CLI bundle (its files end in .mjs), false in the TypeScript output. */
export const BUNDLED = import.meta.url.endsWith('.mjs');

/**
 * A sibling entry module: `bundled` next to the bundle's chunks, `compiled`
 * relative to the TypeScript output of the module passing its `import.meta.url`.
 */
export function entryUrl(moduleUrl: string, compiled: string, bundled: string): URL {
  return new URL(BUNDLED ? bundled : compiled, moduleUrl);
}

let root: { dir: string; version: string } | undefined;

function findRoot(): { dir: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      try {
        const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: unknown; version?: unknown };
        if (pkg.name === 'ccsim') return { dir, version: typeof pkg.version === 'string' ? pkg.version : 'unknown' };
      } catch {
        // not readable: keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return { dir: process.cwd(), version: 'unknown' };
}

/** The installed package's root (holds package.json, data/, experiments/); the working folder if not found. */
export function packageRoot(): string {
  return (root ??= findRoot()).dir;
}

/** ccsim's version from its package.json ('unknown' if it cannot be found). */
export function packageVersion(): string {
  return (root ??= findRoot()).version;
}
