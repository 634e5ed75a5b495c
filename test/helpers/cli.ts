/**
 * The ccsim command the tests run: the bundle that `npm run build` and
 * `npm test` write (scripts/bundle.mjs), which is what an installed `ccsim`
 * runs. Importing this module also points `validate`'s calibration cache
 * (src/experiment/run/calibration-cache.ts) at a scratch folder of the test file,
 * so no test reads or writes the user's ~/.cache/ccsim.
 */
import { fileURLToPath } from 'node:url';
import { tempDir } from './tmp.js';

/** dist/cli/ccsim.mjs */
export const CLI = fileURLToPath(new URL('../../cli/ccsim.mjs', import.meta.url));

/** the TypeScript output's entry (dist/src/cli/main.js), the layout the library and in-process tests use */
export const CLI_TSC = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** the calibration cache folder the spawned commands of this test file share */
export const CACHE_DIR = tempDir('cache');
process.env['CCSIM_CACHE_DIR'] = CACHE_DIR;
