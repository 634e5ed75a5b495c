/**
 * Claims over seeds (mean ± 95 % CI, t-distribution; holds / deviates / inconclusive from
 * the interval), one model per claim (sensitivity rows via `variantOf`), causes on
 * deviations, and the `seeds:` experiment key (one point per seed; the spec's own seed keeps
 * its folder and hash, so finished single-seed results are reused).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecError } from '../src/engine/errors.js';
import { planSweep } from '../src/experiment/run/sweep.js';
import { meanCi95, tQuantile975 } from '../src/metrics/stats.js';
import { compareClaims, displayOrder, publishedSchema, verdictOf, type PublishedClaim } from '../src/report/published.js';
import { claimsView, reproduce, verdictCounts } from '../src/report/reproduce.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('claims-seeds');

test('meanCi95: sample sd and the t quantile (df = n - 1); n = 1 has no interval', () => {
  const s = meanCi95([1, 2, 3]);
  assert.equal(s.mean, 2);
  assert.equal(s.sd, 1);
  assert.ok(Math.abs(s.half - 4.303 / Math.sqrt(3)) < 1e-12);
  assert.equal(tQuantile975(1), 12.706);
  assert.equal(tQuantile975(2000), 1.96);
  assert.ok(Number.isNaN(meanCi95([5]).half));
});

test('verdictOf with an interval: inside the band holds, outside deviates, straddling is inconclusive; one seed is judged on its value', () => {
  const c: PublishedClaim = { id: 'x', experiment: 'e', metric: 'm', published: 10, tolerance: 1, compare: 'within', source: '§1' };
  assert.equal(verdictOf(c, 10.2, undefined, 0.5), 'holds');
  assert.equal(verdictOf(c, 12, undefined, 0.5), 'deviates');
  assert.equal(verdictOf(c, 10.8, undefined, 0.5), 'inconclusive');
  assert.equal(verdictOf(c, 10.8), 'holds');
  const atLeast: PublishedClaim = { ...c, published: 0, tolerance: 0, compare: 'atLeast' };
  assert.equal(verdictOf(atLeast, 1, undefined, 0.5), 'holds');
  assert.equal(verdictOf(atLeast, 0.3, undefined, 0.5), 'inconclusive');
  assert.equal(verdictOf(atLeast, -1, undefined, 0.5), 'deviates');
});

const DATA = {
  paper: 'sqcc',
  title: 'T',
  claims: [
    { id: 'a', experiment: 'e', metric: 'm', published: 10, tolerance: 1, source: '§1' },
    { id: 'a-burst', experiment: 'e2', metric: 'm', published: 10, tolerance: 1, source: '§1', variantOf: 'a', variant: 'segment bursts' },
    { id: 'b.one', experiment: 'e', metric: 'm', published: 10, tolerance: 1, source: '§2', cause: { category: 'model gap', parameter: 'p', explanation: 'own cause' } },
    { id: 'b.two', experiment: 'e', metric: 'm', published: 10, tolerance: 1, source: '§2' },
  ],
  causes: [{ claims: ['b.*', 'a-burst'], category: 'reduced scale', parameter: 'duration', explanation: 'shared cause' }],
};

test('published data: causes by id or prefix, the claim\'s own first; variants need an existing claim and a label', () => {
  const data = publishedSchema.parse(DATA);
  const e = [
    [{ id: 'a', value: 10.1 }, { id: 'b.one', value: 20 }, { id: 'b.two', value: 20 }],
    [{ id: 'a', value: 10.3 }, { id: 'b.one', value: 21 }, { id: 'b.two', value: 10 }],
    [{ id: 'a', value: 10.2 }, { id: 'b.one', value: 22 }, { id: 'b.two', value: 15 }],
  ];
  const rows = compareClaims(data, new Map([['e2', [{ id: 'a-burst', value: 14 }]]]), new Map([['e', e]]));
  const [a, burst, one, two] = rows;
  assert.equal(a!.n, 3);
  assert.ok(Math.abs(a!.measured! - 10.2) < 1e-12);
  assert.equal(a!.verdict, 'holds');
  assert.equal(a!.cause, undefined);
  assert.equal(one!.verdict, 'deviates');
  assert.equal(one!.cause!.explanation, 'own cause');
  assert.equal(two!.verdict, 'inconclusive');
  assert.equal(two!.cause!.explanation, 'shared cause');
  assert.equal(burst!.n, 1);
  assert.equal(burst!.ci95, undefined);
  assert.equal(burst!.cause!.category, 'reduced scale');
  assert.deepEqual(displayOrder([burst!, one!, a!, two!]).map((r) => r.id), ['b.one', 'a', 'a-burst', 'b.two']);
  assert.equal(verdictCounts(rows), '3 claims: 1 hold, 1 deviate, 1 inconclusive (the 95 % interval straddles the tolerance or zero), 0 not run; 1 sensitivity row (a variant of the model, not counted)');
  const bad = publishedSchema.safeParse({ ...DATA, claims: [...DATA.claims, { id: 'c', experiment: 'e', metric: 'm', published: 1, tolerance: 1, source: '§', variantOf: 'zz' }], causes: [{ claims: ['nope.*'], category: 'unexplained', parameter: 'p', explanation: 'x' }] });
  assert.ok(!bad.success);
  const msgs = bad.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  assert.ok(msgs.includes('claims.4.variantOf: no claim with id "zz"'), msgs.join('; '));
  assert.ok(msgs.includes('claims.4.variant: variantOf and variant go together'), msgs.join('; '));
  assert.ok(msgs.includes('causes.0.claims.0: matches no claim id'), msgs.join('; '));
  assert.ok(!publishedSchema.safeParse({ ...DATA, causes: [{ claims: ['a'], category: 'bad luck', parameter: 'p', explanation: 'x' }] }).success);
});

const SPEC = (extra: string): string => `name: seeds
topology: { type: star, hosts: 9, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: poisson, cdf: websearch, load: 0.5, duration: 200us }
stop: { maxTime: 2ms }
${extra}`;

test('seeds: one point per seed; the spec seed keeps its folder and hash; seeds and a swept seed together are a spec error', () => {
  const plain = join(dir, 'plain.yaml');
  writeFileSync(plain, SPEC('sweep:\n  cc: [hpcc, dcqcn]\n'));
  const seeded = join(dir, 'seeded.yaml');
  writeFileSync(seeded, SPEC('sweep:\n  cc: [hpcc, dcqcn]\nseeds: [1, 2, 3]\n'));
  const p0 = planSweep(plain);
  const p1 = planSweep(seeded);
  assert.equal(p1.points.length, 6);
  assert.deepEqual(p1.points.map((p) => p.id), ['cc=hpcc', 'cc=hpcc,seed=2', 'cc=hpcc,seed=3', 'cc=dcqcn', 'cc=dcqcn,seed=2', 'cc=dcqcn,seed=3']);
  for (const p of p0.points) assert.equal(p1.points.find((q) => q.id === p.id)!.hash, p.hash, `${p.id} keeps its hash`);
  assert.deepEqual(p1.points.map((p) => p.seed), [1, 2, 3, 1, 2, 3]);
  const both = join(dir, 'both.yaml');
  writeFileSync(both, SPEC('sweep:\n  seed: [1, 2]\nseeds: [1, 2]\n'));
  assert.throws(() => planSweep(both), (e: unknown) => e instanceof SpecError && e.issues.some((i) => i.path === 'seeds' && /varies `seed`/.test(i.message)));
  const twice = join(dir, 'twice.yaml');
  writeFileSync(twice, SPEC('seeds: [2, 2]\n'));
  assert.throws(() => planSweep(twice), (e: unknown) => e instanceof SpecError && e.issues.some((i) => i.path === 'seeds' && /twice/.test(i.message)));
});

test('reproduce with seeds: claims are the mean over 3 seeds with a 95 % CI', async () => {
  const exp = join(dir, 'exp');
  mkdirSync(exp);
  writeFileSync(join(exp, 'e.yaml'), SPEC('figure: slowdown-table\nseeds: [1, 2, 3]\n'));
  const published = join(dir, 'published.yaml');
  writeFileSync(published, `paper: oscar\ntitle: Seeds\nclaims:\n  - { id: single point.mean, experiment: e, metric: mean slowdown, published: 1, tolerance: 100, source: "§1" }\n`);
  const out = join(dir, 'results');
  const r = await reproduce('oscar', { out, experiments: exp, published, jobs: 1, quiet: true });
  assert.equal(r.failed, 0);
  assert.equal(r.ran, 3);
  const row = r.view.rows[0]!;
  assert.equal(row.n, 3);
  assert.ok(row.ci95 !== undefined && row.ci95 > 0, `ci95 ${row.ci95}`);
  assert.equal(row.verdict, 'holds');
  const per = r.view.experiments[0]!.figure!.perReplica!;
  assert.deepEqual(per.map((x) => x.seed), [1, 2, 3]);
  const values = per.map((x) => x.claims.find((c) => c.id === 'single point.mean')!.value);
  assert.ok(new Set(values).size > 1, `seeds give different means: ${values.join(', ')}`);
  assert.ok(Math.abs(row.measured! - meanCi95(values).mean) < 1e-12);
  // the claims view from disk gives the same
  const v = claimsView('oscar', { out, experiments: exp, published });
  assert.equal(v.rows[0]!.n, 3);
});
