/**
 * The README's "How close to the papers" table must say what a fresh clone's
 * `ccsim claims <paper>` prints from the committed records (data/measured/<paper>.json):
 * holds, deviates, inconclusive, stale, partial and not run (issue 40). Re-record a paper
 * with `ccsim claims <paper> --write-readme` and update the row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/report/published.js';
import { claimsView, paperRow } from '../src/report/reproduce.js';
import '../experiments/index.js';
import { tempDir } from './helpers/tmp.js';

const PAPERS = ['oscar', 'powertcp', 'acc', 'ccc', 'sqcc'] as const;

test('README claim counts per paper match what claims prints from the committed records', () => {
  const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
  // an empty results root: what a fresh clone shows (every value from the record)
  const out = tempDir('readme-status');
  for (const paper of PAPERS) {
    const view = claimsView(paper, { out, recorded: true });
    const expected = paperRow(view.data!.title, view.rows);
    assert.ok(readme.includes(expected), `README row for ${paper} should read: ${expected}`);
  }
});
