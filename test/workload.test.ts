import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../src/engine/rng.js';
import { MS, NS, SEC, US } from '../src/engine/units.js';
import {
  DATA_DIR,
  cdfAt,
  cdfQuantile,
  explicitFlows,
  incastEventRateForLoad,
  incastFlows,
  listWorkloads,
  loadCdf,
  parseCdf,
  poissonFlows,
  sampleCdf,
  workloadNames,
  type Cdf,
  type FlowSpec,
} from '../src/workload/index.js';
import { tempDir } from './helpers/tmp.js';

/** README table: file → [points, min, max, linear mean, F(10 KB), F(1 MB)]. */
const TABLE: Record<string, [number, number, number, number, number, number]> = {
  'websearch_hpcc.txt': [12, 0, 30_000_000, 1_711_250.0, 0.15, 0.7],
  'websearch_powertcp.txt': [16, 0, 30_000_000, 1_711_222.5, 0.15, 0.7],
  'websearch_pfabric_pias.txt': [12, 8_760, 29_200_000, 1_665_830.8, 0.156, 0.703],
  'websearch_homa_dctcp.txt': [401, 1_460, 29_200_000, 2_510_778.5, 0.156, 0.703],
  'fb_hadoop_hpcc.txt': [20, 0, 10_000_000, 120_420.8, 0.703, 0.975],
  'fb_hadoop_homa.txt': [461, 50, 10_000_000, 121_849.0, 0.71, 0.973],
  'fb_hadoop_mqecn.txt': [15, 1_460, 486_666_180, 4_135_296.7, 0.025, 0.96],
  'fb_hadoop_interrack_opera.txt': [17, 325, 223_092_956, 3_423_728.4, 0.025, 0.96],
  'fb_cachefollower_homa.txt': [331, 50, 3_837_698, 686_866.1, 0.478, 0.718],
  'fb_cache_mqecn.txt': [12, 1_460, 48_666_180, 910_689.6, 0.458, 0.781],
  'fb_webserver_homa.txt': [441, 50, 1_000_000, 62_228.8, 0.652, 1.0],
  'fb_keyvalue_sampled_homa.txt': [316, 1, 100_000, 184.6, 1.0, 1.0],
  'alistorage2019_hpcc.txt': [9, 0, 2_000_000, 40_869.8, 0.721, 0.986],
  'googlerpc2008_hpcc.txt': [843, 0, 15_158_197, 2_891.6, 0.972, 1.0],
  'datamining_vl2_pfabric_pias.txt': [9, 1_460, 973_333_820, 7_470_236.0, 0.796, 0.911],
  'datamining_vl2_opera.txt': [17, 100, 1_000_000_000, 5_036_535.2, 0.8, 0.921],
};

function draws(cdf: Cdf, n: number, seed: number): Float64Array {
  const rng = new Rng(seed, 'test');
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = sampleCdf(cdf, rng);
  return out;
}

// ---------------------------------------------------------------------------
// CDF parsing

test('every shipped file parses and matches the README table', () => {
  const files = readdirSync(DATA_DIR).filter((f) => f.endsWith('.txt')).sort();
  assert.deepEqual(files, Object.keys(TABLE).sort());
  for (const f of files) {
    const cdf = parseCdf(readFileSync(join(DATA_DIR, f), 'utf8'), f);
    const [points, min, max, mean, f10k, f1m] = TABLE[f]!;
    assert.equal(cdf.sizes.length, points, f);
    assert.equal(cdf.probs.length, points, f);
    assert.equal(cdf.sizes[0], min, f);
    assert.equal(cdf.maxBytes, max, f);
    assert.equal(cdf.probs[0], 0, f);
    assert.equal(cdf.probs[points - 1], 1, f);
    assert.ok(Math.abs(cdf.meanBytes - mean) <= 0.06, `${f}: mean ${cdf.meanBytes} vs ${mean}`);
    assert.ok(Math.abs(cdfAt(cdf, 10_000) - f10k) <= 0.0006, `${f}: F(10KB) ${cdfAt(cdf, 10_000)}`);
    assert.ok(Math.abs(cdfAt(cdf, 1_000_000) - f1m) <= 0.0006, `${f}: F(1MB) ${cdfAt(cdf, 1_000_000)}`);
  }
});

test('the three headline means', () => {
  assert.ok(Math.abs(loadCdf('websearch').meanBytes - 1_711_250.0) < 0.1);
  assert.ok(Math.abs(loadCdf('cachefollower').meanBytes - 686_866.1) < 0.1);
  assert.ok(Math.abs(loadCdf('hadoop').meanBytes - 120_420.8) < 0.1);
});

test('registry: every built-in loads, names its file, has a description', () => {
  const list = listWorkloads();
  const names = list.map((w) => w.name);
  for (const n of [
    'websearch', 'websearch-powertcp', 'cachefollower', 'hadoop', 'hadoop-homa', 'webserver', 'keyvalue',
    'alistorage', 'googlerpc', 'datamining', 'datamining-opera', 'websearch-pias', 'websearch-homa',
    'cache-mqecn', 'hadoop-mqecn', 'hadoop-opera',
  ]) {
    assert.ok(names.includes(n), n);
  }
  assert.deepEqual(names, workloadNames());
  const byName = new Map(list.map((w) => [w.name, w]));
  assert.equal(byName.get('websearch')!.file, 'websearch_hpcc.txt');
  assert.equal(byName.get('websearch-powertcp')!.file, 'websearch_powertcp.txt');
  assert.equal(byName.get('cachefollower')!.file, 'fb_cachefollower_homa.txt');
  assert.equal(byName.get('hadoop')!.file, 'fb_hadoop_hpcc.txt');
  assert.equal(byName.get('datamining')!.file, 'datamining_vl2_pfabric_pias.txt');
  for (const w of list) {
    assert.ok(w.description.length > 10, w.name);
    assert.ok(Math.abs(w.meanBytes - TABLE[w.file]![3]) <= 0.06, w.name);
    assert.equal(w.maxBytes, TABLE[w.file]![2], w.name);
    assert.equal(loadCdf(w.name).name, w.name);
  }
  // every shipped file is reachable by a name
  assert.deepEqual(new Set(list.map((w) => w.file)), new Set(Object.keys(TABLE)));
});

test('parseCdf: percent column is normalised; comments and blank lines skipped', () => {
  const pct = parseCdf('# percent\n\n0 0\n100 50\n\n300 100\n', 'pct');
  assert.deepEqual([...pct.probs], [0, 0.5, 1]);
  assert.deepEqual([...pct.sizes], [0, 100, 300]);
  assert.equal(pct.meanBytes, 50 * 0.5 + 200 * 0.5);
  assert.equal(pct.maxBytes, 300);
  const frac = parseCdf('# x\r\n0 0.0\r\n100 0.5\r\n300 1.0\r\n', 'crlf');
  assert.deepEqual([...frac.probs], [0, 0.5, 1]);
});

test('parseCdf: errors name the workload and line', () => {
  assert.throws(() => parseCdf('# c\n0 0\n100 0.5 7\n200 1\n', 'bad.txt'), /workload "bad.txt" line 3: expected "size_bytes cdf"/);
  assert.throws(() => parseCdf('# c\n0 0\nabc 0.5\n200 1\n', 'bad.txt'), /"bad.txt" line 3: size "abc"/);
  assert.throws(() => parseCdf('# c\n0 0\n100 x\n200 1\n', 'bad.txt'), /"bad.txt" line 3: cdf "x"/);
  assert.throws(() => parseCdf('# c\n0 0\n300 0.5\n200 1\n', 'dec.txt'), /"dec.txt" line 4: sizes must not decrease \(200 after 300\)/);
  assert.throws(() => parseCdf('# c\n0 0\n100 0.6\n200 0.5\n300 1\n', 'dec.txt'), /"dec.txt" line 4: cdf must not decrease/);
  assert.throws(() => parseCdf('# c\n0 0.1\n200 1\n', 'start.txt'), /"start.txt" line 2: first cdf is 0.1; it must be 0/);
  assert.throws(() => parseCdf('# c\n0 0\n200 0.9\n', 'end.txt'), /"end.txt" line 3: last cdf is 0.9; it must be 1/);
  assert.throws(() => parseCdf('# c\n0 0\n200 50\n', 'end.txt'), /last cdf is 50/);
  assert.throws(() => parseCdf('# only a comment\n', 'empty.txt'), /"empty.txt": needs at least 2 points, found 0/);
  assert.throws(() => parseCdf('0 0\n-5 1\n', 'neg.txt'), /line 2: size "-5"/);
});

// ---------------------------------------------------------------------------
// Sampling

test('cdfQuantile: linear interpolation, point masses, gaps, ends', () => {
  const c = parseCdf('0 0\n100 0.5\n100 0.8\n100 0.8\n500 0.8\n900 1\n', 'q');
  assert.equal(cdfQuantile(c, 0), 0);
  assert.equal(cdfQuantile(c, 0.25), 50);
  assert.equal(cdfQuantile(c, 0.5), 100);
  assert.equal(cdfQuantile(c, 0.6), 100); // point mass 100 on (0.5, 0.8]
  assert.equal(cdfQuantile(c, 0.8), 100);
  // just above 0.8: the gap 100..500 has no mass, so sizes start at 500
  assert.ok(Math.abs(cdfQuantile(c, 0.8 + 1e-12) - 500) < 1e-6);
  assert.ok(Math.abs(cdfQuantile(c, 0.9) - 700) < 1e-9);
  assert.equal(cdfQuantile(c, 1), 900);
  // a leading gap: nothing below 2000
  const g = parseCdf('0 0\n2000 0\n3000 1\n', 'gap');
  assert.equal(cdfQuantile(g, 1e-15) >= 2000, true);
  assert.equal(cdfQuantile(g, 0.5), 2500);
  // cdfAt is the inverse on the continuous part and right-continuous at masses
  assert.equal(cdfAt(c, 50), 0.25);
  assert.equal(cdfAt(c, 100), 0.8);
  assert.equal(cdfAt(c, 99.999) < 0.5, true);
  assert.equal(cdfAt(c, 300), 0.8);
  assert.equal(cdfAt(c, -1), 0);
  assert.equal(cdfAt(c, 900), 1);
});

test('sampleCdf: a point mass at 1460 gives exactly 1460 half the time', () => {
  const c = parseCdf('1460 0.0\n1460 0.5\n3000 1.0\n', 'pm');
  const n = 200_000;
  const x = draws(c, n, 7);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    assert.ok(v >= 1460 && v <= 3000 && Number.isInteger(v));
    if (v === 1460) at++;
  }
  // 0.5 mass plus the tiny continuous part that floors to 1460 (1/1540 of the other half)
  assert.ok(Math.abs(at / n - 0.5) < 0.005, `share at 1460: ${at / n}`);
});

test('sampleCdf: integer sizes, 0 becomes 1, never above max', () => {
  const c = loadCdf('websearch'); // 15% uniform on 0..10 KB, so some draws floor to 0
  const x = draws(c, 100_000, 3);
  let ones = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    assert.ok(Number.isInteger(v) && v >= 1 && v <= c.maxBytes);
    if (v === 1) ones++;
  }
  assert.ok(ones >= 1, 'expected at least one size-0 draw mapped to 1');
  const zeroOnly = parseCdf('0 0\n0 1\n', 'zero');
  assert.equal(sampleCdf(zeroOnly, new Rng(1)), 1);
});

test('sampleCdf: empirical mean within 2% and F(10 KB) within 0.01 (200k draws)', () => {
  const n = 200_000;
  for (const [name, f10k] of [
    ['websearch', 0.15],
    ['cachefollower', 0.478],
    ['hadoop', 0.703],
  ] as const) {
    const c = loadCdf(name);
    const x = draws(c, n, 12345);
    let sum = 0;
    let small = 0;
    for (let i = 0; i < n; i++) {
      sum += x[i]!;
      if (x[i]! <= 10_000) small++;
    }
    const mean = sum / n;
    if (name !== 'hadoop') {
      assert.ok(Math.abs(mean / c.meanBytes - 1) < 0.02, `${name}: empirical mean ${mean} vs ${c.meanBytes}`);
    }
    assert.ok(Math.abs(small / n - f10k) < 0.01, `${name}: empirical F(10KB) ${small / n} vs ${f10k}`);
  }
});

test('sampleCdf: same seed, same sizes', () => {
  const c = loadCdf('cachefollower');
  assert.deepEqual(draws(c, 1000, 99), draws(c, 1000, 99));
  assert.notDeepEqual(draws(c, 1000, 99), draws(c, 1000, 100));
});

// ---------------------------------------------------------------------------
// Loading

test('loadCdf: paths, bare shipped file names, and a clear error for a missing file', () => {
  const dir = tempDir('wl');
  {
    const p = join(dir, 'mine.txt');
    writeFileSync(p, '# mine\n100 0\n200 100\n');
    const c = loadCdf(p);
    assert.equal(c.name, p);
    assert.equal(c.meanBytes, 150);
    assert.equal(loadCdf('websearch_hpcc.txt').meanBytes, loadCdf('websearch').meanBytes);

    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, '# bad\n100 0\n50 1\n');
    assert.throws(() => loadCdf(bad), (e: unknown) => e instanceof Error && e.message.includes(bad) && /line 3/.test(e.message));
  }
  assert.throws(
    () => loadCdf('foo.txt'),
    (e: unknown) =>
      e instanceof Error &&
      e.message.startsWith('workload file not found: "foo.txt" (not a built-in name: ') &&
      e.message.includes('websearch') &&
      e.message.includes('cachefollower'),
  );
  assert.throws(() => loadCdf('/nonexistent/dir/x.txt'), /workload file not found: "\/nonexistent\/dir\/x.txt"/);
});

test('CCSIM_DATA_DIR overrides the data directory', () => {
  const dir = tempDir('data');
  const old = process.env['CCSIM_DATA_DIR'];
  try {
    writeFileSync(join(dir, 'websearch_hpcc.txt'), '# fake\n0 0\n10 1\n');
    process.env['CCSIM_DATA_DIR'] = dir;
    assert.equal(loadCdf('websearch').meanBytes, 5);
  } finally {
    if (old === undefined) delete process.env['CCSIM_DATA_DIR'];
    else process.env['CCSIM_DATA_DIR'] = old;
  }
  assert.equal(loadCdf('websearch').maxBytes, 30_000_000);
});

// ---------------------------------------------------------------------------
// Poisson background

function range(n: number, from = 0): number[] {
  return Array.from({ length: n }, (_, i) => from + i);
}

test('poissonFlows: per-host flow count matches load*rate*duration/(8*mean)', () => {
  const cdf = loadCdf('websearch');
  const hosts = range(16);
  const load = 0.5;
  const rate = 100e9;
  const startPs = 100 * MS;
  const durationPs = 1 * SEC;
  const flows = poissonFlows({ sources: hosts, destinations: hosts, cdf, load, refRateBps: rate, startPs, durationPs, rng: new Rng(1) });
  const expectedPerHost = (load * rate * (durationPs / SEC)) / (8 * cdf.meanBytes);
  assert.ok(Math.abs(flows.length / (16 * expectedPerHost) - 1) < 0.02, `total ${flows.length} vs ${16 * expectedPerHost}`);
  const perHost = new Array<number>(16).fill(0);
  for (const f of flows) perHost[f.src]!++;
  for (const c of perHost) assert.ok(Math.abs(c / expectedPerHost - 1) < 0.08, `per host ${c} vs ${expectedPerHost}`);
  // offered bytes close to load (sizes are heavy-tailed, so a looser bound)
  let bytes = 0;
  for (const f of flows) bytes += f.bytes;
  const offered = (bytes * 8) / (16 * rate * (durationPs / SEC));
  assert.ok(Math.abs(offered / load - 1) < 0.06, `offered load ${offered}`);

  for (let i = 0; i < flows.length; i++) {
    const f = flows[i]!;
    assert.notEqual(f.dst, f.src);
    assert.ok(f.dst >= 0 && f.dst < 16);
    assert.ok(f.startPs > startPs && f.startPs < startPs + durationPs);
    assert.equal(f.startPs % NS, 0, 'arrival times are whole ns');
    assert.ok(Number.isInteger(f.bytes) && f.bytes >= 1);
    if (i > 0) {
      const p = flows[i - 1]!;
      assert.ok(p.startPs < f.startPs || (p.startPs === f.startPs && p.src <= f.src), 'sorted by (startPs, src)');
    }
  }
  // destinations roughly uniform over the 15 others
  const dstCount = new Array<number>(16).fill(0);
  for (const f of flows) if (f.src === 0) dstCount[f.dst]!++;
  assert.equal(dstCount[0], 0);
  for (let d = 1; d < 16; d++) assert.ok(Math.abs(dstCount[d]! / (perHost[0]! / 15) - 1) < 0.3);
});

test('poissonFlows: deterministic; a source does not depend on the other sources', () => {
  const cdf = loadCdf('hadoop');
  const base = { destinations: range(8), cdf, load: 0.3, refRateBps: 25e9, startPs: 0, durationPs: 5 * MS, prio: 3, tag: 'bg' };
  const a = poissonFlows({ ...base, sources: range(8), rng: new Rng(42) });
  const b = poissonFlows({ ...base, sources: range(8), rng: new Rng(42) });
  const c = poissonFlows({ ...base, sources: range(8), rng: new Rng(43) });
  assert.ok(a.length > 100);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  assert.ok(a.every((f) => f.prio === 3 && f.tag === 'bg'));
  // host 5 alone, or listed first, produces the same flows as within the full set
  const only5 = poissonFlows({ ...base, sources: [5], rng: new Rng(42) });
  const reordered = poissonFlows({ ...base, sources: [5, 7, 0, 1, 2, 3, 4, 6], rng: new Rng(42) });
  assert.deepEqual(only5, a.filter((f) => f.src === 5));
  assert.deepEqual(reordered, a);
  // without prio/tag the fields are absent
  const plain = poissonFlows({ ...base, prio: undefined, tag: undefined, sources: [1], rng: new Rng(42) });
  assert.ok(plain.every((f) => !('prio' in f) && !('tag' in f)));
});

test('poissonFlows: scaling the load keeps the same random draws (common random numbers)', () => {
  const cdf = loadCdf('websearch');
  const base = { sources: [0, 1], destinations: range(4), cdf, refRateBps: 100e9, startPs: 0, durationPs: 20 * MS };
  const lo = poissonFlows({ ...base, load: 0.3, rng: new Rng(5) }).filter((f) => f.src === 0);
  const hi = poissonFlows({ ...base, load: 0.6, rng: new Rng(5) }).filter((f) => f.src === 0);
  const k = Math.min(lo.length, hi.length);
  assert.ok(k > 10);
  for (let i = 0; i < k; i++) {
    assert.equal(hi[i]!.bytes, lo[i]!.bytes);
    assert.equal(hi[i]!.dst, lo[i]!.dst);
  }
});

test('poissonFlows: errors only the generator can see (values are the spec schema\'s job)', () => {
  const cdf = loadCdf('hadoop');
  const base = { sources: [0, 1], destinations: [0, 1], cdf, load: 0.5, refRateBps: 1e10, startPs: 0, durationPs: MS, rng: new Rng(1) };
  assert.throws(() => poissonFlows({ ...base, destinations: [1] }), /source 1 has no destination other than itself/);
  assert.deepEqual(poissonFlows({ ...base, load: 0 }), []);
  assert.deepEqual(poissonFlows({ ...base, durationPs: 0 }), []);
});

// ---------------------------------------------------------------------------
// Incast

test('incastEventRateForLoad: OSCAR fig10c gives an 18 us mean gap', () => {
  const rate = incastEventRateForLoad(0.2, 320, 100e9, 32, 450_000);
  assert.ok(Math.abs(SEC / rate - 18 * US) < 1);
  assert.ok(Math.abs(incastEventRateForLoad(0.2, 128, 100e9, 64, 20_000) - (0.2 * 128 * 100e9) / (64 * 20_000 * 8)) < 1e-9);
});

function checkEvent(flows: FlowSpec[], fanIn: number, hostCount: number): void {
  const rcv = flows[0]!.dst;
  const senders = new Set<number>();
  for (const f of flows) {
    assert.equal(f.dst, rcv);
    assert.notEqual(f.src, rcv);
    assert.ok(f.src >= 0 && f.src < hostCount);
    senders.add(f.src);
  }
  assert.equal(senders.size, fanIn, 'fanIn distinct senders');
}

test('incastFlows: random receiver and fanIn distinct senders per event, staggered', () => {
  const hosts = range(40);
  const times = [1000 * NS, 5 * US, 9 * US];
  const flows = incastFlows({ hosts, fanIn: 32, bytes: 450_000, times, staggerPs: 37_500, rng: new Rng(9) });
  assert.equal(flows.length, 3 * 32);
  assert.ok(flows.every((f) => f.bytes === 450_000 && f.tag === 'incast' && !('prio' in f)));
  for (const t of times) {
    const ev = flows.filter((f) => f.startPs >= t && f.startPs < t + 32 * 37_500);
    assert.equal(ev.length, 32);
    checkEvent(ev, 32, 40);
    // sender j starts at t + j * stagger
    const starts = ev.map((f) => f.startPs - t).sort((a, b) => a - b);
    assert.deepEqual(starts, range(32).map((j) => j * 37_500));
  }
  for (let i = 1; i < flows.length; i++) assert.ok(flows[i - 1]!.startPs <= flows[i]!.startPs);
  // receivers differ across events for some seed (they are random)
  const many = incastFlows({ hosts, fanIn: 4, bytes: 1000, times: range(50).map((i) => i * US), rng: new Rng(9) });
  assert.ok(new Set(many.map((f) => f.dst)).size > 5);
});

test('incastFlows: staggerBy host starts each sender at event + host id x stagger (the OSCAR artifact\'s Fig 10c generator)', () => {
  const hosts = range(320);
  const times = [10 * US, 50 * US];
  const base = { hosts, fanIn: 32, bytes: 450_000, times, staggerPs: 37_500 };
  const byHost = incastFlows({ ...base, staggerBy: 'host', rng: new Rng(9) });
  const byOrder = incastFlows({ ...base, rng: new Rng(9) });
  // the same events, receivers and senders; only the starts differ
  const key = (f: { src: number; dst: number }): string => `${f.dst}:${f.src}`;
  assert.deepEqual(byHost.map(key).sort(), byOrder.map(key).sort());
  for (const f of byHost) {
    const t = f.startPs - f.src * 37_500;
    assert.ok(times.includes(t), `start ${f.startPs} of host ${f.src}`);
  }
  // spread up to 319 x 37.5 ns here, at most 31 x 37.5 ns by draw order
  const spread = (fs: typeof byHost, t: number): number => {
    const ev = fs.filter((f) => f.startPs >= t && f.startPs < t + 12 * US);
    return Math.max(...ev.map((f) => f.startPs)) - Math.min(...ev.map((f) => f.startPs));
  };
  assert.ok(spread(byOrder, times[0]!) <= 31 * 37_500);
  assert.ok(spread(byHost, times[0]!) > 31 * 37_500);
  for (let i = 1; i < byHost.length; i++) assert.ok(byHost[i - 1]!.startPs <= byHost[i]!.startPs);
});

test('incastFlows: fixed receiver and fixed senders', () => {
  const flows = incastFlows({ hosts: range(256), fanIn: 255, bytes: 2800, receiver: 16, times: [150 * MS], rng: new Rng(1), prio: 2, tag: 'burst' });
  assert.equal(flows.length, 255);
  checkEvent(flows, 255, 256);
  assert.equal(flows[0]!.dst, 16);
  assert.ok(flows.every((f) => f.startPs === 150 * MS && f.prio === 2 && f.tag === 'burst'));

  const fixed = incastFlows({ hosts: range(20), fanIn: 3, bytes: 10, senders: [4, 2, 9], receiver: 0, times: [0, 100], staggerPs: 10, rng: new Rng(1) });
  assert.deepEqual(
    fixed.map((f) => [f.src, f.dst, f.startPs]),
    [[4, 0, 0], [2, 0, 10], [9, 0, 20], [4, 0, 100], [2, 0, 110], [9, 0, 120]],
  );
  // fixed senders, random receiver: the receiver is never a sender
  const fr = incastFlows({ hosts: range(5), fanIn: 3, bytes: 10, senders: [0, 1, 2], times: range(40), rng: new Rng(3) });
  assert.ok(fr.every((f) => f.dst === 3 || f.dst === 4));
});

test('incastFlows: Poisson event process matches the rate and is deterministic', () => {
  const hosts = range(64);
  const rate = incastEventRateForLoad(0.2, 64, 100e9, 16, 20_000); // 2.5e6 events/s... per host-load def
  const o = { hosts, fanIn: 16, bytes: 20_000, eventRatePerSec: rate, startPs: 100 * MS, durationPs: 10 * MS };
  const a = incastFlows({ ...o, rng: new Rng(77) });
  const b = incastFlows({ ...o, rng: new Rng(77) });
  const c = incastFlows({ ...o, rng: new Rng(78) });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  const events = a.length / 16;
  assert.equal(Number.isInteger(events), true);
  const expected = rate * 10e-3;
  assert.ok(Math.abs(events / expected - 1) < 0.06, `events ${events} vs ${expected}`);
  assert.ok(a.every((f) => f.startPs > 100 * MS && f.startPs < 110 * MS && f.startPs % NS === 0));
  // group flows by start time: every event has 16 distinct senders, none the receiver
  const byStart = new Map<number, FlowSpec[]>();
  for (const f of a) {
    const ev = byStart.get(f.startPs);
    if (ev === undefined) byStart.set(f.startPs, [f]);
    else ev.push(f);
  }
  for (const ev of byStart.values()) if (ev.length === 16) checkEvent(ev, 16, 64);
});

test('incastFlows: errors only the generator can see (values are the spec schema\'s job)', () => {
  const rng = new Rng(1);
  assert.throws(() => incastFlows({ hosts: range(10), fanIn: 10, bytes: 1, times: [0], rng }), /fanIn 10 exceeds the 9 hosts available as senders/);
  assert.throws(() => incastFlows({ hosts: range(10), fanIn: 2, bytes: 1, rng }), /give the event times/);
  assert.throws(() => incastFlows({ hosts: range(10), fanIn: 2, bytes: 1, times: [0], eventRatePerSec: 5, rng }), /not both/);
  assert.throws(() => incastFlows({ hosts: range(10), fanIn: 2, bytes: 1, eventRatePerSec: 5, rng }), /durationPs is required/);
  assert.throws(() => incastFlows({ hosts: range(10), fanIn: 2, bytes: 1, senders: [1], times: [0], rng }), /senders has 1 hosts but fanIn is 2/);
  assert.throws(() => incastFlows({ hosts: range(10), fanIn: 2, bytes: 1, senders: [1, 3], receiver: 3, times: [0], rng }), /senders\[1\]: host 3 is the receiver/);
  assert.throws(() => incastFlows({ hosts: range(10), fanIn: 2, bytes: 1, senders: [1, 1], times: [0], rng }), /senders\[1\]: host 1 is listed twice/);
  assert.throws(() => incastFlows({ hosts: [0, 1], fanIn: 2, bytes: 1, senders: [0, 1], times: [0], rng }), /no host left to be the receiver/);
  assert.throws(() => incastFlows({ hosts: [], fanIn: 1, bytes: 1, times: [0], rng }), /hosts is empty/);
});

// ---------------------------------------------------------------------------
// Explicit flows

test('explicitFlows: checks host ids against the topology and sorts by start (stable)', () => {
  const flows = explicitFlows(
    [
      { src: 1, dst: 2, bytes: 100, startPs: 500 },
      { src: 3, dst: 0, bytes: 5, startPs: 0, prio: 7, tag: 'x' },
      { src: 2, dst: 1, bytes: 7, startPs: 500 },
    ],
    4,
  );
  assert.deepEqual(flows, [
    { src: 3, dst: 0, bytes: 5, startPs: 0, prio: 7, tag: 'x' },
    { src: 1, dst: 2, bytes: 100, startPs: 500 },
    { src: 2, dst: 1, bytes: 7, startPs: 500 },
  ]);
  const ok = { src: 0, dst: 1, bytes: 1, startPs: 0 };
  const list = (bad: Partial<typeof ok> & { prio?: number }): (typeof ok & { prio?: number })[] => [ok, ok, ok, { ...ok, ...bad }];
  assert.throws(() => explicitFlows(list({ dst: 400 }), 320), { message: 'flows[3].dst: 400 is not a host (0..319)' });
  assert.throws(() => explicitFlows(list({ src: -1 }), 320), /^Error: flows\[3\]\.src: -1 is not a host \(0\.\.319\)$/);
  assert.throws(() => explicitFlows(list({ dst: 0 }), 320), /flows\[3\]\.dst: 0 is the same host as src/);
  assert.deepEqual(explicitFlows([], 2), []);
});
