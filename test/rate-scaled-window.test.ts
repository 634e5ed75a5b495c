/**
 * D-HPCC's rate-scaled window (`VAR_WIN 1`, network-model.md §2.2): under the
 * hpcc profile a fixed window of a rate-based CC gates at
 * max(1, floor(win·rate/lineRate)), so a DCQCN flow with `window: bdp` that has
 * been cut to a fraction of the line rate keeps only that fraction of a BDP in
 * flight. The OSCAR profile keeps the window fixed (OSCAR App. C.6).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fatTreePreset } from '../src/net/topology/index.js';
import { profileDefaults } from '../src/net/config.js';
import { ptIncast } from './helpers/incast.js';

test('rateScaledWindow: on in the hpcc profile, off in the oscar profile', () => {
  assert.equal(profileDefaults('hpcc').transport.rateScaledWindow, true);
  assert.equal(profileDefaults('oscar').transport.rateScaledWindow, false);
});

test('10:1 DCQCN window: bdp incast on powertcp256 (ptBurst): the rate-scaled window lowers the queue peak toward the reference 635 KB', () => {
  const topo = fatTreePreset('powertcp256');
  const scaled = ptIncast(topo, 'dcqcn', { window: 'bdp', preset: 'powertcp' });
  const fixed = ptIncast(topo, 'dcqcn', { window: 'bdp', preset: 'powertcp' }, { transport: { rateScaledWindow: false } });
  assert.equal(scaled.drops, 0);
  assert.equal(fixed.drops, 0);
  // issue 8: the reference simulator peaks near 635 KB with VAR_WIN 1
  assert.ok(Math.abs(scaled.peak - 635_000) < 0.15 * 635_000, `scaled peak ${scaled.peak} B`);
  assert.ok(fixed.peak > scaled.peak + 80_000, `fixed-window peak ${fixed.peak} B vs scaled ${scaled.peak} B`);
  assert.ok(scaled.backUs >= 0 && scaled.backUs < fixed.backUs, `queue under 10 KB after ${scaled.backUs} us (fixed: ${fixed.backUs} us)`);
});
