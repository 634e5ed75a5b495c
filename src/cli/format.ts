/** Terminal output of the CLI: aligned numbers and the run summary. */
import { formatTime } from '../engine/units.js';
import type { RunResult } from '../experiment/run/runner.js';
import { lossWarnings, type FctStats } from '../metrics/summary.js';

// ---------------------------------------------------------------------------------------------
// output helpers

export function out(line = ''): void {
  process.stdout.write(line + '\n');
}

export function fmtNum(x: number, digits = 3): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '-';
}

/**
 * 1,234,567: an integer with thousands separators, as toLocaleString('en-US') writes it,
 * without loading ICU's number formatting (about 60 ms on the first call, a tenth of
 * `ccsim validate`'s start-up).
 */
export function fmtInt(x: number): string {
  const n = Math.round(x);
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let s = '';
  for (let i = digits.length; i > 0; i -= 3) s = (i > 3 ? ',' : '') + digits.slice(Math.max(0, i - 3), i) + s;
  return n < 0 ? `-${s}` : s;
}

export function pad(s: string, w: number, left = false): string {
  return left ? s.padEnd(w) : s.padStart(w);
}

function statsLine(label: string, s: FctStats, labelWidth: number): string {
  return (
    '  ' +
    pad(label, labelWidth, true) +
    pad(fmtInt(s.count), 9) +
    pad(fmtNum(s.meanSlowdown), 9) +
    pad(fmtNum(s.p50Slowdown), 9) +
    pad(fmtNum(s.p95Slowdown), 9) +
    pad(fmtNum(s.p99Slowdown), 9) +
    pad(fmtNum(s.p999Slowdown), 9)
  );
}

/** "1 switch", "2 switches". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmtInt(n)} ${n === 1 ? one : many}`;
}

export function printRunSummary(r: RunResult, cc: string): void {
  const { summary, output } = r;
  const t = summary.totals;
  out(`${r.spec.name}: cc ${cc}, seed ${r.input.seed}`);
  out(`  flows finished ${fmtInt(t.finished)}/${fmtInt(t.flows)}${summary.unfinished > 0 ? ` (${fmtInt(summary.unfinished)} unfinished)` : ''}`);
  const dl = summary.deadlock;
  if (dl !== undefined) {
    out(`  PFC DEADLOCK found at ${formatTime(dl.detectedAtPs)}: cycle ${dl.cycle.map((p) => `${p.name}->${p.peerName}`).join(', ')} (class ${dl.cycle[0]!.cls}); run ended there`);
    out(
      `  ${fmtInt(dl.unfinishedFlows)} unfinished flows, ${fmtInt(dl.unfinishedWithDrops)} of them lost packets (drops in the run: ${fmtInt(dl.drops)})` +
        (dl.dropsRuledOut ? '; drops ruled out as their cause' : ''),
    );
  }
  const fct = summary.fct;
  const labels = [
    'overall',
    ...fct.binSets.flatMap((s) => [...s.bins.map((b) => b.label), 'outside these bins']),
    ...Object.keys(fct.tags).map((k) => `tag ${k}`),
  ];
  const w = Math.max(16, ...labels.map((l) => l.length + 4));
  const header = (title: string): void =>
    out('  ' + pad(title, w, true) + pad('flows', 9) + pad('mean', 9) + pad('p50', 9) + pad('p95', 9) + pad('p99', 9) + pad('p99.9', 9));
  header('slowdown');
  out(statsLine('overall', fct.overall, w));
  for (const [k, s] of Object.entries(fct.tags)) out(statsLine(`tag ${k}`, s, w));
  if (fct.binSets.length > 0) out('  flow sizes: KB = 1000 B, KiB = 1024 B; "(" open, "[" closed end; a set\'s bins may overlap');
  for (const set of fct.binSets) {
    header(set.title);
    for (const b of set.bins) out(statsLine('  ' + b.label, b, w));
    out(statsLine('  outside these bins', set.outside, w));
  }
  const secs = output.wallMs / 1000;
  out(
    `  drops ${fmtInt(t.drops)}, PFC pauses ${fmtInt(t.pausesSent)}, timeouts ${fmtInt(t.timeouts)}, ` +
      `retransmitted packets ${fmtInt(t.retransmittedPackets)}` +
      (t.trimmedPackets !== undefined
        ? `, trimmed ${fmtInt(t.trimmedPackets)}, header drops ${fmtInt(t.headerDrops ?? 0)}, returned headers ${fmtInt(t.returnedHeaders ?? 0)}`
        : '') +
      (t.bfcPauses !== undefined
        ? `, BFC pauses ${fmtInt(t.bfcPauses)}, BFC shared queue assignments ${fmtInt(t.bfcSharedAssignments ?? 0)}, most BFC queues in use at a port ${fmtInt(t.bfcMaxQueuesInUse ?? 0)}`
        : ''),
  );
  const j = summary.jobs;
  if (j !== undefined) {
    out(
      `  jobs: ${fmtInt(j.iterations)} iterations, mean ${formatTime(j.meanPs)}, p50 ${formatTime(j.p50Ps)}, p99 ${formatTime(j.p99Ps)}, ` +
        `max ${formatTime(j.maxPs)}; ${fmtInt(j.completedFlows)} job flows finished (jobs.csv)`,
    );
  }
  out(
    `  events ${fmtInt(output.events)}, simulated ${formatTime(output.endPs)}, wall ${secs.toFixed(2)} s` +
      (secs > 0 ? ` (${fmtInt(output.events / secs)} events/s)` : ''),
  );
  const peaks = output.queues.map((q) => ({ q, peak: q.v.reduce((a, b) => Math.max(a, b), 0) })).sort((a, b) => b.peak - a.peak);
  if (peaks.length > 0) {
    out(`  queue peaks (queues.csv): ${peaks.slice(0, 4).map((p) => `node ${p.q.node} port ${p.q.port} ${fmtInt(p.peak / 1000)} KB`).join(', ')}`);
  }
  for (const w of lossWarnings(output, summary)) out(`  ${w}`);
  for (const n of summary.notes) out(`  note: ${n}`);
  out(`  results: ${r.outDir}`);
}

