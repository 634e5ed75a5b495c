/**
 * Golden results of the shipped examples: each example that runs in a few
 * seconds is run through the library (as `ccsim run` does) and must
 * reproduce, byte for byte, its committed summary (test/golden/<name>.summary.json)
 * and the SHA-256 of every result file except manifest.json (which records wall
 * time and dates) (test/golden/<name>.sha256). A change here is a change of
 * results: it must be a declared fidelity fix (test/golden/README.md).
 *
 * Regenerate after such a fix: `npx tsc -p . && UPDATE_GOLDEN=1 node --test dist/test/golden.test.js`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runExperiment } from '../src/experiment/run/runner.js';
import { tempDir } from './helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(ROOT, 'examples');
const GOLDEN = join(ROOT, 'test', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** Examples without a golden, and why (the suite must stay a few minutes on 2 cores). */
const TOO_SLOW: Record<string, string> = {
  'fattree-cachefollower.yaml': 'a 320-host fat tree with 1 ms of arrivals at 0.8 load: minutes of wall time',
};

const examples = readdirSync(EXAMPLES)
  .filter((f) => /\.(ya?ml|json)$/.test(f))
  .sort();

const stem = (f: string): string => f.replace(/\.(ya?ml|json)$/, '');

test('every example has a golden or a stated reason to have none', () => {
  for (const f of examples) {
    if (TOO_SLOW[f] !== undefined) continue;
    assert.ok(UPDATE || existsSync(join(GOLDEN, `${stem(f)}.summary.json`)), `examples/${f} has no golden (run with UPDATE_GOLDEN=1)`);
  }
  for (const f of Object.keys(TOO_SLOW)) assert.ok(examples.includes(f), `TOO_SLOW names ${f}, which is not an example`);
});

for (const f of examples) {
  if (TOO_SLOW[f] !== undefined) continue;
  test(`examples/${f} reproduces its golden summary and result files byte for byte`, async () => {
    const out = join(tempDir('golden'), 'out');
    const r = await runExperiment(join(EXAMPLES, f), { out, quiet: true });
    const files = r.files.filter((x) => x !== 'manifest.json').sort();
    assert.ok(files.includes('fct.csv') && files.includes('summary.json'));
    const digests = files.map((x) => `${createHash('sha256').update(readFileSync(join(out, x))).digest('hex')}  ${x}\n`).join('');
    const summary = readFileSync(join(out, 'summary.json'), 'utf8');
    const summaryPath = join(GOLDEN, `${stem(f)}.summary.json`);
    const digestPath = join(GOLDEN, `${stem(f)}.sha256`);
    if (UPDATE) {
      writeFileSync(summaryPath, summary);
      writeFileSync(digestPath, digests);
      return;
    }
    assert.equal(summary, readFileSync(summaryPath, 'utf8'), `summary.json of examples/${f} changed`);
    assert.equal(digests, readFileSync(digestPath, 'utf8'), `result files of examples/${f} changed`);
  });
}
