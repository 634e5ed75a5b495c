/**
 * Hostile input hardening (issue 30), the remaining validation gaps: broken
 * topology files, flows that can never start, empty size bins, absurd CDF
 * sizes, a read-only sweep folder, and timers and samplers that cost more than
 * the packets. Each is checked through the `ccsim` command as a user meets it:
 * `validate` refuses with exit 2 naming the field, and `run` refuses the same
 * way before it writes anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoStack, cliRig } from './helpers/cli-rig.js';

const { dir, ccsim, write } = cliRig('hardening-gaps');

const TINY = `name: tiny
topology: { type: star, hosts: 3, rate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: flows, flows: [{ src: 0, dst: 1, size: 10KB, start: 0us }] }
`;

/** A spec over an HPCC-format topology file holding `text`. */
function onTopology(name: string, text: string, format = 'hpcc'): string {
  write(`${name}.topo`, text);
  return write(`${name}.yaml`, TINY.replace(/topology:.*\n/, `topology: { type: file, path: ${name}.topo, format: ${format} }\n`));
}

test('9. a broken topology file fails validate and run with exit 2, naming the file, its line and the nodes', () => {
  // HPCC format: "nodes switches links", the switch ids, then "src dst rate delay err" per link (line 3 on)
  const cases: [string, string, RegExp][] = [
    ['disconnected', '4 2 2\n2 3\n0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n', /disconnected\.topo: the graph is disconnected: host 1 cannot reach host 0 through any link/],
    ['nolink', '4 1 2\n3\n0 3 100Gbps 1us 0\n1 3 100Gbps 1us 0\n', /nolink\.topo: host 2 has no link \(each host needs exactly one link, to its switch\)/],
    ['duplicate', '3 1 3\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n', /duplicate\.topo:5: links host 1 to switch 2 a second time \(first at .*duplicate\.topo:4\)/],
    ['hosthost', '3 1 3\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n0 1 100Gbps 1us 0\n', /hosthost\.topo:5: links host 0 to host 1; a host connects to one switch, not to another host/],
    ['twoswitches', '4 2 4\n2 3\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n2 3 100Gbps 1us 0\n1 3 100Gbps 1us 0\n', /twoswitches\.topo:6: puts host 1 on a second switch, switch 3 \(it is on switch 2 at .*twoswitches\.topo:4\)/],
  ];
  for (const [name, text, why] of cases) {
    const spec = onTopology(name, text);
    let r = ccsim('validate', spec);
    assert.equal(r.code, 2, `${name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`topology\\.path: "${name}\\.topo" — `), name);
    assert.match(r.stderr, why, name);
    assertNoStack(r.stderr);
    // run refuses the same way, before writing anything (it used to fail while building the network)
    const out = join(dir, `out-${name}`);
    r = ccsim('run', spec, '--out', out);
    assert.equal(r.code, 2, name);
    assert.match(r.stderr, why, name);
    assert.ok(!existsSync(out), name);
  }
  // ccsim JSON: nodes are named by their names, links by links[i]
  const json = {
    nodes: [{ name: 'h0', kind: 'host' }, { name: 'h1', kind: 'host' }, { name: 'h2', kind: 'host' }, { name: 'tor', kind: 'switch' }, { name: 'tor2', kind: 'switch' }],
    links: [
      { a: 'h0', b: 'tor', rate: '100Gbps', delay: '1us' },
      { a: 'h1', b: 'tor', rate: '100Gbps', delay: '1us' },
      { a: 'h2', b: 'tor', rate: '100Gbps', delay: '1us' },
      { a: 'h2', b: 'tor2', rate: '100Gbps', delay: '1us' },
    ],
  };
  const r = ccsim('validate', onTopology('named', JSON.stringify(json), 'ccsim'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /named\.topo: links\[3\]: puts host "h2" on a second switch, switch "tor2" \(it is on switch "tor" at .*named\.topo: links\[2\]\)/);
  // what stays valid: parallel switch-switch links (routing spreads over them) and a switch without hosts
  const ok = onTopology('parallel', '5 3 4\n2 3 4\n0 2 100Gbps 1us 0\n1 3 100Gbps 1us 0\n2 3 100Gbps 1us 0\n2 3 100Gbps 1us 0\n');
  const v = ccsim('validate', ok);
  assert.equal(v.code, 0, v.stderr);
});

test('9. flows that can never start: starts after stop.maxTime (or its default), an incast stagger past stop.at', () => {
  let r = ccsim(
    'validate',
    write('late.yaml', TINY.replace('cc: none', 'cc: none\nstop: { maxTime: 1ms }').replace('start: 0us }]', 'start: 0us }, { src: 1, dst: 2, size: 10KB, start: 2ms }]')),
  );
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /workload\[0\]\.flows\[1\]\.start: "2ms" — starts at or after stop\.maxTime \(1\.000ms\): it would never run/);
  r = ccsim('validate', write('late-default.yaml', TINY.replace('start: 0us', 'start: 11s')));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /workload\[0\]\.flows\[0\]\.start: "11s" — starts at or after the default stop\.maxTime \(10\.000s\)/);
  // 8 senders 20 us apart from 10 us: the last starts at 150 us, after stop.at = 100 us
  const stagger = `name: stagger
topology: { type: star, hosts: 9, rate: 100Gbps, delay: 1us }
cc: none
stop: { at: 100us }
workload:
  - { type: incast, fanIn: 8, receiver: 0, size: 10KB, at: [10us], stagger: 20us }
`;
  r = ccsim('validate', write('stagger.yaml', stagger));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /workload\[0\]\.stagger: "20us" — sender 8 of the event \(at 10\.000us, 7 x stagger later\) starts at 150\.000us, at or after stop\.at \(100\.000us\): it would never run/);
  r = ccsim('run', write('stagger-run.yaml', stagger), '--out', join(dir, 'stagger-out'));
  assert.equal(r.code, 2);
  assert.ok(!existsSync(join(dir, 'stagger-out')));
  // the same incast with a stagger that fits is fine
  assert.equal(ccsim('validate', write('stagger-ok.yaml', stagger.replace('stagger: 20us', 'stagger: 10us'))).code, 0);
});

test('9. a metrics size bin with min >= max is an error naming it', () => {
  const r = ccsim('validate', write('bins.yaml', `${TINY}metrics: { bins: [{ min: 0, max: 10KB }, { min: 100KB, max: 10KB }] }\n`));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /metrics\.bins\[1\]\.max: "10KB" — must be above min \(100000 B\): a bin is \(min, max\], so this one \(max 10000 B\) holds no flow/);
  assert.doesNotMatch(r.stderr, /bins\[0\]/);
});

test('10. CDF sizes beyond the flow-size limit name the CDF file, its line and the value (not "produced no flows")', () => {
  write('huge.cdf', '1000 0\n5000 0.5\n1e20 1\n');
  const r = ccsim('validate', write('huge-cdf.yaml', TINY.replace(/workload:[^]*$/, 'workload:\n  - { type: poisson, cdf: huge.cdf, load: 0.5, duration: 100us }\n')));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /workload\[0\]\.cdf: "huge\.cdf" — workload ".*huge\.cdf" line 3: size "1e20" is above the largest flow size, 1 TiB \(1099511627776 bytes\)/);
  assert.doesNotMatch(r.stderr, /produced no flows/);
});

test('10. sweep --out on a read-only folder: exit 2 naming the folder and the real cause, nothing written', (t) => {
  const ro = join(dir, 'ro');
  mkdirSync(ro);
  let undo: () => void;
  if (process.getuid?.() !== 0) {
    chmodSync(ro, 0o555);
    undo = () => chmodSync(ro, 0o755);
  } else {
    // root writes through file modes: a read-only tmpfs instead, where mounting is allowed
    const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', ro], { encoding: 'utf8' });
    if (m.status !== 0) {
      t.skip('running as root where mounting is not allowed: no read-only folder to test with');
      return;
    }
    undo = () => void spawnSync('umount', [ro]);
  }
  try {
    const spec = write('ro-sweep.yaml', `${TINY}sweep:\n  seed: [1, 2]\n`);
    for (const out of [join(ro, 'new'), ro]) {
      const r = ccsim('sweep', spec, '--out', out);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`cannot write the sweep to ${out.replace(/[/.]/g, '\\$&')}: (EROFS: read-only file system|EACCES: permission denied)`));
      assert.doesNotMatch(r.stderr, /ENOENT/);
      assertNoStack(r.stderr);
    }
    assert.deepEqual(readdirSync(ro), []);
  } finally {
    undo();
  }
});

test('11. timers and samplers count in the estimate and the limits: 1 ns queue samples, 1 us deadlock checks, short RTOs', () => {
  // 1 ns queue samples on 4 ports over ~10 ms of Poisson traffic: 4 x 10^7 rows, reported
  const poisson = `name: samples
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
cc: none
stop: { at: 10ms }
workload:
  - { type: poisson, cdf: websearch, load: 0.3, duration: 10ms }
metrics:
  queues: { ports: [{ link: [4, 0] }, { link: [4, 1] }, { link: [4, 2] }, { link: [4, 3] }], interval: 1ns }
`;
  let r = ccsim('validate', write('samples.yaml', poisson));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /timers and samplers: ~[\d.]+M of those events, [34]\d\.\dM sample rows: [\d.]+M queue samples every 1\.000ns \([34]\d\.\dM rows\)/);
  // ... and refused above limits.samples, naming the interval; run writes nothing
  const lower = poisson.replace('name: samples', 'name: samples2\nlimits: { samples: 1000000 }');
  r = ccsim('validate', write('samples2.yaml', lower));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /metrics\.queues\.interval: "1ns" — every 1\.000ns writes about [34]\.\d+e7 rows of queue samples .*above limits\.samples \(1,000,000\): use a longer interval/);
  r = ccsim('run', write('samples3.yaml', lower), '--out', join(dir, 'samples-out'));
  assert.equal(r.code, 2);
  assert.ok(!existsSync(join(dir, 'samples-out')));
  // the default 1 ms interval is cheap: no timer line
  r = ccsim('validate', write('samples4.yaml', poisson.replace('interval: 1ns', 'interval: 1us')));
  assert.equal(r.code, 0);
  assert.doesNotMatch(r.stdout, /sample rows/);
  // a deadlock check every 1 us over ~1 s of traffic: 10^6 checks
  const checks = `name: checks
topology: { type: star, hosts: 8, rate: 100Gbps, delay: 1us }
cc: none
stop: { at: 1s, deadlock: { checkEvery: 1us } }
workload:
  - { type: poisson, cdf: websearch, load: 0.001, duration: 1s }
`;
  r = ccsim('validate', write('checks.yaml', checks));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /timers and samplers: .*(99\d\.\dk|1\.0M) deadlock checks every 1\.000us/);
  r = ccsim('validate', write('checks2.yaml', checks.replace('name: checks', 'name: checks2\nlimits: { timers: 100000 }')));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /stop\.deadlock\.checkEvery: "1us" — every 1\.000us over ~.* of simulated time makes about .* deadlock checks, .* above limits\.timers \(100,000\)/);
  // a 1 us retransmission timer on a flow that sends for 0.8 s fires (or re-posts) 800,000 times
  const rto = `${TINY.replace('size: 10KB', 'size: 10GB')}network: { transport: { rtoPs: 1000000 } }\nlimits: { timers: 100000 }\n`;
  r = ccsim('validate', write('rto.yaml', rto));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /network\.transport\.rtoPs: 1000000 — every 1\.000us .* makes about 800,000 retransmission-timer firings/);
});
