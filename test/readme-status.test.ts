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
import { loadClaimRecord, loadPublished, packageRoot, verdictOf } from '../src/report/published.js';

const PAPERS = ['oscar', 'powertcp', 'acc', 'ccc', 'sqcc'] as const;

test('README claim counts per paper match the committed measurement records', () => {
  const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
  for (const paper of PAPERS) {
    // what a fresh clone shows: every value from the record (results on disk are not read)
    const data = loadPublished(join(packageRoot(), 'data', 'published', `${paper}.yaml`))!;
    const record = loadClaimRecord(join(packageRoot(), 'data', 'measured', `${paper}.json`));
    const verdicts = data.claims
      .filter((c) => c.variantOf === undefined)
      .map((c) => {
        const rec = record?.claims[`${c.experiment}/${c.id}`];
        return rec === undefined ? 'not run' : verdictOf(c, rec.value, rec.bound, rec.ci95);
      });
    const n = (...v: string[]): number => verdicts.filter((x) => v.includes(x)).length;
    const rows = verdicts;
    const title = data.title;
    const expected = `| ${title} | ${rows.length} | ${n('holds')} | ${n('deviates')} | ${n('inconclusive', 'undecided')} | ${n('not run')} |`;
    assert.ok(readme.includes(expected), `README row for ${paper} should read: ${expected}`);
  }
});
