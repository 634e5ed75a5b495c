/** Every shipped example spec validates and resolves (no simulation). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAndResolve } from '../src/experiment/resolve.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

for (const f of readdirSync(EXAMPLES).filter((x) => /\.(ya?ml|json)$/.test(x)).sort()) {
  test(`examples/${f} resolves`, () => {
    const { loaded, input } = loadAndResolve(join(EXAMPLES, f));
    assert.ok(loaded.spec.name.length > 0);
    assert.ok(input.flows.length > 0);
    assert.ok(input.topology.hostCount > 0);
  });
}
