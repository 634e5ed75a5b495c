/**
 * A CC's hold deadline is rounded up to whole picoseconds (src/transport/flow.ts, setHold). ACC's
 * source halt (ACC §4.2, Alg. 1: t_Halt = excess / R) is a float; before the rounding, a
 * fractional deadline made the NIC wake at its floor, find the flow not yet ready and re-arm for
 * the same instant, for ever: ACC Fig. 19's reduced grid with P_thresh 0
 * (experiments/acc/fig19-pthresh.yaml, point 0, seed 1) stopped advancing at 1.588 ms. The run
 * goes through the CLI in a child process with a time limit, so that a livelock fails the test
 * instead of hanging the suite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from './helpers/cli.js';
import { tempDir } from './helpers/tmp.js';

const SPEC = `name: hold-integer
profile: acc
seed: 1
topology: { type: fatTree, pods: 2, edgesPerPod: 2, aggsPerPod: 2, hostsPerEdge: 8, cores: 2, hostRate: 100Gbps, fabricRate: 400Gbps, delay: 1us }
cc: { name: acc, params: { pThresh: 0 } }
workload:
  - { type: poisson, cdf: websearch, load: 0.6, duration: 5ms }
  - { type: incast, fanIn: 31, size: 50KB, load: 0.2, duration: 5ms }
stop: { maxTime: 1650us }
`;

test('ACC with P_thresh 0 on the Fig. 19 grid runs past the instant where a fractional halt deadline used to livelock the NIC', () => {
  const dir = tempDir('hold-integer');
  writeFileSync(join(dir, 'spec.yaml'), SPEC);
  const r = spawnSync(process.execPath, [CLI, 'run', 'spec.yaml', '-o', 'out', '-q'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, CI: '1' } });
  assert.equal(r.signal, null, 'the run ended by itself (a livelock is killed after 60 s)');
  assert.equal(r.status, 0, r.stderr);
  const fct = readFileSync(join(dir, 'out', 'fct.csv'), 'utf8').trim().split('\n');
  const col = fct[0]!.split(',').indexOf('finish_ps');
  assert.ok(col >= 0, `fct.csv header: ${fct[0]}`);
  assert.ok(fct.slice(1).some((l) => Number(l.split(',')[col]) > 1588e6), 'flows finish after the old stall (1.588 ms)');
});
