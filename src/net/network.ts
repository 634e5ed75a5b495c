/**
 * Instantiates a `Topology`: one Host or Switch per node, one Port per node
 * per attached link (port k of a node = its k-th link in `links` order), each
 * port wired to its peer.
 */
import type { Rng } from '../engine/rng.js';
import type { NetworkConfig } from './config.js';
import type { NetContext } from './context.js';
import { Host } from './host.js';
import { Port } from './port.js';
import { Switch } from './switch.js';
import type { SwitchNeeds } from './switch-features.js';
import type { PortMap, RouteTable, Topology } from './topology/types.js';

export class Network {
  readonly hosts: Host[] = [];
  /** switches by node id (null for hosts) */
  readonly switches: (Switch | null)[] = [];
  /** ports by node id, then port number */
  readonly nodePorts: Port[][] = [];
  readonly hostRateBps: number;
  kWake = -1;
  kPfcRefresh = -1;

  constructor(
    readonly ctx: NetContext,
    readonly topo: Topology,
    readonly net: NetworkConfig,
    readonly portMap: PortMap,
    readonly routes: RouteTable,
    rng: Rng,
    /** what the CC needs of the switches (its `CcNeeds`, passed unchanged): the needs table turns it into policies (switch-features.ts) */
    needs: SwitchNeeds,
  ) {
    const H = topo.hostCount;
    const hosts = this.hosts;
    this.kWake = ctx.sched.register({ fire: (id) => hosts[id]!.onWake() }, 'Host.onWake');
    const ports = ctx.ports;
    this.kPfcRefresh = ctx.sched.register({
      fire: (gid, cls) => {
        const p = ports[gid]!;
        (p.owner as Switch).onPfcRefresh(p.index, cls);
      },
    }, 'Switch.onPfcRefresh');
    for (const node of topo.nodes) {
      if (node.kind === 'host') {
        const h = new Host(ctx, node.id, net.transport, net.switch.pfcMode === 'quanta');
        h.kWake = this.kWake;
        this.hosts.push(h);
        this.switches.push(null);
      } else {
        const s = new Switch(ctx, node.id, net.switch, routes, rng.fork(`switch/${node.id}`), needs);
        s.kPfcRefresh = this.kPfcRefresh;
        s.dataClass = net.transport.dataPriority;
        this.switches.push(s);
      }
    }
    if (this.hosts.length !== H) throw new Error(`topology ${topo.name}: hosts must be nodes 0..${H - 1}`);
    // ports
    let maxHostRate = 0;
    for (let n = 0; n < topo.nodes.length; n++) {
      const start = portMap.portStart[n]!;
      const end = portMap.portStart[n + 1]!;
      const list: Port[] = [];
      const owner = n < H ? this.hosts[n]! : this.switches[n]!;
      for (let i = start; i < end; i++) {
        const link = topo.links[portMap.link[i]!]!;
        const port = new Port(ctx, ctx.ports.length, n, i - start, owner, link.rateBps, link.delayPs);
        ctx.ports.push(port);
        list.push(port);
      }
      this.nodePorts.push(list);
      if (n < H) {
        if (list.length !== 1) throw new Error(`topology ${topo.name}: host ${topo.nodes[n]!.name} must have exactly one link, has ${list.length}`);
        const h = this.hosts[n]!;
        h.port = list[0]!; // (strict priority: a port's default discipline)
        if (h.port.rateBps > maxHostRate) maxHostRate = h.port.rateBps;
      } else {
        for (const p of list) this.switches[n]!.ports.push(p);
      }
    }
    this.hostRateBps = maxHostRate;
    for (let n = 0; n < topo.nodes.length; n++) {
      const start = portMap.portStart[n]!;
      const list = this.nodePorts[n]!;
      for (let k = 0; k < list.length; k++) {
        const peerNode = portMap.peerNode[start + k]!;
        const p = list[k]!;
        p.peerNode = peerNode;
        p.peerPort = portMap.peerPort[start + k]!;
        p.peer = peerNode < H ? this.hosts[peerNode]! : this.switches[peerNode]!;
      }
    }
    for (const s of this.switches) if (s !== null) s.finish(maxHostRate);
    // a switch with admission policies receives through its gate (Switch.arrivals)
    for (const list of this.nodePorts) {
      for (const p of list) {
        const s = p.peerNode >= H ? this.switches[p.peerNode]! : null;
        if (s !== null && s.arrivals !== s) p.peer = s.arrivals;
      }
    }
  }

  /** Egress port of node a on its link to node b, or undefined. */
  portToward(a: number, b: number): Port | undefined {
    return this.nodePorts[a]?.find((p) => p.peerNode === b);
  }
}
