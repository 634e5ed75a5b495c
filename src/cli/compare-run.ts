/**
 * `ccsim compare` (a run against another simulator's per-flow output) and
 * `ccsim anchors` (replay the reference runs shipped in data/anchors/ and
 * record the agreement).
 */
import { join } from 'node:path';
import { UsageError } from '../engine/errors.js';
import { parseBytes } from '../engine/units.js';
import { sealHtml, sealJson } from '../experiment/results/ownership.js';
import { writeOwnedHtml, writeOwnedJson } from '../experiment/results/write-owned.js';
import { comparisonCdf, comparisonJson, comparisonTable, compareFlows, readCcsimFlows, readReferenceFlows, type Comparison, type ReferenceFormat, type TimeUnit } from '../report/compare.js';
import { chartHtmlOf, renderPage, tableHtml, type ReportSection } from '../report/html.js';
import { formatTable } from '../report/text.js';
import { REFERENCE_CCS, replayAnchor, writeAgreement, type ReplayResult } from '../report/anchors.js';

function out(line = ''): void {
  process.stdout.write(line + '\n');
}

function oneOf<T extends string>(name: string, v: string | undefined, allowed: readonly T[], dflt: T): T {
  if (v === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${name}: "${v}" is not one of ${allowed.join(', ')}`);
  return v as T;
}

function binEdges(v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  return v.split(',').map((s) => {
    try {
      const b = parseBytes(/^\d+(\.\d+)?$/.test(s.trim()) ? Number(s) : s.trim());
      if (!(b > 0)) throw new Error('must be > 0');
      return b;
    } catch (e) {
      throw new UsageError(`--bins: "${s}" is not a size (${e instanceof Error ? e.message : String(e)})`);
    }
  });
}

/** The report section of one comparison: the per-bin table and both CDFs. */
export function comparisonSection(c: Comparison, id: string, title: string): ReportSection {
  const chart = comparisonCdf(c, `${id}-cdf`);
  return { id, title, html: `<div>${tableHtml(comparisonTable(c))}${chart ? chartHtmlOf(chart) : ''}</div>` };
}

function writeComparisonReport(dir: string, sections: ReportSection[], meta: string[]): string {
  const file = join(dir, 'report.html');
  // ownership (experiment/results/ownership.ts): replaces only a report ccsim wrote; sealed, written atomically
  writeOwnedHtml(file, sealHtml(renderPage('ccsim compare', meta, sections)), 'the report');
  return file;
}

export interface CompareOpts {
  format?: string;
  colSrc?: string;
  colDst?: string;
  colSize?: string;
  colStart?: string;
  colFct?: string;
  colIdeal?: string;
  timeUnit?: string;
  bins?: string;
  metric?: string;
  ideal?: string;
  label?: string;
  json?: string;
  report?: string;
}

export function compareAction(run: string, reference: string, o: CompareOpts): void {
  const columns = {
    ...(o.colSrc !== undefined ? { src: o.colSrc } : {}),
    ...(o.colDst !== undefined ? { dst: o.colDst } : {}),
    ...(o.colSize !== undefined ? { size: o.colSize } : {}),
    ...(o.colStart !== undefined ? { start: o.colStart } : {}),
    ...(o.colFct !== undefined ? { fct: o.colFct } : {}),
    ...(o.colIdeal !== undefined ? { ideal: o.colIdeal } : {}),
  };
  const theirs = readReferenceFlows(reference, {
    format: oneOf<ReferenceFormat>('format', o.format, ['auto', 'fct-txt', 'csv'], 'auto'),
    columns,
    timeUnit: oneOf<TimeUnit>('time-unit', o.timeUnit, ['ps', 'ns', 'us', 'ms', 's'], 'ns'),
  });
  const ours = readCcsimFlows(run);
  const edges = binEdges(o.bins);
  const c = compareFlows(ours, theirs, {
    labels: { ours: 'ccsim', theirs: o.label ?? 'reference' },
    metric: oneOf('metric', o.metric, ['slowdown', 'fct'] as const, 'slowdown'),
    ideal: oneOf('ideal', o.ideal, ['ours', 'theirs'] as const, 'ours'),
    ...(edges !== undefined ? { binEdges: edges } : {}),
  });
  if (c.matched === 0) {
    // a table of dashes says nothing: two unrelated runs, or a reference of another workload or seed
    throw new UsageError(
      `no flow in common: ${run} has ${ours.length} finished flow${ours.length === 1 ? '' : 's'}, ${reference} has ${theirs.length}; ` +
        'flows are matched on source, destination, size and start time (ns), so both must be runs of the same workload and seed',
    );
  }
  for (const l of formatTable(comparisonTable(c))) out(l);
  if (o.json !== undefined) {
    writeOwnedJson(o.json, JSON.stringify(sealJson({ run, reference, ...comparisonJson(c) }), null, 2) + '\n', 'the comparison');
    out(`json: ${o.json}`);
  }
  if (o.report !== undefined) out(`report: ${writeComparisonReport(o.report, [comparisonSection(c, 'compare', `${run} vs ${reference}`)], [`ccsim run ${run} against ${reference}`])}`);
}

/** `--ecmp-seeds 0-7` or `0,3,5`: whole numbers >= 0. */
function ecmpSeeds(v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  const seeds: number[] = [];
  for (const part of v.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (m === null) throw new UsageError(`--ecmp-seeds: "${part}" is not a seed or a range like 0-7`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a || b - a > 999 || b > 0x7fffffff) throw new UsageError(`--ecmp-seeds: "${part}" is not an ascending range of at most 1000 seeds below 2^31`);
    for (let s = a; s <= b; s++) seeds.push(s);
  }
  return seeds;
}

const f3 = (x: number): string => x.toFixed(3);

export function anchorsAction(o: { cc?: string; write?: boolean; report?: string; ecmpSeeds?: string }): void {
  const refs = o.cc === undefined ? REFERENCE_CCS.map((c) => c.ref) : o.cc.split(',').map((s) => s.trim());
  if (o.write === true && o.cc !== undefined) throw new UsageError('--write records every CC: leave out --cc');
  const seeds = ecmpSeeds(o.ecmpSeeds);
  if (o.write === true && seeds !== undefined) throw new UsageError('--write records the replay the fidelity test repeats (every flow on the reference run\'s path): leave out --ecmp-seeds');
  const results: ReplayResult[] = [];
  for (const ref of refs) {
    const runs = (seeds ?? [undefined]).map((seed) => {
      const r = replayAnchor(ref, undefined, seed === undefined ? {} : { ecmpSeed: seed });
      const a = r.comparison.bins[0]!;
      const tag = seed !== undefined ? ` (ccsim's ECMP, seed ${seed})` : '';
      out(`${ref}${tag}: ${r.comparison.matched} matched, slowdown mean ${f3(a.ours.mean)} vs ${f3(a.theirs.mean)} (${a.diffPct.mean.toFixed(1)} %), p99 ${f3(a.ours.p99)} vs ${f3(a.theirs.p99)} (${a.diffPct.p99.toFixed(1)} %); ${r.cpuS.toFixed(1)} s CPU, ${r.wallS.toFixed(1)} s wall`);
      return r;
    });
    results.push(runs[0]!);
    if (seeds !== undefined && runs.length > 1) out(seedSpread(ref, runs));
  }
  if (o.report !== undefined) {
    const sections = results.map((r) => comparisonSection(r.comparison, `anchor-${r.ref}`, `${r.ref}: ccsim vs ns-3`));
    out(`report: ${writeComparisonReport(o.report, sections, ['W10 reference runs (data/anchors/ns3-w10) replayed by ccsim'])}`);
  }
  if (o.write === true) out(`updated ${writeAgreement(results).join(', ')}`);
}

/** One CC over several ECMP seeds: the range of ccsim's mean and p99 and where the reference falls. */
function seedSpread(ref: string, runs: readonly ReplayResult[]): string {
  const all = runs.map((r) => r.comparison.bins[0]!);
  const range = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];
  const [m0, m1] = range(all.map((a) => a.ours.mean));
  const [p0, p1] = range(all.map((a) => a.ours.p99));
  const t = all[0]!.theirs;
  const where = (x: number, lo: number, hi: number): string => (x < lo ? 'below' : x > hi ? 'above' : 'inside');
  return `${ref} over ${runs.length} ECMP seeds: mean ${f3(m0)}-${f3(m1)} (ns-3 ${f3(t.mean)}, ${where(t.mean, m0, m1)}), p99 ${f3(p0)}-${f3(p1)} (ns-3 ${f3(t.p99)}, ${where(t.p99, p0, p1)})`;
}
