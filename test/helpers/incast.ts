/**
 * PowerTCP Fig. 4 (top row) incast on a PowerTCP tree with the burst program's
 * buffer pools (docs/experiments.md §3, docs/network-model.md §11.2 ptBurst):
 * host 0 → 16 runs alone, hosts 1..10 → 16 join 500 us later; queue and
 * throughput at the ToR port toward host 16.
 */
import { simulate } from '../../src/sim/simulate.js';
import { MIB, US } from '../../src/engine/units.js';
import type { Topology } from '../../src/net/topology/types.js';
import type { FlowSpec } from '../../src/workload/types.js';
import { input, net, type DeepPartial } from './sim.js';
import { deepMerge, type NetworkConfig } from '../../src/net/config.js';

export interface IncastResult {
  /** queue peak after the incast, bytes */
  peak: number;
  /** us from the incast until the queue is below 10 KB (-1: never) */
  backUs: number;
  /** queue samples every 1 us from the incast on */
  queue: number[];
  /** link throughput in 20-us bins from the incast on */
  tp: number[];
  drops: number;
}

export function ptIncast(topo: Topology, cc: string, params: Record<string, unknown>, over: DeepPartial<NetworkConfig> = {}): IncastResult {
  const dst = 16;
  const t0 = 500 * US;
  const flows: FlowSpec[] = [{ src: 0, dst, bytes: 1e12, startPs: 0 }];
  for (let i = 1; i <= 10; i++) flows.push({ src: i, dst, bytes: 1e12, startPs: t0 });
  // the ToR port toward the receiver: port k of a node is its k-th link
  const li = topo.links.findIndex((l) => l.a === dst || l.b === dst);
  const tor = topo.links[li]!.a === dst ? topo.links[li]!.b : topo.links[li]!.a;
  let port = 0;
  for (let i = 0; i < li; i++) if (topo.links[i]!.a === tor || topo.links[i]!.b === tor) port++;
  const out = simulate(
    input(topo, flows, {
      net: net('hpcc', deepMerge<DeepPartial<NetworkConfig>>({ switch: { dtMode: 'alpha', bufferBytes: 4 * MIB, ptPools: 'ptBurst' } }, over)),
      cc,
      params,
      stopAtPs: t0 + 800 * US,
      metrics: { queuePorts: [{ node: tor, port }], queueIntervalPs: 1 * US, throughputPorts: [{ node: tor, port }], throughputIntervalPs: 20 * US, flowThroughput: [], flowThroughputIntervalPs: 100 * US },
    }),
  );
  const q = out.queues[0]!.v.slice(500);
  let peak = 0;
  for (const x of q) if (x > peak) peak = x;
  let back = -1;
  for (let i = q.indexOf(peak); i < q.length; i++) {
    if (q[i]! < 10_000) {
      back = i;
      break;
    }
  }
  return { peak, backUs: back, queue: q, tp: out.throughput[0]!.v.slice(25), drops: out.totals.drops };
}
