/**
 * `ccsim compare` (a run against another simulator's per-flow output) and
 * `ccsim anchors` (replay the reference runs shipped in data/anchors/ and
 * record the agreement).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../experiment/errors.js';
import { parseBytes } from '../engine/units.js';
import { writeFileAtomic } from '../experiment/sweep-point.js';
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
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'report.html');
  writeFileAtomic(file, renderPage('ccsim compare', meta, sections));
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
  for (const l of formatTable(comparisonTable(c))) out(l);
  if (o.json !== undefined) {
    writeFileSync(o.json, JSON.stringify({ run, reference, ...comparisonJson(c) }, null, 2) + '\n');
    out(`json: ${o.json}`);
  }
  if (o.report !== undefined) out(`report: ${writeComparisonReport(o.report, [comparisonSection(c, 'compare', `${run} vs ${reference}`)], [`ccsim run ${run} against ${reference}`])}`);
}

export function anchorsAction(o: { cc?: string; write?: boolean; report?: string }): void {
  const refs = o.cc === undefined ? REFERENCE_CCS.map((c) => c.ref) : o.cc.split(',').map((s) => s.trim());
  if (o.write === true && o.cc !== undefined) throw new UsageError('--write records every CC: leave out --cc');
  const results: ReplayResult[] = [];
  for (const ref of refs) {
    const r = replayAnchor(ref);
    results.push(r);
    const a = r.comparison.bins[0]!;
    out(`${ref}: ${r.comparison.matched} matched, slowdown mean ${a.ours.mean.toFixed(3)} vs ${a.theirs.mean.toFixed(3)} (${a.diffPct.mean.toFixed(1)} %), p99 ${a.ours.p99.toFixed(3)} vs ${a.theirs.p99.toFixed(3)} (${a.diffPct.p99.toFixed(1)} %); ${r.cpuS.toFixed(1)} s CPU, ${r.wallS.toFixed(1)} s wall`);
  }
  if (o.report !== undefined) {
    const sections = results.map((r) => comparisonSection(r.comparison, `anchor-${r.ref}`, `${r.ref}: ccsim vs ns-3`));
    out(`report: ${writeComparisonReport(o.report, sections, ['W10 reference runs (data/anchors/ns3-w10) replayed by ccsim'])}`);
  }
  if (o.write === true) out(`updated ${writeAgreement(results).join(', ')}`);
}
