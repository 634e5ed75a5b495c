/**
 * validate's calibration, cached per machine (src/experiment/run/calibration-cache.ts):
 * measured once, then read back for the same ccsim, Node, platform, CPU and
 * core count; --recalibrate measures again; the cache file is ccsim's own
 * sealed record (a file it did not write is never replaced); a cache folder
 * that cannot be written never fails a command. Every test here uses a
 * scratch folder (CCSIM_CACHE_DIR), never the user's ~/.cache.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, cachedCalibration, calibrationKey, readCalibrations } from '../src/experiment/run/calibration-cache.js';
import { hasValidSeal, sealJson } from '../src/experiment/results/ownership.js';
import { CLI } from './helpers/cli.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('calibration');

/** a stand-in for the built-in measurement that counts its calls */
function counter(eventsPerSec = 1e6): { calls: number; measure: () => { eventsPerPacket: number; eventsPerSec: number } } {
  const c = {
    calls: 0,
    measure: () => {
      c.calls++;
      return { eventsPerPacket: 10, eventsPerSec };
    },
  };
  return c;
}

test('the cache folder: CCSIM_CACHE_DIR, else $XDG_CACHE_HOME/ccsim (absolute only), else ~/.cache/ccsim', () => {
  assert.equal(cacheDir({ CCSIM_CACHE_DIR: '/x/own', XDG_CACHE_HOME: '/x/xdg' }), '/x/own');
  assert.equal(cacheDir({ XDG_CACHE_HOME: '/x/xdg' }), join('/x/xdg', 'ccsim'));
  assert.match(cacheDir({ XDG_CACHE_HOME: 'relative' }) ?? '', /[\\/]\.cache[\\/]ccsim$/);
  assert.match(cacheDir({}) ?? '', /[\\/]\.cache[\\/]ccsim$/);
});

test('measured once, then read back; --recalibrate measures again; another machine key is kept beside it', async () => {
  const env = { CCSIM_CACHE_DIR: join(dir, 'a') };
  const m = counter();
  const first = await cachedCalibration({ env, measure: m.measure });
  assert.equal(m.calls, 1);
  assert.equal(first.cached, false);
  assert.equal(first.file, join(dir, 'a', 'calibration.json'));
  assert.deepEqual(first.key, calibrationKey());
  const record = JSON.parse(readFileSync(first.file, 'utf8')) as Record<string, unknown>;
  assert.ok(hasValidSeal(record), 'a sealed ccsim record');
  assert.equal(record['kind'], 'calibration');

  const second = await cachedCalibration({ env, measure: m.measure });
  assert.equal(m.calls, 1, 'not measured again');
  assert.equal(second.cached, true);
  assert.equal(second.eventsPerSec, 1e6);
  assert.equal(second.measuredAt, first.measuredAt);

  const slower = counter(5e5);
  const again = await cachedCalibration({ env, recalibrate: true, measure: slower.measure });
  assert.equal(slower.calls, 1);
  assert.equal(again.cached, false);
  assert.equal((await cachedCalibration({ env, measure: slower.measure })).eventsPerSec, 5e5, 'the new measurement replaced the old');

  // an entry of another Node version (same file) is neither used nor dropped
  const entries = readCalibrations(first.file!);
  const other = { ...entries[0]!, key: { ...entries[0]!.key, node: 'v0.0.1' }, eventsPerSec: 42 };
  writeFileSync(first.file!, JSON.stringify(sealJson({ ccsim: 'x', kind: 'calibration', entries: [other, ...entries] })));
  assert.equal((await cachedCalibration({ env, measure: slower.measure })).eventsPerSec, 5e5);
  await cachedCalibration({ env, recalibrate: true, measure: counter(7e5).measure });
  assert.deepEqual(
    readCalibrations(first.file!).map((e) => e.eventsPerSec),
    [7e5, 42],
  );
});

test('a file ccsim did not write is left alone, and a folder that cannot be written just means measuring', async () => {
  const env = { CCSIM_CACHE_DIR: join(dir, 'b') };
  await cachedCalibration({ env, measure: counter().measure });
  const file = join(dir, 'b', 'calibration.json');
  // a record ccsim wrote and someone edited no longer verifies: neither read nor replaced
  const edited = readFileSync(file, 'utf8').replace(/"eventsPerSec": [\d.e+]+/, '"eventsPerSec": 1');
  assert.notEqual(edited, readFileSync(file, 'utf8'));
  // and a file of the user's own
  for (const text of [edited, '{"note": "my own file"}\n']) {
    writeFileSync(file, text);
    const m = counter();
    assert.equal((await cachedCalibration({ env, measure: m.measure })).cached, false);
    assert.equal((await cachedCalibration({ env, measure: m.measure })).eventsPerSec, 1e6);
    assert.equal(m.calls, 2);
    assert.equal(readFileSync(file, 'utf8'), text);
  }

  // the cache "folder" is a regular file: no cache, no error
  const blocked = { CCSIM_CACHE_DIR: join(file, 'sub') };
  const b = counter();
  const r = await cachedCalibration({ env: blocked, measure: b.measure });
  assert.equal(r.cached, false);
  assert.equal(r.eventsPerSec, 1e6);
  assert.equal((await cachedCalibration({ env: blocked, measure: b.measure })).cached, false);
  assert.equal(b.calls, 2);
});

test('ccsim validate: the first estimate measures, the next reads the cache, --recalibrate measures again', () => {
  const env = { ...process.env, CCSIM_CACHE_DIR: join(dir, 'cli') };
  const spec = join(dir, 'tiny.yaml');
  writeFileSync(
    spec,
    `name: tiny
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 3, size: 64KB, receiver: 0, at: [0us] }
`,
  );
  const run = (...args: string[]): string => {
    const r = spawnSync(process.execPath, [CLI, 'validate', spec, ...args], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  assert.match(run(), /events\/s measured just now; a factor of 2 either way\)/);
  assert.match(run(), /events\/s, measured \d{4}-\d\d-\d\d and cached, --recalibrate to measure again; a factor of 2 either way\)/);
  assert.match(run('--recalibrate'), /measured just now/);
  assert.equal(readCalibrations(join(dir, 'cli', 'calibration.json')).length, 1);
  // a folder where the cache cannot go: validate still estimates
  const blocked = spawnSync(process.execPath, [CLI, 'validate', spec], { encoding: 'utf8', env: { ...env, CCSIM_CACHE_DIR: join(spec, 'no') } });
  assert.equal(blocked.status, 0, blocked.stderr);
  assert.match(blocked.stdout, /measured just now/);
});
