/**
 * Checks shared by the topology builders and loaders: option validation with
 * messages that name the option and the offending value, and a structural
 * check of a finished `Topology` against the contract in types.ts.
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

/** Throws unless `v` is an integer ≥ 1. `what` is e.g. "fatTree.pods". */
export function checkPositiveInt(what: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new Error(`${what}: must be a positive integer, got ${show(v)}`);
  }
  return v;
}

/** Throws unless `v` is an integer ≥ 0. */
export function checkNonNegativeInt(what: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new Error(`${what}: must be a non-negative integer, got ${show(v)}`);
  }
  return v;
}

/** Throws unless `v` is a finite rate > 0 in bps. */
export function checkRate(what: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new Error(`${what}: must be a positive finite rate in bps, got ${show(v)}`);
  }
  return v;
}

/** Throws unless `v` is a delay in whole ps ≥ 0. */
export function checkDelay(what: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new Error(`${what}: must be a non-negative integer number of ps, got ${show(v)}`);
  }
  return v;
}

/** Throws unless `v` is one of `allowed`. */
export function checkOneOf<T extends string>(what: string, v: unknown, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new Error(`${what}: must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${show(v)}`);
  }
  return v as T;
}

/** Throws unless `opts` is a plain object; also rejects unknown keys. */
export function checkOptions(what: string, opts: unknown, known: readonly string[]): Record<string, unknown> {
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts)) {
    throw new Error(`${what}: options must be an object, got ${show(opts)}`);
  }
  const rec = opts as Record<string, unknown>;
  for (const k of Object.keys(rec)) {
    if (!known.includes(k)) {
      throw new Error(`${what}.${k}: unknown option (known: ${known.join(', ')})`);
    }
  }
  return rec;
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
