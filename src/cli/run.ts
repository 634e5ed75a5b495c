/** `ccsim run` and `ccsim validate`: they load the spec modules, and the simulator or sweep planner only when used. */
import { loadSpecPlugins } from '../experiment/run/plugins.js';
import { closedLoopOf, loadAndResolve, readSpecFile } from '../experiment/spec/resolve.js';
import { runWork } from '../experiment/spec/estimate-work.js';
import { calibration, cutShortWarning, endFieldOf, printRunCost, printRunEstimate, printSweepCost } from './estimate.js';
import { fmtInt, out, plural, printRunSummary } from './format.js';

/** The spec file's data, or undefined when it cannot be read (loading it again reports why). */
function readRaw(path: string): { raw: unknown } | undefined {
  try {
    return { raw: readSpecFile(path) };
  } catch {
    return undefined;
  }
}

/** Does the spec data have a `sweep:` block? */
function isSweep(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'sweep' in raw;
}

export async function runCommand(
  spec: string,
  o: { out?: string; seed?: number; quiet?: boolean; quick?: boolean; threads?: number; explainPartition?: boolean; breakdown?: boolean; checkFastForward?: boolean },
): Promise<void> {
  const quiet = o.quiet === true;
  if (o.checkFastForward === true) {
    await loadSpecPlugins(spec);
    const { printFastForwardCheck } = await import('./fast-forward-check.js');
    printFastForwardCheck(() => loadAndResolve(spec, o.seed !== undefined ? { seed: o.seed } : {}, { quick: o.quick === true }).input);
    return;
  }
  if (o.explainPartition === true) {
    await loadSpecPlugins(spec);
    const { loaded, input } = loadAndResolve(spec, o.seed !== undefined ? { seed: o.seed } : {}, { quick: o.quick === true });
    const { planThreads, partitionTable } = await import('../sim/parallel/threads.js');
    const requested = o.threads ?? loaded.spec.threads;
    for (const line of partitionTable(input.topology, planThreads(input.topology, requested, o.threads !== undefined ? 'option' : 'spec'))) out(line);
    return;
  }
  const { runExperiment } = await import('../experiment/run/runner.js');
  const r = await runExperiment(spec, {
    ...(o.out !== undefined ? { out: o.out } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.threads !== undefined ? { threads: o.threads } : {}),
    ...(o.breakdown === true ? { breakdown: true } : {}),
    quick: o.quick === true,
    quiet,
    progress: !quiet && process.stderr.isTTY === true && !process.env['CI'],
    progressLines: !quiet && (process.stderr.isTTY !== true || process.env['CI'] !== undefined),
    ...(quiet
      ? {}
      : {
          beforeRun: async (input) => {
            const { runBasis } = await import('../experiment/run/estimate-cost.js');
            await printRunEstimate(runBasis(input), input.stopAtPs);
          },
        }),
  });
  if (!quiet) printRunSummary(r, r.input.cc.name);
}

export async function validateCommand(
  spec: string,
  o: { seed?: number; quick?: boolean; estimate?: boolean; jobs?: number; recalibrate?: boolean },
): Promise<void> {
  await loadSpecPlugins(spec); // the spec's own CCs, workloads, ... before it is checked (experiment/run/plugins.ts)
  const read = readRaw(spec);
  if (read !== undefined && isSweep(read.raw)) {
    await import('../../experiments/index.js');
    const { planSweep } = await import('../experiment/run/sweep.js');
    const plan = planSweep(spec, { quick: o.quick === true });
    const flows = plan.points.reduce((a, p) => a + p.flows, 0);
    out(`ok: ${plan.name}: sweep of ${plan.points.length} points over ${plan.fields.map((f) => f.path).join(', ')} (${fmtInt(flows)} flows in all)`);
    const cut = plan.points.filter((p) => cutShortWarning(p.basis, endFieldOf(p.spec.stop.at ?? null)) !== undefined);
    if (cut.length > 0) {
      const first = cut[0]!;
      const what = cut.length === 1 ? `point ${first.label}` : `${cut.length} points, e.g. ${first.label}`;
      out(`  ${cutShortWarning(first.basis, endFieldOf(first.spec.stop.at ?? null))!.replace('warning: ', `warning: ${what}: `)}`);
    }
    if (o.estimate === false) return;
    const { estimateSweepCost, SLOW_RUN_SECS } = await import('../experiment/run/estimate-cost.js');
    const { availableParallelism } = await import('node:os');
    const cal = await calibration(o.recalibrate);
    const e = estimateSweepCost(plan.points, o.jobs ?? Math.max(1, availableParallelism() - 1), cal);
    printSweepCost(e, cal);
    if (e.wallSecs > SLOW_RUN_SECS) {
      out(`  warning: this sweep would take more than ${SLOW_RUN_SECS / 60} minutes; check durations, loads and sizes (a \`quick:\` block and --quick for trials)`);
    }
    return;
  }
  const { loaded, input } = loadAndResolve(spec, o.seed !== undefined ? { seed: o.seed } : {}, { quick: o.quick === true, ...read });
  const hosts = input.topology.hostCount;
  const switches = input.topology.nodes.length - hosts;
  out(`ok: ${loaded.spec.name}: ${plural(hosts, 'host')}, ${plural(switches, 'switch', 'switches')}, ${plural(input.flows.length, 'flow')}, cc ${input.cc.name}`);
  const field = endFieldOf(input.stopAtPs);
  const cut = cutShortWarning(runWork(input, closedLoopOf(input)), field);
  if (cut !== undefined) out(`  ${cut}`);
  if (o.estimate === false) return;
  const { estimateCost, SLOW_RUN_SECS } = await import('../experiment/run/estimate-cost.js');
  const cal = await calibration(o.recalibrate);
  const e = estimateCost(input, cal);
  printRunCost(e, cal, field);
  if (e.wallSecs > SLOW_RUN_SECS) {
    out(`  warning: this run would take more than ${SLOW_RUN_SECS / 60} minutes; check durations, loads and sizes (a shorter \`duration\`, or a \`quick:\` block for trials)`);
  }
}
