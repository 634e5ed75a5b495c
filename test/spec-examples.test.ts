/** Every shipped example spec and every paper's experiment spec validates and resolves (no simulation). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFigure } from '../src/experiment/results/analysis.js';
import { loadAndResolve } from '../src/experiment/spec/resolve.js';
import { planSweep } from '../src/experiment/run/sweep.js';
import '../experiments/index.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

for (const f of readdirSync(EXAMPLES).filter((x) => /\.(ya?ml|json)$/.test(x)).sort()) {
  test(`examples/${f} resolves`, () => {
    const { loaded, input } = loadAndResolve(join(EXAMPLES, f));
    assert.ok(loaded.spec.name.length > 0);
    assert.ok(input.flows.length > 0 || (input.drivers?.length ?? 0) > 0);
    assert.ok(input.topology.hostCount > 0);
  });
}

// Every paper's experiment spec plans (schema, sweep points, topology and flow
// resolution of every point) at full and --quick size, and names a figure
// analysis that experiments/index.ts registered.
const PAPERS = fileURLToPath(new URL('../../experiments/', import.meta.url));
const specs = readdirSync(PAPERS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(join(PAPERS, d.name)).filter((x) => /\.ya?ml$/.test(x)).map((x) => `${d.name}/${x}`))
  .sort();

test('experiments/ has specs of every paper', () => {
  for (const paper of ['acc', 'ccc', 'oscar', 'powertcp', 'sqcc']) assert.ok(specs.some((s) => s.startsWith(`${paper}/`)), paper);
});

for (const s of specs) {
  test(`experiments/${s} plans at full and quick size, with a registered figure analysis`, () => {
    for (const quick of [false, true]) {
      const plan = planSweep(join(PAPERS, s), { quick });
      assert.ok(plan.points.length > 0);
      if (plan.figure !== undefined) assert.ok(findFigure(plan.figure) !== undefined, `${s}: figure ${plan.figure}`);
    }
  });
}
