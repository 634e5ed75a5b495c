/**
 * End-of-run results: FCT rows and slowdowns of finished flows (§6.1–6.3),
 * unfinished flows with the bytes they got acknowledged (§3.9), and PFC, drop,
 * byte and ECN counters per node and per port (§3.9, §6.7).
 */
import type { FctRow, NodeCounters, PortCounters, SimOutput, UnfinishedFlow } from '../experiment/types.js';
import type { NetworkConfig } from '../net/config.js';
import { DROP_REASONS } from '../net/mmu.js';
import type { Network } from '../net/network.js';
import type { Topology } from '../net/topology/types.js';
import type { Flow } from '../transport/flow.js';

export type CollectedResults = Pick<SimOutput, 'fct' | 'unfinished' | 'nodes' | 'ports' | 'totals'>;

export function collectResults(flows: readonly Flow[], finishedCount: number, topo: Topology, network: Network, net: NetworkConfig): CollectedResults {
  const fct: FctRow[] = [];
  const unfinished: UnfinishedFlow[] = [];
  let retx = 0;
  let timeouts = 0;
  let dataSent = 0;
  for (const f of flows) {
    retx += f.retxPackets;
    timeouts += f.timeouts;
    dataSent += f.dataPacketsSent;
    if (f.finished) {
      const fctPs = f.finishPs - f.startPs;
      let slowdown = fctPs / f.idealFctPs;
      if (net.metrics.clampSlowdownAt1 && slowdown < 1) slowdown = 1;
      fct.push({ id: f.id, src: f.src, dst: f.dst, bytes: f.sizeBytes, startPs: f.startPs, finishPs: f.finishPs, fctPs, idealFctPs: f.idealFctPs, slowdown, tag: f.tag });
    } else {
      unfinished.push({ id: f.id, src: f.src, dst: f.dst, bytes: f.sizeBytes, ackedBytes: f.sndUna, startPs: f.startPs, tag: f.tag });
    }
  }
  const nodes: NodeCounters[] = [];
  const ports: PortCounters[] = [];
  let drops = 0;
  let pausesSent = 0;
  for (const node of topo.nodes) {
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
    for (const p of network.nodePorts[node.id]!) {
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
    const sw = network.switches[node.id] ?? null;
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
    nodes,
    ports,
    totals: { flows: flows.length, finished: finishedCount, drops, pausesSent, retransmittedPackets: retx, timeouts, dataPacketsSent: dataSent },
  };
}
