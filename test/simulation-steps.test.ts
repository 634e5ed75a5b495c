/**
 * The steppable simulation (sim/simulate.ts `Simulation`): stepping a
 * run in arbitrary slices, or stepping two different runs in turn in one
 * process, gives exactly the results of each run alone. This is what the
 * "no module-level state" rule of the architecture promises: any state shared
 * between two simulations (a cache, a pooled object, an RNG) would make the
 * interleaved results differ from the lone ones.
 */
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation, simulate } from '../src/sim/simulate.js';
import type { SimInput, SimOutput } from '../src/sim/types.js';
import { dumbbell, star } from '../src/net/topology/index.js';
import { MS, US } from '../src/engine/units.js';
import type { FlowSpec } from '../src/workload/types.js';
import { input, net } from './helpers/sim.js';

/** A digest of everything a run produces except its wall time (short, so a failure prints two hashes). */
function bytesOf(o: SimOutput): string {
  return createHash('sha256')
    .update(JSON.stringify({ ...o, wallMs: 0 }))
    .digest('hex');
}

/** HPCC (INT, D-HPCC) 6:1 incast of 200 KB flows with queue, throughput and CC-state samplers. */
function hpccIncast(): SimInput {
  const topo = star({ hosts: 7, rateBps: 100e9, delayPs: 1 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < 6; i++) flows.push({ src: i, dst: 6, bytes: 200_000, startPs: i * 3 * US });
  return input(topo, flows, {
    net: net('hpcc'),
    cc: 'hpcc',
    metrics: {
      queuePorts: [{ node: 7, port: 6 }],
      queueIntervalPs: 2 * US,
      throughputPorts: [{ node: 7, port: 6 }],
      throughputIntervalPs: 5 * US,
      flowThroughput: [],
      flowThroughputIntervalPs: 5 * US,
      ccTrace: [],
      ccTraceIntervalPs: 5 * US,
    },
  });
}

/**
 * DCQCN (CNP packets, D-OSCAR) on a dumbbell with a 25 G bottleneck, lossy
 * (drops, NACKs and go-back-N run) and with RED thresholds low enough that
 * the seeded marking draws decide the result.
 */
function dcqcnLossyDumbbell(seed: number): SimInput {
  const topo = dumbbell({ left: 3, right: 3, hostRateBps: 100e9, bottleneckRateBps: 25e9, delayPs: 2 * US });
  const flows: FlowSpec[] = [];
  for (let i = 0; i < 3; i++) flows.push({ src: i, dst: 3 + i, bytes: 300_000 + 50_000 * i, startPs: i * 5 * US });
  return input(topo, flows, {
    net: net('oscar', { switch: { pfcEnabled: false, bufferBytes: 1_000_000, ecn: { kminBytes: 20_000, kmaxBytes: 200_000, pmax: 0.2 } } }),
    cc: 'dcqcn',
    seed,
    metrics: { queuePorts: [{ node: 6, port: 3 }], queueIntervalPs: 5 * US, flowThroughput: [], flowThroughputIntervalPs: 10 * US },
  });
}

/** A run with a hard stop time (stop.at): ends at the stop time with flows still running. */
function stoppedRun(): SimInput {
  const topo = star({ hosts: 3, rateBps: 100e9, delayPs: 1 * US });
  return input(
    topo,
    [
      { src: 0, dst: 2, bytes: 50_000_000, startPs: 0 },
      { src: 1, dst: 2, bytes: 50_000_000, startPs: 10 * US },
    ],
    { net: net('oscar'), cc: 'oscar', stopAtPs: 300 * US, metrics: { throughputPorts: [{ node: 3, port: 2 }], throughputIntervalPs: 20 * US } },
  );
}

test('the lone runs are non-trivial: flows finish, the lossy one drops and retransmits, the stopped one stops', () => {
  const a = simulate(hpccIncast());
  assert.equal(a.fct.length, 6);
  const b = simulate(dcqcnLossyDumbbell(7));
  assert.equal(b.fct.length, 3);
  assert.ok(b.totals.drops > 0 && b.totals.retransmittedPackets > 0, `drops ${b.totals.drops}, retx ${b.totals.retransmittedPackets}`);
  const c = simulate(stoppedRun());
  assert.equal(c.endPs, 300 * US);
  assert.equal(c.fct.length, 0);
});

test('a run stepped in uneven slices gives the same bytes as the run in one call', () => {
  for (const make of [hpccIncast, () => dcqcnLossyDumbbell(3), stoppedRun]) {
    const alone = bytesOf(simulate(make()));
    const sim = new Simulation(make());
    let t = 0;
    let k = 0;
    // slice ends that fall on event times and between them, including zero-length steps
    while (!sim.runUntil(t)) {
      assert.equal(sim.nowPs, t);
      t += [1, 0, 333_333, 2 * US, 7 * US + 1][k++ % 5]!;
    }
    assert.ok(sim.ended);
    assert.equal(bytesOf(sim.finish()), alone);
  }
});

test('two simulations stepped in turn in one process give the same bytes as each alone', () => {
  const inputs = [hpccIncast, () => dcqcnLossyDumbbell(11), stoppedRun, () => dcqcnLossyDumbbell(12)];
  const alone = inputs.map((m) => bytesOf(simulate(m())));
  // the two lossy runs differ only in their seed, and that shows
  assert.notEqual(alone[1], alone[3]);
  const sims = inputs.map((m) => new Simulation(m()));
  const outs: (string | undefined)[] = sims.map(() => undefined);
  let t = 0;
  while (outs.some((o) => o === undefined)) {
    t += 3 * US;
    for (let i = 0; i < sims.length; i++) {
      if (outs[i] === undefined && sims[i]!.runUntil(t)) outs[i] = bytesOf(sims[i]!.finish());
    }
    assert.ok(t < 1000 * MS, 'runs end');
  }
  for (let i = 0; i < inputs.length; i++) assert.equal(outs[i], alone[i], `run ${i}`);
});
