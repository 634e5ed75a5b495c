/**
 * Builds a simulation from a resolved `SimInput`, runs it and collects a
 * `SimOutput`. Everything lives in objects created here (one `Scheduler`, one
 * `NetContext`), so two runs in one process never share state.
 */
import { findCc, ccNames } from '../cc/registry.js';
import { Rng } from '../engine/rng.js';
import { Scheduler } from '../engine/scheduler.js';
import { NS, SEC, US } from '../engine/units.js';
import { NetContext } from '../net/context.js';
import { DROP_REASONS } from '../net/mmu.js';
import { Network } from '../net/network.js';
import type { Port } from '../net/port.js';
import { mix32 } from '../net/switch.js';
import { buildPortMap, computeRoutes, PathOracle } from '../net/topology/routing.js';
import { Flow } from '../transport/flow.js';
import { Transport } from '../transport/transport.js';
import type { FlowSeries, NodeCounters, PortCounters, PortRef, PortSeries, SimInput, SimOutput } from './types.js';

const floorNs = (ps: number): number => Math.floor(ps / NS) * NS;

export function simulate(input: SimInput): SimOutput {
  const wallStart = performance.now();
  const net = input.net;
  const tc = net.transport;
  const def = findCc(input.cc.name);
  if (def === undefined) throw new Error(`unknown congestion control "${input.cc.name}" (known: ${ccNames().join(', ')})`);
  const params: unknown = def.params.parse(input.cc.params ?? {});

  const sched = new Scheduler(4096);
  const ctx = new NetContext(sched, tc.txTimeQuantization);
  ctx.pfcBytes = tc.pfcBytes;
  const rng = new Rng(input.seed);
  const topo = input.topology;
  const portMap = buildPortMap(topo);
  const routes = computeRoutes(topo, portMap);
  const oracle = new PathOracle(topo, portMap);
  const network = new Network(ctx, topo, net, portMap, routes, rng.fork('net'), {
    int: def.needs.int === true,
    ecn: net.switch.ecn.enabled,
  });
  const transport = new Transport(ctx, net, network.hosts, def);
  transport.setCcParams(params);
  for (const h of network.hosts) h.transport = transport;

  // ---- flows
  const ccData = def.dataHeaderBytes(net, params as never);
  const ccAck = def.ackHeaderBytes(net, params as never);
  const ackHdr = tc.ackBytes + ccAck;
  const ackWire = Math.max(tc.ackMinBytes, ackHdr);
  // D-OSCAR NACKs carry no CC echo; their padding is computed from the ACK header (network-model.md §1.4)
  const nackWire = tc.nackCarriesEcho ? ackWire : tc.ackBytes + Math.max(0, tc.ackMinBytes - ackHdr);
  const mtu = tc.mtuBytes;
  const hdr = tc.dataHeaderBytes + ccData;
  let globalRtt = 0;
  let globalBdp = 0;
  if (tc.baseRtt === 'globalMaxHpcc') {
    globalRtt = oracle.maxPairRttPs(mtu);
    globalBdp = oracle.maxPairBdpBytes(mtu);
  }
  const specs = input.flows.map((f, i) => ({ f, i }));
  specs.sort((a, b) => a.f.startPs - b.f.startPs || a.i - b.i);
  const pairCount = new Map<number, number>();
  const qpCount = new Int32Array(topo.hostCount);
  const H = topo.hostCount;
  const flows: Flow[] = [];
  for (let id = 0; id < specs.length; id++) {
    const s = specs[id]!.f;
    if (s.src === s.dst) throw new Error(`flow ${specs[id]!.i}: src and dst are both host ${s.src}`);
    const f = new Flow(transport, id, s.src, s.dst, s.bytes, s.startPs, s.prio ?? tc.dataPriority, s.tag ?? '');
    const lineRate = network.hosts[s.src]!.port.rateBps;
    f.lineRateBps = lineRate;
    f.mtuBytes = mtu;
    f.dataHeaderBytes = hdr;
    f.dataWireBytes = mtu + hdr;
    f.ackWireBytes = ackWire;
    f.nackWireBytes = nackWire;
    f.minRateBps = tc.minRateRatio * lineRate;
    f.rateBps = lineRate;
    const path = oracle.info(s.src, s.dst);
    if (tc.baseRtt === 'globalMaxHpcc') {
      f.baseRttPs = globalRtt;
      f.baseBdpBytes = globalBdp;
      f.baseOneWayPs = Math.round(globalRtt / 2);
    } else {
      // D-OSCAR (network-model.md §1.5): every hop at the host rate, each term truncated to ns
      const pktSer = floorNs(((mtu + tc.dataHeaderBytes) * 8 * SEC) / lineRate);
      const ackSer = floorNs((ackWire * 8 * SEC) / lineRate);
      f.baseRttPs = 2 * path.delayPs + path.hops * (pktSer + ackSer);
      f.baseBdpBytes = (lineRate / 8) * (f.baseRttPs / SEC);
      f.baseOneWayPs = path.delayPs + path.hops * pktSer;
    }
    // ideal FCT (network-model.md §6.2)
    if (net.metrics.idealFct === 'hpcc') {
      let rttNs = 0;
      for (const r of path.rates) rttNs += Math.floor((mtu * 8 * 1e9) / r);
      rttNs += (2 * path.delayPs) / NS;
      const total = s.bytes + Math.ceil(s.bytes / mtu) * tc.dataHeaderBytes;
      f.idealFctPs = (Math.floor(rttNs) + Math.floor((total * 8 * 1e9) / path.minRateBps)) * NS;
    } else {
      f.idealFctPs = Math.round((s.bytes * 8 * SEC) / lineRate) + 2 * path.delayPs;
    }
    // flow identifiers and ECMP hashes (network-model.md §2.8)
    if (tc.portRule === 'hpcc') {
      const key = s.src * H + s.dst;
      const k = pairCount.get(key) ?? 0;
      pairCount.set(key, k + 1);
      f.sport = 10000 + k;
      f.dport = s.tag === 'incast' ? 200 : 100;
    } else {
      f.sport = ++qpCount[s.src]!;
      f.dport = ++qpCount[s.dst]!;
    }
    // kept as int32 so packets hold them as small integers
    f.hash = mix32(mix32(mix32(s.src + 1) ^ (s.dst + 0x3c6ef372)) ^ (f.sport | (f.dport << 16))) | 0;
    f.ackHash = mix32(mix32(mix32(s.dst + 1) ^ (s.src + 0x3c6ef372)) ^ (f.dport | (f.sport << 16))) | 0;
    flows.push(f);
  }
  transport.addFlows(flows);

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
  });
  linkEvents.forEach((e, i) => sched.schedule(e.atPs, kLink, i, 0));

  // ---- samplers
  const m = input.metrics;
  const resolvePort = (r: PortRef, what: string): Port => {
    const p = network.nodePorts[r.node]?.[r.port];
    if (p === undefined) throw new Error(`${what}: node ${r.node} has no port ${r.port}`);
    return p;
  };
  const qPorts = m.queuePorts.map((r) => resolvePort(r, 'metrics.queues'));
  const qSeries: PortSeries[] = qPorts.map((p) => ({ node: p.node, port: p.index, t: [], v: [] }));
  const tPorts = m.throughputPorts.map((r) => resolvePort(r, 'metrics.throughput'));
  const tSeries: PortSeries[] = tPorts.map((p) => ({ node: p.node, port: p.index, t: [], v: [] }));
  const tLast = tPorts.map(() => 0);
  const flowIds = m.flowThroughput === null ? [] : m.flowThroughput.length === 0 ? flows.map((f) => f.id) : m.flowThroughput;
  const fSeries: FlowSeries[] = flowIds.map((id) => ({ flow: id, t: [], v: [] }));
  const kSample = sched.register({
    fire: (_id, tag) => {
      const now = sched.now;
      if (tag === 0) {
        for (let i = 0; i < qPorts.length; i++) {
          qSeries[i]!.t.push(now);
          qSeries[i]!.v.push(qPorts[i]!.totalBytes);
        }
        if (!done) sched.after(m.queueIntervalPs, kSample, 0, 0);
      } else if (tag === 1) {
        for (let i = 0; i < tPorts.length; i++) {
          const b = tPorts[i]!.txBytes;
          tSeries[i]!.t.push(now);
          tSeries[i]!.v.push(((b - tLast[i]!) * 8 * SEC) / m.throughputIntervalPs);
          tLast[i] = b;
        }
        if (!done) sched.after(m.throughputIntervalPs, kSample, 0, 1);
      } else {
        for (let i = 0; i < flowIds.length; i++) {
          const f = flows[flowIds[i]!];
          if (f === undefined) continue;
          fSeries[i]!.t.push(now);
          fSeries[i]!.v.push(((f.sndUna - f.lastSampledAcked) * 8 * SEC) / m.flowThroughputIntervalPs);
          f.lastSampledAcked = f.sndUna;
        }
        if (!done) sched.after(m.flowThroughputIntervalPs, kSample, 0, 2);
      }
    },
  });
  if (qPorts.length > 0) sched.schedule(0, kSample, 0, 0);
  if (tPorts.length > 0) sched.after(m.throughputIntervalPs, kSample, 0, 1);
  if (fSeries.length > 0) sched.after(m.flowThroughputIntervalPs, kSample, 0, 2);

  // ---- run
  const endPs = input.stopAtPs ?? input.maxTimePs;
  // run in slices of simulated time sized to take ~0.1-0.5 s of wall time each, so progress can be shown
  let chunk = 10 * US;
  let lastProgress = performance.now();
  const report = (): void => input.onProgress?.(Math.min(sched.now, endPs), endPs, sched.eventsProcessed, transport.finishedCount, total);
  while (!done || !untilDone) {
    const t0 = performance.now();
    const emptied = sched.run(Math.min(sched.now + chunk, endPs));
    const t1 = performance.now();
    if (t1 - t0 < 100) chunk *= 2;
    else if (t1 - t0 > 500 && chunk > 1 * US) chunk = Math.floor(chunk / 2);
    if (t1 - lastProgress > 200) {
      report();
      lastProgress = t1;
    }
    if (emptied || sched.now >= endPs) break;
  }
  report();

  // ---- collect
  const fct = [];
  const unfinished = [];
  let retx = 0;
  let timeouts = 0;
  let dataSent = 0;
  for (const f of flows) {
    retx += f.retxPackets;
    timeouts += f.timeouts;
    dataSent += f.dataPacketsSent;
    if (f.finished) {
      const fctPs = f.finishPs - f.startPs;
      let slow = fctPs / f.idealFctPs;
      if (net.metrics.clampSlowdownAt1 && slow < 1) slow = 1;
      fct.push({ id: f.id, src: f.src, dst: f.dst, bytes: f.sizeBytes, startPs: f.startPs, finishPs: f.finishPs, fctPs, idealFctPs: f.idealFctPs, slowdown: slow, tag: f.tag });
    } else {
      unfinished.push({ id: f.id, src: f.src, dst: f.dst, bytes: f.sizeBytes, ackedBytes: f.sndUna, startPs: f.startPs, tag: f.tag });
    }
  }
  const nodes: NodeCounters[] = [];
  const ports: PortCounters[] = [];
  let drops = 0;
  let pausesSent = 0;
  for (const node of topo.nodes) {
    const list = network.nodePorts[node.id]!;
    const sw = network.switches[node.id] ?? null;
    const c: NodeCounters = {
      node: node.id,
      name: node.name,
      layer: node.layer,
      pausesSent: 0,
      pausesReceived: 0,
      resumesSent: 0,
      resumesReceived: 0,
      drops: 0,
      dropsByReason: {},
      txBytes: 0,
      ecnMarked: 0,
    };
    for (const p of list) {
      c.pausesSent += p.pausesSent;
      c.pausesReceived += p.pausesReceived;
      c.resumesSent += p.resumesSent;
      c.resumesReceived += p.resumesReceived;
      c.drops += p.drops;
      c.txBytes += p.txBytes;
      c.ecnMarked += p.ecnMarked;
      ports.push({
        node: node.id,
        port: p.index,
        peer: p.peerNode,
        pausesSent: p.pausesSent,
        pausesReceived: p.pausesReceived,
        drops: p.drops,
        txBytes: p.txBytes,
        txPackets: p.txPackets,
        maxQueueBytes: p.maxQueueBytes,
      });
    }
    if (sw !== null) {
      DROP_REASONS.forEach((r, i) => {
        const v = sw.mmu.dropsByReason[i]!;
        if (v > 0) c.dropsByReason[r] = v;
      });
    }
    drops += c.drops;
    pausesSent += c.pausesSent;
    nodes.push(c);
  }
  return {
    fct,
    unfinished,
    queues: qSeries,
    throughput: tSeries,
    flowThroughput: fSeries,
    nodes,
    ports,
    totals: {
      flows: flows.length,
      finished: transport.finishedCount,
      drops,
      pausesSent,
      retransmittedPackets: retx,
      timeouts,
      dataPacketsSent: dataSent,
    },
    endPs: sched.now,
    events: sched.eventsProcessed,
    wallMs: performance.now() - wallStart,
  };
}
