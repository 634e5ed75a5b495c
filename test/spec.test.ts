import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecError } from '../src/engine/errors.js';
import { loadAndResolve, loadSpec, parseSpec, resolveSpec } from '../src/experiment/spec/resolve.js';
import type { SimInput } from '../src/sim/types.js';
import { MIB, MS, SEC, US } from '../src/engine/units.js';
import { profileDefaults } from '../src/net/config.js';
import { tempDir } from './helpers/tmp.js';

const dir = tempDir('spec-test');
let counter = 0;

function specFile(text: string, ext = 'yaml'): string {
  const p = join(dir, `spec${counter++}.${ext}`);
  writeFileSync(p, text);
  return p;
}

const STAR = `
topology: { type: star, hosts: 17, rate: 100Gbps, delay: 1us }
`;

/** Loads and resolves; returns the SpecError text (fails if none is thrown). */
function specErrorText(text: string, ext = 'yaml'): string {
  const p = specFile(text, ext);
  try {
    loadAndResolve(p);
  } catch (e) {
    assert.ok(e instanceof SpecError, `expected a SpecError, got ${String(e)}`);
    return e.message;
  }
  assert.fail('expected a SpecError');
}

function resolveText(text: string, ext = 'yaml', seed?: number): SimInput {
  return loadAndResolve(specFile(text, ext), seed === undefined ? {} : { seed }).input;
}

const FLOW = `
workload:
  - type: flows
    flows: [{ src: 0, dst: 16, size: 1MB }]
`;

test('unknown CC names the field and the value', () => {
  const t = specErrorText(`name: x\n${STAR}cc: foo\n${FLOW}`);
  assert.match(t, /^cc: "foo" — unknown congestion control \(known: .*none/m);
  const t2 = specErrorText(`name: x\n${STAR}cc: { name: foo }\n${FLOW}`);
  assert.match(t2, /^cc\.name: "foo" — unknown congestion control/m);
});

test('CC params are validated against the CC schema (strict)', () => {
  const t = specErrorText(`name: x\n${STAR}cc: { name: none, params: { window: huge, bogus: 1 } }\n${FLOW}`);
  assert.match(t, /^cc\.params\.window: "huge" — must be one of bdp, none$/m);
  assert.match(t, /^cc\.params\.bogus: 1 — unknown key$/m);
});

test('negative rate', () => {
  const t = specErrorText(`name: x\ntopology: { type: star, hosts: 17, rate: -5, delay: 1us }\ncc: none\n${FLOW}`);
  assert.match(t, /^topology\.rate: -5 — must be > 0$/m);
});

test('bad unit strings name the field', () => {
  const t = specErrorText(`name: x\ntopology: { type: star, hosts: 17, rate: fast, delay: 1 parsec }\ncc: none\n${FLOW}`);
  assert.match(t, /^topology\.rate: "fast" — not a rate/m);
  assert.match(t, /^topology\.delay: "1 parsec" — not a duration/m);
});

test('missing workload file', () => {
  const t = specErrorText(`name: x\n${STAR}cc: none\nworkload:\n  - { type: poisson, cdf: nope.txt, load: 0.5, duration: 1ms }\n`);
  assert.match(t, /^workload\[0\]\.cdf: "nope\.txt" — workload file not found/m);
});

test('load > 1', () => {
  const t = specErrorText(`name: x\n${STAR}cc: none\nworkload:\n  - { type: poisson, cdf: hadoop, load: 1.5, duration: 1ms }\n`);
  assert.match(t, /^workload\[0\]\.load: 1\.5 — must be <= 1$/m);
});

test('offered load summed over workload entries must not exceed 1', () => {
  const t = specErrorText(
    `name: x\n${STAR}cc: none\nworkload:\n` +
      `  - { type: poisson, cdf: hadoop, load: 0.7, duration: 1ms }\n` +
      `  - { type: incast, fanIn: 4, size: 20KB, load: 0.4, duration: 1ms }\n`,
  );
  assert.match(t, /^workload: offered load at host \d+ adds up to 1\.1 .*must be <= 1$/m);
});

test('unknown keys are errors, at every level', () => {
  const t = specErrorText(
    `name: x\nbogus: 1\ntopology: { type: star, hosts: 17, rate: 100G, delay: 1us, foo: 3 }\ncc: none\n` +
      `network: { switch: { bufferBytes: 32MiB, nope: 1 } }\n${FLOW}`,
  );
  assert.match(t, /^bogus: 1 — unknown key$/m);
  assert.match(t, /^topology\.foo: 3 — unknown key$/m);
  assert.match(t, /^network\.switch\.nope: 1 — unknown key$/m);
});

test('bad host ids, ports and links are reported against the built topology', () => {
  const t = specErrorText(
    `name: x\n${STAR}cc: none\nworkload:\n  - type: flows\n    flows: [{ src: 0, dst: 99, size: 1MB }, { src: 3, dst: 3, size: 1B }]\n` +
      `  - { type: poisson, cdf: hadoop, load: 0.1, duration: 1ms, hosts: [0, 17] }\n` +
      `metrics:\n  queues: { ports: [{ node: 17, port: 17 }, { link: [0, 1] }] }\n` +
      `events:\n  - { at: 1us, link: [0, 5], rate: 0 }\n`,
  );
  assert.match(t, /^workload\[0\]\.flows\[0\]\.dst: 99 — not a host \(hosts are 0\.\.16\)$/m);
  assert.match(t, /^workload\[0\]\.flows\[1\]\.dst: 3 — same host as src$/m);
  assert.match(t, /^workload\[1\]\.hosts\[1\]: 17 — not a host/m);
  assert.match(t, /^metrics\.queues\.ports\[0\]\.port: 17 — node 17 has 17 ports/m);
  assert.match(t, /^metrics\.queues\.ports\[1\]\.link: \[0,1\] — nodes 0 and 1 are not connected$/m);
  assert.match(t, /^events\[0\]\.link: \[0,5\] — nodes 0 and 5 are not connected$/m);
});

test('missing and mistyped fields, bad discriminators', () => {
  const t = specErrorText(`topology: { type: ring }\ncc: none\nworkload: []\nseed: -1\n`);
  assert.match(t, /^name: \(missing\) — required/m);
  assert.match(t, /^topology\.type: "ring" — must be one of star, dumbbell/m);
  assert.match(t, /^workload: \[\] — must have at least 1 item$/m);
  assert.match(t, /^seed: -1 — must be >= 0$/m);
});

test('incast needs exactly one way to place events', () => {
  const t = specErrorText(`name: x\n${STAR}cc: none\nworkload:\n  - { type: incast, fanIn: 4, size: 1MB, at: [0], load: 0.1 }\n`);
  assert.match(t, /^workload\[0\]\.load: 0\.1 — conflicts with `at`/m);
  assert.match(t, /^workload\[0\]\.duration: \(missing\) — required with `load` or `eventRate`$/m);
});

test('YAML syntax errors carry the line', () => {
  const t = specErrorText(`name: x\ntopology: { type: star, hosts: 4\ncc: none\n`);
  assert.match(t, /^line \d+, column \d+: invalid YAML/m);
});

test('JSON syntax errors carry the line', () => {
  const t = specErrorText(`{\n  "name": "x",\n}\n`, 'json');
  assert.match(t, /^line 3, column \d+: invalid JSON/m);
});

test('a missing spec file is a clear error', () => {
  assert.throws(() => loadSpec(join(dir, 'does-not-exist.yaml')), /spec file not found: .*does-not-exist\.yaml/);
});

test('valid spec: units converted, defaults applied', () => {
  const input = resolveText(
    `name: ok\n${STAR}cc: none\n` +
      `network:\n  switch: { bufferBytes: 16MiB, pfcEnabled: false, ecn: { kminBytes: 100KB, kmaxBytes: 400000 } }\n` +
      `  transport: { nackIntervalPs: 100us, rtoPs: 5000000 }\n` +
      `workload:\n  - type: flows\n    flows:\n` +
      `      - { src: 0, dst: 16, size: 1MB, start: 2us, tag: a }\n` +
      `      - { src: 1, dst: 16, size: 1500B, start: 1000ns, prio: 3 }\n` +
      `events:\n  - { at: 300us, link: [16, 17], rate: 50Gbps }\n` +
      `metrics:\n  queues: { ports: [{ link: [17, 16] }, { node: 17, port: 3 }] }\n  flowThroughput: { flows: [0, 1] }\n` +
      `stop: { at: 20ms }\n`,
  );
  assert.equal(input.seed, 1);
  assert.equal(input.topology.hostCount, 17);
  assert.equal(input.topology.nodes.length, 18);
  assert.equal(input.topology.links[0]!.rateBps, 100e9);
  assert.equal(input.topology.links[0]!.delayPs, US);
  assert.deepEqual(input.cc, { name: 'none', params: { window: 'none', windowBdpMultiple: 1 } });
  // flows sorted by start: the 1 us flow first
  assert.deepEqual(input.flows, [
    { src: 1, dst: 16, bytes: 1500, startPs: US, prio: 3 },
    { src: 0, dst: 16, bytes: 1_000_000, startPs: 2 * US, tag: 'a' },
  ]);
  assert.equal(input.net.profile, 'oscar');
  assert.equal(input.net.switch.bufferBytes, 16 * MIB);
  assert.equal(input.net.switch.pfcEnabled, false);
  assert.equal(input.net.switch.ecn.kminBytes, 100_000);
  assert.equal(input.net.switch.ecn.kmaxBytes, 400_000);
  assert.equal(input.net.switch.ecn.pmax, profileDefaults('oscar').switch.ecn.pmax);
  assert.equal(input.net.transport.nackIntervalPs, 100 * US);
  assert.equal(input.net.transport.rtoPs, 5_000_000);
  assert.deepEqual(input.linkEvents, [{ atPs: 300 * US, a: 16, b: 17, rateBps: 50e9 }]);
  // port 16 of the switch (node 17) faces host 16
  assert.deepEqual(input.metrics.queuePorts, [
    { node: 17, port: 16 },
    { node: 17, port: 3 },
  ]);
  assert.equal(input.metrics.queueIntervalPs, US);
  assert.deepEqual(input.metrics.throughputPorts, []);
  assert.deepEqual(input.metrics.flowThroughput, [0, 1]);
  assert.equal(input.stopAtPs, 20 * MS);
});

test('defaults: seed 1, oscar profile, run until done with a 10 s cap, csv', () => {
  const p = specFile(`name: d\n${STAR}cc: none\n${FLOW}`);
  const { spec } = loadSpec(p);
  assert.equal(spec.seed, 1);
  assert.equal(spec.profile, 'oscar');
  assert.equal(spec.output.format, 'csv');
  const input = resolveSpec(spec, dir);
  assert.equal(input.stopAtPs, null);
  assert.equal(input.maxTimePs, 10 * SEC);
  assert.equal(input.metrics.flowThroughput, null);
  assert.deepEqual(input.net, profileDefaults('oscar'));
});

test('hpcc profile', () => {
  const input = resolveText(`name: h\nprofile: hpcc\n${STAR}cc: none\n${FLOW}`);
  assert.deepEqual(input.net, profileDefaults('hpcc'));
});

test('YAML and JSON specs load to the same SimInput', () => {
  const yaml = resolveText(`name: same\n${STAR}cc: none\nworkload:\n  - { type: poisson, cdf: hadoop, load: 0.3, duration: 200us }\n`);
  const json = resolveText(
    JSON.stringify({
      name: 'same',
      topology: { type: 'star', hosts: 17, rate: '100Gbps', delay: '1us' },
      cc: 'none',
      workload: [{ type: 'poisson', cdf: 'hadoop', load: 0.3, duration: '0.2ms' }],
    }),
    'json',
  );
  assert.deepEqual(json, yaml);
  assert.ok(yaml.flows.length > 0);
});

test('poisson: flow count matches the load; deterministic; seed changes it', () => {
  const text = `name: p\n${STAR}cc: none\nworkload:\n  - { type: poisson, cdf: hadoop, load: 0.5, duration: 1ms }\n`;
  const a = resolveText(text);
  const b = resolveText(text);
  assert.deepEqual(a.flows, b.flows);
  // 17 hosts × 1 ms × 0.5 × 100 Gbps / (8 × mean 120421 B) ≈ 882 flows
  const expected = (17 * 1e-3 * 0.5 * 100e9) / (8 * 120421);
  assert.ok(Math.abs(a.flows.length - expected) < 0.15 * expected, `got ${a.flows.length}, expected about ${expected}`);
  for (const f of a.flows) {
    assert.ok(f.src !== f.dst && f.startPs >= 0 && f.startPs < MS && f.bytes >= 1);
    assert.equal(f.tag, 'background');
  }
  for (let i = 1; i < a.flows.length; i++) assert.ok(a.flows[i]!.startPs >= a.flows[i - 1]!.startPs);
  const c = resolveText(text, 'yaml', 2);
  assert.notDeepEqual(c.flows, a.flows);
  assert.equal(c.seed, 2);
});

test('workload entries draw independent random streams', () => {
  const one = `name: w\n${STAR}cc: none\nworkload:\n  - { type: poisson, cdf: hadoop, load: 0.3, duration: 500us }\n`;
  const two = one + `  - { type: incast, fanIn: 8, size: 20KB, load: 0.1, duration: 500us }\n`;
  const a = resolveText(one).flows;
  const b = resolveText(two).flows;
  assert.deepEqual(
    b.filter((f) => f.tag === 'background'),
    a,
  );
  const incast = b.filter((f) => f.tag === 'incast');
  assert.ok(incast.length > 0 && incast.length % 8 === 0);
  assert.ok(incast.every((f) => f.bytes === 20_000));
});

test('incast with explicit times, receiver and stagger', () => {
  const input = resolveText(
    `name: i\n${STAR}cc: none\nworkload:\n  - { type: incast, fanIn: 16, size: 1MB, receiver: 16, at: [0, 1ms], stagger: 10ns }\n`,
  );
  assert.equal(input.flows.length, 32);
  assert.ok(input.flows.every((f) => f.dst === 16 && f.src !== 16 && f.tag === 'incast'));
  const starts = [...new Set(input.flows.map((f) => f.startPs))].sort((x, y) => x - y);
  assert.equal(starts[0], 0);
  assert.equal(starts[15], 150_000);
  assert.equal(starts[16], MS);
});

test('fat-tree preset, spine-leaf and dumbbell build', () => {
  const ft = resolveText(`name: f\ntopology: { type: fatTree, preset: oscar320 }\ncc: none\n${FLOW}`);
  assert.equal(ft.topology.hostCount, 320);
  assert.equal(ft.topology.nodes.length, 376);
  assert.equal(ft.topology.links.length, 480);
  const ov = resolveText(`name: f\ntopology: { type: fatTree, preset: oscar320, aggCoreRate: 200G }\ncc: none\n${FLOW}`);
  assert.equal(ov.topology.links.at(-1)!.rateBps, 200e9);
  const sl = resolveText(
    `name: s\ntopology: { type: spineLeaf, spines: 2, leaves: 4, hostsPerLeaf: 5, hostRate: 25G, fabricRate: 100G, delay: 1us }\ncc: none\n${FLOW}`,
  );
  assert.equal(sl.topology.hostCount, 20);
  const db = resolveText(
    `name: db\ntopology: { type: dumbbell, left: 4, right: 1, hostRate: 10G, delay: 1us }\ncc: none\n` +
      `workload:\n  - type: flows\n    flows: [{ src: 0, dst: 4, size: 1MB }]\n`,
  );
  assert.equal(db.topology.links.at(-1)!.rateBps, 10e9);
});

test('a topology file is resolved relative to the spec', () => {
  const sub = mkdtempSync(join(dir, 'topo-'));
  writeFileSync(join(sub, 'line.txt'), '3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n');
  const p = join(sub, 'spec.yaml');
  writeFileSync(
    p,
    `name: file\ntopology: { type: file, path: line.txt, format: hpcc }\ncc: none\nworkload:\n  - type: flows\n    flows: [{ src: 0, dst: 1, size: 1000B }]\n`,
  );
  const { input } = loadAndResolve(p);
  assert.equal(input.topology.hostCount, 2);
  assert.equal(input.topology.links.length, 2);
  const bad = join(sub, 'bad.yaml');
  writeFileSync(
    bad,
    `name: file\ntopology: { type: file, path: missing.txt, format: hpcc }\ncc: none\nworkload:\n  - type: flows\n    flows: [{ src: 0, dst: 1, size: 1000B }]\n`,
  );
  assert.throws(
    () => loadAndResolve(bad),
    (e: unknown) => e instanceof SpecError && /^topology\.path: "missing\.txt" — topology file not found/m.test(e.message),
  );
});

test('parseSpec reports every problem at once', () => {
  try {
    parseSpec({ name: 'x', topology: { type: 'star', hosts: 0, rate: 0, delay: -1 }, cc: 'none', workload: [] });
    assert.fail('expected a SpecError');
  } catch (e) {
    assert.ok(e instanceof SpecError);
    const paths = e.issues.map((i) => i.path);
    assert.deepEqual(paths, ['topology.hosts', 'topology.rate', 'topology.delay', 'workload']);
    assert.deepEqual(
      e.issues.map((i) => i.value),
      [0, 0, -1, []],
    );
  }
});

test('every network field has its own rule: integers, ranges, units', () => {
  const base = {
    name: 'net-rules',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    cc: 'none',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1MB' }] }],
  };
  const bad = (network: unknown, path: RegExp, msg: RegExp): void => {
    assert.throws(
      () => parseSpec({ ...base, network }),
      (e: unknown) => e instanceof SpecError && e.issues.some((i) => path.test(i.path) && msg.test(i.message)),
      JSON.stringify(network),
    );
  };
  bad({ transport: { ackEvery: 0.5 } }, /^network\.transport\.ackEvery$/, /integer/);
  bad({ transport: { ackEvery: 0 } }, /^network\.transport\.ackEvery$/, />= 1/);
  bad({ switch: { dtShift: -3 } }, /^network\.switch\.dtShift$/, />= 0/);
  bad({ switch: { dtShift: 2.5 } }, /^network\.switch\.dtShift$/, /integer/);
  bad({ switch: { headroomRttMultiplier: -1 } }, /^network\.switch\.headroomRttMultiplier$/, />= 0/);
  bad({ switch: { bufferCompensationLosslessQueues: 9 } }, /bufferCompensationLosslessQueues$/, /<= 8/);
  bad({ switch: { ecn: { pmax: 1.5 } } }, /^network\.switch\.ecn\.pmax$/, /<= 1/);
  bad({ switch: { ecn: { refRateBps: '1e30Gbps' } } }, /refRateBps$/, /./);
  bad({ switch: { alphaIngress: 0 } }, /alphaIngress$/, /> 0/);
  bad({ switch: { ecmpSeed: -1 } }, /ecmpSeed$/, />= 0/);
  bad({ switch: { ecmpSeed: 1.5 } }, /ecmpSeed$/, /integer/);
  bad({ transport: { nackIntervalPs: 0 } }, /nackIntervalPs$/, /> 0/);
  bad({ transport: { mtuBytes: 0 } }, /mtuBytes$/, />= 1/);
  bad({ transport: { dataPriority: 8 } }, /dataPriority$/, /<= 7/);
  bad({ transport: { minRateRatio: 0 } }, /minRateRatio$/, /> 0/);
  bad({ metrics: { oscarIdealIndexOffset: 2 } }, /oscarIdealIndexOffset$/, /<= 1/);
  bad({ transport: { bogus: 1 } }, /^network\.transport\.bogus$/, /unknown key/);
  // units: a bare number is in the field's unit, a string is converted
  const ok = parseSpec({ ...base, network: { switch: { bufferBytes: '2MiB', pauseQuantaPs: '5us' }, transport: { rtoPs: 1_000_000, ackEvery: 2 } } });
  assert.deepEqual(ok.network, { switch: { bufferBytes: 2 * MIB, pauseQuantaPs: 5 * US }, transport: { rtoPs: 1_000_000, ackEvery: 2 } });
});

test('physically absurd values are errors', () => {
  const base = (over: Record<string, unknown>): unknown => ({
    name: 'absurd',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    cc: 'none',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1MB' }] }],
    ...over,
  });
  assert.throws(() => parseSpec(base({ topology: { type: 'star', hosts: 3, rate: '1e30bps', delay: '1us' } })), /topology\.rate: "1e30bps" — must be <= 100 Tbps/);
  assert.throws(() => parseSpec(base({ stop: { at: '1ms', maxTime: '10ms' } })), /stop\.maxTime.*only applies when running until every flow finished/);
  const resolveErr = (over: Record<string, unknown>): string => {
    try {
      resolveSpec(parseSpec(base(over)), dir);
    } catch (e) {
      if (e instanceof SpecError) return e.message;
      throw e;
    }
    return '';
  };
  assert.match(resolveErr({ network: { switch: { bufferBytes: 0 } } }), /network\.switch\.bufferBytes: 0 — a lossless switch \(pfcEnabled\) needs buffer/);
  assert.equal(resolveErr({ network: { switch: { bufferBytes: 0, pfcEnabled: false } } }), '');
  assert.match(
    resolveErr({ stop: { at: '1ms' }, workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1MB', start: '2ms' }] }] }),
    /workload\[0\]\.flows\[0\]\.start: \S+ — starts at or after stop\.at \(1\.000ms\): it would never run/,
  );
  assert.match(
    resolveErr({ stop: { at: '1ms' }, workload: [{ type: 'poisson', cdf: 'websearch', load: 0.5, start: '1ms', duration: '1ms' }] }),
    /workload\[0\]\.start: \S+ — starts at or after stop\.at/,
  );
  assert.match(
    resolveErr({ stop: { at: '1ms' }, workload: [{ type: 'incast', fanIn: 2, size: '10KB', at: ['10us', '5ms'] }] }),
    /workload\[0\]\.at\[1\]: \S+ — starts at or after stop\.at/,
  );
});

test('bounded input: sizes are estimated before anything is built and refused beyond the limits', () => {
  const spec = (over: Record<string, unknown>): unknown => ({
    name: 'big',
    topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us' },
    cc: 'none',
    workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: '1MB' }] }],
    ...over,
  });
  const err = (over: Record<string, unknown>): string => {
    try {
      resolveSpec(parseSpec(spec(over)), dir);
    } catch (e) {
      if (e instanceof SpecError) return e.message;
      throw e;
    }
    return '';
  };
  // a 10^7-host star or fat tree is refused from arithmetic, before 3 GB are allocated
  assert.match(err({ topology: { type: 'star', hosts: 10_000_000, rate: '100Gbps', delay: '1us' } }), /topology: would have 1\.00e7 hosts, above the limit of 20,000 \(raise limits\.hosts/);
  assert.match(err({ topology: { type: 'fatTree', preset: 'oscar320', pods: 100_000 } }), /topology: would have [\d.]+e6 hosts/);
  assert.match(
    err({ topology: { type: 'star', hosts: 1000, rate: '100Gbps', delay: '1us' }, workload: [{ type: 'poisson', cdf: 'cachefollower', load: 0.9, duration: '1s' }] }),
    /workload: would generate about [\d.]+e\d+ flows, above the limit of 5,000,000/,
  );
  assert.match(
    err({ stop: { at: '9000s' }, limits: { packets: 1e9 }, workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: `${2 ** 40}B` }] }] }),
    /would send about 1\.10e9 data packets, above the limit of 1,000,000,000/,
  );
  // ... but not for flows a hard stop cuts short: 1 TiB over 20 ms into one 100 Gbps host is 250 k packets
  assert.equal(err({ stop: { at: '20ms' }, workload: [{ type: 'flows', flows: [{ src: 0, dst: 1, size: `${2 ** 40}B` }] }] }), '');
  // raising the limit lets it through (estimate only; nothing is generated here beyond the check)
  assert.equal(err({ topology: { type: 'star', hosts: 30_000, rate: '100Gbps', delay: '1us' }, limits: { hosts: 40_000, links: 40_000 } }), '');
  // files: regular files only, and size-capped
  assert.match(err({ workload: [{ type: 'poisson', cdf: '/dev/zero', load: 0.5, duration: '1ms' }] }), /workload\[0\]\.cdf: "\/dev\/zero" — workload file \/dev\/zero is not a regular file/);
  const big = join(dir, 'big-cdf.txt');
  writeFileSync(big, '# big\n100 0\n200 100\n' + '#'.repeat(2000) + '\n');
  assert.match(err({ limits: { fileBytes: 1000 }, workload: [{ type: 'poisson', cdf: big, load: 0.5, duration: '1ms' }] }), /above the limit of 1,000 \(limits\.fileBytes\)/);
  assert.match(err({ topology: { type: 'file', path: '/dev/zero', format: 'hpcc' } }), /topology\.path: .*not a regular file/);
});
