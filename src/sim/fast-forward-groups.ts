/**
 * The groups fast-forward detects and advances on their own (sim/fast-forward.ts;
 * docs/performance.md, "Fast-forward"): the connected components of a run's listed flows over
 * the links they can traverse. A flow can traverse its source's links, every equal-cost next hop
 * of every switch on the way to its destination (all of them: which one ECMP picks is not
 * needed, the union is a superset), and the same back for its ACKs. Two flows in different
 * groups never share a link, a queue or a PFC pause at any time of the run, so each group can
 * run on its own clock offset: a skip of one moves only its flows' sequence numbers and its own
 * flows still to start, and an arrival or a finish in one never restarts another's window.
 *
 * The groups are of the whole run, not of the flows in progress at one moment: a flow that will
 * join two groups later would need the one ahead in time to wait for the other, and a group's
 * state cannot be held back (the skip moves sequence numbers, never timestamps), so flows that
 * ever share a link are one group from the start. Groups still share their switches' buffers:
 * a steady group's queues stay as they were on the scheduler's clock, which is what the other
 * groups would see from a steady neighbour.
 */
import type { Network } from '../net/network.js';

export interface FlowGroups {
  /** groups (> 0) */
  count: number;
  /** group of each flow, by id */
  of: Int32Array;
  /** per group: the gids of the ports of its links, both directions */
  ports: Int32Array[];
}

/**
 * The groups of flows `ends` (src, dst by flow id, flattened: ends[2 * id], ends[2 * id + 1]) on
 * `network`'s routes. Groups are numbered in the order of their first flow.
 */
export function flowGroups(network: Network, ends: Int32Array): FlowGroups {
  const pm = network.portMap;
  const routes = network.routes;
  const H = routes.hostCount;
  const nLinks = network.topo.links.length;
  const parent = new Int32Array(nLinks);
  for (let i = 0; i < nLinks; i++) parent[i] = i;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[rb] = ra;
  };
  const nodes = network.topo.nodes.length;
  const stamp = new Int32Array(nodes).fill(-1);
  let mark = 0;
  const stack: number[] = [];
  const firstLink = new Int32Array(ends.length >> 1).fill(-1);
  /** unions every link a packet from host `src` to host `dst` can take with `anchor` (-1: the first one); returns the anchor */
  const walk = (src: number, dst: number, anchor: number): number => {
    mark++;
    for (let k = pm.portStart[src]!; k < pm.portStart[src + 1]!; k++) {
      const l = pm.link[k]!;
      if (anchor < 0) anchor = l;
      union(anchor, l);
      stack.push(pm.peerNode[k]!);
    }
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n < H || stamp[n] === mark) continue;
      stamp[n] = mark;
      const base = (n - H) * H + dst;
      const start = routes.routeStart[base]!;
      const cnt = routes.routeCount[base]!;
      for (let c = 0; c < cnt; c++) {
        const idx = pm.portStart[n]! + routes.ports[start + c]!;
        union(anchor, pm.link[idx]!);
        stack.push(pm.peerNode[idx]!);
      }
    }
    return anchor;
  };
  for (let id = 0; id < firstLink.length; id++) {
    const src = ends[2 * id]!;
    const dst = ends[2 * id + 1]!;
    const a = walk(src, dst, -1);
    walk(dst, src, a);
    firstLink[id] = a;
  }
  // number the groups by their first flow
  const groupOfRoot = new Int32Array(nLinks).fill(-1);
  const of = new Int32Array(firstLink.length);
  let count = 0;
  for (let id = 0; id < firstLink.length; id++) {
    const r = find(firstLink[id]!);
    if (groupOfRoot[r] === -1) groupOfRoot[r] = count++;
    of[id] = groupOfRoot[r]!;
  }
  const lists: number[][] = Array.from({ length: count }, () => []);
  for (let n = 0; n < nodes; n++) {
    const ports = network.nodePorts[n];
    if (ports === undefined) continue;
    for (let k = 0; k < ports.length; k++) {
      const g = groupOfRoot[find(pm.link[pm.portStart[n]! + k]!)]!;
      if (g >= 0) lists[g]!.push(ports[k]!.gid);
    }
  }
  return { count: Math.max(count, 1), of, ports: lists.map((l) => Int32Array.from(l)) };
}
