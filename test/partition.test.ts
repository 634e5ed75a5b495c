/**
 * The partitioner of parallel runs (src/net/topology/partition.ts; issue 31): groups are
 * pods / leaf groups, hosts stay with their first switch, partitions are balanced by
 * ports and hosts, the lookahead is the smallest cross-partition link delay, and the
 * split is a pure function of the topology and the count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GBPS, US } from '../src/engine/units.js';
import { dumbbell, fatTree, fatTreePreset, partitionTopology, spineLeafPreset, star, type Partitioning, type Topology } from '../src/net/topology/index.js';

/** Checks the table against the assignment: counts add up, no host link is cut, cross links are counted from both sides. */
function checkTable(topo: Topology, p: Partitioning): void {
  assert.equal(p.of.length, topo.nodes.length);
  for (let n = 0; n < topo.nodes.length; n++) assert.ok(p.of[n]! >= 0 && p.of[n]! < p.count);
  assert.equal(p.rows.reduce((a, r) => a + r.nodes, 0), topo.nodes.length);
  assert.equal(p.rows.reduce((a, r) => a + r.hosts, 0), topo.hostCount);
  assert.equal(p.rows.reduce((a, r) => a + r.links, 0) + p.crossLinks, topo.links.length);
  assert.equal(p.rows.reduce((a, r) => a + r.crossLinks, 0), 2 * p.crossLinks);
  assert.equal(p.rows.reduce((a, r) => a + r.ports, 0), 2 * topo.links.length);
  for (const l of topo.links) {
    if (l.a < topo.hostCount || l.b < topo.hostCount) assert.equal(p.of[l.a], p.of[l.b], 'a host link is never cut');
  }
}

test('a 5-pod fat tree (oscar320) splits by pod: 2 and 4 partitions balanced, only agg-core links cut', () => {
  const topo = fatTreePreset('oscar320');
  for (const n of [2, 4]) {
    const p = partitionTopology(topo, n);
    checkTable(topo, p);
    assert.equal(p.count, n);
    assert.equal(p.groupKind, 'pod');
    assert.equal(p.groups, 5);
    assert.deepEqual(p.notes, []);
    assert.equal(p.lookaheadPs, US);
    // every pod (4 edges + 4 aggs + 64 hosts) is whole: edges and aggs of a pod share a partition
    for (const l of topo.links) {
      if (p.of[l.a] !== p.of[l.b]) {
        const layers = [topo.nodes[l.a]!.layer, topo.nodes[l.b]!.layer].sort();
        assert.deepEqual(layers, ['agg', 'core']);
      }
    }
    // 5 pods of 64 hosts: hosts differ by at most one pod; ports by at most one pod's ports plus cores'
    const hosts = p.rows.map((r) => r.hosts);
    assert.ok(Math.max(...hosts) - Math.min(...hosts) <= 64, `hosts ${hosts.join(',')}`);
  }
  // 5 pods: asking 8 gives 5 with a note saying why
  const p8 = partitionTopology(topo, 8);
  checkTable(topo, p8);
  assert.equal(p8.count, 5);
  assert.equal(p8.requested, 8);
  assert.match(p8.notes[0]!, /5 pods/);
});

test('the cores go to the lightest partition, so 4 pods in 2 partitions are exactly balanced', () => {
  const topo = fatTreePreset('powertcp256');
  const p = partitionTopology(topo, 2);
  checkTable(topo, p);
  assert.deepEqual(p.rows.map((r) => r.hosts), [128, 128]);
  assert.deepEqual(p.rows.map((r) => r.switches), [10, 10]);
  assert.equal(p.rows[0]!.ports, p.rows[1]!.ports);
  // the cross links are agg-core links: 5 us in powertcp256
  assert.equal(p.lookaheadPs, 5 * US);
});

test('a leaf-spine splits by leaf group; the lookahead is the smallest cross delay', () => {
  const topo = spineLeafPreset('oscar64');
  const p = partitionTopology(topo, 2);
  checkTable(topo, p);
  assert.equal(p.groupKind, 'leaf group');
  assert.equal(p.count, 2);
  assert.deepEqual(p.rows.map((r) => r.hosts), [32, 32]);
  // a fat tree with shorter agg-core links: the lookahead follows the cut links, not the host links
  const t = fatTree({
    pods: 2, edgesPerPod: 2, aggsPerPod: 2, hostsPerEdge: 2, cores: 2, hostRateBps: 100 * GBPS, fabricRateBps: 100 * GBPS,
    hostDelayPs: 3 * US, edgeAggDelayPs: 2 * US, aggCoreDelayPs: US / 2, coreWiring: 'strided',
  });
  const q = partitionTopology(t, 2);
  checkTable(t, q);
  assert.equal(q.lookaheadPs, US / 2);
});

test('a star cannot be split; a dumbbell splits at its bottleneck; one partition has no cross links', () => {
  const s = star({ hosts: 8, rateBps: 100 * GBPS, delayPs: US });
  const p = partitionTopology(s, 4);
  checkTable(s, p);
  assert.equal(p.count, 1);
  assert.equal(p.crossLinks, 0);
  assert.equal(p.lookaheadPs, Infinity);
  assert.match(p.notes[0]!, /1 switch group/);
  const d = dumbbell({ left: 3, right: 5, hostRateBps: 100 * GBPS, bottleneckRateBps: 10 * GBPS, delayPs: 2 * US });
  const q = partitionTopology(d, 2);
  checkTable(d, q);
  assert.equal(q.count, 2);
  assert.equal(q.crossLinks, 1);
  assert.equal(q.lookaheadPs, 2 * US);
  assert.deepEqual(q.rows.map((r) => r.hosts).sort(), [3, 5]);
});

test('a cut link without delay means no lookahead: one partition, with a note', () => {
  const d = dumbbell({ left: 2, right: 2, hostRateBps: 100 * GBPS, bottleneckRateBps: 100 * GBPS, delayPs: 0 });
  const p = partitionTopology(d, 2);
  assert.equal(p.count, 1);
  assert.equal(p.requested, 2);
  assert.match(p.notes.join(' '), /no lookahead/);
});

test('the split is a pure function of the topology and the count', () => {
  const topo = fatTreePreset('oscar320');
  const a = partitionTopology(topo, 4);
  const b = partitionTopology(fatTreePreset('oscar320'), 4);
  assert.deepEqual([...a.of], [...b.of]);
  assert.throws(() => partitionTopology(topo, 0), /positive integer/);
});
