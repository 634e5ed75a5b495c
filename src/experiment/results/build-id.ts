/**
 * The build a run ran on (issue 40: every recorded claim names it). In a git checkout it is
 * the commit of ccsim's package root, with `+dirty` when the model or the experiments
 * (`src/`, `experiments/`, `data/workloads`, `data/models`) differ from that commit; outside
 * git (an installed package) it is `v<version>`. Found once per process (one `git` call).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, packageVersion } from '../../workload/package-root.js';

let cached: string | undefined;

const MODEL_PATHS = ['src', 'experiments', 'data/workloads', 'data/models'];

function git(args: readonly string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', packageRoot(), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch {
    return undefined;
  }
}

/** `<12-hex commit>[+dirty]`, or `v<version>` when ccsim does not run from a git checkout. */
export function buildId(): string {
  if (cached !== undefined) return cached;
  const env = process.env['CCSIM_BUILD'];
  if (env !== undefined && /^[0-9a-f]{7,40}(\+dirty)?$/.test(env)) return (cached = env);
  const head = git(['rev-parse', '--short=12', 'HEAD']);
  if (head === undefined || !/^[0-9a-f]{7,40}$/.test(head)) return (cached = `v${packageVersion()}`);
  const status = git(['status', '--porcelain', '--untracked-files=no', '--', ...MODEL_PATHS]);
  return (cached = status === undefined || status === '' ? head : `${head}+dirty`);
}

/** The model file of the package: the canary outputs and their fingerprint (report/provenance.ts). */
export function modelFilePath(): string {
  return join(packageRoot(), 'data', 'measured', 'model.json');
}

let model: { fingerprint: string | undefined } | undefined;

/**
 * The fingerprint of the model this build simulates (data/measured/model.json, renewed by
 * `ccsim canary --update` when a model change moves a canary output), undefined when the
 * package has none. Read once per process; every run's manifest records it.
 */
export function currentModel(): string | undefined {
  if (model !== undefined) return model.fingerprint;
  let fingerprint: string | undefined;
  try {
    const f = modelFilePath();
    if (existsSync(f)) {
      const v = (JSON.parse(readFileSync(f, 'utf8')) as { fingerprint?: unknown }).fingerprint;
      if (typeof v === 'string' && /^[0-9a-f]{16}$/.test(v)) fingerprint = v;
    }
  } catch {
    // an unreadable model file: no fingerprint
  }
  model = { fingerprint };
  return fingerprint;
}

/** Forget the cached fingerprint (after `ccsim canary --update` wrote a new one). */
export function resetModelCache(): void {
  model = undefined;
}
