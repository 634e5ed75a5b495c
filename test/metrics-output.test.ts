/** Result files (output.ts) from a hand-made SimOutput: no simulator needed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../src/engine/errors.js';
import { commitResultFiles, isCompleteResultDir, prepareOutDir } from '../src/experiment/results/outdir.js';
import { formatNumber, writeResults as writeResultsTo, type ResultData } from '../src/experiment/run/output.js';
import { parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import type { SimOutput } from '../src/sim/types.js';
import { runSummary } from '../src/metrics/summary.js';
import { tempDir } from './helpers/tmp.js';

const root = tempDir('output-test');

function writeResults(dir: string, d: ResultData): string[] {
  return writeResultsTo(prepareOutDir(dir), d);
}

function fakeOutput(): SimOutput {
  return {
    fct: [
      { id: 0, src: 0, dst: 2, bytes: 1000, startPs: 0, finishPs: 5_000_000, fctPs: 5_000_000, idealFctPs: 4_000_000, slowdown: 1.25, tag: 'a,b' },
      { id: 1, src: 1, dst: 2, bytes: 2000, startPs: 10, finishPs: 9_000_010, fctPs: 9_000_000, idealFctPs: 3_000_000, slowdown: 3, tag: '' },
    ],
    unfinished: [{ id: 2, src: 0, dst: 1, bytes: 5000, ackedBytes: 1000, startPs: 7, tag: 'x' }],
    queues: [{ node: 3, port: 2, t: [0, 1000], v: [0, 1500] }],
    throughput: [{ node: 3, port: 2, t: [1000], v: [1e11] }],
    flowThroughput: [{ flow: 0, t: [1000], v: [5e10] }],
    nodes: [
      {
        node: 3,
        name: 'sw3',
        layer: 'tor',
        pausesSent: 1,
        pausesReceived: 0,
        resumesSent: 1,
        resumesReceived: 0,
        drops: 2,
        dropsByReason: { buffer: 2 },
        txBytes: 123,
        ecnMarked: 4,
      },
    ],
    ports: [{ node: 3, port: 2, peer: 2, pausesSent: 1, pausesReceived: 0, drops: 2, txBytes: 123, txPackets: 1, maxQueueBytes: 1500 }],
    totals: { flows: 3, finished: 2, drops: 2, pausesSent: 1, retransmittedPackets: 0, timeouts: 0, dataPacketsSent: 3 },
    endPs: 9_000_010,
    events: 42,
    wallMs: 1.5,
  };
}

function resultData(format: 'csv' | 'jsonl', flowThroughput: boolean): ResultData {
  const raw = {
    name: 'out',
    topology: { type: 'star', hosts: 3, rate: '100G', delay: '1us' },
    cc: 'none',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 2, size: '1000B' }] }],
    output: { format },
    ...(flowThroughput ? { metrics: { flowThroughput: { flows: 'all' } } } : {}),
  };
  const spec = parseSpec(raw);
  const input = resolveSpec(spec, root);
  const output = fakeOutput();
  return { spec, raw, input, output, summary: runSummary(output), info: { startedAt: new Date(0), totalWallMs: 3 } };
}

test('formatNumber is deterministic and round-trips', () => {
  assert.equal(formatNumber(1.25), '1.25');
  assert.equal(formatNumber(0.1 + 0.2), '0.30000000000000004');
  assert.equal(formatNumber(-0), '0');
  assert.equal(formatNumber(NaN), 'nan');
  assert.equal(formatNumber(Infinity), 'inf');
  assert.equal(formatNumber(1e21), '1e+21');
});

test('writeResults writes every file; only the manifest is non-deterministic', () => {
  const out = join(root, 'csv');
  const files = writeResults(out, resultData('csv', true));
  assert.deepEqual([...files].sort(), [
    'counters_nodes.csv',
    'counters_ports.csv',
    'fct.csv',
    'flow_throughput.csv',
    'manifest.json',
    'queues.csv',
    'summary.json',
    'throughput.csv',
    'unfinished.csv',
  ]);
  assert.deepEqual(readdirSync(out).sort(), [...files].sort());
  const fct = readFileSync(join(out, 'fct.csv'), 'utf8');
  assert.equal(
    fct,
    'id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag\n' +
      '0,0,2,1000,0,5000000,5000000,4000000,1.25,"a,b"\n' +
      '1,1,2,2000,10,9000010,9000000,3000000,3,untagged\n',
  );
  assert.equal(readFileSync(join(out, 'queues.csv'), 'utf8'), 'node,port,t_ps,bytes\n3,2,0,0\n3,2,1000,1500\n');
  assert.equal(readFileSync(join(out, 'throughput.csv'), 'utf8'), 'node,port,t_ps,bps\n3,2,1000,100000000000\n');
  // a drop-reason column for every reason, whether or not it happened (untagged flows named as in summary.json)
  assert.equal(
    readFileSync(join(out, 'counters_nodes.csv'), 'utf8'),
    'node,name,layer,pauses_sent,pauses_received,resumes_sent,resumes_received,drops,tx_bytes,ecn_marked,' +
      'drops_ingressHeadroom,drops_buffer,drops_lossyTail,drops_ingressPool,drops_egressThreshold,drops_egressPool\n' +
      '3,sw3,tor,1,0,1,0,2,123,4,0,2,0,0,0,0\n',
  );
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
    unfinished: number;
    totals: { flows: number };
    fct: { overall: { count: number }; binSets: { bins: { count: number; meanSlowdown: number | null; maxBytes: number | null }[] }[] };
  };
  assert.equal(summary.unfinished, 1);
  assert.equal(summary.totals.flows, 3);
  assert.equal(summary.fct.overall.count, 2);
  // empty statistics are null, open bin bounds null: every number field is a number or null
  const bins = summary.fct.binSets.flatMap((s) => s.bins);
  assert.ok(bins.some((b) => b.count === 0 && b.meanSlowdown === null));
  assert.ok(bins.some((b) => b.maxBytes === null));
  assert.ok(bins.every((b) => b.maxBytes === null || typeof b.maxBytes === 'number'));
  const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  for (const k of ['ccsim', 'node', 'startedAt', 'seed', 'run', 'resolved', 'spec', 'raw', 'files']) assert.ok(k in manifest, k);
  assert.equal(manifest['seed'], 1);

  // same data again → identical files except the manifest
  const out2 = join(root, 'csv2');
  writeResults(out2, resultData('csv', true));
  for (const f of files) {
    if (f === 'manifest.json') continue;
    assert.equal(readFileSync(join(out2, f), 'utf8'), readFileSync(join(out, f), 'utf8'), f);
  }
});

test('jsonl format; flow_throughput only when requested', () => {
  const out = join(root, 'jsonl');
  const files = writeResults(out, resultData('jsonl', false));
  assert.ok(files.includes('fct.jsonl'));
  assert.ok(!files.some((f) => f.startsWith('flow_throughput')));
  const lines = readFileSync(join(out, 'fct.jsonl'), 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.deepEqual(JSON.parse(lines[0]!), {
    id: 0,
    src: 0,
    dst: 2,
    bytes: 1000,
    start_ps: 0,
    finish_ps: 5_000_000,
    fct_ps: 5_000_000,
    ideal_fct_ps: 4_000_000,
    slowdown: 1.25,
    tag: 'a,b',
  });
});

test('a failed write leaves the previous result untouched and no staging folders', () => {
  const out = join(root, 'atomic');
  writeResults(out, resultData('csv', false));
  const before = readFileSync(join(out, 'fct.csv'), 'utf8');
  const manifestBefore = readFileSync(join(out, 'manifest.json'), 'utf8');
  assert.throws(
    () =>
      commitResultFiles(
        prepareOutDir(out),
        (tmp) => {
          writeFileSync(join(tmp, 'fct.csv'), 'half');
          throw new Error('boom');
        },
        () => ({ ccsim: 'x', files: [] }),
      ),
    /boom/,
  );
  assert.equal(readFileSync(join(out, 'fct.csv'), 'utf8'), before);
  assert.equal(readFileSync(join(out, 'manifest.json'), 'utf8'), manifestBefore);
  assert.ok(!readdirSync(out).some((f) => f.startsWith('.ccsim')), readdirSync(out).join(' '));
  assert.ok(isCompleteResultDir(out));
  // a failed first write into a new folder leaves no folder behind
  const fresh = join(root, 'fresh', 'deeper');
  assert.throws(() => commitResultFiles(prepareOutDir(fresh), () => { throw new Error('boom'); }, () => ({ ccsim: 'x', files: [] })), /boom/);
  assert.ok(!existsSync(join(root, 'fresh')));
});

test('re-running into a result folder replaces only the files ccsim wrote there', () => {
  const out = join(root, 'mine');
  writeResults(out, resultData('csv', true));
  writeFileSync(join(out, 'analysis.ipynb'), '{"cells": []}');
  mkdirSync(join(out, 'plots'));
  writeFileSync(join(out, 'plots', 'fig.png'), 'png');
  // the new run writes no flow_throughput.csv: the old one (ccsim's) goes, the user's files stay
  const files = writeResults(out, resultData('csv', false));
  assert.ok(!files.includes('flow_throughput.csv'));
  assert.deepEqual(readdirSync(out).sort(), [...files, 'analysis.ipynb', 'plots'].sort());
  assert.equal(readFileSync(join(out, 'analysis.ipynb'), 'utf8'), '{"cells": []}');
  assert.equal(readFileSync(join(out, 'plots', 'fig.png'), 'utf8'), 'png');
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { files: string[]; incomplete?: boolean };
  assert.deepEqual(m.files, files);
  assert.equal(m.incomplete, undefined);
  // a user file with the name of a result file that ccsim did not write there is never overwritten
  const other = join(root, 'collide');
  writeResults(other, resultData('csv', false));
  writeFileSync(join(other, 'flow_throughput.csv'), 'mine');
  assert.throws(() => prepareOutDir(other, ['fct.csv', 'flow_throughput.csv']), /flow_throughput\.csv exists there and was not written by ccsim/);
  assert.throws(() => writeResults(other, resultData('csv', true)), UsageError);
  assert.equal(readFileSync(join(other, 'flow_throughput.csv'), 'utf8'), 'mine');
});

test('refuses a folder that is not a ccsim result, and unwritable locations before anything runs', () => {
  const other = join(root, 'precious');
  mkdirSync(other);
  writeFileSync(join(other, 'notes.txt'), 'keep me');
  assert.throws(() => prepareOutDir(other), /not empty and is not a ccsim result folder/);
  assert.equal(readFileSync(join(other, 'notes.txt'), 'utf8'), 'keep me');
  // a manifest.json that ccsim did not write does not make a folder ccsim's
  writeFileSync(join(other, 'manifest.json'), '{"mine": true}');
  assert.throws(() => prepareOutDir(other), UsageError);
  writeFileSync(join(root, 'afile'), 'x');
  assert.throws(() => prepareOutDir(join(root, 'afile')), /exists and is not a folder/);
  assert.throws(() => prepareOutDir(join(root, 'afile', 'sub')), /is a file, not a folder/);
  assert.throws(() => prepareOutDir('/proc/ccsim-out'), /cannot write results to \/proc\/ccsim-out/);
  // empty or missing folders are fine, and checking leaves no trace
  mkdirSync(join(root, 'empty'));
  prepareOutDir(join(root, 'empty'));
  assert.deepEqual(readdirSync(join(root, 'empty')), []);
  prepareOutDir(join(root, 'missing', 'a', 'b'));
  assert.ok(!existsSync(join(root, 'missing')));
});
