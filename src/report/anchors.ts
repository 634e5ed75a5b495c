/**
 * Reference runs of another simulator that ccsim replays flow for flow
 * (data/anchors/<set>/README.md): the PowerTCP authors' ns-3 simulator on W10,
 * WebSearch at 60 % for 10 ms on the 256-host tree, seven CCs.
 *
 * `ccsim anchors` replays the set's flows (its replay.yaml) once per reference
 * CC, compares each run with the reference's per-flow output (compare.ts) and
 * prints the agreement; with `--write` it records the agreement in
 * data/anchors/ns3-w10/agreement.json (what test/anchors-w10.test.ts holds later
 * runs to) and in the generated block of docs/fidelity.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UsageError } from '../engine/errors.js';
import { parseSpec, readSpecFile, resolveSpec } from '../experiment/spec/resolve.js';
import { simulate } from '../sim/simulate.js';
import type { FctRow } from '../metrics/types.js';
import { compareFlows, readReferenceFlows, type Comparison, type FlowOutcome } from './compare.js';
import { packageRoot } from './published.js';

/** A reference run: its folder under the anchor set and the ccsim CC that models it. */
export interface ReferenceCc {
  /** folder name under data/anchors/ns3-w10/ */
  ref: string;
  /** the spec's `cc` for the replay */
  cc: { name: string; params: Record<string, unknown> };
  /** why this ccsim configuration corresponds to the reference's */
  why: string;
}

/**
 * The reference's seven CCs and their ccsim models (settings from the set's
 * README and cmdline.txt: the PowerTCP artifact's config file for every CC).
 */
export const REFERENCE_CCS: readonly ReferenceCc[] = [
  { ref: 'hpcc', cc: { name: 'hpcc', params: { preset: 'powertcp' } }, why: 'eta 0.95, maxStage 5, AI 50 Mb/s (the config column)' },
  { ref: 'powertcp', cc: { name: 'powertcp', params: { profile: 'inetTub' } }, why: 'the PowerTCP authors\u2019 implementation (docs/powertcp.md)' },
  { ref: 'thetapowertcp', cc: { name: 'theta-powertcp', params: { profile: 'inetTub' } }, why: 'the PowerTCP authors\u2019 implementation (docs/powertcp.md)' },
  { ref: 'dcqcn', cc: { name: 'dcqcn', params: { preset: 'powertcp' } }, why: 'no window (windowCheck 0)' },
  { ref: 'dcqcn-win', cc: { name: 'dcqcn', params: { preset: 'powertcp', window: 'bdp' } }, why: 'window of one BDP scaled by rate (windowCheck 1, VAR_WIN)' },
  { ref: 'timely', cc: { name: 'timely', params: { preset: 'powertcp' } }, why: 'no window (windowCheck 0)' },
  { ref: 'dctcp', cc: { name: 'dctcp', params: { preset: 'powertcp' } }, why: 'g = EWMA_GAIN 1/256, AI 1000 Mb/s, the config\u2019s 100 Mb/s rate floor and RED marking, rate-scaled window' },
];

export const W10 = 'ns3-w10';

export function anchorDir(set = W10): string {
  return join(packageRoot(), 'data', 'anchors', set);
}

export function referenceCc(ref: string): ReferenceCc {
  const r = REFERENCE_CCS.find((c) => c.ref === ref);
  if (r === undefined) throw new UsageError(`unknown reference CC "${ref}" (known: ${REFERENCE_CCS.map((c) => c.ref).join(', ')})`);
  return r;
}

export interface ReplayResult {
  ref: string;
  comparison: Comparison;
  wallS: number;
  /** CPU time of the simulation (user + system), s */
  cpuS: number;
  events: number;
}

/** How a replay differs from the recorded one (none: the recorded replay). */
export interface ReplayOptions {
  /**
   * replay on ccsim's own ECMP paths (`switch.loadBalancing: ecmp`) with this draw of the
   * switches' salts (`network.switch.ecmpSeed`; 0 = ccsim's default salts) instead of the
   * recorded replay's, which puts every flow on the reference run's own path (`ns3Hash` with
   * the flows' ports, replay.yaml; docs/fidelity.md, "Paths")
   */
  ecmpSeed?: number;
  /** CC parameters to add to the reference CC's */
  ccParams?: Record<string, unknown>;
  /** transport settings to add to the replay's */
  transport?: Record<string, unknown>;
}

/**
 * Replays the set's flows with one reference CC's model and compares with the reference output.
 * `opts` varies the replay (paths, parameters) for the analyses of docs/fidelity.md.
 */
export function replayAnchor(ref: string, set = W10, opts: ReplayOptions = {}): ReplayResult {
  const dir = anchorDir(set);
  const r = referenceCc(ref);
  const raw = varied(readSpecFile(join(dir, 'replay.yaml')) as Record<string, unknown>, opts);
  const cc = opts.ccParams === undefined ? r.cc : { ...r.cc, params: { ...r.cc.params, ...opts.ccParams } };
  const spec = parseSpec({ ...raw, cc }, join(dir, 'replay.yaml'));
  const input = resolveSpec(spec, dir);
  const rows: FlowOutcome[] = [];
  const sink = (x: FctRow): void => {
    rows.push({ src: x.src, dst: x.dst, bytes: x.bytes, startNs: x.startPs / 1000, fctNs: x.fctPs / 1000, idealNs: x.idealFctPs / 1000 });
  };
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const out = simulate({ ...input, fctSink: sink });
  const cpu = process.cpuUsage(cpu0);
  const wallS = (performance.now() - t0) / 1000;
  const theirs = readReferenceFlows(join(dir, ref, 'fct_per_flow.csv'), { format: 'csv' });
  const comparison = compareFlows(rows, theirs, { labels: { ours: 'ccsim', theirs: 'ns-3' } });
  return { ref, comparison, wallS, cpuS: (cpu.user + cpu.system) / 1e6, events: out.events };
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

/** The replay spec with the options' switch and transport settings (the spec's others kept). */
function varied(raw: Record<string, unknown>, o: ReplayOptions): Record<string, unknown> {
  if (o.ecmpSeed === undefined && o.transport === undefined) return raw;
  const network = obj(raw['network']);
  const sw: Record<string, unknown> = { ...obj(network['switch']) };
  if (o.ecmpSeed !== undefined) {
    sw['loadBalancing'] = 'ecmp';
    if (o.ecmpSeed !== 0) sw['ecmpSeed'] = o.ecmpSeed;
  }
  const transport = { ...obj(network['transport']), ...(o.transport ?? {}) };
  return { ...raw, network: { ...network, switch: sw, transport } };
}

/** What a replay is held to: ccsim's overall slowdown mean and p99 when the agreement was recorded. */
export interface RecordedAgreement {
  ref: string;
  cc: ReferenceCc['cc'];
  matched: number;
  unmatchedOurs: number;
  unmatchedTheirs: number;
  ccsim: { mean: number; p99: number };
  reference: { mean: number; p99: number };
}

export interface AgreementFile {
  set: string;
  /** how the file was made */
  generatedBy: string;
  ccs: RecordedAgreement[];
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

export function agreementOf(r: ReplayResult): RecordedAgreement {
  const all = r.comparison.bins[0]!;
  return {
    ref: r.ref,
    cc: referenceCc(r.ref).cc,
    matched: r.comparison.matched,
    unmatchedOurs: r.comparison.unmatchedOurs,
    unmatchedTheirs: r.comparison.unmatchedTheirs,
    ccsim: { mean: round4(all.ours.mean), p99: round4(all.ours.p99) },
    reference: { mean: round4(all.theirs.mean), p99: round4(all.theirs.p99) },
  };
}

export function readAgreement(set = W10): AgreementFile | undefined {
  const f = join(anchorDir(set), 'agreement.json');
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as AgreementFile) : undefined;
}

const BEGIN = '<!-- ccsim:anchors:begin -->';
const END = '<!-- ccsim:anchors:end -->';
const CMD = 'npm run ccsim -- anchors --write';

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '-');
const sgn = (x: number): string => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)} %` : '-');

/** The Markdown block of docs/fidelity.md: agreement per CC, overall and per size bin. */
export function agreementMarkdown(results: readonly ReplayResult[]): string {
  const head = '| reference CC | ccsim CC | matched flows | mean: ccsim / ns-3 (Δ) | p99: ccsim / ns-3 (Δ) | Δ mean per bin < 10 KB, 10-100 KB, 100 KB-1 MB, > 1 MB |';
  const rows = results.map((r) => {
    const c = r.comparison;
    const a = c.bins[0]!;
    const cc = referenceCc(r.ref).cc;
    const params = Object.entries(cc.params)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join(', ');
    const unmatched = c.unmatchedTheirs + c.unmatchedOurs > 0 ? ` (${c.unmatchedTheirs} ns-3 / ${c.unmatchedOurs} ccsim unmatched)` : '';
    return `| ${r.ref} | \`${cc.name}\` ${params} | ${c.matched}${unmatched} | ${f3(a.ours.mean)} / ${f3(a.theirs.mean)} (${sgn(a.diffPct.mean)}) | ${f3(a.ours.p99)} / ${f3(a.theirs.p99)} (${sgn(a.diffPct.p99)}) | ${c.bins
      .slice(1)
      .map((b) => sgn(b.diffPct.mean))
      .join(', ')} |`;
  });
  return [
    BEGIN,
    `<!-- generated by \`${CMD}\` from data/anchors/${W10}; do not edit by hand -->`,
    '',
    `Slowdown = FCT / ccsim's ideal FCT of the flow for both simulators (docs/network-model.md §13.1), over the flows that finished in both; Δ = (ccsim − ns-3) / ns-3.`,
    '',
    head,
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    END,
  ].join('\n');
}

/** Writes agreement.json of the set and the generated block of docs/fidelity.md (appended when missing). */
export function writeAgreement(results: readonly ReplayResult[], docsFile = join(packageRoot(), 'docs', 'fidelity.md'), set = W10): string[] {
  const file: AgreementFile = { set, generatedBy: CMD, ccs: results.map(agreementOf) };
  const json = join(anchorDir(set), 'agreement.json');
  writeFileSync(json, JSON.stringify(file, null, 2) + '\n');
  const block = agreementMarkdown(results);
  const cur = existsSync(docsFile) ? readFileSync(docsFile, 'utf8') : '';
  const a = cur.indexOf(BEGIN);
  const b = cur.indexOf(END);
  const text =
    a >= 0 && b > a
      ? cur.slice(0, a) + block + cur.slice(b + END.length)
      : `${cur.replace(/\s*$/, '')}\n\n## Agreement with the PowerTCP authors' ns-3 simulator (W10)\n\n${block}\n`;
  writeFileSync(docsFile, text);
  return [json, docsFile].map((f) => relative(process.cwd(), f));
}
