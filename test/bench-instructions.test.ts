import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readChildResult } from '../bench/compare.js';
import { parseCachegrindOut, perEvent } from '../bench/instructions.js';

/** a small cachegrind output file, in the layout valgrind 3.19 writes */
const OUT = [
  'desc: D1 cache:         49152 B, 64 B, 12-way associative',
  'cmd: node dist/bench/bench.js --child c --until-ms 2',
  'events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw ',
  'fl=???',
  'fn=???',
  '0 1000 5 0 300 20 0 100 4 0',
  'fl=???',
  'fn=Builtins_CallFunction_ReceiverIsNotNullOrUndefined',
  '0 50 0 0 10 1 0 5 0 0',
  'fl=???',
  'fn=v8::internal::compiler::GraphReducer::ReduceTop()',
  '12 400 9 1 100 7 0 50 2 0',
  '13 25',
].join('\n');

test('bench instructions: totals all code, and generated code (JIT and builtins) apart from the compiler', () => {
  assert.deepEqual(parseCachegrindOut(OUT), { ir: 1475, codeIr: 1050, dRefs: 565, d1Misses: 34 });
});

test('bench instructions: the cost of an event is the difference of two runs over the difference of their events', () => {
  const short = { events: 1_000, ir: 5_000_000, codeIr: 4_000_000, dRefs: 2_000_000, d1Misses: 90_000 };
  const long = { events: 3_000, ir: 8_000_000, codeIr: 6_600_000, dRefs: 3_000_000, d1Misses: 130_000 };
  assert.deepEqual(perEvent(short, long), { events: 2_000, instructions: 1_500, codeInstructions: 1_300, dataRefs: 500, d1Misses: 20 });
  assert.throws(() => perEvent(long, short), /executed 1000 events, not more than the shorter run's 3000/);
});

test('bench instructions: missing output gives an error that says what is missing', () => {
  assert.equal(readChildResult('progress\n{"title":"(c)","events":654451}\n').events, 654451);
  assert.throws(() => readChildResult(''), /printed no result line/);
  assert.throws(() => readChildResult('{"title":"x"}'), /no event count/);
  assert.throws(() => parseCachegrindOut('fn=???\n0 1 2\n'), /no "events:" line/);
  assert.throws(() => parseCachegrindOut('events: Ir\nfn=???\n0 1\n'), /no "Dr" column \(run it with --cache-sim=yes\)/);
});
