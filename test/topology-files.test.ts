/** Topology files: the HPCC, PowerTCP, OSCAR and ccsim JSON formats (docs/network-model.md §14). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NS, US } from '../src/engine/units.js';
import {
  PathOracle,
  buildPortMap,
  computeRoutes,
  fatTreePreset,
  loadTopologyFile,
  parseCcsimTopology,
  parseHpccTopology,
  parseOscarTopology,
  parsePowertcpTopology,
  type PortMap,
  type RouteTable,
  type Topology,
} from '../src/net/topology/index.js';
import { tempDir } from './helpers/tmp.js';

function setup(topo: Topology): { ports: PortMap; rt: RouteTable; oracle: PathOracle } {
  const ports = buildPortMap(topo);
  return { ports, rt: computeRoutes(topo, ports), oracle: new PathOracle(topo, ports) };
}

const HPCC_TEXT = `5 2 4
1 3
0 1 100Gbps 1000ns 0
2 1 100Gbps 0.001ms 0
1 3 400Gbps 1us 0.000000
4 3 100Gbps 0.000001 0
`;

test('HPCC format: renumbering hosts first, units', () => {
  const { topology: t, originalIds, newIds } = parseHpccTopology(HPCC_TEXT, 'mix/tiny.txt');
  assert.equal(t.name, 'tiny');
  assert.equal(t.hostCount, 3);
  assert.deepEqual(originalIds, [0, 2, 4, 1, 3]);
  assert.deepEqual(newIds, [0, 3, 1, 4, 2]);
  assert.deepEqual(
    t.nodes.map((n) => [n.name, n.kind, n.layer]),
    [
      ['n0', 'host', 'host'],
      ['n2', 'host', 'host'],
      ['n4', 'host', 'host'],
      ['n1', 'switch', 'tor'],
      ['n3', 'switch', 'tor'],
    ],
  );
  assert.deepEqual(t.links, [
    { a: 0, b: 3, rateBps: 100e9, delayPs: US },
    { a: 1, b: 3, rateBps: 100e9, delayPs: US },
    { a: 3, b: 4, rateBps: 400e9, delayPs: US },
    { a: 2, b: 4, rateBps: 100e9, delayPs: US },
  ]);
  const { oracle } = setup(t);
  assert.equal(oracle.info(0, 2).hops, 3);
});

test('HPCC format: errors name the source and line', () => {
  assert.throws(() => parseHpccTopology('5 2 4\n1 3\n0 1 100Gbps 1000ns 0\n2 1 100Gbps\n1 3 400Gbps 1us 0\n4 3 1G 1us 0\n', 't.txt'), {
    message: 't.txt:4: link line must be "src dst rate delay err" (5 fields), got "2 1 100Gbps"',
  });
  assert.throws(() => parseHpccTopology('3 1 2\n2\n0 2 fast 1us 0\n1 2 1G 1us 0\n', 't.txt'), /^Error: t\.txt:3: bad rate: not a rate: "fast"/);
  assert.throws(() => parseHpccTopology('3 1 2\n2\n0 2 1G 1us 0\n1 2 1G soon 0\n', 't.txt'), /^Error: t\.txt:4: bad delay/);
  assert.throws(() => parseHpccTopology('3 1 2\n2\n0 2 1G 1us 0\n1 7 1G 1us 0\n', 't.txt'), { message: 't.txt:4: dst 7 out of range 0..2' });
  assert.throws(() => parseHpccTopology('3 1 2\n2\n0 2 1G 1us 0\n1 1 1G 1us 0\n', 't.txt'), { message: 't.txt:4: link connects node 1 to itself' });
  assert.throws(() => parseHpccTopology('3 1 2\n2\n0 2 1G 1us 0\n1 2 1G 1us 0.01\n', 't.txt'), /t\.txt:4: per-link loss rate 0\.01 is not supported/);
  assert.throws(() => parseHpccTopology('3 1 3\n2\n0 2 1G 1us 0\n1 2 1G 1us 0\n', 't.txt'), /t\.txt:4: header says 3 links, file has 2 link lines/);
  assert.throws(() => parseHpccTopology('3 1\n2\n', 't.txt'), /t\.txt:1: header must be "nodes switches links"/);
  assert.throws(() => parseHpccTopology('3 1 1\n9\n0 1 1G 1us 0\n', 't.txt'), { message: 't.txt:2: switch id 9 out of range 0..2' });
  assert.throws(() => parseHpccTopology('3 2 1\n2 2\n0 1 1G 1us 0\n', 't.txt'), /t\.txt:2: switch id 2 listed twice/);
  assert.throws(() => parseHpccTopology('', 'empty.txt'), /empty\.txt: empty file/);
});

test('PowerTCP format: header with tors, float bps rates', () => {
  const text = `6 3 2 5
4 5 2
0 4 25000000000.0 1us 0
1 4 25000000000.0 1us 0
3 5 25000000000.0 1us 0
4 2 100000000000.0 5us 0
5 2 100000000000.0 5us 0
`;
  const { topology: t, originalIds, torIds } = parsePowertcpTopology(text, 'topology-small.txt');
  assert.equal(t.hostCount, 3);
  assert.deepEqual(originalIds, [0, 1, 3, 2, 4, 5]);
  assert.deepEqual(torIds, [4, 5]);
  assert.deepEqual(
    t.nodes.map((n) => n.layer),
    ['host', 'host', 'host', 'spine', 'leaf', 'leaf'],
  );
  assert.deepEqual(t.links[3], { a: 4, b: 3, rateBps: 100e9, delayPs: 5 * US });
  const { oracle } = setup(t);
  assert.equal(oracle.info(0, 2).delayPs, 12 * US);
  assert.equal(oracle.maxPairRttPs(1000), 24 * US + 2 * 320 * NS + 2 * 80 * NS);
  assert.throws(() => parsePowertcpTopology('6 3 5\n', 'p.txt'), /p\.txt:1: header must be "nodes switches tors links"/);
  assert.throws(() => parsePowertcpTopology('3 1 2 1\n2\n0 2 1e9 1us 0\n', 'p.txt'), /p\.txt:1: tors \(2\) exceeds switches \(1\)/);
});

test('OSCAR format: link types from linkConfig', () => {
  const text = `4 2 3
2 3
0 2 host
1 3 host
2 3 switch-oversub
`;
  const cfg = { host: { rateBps: 100e9, delayPs: US }, switch: { rateBps: 400e9, delayPs: US }, 'switch-oversub': { rateBps: 200e9, delayPs: US } };
  const { topology: t, newIds } = parseOscarTopology(text, 'config/topo/dumb.txt', cfg);
  assert.equal(t.name, 'dumb');
  assert.deepEqual(newIds, [0, 1, 2, 3]);
  assert.deepEqual(
    t.links.map((l) => l.rateBps),
    [100e9, 100e9, 200e9],
  );
  assert.throws(() => parseOscarTopology(text.replace('switch-oversub', 'fiber'), 'o.txt', cfg), {
    message: 'o.txt:5: link type "fiber" has no linkConfig entry (known: host, switch, switch-oversub)',
  });
  assert.throws(() => parseOscarTopology(text.replace('0 2 host', '0 2'), 'o.txt', cfg), /o\.txt:3: link line must be "src dst type"/);
  assert.throws(() => parseOscarTopology(text, 'o.txt', { host: { rateBps: 0, delayPs: 1 } }), /linkConfig\.host\.rateBps: .*got 0/);

  // interleaved ids: parking5-like with switches first
  const parking = `4 2 3
0 1
0 1 switch
0 2 host
1 3 host
`;
  const p = parseOscarTopology(parking, 'parking.txt', cfg);
  assert.deepEqual(p.originalIds, [2, 3, 0, 1]);
  assert.deepEqual(
    p.topology.links.map((l) => [l.a, l.b]),
    [
      [2, 3],
      [2, 0],
      [3, 1],
    ],
  );
});

test('ccsim JSON format: names, indices, reordering, layers', () => {
  const doc = {
    name: 'mini',
    nodes: [
      { name: 'sw', kind: 'switch' },
      { name: 'a', kind: 'host' },
      { name: 'core', kind: 'switch', layer: 'core' },
      { name: 'b', kind: 'host' },
    ],
    links: [
      { a: 'a', b: 'sw', rate: '100Gbps', delay: '1us' },
      { a: 3, b: 0, rate: 25e9, delay: 2e-6 },
      { a: 'sw', b: 'core', rate: '400G', delay: '500ns' },
    ],
  };
  const { topology: t, originalIds, newIds } = parseCcsimTopology(JSON.stringify(doc), 'mini.json');
  assert.equal(t.name, 'mini');
  assert.equal(t.hostCount, 2);
  assert.deepEqual(originalIds, [1, 3, 0, 2]);
  assert.deepEqual(newIds, [2, 0, 3, 1]);
  assert.deepEqual(
    t.nodes.map((n) => [n.id, n.name, n.kind, n.layer]),
    [
      [0, 'a', 'host', 'host'],
      [1, 'b', 'host', 'host'],
      [2, 'sw', 'switch', 'leaf'],
      [3, 'core', 'switch', 'core'],
    ],
  );
  assert.deepEqual(t.links, [
    { a: 0, b: 2, rateBps: 100e9, delayPs: US },
    { a: 1, b: 2, rateBps: 25e9, delayPs: 2 * US },
    { a: 2, b: 3, rateBps: 400e9, delayPs: 500 * NS },
  ]);
  const bad = (patch: (d: typeof doc) => unknown): string => {
    const d = JSON.parse(JSON.stringify(doc)) as typeof doc;
    const out = patch(d);
    try {
      parseCcsimTopology(JSON.stringify(out ?? d), 'm.json');
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };
  assert.equal(bad((d) => void (d.links[0]!.b = 'nope')), 'm.json: links[0].b: unknown node "nope"');
  assert.equal(bad((d) => void ((d.links[1] as { a: unknown }).a = 9)), 'm.json: links[1].a: node index 9 out of range 0..3');
  assert.match(bad((d) => void (d.links[2]!.rate = 'quick')), /^m\.json: links\[2\]\.rate: not a rate/);
  assert.match(bad((d) => void (d.links[0]!.delay = 'later')), /^m\.json: links\[0\]\.delay: not a duration/);
  assert.equal(bad((d) => void (d.nodes[3]!.name = 'a')), 'm.json: nodes[3].name: duplicate node name "a" (also nodes[1])');
  assert.match(bad((d) => void ((d.nodes[0] as { kind: string }).kind = 'router')), /nodes\[0\]\.kind: must be "host" or "switch", got "router"/);
  assert.match(bad((d) => void ((d.nodes[1] as { layer?: string }).layer = 'core')), /nodes\[1\]\.layer: a host cannot have layer "core"/);
  assert.match(bad(() => ({ nodes: [] , links: [] })), /m\.json\.nodes: must be a non-empty array/);
  assert.equal(bad((d) => void ((d.links[0] as { b: unknown }).b = 'a')), 'm.json: links[0]: connects node "a" to itself');
  assert.throws(() => parseCcsimTopology('{ nodes: ', 'x.json'), /^Error: x\.json: invalid JSON/);
});

test('loadTopologyFile reads from disk and reports a missing file', () => {
  const dir = tempDir('topo');
  {
    const p = join(dir, 'fat-mini.txt');
    writeFileSync(p, HPCC_TEXT);
    const { topology } = loadTopologyFile(p, 'hpcc');
    assert.equal(topology.name, 'fat-mini');
    assert.equal(topology.links.length, 4);
    const missing = join(dir, 'nope.txt');
    assert.throws(() => loadTopologyFile(missing, 'hpcc'), { message: `topology file not found: ${missing}` });
    assert.throws(() => loadTopologyFile(p, 'oscar'), /needs a linkConfig/);
    writeFileSync(p, '5 2 4\n1 3\n0 1 100Gbps 1000ns 0\n');
    assert.throws(() => loadTopologyFile(p, 'hpcc'), new RegExp(`${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: header says 4 links`));
  }
});

test('a T-FT320 written in HPCC format loads back to the builder topology', () => {
  const t = fatTreePreset('oscar320');
  // write with switches listed and hosts first (as fat.txt), delays in ns
  const lines = [`${t.nodes.length} ${t.nodes.length - t.hostCount} ${t.links.length}`];
  lines.push(t.nodes.slice(t.hostCount).map((n) => n.id).join(' '));
  for (const l of t.links) lines.push(`${l.a} ${l.b} ${l.rateBps / 1e9}Gbps ${l.delayPs / NS}ns 0`);
  const loaded = parseHpccTopology(lines.join('\n'), 'fat.txt');
  assert.deepEqual(loaded.topology.links, t.links);
  assert.deepEqual(
    loaded.topology.nodes.map((n) => n.layer),
    t.nodes.map((n) => n.layer),
  );
  const { oracle } = setup(loaded.topology);
  assert.equal(oracle.maxPairRttPs(1000), 12_240 * NS);
});
