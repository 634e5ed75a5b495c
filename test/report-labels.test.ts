/**
 * Issue 44's report labels and whole-fabric view: quick and one-seed results
 * say so on every table and chart that shows them (a chart's subtitle, a
 * table's caption), replicated full-size results carry no such label, and a
 * single run's report has the peak queue of every port (per role, and a heat
 * map of the switch ports), not only the ports metrics.queues sampled. Also
 * what `reproduce --quick` can judge, known from the plans alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExperiment } from '../src/experiment/run/runner.js';
import { runSweep } from '../src/experiment/run/sweep-run.js';
import { planSweep } from '../src/experiment/run/sweep.js';
import { writeReport } from '../src/report/html.js';
import { sampleLabel } from '../src/report/sample-label.js';
import { quickScope, quickScopeLines } from '../src/report/quick-scope.js';
import { loadResults } from '../src/experiment/results/results.js';
import type { PublishedData } from '../src/report/published.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('report-labels');

const RUN = `name: lab
seed: 3
topology: { type: spineLeaf, spines: 2, leaves: 2, hostsPerLeaf: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: poisson, cdf: websearch, load: 0.5, duration: 60us, tag: background }
  - { type: incast, fanIn: 4, size: 64KB, receiver: 0, at: [20us], tag: incast }
metrics: { queues: auto }
`;

/** Chart ids and their option's subtitle. */
function chartSubtexts(html: string): { id: string; subtext: string | undefined }[] {
  return [...html.matchAll(/<figure class="chart" data-chart="([^"]+)">[\s\S]*?<script type="application\/json" class="option">([\s\S]*?)<\/script>/g)].map((m) => {
    const o = JSON.parse(m[2]!) as { title?: { subtext?: string } };
    return { id: m[1]!, subtext: o.title?.subtext };
  });
}

test('single run: one-seed label on every table and chart of results; peak queue of every port, per role and as a heat map', async () => {
  const spec = join(dir, 'lab.yaml');
  writeFileSync(spec, RUN);
  const r = await runExperiment(spec, { out: join(dir, 'lab'), quiet: true });
  const html = readFileSync(writeReport(r.outDir).file, 'utf8');
  const charts = chartSubtexts(html);
  assert.ok(charts.length >= 5, `${charts.length} charts`);
  for (const c of charts) assert.equal(c.subtext, 'one seed (seed 3)', c.id);
  for (const t of ['Summary', 'FCT slowdown per workload tag', 'Peak queue per port role, whole fabric']) assert.match(html, new RegExp(`<caption>${t} \\(one seed \\(seed 3\\)\\) <button`), t);
  // the topology map is not a result: no label
  assert.match(html, /<caption>Topology: node ids by layer <button/);
  // every port's peak: roles by the layers they join, the count above 100 KB over all ports, a heat map of the 4 switches
  assert.match(html, /<td>leaf → host<\/td><td class="num">8<\/td>/);
  assert.match(html, /\d+ of 24 ports peaked above 100 KB/);
  const heat = /<table class="heatmap">[\s\S]*?<\/table>/.exec(html)?.[0];
  assert.ok(heat !== undefined, 'a heat map');
  assert.equal([...heat.matchAll(/<tr><th>(leaf|spine)\d+ \((leaf|spine)\)<\/th>/g)].length, 4);
  assert.match(heat, /title="leaf8:0→h0: [\d.]+ KB"/);
});

test('sweeps: quick size and one seed labelled; replicated full-size points carry no label', async () => {
  const spec = join(dir, 'sw.yaml');
  writeFileSync(
    spec,
    `${RUN.replace('name: lab', 'name: sw').replace('seed: 3\n', '')}sweep:\n  cc: [hpcc, dcqcn]\nquick:\n  workload[0].duration: 30us\nseeds: [1, 2]\n`,
  );
  const quick = await runSweep(spec, { out: join(dir, 'sw-quick'), quick: true, jobs: 1, quiet: true });
  assert.equal(sampleLabel(loadResults(quick.dir)), 'quick size, one seed (seed 1)');
  const html = readFileSync(writeReport(quick.dir).file, 'utf8');
  for (const c of chartSubtexts(html)) assert.equal(c.subtext, 'quick size, one seed (seed 1)', c.id);
  assert.match(html, /<caption>Summary \(quick size, one seed \(seed 1\)\) <button/);
  assert.doesNotMatch(html, /class="heatmap"/, 'the heat map is for a single run');
  const full = await runSweep(spec, { out: join(dir, 'sw-full'), jobs: 1, quiet: true });
  assert.equal(sampleLabel(loadResults(full.dir)), undefined, 'two seeds per point, full size');
  const fullHtml = readFileSync(writeReport(full.dir).file, 'utf8');
  for (const c of chartSubtexts(fullHtml)) assert.equal(c.subtext, undefined, c.id);
});

test('reproduce --quick: which claims it can judge, known from the plans', () => {
  const spec = join(dir, 'q.yaml');
  writeFileSync(spec, `${RUN.replace('name: lab', 'name: q')}sweep:\n  cc: [hpcc, dcqcn, swift]\nquick:\n  sweep:\n    cc: [hpcc, dcqcn]\n`);
  const plain = join(dir, 'p.yaml');
  writeFileSync(plain, RUN.replace('name: lab', 'name: p'));
  const plans = new Map([
    ['q', planSweep(spec, { quick: true })],
    ['p', planSweep(plain, { quick: true })],
  ]);
  const claim = (id: string, experiment: string, needs?: string): PublishedData['claims'][number] =>
    ({ id, experiment, metric: 'm', published: 1, tolerance: 0, compare: 'within', source: 's', ...(needs !== undefined ? { needs } : {}) }) as PublishedData['claims'][number];
  const data = {
    paper: 'oscar',
    title: 't',
    claims: [claim('a', 'q', 'cc=hpcc'), claim('b', 'q', 'cc=swift'), claim('c', 'p'), claim('d', 'gone'), { ...claim('e', 'q'), variantOf: 'a', variant: 'v' }, claim('f', 'q')],
  } as PublishedData;
  const s = quickScope(data, plans);
  // q's quick sweep drops swift: a claim without needs: on it may or may not be judged
  assert.deepEqual(s, { fullSize: ['c'], reduced: ['a'], thinned: ['f'], cannot: ['b', 'd'] });
  const lines = quickScopeLines(s);
  assert.match(lines[0]!, /of 5 claims, 1 run at the paper's size \(one replica\), 1 on reduced points .* 1 on quick sweeps with fewer points .* 2 cannot be judged/);
  assert.equal(lines[1], 'cannot be judged at quick size: b, d');
});
