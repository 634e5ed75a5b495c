/**
 * Sweeps on Slurm, against a real single-node cluster (Debian slurm-wlm +
 * munge) that scripts/slurm-local.sh configures in a scratch folder and this
 * test starts and stops: submission as one job array, a failing point, status
 * while running and after, resubmission of only the unfinished points.
 *
 * .ci/run installs the packages; the cluster test is skipped with a message
 * only when they are absent outside CI. The bad-input cases need no Slurm.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arrayRanges } from '../src/experiment/run/slurm.js';
import { sealJson } from '../src/experiment/results/ownership.js';
import { tempDir } from './helpers/tmp.js';
import { star9Incast } from './helpers/specs.js';
import { CLI } from './helpers/cli.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/slurm-local.sh', import.meta.url));
const dir = tempDir('slurm-test');

const SPEC = `${star9Incast('sl')}sweep:
  cc: [hpcc, dcqcn, none]
`;

function ccsim(env: NodeJS.ProcessEnv, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('array ranges for sbatch --array', () => {
  assert.equal(arrayRanges([0, 1, 2, 5, 7, 8]), '0-2,5,7-8');
  assert.equal(arrayRanges([3]), '3');
  assert.equal(arrayRanges([9, 1, 2]), '1-2,9');
});

test('--slurm without sbatch on the PATH, and other bad input: clear errors, nothing written', () => {
  const spec = join(dir, 'nos.yaml');
  writeFileSync(spec, SPEC);
  const out = join(dir, 'nosbatch');
  const r = ccsim({ PATH: '/nonexistent' }, 'sweep', spec, '--slurm', '--out', out);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /--slurm: sbatch is not on the PATH .*nothing was submitted/);
  assert.ok(!existsSync(out));
  const r2 = ccsim({}, 'sweep', spec, '--partition', 'x');
  assert.equal(r2.code, 2);
  assert.match(r2.stderr, /--partition needs --slurm/);
  const r3 = ccsim({}, 'sweep', '--status', join(dir, 'nothing-here'));
  assert.equal(r3.code, 2);
  assert.match(r3.stderr, /not a sweep folder: .* has no sweep\.json/);
  const r4 = ccsim({}, 'sweep', spec, '--point', '7', '--out', join(dir, 'pt'));
  assert.equal(r4.code, 2);
  assert.match(r4.stderr, /point 7 does not exist \(the sweep has points 0\.\.2\)/);
});

const HAVE_SLURM = ['/usr/sbin/slurmctld', '/usr/sbin/slurmd', '/usr/sbin/munged', '/usr/bin/sbatch'].every((p) => existsSync(p));

test('a sweep as a Slurm job array on a real single-node cluster: a failing point, status, resubmission', async (t) => {
  if (!HAVE_SLURM) {
    if (process.env['CI']) assert.fail('Slurm is missing in CI: .ci/run must install the Debian packages slurm-wlm and munge');
    t.skip('slurm-wlm / munge not installed (apt-get install slurm-wlm munge); the cluster test runs in CI');
    return;
  }
  const state = join(dir, 'cluster');
  after(() => {
    spawnSync('bash', [SCRIPT, 'stop', state], { encoding: 'utf8' });
  });
  const up = spawnSync('bash', [SCRIPT, 'start', state], { encoding: 'utf8' });
  assert.equal(up.status, 0, `slurm did not start:\n${up.stdout}\n${up.stderr}`);
  const env = { SLURM_CONF: join(state, 'slurm.conf') };

  const spec = join(dir, 'sl.yaml');
  writeFileSync(spec, SPEC);
  const out = join(dir, 'sl-out');
  // a folder ccsim did not write blocks the dcqcn point: that task fails, the others finish
  mkdirSync(join(out, 'points', 'cc=dcqcn'), { recursive: true });
  // the sweep.json of an earlier ccsim sweep there (sealed, so ccsim recognises it as its own)
  writeFileSync(join(out, 'sweep.json'), JSON.stringify(sealJson({ ccsim: '0.0.0', kind: 'sweep', name: 'earlier', points: [] }), null, 2) + '\n');
  writeFileSync(join(out, 'points', 'cc=dcqcn', 'mine.txt'), 'mine');

  const sub = ccsim(env, 'sweep', spec, '--slurm', '--out', out, '--time', '5:00', '--mem', '1G');
  assert.equal(sub.code, 0, sub.stderr);
  assert.match(sub.stdout, /^submitted job array \d+: 3 points; script /);
  const script = readFileSync(join(out, 'slurm', 'job.sh'), 'utf8');
  assert.match(script, /#SBATCH --array=0-2\n/);
  assert.match(script, /#SBATCH --time=5:00\n#SBATCH --mem=1G\n/);
  assert.match(script, /sweep '.*sl\.yaml' --out '.*sl-out' --point "\$SLURM_ARRAY_TASK_ID"/);

  const waitIdle = async (): Promise<string> => {
    let last = '';
    for (let i = 0; i < 240; i++) {
      const st = ccsim(env, 'sweep', '--status', out);
      assert.equal(st.code, 0, st.stderr);
      last = st.stdout;
      if (/ 0 running, 0 queued/.test(last)) return last;
      await new Promise((r) => setTimeout(r, 500));
    }
    assert.fail(`the job array did not finish:\n${last}`);
  };
  const st = await waitIdle();
  assert.match(st, /3 points: 2 done, 0 running, 0 queued, 1 failed, 0 not started/);
  assert.match(st, /failed: point 1 \(cc=dcqcn\): cannot write results to .*not a ccsim result/);
  assert.ok(existsSync(join(out, 'points', 'cc=hpcc', 'manifest.json')));
  assert.equal(readFileSync(join(out, 'points', 'cc=dcqcn', 'mine.txt'), 'utf8'), 'mine');
  assert.ok(!existsSync(join(out, 'flows.parquet')), 'the folder is completed only when every point is done');
  // the task's log is where Slurm was told to put it
  assert.ok(readFileSync(join(out, 'slurm', `${/array (\d+)/.exec(sub.stdout)![1]}_0.out`), 'utf8').includes('point 0: done'));

  // the user moves their folder away and resubmits: only the failed point goes out
  rmSync(join(out, 'points', 'cc=dcqcn'), { recursive: true });
  const sub2 = ccsim(env, 'sweep', spec, '--slurm', '--out', out);
  assert.equal(sub2.code, 0, sub2.stderr);
  assert.match(sub2.stdout, /submitted job array \d+: 1 point \(2 already finished\)/);
  assert.match(readFileSync(join(out, 'slurm', 'job.sh'), 'utf8'), /#SBATCH --array=1\n/);
  const st2 = await waitIdle();
  assert.match(st2, /3 points: 3 done, 0 running, 0 queued, 0 failed, 0 not started/);
  assert.match(st2, /all points done: wrote points\.csv, flows\.parquet/);
  assert.ok(existsSync(join(out, 'flows.parquet')));
  assert.equal(ccsim(env, 'sweep', spec, '--slurm', '--out', out).stdout.trim(), `nothing to submit: all 3 points are finished (${out})`);
});
