/**
 * Builds a simulation from a resolved `SimInput`, runs it and collects a
 * `SimOutput`. Everything lives in objects created here (one `Scheduler`, one
 * `NetContext`), so two runs in one process never share state.
 */
import { findCc, ccNames } from '../cc/registry.js';
import { unmetNeeds } from '../cc/types.js';
import { Rng } from '../engine/rng.js';
import { Scheduler } from '../engine/scheduler.js';
import { US } from '../engine/units.js';
import { collectResults } from '../metrics/collect.js';
import { Samplers } from '../metrics/samplers.js';
import { NetContext } from '../net/context.js';
import { DEFAULT_DEADLOCK, findDeadlockCycle, type DeadlockReport } from '../net/deadlock.js';
import { Network } from '../net/network.js';
import { buildPortMap, computeRoutes, PathOracle } from '../net/topology/routing.js';
import { createFlows } from '../transport/setup.js';
import { Transport } from '../transport/transport.js';
import type { SimInput, SimOutput } from './types.js';

export function simulate(input: SimInput): SimOutput {
  const wallStart = performance.now();
  const net = input.net;
  const tc = net.transport;
  const def = findCc(input.cc.name);
  if (def === undefined) throw new Error(`unknown congestion control "${input.cc.name}" (known: ${ccNames().join(', ')})`);
  const params: unknown = def.params.parse(input.cc.params ?? {});
  const unmet = unmetNeeds(def, net);
  if (unmet.length > 0) throw new Error(unmet.join('; '));

  const sched = new Scheduler(4096);
  const ctx = new NetContext(sched, tc.txTimeQuantization);
  ctx.pfcBytes = tc.pfcBytes;
  const rng = new Rng(input.seed);
  const topo = input.topology;
  const portMap = buildPortMap(topo);
  const routes = computeRoutes(topo, portMap);
  const oracle = new PathOracle(topo, portMap);
  const ecnMarking = def.needs.ecnMarking;
  const network = new Network(ctx, topo, net, portMap, routes, rng.fork('net'), {
    int: def.needs.int === true,
    ecn: net.switch.ecn.enabled || ecnMarking !== undefined,
    mpd: def.needs.mpd === true,
    tcd: def.needs.tcd === true,
    ...(ecnMarking !== undefined ? { ecnMarking } : {}),
  });
  const transport = new Transport(ctx, net, network.hosts, def);
  transport.setCcParams(params);
  for (const h of network.hosts) h.transport = transport;

  // ---- flows
  const flows = createFlows(input.flows, net, transport, network, oracle, {
    data: def.dataHeaderBytes(net, params as never),
    ack: def.ackHeaderBytes(net, params as never),
  });
  transport.addFlows(flows);
  ctx.flowDrops = new Int32Array(flows.length);

  // ---- stop rule
  let done = flows.length === 0;
  const total = flows.length;
  const untilDone = input.stopAtPs === null;
  transport.onFinish = () => {
    if (transport.finishedCount === total) {
      done = true;
      if (untilDone) sched.stop();
    }
  };

  // ---- link events
  const linkEvents = [...input.linkEvents].sort((a, b) => a.atPs - b.atPs);
  const kLink = sched.register({
    fire: (i) => {
      const e = linkEvents[i]!;
      for (const [x, y] of [
        [e.a, e.b],
        [e.b, e.a],
      ] as const) {
        const p = network.portToward(x, y);
        if (p === undefined) throw new Error(`events[${i}]: nodes ${e.a} and ${e.b} are not linked`);
        p.setRate(e.rateBps);
      }
    },
  }, 'linkEvents: Port.setRate');
  linkEvents.forEach((e, i) => sched.schedule(e.atPs, kLink, i, 0));

  // ---- samplers
  const samplers = new Samplers(sched, input.metrics, network, flows, () => done, def.traceFields);

  // ---- run
  const endPs = input.stopAtPs ?? input.maxTimePs;
  const dl = input.deadlock === undefined ? DEFAULT_DEADLOCK : input.deadlock;
  let nextCheck = dl === null ? Infinity : dl.checkIntervalPs;
  let deadlock: DeadlockReport | undefined;
  const checkDeadlock = (frozen: boolean): boolean => {
    if (dl === null || done) return false;
    const cycle = findDeadlockCycle(network, sched.now, dl.minPausedPs, frozen);
    if (cycle === null) return false;
    deadlock = { detectedAtPs: sched.now, minPausedPs: dl.minPausedPs, frozen, cycle, unfinishedFlows: total - transport.finishedCount, drops: 0, unfinishedWithDrops: 0, dropsRuledOut: false };
    return true;
  };
  // run in slices of simulated time sized to take ~0.1-0.5 s of wall time each, so progress can be shown;
  // slices also end at the deadlock-check times (fixed simulated times: results do not depend on the slicing)
  let chunk = 10 * US;
  let lastProgress = performance.now();
  let totalBytes = 0;
  for (const f of flows) totalBytes += f.sizeBytes;
  const report = (): void => {
    if (input.onProgress === undefined) return;
    let acked = 0;
    for (const f of flows) acked += f.finished ? f.sizeBytes : f.sndUna;
    input.onProgress(Math.min(sched.now, endPs), endPs, sched.eventsProcessed, transport.finishedCount, total, acked, totalBytes);
  };
  while (!done || !untilDone) {
    const t0 = performance.now();
    const until = Math.min(sched.now + chunk, endPs, nextCheck);
    const emptied = sched.run(until);
    const t1 = performance.now();
    if (t1 - t0 < 100) chunk *= 2;
    else if (t1 - t0 > 500 && chunk > 1 * US) chunk = Math.floor(chunk / 2);
    if (t1 - lastProgress > 200) {
      report();
      lastProgress = t1;
    }
    if (emptied) {
      // nothing can happen any more: paused queues stay paused for ever
      checkDeadlock(true);
      break;
    }
    if (sched.now >= nextCheck) {
      nextCheck += dl!.checkIntervalPs;
      if (checkDeadlock(false)) break;
    }
    if (sched.now >= endPs) break;
  }
  report();

  const results = collectResults(flows, transport.finishedCount, topo, network, net);
  if (deadlock !== undefined) {
    deadlock.drops = results.totals.drops;
    let lossy = 0;
    for (const f of flows) if (!f.finished && ctx.flowDrops[f.id]! > 0) lossy++;
    deadlock.unfinishedWithDrops = lossy;
    deadlock.dropsRuledOut = lossy === 0;
  }
  return {
    ...results,
    queues: samplers.queues,
    throughput: samplers.throughput,
    flowThroughput: samplers.flows,
    ccTrace: samplers.ccTrace,
    ...(input.metrics.switchBuffer !== undefined ? { switchBuffer: samplers.switchBuffer } : {}),
    endPs: sched.now,
    events: sched.eventsProcessed,
    wallMs: performance.now() - wallStart,
    ...(deadlock !== undefined ? { deadlock } : {}),
  };
}
