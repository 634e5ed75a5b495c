/**
 * `npm run bench [-- a b c]`: the project's performance benchmark (not part of
 * the test suite). Each scenario runs in its own child process so that peak RSS
 * is its own. Prints wall time, events/s, simulated seconds per wall second
 * and peak RSS.
 *
 * (a) 16:1 incast of long flows on a 100 Gb/s star, 10 ms, DCQCN;
 * (b) OSCAR's large-scale setup: 320-host fat-tree, 100 G hosts / 400 G fabric,
 *     1 us links, 32 MiB buffers, PFC + DT, CacheFollower at 80 % load,
 *     10 ms of arrivals, run until every flow finishes, DCQCN;
 * (b2) (b)'s first 2 simulated ms (about 81 M events): the prefix the
 *     profiles of (b) in docs/journal.md look at, short enough to compare builds.
 * (c) PowerTCP's 256-server 4:1 tree (25 G hosts, 100 G fabric, 1 us links,
 *     5 us to the cores, 4 MiB buffers), WebSearch at 60 % load (of the ToR
 *     uplinks) for 10 ms of arrivals, DCQCN with a one-BDP window.
 * (d) (c)'s tree and workload with 100 ms of arrivals (~7.1 k flows, ~25 M
 *     packets), HPCC: the run the reference ns-3 simulator takes ~225 s for.
 * (e) (c)'s tree and load reference, Facebook key-value sizes (`keyvalue`),
 *     HPCC, Poisson arrivals until 2 x 10^6 flows, run until every flow
 *     finishes: memory with millions of flows. Arrivals are made as flows
 *     start, finished flows drop their state and their FCT rows stream to a
 *     scratch file; target peak RSS <= 1 GB. Its child runs with V8's old
 *     generation capped at 700 MB (`--max-old-space-size=700`): the live heap
 *     (~100 k flows in progress at the end of the arrivals) stays well below
 *     that, but with V8's default sizing the dead flows pile up to ~1.3 GB of
 *     RSS before a full collection (measured: 1300 MB default, 829 MB capped,
 *     same results, ~15 % more CPU for the collections).
 * (s) the scheduler alone: 1,100 elements, each with its two direct events
 *     (as a port's transmitter and link) re-posting themselves 80 ns to
 *     2.3 us ahead from a fixed table of delays, 20 simulated ms (~45 M
 *     events), handlers that do nothing else: what one event costs in the
 *     wheel, with none of the network's work. Its run-to-run noise is a few
 *     per cent where (c)'s is ten, so it shows scheduler changes that (c)
 *     cannot. Not in the default set.
 * (r) replay-like: (c)'s tree and workload with 20 ms of arrivals, `profile:
 *     hpcc` with the PowerTCP artifact's MMU (`dtMode: alpha`, `ptPools:
 *     ptWorkload`), HPCC: the configuration the ns-3 replay runs use.
 * (p) (r) with PowerTCP (profile inetTub): the INT CC of PowerTCP Figs 6/7 and the
 *     W10/W100 replays, its per-ACK power arithmetic on every ACK. Not in the default set.
 * (g) collective jobs (issue 25; OSCAR §6.4 Fig 12's setup): the 64-host
 *     spine-leaf T-SL64 (16 leaves x 4 hosts, 2 spines, 200 G, 1 us), 4 groups
 *     of 16 hosts (one per leaf: `groups: { size: 16, stride: 4 }`), each a
 *     ring all-reduce of 16 MB, HPCC under profile oscar, run until all four
 *     finish: the closed loop of 4 x 30 ring steps. Not in the default set.
 * (gf) (g)'s fabric and jobs with steady-state fast-forward (issue 46; docs/performance.md,
 *     "Fast-forward"): 64 MB per job (4 MB ring steps, ~170 us each at 200 G), with the knobs
 *     of the closed-loop test (1-RTT intervals, 4 of them, skips of 8 RTTs or more, 4 RTTs of
 *     margin); its events against (g)'s show what fast-forward saves. Not in the default set.
 * (bfc) BFC (issue 27; OSCAR App. C.2 Figs 17/18's setup): (b)'s fat tree,
 *     CacheFollower at 50 % load for 1 ms of arrivals, BFC-32 at every switch
 *     port (25 000 B pause / 22 000 B resume), no PFC, hosts at line rate
 *     (cc none), run until every flow finishes. Not in the default set.
 * (n) NDP (issue 26; OSCAR App. C.6 Fig 24's setup): the 320-host fat tree
 *     with its agg-core links at 200 G (2:1, `oscar320-oversub2`), WebSearch
 *     at 80 % load for 0.5 ms of arrivals (fig24's --quick size), `ndp`:
 *     trimming switches (the `trim` admission policy on every switch), PULLs,
 *     per-packet spraying, no PFC; run until every flow finishes. Not in the
 *     default set.
 * (v) reconfigurable datacenter (issue 27; PowerTCP §5 Fig 8's set-up): 25 ToRs x 10
 *     servers (25 G), a 25 G packet network and one circuit switch of 100 G circuits
 *     rotating through 24 matchings (day 225 us, night 20 us), per-destination VOQs;
 *     server s of rack t sends a long flow to server s of rack t+1+s (mod 25), so every
 *     ToR feeds ten VOQs; PowerTCP with once-per-RTT updates, 2.45 ms (10 slots). Not in
 *     the default set.
 * (t) a 1,024-host fat tree (T-FT320's pods, 16 of them: 64 ToRs x 16 hosts, 64 aggs, 16 cores,
 *     100 G / 400 G, 1 us), CacheFollower at 80 % load for 200 us of arrivals, DCQCN, stopped
 *     at 0.5 ms simulated: a larger tree for the thread counts of issue 31. Not in the default set.
 * `--threads 1,2` runs each scenario once per thread count (issue 31; docs/performance.md) and
 * says whether events, finished flows and mean slowdown agree. A count n > 1 runs on the
 * parallel engine (sim/parallel/parallel.ts) when it runs the scenario (a fixed end: (b2), (t),
 * any scenario with --until-ms); otherwise on one thread, and the title says why.
 * `--until-ms x` stops every scenario at x simulated ms (a short smoke version).
 * Targets on one core (issue 11): (c) <= 2.7 s, (b) <= 4 min at <= 1 GB RSS, (e) <= 1 GB RSS,
 * (d) <= 50 s.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { simulate } from '../src/sim/simulate.js';
import { DEFAULT_FAST_FORWARD, noMetrics, type SimInput } from '../src/sim/types.js';
import { Rng } from '../src/engine/rng.js';
import { Scheduler, type DirectTarget } from '../src/engine/scheduler.js';
import { MIB, MS, SEC, US } from '../src/engine/units.js';
import { deepMerge, profileDefaults } from '../src/net/config.js';
import { fatTree, fatTreePreset, fatTreePresetOptions, rdcn, spineLeafPreset, star } from '../src/net/topology/index.js';
import { partitionTopology } from '../src/net/topology/partition.js';
import { PARALLEL_ENGINE } from '../src/sim/parallel/threads.js';
import { parallelUnsupported, runParallel } from '../src/sim/parallel/parallel.js';
import type { PartitionStats } from '../src/sim/parallel/partition-loop.js';
import { FctStream } from '../src/experiment/run/output.js';
import { runSummary } from '../src/metrics/summary.js';
import { loadCdf, poissonFlows, poissonStream } from '../src/workload/index.js';
import type { FlowSpec } from '../src/workload/types.js';
import { CollectiveDriver, strideGroupIds } from '../src/workload/collective.js';

const metricsOff = noMetrics();

/** the scenario names `scenario()` knows */
const SCENARIOS = ['a', 'b', 'b2', 'bfc', 'c', 'd', 'e', 'g', 'gf', 'n', 'p', 'r', 's', 't', 'v'] as const;

function scenario(name: string): { title: string; input: SimInput } {
  if (name === 'a') {
    const topo = star({ hosts: 17, rateBps: 100e9, delayPs: 1 * US });
    const flows: FlowSpec[] = [];
    for (let i = 0; i < 16; i++) flows.push({ src: i, dst: 16, bytes: 1e12, startPs: 0 });
    return {
      title: '(a) 16:1 incast, long flows, 100G star, 10 ms, DCQCN',
      input: { seed: 1, topology: topo, net: profileDefaults('oscar'), cc: { name: 'dcqcn', params: {} }, flows, stopAtPs: 10 * MS, maxTimePs: 10 * MS, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'b' || name === 'b2') {
    const prefix = name === 'b2';
    const topo = fatTreePreset('oscar320');
    const hosts = Array.from({ length: 320 }, (_, i) => i);
    const flows = poissonFlows({ sources: hosts, destinations: hosts, cdf: loadCdf('cachefollower'), load: 0.8, refRateBps: 100e9, startPs: 0, durationPs: 10 * MS, rng: new Rng(1).fork('workload/0') });
    if (prefix) {
      return {
        title: `(b2) (b) stopped at 2 ms simulated (${flows.length} flows in the workload), DCQCN`,
        input: { seed: 1, topology: topo, net: profileDefaults('oscar'), cc: { name: 'dcqcn', params: {} }, flows, stopAtPs: 2 * MS, maxTimePs: 2 * MS, linkEvents: [], metrics: metricsOff },
      };
    }
    return {
      title: `(b) OSCAR 320-host fat-tree, CacheFollower 80%, 10 ms arrivals (${flows.length} flows), DCQCN`,
      input: { seed: 1, topology: topo, net: profileDefaults('oscar'), cc: { name: 'dcqcn', params: {} }, flows, stopAtPs: null, maxTimePs: 1 * SEC, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 't') {
    const topo = fatTree({ ...fatTreePresetOptions('oscar320'), name: 'ft1024', pods: 16 });
    const hosts = Array.from({ length: topo.hostCount }, (_, i) => i);
    const flows = poissonFlows({ sources: hosts, destinations: hosts, cdf: loadCdf('cachefollower'), load: 0.8, refRateBps: 100e9, startPs: 0, durationPs: 200 * US, rng: new Rng(1).fork('workload/0') });
    return {
      title: `(t) 1,024-host fat tree (16 T-FT320 pods), CacheFollower 80%, 200 us arrivals (${flows.length} flows), stopped at 0.5 ms, DCQCN`,
      input: { seed: 1, topology: topo, net: profileDefaults('oscar'), cc: { name: 'dcqcn', params: {} }, flows, stopAtPs: 0.5 * MS, maxTimePs: 0.5 * MS, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'c' || name === 'd') {
    const long = name === 'd';
    const topo = fatTreePreset('powertcp256');
    const hosts = Array.from({ length: 256 }, (_, i) => i);
    // load on the ToR uplinks: 32 × 25 G hosts share 2 × 100 G uplinks (4:1), i.e. 6.25 G per host
    const flows = poissonFlows({ sources: hosts, destinations: hosts, cdf: loadCdf('websearch-powertcp'), load: 0.6, refRateBps: 6.25e9, startPs: 0, durationPs: (long ? 100 : 10) * MS, rng: new Rng(1).fork('workload/0') });
    const net = deepMerge(profileDefaults('hpcc'), { switch: { bufferBytes: 4 * MIB }, transport: { txTimeQuantization: 'floorExact' } });
    if (long) {
      return {
        title: `(d) PowerTCP 256-host 4:1 tree, WebSearch 60%, 100 ms arrivals (${flows.length} flows), HPCC`,
        input: { seed: 1, topology: topo, net, cc: { name: 'hpcc', params: {} }, flows, stopAtPs: null, maxTimePs: 2 * SEC, linkEvents: [], metrics: metricsOff },
      };
    }
    return {
      title: `(c) PowerTCP 256-host 4:1 tree, WebSearch 60%, 10 ms arrivals (${flows.length} flows), DCQCN + window`,
      input: { seed: 1, topology: topo, net, cc: { name: 'dcqcn', params: { preset: 'powertcp', window: 'bdp' } }, flows, stopAtPs: null, maxTimePs: 2 * SEC, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'r' || name === 'p') {
    const topo = fatTreePreset('powertcp256');
    const hosts = Array.from({ length: 256 }, (_, i) => i);
    const flows = poissonFlows({ sources: hosts, destinations: hosts, cdf: loadCdf('websearch-powertcp'), load: 0.6, refRateBps: 6.25e9, startPs: 0, durationPs: 20 * MS, rng: new Rng(1).fork('workload/0') });
    const net = deepMerge(profileDefaults('hpcc'), { switch: { bufferBytes: 4 * MIB, dtMode: 'alpha', ptPools: 'ptWorkload' }, transport: { txTimeQuantization: 'floorExact' } });
    if (name === 'p') {
      return {
        title: `(p) (r) with PowerTCP (profile inetTub, the Figs 6/7 CC): 20 ms arrivals (${flows.length} flows), PowerTCP-artifact MMU`,
        input: { seed: 1, topology: topo, net, cc: { name: 'powertcp', params: { profile: 'inetTub' } }, flows, stopAtPs: null, maxTimePs: 2 * SEC, linkEvents: [], metrics: metricsOff },
      };
    }
    return {
      title: `(r) replay-like: PowerTCP 256-host tree, WebSearch 60%, 20 ms arrivals (${flows.length} flows), hpcc profile, PowerTCP-artifact MMU, HPCC`,
      input: { seed: 1, topology: topo, net, cc: { name: 'hpcc', params: {} }, flows, stopAtPs: null, maxTimePs: 2 * SEC, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'e') {
    const topo = fatTreePreset('powertcp256');
    const hosts = Array.from({ length: 256 }, (_, i) => i);
    const n = 2_000_000;
    const flowStream = poissonStream({ sources: hosts, destinations: hosts, cdf: loadCdf('keyvalue'), load: 0.6, refRateBps: 6.25e9, startPs: 0, durationPs: Infinity, rng: new Rng(1).fork('workload/0') }, n);
    const net = deepMerge(profileDefaults('hpcc'), { switch: { bufferBytes: 4 * MIB }, transport: { txTimeQuantization: 'floorExact' } });
    return {
      title: `(e) PowerTCP 256-host 4:1 tree, keyvalue 60%, ${n.toLocaleString('en-US')} flows, HPCC (flows made lazily, FCT rows streamed)`,
      input: { seed: 1, topology: topo, net, cc: { name: 'hpcc', params: {} }, flows: [], flowStream, stopAtPs: null, maxTimePs: 2 * SEC, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'g') {
    const topo = spineLeafPreset('oscar64');
    const groups = strideGroupIds(16, 4, 64);
    const plan = { op: 'allreduce', chunksOf: (n: number) => new Float64Array(2 * (n - 1)).fill(16_000_000 / n), iterations: 1, compute: 0, computeFirst: false, start: 0, tag: 'allreduce' } as const;
    return {
      title: '(g) OSCAR T-SL64 spine-leaf, 4 ring all-reduce jobs of 16 hosts (one per leaf), 16 MB each, HPCC',
      input: { seed: 1, topology: topo, net: profileDefaults('oscar'), cc: { name: 'hpcc', params: {} }, flows: [], drivers: [new CollectiveDriver(groups, plan, undefined)], stopAtPs: null, maxTimePs: 1 * SEC, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'gf') {
    const topo = spineLeafPreset('oscar64');
    const groups = strideGroupIds(16, 4, 64);
    const plan = { op: 'allreduce', chunksOf: (n: number) => new Float64Array(2 * (n - 1)).fill(64_000_000 / n), iterations: 1, compute: 0, computeFirst: false, start: 0, tag: 'allreduce' } as const;
    const fastForward = { ...DEFAULT_FAST_FORWARD, intervalRtts: 1, intervals: 4, minSkipRtts: 8, marginRtts: 4 };
    return {
      title: '(gf) (g) with 64 MB per job and fast-forward (engine.fastForward)',
      input: { seed: 1, topology: topo, net: profileDefaults('oscar'), cc: { name: 'hpcc', params: {} }, flows: [], drivers: [new CollectiveDriver(groups, plan, undefined)], stopAtPs: null, maxTimePs: 1 * SEC, linkEvents: [], metrics: metricsOff, fastForward },
    };
  }
  if (name === 'bfc') {
    const topo = fatTreePreset('oscar320');
    const hosts = Array.from({ length: 320 }, (_, i) => i);
    const flows = poissonFlows({ sources: hosts, destinations: hosts, cdf: loadCdf('cachefollower'), load: 0.5, refRateBps: 100e9, startPs: 0, durationPs: 1 * MS, rng: new Rng(1).fork('workload/0') });
    const net = deepMerge(profileDefaults('oscar'), { switch: { pfcEnabled: false, bfc: { queues: 32, pauseBytes: 25_000, resumeBytes: 22_000 } } });
    return {
      title: `(bfc) OSCAR 320-host fat-tree, CacheFollower 50%, 1 ms arrivals (${flows.length} flows), BFC-32, line-rate hosts`,
      input: { seed: 1, topology: topo, net, cc: { name: 'none', params: {} }, flows, stopAtPs: null, maxTimePs: 1 * SEC, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'n') {
    const topo = fatTreePreset('oscar320', { name: 'oscar320-oversub2', aggCoreRateBps: 200e9 });
    const hosts = Array.from({ length: 320 }, (_, i) => i);
    const flows = poissonFlows({ sources: hosts, destinations: hosts, cdf: loadCdf('websearch'), load: 0.8, refRateBps: 100e9, startPs: 0, durationPs: 0.5 * MS, rng: new Rng(1).fork('workload/0') });
    return {
      title: `(n) OSCAR 320-host fat tree, agg-core 2:1, WebSearch 80%, 0.5 ms arrivals (${flows.length} flows), NDP (trimming, PULLs, spraying, no PFC)`,
      input: { seed: 1, topology: topo, net: profileDefaults('oscar'), cc: { name: 'ndp', params: {} }, flows, stopAtPs: null, maxTimePs: 1 * SEC, linkEvents: [], metrics: metricsOff },
    };
  }
  if (name === 'v') {
    const topo = rdcn({ tors: 25, hostsPerTor: 10, hostRateBps: 25e9, packetRateBps: 25e9, circuitRateBps: 100e9, delayPs: 3 * US, dayPs: 225 * US, nightPs: 20 * US });
    const flows: FlowSpec[] = [];
    for (let t = 0; t < 25; t++) for (let s = 0; s < 10; s++) flows.push({ src: t * 10 + s, dst: ((t + 1 + s) % 25) * 10 + s, bytes: 1e8, startPs: 0 });
    const net = deepMerge(profileDefaults('hpcc'), { switch: { bufferBytes: 64 * MIB }, transport: { retxMode: 'selective' } });
    return {
      title: '(v) reconfigurable DC: 25 ToRs x 10, 25 G packet network, 100 G circuits (24 matchings, 225/20 us), VOQs, 250 long flows to 10 racks per ToR, 2.45 ms, PowerTCP',
      input: { seed: 1, topology: topo, net, cc: { name: 'powertcp', params: { updates: 'perRtt' } }, flows, stopAtPs: 2.45 * MS, maxTimePs: 2.45 * MS, linkEvents: [], metrics: metricsOff },
    };
  }
  throw new Error(`unknown scenario "${name}" (${SCENARIOS.join(', ')})`);
}

/** Bench (s): the scheduler's own cost per event (see the file comment). */
function runScheduler(): void {
  const elements = 1100;
  const sched = new Scheduler(4096);
  // delays 80 ns .. 1.28 us (an LCG, fixed), plus 1 us of "propagation" on the arrival events
  const delays = new Int32Array(1 << 16);
  let x = 12345;
  for (let i = 0; i < delays.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    delays[i] = 80 * 1000 + (x % 1_200_000);
  }
  let k = 0;
  class Element implements DirectTarget {
    txSlot = -1;
    arriveSlot = -1;
    onTxDone(): void {
      sched.postSlot(this.txSlot, delays[k++ & 0xffff]!, 0);
    }
    onArrive(): void {
      sched.postSlot(this.arriveSlot, delays[k++ & 0xffff]!, 1000 * 1000);
    }
  }
  const els = Array.from({ length: elements }, () => new Element());
  const { tx, arrive } = sched.registerDirect(els, 'Element.onTxDone', 'Element.onArrive');
  for (let i = 0; i < elements; i++) {
    els[i]!.txSlot = sched.directSlot(tx, i);
    els[i]!.arriveSlot = sched.directSlot(arrive, i);
  }
  for (let i = 0; i < elements; i++) {
    sched.postSlot(els[i]!.txSlot, delays[i]!, 0);
    sched.postSlot(els[i]!.arriveSlot, delays[elements + i]!, 0);
  }
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  sched.run(20 * MS);
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const events = sched.eventsProcessed;
  const title = `(s) the scheduler alone: ${elements} elements x 2 direct events, 20 ms simulated, empty handlers (${((1e9 * wallS) / events).toFixed(1)} ns per event)`;
  printResult(title, wallS, cpu, events, sched.now, { flows: 0, finished: 0, drops: 0, pauses: 0 });
}

/** Writes a child's result line, which the parent (or bench/compare.ts) reads. */
function printResult(
  title: string,
  wallS: number,
  cpu: NodeJS.CpuUsage,
  events: number,
  endPs: number,
  extra: { flows: number; finished: number; drops: number; pauses: number; meanSlowdown?: number; meanJobMs?: number; partitions?: object[] },
): void {
  const res = {
    title,
    wallS,
    // CPU time of this process (user + system): less sensitive than wall time to other load on the machine
    cpuS: (cpu.user + cpu.system) / 1e6,
    events,
    eventsPerSec: events / wallS,
    simulatedS: endPs / SEC,
    simPerWall: endPs / SEC / wallS,
    rssMb: process.resourceUsage().maxRSS / 1024,
    ...extra,
  };
  process.stdout.write(JSON.stringify(res) + '\n');
}

/**
 * Runs one scenario in this process; `untilMs` stops it at that simulated time (bench/instructions.ts);
 * `threads` > 1: on that many partitions (see the file comment).
 */
function runOne(name: string, untilMs?: number, threads = 1): void {
  if (name === 's') {
    runScheduler();
    return;
  }
  // `<scenario>+bd`: the scenario with the FCT breakdown on (metrics.breakdown; docs/performance.md)
  const bd = name.endsWith('+bd');
  const { title: title0, input } = scenario(bd ? name.slice(0, -3) : name);
  if (bd) input.metrics = { ...input.metrics, breakdown: true };
  let title = bd ? `${title0} + breakdown` : title0;
  if (untilMs !== undefined) {
    input.stopAtPs = untilMs * MS;
    input.maxTimePs = untilMs * MS;
  }
  let last = 0;
  input.onProgress = (now, _end, events, fin, total) => {
    const t = performance.now();
    if (t - last < 10_000) return;
    last = t;
    process.stderr.write(`  [${name}] simulated ${(now / 1e9).toFixed(3)} ms, ${(events / 1e6).toFixed(1)} M events, ${fin}/${total} flows\n`);
  };
  // (e) streams its FCT rows to a scratch file, as `ccsim run` does
  const fct = name === 'e' ? new FctStream('csv') : null;
  let out;
  let meanSlowdown = NaN;
  let meanJobMs: number | undefined;
  const stats: PartitionStats[] = [];
  const cpu0 = process.cpuUsage();
  let cpu;
  try {
    const full = fct === null ? input : { ...input, fctSink: fct.sink };
    const why = threads > 1 ? parallelUnsupported(full) : null;
    if (threads > 1 && PARALLEL_ENGINE && why === null) {
      const part = partitionTopology(input.topology, threads);
      const t0 = performance.now();
      const o = runParallel(full, part, stats);
      if (o === null) throw new Error('bench: a worker needed the whole network (deadlock check)');
      out = { ...o, wallMs: performance.now() - t0 };
      title += ` [${part.count} threads, ${part.crossLinks} cut links, lookahead ${part.lookaheadPs / US} us]`;
    } else {
      if (threads > 1) title += ` [${threads} threads asked, run on ONE thread: ${why ?? 'PARALLEL_ENGINE off'}]`;
      out = simulate(full);
    }
    cpu = process.cpuUsage(cpu0);
    const summary = runSummary(out);
    meanSlowdown = summary.fct.overall.meanSlowdown;
    if (summary.jobs !== undefined) meanJobMs = summary.jobs.meanPs / MS;
  } finally {
    fct?.dispose();
  }
  const t = out.totals;
  // per partition: windows, events, packets sent across cuts, seconds in the scheduler and at the barrier
  const partitions = stats.map((p) => ({ windows: p.windows, events: p.events, crossSent: p.crossSent, runS: p.runMs / 1000, waitS: p.waitMs / 1000 }));
  printResult(title, out.wallMs / 1000, cpu, out.events, out.endPs, { flows: t.flows, finished: t.finished, drops: t.drops, pauses: t.pausesSent, meanSlowdown, ...(meanJobMs !== undefined ? { meanJobMs } : {}), ...(partitions.length > 0 ? { partitions } : {}) });
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    // --child <scenario> [--until-ms <ms>] [--threads <n>]
    const ui = args.indexOf('--until-ms');
    const until = ui > 0 ? Number(args[ui + 1]) : undefined;
    if (until !== undefined && !(until > 0)) {
      process.stderr.write(`bench: --until-ms takes a positive number of simulated ms, got "${args[ui + 1]}"\n`);
      process.exitCode = 2;
      return;
    }
    const ti = args.indexOf('--threads');
    runOne(args[1]!, until, ti > 0 ? Number(args[ti + 1]) : 1);
    return;
  }
  // options: --threads 1,2 and --until-ms x, anywhere among the scenario names
  const rest: string[] = [];
  let threadList = [1];
  let untilArg: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--threads') {
      threadList = String(args[++i]).split(',').map(Number);
      if (threadList.some((t) => !Number.isInteger(t) || t < 1)) {
        process.stderr.write(`bench: --threads takes thread counts like 1,2, got "${args[i]}"\n`);
        process.exitCode = 2;
        return;
      }
    } else if (args[i] === '--until-ms') untilArg = ['--until-ms', String(args[++i])];
    else rest.push(args[i]!);
  }
  const names = rest.length > 0 ? rest : ['a', 'c', 'r', 'd', 'b', 'e'];
  const bad = names.find((n) => !(SCENARIOS as readonly string[]).includes(n));
  if (bad !== undefined) {
    process.stderr.write(`bench: unknown scenario "${bad}" (use any of ${SCENARIOS.join(', ')}; none runs all but b2, bfc, g, gf, n, p, s, t and v)\n`);
    process.exitCode = 2;
    return;
  }
  const self = fileURLToPath(import.meta.url);
  console.log(`ccsim bench on node ${process.version}`);
  for (const n of names) {
    const seen: Record<string, unknown>[] = [];
    for (const threads of threadList) {
      const heap = n === 'e' ? ['--max-old-space-size=700'] : [];
      const r = spawnSync(process.execPath, [...heap, self, '--child', n, ...untilArg, '--threads', String(threads)], { encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'inherit'] });
      if (r.status !== 0) {
        console.log(`(${n}) failed with exit code ${r.status}`);
        process.exitCode = 1;
        continue;
      }
      const line = r.stdout.trim().split('\n').pop()!;
      const x = JSON.parse(line) as Record<string, unknown>;
      seen.push(x);
      const f = (v: unknown, d = 2): string => (typeof v === 'number' ? v.toFixed(d) : String(v));
      console.log(x.title);
      console.log(
        `    wall ${f(x.wallS)} s | cpu ${f(x.cpuS)} s | events ${x.events} | ${f(Number(x.eventsPerSec) / 1e6)} M events/s | simulated ${f(Number(x.simulatedS) * 1e3, 3)} ms | ${f(x.simPerWall, 5)} sim-s/wall-s | peak RSS ${f(x.rssMb, 0)} MB | flows ${x.finished}/${x.flows} | drops ${x.drops} | pauses ${x.pauses}${typeof x.meanSlowdown === 'number' ? ` | mean slowdown ${f(x.meanSlowdown, 3)}` : ''}${typeof x.meanJobMs === 'number' ? ` | mean job iteration ${f(x.meanJobMs, 3)} ms` : ''}`,
      );
      const parts = (x.partitions ?? []) as { windows: number; events: number; crossSent: number; runS: number; waitS: number }[];
      for (const [i, p] of parts.entries()) {
        console.log(`    partition ${i}: ${p.events} events, ${p.windows} windows (${f(p.events / p.windows, 0)} events each), ${p.crossSent} packets across cuts, ${f(p.runS)} s running, ${f(p.waitS)} s at the barrier`);
      }
      if (parts.length > 0) console.log(`    speed-up ${seen.length > 1 ? f(Number(seen[0]!.wallS) / Number(x.wallS)) : '-'}x over the first thread count's wall time`);
    }
    if (seen.length > 1) {
      const same = (k: string): boolean => seen.every((x) => x[k] === seen[0]![k]);
      const agree = same('events') && same('finished') && same('meanSlowdown') && same('pauses') && same('drops');
      console.log(`    thread counts ${threadList.join(', ')}: ${agree ? 'same events, finished flows, pauses, drops and mean slowdown' : 'RESULTS DIFFER'}`);
      if (!agree) process.exitCode = 1;
    }
  }
}

main();
