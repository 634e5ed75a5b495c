/**
 * The issue-28 6g diagnostic (experiments/powertcp/analysis-window.ts) on hand-written result
 * folders: PowerTCP's gain over HPCC on the long flows (> 1 MB, PT §4.2's bucket) as
 * (HPCC - PowerTCP) / HPCC of the mean / p99 / p99.9 FCT, split by start quarter of the
 * arrival window and by size over the flows both runs share, the flows in progress during
 * the window, and the switch-only queue maximum.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PointResult } from '../src/experiment/results/analysis.js';
import { tempDir } from './helpers/tmp.js';
import { windowFigure } from '../experiments/powertcp/analysis-window.js';

const MS = 1e9;
const START = 100 * MS;
const WINDOW = 4 * MS;

/** One point's folder: flows [id, bytes, start offset ms, fct ms]; a host port queue that must not count. */
function point(root: string, cc: string, flows: [number, number, number, number][], pauses: number, switchQueue: number): PointResult {
  const dir = join(root, cc);
  mkdirSync(dir);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ spec: { workload: [{ type: 'poisson', start: START, duration: WINDOW }] } }));
  const rows = flows.map(([id, bytes, s, f]) => `${id},0,1,${bytes},${START + s * MS},${START + (s + f) * MS},${f * MS},${MS},${f},background`);
  writeFileSync(join(dir, 'fct.csv'), ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag', ...rows].join('\n') + '\n');
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ totals: { flows: flows.length, finished: flows.length, drops: 0, pausesSent: pauses }, unfinished: 0 }));
  writeFileSync(join(dir, 'counters_nodes.csv'), 'node,name,layer\n0,h0,host\n1,s0,tor\n');
  writeFileSync(join(dir, 'counters_ports.csv'), `node,port,peer,max_queue_bytes\n0,0,1,900000\n1,0,0,${switchQueue}\n`);
  return { dir, vars: { cc: { name: cc }, 'workload[0].duration': '4ms' }, label: cc };
}

test('6g window analysis: long-flow gain, start quarters, pairing, flows in progress, switch queue', () => {
  const root = tempDir('pt-window');
  // one 2 MB flow per quarter of the 4 ms window and a short one; HPCC is slower in Q3 and Q4 only
  const pt = point(root, 'powertcp', [[1, 2e6, 0.5, 1], [2, 2e6, 1.5, 1], [3, 2e6, 2.5, 1], [4, 2e6, 3.5, 1], [5, 1000, 0.1, 0.01]], 7, 150_000);
  const hp = point(root, 'hpcc', [[1, 2e6, 0.5, 1], [2, 2e6, 1.5, 1], [3, 2e6, 2.5, 2], [4, 2e6, 3.5, 2], [5, 1000, 0.1, 0.01]], 11, 200_000);
  const { tables, claims } = windowFigure.analyze([pt, hp]);
  assert.deepEqual(claims, []);
  const [main, profile, blocks, sizes, slowest, state] = tables;
  // mean 1 vs 1.5 ms: gain 33.3 %; the p99 / p99.9 of [1,1,1,1] vs [1,1,2,2] are 1 vs 2 ms: 50 %
  assert.deepEqual(main!.rows, [
    ['4 ms', 'powertcp', 4, 1, 1, 1],
    ['4 ms', 'hpcc', 4, 1.5, 2, 2],
    ['4 ms', 'gain %', null, 33.3, 50, 50],
  ]);
  // quarters: n = 1 each, gain 0 / 0 / 50 / 50 %; mean per-flow ratio (1 + 1 + 2 + 2) / 4
  assert.deepEqual(profile!.rows, [['4 ms', 4, 1, 0, 1, 0, 1, 50, 1, 50, 1.5]]);
  // a 4 ms window is one 20 ms block: its p99.9 gain is the whole run's
  assert.deepEqual(blocks!.rows, [['4 ms', 1, '50', 50]]);
  // all four in 1-3 MB; the other classes are empty (NaN gain)
  assert.deepEqual(sizes!.rows[0]!.slice(0, 3), ['4 ms', 4, 33.3]);
  assert.equal(sizes!.rows[0]![3], 0);
  // HPCC's slowest is flow 3 or 4 (2 ms) and the other CC has it at 1 ms
  const hpccTop = slowest!.rows.find((r) => r[1] === 'hpcc');
  assert.equal(hpccTop![5], 2);
  assert.equal(hpccTop![7], 1);
  // in progress over [100, 104) ms: PowerTCP long 1 + 1 + 1 + 0.5 = 3.5 ms / 4 -> 0.9, HPCC 1 + 1 + 1.5 + 0.5 -> 1;
  // the short flow adds 0.01 ms; the host port's 900 KB is not a switch queue
  assert.deepEqual(state!.rows, [
    ['4 ms', 'powertcp', 5, 0.9, 0.9, 7, 0, 0, 150],
    ['4 ms', 'hpcc', 5, 1, 1, 11, 0, 0, 200],
  ]);
});
