/**
 * Paper reproduction: a paper's experiments run as one sweep, the report puts
 * the published numbers (from the data file, not from code) next to the
 * measured ones with a verdict per claim; the README table is generated from
 * the same data; papers without experiments say so; the shipped data files
 * are valid.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpecError } from '../src/engine/errors.js';
import { currentModel } from '../src/report/provenance.js';
import { PAPERS, compareClaims, loadClaimRecord, loadPublished, verdictOf } from '../src/report/published.js';
import { claimsView, reproduce, writeClaimsReadme } from '../src/report/reproduce.js';
import { tempDir } from './helpers/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = tempDir('repro-test');
const exp = join(dir, 'experiments');
mkdirSync(exp);

const A = `name: repro-a
topology: { type: star, hosts: 9, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 8, size: 256KB, receiver: 8, at: [0] }
sweep:
  cc: [hpcc, dcqcn]
figure: slowdown-table
quick:
  workload[0].size: 64KB
`;
const B = `name: repro-b
topology: { type: star, hosts: 5, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 4, size: 64KB, receiver: 4, at: [0] }
`;
writeFileSync(join(exp, 'a.yaml'), A);
writeFileSync(join(exp, 'b.yaml'), B);

const published = join(dir, 'published.yaml');
writeFileSync(
  published,
  `paper: oscar
title: Test paper
claims:
  - { id: "cc=hpcc.mean", experiment: a, metric: mean slowdown of HPCC, published: 2, unit: x, tolerance: 100, source: "§1" }
  - { id: "cc=dcqcn.p99", experiment: a, metric: p99 slowdown of DCQCN, published: 1000, tolerance: 1, compare: atLeast, source: "§2" }
  - { id: "never.measured", experiment: b, metric: not measured by b, published: 1, tolerance: 1, source: "§3" }
  - { id: "cc=hpcc.p50", experiment: zzz, metric: experiment without a spec, published: 1, tolerance: 1, source: "§4" }
`,
);

test('reproduce: experiments as one sweep, report with published vs measured and verdicts from the data file', async () => {
  const out = join(dir, 'results');
  const r = await reproduce('oscar', { quick: true, out, experiments: exp, published, jobs: 2, quiet: true });
  assert.equal(r.failed, 0);
  assert.equal(r.ran, 3);
  // each experiment is an ordinary sweep folder (reused by `ccsim sweep`)
  assert.ok(existsSync(join(out, 'repro-a-quick', 'sweep.json')));
  assert.ok(existsSync(join(out, 'repro-b-quick', 'points')));
  const rows = r.view.rows;
  assert.deepEqual(
    rows.map((x) => [x.id, x.verdict]),
    [
      ['cc=hpcc.mean', 'holds'],
      ['cc=dcqcn.p99', 'deviates'],
      ['never.measured', 'not run'],
      ['cc=hpcc.p50', 'not run'],
    ],
  );
  assert.deepEqual(r.view.unknown, ['zzz']);
  // finished experiments whose analysis never produces a published id are named, so a renamed id cannot hide
  assert.deepEqual(r.view.unmeasured, []);
  const renamed = join(dir, 'published-renamed.yaml');
  writeFileSync(renamed, readFileSync(published, 'utf8').replace('cc=hpcc.mean', 'hpcc.mean'));
  assert.deepEqual(claimsView('oscar', { quick: true, out, experiments: exp, published: renamed }).unmeasured, [{ experiment: 'a', id: 'hpcc.mean' }]);
  // measured = the point's own summary.json
  const hpccDir = join(out, 'repro-a-quick', 'points', 'cc=hpcc');
  const summary = JSON.parse(readFileSync(join(hpccDir, 'summary.json'), 'utf8')) as { fct: { overall: { meanSlowdown: number } } };
  assert.equal(rows[0]!.measured, summary.fct.overall.meanSlowdown);
  assert.ok(r.report !== undefined);
  const html = readFileSync(r.report, 'utf8');
  assert.match(html, /4 claims: 1 hold, 1 deviate, 2 not run \(quick run/);
  assert.match(html, /<tr class="verdict-holds"><td>cc=hpcc\.mean<\/td><td>a<\/td><td>mean slowdown of HPCC<\/td><td class="num">2x<\/td><td>within ±100x<\/td><td class="num">[\d.]+x \(n=1\) \[quick: workload\[0\]\.size 64KB\]<\/td>/);
  assert.match(html, /<tr class="verdict-deviates"><td>cc=dcqcn\.p99<\/td>.*?<td>&gt;= 999<\/td>/);
  assert.match(html, /names experiments without a spec: zzz/);
  // figure tables and charts of each experiment, with chart ids unique across experiments
  assert.match(html, /Overall FCT slowdown/);
  const ids = [...html.matchAll(/data-chart="([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(ids.includes('a-slowdown-mean-oscar') && ids.includes('b-slowdown-mean-oscar'), ids.join(' '));
  assert.equal(new Set(ids).size, ids.length);
  const csv = readFileSync(join(out, 'reproduce-oscar-quick', 'claims.csv'), 'utf8').split('\n');
  assert.equal(csv[0], 'id,experiment,metric,published,unit,tolerance,compare,direction,measured,bound,n,ci95,values,replicas,verdict,basis,why,variantOf,variant,cause,build,model,spec,points,cpuSeconds,source');
  assert.match(csv[1]!, /^cc=hpcc\.mean,a,mean slowdown of HPCC,2,x,100,within,,[\d.]+,,1,,,,holds,,,,,,[0-9a-f]{12}(\+dirty)?,[0-9a-f]{16},[0-9a-f]{12},2\/2,[\d.]+,§1$/);

  // the second run reuses every finished point
  const again = await reproduce('oscar', { quick: true, out, experiments: exp, published, jobs: 2, quiet: true });
  assert.equal(again.ran, 0);
  assert.deepEqual(
    again.view.rows.map((x) => x.measured),
    rows.map((x) => x.measured),
  );

  // README table: generated from the data file and the latest results, rewritten in place
  const readme = join(exp, 'README.md');
  writeFileSync(readme, '# Test experiments\n\nHand-written text stays.\n');
  const view = claimsView('oscar', { quick: true, out, experiments: exp, published });
  writeClaimsReadme(view, { experiments: exp });
  writeClaimsReadme(view, { experiments: exp });
  const md = readFileSync(readme, 'utf8');
  assert.match(md, /^# Test experiments\n\nHand-written text stays\.\n\n## Published vs measured\n\n<!-- ccsim:claims:begin -->/);
  assert.equal(md.split('<!-- ccsim:claims:begin -->').length, 2, 'one generated block');
  assert.match(md, /\| cc=hpcc\.mean \| a \| mean slowdown of HPCC \| 2x \| within ±100x \| [\d.]+x \(n=1\) \[quick: workload\[0\]\.size 64KB\] \| holds \|  \| build [0-9a-f]{12}(\+dirty)?; 2\/2 points; \d+ CPU s \| §1 \|/);
  assert.match(md, /Points finished per experiment: a 2\/2, b 1\/1\./);
});

test('claims: values missing on disk come from the committed record, marked; fresh results replace them and the record follows the README', async () => {
  const out = join(dir, 'results-record');
  const record = join(dir, 'measured', 'oscar.json');
  mkdirSync(join(dir, 'measured'));
  writeFileSync(
    record,
    JSON.stringify({
      paper: 'oscar',
      claims: { 'a/cc=hpcc.mean': { value: 500, points: '2/2', build: '0123456789ab', model: currentModel() }, 'b/never.measured': { value: 5, points: '1/1' } },
    }),
  );
  // nothing on disk: both recorded values are used; the one without a build (made before provenance) is stale, not counted
  const before = claimsView('oscar', { out, experiments: exp, published, record, recorded: true });
  assert.deepEqual(
    before.rows.map((r) => [r.id, r.measured, r.recorded, r.verdict, r.basis]),
    [
      ['cc=hpcc.mean', 500, '2/2', 'deviates', undefined],
      ['cc=dcqcn.p99', null, undefined, 'not run', undefined],
      ['never.measured', 5, '1/1', 'stale', 'deviates'],
      ['cc=hpcc.p50', null, undefined, 'not run', undefined],
    ],
  );
  assert.match(before.rows[2]!.why ?? '', /no build recorded/);
  // without `recorded` the record is not consulted
  assert.equal(claimsView('oscar', { out, experiments: exp, published, record }).rows[0]!.measured, null);

  // fresh full-size results replace the recorded value of experiment a; b's stays recorded
  const r = await reproduce('oscar', { out, experiments: exp, published, jobs: 2, quiet: true });
  assert.equal(r.failed, 0);
  const view = claimsView('oscar', { out, experiments: exp, published, record, recorded: true });
  const mean = view.rows[0]!;
  assert.equal(mean.recorded, undefined);
  assert.notEqual(mean.measured, 500);
  assert.equal(mean.verdict, 'holds');
  assert.equal(view.rows[2]!.recorded, '1/1');

  writeFileSync(join(exp, 'README.md'), '# Test experiments\n');
  writeClaimsReadme(view, { experiments: exp });
  const md = readFileSync(join(exp, 'README.md'), 'utf8');
  assert.match(md, /Points finished per experiment: a 2\/2, b 1\/1 \(and 1\/1 recorded\)\./);
  assert.match(md, /1 of the measured values are marked "recorded"/);
  assert.match(md, /\| never\.measured \| b \| not measured by b \| 1 \| within ±1 \| 5 \(n=1\) \(recorded, 1\/1 points\) \| stale \(value would give: deviates; no build recorded [^|]*\) \|  \| build none recorded; 1\/1 points \| §3 \|/);
  const saved = JSON.parse(readFileSync(record, 'utf8')) as { paper: string; claims: Record<string, { value: number; points: string }> };
  assert.deepEqual(Object.keys(saved.claims).sort(), ['a/cc=dcqcn.p99', 'a/cc=hpcc.mean', 'b/never.measured']);
  assert.equal(saved.claims['a/cc=hpcc.mean']!.value, mean.measured);
  assert.equal(saved.claims['a/cc=hpcc.mean']!.points, '2/2');
  // a fresh row is recorded with its provenance: build, model, spec hash and CPU seconds of its points
  const prov = saved.claims['a/cc=hpcc.mean'] as unknown as Record<string, unknown>;
  assert.match(String(prov['build']), /^[0-9a-f]{12}(\+dirty)?$/);
  assert.equal(prov['model'], currentModel());
  assert.match(String(prov['spec']), /^[0-9a-f]{12}$/);
  assert.ok(typeof prov['cpuSeconds'] === 'number');
  assert.deepEqual(saved.claims['b/never.measured'], { value: 5, points: '1/1' });

  // a broken record names the field and the value, as a spec error does
  writeFileSync(record, JSON.stringify({ paper: 'oscar', claims: { 'a/cc=hpcc.mean': { value: 'x', points: '2/2' } } }));
  assert.throws(() => claimsView('oscar', { out, experiments: exp, published, record, recorded: true }), (e: unknown) => {
    assert.ok(e instanceof SpecError);
    assert.equal(e.file, record);
    assert.match(e.message, /^claims\.a\/cc=hpcc\.mean\.value: "x" — expected a number/);
    return true;
  });
});

test('reproduce: a paper without experiments says so; bad specs are named by file before anything runs', async () => {
  const empty = join(dir, 'none');
  const r = await reproduce('acc', { experiments: empty, published: join(dir, 'nope.yaml'), out: join(dir, 'r0'), quiet: true });
  assert.match(r.message ?? '', /^no experiments for acc yet: .* has no experiment specs$/);
  assert.equal(r.report, undefined);
  // with published numbers but no experiments: a report where every claim is "not run"
  const r2 = await reproduce('oscar', { experiments: empty, published, out: join(dir, 'r1'), quiet: true });
  assert.ok(r2.report !== undefined && existsSync(r2.report));
  assert.ok(r2.view.rows.every((x) => x.verdict === 'not run'));

  const bad = join(dir, 'bad');
  mkdirSync(bad);
  writeFileSync(join(bad, 'good.yaml'), A);
  writeFileSync(join(bad, 'worse.yaml'), A.replace('sweep:\n  cc: [hpcc, dcqcn]', 'sweep:\n  workload[0].lod: [1]'));
  const out = join(dir, 'r2');
  await assert.rejects(
    reproduce('oscar', { experiments: bad, published, out, quiet: true }),
    (e: unknown) => e instanceof SpecError && e.lines().some((l) => l.startsWith('worse: sweep.workload[0].lod: does not exist in the spec')),
  );
  assert.ok(!existsSync(out), 'nothing written');
  await assert.rejects(reproduce('nosuchpaper', { quiet: true }), /unknown paper "nosuchpaper" \(known: oscar, powertcp, acc, ccc, sqcc\)/);
});

test('shipped published-number files are valid and name their paper', () => {
  const files = readdirSync(join(ROOT, 'data', 'published'));
  assert.ok(files.includes('oscar.yaml'));
  for (const f of files) {
    const d = loadPublished(join(ROOT, 'data', 'published', f));
    assert.ok(d !== undefined);
    assert.equal(`${d.paper}.yaml`, f);
    assert.ok((PAPERS as readonly string[]).includes(d.paper));
    assert.ok(d.claims.length > 0);
  }
  const oscar = loadPublished(join(ROOT, 'data', 'published', 'oscar.yaml'))!;
  // the headline numbers of OSCAR §6.4 (Fig. 10a)
  const byId = new Map(oscar.claims.map((c) => [c.id, c]));
  assert.equal(byId.get('fig10a.oscar-vs-hpcc.all.mean')?.published, 48.1);
  assert.equal(byId.get('fig10a.oscar-vs-hpcc.all.p99')?.published, 74.1);
  assert.equal(byId.get('fig10a.oscar-vs-hpcc.small.mean')?.published, -7.6);
  // each committed record of earlier measurements names claims of its paper's data file only
  for (const f of readdirSync(join(ROOT, 'data', 'measured')).filter((x) => x !== 'model.json')) {
    const rec = loadClaimRecord(join(ROOT, 'data', 'measured', f))!;
    assert.equal(`${rec.paper}.json`, f);
    const known = new Set(loadPublished(join(ROOT, 'data', 'published', `${rec.paper}.yaml`))!.claims.map((c) => `${c.experiment}/${c.id}`));
    for (const [k, v] of Object.entries(rec.claims)) {
      assert.ok(known.has(k), `${f}: ${k} is not a claim of data/published/${rec.paper}.yaml`);
      assert.ok(Number.isFinite(v.value) && /^\d+\/\d+$/.test(v.points), `${f}: ${k}`);
    }
  }
});

test('published-number files: bad input names the field', () => {
  const f = join(dir, 'badpub.yaml');
  writeFileSync(f, 'paper: oscar\ntitle: t\nclaims:\n  - { id: x, experiment: a, metric: m, published: "big", tolerance: -1, source: s }\n');
  assert.throws(
    () => loadPublished(f),
    (e: unknown) =>
      e instanceof SpecError &&
      e.lines().includes('claims[0].published: "big" — expected a number, got a string') &&
      e.lines().includes('claims[0].tolerance: -1 — must be >= 0'),
  );
  writeFileSync(f, 'paper: oscar\ntitle: t\nclaims:\n  - { id: x, experiment: a, metric: m, published: 1, tolerance: 1, source: s }\n  - { id: x, experiment: a, metric: m, published: 1, tolerance: 1, source: s }\n');
  assert.throws(
    () => loadPublished(f),
    (e: unknown) => e instanceof SpecError && e.lines().includes('claims[1].id: "x" — duplicate claim id'),
  );
});

test('a lower-bound measurement ("not by the run end") deviates only when the bound already exceeds the band', () => {
  const claim = { id: 'x.t', experiment: 'x', metric: 'time until the queue drains', published: 10, unit: 'ms', tolerance: 3, compare: 'within' as const, source: 'Fig 1' };
  // exact measurements: within the band holds, outside deviates
  assert.equal(verdictOf(claim, 12), 'holds');
  assert.equal(verdictOf(claim, 14), 'deviates');
  // "> 500 ms": the true value is above every value in 7-13 ms
  assert.equal(verdictOf(claim, 500, 'lower'), 'deviates');
  // "> 8 ms" could still be 10 ms: undecided, not a pass
  assert.equal(verdictOf(claim, 8, 'lower'), 'undecided');
  assert.equal(verdictOf({ ...claim, compare: 'atMost' }, 20, 'lower'), 'deviates');
  assert.equal(verdictOf({ ...claim, compare: 'atLeast' }, 8, 'lower'), 'holds');
  assert.equal(verdictOf({ ...claim, compare: 'atLeast' }, 2, 'lower'), 'undecided');
  const rows = compareClaims({ paper: 'ccc', title: 't', claims: [claim] }, new Map([['x', [{ id: 'x.t', value: 500, unit: 'ms', bound: 'lower' as const }]]]));
  assert.equal(rows[0]!.bound, 'lower');
  assert.equal(rows[0]!.verdict, 'deviates');
});
