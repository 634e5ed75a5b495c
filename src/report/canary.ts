/**
 * The canary (issue 40): the cheapest claim-bearing experiments of the five papers, re-run at
 * full size in seconds, whose claim values fingerprint the model. `ccsim canary` runs them and
 * compares every value with data/measured/model.json; the test suite does the same
 * (test/canary.test.ts), so a model change that moves a result cannot land next to records
 * made on the old model: it fails until `ccsim canary --update` renews model.json, and the
 * renewed fingerprint marks every record of the old model stale (./provenance.ts).
 *
 * Only the spec's own replica of each experiment runs (its `seed` and `perturb`); replicas are
 * for intervals, the canary is for change.
 *
 * Mechanisms that no canary experiment exercises (BFC, NDP's trimming, INT CCs and DCQCN under
 * packet spraying, Homa, closed-loop collectives, reTCP on a circuit schedule) have a scenario
 * each in data/canary/*.yaml, whose summary numbers (mean and p99 slowdown, finished flows,
 * drops, pauses, retransmissions, data packets, trims, job iterations) join the fingerprint, so
 * a change to any of them also marks the records of the old model stale.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planSweep } from '../experiment/run/sweep.js';
import { executeSweeps, prepareSweep } from '../experiment/run/sweep-run.js';
import { experimentState } from './claims-view.js';
import { buildId, modelFilePath, resetModelCache } from '../experiment/results/build-id.js';
import { readSpecFile } from '../experiment/spec/resolve.js';
import { pointDir } from '../experiment/results/points.js';
import { packageRoot } from '../workload/package-root.js';
import { fingerprintOf, modelFileSchema, type ModelFile } from './provenance.js';
import type { Paper } from './published.js';

/**
 * The canary experiments: one or more cheap micro-benchmarks per paper, together covering most
 * CCs. `perturb` adds a tie-order replica (docs/guide.md, "Replicas"), so the fingerprint also
 * covers how replicas are made.
 */
export const CANARIES: readonly { paper: Paper; experiment: string; perturb?: number }[] = [
  { paper: 'oscar', experiment: 'fig2' },
  { paper: 'oscar', experiment: 'fig2', perturb: 1 },
  { paper: 'oscar', experiment: 'fig3' },
  { paper: 'oscar', experiment: 'fig9' },
  { paper: 'oscar', experiment: 'fig13' },
  { paper: 'oscar', experiment: 'parking-lot' },
  { paper: 'oscar', experiment: 'parking-lot', perturb: 1 },
  { paper: 'powertcp', experiment: 'fig4-10to1' },
  { paper: 'powertcp', experiment: 'fig5' },
  { paper: 'ccc', experiment: 'table1-s1' },
  { paper: 'ccc', experiment: 'table1-s1', perturb: 1 },
  { paper: 'ccc', experiment: 'fig7' },
  { paper: 'ccc', experiment: 'fairness' },
  { paper: 'sqcc', experiment: 'fig1' },
  { paper: 'acc', experiment: 'fig10-convergence' },
];

/** The mechanism scenarios: data/canary/<name>.yaml (sorted by name). */
export function canaryScenarios(): string[] {
  return readdirSync(join(packageRoot(), 'data', 'canary'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** The summary numbers of a scenario that enter the fingerprint. */
function scenarioValues(summaryFile: string): Record<string, number> {
  const s = JSON.parse(readFileSync(summaryFile, 'utf8')) as {
    fct: { overall: { meanSlowdown: number; p99Slowdown: number } };
    totals: Record<string, number>;
    jobs?: { iterations: number; meanPs: number };
  };
  const out: Record<string, number> = { meanSlowdown: s.fct.overall.meanSlowdown, p99Slowdown: s.fct.overall.p99Slowdown };
  for (const k of ['flows', 'finished', 'drops', 'pausesSent', 'retransmittedPackets', 'timeouts', 'dataPacketsSent', 'trimmedPackets', 'bfcPauses', 'bfcSharedAssignments'] as const) {
    const v = s.totals[k];
    if (typeof v === 'number') out[k] = v;
  }
  if (s.jobs !== undefined) {
    out['jobIterations'] = s.jobs.iterations;
    out['jobMeanPs'] = s.jobs.meanPs;
  }
  return out;
}

export interface CanaryRun {
  /** `<paper>/<experiment>/<claim id>` -> value */
  values: Record<string, number>;
  fingerprint: string;
  build: string;
  cpuSeconds: number;
}

/** A canary key: `<paper>/<experiment>/<claim id>` (`<experiment>@perturb=<k>` for a perturbed replica). */
export const canaryKey = (paper: string, experiment: string, id: string, perturb?: number): string =>
  `${paper}/${experiment}${perturb !== undefined ? `@perturb=${perturb}` : ''}/${id}`;

/** Runs every canary experiment (its own replica, full size) in a temporary folder; returns the claim values. */
export async function runCanaries(opts: { jobs?: number; only?: readonly string[] } = {}): Promise<CanaryRun> {
  const root = mkdtempSync(join(tmpdir(), 'ccsim-canary-'));
  try {
    const list = CANARIES.filter((c) => opts.only === undefined || opts.only.includes(`${c.paper}/${c.experiment}`));
    const tag = (c: (typeof list)[number]): string => `${c.paper}-${c.experiment}${c.perturb !== undefined ? `-perturb${c.perturb}` : ''}`;
    const targets = list.map((c) => {
      const full = planSweep(join(packageRoot(), 'experiments', c.paper, `${c.experiment}.yaml`));
      const first = full.points[0]!;
      // the spec's own replica: the first point's seed and perturb are the spec's unless `seeds:` lists another first
      const raw = readSpecFile(full.specPath) as { seed?: unknown; perturb?: unknown };
      const seed = typeof raw.seed === 'number' ? raw.seed : first.seed;
      const perturb = c.perturb ?? (typeof raw.perturb === 'number' ? raw.perturb : 0);
      const { seeds: _s, perturbations: _p, ...meta } = full.meta;
      const plan = { ...full, meta, points: full.points.filter((p) => p.seed === seed && p.perturb === perturb) };
      if (plan.points.length === 0) throw new Error(`canary ${tag(c)}: the spec has no replica with perturb ${perturb} (add it to its perturbations:)`);
      return prepareSweep(plan, join(root, tag(c)));
    });
    const scenarios = opts.only === undefined ? canaryScenarios() : canaryScenarios().filter((n) => opts.only!.includes(`scenario/${n}`));
    const scenarioTargets = scenarios.map((n) => prepareSweep(planSweep(join(packageRoot(), 'data', 'canary', `${n}.yaml`)), join(root, `scenario-${n}`)));
    const jobs = Math.max(1, opts.jobs ?? 2);
    const outcomes = await executeSweeps([...targets, ...scenarioTargets], { jobs, quiet: true, progress: false });
    const values: Record<string, number> = {};
    let cpu = 0;
    targets.forEach((t, i) => {
      const c = list[i]!;
      const o = outcomes[i]!;
      if (o.failed.length > 0) throw new Error(`canary ${c.paper}/${c.experiment}: point ${o.failed[0]!.label} failed: ${o.failed[0]!.error}`);
      const st = experimentState(t.plan.specPath, t.plan, t.dir);
      for (const p of st.points) cpu += p.cpuSeconds;
      const claims = st.figure?.result?.claims;
      if (claims === undefined) throw new Error(`canary ${c.paper}/${c.experiment}: no analysis result (${st.figure?.error ?? 'no figure'})`);
      for (const m of claims) if (Number.isFinite(m.value)) values[canaryKey(c.paper, c.experiment, m.id, c.perturb)] = m.value;
    });
    scenarioTargets.forEach((t, i) => {
      const o = outcomes[targets.length + i]!;
      if (o.failed.length > 0) throw new Error(`canary scenario ${scenarios[i]}: ${o.failed[0]!.error}`);
      const p = t.plan.points[0]!;
      for (const [k, v] of Object.entries(scenarioValues(join(pointDir(t.dir, p.id), 'summary.json')))) values[`scenario/${scenarios[i]}/${k}`] = v;
    });
    return { values, fingerprint: fingerprintOf(values), build: buildId(), cpuSeconds: Math.round(cpu * 10) / 10 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The committed model file, or undefined when the package has none. */
export function loadModelFile(): ModelFile | undefined {
  try {
    return modelFileSchema.parse(readSpecFile(modelFilePath()));
  } catch {
    return undefined;
  }
}

/** Values that moved between the model file and a run (relative difference above 1e-9), and keys only one of them has. */
export function canaryDiff(recorded: Readonly<Record<string, number>>, now: Readonly<Record<string, number>>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(recorded).sort()) {
    const a = recorded[k]!;
    const b = now[k];
    if (b === undefined) out.push(`${k}: recorded ${a}, not measured now`);
    else if (Math.abs(a - b) > 1e-9 * Math.max(1, Math.abs(a))) out.push(`${k}: recorded ${a}, now ${b}`);
  }
  for (const k of Object.keys(now).sort()) if (!(k in recorded)) out.push(`${k}: new, ${now[k]}`);
  return out;
}

/** Writes the run as the model file (the new fingerprint of the model). */
export function writeModelFile(run: CanaryRun): string {
  const file = modelFilePath();
  const body: ModelFile = { fingerprint: run.fingerprint, canaries: run.values, build: run.build, cpuSeconds: run.cpuSeconds };
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n');
  resetModelCache();
  return file;
}
