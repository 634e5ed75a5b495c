/**
 * Verdicts that are evidence (issue 40): the direction test (a zero or reversed effect never
 * holds where the paper states a sign), tie-order replicas of deterministic experiments
 * (`perturb`, `perturbations:`), and stale / partial measurements that are never counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import { planSweep } from '../src/experiment/run/sweep.js';
import { perturbBoundPs } from '../src/experiment/spec/perturb.js';
import { publishedSchema, verdictOf, type PublishedClaim } from '../src/report/published.js';
import { fingerprintOf, isPartial, staleReason } from '../src/report/provenance.js';
import { claimsView, paperRow, reproduce, verdictTally, writePaperRow } from '../src/report/reproduce.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('verdicts');
// a fixed clean build for the runs below, so a record made from them is current in a dirty work tree too
process.env['CCSIM_BUILD'] = '0123456789ab';

test('direction: "A beats B by 4 %" holds only with the interval wholly above zero, whatever the tolerance', () => {
  const c: PublishedClaim = { id: 'x', experiment: 'e', metric: 'm', published: 4, unit: '%', tolerance: 10, compare: 'within', source: '§1', direction: 'positive' };
  // OSCAR Fig 22 as recorded before: -5.0 % was a "holds" within ±10 points; with the direction it deviates
  assert.equal(verdictOf({ ...c, direction: undefined }, -5), 'holds');
  assert.equal(verdictOf(c, -5), 'deviates');
  assert.equal(verdictOf(c, 0), 'deviates', 'a zero effect does not pass');
  assert.equal(verdictOf(c, 3), 'holds');
  assert.equal(verdictOf(c, 3, undefined, 1), 'holds');
  assert.equal(verdictOf(c, 1, undefined, 2), 'inconclusive', 'an interval across zero decides nothing');
  assert.equal(verdictOf(c, -3, undefined, 1), 'deviates', 'an interval wholly below zero deviates');
  assert.equal(verdictOf(c, 20), 'deviates', 'the tolerance still applies');
  const neg: PublishedClaim = { ...c, published: -7.6, direction: 'negative' };
  assert.equal(verdictOf(neg, -3), 'holds');
  assert.equal(verdictOf(neg, 1), 'deviates');
  // a minimum effect ("markedly"): at least 10 % better, and positive
  const marked: PublishedClaim = { ...c, published: 10, tolerance: 0, compare: 'atLeast' };
  assert.equal(verdictOf(marked, 0), 'deviates', 'identical runs (0 %) do not "markedly improve"');
  assert.equal(verdictOf(marked, 12), 'holds');
});

test('published data: a direction must agree with the sign of the published value', () => {
  const claim = { id: 'a', experiment: 'e', metric: 'm', published: 4, tolerance: 10, source: '§1' };
  assert.ok(publishedSchema.safeParse({ paper: 'oscar', title: 'T', claims: [{ ...claim, direction: 'positive' }] }).success);
  const bad = publishedSchema.safeParse({ paper: 'oscar', title: 'T', claims: [{ ...claim, direction: 'negative' }] });
  assert.ok(!bad.success);
  assert.match(bad.error.issues.map((i) => i.message).join(';'), /is negative but the published value 4 is not/);
  const re = publishedSchema.safeParse({ paper: 'oscar', title: 'T', claims: [{ ...claim, needs: '(' }] });
  assert.ok(!re.success, 'needs must be a regular expression');
});

const INCAST = (extra: string): string => `name: perturbed
topology: { type: star, hosts: 9, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 8, receiver: 8, size: 64KB, at: [10us] }
stop: { maxTime: 2ms }
${extra}`;

test('perturb: 0 leaves the flows as they are; k > 0 moves each start by less than one MTU time on the fastest link, the same for the same k', () => {
  const f = join(dir, 'incast.yaml');
  writeFileSync(f, INCAST(''));
  const spec = parseSpec({ ...(JSON.parse(JSON.stringify(planSweep(f).points[0]!.raw)) as object) });
  const base = resolveSpec(spec, dir);
  const zero = resolveSpec(parseSpec({ ...(planSweep(f).points[0]!.raw as object), perturb: 0 }), dir);
  assert.deepEqual(zero.flows, base.flows);
  const bound = perturbBoundPs(base.topology, base.net.transport.mtuBytes);
  assert.equal(bound, Math.floor((base.net.transport.mtuBytes * 8 * 1e12) / 100e9));
  const one = resolveSpec(parseSpec({ ...(planSweep(f).points[0]!.raw as object), perturb: 1 }), dir);
  const again = resolveSpec(parseSpec({ ...(planSweep(f).points[0]!.raw as object), perturb: 1 }), dir);
  const two = resolveSpec(parseSpec({ ...(planSweep(f).points[0]!.raw as object), perturb: 2 }), dir);
  assert.deepEqual(one.flows, again.flows, 'deterministic');
  assert.notDeepEqual(one.flows.map((x) => x.startPs), two.flows.map((x) => x.startPs));
  const t0 = base.flows[0]!.startPs;
  for (const x of one.flows) assert.ok(x.startPs >= t0 && x.startPs < t0 + bound, `start ${x.startPs} within [${t0}, ${t0 + bound})`);
  assert.deepEqual(one.flows.map((x) => [x.src, x.dst, x.bytes]), base.flows.map((x) => [x.src, x.dst, x.bytes]), 'the same flows with the same ids');
  for (let i = 1; i < one.flows.length; i++) assert.ok(one.flows[i]!.startPs >= one.flows[i - 1]!.startPs, 'still in start order');
  assert.ok(new Set(one.flows.map((x) => x.startPs)).size > 1, 'simultaneous starts are spread');
});

test('perturbations: one point per replica; the spec\'s own keeps its folder and hash; perturbations and a swept perturb together are an error', () => {
  const plain = join(dir, 'plain.yaml');
  writeFileSync(plain, INCAST('sweep:\n  cc: [hpcc, dcqcn]\n'));
  const rep = join(dir, 'rep.yaml');
  writeFileSync(rep, INCAST('sweep:\n  cc: [hpcc, dcqcn]\nperturbations: [0, 1, 2]\n'));
  const p0 = planSweep(plain);
  const p1 = planSweep(rep);
  assert.deepEqual(p1.points.map((p) => p.id), ['cc=hpcc', 'cc=hpcc,perturb=1', 'cc=hpcc,perturb=2', 'cc=dcqcn', 'cc=dcqcn,perturb=1', 'cc=dcqcn,perturb=2']);
  assert.deepEqual(p1.points.map((p) => p.perturb), [0, 1, 2, 0, 1, 2]);
  for (const p of p0.points) assert.equal(p1.points.find((q) => q.id === p.id)!.hash, p.hash, `${p.id} keeps its hash`);
  const both = join(dir, 'both.yaml');
  writeFileSync(both, INCAST('sweep:\n  perturb: [1, 2]\nperturbations: [0, 1]\n'));
  assert.throws(() => planSweep(both), /varies `perturb` as well/);
});

test('reproduce with perturbations: a deterministic incast gives n = 3 replicas, each named, with an interval from their spread', async () => {
  const exp = join(dir, 'exp');
  mkdirSync(exp);
  writeFileSync(join(exp, 'e.yaml'), INCAST('figure: slowdown-table\nperturbations: [0, 1, 2]\n'));
  const published = join(dir, 'published.yaml');
  writeFileSync(published, `paper: oscar\ntitle: Ties\nclaims:\n  - { id: single point.mean, experiment: e, metric: mean slowdown, published: 1, tolerance: 100, source: "§1" }\n`);
  const r = await reproduce('oscar', { out: join(dir, 'results'), experiments: exp, published, jobs: 1, quiet: true });
  assert.equal(r.failed, 0);
  const row = r.view.rows[0]!;
  assert.equal(row.n, 3);
  assert.deepEqual(row.replicas, ['perturb=0', 'perturb=1', 'perturb=2']);
  assert.equal(row.values!.length, 3);
  assert.ok(row.ci95 !== undefined && Number.isFinite(row.ci95));
  assert.equal(row.provenance!.points, '3/3');
  assert.equal(row.verdict, 'holds');

  // the README's papers table: this paper's row is rewritten between the markers, the others stay
  const readme = join(dir, 'README.md');
  writeFileSync(readme, `# x\n<!-- ccsim:papers:begin -->\n| paper | claims |\n|---|---|\n| Other | 1 |\n| Ties | old |\n<!-- ccsim:papers:end -->\ntail\n`);
  const view = claimsView('oscar', { out: join(dir, 'results'), experiments: exp, published });
  writePaperRow(view, readme);
  const text = readFileSync(readme, 'utf8');
  assert.ok(text.includes('| Other | 1 |\n'), 'other rows stay');
  assert.match(text, /\| Ties \| 1 \| 1 \| 0 \| 0 \| 0 \| 0 \| 0 \| 1 × n=3 \| - \|\n<!-- ccsim:papers:end -->\ntail\n$/);
  assert.equal(paperRow('Ties', view.rows), '| Ties | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 1 × n=3 | - |');
});

test('stale and partial: no build, a dirty record, another model or spec is stale; fewer points than needed is partial; neither counted', () => {
  assert.match(staleReason({}, undefined, true, 'm') ?? '', /no build recorded/);
  assert.match(staleReason({ build: 'abc+dirty', model: 'm' }, undefined, true, 'm') ?? '', /uncommitted/);
  assert.equal(staleReason({ build: 'abc+dirty', model: 'm' }, undefined, false, 'm'), undefined, 'results on disk from a local build are shown');
  assert.match(staleReason({ build: 'abc', model: 'old' }, undefined, true, 'new') ?? '', /model changed/);
  assert.match(staleReason({ build: 'abc', model: 'm', spec: 's1' }, 's2', true, 'm') ?? '', /spec changed/);
  assert.equal(staleReason({ build: 'abc', model: 'm', spec: 's1' }, 's1', true, 'm'), undefined);
  assert.ok(isPartial('4/6'));
  assert.ok(!isPartial('6/6'));
  const base = { id: 'a', experiment: 'e', metric: 'm', published: 1, tolerance: 1, compare: 'within' as const, source: '§1', measured: 1, verdict: 'stale' as const };
  const t = verdictTally([base, { ...base, verdict: 'partial' }, { ...base, verdict: 'holds' }]);
  assert.deepEqual([t.holds, t.stale, t.partial, t.claims], [1, 1, 1, 3]);
  // the fingerprint depends on every value, and on nothing but the values
  assert.equal(fingerprintOf({ a: 1, b: 2 }), fingerprintOf({ b: 2, a: 1 }));
  assert.notEqual(fingerprintOf({ a: 1, b: 2 }), fingerprintOf({ a: 1, b: 2.0000001 }));
});
