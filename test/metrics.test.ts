import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jainIndex, mean, percentileLinear, percentileNearestRank, sortedCopy } from '../src/metrics/stats.js';
import { BIN_SETS, customBinSet, flatBins, runSummary, summarize, type SizeBin } from '../src/metrics/summary.js';
import type { FctRow, SimOutput } from '../src/sim/types.js';
import { KIB, MIB } from '../src/engine/units.js';

test('percentileLinear matches numpy.percentile (linear)', () => {
  const a = [1, 2, 3, 4];
  assert.equal(percentileLinear(a, 0), 1);
  assert.equal(percentileLinear(a, 100), 4);
  assert.equal(percentileLinear(a, 50), 2.5);
  assert.equal(percentileLinear(a, 25), 1.75);
  // numpy.percentile([15, 20, 35, 40, 50], 40) == 29.0
  assert.equal(percentileLinear([15, 20, 35, 40, 50], 40), 29);
  // numpy.percentile(range(1, 11), 99) == 9.91
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  assert.ok(Math.abs(percentileLinear(ten, 99) - 9.91) < 1e-12);
  // numpy.percentile(range(1, 11), 99.9) == 9.991
  assert.ok(Math.abs(percentileLinear(ten, 99.9) - 9.991) < 1e-12);
  assert.equal(percentileLinear([7], 99), 7);
  assert.ok(Number.isNaN(percentileLinear([], 50)));
  assert.throws(() => percentileLinear(a, 101), RangeError);
});

test('percentileNearestRank is HPCC get_pctl: sorted[int(n*p)]', () => {
  const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  assert.equal(percentileNearestRank(ten, 50), 6); // int(10*0.5) = 5
  assert.equal(percentileNearestRank(ten, 95), 10); // int(9.5) = 9
  assert.equal(percentileNearestRank(ten, 94), 10); // int(9.4) = 9
  assert.equal(percentileNearestRank(ten, 89), 9); // int(8.9) = 8
  assert.equal(percentileNearestRank(ten, 0), 1);
  assert.equal(percentileNearestRank(ten, 100), 10); // clamped
  const hundred = Array.from({ length: 100 }, (_, i) => i);
  assert.equal(percentileNearestRank(hundred, 99), 99);
  assert.ok(Number.isNaN(percentileNearestRank([], 99)));
});

test('mean, jainIndex, sortedCopy', () => {
  assert.equal(mean([1, 2, 3, 4]), 2.5);
  assert.ok(Number.isNaN(mean([])));
  assert.equal(jainIndex([5, 5, 5, 5]), 1);
  assert.equal(jainIndex([1, 0, 0, 0]), 0.25);
  // (1+2+3)^2 / (3 * (1+4+9)) = 36/42
  assert.equal(jainIndex([1, 2, 3]), 36 / 42);
  assert.equal(jainIndex([0, 0]), 1);
  assert.ok(Number.isNaN(jainIndex([])));
  assert.deepEqual([...sortedCopy([3, 10, 2, 1])], [1, 2, 3, 10]);
});

function row(id: number, bytes: number, slowdown: number, tag = ''): FctRow {
  const ideal = 1_000_000;
  return {
    id,
    src: 0,
    dst: 1,
    bytes,
    startPs: 0,
    finishPs: Math.round(ideal * slowdown),
    fctPs: Math.round(ideal * slowdown),
    idealFctPs: ideal,
    slowdown,
    tag,
  };
}

test('summarize: overall, default bins (min exclusive, max inclusive), tags', () => {
  const rows = [
    row(0, 1000, 1, 'background'), // <10KB, (0,150KiB]
    row(1, 9999, 2, 'background'), // <10KB
    row(2, 10_000, 3, 'background'), // not <10KB
    row(3, 150 * KIB, 4, 'incast'), // (0,150KiB] (inclusive), 100KB-1MB
    row(4, 150 * KIB + 1, 5, 'incast'), // (150KiB,inf), 100KB-1MB
    row(5, 100_000, 6), // 100KB-1MB (100 KB included)
    row(6, 1_000_000, 7), // (150KiB,inf), 100KB-1MB (1 MB included), not >1MB
    row(7, 3 * MIB + 1, 8), // (3MiB,inf), >1MB
  ];
  const s = summarize(rows);
  assert.equal(s.percentile, 'linear');
  assert.equal(s.overall.count, 8);
  assert.equal(s.overall.meanSlowdown, 4.5);
  assert.equal(s.overall.p50Slowdown, 4.5);
  assert.equal(s.overall.meanFctPs, 4_500_000);
  // each paper's set under its own name, in its order, with an "outside" row
  assert.deepEqual(
    s.binSets.map((x) => [x.title, x.bins.map((b) => b.label)]),
    [
      ['OSCAR bins', BIN_SETS['oscar']!.bins.map((b) => b.label)],
      ['PowerTCP bins', BIN_SETS['powertcp']!.bins.map((b) => b.label)],
    ],
  );
  const [oscar, ptcp] = s.binSets.map((x) => Object.fromEntries(x.bins.map((b) => [b.label, b])));
  assert.equal(oscar!['(0, 150 KiB]']!.count, 5); // ids 0,1,2,3,5
  assert.equal(oscar!['(150 KiB, inf)']!.count, 3); // ids 4,6,7
  assert.equal(oscar!['(3 MiB, inf)']!.count, 1);
  assert.equal(s.binSets[0]!.outside.count, 0);
  assert.equal(ptcp!['(0, 10 KB)']!.count, 2);
  assert.equal(ptcp!['(0, 10 KB)']!.meanSlowdown, 1.5);
  assert.equal(ptcp!['[100 KB, 1 MB]']!.count, 4); // ids 3,4,5,6
  assert.equal(ptcp!['(1 MB, inf)']!.count, 1);
  assert.equal(ptcp!['(1 MB, inf)']!.p99Slowdown, 8);
  // 10 KB (id 2) is in none of PowerTCP's bins: the outside row has it, so the set accounts for all 8
  assert.equal(s.binSets[1]!.outside.count, 1);
  assert.equal(s.binSets[1]!.outside.meanSlowdown, 3);
  for (const set of s.binSets) {
    // every flow is in a bin or outside (OSCAR's overlap: a flow > 3 MiB is also > 150 KiB)
    const inSome = rows.filter((r) => set.bins.some((b) => r.bytes > b.minBytes && r.bytes <= b.maxBytes)).length;
    assert.equal(inSome + set.outside.count, s.overall.count, set.title);
  }
  assert.equal(flatBins(s).length, 8);
  assert.deepEqual(Object.keys(s.tags), ['background', 'incast', 'untagged']);
  assert.equal(s.tags['background']!.count, 3);
  assert.equal(s.tags['background']!.meanSlowdown, 2);
  assert.equal(s.tags['incast']!.p50Slowdown, 4.5);
  assert.equal(s.tags['untagged']!.count, 3);
});

test('summarize: percentiles per bin, empty bins, custom bins, nearest rank', () => {
  const rows = Array.from({ length: 10 }, (_, i) => row(i, 1000 * (i + 1), i + 1));
  const bins: SizeBin[] = [
    { label: 'small', minBytes: 0, maxBytes: 5000 },
    { label: 'large', minBytes: 5000, maxBytes: Infinity },
    { label: 'none', minBytes: 1e9, maxBytes: Infinity },
  ];
  const sets = [customBinSet(bins)];
  const s = summarize(rows, sets);
  const b = s.binSets[0]!.bins;
  assert.equal(b[0]!.count, 5);
  assert.equal(b[0]!.p50Slowdown, 3);
  assert.equal(b[1]!.count, 5);
  assert.ok(Math.abs(b[1]!.p99Slowdown - 9.96) < 1e-12);
  assert.equal(b[2]!.count, 0);
  assert.ok(Number.isNaN(b[2]!.meanSlowdown));
  assert.ok(Number.isNaN(b[2]!.p99FctPs));
  assert.ok(Math.abs(s.overall.p99Slowdown - 9.91) < 1e-12);
  const nr = summarize(rows, sets, { percentile: 'nearestRank' });
  assert.equal(nr.percentile, 'nearestRank');
  assert.equal(nr.overall.p99Slowdown, 10);
  assert.equal(nr.overall.p50Slowdown, 6);
  // order of rows does not matter
  assert.deepEqual(summarize([...rows].reverse(), sets), s);
});

test('runSummary carries totals and the unfinished count', () => {
  const out: SimOutput = {
    fct: [row(0, 1000, 1.5)],
    unfinished: [{ id: 1, src: 0, dst: 1, bytes: 10, ackedBytes: 0, startPs: 0, tag: '' }],
    queues: [],
    throughput: [],
    flowThroughput: [],
    nodes: [],
    ports: [],
    totals: { flows: 2, finished: 1, drops: 0, pausesSent: 3, retransmittedPackets: 0, timeouts: 0, dataPacketsSent: 1 },
    endPs: 123,
    events: 10,
    wallMs: 1,
  };
  const s = runSummary(out);
  assert.equal(s.unfinished, 1);
  assert.equal(s.endPs, 123);
  assert.equal(s.totals.pausesSent, 3);
  assert.equal(s.fct.overall.count, 1);
  assert.deepEqual(s.notes, []);
});

test('flows with slowdown < 1 are counted, overall and per bin, and the summary says so', () => {
  const rows = [row(0, 1000, 0.5), row(1, 2000, 0.9), row(2, 200_000, 1), row(3, 300_000, 2)];
  const s = summarize(rows);
  assert.equal(s.overall.belowOne, 2);
  assert.equal(s.binSets[0]!.bins[0]!.belowOne, 2);
  assert.equal(s.binSets[0]!.bins[1]!.belowOne, 0);
  const out: SimOutput = {
    fct: rows,
    unfinished: [],
    queues: [],
    throughput: [],
    flowThroughput: [],
    nodes: [],
    ports: [],
    totals: { flows: 4, finished: 4, drops: 0, pausesSent: 0, retransmittedPackets: 0, timeouts: 0, dataPacketsSent: 4 },
    endPs: 1,
    events: 1,
    wallMs: 1,
  };
  const r = runSummary(out);
  assert.equal(r.notes.length, 1);
  assert.match(r.notes[0]!, /^2 of 4 finished flows have slowdown < 1 \(lowest 0\.5\)/);
});
