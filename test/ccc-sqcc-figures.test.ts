/**
 * The SQCC and CCC figure analyses on small hand-made result folders: the
 * numbers they report are the ones the folders imply (queue statistics in
 * packets over the second half of the run, Table 1's E_B / E_L / T_B).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { queueStats, sqccScheme, timelyFixedPointPkts } from '../experiments/sqcc/analysis.js';
import { findFigure } from '../src/experiment/results/analysis.js';
import '../experiments/index.js';
import { tempDir } from './helpers/tmp.js';

const US = 1e6;

function folder(root: string, name: string, cc: { name: string; params: Record<string, unknown> }, queues: [number, number][], tput: [number, number][], extra: Record<string, string> = {}): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    resolved: { flows: 2, cc, net: { transport: { mtuBytes: 1000, dataHeaderBytes: 48 } }, stopAtPs: 100 * US },
    spec: { topology: { delay: 1 * US } },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'queues.csv'), ['node,port,t_ps,bytes', ...queues.map(([t, b]) => `3,2,${t},${b}`)].join('\n') + '\n');
  writeFileSync(join(dir, 'throughput.csv'), ['node,port,t_ps,bps', ...tput.map(([t, b]) => `3,2,${t},${b}`)].join('\n') + '\n');
  writeFileSync(join(dir, 'summary.json'), JSON.stringify({ totals: { drops: 0, dataPacketsSent: 100, flows: 2, finished: 2 } }));
  for (const [f, text] of Object.entries(extra)) writeFileSync(join(dir, f), text);
  return dir;
}

test('SQCC patched-TIMELY fixed point: q\' = C·(RTT_ref - D), q* = q\' + N·δ·q\'/(βC) (docs/algorithms.md §7: 56.25 KB + N·7.03 KB at D = 5 us)', () => {
  const pkt = 1000;
  assert.ok(Math.abs(timelyFixedPointPkts(0, 5, pkt) - 56.25) < 1e-9);
  assert.ok(Math.abs(timelyFixedPointPkts(10, 5, pkt) - (56.25 + 10 * 7.03125)) < 1e-9);
});

test('SQCC scheme names follow the paper (error only / W/O T_low / SQCC)', () => {
  assert.equal(sqccScheme({ name: 'timely-patched', params: {} }), 'patched TIMELY');
  assert.equal(sqccScheme({ name: 'sqcc', params: { tLowMode: 'fixed', deltaMode: 'fixed' } }), 'SQCC error only');
  assert.equal(sqccScheme({ name: 'sqcc', params: { tLowMode: 'fixed' } }), 'SQCC W/O T_low');
  // Table II's W/O T_low with its constant delta (0.04 Mb/s) instead of C/N^2 from the live flow count
  assert.equal(sqccScheme({ name: 'sqcc', params: { tLowMode: 'fixed', deltaMode: 'fixed', deltaBps: 40000 } }), 'SQCC W/O T_low');
  assert.equal(sqccScheme({ name: 'sqcc', params: { tLowMode: 'fixed', deltaMode: 'fixed', deltaBps: 10e6 } }), 'SQCC error only');
  assert.equal(sqccScheme({ name: 'sqcc', params: {} }), 'SQCC');
});

test('SQCC queue statistics: second half only, in 1056-B packets, empty share and utilisation', () => {
  const root = tempDir('sqccfig');
  // first half: 10 000 packets (must be ignored); second half alternates 0 and 2 packets
  const q: [number, number][] = [];
  for (let i = 0; i < 100; i++) q.push([i * US, i < 50 ? 10_000 * 1056 : (i % 2) * 2 * 1056]);
  const tp: [number, number][] = [];
  for (let i = 1; i <= 10; i++) tp.push([i * 10 * US, i < 5 ? 0 : 5e9]);
  const dir = folder(root, 'p', { name: 'sqcc', params: {} }, q, tp);
  const s = queueStats(dir);
  assert.equal(s.mean, 1);
  assert.equal(s.sd, 1);
  assert.equal(s.max - s.min, 2);
  assert.equal(s.empty, 0.5);
  assert.equal(s.util, 0.5);
  assert.equal(s.dUs, 6);
  assert.equal(s.scheme, 'SQCC');
});

test('CCC Table 1 S1 analysis: E_B until the long flow ends, T_B after the last short flow', () => {
  const root = tempDir('cccfig');
  const C = 25e9;
  const q: [number, number][] = [];
  for (let i = 0; i <= 3000; i++) q.push([i * US, 0]);
  const tp: [number, number][] = [];
  // full link until 1 ms, half until 1.2 ms, full again from 1.2 ms
  for (let i = 1; i <= 300; i++) {
    const t = i * 10 * US;
    tp.push([t, t <= 1000 * US ? C : t <= 1200 * US ? C / 2 : C]);
  }
  const fct = ['id,src,dst,bytes,start_ps,finish_ps,fct_ps,ideal_fct_ps,slowdown,tag', `0,1,0,1,0,${3000 * US},1,1,1,long`, `1,2,0,1,0,${1000 * US},1,1,1,short`].join('\n');
  const dir = folder(root, 'p', { name: 'ccc', params: {} }, q, tp, { 'fct.csv': fct + '\n' });
  const res = findFigure('ccc-table1-s1')!.analyze([{ dir, vars: { cc: 'ccc' }, label: 'cc=ccc' }]);
  const claim = (id: string): number => res.claims.find((c) => c.id === id)!.value;
  assert.equal(claim('ccc.table1.s1.ccc.eb'), Math.round(((280 + 20 / 2) / 300) * 1000) / 1000);
  assert.equal(claim('ccc.table1.s1.ccc.tb'), 210);
  assert.equal(claim('ccc.table1.s1.ccc.el'), 20.2);
});
