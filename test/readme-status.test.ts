/**
 * The README's "How close to the papers" table must say what the committed
 * records (data/measured/<paper>.json) give: the counts a fresh clone's
 * `ccsim claims <paper>` prints. Re-record a paper with
 * `ccsim claims <paper> --write-readme` and update the row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimsView } from '../src/report/reproduce.js';
import { packageRoot } from '../src/report/published.js';
import { tempDir } from './helpers/tmp.js';
import '../experiments/index.js';

const PAPERS = ['oscar', 'powertcp', 'acc', 'ccc', 'sqcc'] as const;

test('README claim counts per paper match the committed measurement records', () => {
  const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
  // an empty results root: every value comes from the record, as on a fresh clone
  const out = tempDir('readme-status');
  for (const paper of PAPERS) {
    const view = claimsView(paper, { out, recorded: true });
    const rows = view.rows.filter((r) => r.variantOf === undefined);
    const n = (...v: string[]): number => rows.filter((r) => v.includes(r.verdict)).length;
    const title = view.data!.title;
    const expected = `| ${title} | ${rows.length} | ${n('holds')} | ${n('deviates')} | ${n('inconclusive', 'undecided')} | ${n('not run')} |`;
    assert.ok(readme.includes(expected), `README row for ${paper} should read: ${expected}`);
  }
});
