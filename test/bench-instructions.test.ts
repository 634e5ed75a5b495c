import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRun, perEvent } from '../bench/instructions.js';

/** cachegrind's summary as valgrind 3.19 prints it on stderr */
function summary(ir: number, dRefs: number, d1: number): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  return [
    '==123== Cachegrind, a cache and branch-prediction profiler',
    `==123== I   refs:      ${n(ir)}`,
    '==123== I1  misses:       38,077,028',
    `==123== D   refs:      ${n(dRefs)}  (1,619,811,591 rd   + 650,706,142 wr)`,
    `==123== D1  misses:       ${n(d1)}  (   56,725,956 rd   +   9,192,308 wr)`,
    '==123== LLd misses:        4,104,583  (    1,589,868 rd   +   2,514,715 wr)',
  ].join('\n');
}

test('bench instructions: reads the totals from cachegrind and the events from the child', () => {
  const r = parseRun('{"title":"(c)","events":654451}\n', summary(5_623_469_267, 2_270_517_733, 65_918_264));
  assert.deepEqual(r, { events: 654451, ir: 5_623_469_267, dRefs: 2_270_517_733, d1Misses: 65_918_264 });
});

test('bench instructions: the cost of an event is the difference of two runs over the difference of their events', () => {
  const short = { events: 1_000, ir: 5_000_000, dRefs: 2_000_000, d1Misses: 90_000 };
  const long = { events: 3_000, ir: 8_000_000, dRefs: 3_000_000, d1Misses: 130_000 };
  assert.deepEqual(perEvent(short, long), { events: 2_000, instructions: 1_500, dataRefs: 500, d1Misses: 20 });
  assert.throws(() => perEvent(long, short), /executed 1000 events, not more than the shorter run's 3000/);
});

test('bench instructions: missing output gives an error that says what is missing', () => {
  assert.throws(() => parseRun('', summary(1, 1, 1)), /printed no result line/);
  assert.throws(() => parseRun('{"title":"x"}', summary(1, 1, 1)), /no event count/);
  assert.throws(() => parseRun('{"events":5}', '==1== I   refs:      10\n'), /no "D refs" line/);
});
