/** `ccsim run` and `ccsim validate`: they load the spec and simulator modules only. */
import { loadAndResolve, readSpecFile } from '../experiment/resolve.js';
import { planSweep } from '../experiment/sweep.js';
import { runExperiment } from '../experiment/runner.js';
import { fmtInt, out, plural, printRunSummary } from './format.js';

/** Does the spec file have a `sweep:` block? (false when it cannot be read: the command reports that) */
function isSweepFile(path: string): boolean {
  let raw: unknown;
  try {
    raw = readSpecFile(path);
  } catch {
    return false;
  }
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'sweep' in raw;
}

export async function runCommand(spec: string, o: { out?: string; seed?: number; quiet?: boolean; quick?: boolean }): Promise<void> {
  const quiet = o.quiet === true;
  const r = await runExperiment(spec, {
    ...(o.out !== undefined ? { out: o.out } : {}),
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    quick: o.quick === true,
    quiet,
    progress: !quiet && process.stderr.isTTY === true && !process.env['CI'],
  });
  if (!quiet) printRunSummary(r, r.input.cc.name);
}

export async function validateCommand(spec: string, o: { seed?: number; quick?: boolean }): Promise<void> {
  if (isSweepFile(spec)) {
    await import('../../experiments/index.js');
    const plan = planSweep(spec, { quick: o.quick === true });
    const flows = plan.points.reduce((a, p) => a + p.flows, 0);
    out(`ok: ${plan.name}: sweep of ${plan.points.length} points over ${plan.fields.map((f) => f.path).join(', ')} (${fmtInt(flows)} flows in all)`);
    return;
  }
  const { loaded, input } = loadAndResolve(spec, o.seed !== undefined ? { seed: o.seed } : {}, { quick: o.quick === true });
  const hosts = input.topology.hostCount;
  const switches = input.topology.nodes.length - hosts;
  out(`ok: ${loaded.spec.name}: ${plural(hosts, 'host')}, ${plural(switches, 'switch', 'switches')}, ${plural(input.flows.length, 'flow')}, cc ${input.cc.name}`);
}
