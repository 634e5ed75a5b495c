/**
 * The canary (issue 40, src/report/canary.ts): the cheapest claim-bearing experiments of the
 * five papers re-run at full size, and every value must equal the model file
 * data/measured/model.json, whose fingerprint every record names. A model change that moves
 * a result fails here until `ccsim canary --update` renews the fingerprint, which makes the
 * records of the old model stale (`ccsim claims` no longer counts them). Where a paper's record
 * of a canary claim is current (same model), its value for the spec's own replica must be the
 * canary's value too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import '../experiments/index.js';
import { CANARIES, canaryDiff, canaryKey, loadModelFile, runCanaries } from '../src/report/canary.js';
import { loadClaimRecord, packageRoot } from '../src/report/published.js';
import { currentModel } from '../src/report/provenance.js';

test('canary: the cheapest claim-bearing experiments give the values of data/measured/model.json, and current records agree', async (t) => {
  const model = loadModelFile();
  assert.ok(model !== undefined, 'data/measured/model.json is missing: run `ccsim canary --update`');
  const run = await runCanaries({ jobs: 2 });
  const moved = canaryDiff(model.canaries, run.values);
  assert.deepEqual(moved, [], `the model moved ${moved.length} canary values; if deliberate: \`ccsim canary --update\`, then re-record:\n${moved.slice(0, 20).join('\n')}`);
  assert.equal(run.fingerprint, model.fingerprint);
  assert.equal(currentModel(), model.fingerprint);
  assert.ok(Object.keys(run.values).length >= 150, `${Object.keys(run.values).length} canary values`);

  // a current record of a canary claim holds the canary's value for the spec's own replica
  let checked = 0;
  for (const paper of new Set(CANARIES.map((c) => c.paper))) {
    const rec = loadClaimRecord(join(packageRoot(), 'data', 'measured', `${paper}.json`));
    for (const [key, r] of Object.entries(rec?.claims ?? {})) {
      const [experiment, ...rest] = key.split('/');
      const v = run.values[canaryKey(paper, experiment!, rest.join('/'))];
      if (v === undefined || r.model !== model.fingerprint || r.build === undefined) continue;
      const own = r.values === undefined ? r.value : r.values[0]!;
      assert.ok(Math.abs(own - v) <= 1e-9 * Math.max(1, Math.abs(v)), `${paper} ${key}: record ${own}, canary ${v}`);
      checked++;
    }
  }
  // every current record of a canary claim was compared above; when the model has just been renewed
  // there are none until the papers are re-recorded, which the diagnostic says
  t.diagnostic(`${checked} current records of canary claims agree`);
  assert.ok(Object.keys(run.values).some((k) => k.startsWith('scenario/bfc/')), 'the BFC mechanism scenario (data/canary/bfc.yaml) is in the fingerprint');
});
