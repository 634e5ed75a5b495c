/**
 * `ccsim compare` (a run against another simulator's per-flow output) and
 * `ccsim anchors` (replay the reference runs shipped in data/anchors/ and
 * record the agreement).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
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

interface CompareOpts {
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

export function addCompareCommands(program: Command): void {
  program
    .command('compare')
    .description("compare a ccsim run with another simulator's per-flow output on the same flows (ns-3 HPCC/PowerTCP fct.txt or a CSV): per size bin mean/p50/p95/p99 of both and their differences")
    .argument('<run>', 'a ccsim run folder (fct.csv)')
    .argument('<reference>', 'the other simulator\u2019s per-flow file')
    .option('--format <f>', 'auto | fct-txt | csv (default auto: whitespace-separated lines = fct-txt)')
    .option('--col-src <name>', 'CSV column of the source host (default src)')
    .option('--col-dst <name>', 'CSV column of the destination host (default dst)')
    .option('--col-size <name>', 'CSV column of the flow size in bytes (default size, size_B or bytes)')
    .option('--col-start <name>', 'CSV column of the start time (default start, start_ns, start_ps)')
    .option('--col-fct <name>', 'CSV column of the flow completion time (default fct, fct_ns, fct_ps)')
    .option('--col-ideal <name>', 'CSV column of the reference\u2019s ideal FCT (optional; for --ideal theirs)')
    .option('--time-unit <u>', 'unit of CSV time columns without a _ps/_ns/_us suffix: ps | ns | us | ms | s (default ns)')
    .option('--bins <edges>', 'size-bin edges, e.g. 10KB,100KB,1MB (the default)')
    .option('--metric <m>', 'slowdown | fct (default slowdown)')
    .option('--ideal <side>', 'slowdowns divide by ours (ccsim\u2019s ideal FCT, default) or theirs')
    .option('--label <name>', 'name of the other simulator in the output (default reference)')
    .option('--json <file>', 'also write the comparison as JSON')
    .option('--report <dir>', 'also write <dir>/report.html with the table and both CDFs')
    .action((run: string, reference: string, o: CompareOpts) => {
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
    });

  program
    .command('anchors')
    .description("replay the PowerTCP authors' ns-3 reference runs (data/anchors/ns3-w10: W10, seven CCs) and compare each with its reference; --write records the agreement in docs/fidelity.md")
    .option('--cc <refs>', `comma-separated reference CCs (default all: ${REFERENCE_CCS.map((c) => c.ref).join(', ')})`)
    .option('--write', 'record the agreement: data/anchors/ns3-w10/agreement.json and the generated block of docs/fidelity.md (all CCs only)')
    .option('--report <dir>', 'also write <dir>/report.html with every CC\u2019s table and CDFs')
    .action((o: { cc?: string; write?: boolean; report?: string }) => {
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
    });
}
