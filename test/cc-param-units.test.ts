/**
 * CC parameters whose key names the unit (`rateAiBps`, `targetQueueBytes`,
 * `tauNs`, `qBUs`, ...; docs/extending.md "Parameters"): a number in that
 * unit or a string with units, converted to the key's unit, and range-checked
 * like the spec's other rates, sizes and durations, with an error that names
 * the field and the bound.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ccDefinitions } from '../src/cc/registry.js';
import { parseSpec } from '../src/experiment/spec/resolve.js';
import { SpecError } from '../src/engine/errors.js';
import { tempDir } from './helpers/tmp.js';
import { CLI } from './helpers/cli.js';

const dir = tempDir('cc-param-units');

function params(cc: string, p: Record<string, unknown>): Record<string, unknown> {
  const spec = parseSpec({
    name: 't',
    topology: { type: 'star', hosts: 4, rate: '100Gbps', delay: '1us' },
    cc: { name: cc, params: p },
    workload: [{ type: 'incast', fanIn: 3, size: '64KB', receiver: 0, at: [0] }],
  });
  return spec.cc.params;
}

function issues(cc: string, p: Record<string, unknown>): string[] {
  try {
    params(cc, p);
  } catch (e) {
    if (e instanceof SpecError) return e.issues.map((i) => `${i.path}: ${i.message}`);
    throw e;
  }
  return [];
}

test('unit strings convert to the unit the key names; numbers keep meaning that unit', () => {
  const o = params('oscar', { targetQueueBytes: '100KB', tauNs: '5us', hysteresisNs: '500ns', epsilonNs: 1000 });
  assert.equal(o['targetQueueBytes'], 100_000);
  assert.equal(o['tauNs'], 5000);
  assert.equal(o['hysteresisNs'], 500);
  assert.equal(o['epsilonNs'], 1000);
  const d = params('dcqcn', { rateAiBps: '40Mbps', minRateBps: 1e8, alphaIntervalPs: '55us' });
  assert.equal(d['rateAiBps'], 40e6);
  assert.equal(d['minRateBps'], 1e8);
  assert.equal(d['alphaIntervalPs'], 55e6);
  const c = params('ccc', { qBUs: '20us' });
  assert.equal(c['qBUs'], 20);
  assert.equal(params('sqcc', { segBytes: '62500B' })['segBytes'], 62_500);
});

test('out of range: a rate above any link, a size above any buffer, a time above a second; named with the bound', () => {
  assert.deepEqual(issues('dcqcn', { rateAiBps: 1e15 }), ['cc.params.rateAiBps: must be <= 1e14 bps (100 Tbps, the fastest link a spec may have)']);
  assert.deepEqual(issues('oscar', { targetQueueBytes: 1e11 }), ['cc.params.targetQueueBytes: must be <= 4294967296 bytes (4 GiB, more than any switch buffer)']);
  assert.deepEqual(issues('oscar', { targetQueueBytes: '100GB' }), ['cc.params.targetQueueBytes: must be <= 4294967296 bytes (4 GiB, more than any switch buffer)']);
  assert.deepEqual(issues('oscar', { tauNs: 5e9 }), ['cc.params.tauNs: must be <= 1000000000 ns (1 s: longer is not a datacenter time scale)']);
  assert.deepEqual(issues('hpcc', { minRateBps: 0 }), ['cc.params.minRateBps: must be > 0']);
  assert.deepEqual(issues('hpcc', { rateAiBps: -1 }), ['cc.params.rateAiBps: must be >= 0']);
  assert.deepEqual(issues('sqcc', { segBytes: 1.5 }), ['cc.params.segBytes: must be a whole number']);
  assert.match(issues('swift', { baseTargetPs: '5 parsecs' })[0]!, /^cc\.params\.baseTargetPs: /);
});

test('every CC parameter whose key ends in a unit takes a unit string', () => {
  const probe: Record<string, string> = { Bps: '1Gbps', Bytes: '1000B', Ps: '10us', Ns: '10us', Us: '10us' };
  let checked = 0;
  for (const cc of ccDefinitions()) {
    const shape = (cc.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    for (const key of Object.keys(shape)) {
      const unit = /(Bps|Bytes|Ps|Ns|Us)$/.exec(key)?.[1];
      // an enum that names bytes (acc's ackRateBytes: wire | payload) or a list (homa's cutoffs) is not a quantity
      if (unit === undefined || key === 'ackRateBytes' || key === 'unscheduledCutoffsBytes') continue;
      const r = cc.params.safeParse({ [key]: probe[unit] });
      assert.ok(r.success, `${cc.name}.${key}: ${probe[unit]} refused: ${r.success ? '' : r.error.message}`);
      checked++;
    }
  }
  assert.ok(checked >= 40, `${checked} parameters`);
});

test('validate: exit 2 naming the field, no stack trace', () => {
  const spec = join(dir, 'bad.yaml');
  writeFileSync(
    spec,
    `name: bad
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
cc: { name: dcqcn, params: { rateAiBps: 1e15 } }
workload:
  - { type: incast, fanIn: 3, size: 64KB, receiver: 0, at: [0us] }
`,
  );
  const r = spawnSync(process.execPath, [CLI, 'validate', '--no-estimate', spec], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /cc\.params\.rateAiBps: 1000000000000000 — must be <= 1e14 bps/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});
