/**
 * Every recorded cause's category agrees with its own words (issue 42): a cause whose text says
 * the suspect was never run or that the reason is not known is `unexplained`, whatever
 * category it was filed under, and a `reduced scale` cause may not say that scale is ruled out.
 * The project's rule (docs/guide.md, "Claims"): a cause that names a suspect nobody ran is
 * unexplained.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadPublished, PAPERS, type Cause } from '../src/report/published.js';

/** Phrases that admit the cause was not tested; a cause containing one must be `unexplained`. */
const UNTESTED = ['not known why', 'not traced', 'unknown', 'were not made', 'nobody ran', 'untested', 'not run'];
/** Phrases that rule scale out; a `reduced scale` cause containing one contradicts itself. */
const NOT_SCALE = ['not the scale', 'scale is not', 'not a matter of scale', 'not scale', 'rules out scale', 'ruled out scale'];

interface Filed {
  paper: string;
  claims: string;
  cause: Cause;
}

function allCauses(): Filed[] {
  const out: Filed[] = [];
  for (const paper of PAPERS) {
    const data = loadPublished(join('data', 'published', `${paper}.yaml`));
    assert.ok(data, `data/published/${paper}.yaml loads`);
    for (const c of data.claims) if (c.cause) out.push({ paper, claims: c.id, cause: c.cause });
    for (const c of data.causes ?? []) {
      const { claims, ...cause } = c;
      out.push({ paper, claims: claims.join(', '), cause });
    }
  }
  return out;
}

/** A cause's words, lower case: its parameter and its explanation. */
function words(c: Cause): string {
  return `${c.parameter} ${c.explanation}`.toLowerCase();
}

test('the phrase lists catch what they are for', () => {
  const untested: Cause = { category: 'reconstruction choice', parameter: 'p', explanation: 'the gap is not traced' };
  assert.ok(UNTESTED.some((w) => words(untested).includes(w)));
  const fine: Cause = { category: 'reconstruction choice', parameter: 'p', explanation: 'a run with X moves it into tolerance' };
  assert.ok(!UNTESTED.some((w) => words(fine).includes(w)));
});

test('a cause that says its suspect was not run or is not known is filed as unexplained', () => {
  const causes = allCauses();
  assert.ok(causes.length > 40, `causes found: ${causes.length}`);
  const wrong = causes
    .filter((f) => f.cause.category !== 'unexplained')
    .map((f) => ({ f, hit: UNTESTED.find((w) => words(f.cause).includes(w)) }))
    .filter((x) => x.hit !== undefined)
    .map((x) => `${x.f.paper}: ${x.f.claims} filed as ${x.f.cause.category} but says "${x.hit}"`);
  assert.deepEqual(wrong, []);
});

test('a reduced-scale cause does not rule scale out', () => {
  const wrong = allCauses()
    .filter((f) => f.cause.category === 'reduced scale')
    .map((f) => ({ f, hit: NOT_SCALE.find((w) => words(f.cause).includes(w)) }))
    .filter((x) => x.hit !== undefined)
    .map((x) => `${x.f.paper}: ${x.f.claims} says "${x.hit}"`);
  assert.deepEqual(wrong, []);
});

/** reference-agrees causes that do not name a reference run kept under data/anchors/ */
function referenceWithoutAnchor(causes: readonly Filed[]): string[] {
  return causes
    .filter((f) => f.cause.category === 'reference agrees' && !f.cause.explanation.includes('data/anchors/'))
    .map((f) => `${f.paper}: ${f.claims} filed as reference agrees without a data/anchors/ run`);
}

test('a reference-agrees cause names the reference runs it rests on', () => {
  const bare: Filed = { paper: 'p', claims: 'c', cause: { category: 'reference agrees', parameter: 'p', explanation: 'the reference gives the same' } };
  const named: Filed = { paper: 'p', claims: 'c', cause: { category: 'reference agrees', parameter: 'p', explanation: 'the reference (data/anchors/ns3-w100) gives the same' } };
  assert.equal(referenceWithoutAnchor([bare, named]).length, 1);
  assert.deepEqual(referenceWithoutAnchor(allCauses()), []);
});
