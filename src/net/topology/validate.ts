/**
 * The structural check of a finished `Topology` against the contract in
 * types.ts (dense ids, hosts first, valid links), run by every builder and
 * file loader. Option values are validated once, by the spec schema
 * (experiment/spec/spec.ts); the builders trust their typed options.
 */
import type { Layer, Topology } from './types.js';

export const LAYERS: readonly Layer[] = ['host', 'tor', 'agg', 'core', 'leaf', 'spine', 'switch'];

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/**
 * Checks a topology against the contract of types.ts: dense ids, hosts first,
 * host layer 'host', valid link endpoints, no self-loops, positive rates,
 * non-negative integer delays. Throws an Error naming the topology and the
 * offending node or link.
 */
export function validateTopology(topo: Topology): void {
  const where = `topology "${topo.name}"`;
  const n = topo.nodes.length;
  if (!Number.isInteger(topo.hostCount) || topo.hostCount < 0 || topo.hostCount > n) {
    throw new Error(`${where}: hostCount must be an integer in 0..${n}, got ${topo.hostCount}`);
  }
  for (let i = 0; i < n; i++) {
    const node = topo.nodes[i]!;
    if (node.id !== i) throw new Error(`${where}: node at index ${i} has id ${node.id} (ids must be dense and in order)`);
    const shouldBeHost = i < topo.hostCount;
    if (shouldBeHost !== (node.kind === 'host')) {
      throw new Error(
        `${where}: node ${i} ("${node.name}") is a ${node.kind}, but hosts must be exactly nodes 0..${topo.hostCount - 1}`,
      );
    }
    if (!LAYERS.includes(node.layer)) throw new Error(`${where}: node ${i} has unknown layer ${show(node.layer)}`);
    if ((node.kind === 'host') !== (node.layer === 'host')) {
      throw new Error(`${where}: node ${i} ("${node.name}") is a ${node.kind} with layer '${node.layer}'`);
    }
  }
  for (let i = 0; i < topo.links.length; i++) {
    const l = topo.links[i]!;
    for (const end of [l.a, l.b]) {
      if (!Number.isInteger(end) || end < 0 || end >= n) {
        throw new Error(`${where}: link ${i} has endpoint ${end}, not a node id in 0..${n - 1}`);
      }
    }
    if (l.a === l.b) throw new Error(`${where}: link ${i} connects node ${l.a} to itself`);
    if (!(Number.isFinite(l.rateBps) && l.rateBps > 0)) {
      throw new Error(`${where}: link ${i} (${l.a}-${l.b}) has rate ${l.rateBps} bps (must be > 0)`);
    }
    if (!(Number.isInteger(l.delayPs) && l.delayPs >= 0)) {
      throw new Error(`${where}: link ${i} (${l.a}-${l.b}) has delay ${l.delayPs} ps (must be an integer ≥ 0)`);
    }
  }
}
