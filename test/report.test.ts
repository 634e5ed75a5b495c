/**
 * HTML reports: the file is self-contained (no external resources, the
 * ECharts runtime inlined), has the charts the results call for, and renders
 * in headless Chromium with no console errors: every chart drawn (no empty
 * axes: a chart without data says why), no two text labels of a chart
 * overlapping, tooltips on hover; a chart's "download SVG" button yields its
 * SVG, a table's "download CSV" its CSV. A PNG screenshot is kept in
 * ci-artifacts/ for CI.
 *
 * Chromium (Debian `chromium`, /usr/bin/chromium) is installed by .ci/run; the
 * browser test is skipped with a message only when it is absent outside CI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSweep } from '../src/experiment/run/sweep-run.js';
import { writeReport } from '../src/report/html.js';
import { readColumns, readFctRecords, readTable, requireResultJson } from '../src/experiment/results/results.js';
import { UsageError } from '../src/engine/errors.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';
import { haveChromium, withReportPage } from './helpers/browser.js';

const ARTIFACTS = fileURLToPath(new URL('../../ci-artifacts/', import.meta.url));
const dir = tempDir('report-test');

const SPEC = `name: rep
topology: { type: spineLeaf, spines: 2, leaves: 2, hostsPerLeaf: 4, hostRate: 100Gbps, fabricRate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: poisson, cdf: websearch, load: 0.5, duration: 100us }
  - { type: incast, fanIn: 4, size: 64KB, receiver: 0, at: [20us] }
metrics:
  queues: { ports: [{ link: [8, 0] }], interval: 2us }
  throughput: { ports: [{ link: [8, 0] }, { link: [9, 4] }], interval: 10us }
  flowThroughput: { flows: all, interval: 10us }
sweep:
  cc: [hpcc, { name: dcqcn, params: { variant: paper } }]
  workload[0].load: [0.3, 0.5]
`;

let reportFile: string | undefined;

async function sweepReport(): Promise<string> {
  if (reportFile !== undefined) return reportFile;
  const spec = join(dir, 'rep.yaml');
  writeFileSync(spec, SPEC);
  const r = await runSweep(spec, { out: join(dir, 'rep'), jobs: 2, quiet: true });
  assert.equal(r.failed.length, 0);
  reportFile = writeReport(r.dir).file;
  return reportFile;
}

/**
 * drawn charts, in page order: no chart is left empty; the p99 / p99.9 of so short a run have too
 * few flows, and are drawn marked (hollow markers, faint dash-outlined bars), not dropped
 */
const EXPECTED_CHARTS = [
  'vs-load-mean',
  'vs-load-p99',
  'slowdown-mean-oscar',
  'slowdown-mean-powertcp',
  'slowdown-p99-oscar',
  'slowdown-p99-powertcp',
  'slowdown-p999-oscar',
  'slowdown-p999-powertcp',
  'slowdown-cdf',
  'queues-n8-p0',
  'throughput-n8-p0',
  'throughput-n9-p0',
  'flow-rate-0',
  'flow-rate-1',
  'flow-rate-2',
  'flow-rate-3',
];


/** The HTML outside inline <script> bodies (the inlined ECharts runtime holds markup in strings). */
function markup(html: string): string {
  return html.replace(/(<script[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
}

test('report of a sweep: one self-contained file with the expected charts, legends from the varied values', async () => {
  const file = await sweepReport();
  const html = readFileSync(file, 'utf8');
  const charts = [...html.matchAll(/<figure class="chart" data-chart="([^"]+)"><div class="plot"/g)].map((m) => m[1]);
  assert.deepEqual(charts, EXPECTED_CHARTS);
  assert.doesNotMatch(html, /<figure class="chart empty"/, 'no empty charts');
  assert.match(html, /hollow markers: fewer than the 100 finished flows a reliable p99 slowdown needs \(\d+ points?\)/);
  assert.match(html, /faint, dash-outlined bars: fewer than the 100 finished flows a reliable p99 needs/);
  assert.match(html, /"symbol":"emptyCircle"/);
  // nothing loaded from elsewhere: no external scripts, styles, images or fonts; the runtime is inline
  const m = markup(html);
  assert.doesNotMatch(m, /<(script|link|img|iframe)[^>]+(src|href)=/i);
  assert.doesNotMatch(m, /url\(\s*['"]?https?:/i);
  assert.match(html, /<script>\s*\/\*[\s\S]{0,2000}Apache/);
  // legends and the summary name the varied values, a CC with its parameters in full (no hash)
  assert.match(html, /<td>cc=hpcc load=0\.3<\/td><td>hpcc<\/td>/);
  assert.match(html, /<td>cc=dcqcn\[variant=paper\] load=0\.5<\/td><td>dcqcn<\/td>/);
  assert.match(html, /"name":"cc=dcqcn\[variant=paper\]"/);
  // no PFC chart: nothing paused in this run; a topology map by layer
  assert.doesNotMatch(html, /data-chart="pfc-per-layer"/);
  assert.match(m, /<td>leaf<\/td><td class="num">2<\/td><td>8-9<\/td>/);
  // flow counts per bin on the axis, tail percentiles left out where too few flows
  assert.match(html, /\(0, 150 KiB\]\\nn=\d+/);
});

test('report: bad input is a clear error (no results, missing folder), exit 2, no file written', () => {
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  for (const [target, msg] of [
    [empty, /no results in .*expected a run folder/],
    [join(dir, 'nope'), /not a result folder: .* does not exist/],
  ] as const) {
    const r = spawnSync(process.execPath, [CLI, 'report', target], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, msg);
    assert.doesNotMatch(r.stderr, /^\s+at /m);
  }
  assert.ok(!existsSync(join(empty, 'report.html')));
});

test('report renders in headless Chromium: no console errors, every chart drawn, SVG download works, PNG kept', async (t) => {
  if (!haveChromium(t)) return;
  const file = await sweepReport();
  await withReportPage(file, async (page, errors) => {
    const drawn = await page.$$eval('figure.chart:not(.empty)', (figs) =>
      figs.map((f) => {
        const svg = f.querySelector('.plot svg');
        const box = svg?.getBoundingClientRect();
        // every pair of text boxes (axis labels, legend, title, axis names) that overlap by more than 1 px each way
        const texts = [...(svg?.querySelectorAll('text') ?? [])].map((t) => ({ s: t.textContent ?? '', r: t.getBoundingClientRect() })).filter((t) => t.s.trim() !== '' && t.r.width > 0);
        const overlaps: string[] = [];
        for (let i = 0; i < texts.length; i++) {
          for (let j = i + 1; j < texts.length; j++) {
            const a = texts[i]!.r;
            const b = texts[j]!.r;
            const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (w > 1 && h > 1) overlaps.push(`"${texts[i]!.s}" / "${texts[j]!.s}"`);
          }
        }
        return { id: f.getAttribute('data-chart'), w: box?.width ?? 0, h: box?.height ?? 0, paths: svg?.querySelectorAll('path').length ?? 0, texts: texts.length, overlaps };
      }),
    );
    assert.deepEqual(
      drawn.map((d) => d.id),
      EXPECTED_CHARTS,
    );
    for (const d of drawn) {
      assert.ok(d.w > 300 && d.h > 150, `chart ${d.id} has size ${d.w}x${d.h}`);
      assert.ok(d.paths > 5, `chart ${d.id} draws ${d.paths} paths`);
      assert.ok(d.texts > 5, `chart ${d.id} has ${d.texts} labels`);
      assert.deepEqual(d.overlaps, [], `chart ${d.id}: overlapping labels`);
    }
    // interactive: hovering a bar chart shows a tooltip with the values and flow counts
    const bars = page.locator('figure.chart[data-chart="slowdown-mean-oscar"] .plot');
    await bars.scrollIntoViewIfNeeded();
    const bb = (await bars.boundingBox())!;
    await page.mouse.move(bb.x + bb.width * 0.3, bb.y + bb.height * 0.6);
    const tip = await bars.evaluate((el) => {
      const divs = [...el.querySelectorAll('div')].filter((d) => d.style.position === 'absolute' && d.style.display !== 'none' && d.style.visibility !== 'hidden' && /flows\)/.test(d.textContent ?? ''));
      return divs.map((d) => d.textContent ?? '');
    });
    assert.equal(tip.length, 1, 'one tooltip shown on hover');
    assert.match(tip[0]!, /cc=hpcc load=0\.3: [\d.]+ \([\d,]+ flows\)/);
    // a legend entry toggles its series
    const legendToggles = await page.$eval('figure.chart[data-chart="slowdown-cdf"]', (f) => {
      const c = (f as unknown as { ccsimChart: { dispatchAction(a: object): void; getOption(): { legend: { selected: Record<string, boolean> }[] } } }).ccsimChart;
      c.dispatchAction({ type: 'legendToggleSelect', name: 'cc=hpcc load=0.3' });
      return c.getOption().legend[0]!.selected['cc=hpcc load=0.3'];
    });
    assert.equal(legendToggles, false);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('figure.chart[data-chart="slowdown-cdf"] button').click()]);
    assert.equal(download.suggestedFilename(), 'slowdown-cdf.svg');
    const saved = join(dir, 'dl.svg');
    await download.saveAs(saved);
    assert.match(readFileSync(saved, 'utf8'), /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('table.summary-table button[data-csv]').click()]);
    assert.equal(csv.suggestedFilename(), 'summary.csv');
    const savedCsv = join(dir, 'summary.csv');
    await csv.saveAs(savedCsv);
    const csvLines = readFileSync(savedCsv, 'utf8').trim().split('\n');
    assert.equal(csvLines.length, 1 + 4, 'header and one row per point');
    assert.match(csvLines.join('\n'), /^run,cc,flows,finished,mean/m);
    assert.deepEqual(errors, []);
    mkdirSync(ARTIFACTS, { recursive: true });
    const png = join(ARTIFACTS, 'report-sweep.png');
    await page.screenshot({ path: png, fullPage: true });
    assert.ok(statSync(png).size > 10_000);
    console.log(`# report screenshot: ${png}`);
  });
});

test('ccsim report --svg / --png: one figure file per drawn chart, none for a chart without data', async (t) => {
  const file = await sweepReport();
  const sweepDir = join(file, '..');
  const svgDir = join(dir, 'figs-svg');
  const r = spawnSync(process.execPath, [CLI, 'report', sweepDir, '--out', join(dir, 'r2.html'), '--svg', svgDir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`figures: ${EXPECTED_CHARTS.length} SVG files in `));
  assert.deepEqual(readdirSync(svgDir).sort(), EXPECTED_CHARTS.map((c) => `${c}.svg`).sort());
  for (const c of EXPECTED_CHARTS) {
    const svg = readFileSync(join(svgDir, `${c}.svg`), 'utf8');
    assert.match(svg, /^<svg width="720" height="\d+" xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, c);
    assert.ok((svg.match(/<path/g) ?? []).length > 5, `${c} draws paths`);
  }
  // the legend names the varied values in the figure file too
  assert.match(readFileSync(join(svgDir, 'slowdown-mean-oscar.svg'), 'utf8'), /cc=dcqcn\[variant=paper\] load=0\.5/);
  const png = spawnSync(process.execPath, [CLI, 'report', sweepDir, '--out', join(dir, 'r3.html'), '--png', join(dir, 'figs-png')], { encoding: 'utf8' });
  let resvg = true;
  try {
    await import('@resvg/resvg-js' as string);
  } catch {
    resvg = false;
  }
  if (!resvg) {
    // without the optional rasterizer: a clear error, exit 2
    assert.equal(png.status, 2);
    assert.match(png.stderr, /--png needs the optional dependency @resvg\/resvg-js/);
    t.diagnostic('@resvg/resvg-js is not installed: PNG output not checked');
    return;
  }
  assert.equal(png.status, 0, png.stderr);
  const pngs = readdirSync(join(dir, 'figs-png')).sort();
  assert.deepEqual(pngs, EXPECTED_CHARTS.map((c) => `${c}.png`).sort());
  const head = readFileSync(join(dir, 'figs-png', pngs[0]!));
  assert.deepEqual([...head.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(head.readUInt32BE(16), 1440, 'twice the chart width');
});

test('result tables read the same through the plain-CSV fast path, csv-parse (quoted cells) and JSONL', () => {
  const d = join(dir, 'tables');
  mkdirSync(d, { recursive: true });
  const head = 'id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag';
  // the fast path (no quote anywhere), CRLF line ends and a trailing blank line
  writeFileSync(join(d, 'fct.csv'), `${head}\r\n0,1,2,1000,5,25,20,10,2,bg\r\n1,1,2,2e3,7,nan,inf,10,-inf,7\r\n\r\n`);
  // csv-parse: a quoted tag with a comma, and a quoted number that stays text
  writeFileSync(join(d, 'q.csv'), `${head}\n0,1,2,1000,5,25,20,10,2,"a,b"\n1,1,2,2e3,7,nan,inf,10,-inf,"7"\n`);
  writeFileSync(join(d, 'j.jsonl'), '{"id":0,"bytes":1000,"slowdown":2,"tag":"bg"}\n{"id":1,"bytes":2000,"slowdown":"-inf","tag":"7"}\n');
  const plain = readTable(d, 'fct')!;
  assert.deepEqual(plain[0], { id: 0, src: 1, dst: 2, bytes: 1000, start_ps: 5, finish_ps: 25, fct_ps: 20, ideal_fct_ps: 10, slowdown: 2, tag: 'bg' });
  assert.deepEqual(plain[1], { id: 1, src: 1, dst: 2, bytes: 2000, start_ps: 7, finish_ps: NaN, fct_ps: Infinity, ideal_fct_ps: 10, slowdown: -Infinity, tag: 7 });
  const quoted = readTable(d, 'q')!;
  assert.deepEqual(quoted.map((r) => r['tag']), ['a,b', '7']);
  assert.deepEqual(quoted.map((r) => r['slowdown']), [2, -Infinity]);
  assert.deepEqual(readTable(d, 'j'), [
    { id: 0, bytes: 1000, slowdown: 2, tag: 'bg' },
    { id: 1, bytes: 2000, slowdown: -Infinity, tag: '7' },
  ]);
  // column-wise by name: cell text, numbers by Number(text); an absent table is empty, a missing column an error
  assert.deepEqual(readColumns(d, 'q').text('tag'), ['a,b', '7']);
  assert.deepEqual(readColumns(d, 'fct').numbers('bytes'), [1000, 2000]);
  const j = readColumns(d, 'j');
  assert.deepEqual([j.columns, j.length, j.text('slowdown'), j.numbers('id')], [['id', 'bytes', 'slowdown', 'tag'], 2, ['2', '-inf'], [0, 1]]);
  assert.deepEqual([readColumns(d, 'absent').length, readColumns(d, 'absent').numbers('bytes')], [0, []]);
  assert.throws(() => j.numbers('src'), (e: Error) => e instanceof UsageError && /j has no column src/.test(e.message));
  assert.equal(readTable(d, 'absent'), undefined);
  const recs = readFctRecords(d);
  assert.deepEqual(recs.map((r) => [r.id, r.bytes, r.fctPs, r.tag]), [[0, 1000, 20, 'bg'], [1, 2000, Infinity, '7']]);
  // a short row is an error naming the file and line, as csv-parse's would be
  writeFileSync(join(d, 'bad.csv'), 'a,b\n1,2\n3\n');
  assert.throws(() => readTable(d, 'bad'), (e: Error) => e instanceof UsageError && /bad\.csv line 3: 1 cells, the header has 2/.test(e.message));
  assert.throws(() => requireResultJson(d, 'summary.json'), (e: Error) => e instanceof UsageError && /summary\.json is missing/.test(e.message));
});
