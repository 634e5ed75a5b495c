/**
 * Congestion-control behaviour the references report, on a 4:1 star of long
 * flows (100 Gb/s, 3 us links: 12 us base RTT, the OSCAR micro-benchmark
 * shape, docs/network-model.md §14).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { star } from '../src/net/topology/index.js';
import { MIB, MS, US } from '../src/engine/units.js';
import { jainIndex, mean } from '../src/metrics/stats.js';
import type { ProfileName } from '../src/net/config.js';
import type { SimOutput } from '../src/sim/types.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';

const C = 100e9;
const N = 4;

function longFlows(profile: ProfileName, cc: string, params: Record<string, unknown>, stopPs: number, tpIntervalPs = 100 * US): SimOutput {
  const topo = star({ hosts: N + 1, rateBps: C, delayPs: 3 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < N; i++) flows.push({ src: i, dst: N, bytes: 1e12, startPs: 0 });
  return simulate(
    input(topo, flows, {
      net: net(profile, { switch: { bufferBytes: 100 * MIB } }),
      cc,
      params,
      stopAtPs: stopPs,
      metrics: {
        queuePorts: [{ node: N + 1, port: N }],
        queueIntervalPs: 1 * US,
        throughputPorts: [{ node: N + 1, port: N }],
        throughputIntervalPs: tpIntervalPs,
        flowThroughput: [],
        flowThroughputIntervalPs: 500 * US,
      },
    }),
  );
}

/** Second half of a series. */
const tail = (v: number[]): number[] => v.slice(Math.floor(v.length / 2));

for (const profile of ['oscar', 'hpcc'] as const) {
  test(`HPCC (${profile}) holds a near-empty queue at ~eta utilisation, fair, goodput ~86% with INT overhead`, () => {
    const out = longFlows(profile, 'hpcc', {}, 5 * MS);
    const q = tail(out.queues[0]!.v);
    assert.ok(mean(q) < 5_000, `mean queue ${mean(q)} B`);
    const link = mean(out.throughput[0]!.v.slice(25));
    // eta = 0.95 of the wire rate
    assert.ok(link > 0.93 * C && link < 0.97 * C, `link ${link / 1e9} Gb/s`);
    const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
    assert.ok(jainIndex(shares) > 0.99, `Jain ${jainIndex(shares)}`);
    // OSCAR footnote 2: 1000/1096 of 95 % of the link is goodput (~0.87)
    const goodput = shares.reduce((a, b) => a + b, 0) / C;
    assert.ok(goodput > 0.85 && goodput < 0.88, `goodput ${goodput}`);
    assert.equal(out.totals.pausesSent, 0);
  });
}

test('HPCC* (eta = 1.5) holds a standing queue of ~0.5 BDP at full utilisation (docs/algorithms.md §9.4)', () => {
  const out = longFlows('oscar', 'hpcc', { eta: 1.5 }, 5 * MS);
  // D-OSCAR base RTT of these flows: 4 x 3 us + 2 hops x (84 + 8 ns) (100-B INT ACK)
  const baseRtt = 12e-6 + 2 * (84 + 8) * 1e-9;
  const halfBdp = (0.5 * C * baseRtt) / 8;
  const q = mean(tail(out.queues[0]!.v));
  assert.ok(Math.abs(q - halfBdp) < 0.1 * halfBdp, `standing queue ${q} B vs 0.5 BDP ${halfBdp} B`);
  const link = mean(out.throughput[0]!.v.slice(25));
  assert.ok(link > 0.98 * C, `link ${link / 1e9} Gb/s`);
});

test('DCQCN (HPCC-simulator RP) keeps the queue ECN-bounded without PFC, fills the link and shares it fairly', () => {
  const out = longFlows('hpcc', 'dcqcn', {}, 5 * MS);
  const q = tail(out.queues[0]!.v);
  // ECN thresholds of a 100 G port in the hpcc profile: 400 KB / 1600 KB
  assert.ok(Math.max(...q) < 1_600_000, `max queue ${Math.max(...q)}`);
  assert.ok(mean(q) > 10_000, 'DCQCN runs with a standing queue that drives marking');
  assert.equal(out.totals.pausesSent, 0);
  const link = mean(out.throughput[0]!.v.slice(25));
  assert.ok(link > 0.85 * C, `link ${link / 1e9} Gb/s`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.95, `Jain ${jainIndex(shares)}`);
});

test('DCQCN (OSCAR-artifact RP) cuts on CNPs, then recovers linearly at R_AI per 55 us until the link is full', () => {
  const out = longFlows('oscar', 'dcqcn', {}, 20 * MS, 1 * MS);
  const tp = out.throughput[0]!.v.map((x) => x / 1e9);
  // the 4:1 incast drives the queue beyond kmax and the flows far below their fair share
  assert.ok(Math.max(...out.queues[0]!.v.slice(0, 100)) > 1600 * 1024, 'queue passes kmax during the incast');
  assert.ok(tp[1]! < 40, `after the cuts: ${tp[1]} Gb/s`);
  // then the aggregate grows by ~4 flows x 100 Mb/s per 55 us = 7.3 Gb/s per ms
  const slope = (tp[8]! - tp[4]!) / 4;
  assert.ok(slope > 6 && slope < 8.5, `recovery slope ${slope} Gb/s per ms`);
  assert.ok(mean(tp.slice(16)) > 95, `recovered to ${mean(tp.slice(16))} Gb/s`);
  const shares = out.flowThroughput.map((s) => mean(tail(s.v)));
  assert.ok(jainIndex(shares) > 0.95, `Jain ${jainIndex(shares)}`);
});
