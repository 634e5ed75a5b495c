/**
 * CCC, patched TIMELY and SQCC: the behaviour their papers report, at reduced
 * sizes (CCC: N-to-1 star at 25 Gb/s with a 20 us maximum RTT, CCC §6.1;
 * SQCC: the 10 Gb/s dumbbell, SQCC §IV), plus the two interface mechanisms
 * they brought: the receiver hook echoed in ACKs and the CC state trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { simulate } from '../src/sim/simulate.js';
import { dumbbell, star } from '../src/net/topology/index.js';
import { MS, US } from '../src/engine/units.js';
import { jainIndex, mean } from '../src/metrics/stats.js';
import type { SimOutput } from '../src/sim/types.js';
import type { FlowSpec } from '../src/workload/types.js';
import { CCC_REGION } from '../src/cc/ccc.js';
import { input, net } from './helpers/sim.js';

// ------------------------------------------------------------------ CCC (25 G star, 5 us links: 20 us RTT)

const C25 = 25e9;

function cccStar(cc: string, flows: FlowSpec[], senders: number, stopPs: number, params: Record<string, unknown> = {}): SimOutput {
  const topo = star({ hosts: senders + 1, rateBps: C25, delayPs: 5 * US });
  const sw = senders + 1;
  return simulate(
    input(topo, flows, {
      net: net('hpcc', { switch: { bufferBytes: 4e6 } }),
      cc,
      params,
      stopAtPs: stopPs,
      metrics: {
        queuePorts: [{ node: sw, port: senders }],
        queueIntervalPs: 1 * US,
        throughputPorts: [{ node: sw, port: senders }],
        throughputIntervalPs: 10 * US,
        flowThroughput: [],
        flowThroughputIntervalPs: 100 * US,
        ccTrace: [],
        ccTraceIntervalPs: 10 * US,
      },
    }),
  );
}

const longFlow = (src: number, dst: number, startPs = 0): FlowSpec => ({ src, dst, bytes: 1e12, startPs });
const after = (s: { t: number[]; v: number[] }, t0: number, t1 = Infinity): number[] => s.v.filter((_, i) => s.t[i]! >= t0 && s.t[i]! < t1);

/** Trace column of flow `flow` (fields of CCC's traceFields), between t0 and t1. */
function traceColumn(out: SimOutput, flow: number, field: string, t0 = 0, t1 = Infinity): number[] {
  const tr = out.ccTrace!;
  const k = tr.fields.length;
  const j = tr.fields.indexOf(field);
  assert.ok(j >= 0, `trace field ${field} in ${tr.fields.join(',')}`);
  const s = tr.series.find((x) => x.flow === flow)!;
  const col: number[] = [];
  for (let i = 0; i < s.t.length; i++) if (s.t[i]! >= t0 && s.t[i]! < t1) col.push(s.v[i * k + j]!);
  return col;
}

test('CCC 2-to-1: full link, fair shares, queueing delay held near q_B = 5 us, mostly analytical in equilibrium (CCC §6.2, Fig 6/7)', () => {
  const out = cccStar('ccc', [longFlow(0, 2), longFlow(1, 2)], 2, 4 * MS);
  const util = mean(after(out.throughput[0]!, 1 * MS)) / C25;
  assert.ok(util > 0.98, `utilisation ${util}`);
  const qUs = (mean(after(out.queues[0]!, 1 * MS)) * 8) / C25 / 1e-6;
  assert.ok(qUs > 2.5 && qUs < 15, `mean queueing delay ${qUs} us vs q_B 5 us`);
  const shares = out.flowThroughput.map((s) => mean(after(s, 1 * MS)));
  assert.ok(jainIndex(shares) > 0.99, `Jain ${jainIndex(shares)}`);
  assert.equal(out.totals.pausesSent, 0);
  // analytical rule (A^i) on a substantial share of the ACKs once in equilibrium; the trace counts them
  const an = traceColumn(out, 0, 'analytical_acks', 1 * MS);
  const all = traceColumn(out, 0, 'acks', 1 * MS);
  const frac = (an.at(-1)! - an[0]!) / (all.at(-1)! - all[0]!);
  assert.ok(frac > 0.2 && frac < 0.9, `analytical share ${frac}`);
  // the state visits both sides of δ = 0 (sliding mode along the curve): A^i and A^d both appear
  const regions = new Set(traceColumn(out, 0, 'region', 1 * MS));
  assert.ok(regions.has(CCC_REGION.Ai) && regions.has(CCC_REGION.Ad), `regions ${[...regions].join(',')}`);
});

test('CCC reaches fair shares within 1-2 ms of the 4th arrival, HPCC does not (CCC Fig 8/9, reduced: 4 flows 2 ms apart)', () => {
  const gap = 2 * MS;
  const flows = [0, 1, 2, 3].map((i) => longFlow(i, 4, i * gap));
  const jain = (out: SimOutput): number => jainIndex(out.flowThroughput.map((s) => mean(after(s, 3 * gap + 1 * MS, 3 * gap + 2 * MS))));
  const ccc = cccStar('ccc', flows, 4, 3 * gap + 2 * MS);
  const hpcc = cccStar('hpcc', flows, 4, 3 * gap + 2 * MS);
  assert.ok(jain(ccc) > 0.98, `CCC Jain ${jain(ccc)}`);
  assert.ok(jain(hpcc) < 0.95, `HPCC Jain ${jain(hpcc)} (slower convergence to fairness)`);
});

test('CCC basis S tracks C/N after N changes and v_ai grows when the link is left idle (CCC Fig 10, reduced)', () => {
  // 1 flow, +1 at 1 ms, +2 at 4 ms; the three late flows leave around 7.5 ms
  const share = (bps: number, ps: number): number => (bps * ps) / 8e12;
  const late = (src: number, startPs: number, bytes: number): FlowSpec => ({ src, dst: 4, bytes: Math.round(bytes), startPs });
  const flows = [
    longFlow(0, 4, 0),
    late(1, 1 * MS, share(C25 / 2, 3 * MS) + share(C25 / 4, 3.5 * MS)),
    late(2, 4 * MS, share(C25 / 4, 3.5 * MS)),
    late(3, 4 * MS, share(C25 / 4, 3.5 * MS)),
  ];
  const out = cccStar('ccc', flows, 4, 10 * MS);
  const s2 = mean(traceColumn(out, 0, 's_bps', 3 * MS, 4 * MS));
  const s4 = mean(traceColumn(out, 0, 's_bps', 6 * MS, 7 * MS));
  // S is the mean of recent rates near equilibrium: about C/N
  assert.ok(s2 > 0.6 * (C25 / 2) && s2 < 1.8 * (C25 / 2), `S with 2 flows ${s2 / 1e9} Gb/s`);
  assert.ok(s4 > 0.6 * (C25 / 4) && s4 < 1.8 * (C25 / 4), `S with 4 flows ${s4 / 1e9} Gb/s`);
  const lastEnd = Math.max(...out.fct.filter((r) => r.id !== 0).map((r) => r.finishPs));
  const vai = traceColumn(out, 0, 'vai', lastEnd);
  assert.ok(Math.max(...vai) >= 16, `v_ai after the others left: max ${Math.max(...vai)}`);
});

test('CCC S1 (star): the long flow re-acquires the link within a few hundred us after 4 short flows leave (Table 1 T_B)', () => {
  // 4 short flows sized to end near 3 ms at a fair share, one long 12.5 MB flow (CCC §6.3 S1)
  const shortBytes = Math.round(((C25 / 5) * 3e-3) / 8);
  const flows: FlowSpec[] = [{ src: 0, dst: 5, bytes: 12.5e6, startPs: 0 }];
  for (let i = 1; i < 5; i++) flows.push({ src: i, dst: 5, bytes: shortBytes, startPs: 0 });
  const out = cccStar('ccc', flows, 5, 8 * MS);
  const shortEnd = Math.max(...out.fct.filter((r) => r.id !== 0).map((r) => r.finishPs));
  const tp = out.throughput[0]!;
  const i = tp.t.findIndex((t, k) => t > shortEnd && tp.v[k]! > 0.95 * C25);
  assert.ok(i >= 0, 'reaches 95 % of the link');
  const tb = tp.t[i]! - shortEnd;
  assert.ok(tb < 600 * US, `T_B ${tb / US} us (paper 280 us)`);
  assert.equal(out.unfinished.length, 0);
});

// ------------------------------------------------------------------ SQCC / patched TIMELY (10 G dumbbell)

const C10 = 10e9;
const PKT = 1056; // 1000 B payload + 48 B headers + 8 B timestamp (docs/network-model.md §8)

/** N:1 incast on the dumbbell; flows start at C/N, staggered by seg/C so their first segments interleave. */
function incast(cc: string, n: number, params: Record<string, unknown>, stopPs: number): SimOutput {
  const topo = dumbbell({ left: n, right: 1, hostRateBps: C10, bottleneckRateBps: C10, delayPs: 1 * US });
  const seg = (params['segBytes'] as number | undefined) ?? 65_536;
  const flows: FlowSpec[] = [];
  for (let i = 0; i < n; i++) flows.push({ src: i, dst: n, bytes: 1e12, startPs: Math.round((i * seg * 8 * 1e12) / C10) });
  return simulate(
    input(topo, flows, {
      net: net('hpcc', { switch: { bufferBytes: 2 ** 30 } }),
      cc,
      params: { initRateFraction: 1 / n, ...params },
      stopAtPs: stopPs,
      metrics: {
        queuePorts: [{ node: n + 1, port: n }],
        queueIntervalPs: 10 * US,
        throughputPorts: [{ node: n + 1, port: n }],
        throughputIntervalPs: 100 * US,
        ccTrace: [0, n - 1],
        ccTraceIntervalPs: 100 * US,
      },
    }),
  );
}

const queuePkts = (out: SimOutput, t0: number): number[] => after(out.queues[0]!, t0).map((b) => b / PKT);

test('patched TIMELY 40:1 settles near its fixed point q* = q\' + N·δ·q\'/(βC) (SQCC Eq. 6, docs/algorithms.md §7)', () => {
  const out = incast('timely-patched', 40, {}, 100 * MS);
  const q = mean(queuePkts(out, 50 * MS));
  // D = 6 us round-trip propagation here: q' = C·(RTT_ref - D) = 55 KB
  const qp = (C10 * (50e-6 - 6e-6)) / 8;
  const qStar = (qp + (40 * 10e6 * qp) / (0.008 * C10)) / PKT;
  assert.ok(q > 0.6 * qStar && q < 1.4 * qStar, `mean queue ${q} pkts vs q* ${qStar}`);
  assert.ok(mean(after(out.throughput[0]!, 50 * MS)) > 0.97 * C10);
});

test('at 60:1 patched TIMELY no longer holds a queue below T_high; SQCC error function cuts it by > 80 % (SQCC Fig 1)', () => {
  const timely = incast('timely-patched', 60, {}, 100 * MS);
  const sqcc = incast('sqcc', 60, { tLowMode: 'fixed', deltaMode: 'fixed' }, 100 * MS);
  const qT = mean(queuePkts(timely, 50 * MS));
  const qS = mean(queuePkts(sqcc, 50 * MS));
  // q_high = C·(T_high - D): ~580 packets
  assert.ok(qT > 500, `patched TIMELY mean queue ${qT} pkts`);
  assert.ok(qS < 0.2 * qT, `SQCC ${qS} vs patched TIMELY ${qT} pkts`);
});

test('SQCC receiver hook: every ACK carries the number of flows the receiver is receiving; T_low and δ follow it (SQCC Alg. 3, Eq. 25)', () => {
  // 120 flows: N = 120 -> k = floor(log10 120) = 2, T_low = 2·seg/C = 100 us, δ = C·2/N² = 1.39 Mb/s
  const out = incast('sqcc', 120, { segBytes: 62_500 }, 20 * MS);
  const n = traceColumn(out, 0, 'n', 15 * MS);
  assert.ok(n.length > 0 && n.every((x) => x === 120), `N seen by flow 0: ${[...new Set(n)].join(',')}`);
  const tLow = traceColumn(out, 0, 't_low_us', 15 * MS);
  assert.ok(tLow.every((x) => Math.abs(x - 100) < 1e-9), `T_low ${tLow[0]}`);
  const delta = traceColumn(out, 0, 'delta_bps', 15 * MS);
  assert.ok(delta.every((x) => Math.abs(x - (C10 * 2) / 120 ** 2) < 1e-3), `δ ${delta[0]}`);
});

test('receiver count drops as flows complete; the flow that completes still counts itself', () => {
  const topo = star({ hosts: 4, rateBps: C10, delayPs: 1 * US });
  const flows: FlowSpec[] = [
    { src: 0, dst: 3, bytes: 5e6, startPs: 0 },
    { src: 1, dst: 3, bytes: 200e3, startPs: 0 },
    { src: 2, dst: 3, bytes: 200e3, startPs: 0 },
  ];
  const out = simulate(
    input(topo, flows, {
      net: net('hpcc'),
      cc: 'sqcc',
      params: { segBytes: 10_000 },
      metrics: { ccTrace: [0], ccTraceIntervalPs: 20 * US },
    }),
  );
  const shortEnd = Math.max(out.fct[1]!.finishPs, out.fct[2]!.finishPs);
  const n = traceColumn(out, 0, 'n');
  const t = out.ccTrace!.series[0]!.t;
  assert.ok(n.some((x) => x === 3), 'three flows while all run');
  const late = n.filter((_, i) => t[i]! > shortEnd + 50 * US);
  assert.ok(late.length > 0 && late.every((x) => x === 1), `after the short flows: ${[...new Set(late)].join(',')}`);
});
