/**
 * Bounded memory with millions of flows (issue 11 item 4): Poisson arrivals
 * made one at a time, flows made as they start and released when finished,
 * FCT rows handed to a sink in id order instead of kept. Each must leave the
 * results exactly as the all-in-memory path gives them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import type { FctRow, SimInput } from '../src/sim/types.js';
import { Rng } from '../src/engine/rng.js';
import { US } from '../src/engine/units.js';
import { fctColumnsOf, runSummary, summarize } from '../src/metrics/summary.js';
import { star } from '../src/net/topology/index.js';
import { loadCdf, poissonFlows, poissonStream, type PoissonOptions } from '../src/workload/index.js';
import type { FlowSpec, FlowStream } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';

const HOSTS = Array.from({ length: 8 }, (_, i) => i);

function arrivals(durationUs: number, seed = 7): PoissonOptions {
  return { sources: HOSTS, destinations: HOSTS, cdf: loadCdf('keyvalue'), load: 0.6, refRateBps: 25e9, startPs: 0, durationPs: durationUs * US, rng: new Rng(seed).fork('w'), tag: 'kv' };
}

function drain(s: FlowStream): FlowSpec[] {
  const out: FlowSpec[] = [];
  let last = -Infinity;
  while (s.peekStartPs() !== Infinity) {
    const t = s.peekStartPs();
    assert.ok(t >= last, 'a stream is in start order');
    last = t;
    const f = s.next();
    assert.equal(f.startPs, t);
    out.push(f);
  }
  return out;
}

test('poissonStream makes the same arrivals as poissonFlows, in the same order, and stops at maxFlows', () => {
  const all = poissonFlows(arrivals(200));
  assert.ok(all.length > 500, `${all.length} flows`);
  assert.deepEqual(drain(poissonStream(arrivals(200))), all);
  assert.deepEqual(drain(poissonStream(arrivals(200), 123)), all.slice(0, 123));
  assert.deepEqual(drain(poissonStream({ ...arrivals(200), load: 0 })), []);
  assert.throws(() => poissonStream({ ...arrivals(200), destinations: [3], sources: [3] }), /source 3 has no destination other than itself/);
});

function run(flows: FlowSpec[], o: { stream?: FlowStream; sink?: (r: FctRow) => void; stopUs?: number; sampleAll?: boolean } = {}) {
  const base: SimInput = input(star({ hosts: 8, rateBps: 25e9, delayPs: 1 * US }), o.stream !== undefined ? [] : flows, {
    net: net('hpcc'),
    cc: 'hpcc',
    stopAtPs: o.stopUs !== undefined ? o.stopUs * US : null,
    ...(o.sampleAll === true ? { metrics: { flowThroughput: [] } } : {}),
  });
  return simulate({ ...base, ...(o.stream !== undefined ? { flowStream: o.stream } : {}), ...(o.sink !== undefined ? { fctSink: o.sink } : {}) });
}

test('finished flows release their state; results equal a run that holds every flow', () => {
  const flows = poissonFlows(arrivals(100));
  const lazy = run(flows);
  // a per-flow sampler needs every flow from the start: that run makes them all up front and keeps them
  const eager = run(flows, { sampleAll: true });
  assert.equal(lazy.totals.finished, flows.length);
  assert.equal(lazy.heldFlows, 0, 'no finished flow kept its state');
  assert.equal(eager.heldFlows, flows.length);
  assert.deepEqual(lazy.fct, eager.fct);
  assert.deepEqual(lazy.totals, eager.totals);
  assert.ok(lazy.totals.dataPacketsSent >= flows.length);
  assert.deepEqual(
    lazy.fct.map((r) => r.id),
    flows.map((_, i) => i),
    'rows in id order',
  );
});

test('FCT rows streamed to a sink arrive in id order; the summary from the columns equals the in-memory one', () => {
  const flows = poissonFlows(arrivals(100));
  const ref = run(flows);
  const rows: FctRow[] = [];
  const out = run([], { stream: poissonStream(arrivals(100)), sink: (r) => rows.push(r) });
  assert.deepEqual(out.fct, []);
  assert.deepEqual(rows, ref.fct);
  assert.equal(out.fctColumns!.count, rows.length);
  assert.equal(out.events, ref.events);
  assert.deepEqual(runSummary(out), runSummary(ref));
  // flows finish out of start order here, so some rows waited for a lower id
  const finishOrder = [...ref.fct].sort((a, b) => a.finishPs - b.finishPs || a.id - b.id).map((r) => r.id);
  assert.notDeepEqual(finishOrder, ref.fct.map((r) => r.id));
});

test('a run stopped early lists the same unfinished flows (started or not) from a stream as from a list', () => {
  const flows = poissonFlows(arrivals(100));
  const ref = run(flows, { stopUs: 40 });
  const rows: FctRow[] = [];
  const out = run([], { stream: poissonStream(arrivals(100)), sink: (r) => rows.push(r), stopUs: 40 });
  assert.ok(ref.unfinished.some((u) => u.ackedBytes === 0 && u.startPs > 40 * US), 'some flows never started');
  assert.ok(ref.unfinished.some((u) => u.startPs < 40 * US), 'some started and did not finish');
  assert.deepEqual(out.unfinished, ref.unfinished);
  assert.deepEqual(rows, ref.fct);
  assert.deepEqual(out.totals, ref.totals);
  assert.equal(out.heldFlows, ref.unfinished.filter((u) => u.startPs <= 40 * US).length);
});

test('summaries from typed columns equal those from rows (bins, tags, untagged)', () => {
  const rows: FctRow[] = [];
  const rng = new Rng(3);
  for (let i = 0; i < 500; i++) {
    const bytes = 1 + rng.int(5_000_000);
    const fctPs = 1e6 + rng.int(1e9);
    const tag = ['', 'a', 'untagged', 'b'][rng.int(4)]!;
    rows.push({ id: i, src: 0, dst: 1, bytes, startPs: 0, finishPs: fctPs, fctPs, idealFctPs: 1e6, slowdown: fctPs / 1e6 / (1 + rng.int(3)), tag });
  }
  const fromRows = summarize(rows);
  assert.deepEqual(summarize(fctColumnsOf(rows)), fromRows);
  assert.deepEqual(Object.keys(fromRows.tags), ['a', 'b', 'untagged']);
  assert.equal(fromRows.tags['untagged']!.count, rows.filter((r) => r.tag === '' || r.tag === 'untagged').length);
});
