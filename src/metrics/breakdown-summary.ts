/**
 * summary.json's `breakdown` (metrics.breakdown; docs/guide.md, "Why a flow was slow"): for the
 * finished flows overall, per tag and per size bin of each bin set, the mean of each part of
 * the FCT and its share of the summed FCT, and the ports with the most queueing.
 */
import type { BinSet } from './summary.js';
import type { BreakdownOutput, PortBreakdown } from './types.js';

/** The parts of a group of finished flows (ps; shares of their summed FCT, 0..1). */
export interface BreakdownGroup {
  count: number;
  meanFctPs: number | null;
  meanPs: Record<string, number | null>;
  share: Record<string, number | null>;
}

export interface BreakdownSummary {
  parts: string[];
  overall: BreakdownGroup;
  byTag: Record<string, BreakdownGroup>;
  /** per bin set name: one group per bin, labelled as in fct.bins */
  bins: Record<string, (BreakdownGroup & { label: string })[]>;
  /** the ten ports whose flows queued longest there, most first */
  topPorts: PortBreakdown[];
  /** the ten ports whose pauses held their upstream longest, most first (none without PFC) */
  topPausing: PortBreakdown[];
}

const UNTAGGED = 'untagged';

function group(bd: BreakdownOutput, pick: (i: number) => boolean): BreakdownGroup {
  const K = bd.parts.length;
  const sums = new Float64Array(K);
  let fct = 0;
  let count = 0;
  for (let i = 0; i < bd.count; i++) {
    if (!pick(i)) continue;
    count++;
    fct += bd.fctPs[i]!;
    for (let k = 0; k < K; k++) sums[k] = sums[k]! + bd.values[i * K + k]!;
  }
  const meanPs: Record<string, number | null> = {};
  const share: Record<string, number | null> = {};
  bd.parts.forEach((p, k) => {
    meanPs[p] = count > 0 ? sums[k]! / count : null;
    share[p] = fct > 0 ? sums[k]! / fct : null;
  });
  return { count, meanFctPs: count > 0 ? fct / count : null, meanPs, share };
}

export function breakdownSummary(bd: BreakdownOutput, sets: readonly BinSet[]): BreakdownSummary {
  const byTag: Record<string, BreakdownGroup> = {};
  const tags = [...new Set(bd.tag)].sort();
  for (const t of tags) byTag[t === '' ? UNTAGGED : t] = group(bd, (i) => bd.tag[i] === t);
  const bins: BreakdownSummary['bins'] = {};
  for (const s of sets) {
    bins[s.name] = s.bins.map((b) => ({ label: b.label, ...group(bd, (i) => bd.bytes[i]! > b.minBytes && bd.bytes[i]! <= b.maxBytes) }));
  }
  const top = (key: 'queuePs' | 'pauseCausedPs'): PortBreakdown[] =>
    bd.ports
      .filter((p) => p[key] > 0)
      .sort((a, b) => b[key] - a[key] || a.node - b.node || a.port - b.port)
      .slice(0, 10);
  return { parts: [...bd.parts], overall: group(bd, () => true), byTag, bins, topPorts: top('queuePs'), topPausing: top('pauseCausedPs') };
}
