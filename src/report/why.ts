/**
 * `ccsim why`: where a run's flows lost their time, from a result folder written with
 * `metrics.breakdown` (docs/guide.md, "Why a flow was slow"). Reads fct and breakdown_ports
 * through the result reader; returns lines of text (the CLI prints them).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../engine/errors.js';
import { readTable, type TableRow } from '../experiment/results/results.js';
import { BREAKDOWN_PARTS } from '../metrics/breakdown.js';

export interface WhyOptions {
  flow?: number;
  slowest?: number;
  tag?: string;
}

/** One finished flow of a breakdown run, as fct.csv has it. */
export interface WhyFlow {
  id: number;
  tag: string;
  bytes: number;
  fctPs: number;
  slowdown: number;
  parts: number[];
  worst: string;
  worstQueuePs: number;
}

const us = (ps: number): string => `${(ps / 1e6).toFixed(2)} us`;
const pct = (a: number, b: number): string => (b > 0 ? `${((100 * a) / b).toFixed(1)} %` : '-');
const PART_TEXT: Record<string, string> = {
  tx: 'sending at line rate',
  cc: 'held by the CC / send driver',
  pfc: 'PFC-paused at its NIC',
  nic: 'waiting for its NIC (other packets)',
  loss: 'loss recovery',
  tail_queue: 'tail: queueing of the last packet and its ACK',
  tail_base: 'tail: propagation and serialization',
};

/** The breakdown rows of result folder `dir`; a UsageError naming the folder or file when it has none. */
export function readWhyFlows(dir: string): WhyFlow[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir}: no such result folder`);
  if (!existsSync(join(dir, 'manifest.json'))) throw new UsageError(`${dir}: not a run result folder (no manifest.json); give the folder of one run (a sweep's points are under points/)`);
  const rows = readTable(dir, 'fct');
  if (rows === undefined) throw new UsageError(`${dir}: no fct.csv or fct.jsonl`);
  if (rows.length > 0 && !('tx_ps' in rows[0]!)) {
    throw new UsageError(`${join(dir, 'fct.csv')} has no breakdown columns: run the spec with metrics: { breakdown: true }`);
  }
  return rows.map((r: TableRow) => ({
    id: Number(r['id']),
    tag: String(r['tag'] ?? ''),
    bytes: Number(r['bytes']),
    fctPs: Number(r['fct_ps']),
    slowdown: Number(r['slowdown']),
    parts: BREAKDOWN_PARTS.map((p) => Number(r[`${p}_ps`])),
    worst: Number(r['worst_node']) < 0 ? '' : `node ${r['worst_node']} port ${r['worst_port']} (${r['worst_role']})`,
    worstQueuePs: Number(r['worst_queue_ps']),
  }));
}

function flowLines(f: WhyFlow): string[] {
  const lines = [`flow ${f.id} (${f.tag}, ${f.bytes} B): FCT ${us(f.fctPs)}, slowdown ${f.slowdown.toFixed(2)}`];
  BREAKDOWN_PARTS.forEach((p, k) => {
    const v = f.parts[k]!;
    if (v > 0) lines.push(`  ${p.padEnd(10)} ${us(v).padStart(14)} ${pct(v, f.fctPs).padStart(8)}  ${PART_TEXT[p]}`);
  });
  lines.push(f.worst === '' ? '  queued at no port' : `  worst port: ${f.worst}, queued ${us(f.worstQueuePs)} there (${pct(f.worstQueuePs, f.fctPs)} of its FCT)`);
  return lines;
}

/** Where a group of flows lost its time, and the port that was the worst for most of them. */
function groupLines(title: string, flows: WhyFlow[]): string[] {
  const fct = flows.reduce((a, f) => a + f.fctPs, 0);
  const lines = [`${title}: ${flows.length} flows, summed FCT ${us(fct)}`];
  BREAKDOWN_PARTS.forEach((p, k) => {
    const v = flows.reduce((a, f) => a + f.parts[k]!, 0);
    if (v > 0) lines.push(`  ${p.padEnd(10)} ${pct(v, fct).padStart(8)}  ${PART_TEXT[p]}`);
  });
  const byPort = new Map<string, { n: number; q: number }>();
  for (const f of flows) {
    if (f.worst === '') continue;
    const e = byPort.get(f.worst) ?? { n: 0, q: 0 };
    e.n++;
    e.q += f.worstQueuePs;
    byPort.set(f.worst, e);
  }
  const hot = [...byPort.entries()].sort((a, b) => b[1].q - a[1].q || a[0].localeCompare(b[0]))[0];
  if (hot !== undefined) {
    lines.push(`  hot port: ${hot[0]}, the worst port of ${hot[1].n} of them; their queueing there is ${pct(hot[1].q, fct)} of their summed FCT`);
  }
  return lines;
}

function portLines(dir: string): string[] {
  const rows = readTable(dir, 'breakdown_ports');
  if (rows === undefined) return [];
  const name = (r: TableRow): string => `node ${r['node']} port ${r['port']} (${r['role']}, to node ${r['peer']})`;
  const lines: string[] = [];
  const topQ = rows.filter((r) => Number(r['queue_ps']) > 0).sort((a, b) => Number(b['queue_ps']) - Number(a['queue_ps'])).slice(0, 3);
  if (topQ.length > 0) lines.push('ports with the most queueing (all flows):', ...topQ.map((r) => `  ${name(r)}: ${us(Number(r['queue_ps']))}`));
  const topP = rows.filter((r) => Number(r['pause_caused_ps']) > 0).sort((a, b) => Number(b['pause_caused_ps']) - Number(a['pause_caused_ps'])).slice(0, 3);
  if (topP.length > 0) lines.push('ports whose PFC pauses held their upstream longest:', ...topP.map((r) => `  ${name(r)}: ${us(Number(r['pause_caused_ps']))}`));
  return lines;
}

/** The text `ccsim why` prints for result folder `dir`. */
export function whyText(dir: string, o: WhyOptions): string[] {
  const all = readWhyFlows(dir);
  if (all.length === 0) throw new UsageError(`${dir}: no finished flows in its fct table`);
  if (o.flow !== undefined) {
    const f = all.find((x) => x.id === o.flow);
    if (f === undefined) throw new UsageError(`flow ${o.flow} is not a finished flow of ${dir} (finished ids ${all[0]!.id}..${all[all.length - 1]!.id}; unfinished.csv lists the rest)`);
    return flowLines(f);
  }
  let flows = all;
  if (o.tag !== undefined) {
    flows = all.filter((f) => f.tag === o.tag);
    if (flows.length === 0) throw new UsageError(`no finished flow of ${dir} has tag "${o.tag}" (tags: ${[...new Set(all.map((f) => f.tag))].sort().join(', ')})`);
  }
  const n = o.slowest ?? 3;
  const slow = [...flows].sort((a, b) => b.slowdown - a.slowdown || a.id - b.id).slice(0, n);
  const lines = groupLines(o.tag !== undefined ? `tag ${o.tag}` : 'all finished flows', flows);
  lines.push('', `the ${slow.length} slowest (by slowdown):`);
  for (const f of slow) lines.push(...flowLines(f));
  const ports = portLines(dir);
  if (ports.length > 0) lines.push('', ...ports);
  return lines;
}
