/**
 * The report's "Where the time went" section (issue 41; src/report/charts-breakdown.ts): a run
 * with metrics.breakdown gets stacked bars of the FCT's parts per size bin and per tag, each bar
 * the shares of its group's summed FCT (adding up to 100 %), and the worst-ports table with the
 * PFC columns when something paused; a sweep gets one bar per run in each size bin's chart, the
 * table a run column; a run without the breakdown has no such section. In headless Chromium
 * the section's charts are drawn with no console error and no overlapping labels.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runExperiment } from '../src/experiment/run/runner.js';
import { runSweep } from '../src/experiment/run/sweep-run.js';
import { writeReport } from '../src/report/html.js';
import { tempDir } from './helpers/tmp.js';
import { haveChromium, withReportPage } from './helpers/browser.js';

const dir = tempDir('report-breakdown-test');

// an incast into host 0 through a small shared buffer: PFC pauses, two tags
const SPEC = `name: rbd
seed: 1
topology: { type: spineLeaf, spines: 2, leaves: 2, hostsPerLeaf: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
cc: hpcc
network: { switch: { bufferBytes: 262144 } }
workload:
  - { type: poisson, cdf: websearch, load: 0.5, duration: 300us }
  - { type: incast, fanIn: 6, size: 64KB, receiver: 0, at: [20us] }
metrics: { breakdown: true }
`;

interface BarOption {
  legend?: unknown;
  yAxis: { data: string[] };
  series: { name: string; stack: string; data: { value: number; us: number | null }[] }[];
}

/** The options of the charts of the section, by chart id. */
function sectionCharts(html: string): Map<string, BarOption> {
  const sec = /<section id="breakdown">([\s\S]*?)<\/section>/.exec(html);
  assert.ok(sec, 'the report has the "Where the time went" section');
  const out = new Map<string, BarOption>();
  for (const m of sec[1]!.matchAll(/<figure class="chart" data-chart="([^"]+)">[\s\S]*?<script type="application\/json" class="option">([\s\S]*?)<\/script>/g)) {
    out.set(m[1]!, JSON.parse(m[2]!) as BarOption);
  }
  return out;
}

function checkStacks(id: string, o: BarOption): void {
  assert.ok(o.series.length >= 2, `${id}: parts as series`);
  for (const s of o.series) assert.equal(s.stack, 'fct', `${id}: ${s.name} stacked`);
  o.yAxis.data.forEach((label, c) => {
    const total = o.series.reduce((a, s) => a + s.data[c]!.value, 0);
    assert.ok(Math.abs(total - 100) < 0.01, `${id}, ${label}: shares add up to ${total} %`);
    assert.match(label, /\nn=[\d,]+, mean FCT [\d.]+ (ns|us|ms)$/, `${id}: bar label with count and mean FCT`);
  });
  // a part that is zero in every bar is not drawn (and is named in the note)
  for (const s of o.series) assert.ok(s.data.some((d) => d.value > 0), `${id}: ${s.name} drawn though zero everywhere`);
}

let runFile: string | undefined;

async function runReport(): Promise<string> {
  if (runFile !== undefined) return runFile;
  const spec = join(dir, 'rbd.yaml');
  writeFileSync(spec, SPEC);
  const r = await runExperiment(spec, { out: join(dir, 'run'), quiet: true });
  runFile = writeReport(r.outDir).file;
  return runFile;
}

test('report of a breakdown run: stacked parts per size bin and per tag, worst ports with the PFC columns', async () => {
  const html = readFileSync(await runReport(), 'utf8');
  assert.match(html, /<a href="#breakdown">Where the time went<\/a>/);
  const charts = sectionCharts(html);
  assert.deepEqual([...charts.keys()], ['breakdown-oscar', 'breakdown-powertcp', 'breakdown-tags']);
  for (const [id, o] of charts) checkStacks(id, o);
  const tags = charts.get('breakdown-tags')!;
  assert.deepEqual(
    tags.yAxis.data.map((l) => l.split('\n')[0]),
    ['background', 'incast', 'all flows'],
  );
  // the incast's six flows are in the incast bar; legend names the parts as fct.csv does
  assert.match(tags.yAxis.data[1]!, /n=6,/);
  assert.ok(tags.series.some((s) => s.name.startsWith('tx: ')));
  const incastTx = tags.series.find((s) => s.name.startsWith('tx: '))!.data[1]!;
  assert.ok(incastTx.us !== null && incastTx.us > 0, 'the tooltip has the mean per flow in us');
  // the worst ports: this incast paused its senders, so the pause columns are there
  const table = /<table class="figure-table"><caption>Worst ports[\s\S]*?<\/table>/.exec(html);
  assert.ok(table, 'worst ports table');
  assert.match(table[0], /<th>node<\/th><th>name<\/th><th>port<\/th><th>role<\/th><th>to node<\/th><th>queueing met \(us\)<\/th><th>paused \(us\)<\/th><th>pause caused upstream \(us\)<\/th>/);
  assert.match(table[0], /<td>(tor|leaf|spine)-(down|up)<\/td>/);
});

test('report of a breakdown sweep: a chart per size bin with a bar per CC, worst ports per run; no section without the breakdown', async () => {
  const spec = join(dir, 'rbds.yaml');
  writeFileSync(spec, `${SPEC}sweep:\n  cc: [hpcc, dcqcn]\n`);
  const r = await runSweep(spec, { out: join(dir, 'sweep'), jobs: 1, quiet: true });
  assert.equal(r.failed.length, 0);
  const html = readFileSync(writeReport(r.dir).file, 'utf8');
  const charts = sectionCharts(html);
  assert.ok(charts.has('breakdown-all'));
  assert.ok([...charts.keys()].some((k) => /^breakdown-powertcp-\d$/.test(k)), 'a chart per PowerTCP size bin');
  assert.ok(charts.has('breakdown-tag-0') && charts.has('breakdown-tag-1'), 'a chart per tag');
  for (const [id, o] of charts) {
    checkStacks(id, o);
    assert.deepEqual(o.yAxis.data.map((l) => l.split('\n')[0]), ['cc=hpcc', 'cc=dcqcn'], `${id}: one bar per CC`);
  }
  assert.match(html, /<caption>Worst ports[\s\S]*?<th>run<\/th><th>node<\/th>/);
  assert.match(html, /<tr><td>cc=dcqcn<\/td><td class="num">\d+<\/td>/);

  const plain = join(dir, 'plain.yaml');
  writeFileSync(plain, SPEC.replace('metrics: { breakdown: true }\n', ''));
  const p = await runExperiment(plain, { out: join(dir, 'plain'), quiet: true });
  const ph = readFileSync(writeReport(p.outDir).file, 'utf8');
  assert.doesNotMatch(ph, /id="breakdown"|Where the time went/);
});

test('the breakdown section renders in headless Chromium: charts drawn, legends whole, no overlapping labels, tooltips', async (t) => {
  if (!haveChromium(t)) return;
  const file = await runReport();
  await withReportPage(file, async (page, errors) => {
    const drawn = await page.$$eval('#breakdown figure.chart', (figs) =>
      figs.map((f) => {
        const svg = f.querySelector('.plot svg');
        const texts = [...(svg?.querySelectorAll('text') ?? [])].map((x) => ({ s: x.textContent ?? '', r: x.getBoundingClientRect() })).filter((x) => x.s.trim() !== '' && x.r.width > 0);
        const overlaps: string[] = [];
        for (let i = 0; i < texts.length; i++) {
          for (let j = i + 1; j < texts.length; j++) {
            const a = texts[i]!.r;
            const b = texts[j]!.r;
            if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) overlaps.push(`"${texts[i]!.s}" / "${texts[j]!.s}"`);
          }
        }
        const box = svg?.getBoundingClientRect();
        return { id: f.getAttribute('data-chart'), inside: texts.every((x) => box !== undefined && x.r.left >= box.left - 1 && x.r.right <= box.right + 1), texts: texts.map((x) => x.s), rects: svg?.querySelectorAll('path').length ?? 0, overlaps };
      }),
    );
    assert.deepEqual(drawn.map((d) => d.id), ['breakdown-oscar', 'breakdown-powertcp', 'breakdown-tags']);
    for (const d of drawn) {
      assert.ok(d.rects > 10, `${d.id}: bars drawn`);
      assert.deepEqual(d.overlaps, [], `${d.id}: overlapping labels`);
      assert.ok(d.inside, `${d.id}: every label inside the chart`);
      // legend entries whole, not truncated with an ellipsis
      assert.ok(d.texts.includes('tx: sending at line rate'), `${d.id}: legend ${d.texts.join(' | ')}`);
      assert.ok(!d.texts.some((s) => s.endsWith('...') || s.endsWith('…')), `${d.id}: truncated text`);
    }
    const plot = page.locator('figure.chart[data-chart="breakdown-tags"] .plot');
    await plot.scrollIntoViewIfNeeded();
    const bb = (await plot.boundingBox())!;
    // the tooltip of the first bar (y category axis, top down): parts with share and mean per flow
    const opt = JSON.parse((await page.locator('figure.chart[data-chart="breakdown-tags"] script.option').textContent())!) as { grid: { top: number } };
    await page.mouse.move(bb.x + bb.width * 0.6, bb.y + opt.grid.top + 20);
    const tip = await plot.evaluate((el) =>
      [...el.querySelectorAll('div')].filter((d) => d.style.position === 'absolute' && d.style.display !== 'none' && /per flow/.test(d.textContent ?? '')).map((d) => d.textContent ?? ''),
    );
    assert.equal(tip.length, 1, 'one tooltip on hover');
    assert.match(tip[0]!, /^background, n=\d+, mean FCT [\d.]+ (us|ms)/);
    assert.match(tip[0]!, /tx: sending at line rate: [\d.]+ % \([\d.,]+ us per flow\)/);
    assert.deepEqual(errors, []);
  });
});
