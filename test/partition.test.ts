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

/** Largest over mean ports of a partition. */
const imbalance = (p: Partitioning): number => Math.max(...p.rows.map((r) => r.ports)) / (p.rows.reduce((a, r) => a + r.ports, 0) / p.count);

test('a 5-pod fat tree (oscar320): 5 partitions are its pods; 2, 4 and 8 cut one level lower (ToR groups) to balance', () => {
  const topo = fatTreePreset('oscar320');
  const p5 = partitionTopology(topo, 5);
  checkTable(topo, p5);
  assert.equal(p5.groupKind, 'pod');
  assert.equal(p5.groups, 5);
  assert.deepEqual(p5.rows.map((r) => r.hosts), [64, 64, 64, 64, 64]);
  // every pod (4 edges + 4 aggs + 64 hosts) is whole: only agg-core links are cut
  for (const l of topo.links) {
    if (p5.of[l.a] !== p5.of[l.b]) assert.deepEqual([topo.nodes[l.a]!.layer, topo.nodes[l.b]!.layer].sort(), ['agg', 'core']);
  }
  for (const n of [2, 4, 8]) {
    const p = partitionTopology(topo, n);
    checkTable(topo, p);
    assert.equal(p.count, n);
    // 5 pods do not split evenly into 2, 4 or 8: ToR groups (20 of them) do
    assert.equal(p.groupKind, 'ToR group');
    assert.equal(p.groups, 20);
    assert.ok(imbalance(p) <= 1.05, `${n} partitions: ports ${p.rows.map((r) => r.ports).join(',')}`);
    assert.deepEqual(p.notes, []);
    assert.equal(p.lookaheadPs, US);
    // an aggregation switch joins a partition that holds ToRs of its pod, unless that would
    // unbalance it (on 8 partitions 4 of the 20 go to the lightest instead)
    let away = 0;
    for (let s = topo.hostCount; s < topo.nodes.length; s++) {
      if (topo.nodes[s]!.layer !== 'agg') continue;
      const tors = topo.links.filter((l) => l.b === s && topo.nodes[l.a]!.layer === 'tor').map((l) => p.of[l.a]);
      if (!tors.includes(p.of[s])) away++;
    }
    assert.equal(away, n === 8 ? 4 : 0, `${n} partitions: ${away} aggs away from their pod's ToRs`);
  }
  // 20 ToR groups: asking 32 gives 20 with a note saying why
  const p32 = partitionTopology(topo, 32);
  checkTable(topo, p32);
  assert.equal(p32.count, 20);
  assert.equal(p32.requested, 32);
  assert.match(p32.notes[0]!, /20 ToR groups/);
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
  assert.match(p.notes[0]!, /1 ToR group/);
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
