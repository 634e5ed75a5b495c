/**
 * The shape a run needs from a topology file, checked when the spec is
 * validated rather than when the network is built (docs/network-model.md §14):
 * every host has exactly one link and it goes to a switch (the host NIC has one
 * port), and every host can reach every other host. Parallel switch-switch
 * links are allowed (routing spreads over them); an island of switches without
 * hosts is harmless and allowed. Nodes are named by their ids (or names) in
 * the file and links by the line (or `links[i]`) that writes them.
 */
import type { LoadedTopology } from './files.js';
import { MAX_NEXT_HOPS } from './routing.js';

/** At most this many problems are listed; the rest are counted. */
const SHOWN = 8;

/** The file's problems, one message each (empty when the file is fine). */
export function topologyFileProblems(loaded: LoadedTopology, path: string): string[] {
  const { topology: topo, originalIds, linkSources } = loaded;
  const H = topo.hostCount;
  const named = (id: number): string => {
    const node = topo.nodes[id]!;
    const orig = originalIds[id]!;
    return node.name === `n${orig}` ? `${node.kind} ${orig}` : `${node.kind} "${node.name}"`;
  };
  const problems: string[] = [];
  // each host: its links to switches (indices into topo.links); host-host links are reported as they are met
  const hostLinks: number[][] = Array.from({ length: H }, () => []);
  const onHostLink = new Uint8Array(H);
  topo.links.forEach((l, i) => {
    if (l.a < H && l.b < H) {
      problems.push(`${linkSources[i]!}: links ${named(l.a)} to ${named(l.b)}; a host connects to one switch, not to another host`);
      onHostLink[l.a] = onHostLink[l.b] = 1;
    } else if (l.a < H) hostLinks[l.a]!.push(i);
    else if (l.b < H) hostLinks[l.b]!.push(i);
  });
  for (let h = 0; h < H; h++) {
    const on = hostLinks[h]!;
    if (on.length === 0 && onHostLink[h] === 0) problems.push(`${path}: ${named(h)} has no link (each host needs exactly one link, to its switch)`);
    else if (on.length > 1) {
      const peer = (i: number): number => (topo.links[i]!.a === h ? topo.links[i]!.b : topo.links[i]!.a);
      const second = on[1]!;
      const again = peer(second) === peer(on[0]!);
      problems.push(
        again
          ? `${linkSources[second]!}: links ${named(h)} to ${named(peer(second))} a second time (first at ${linkSources[on[0]!]!}); a host has exactly one link`
          : `${linkSources[second]!}: puts ${named(h)} on a second switch, ${named(peer(second))} (it is on ${named(peer(on[0]!))} at ${linkSources[on[0]!]!}); a host has exactly one link`,
      );
    }
  }
  problems.push(...disconnectedHosts(loaded, path, named));
  // routing (net/topology/routing.ts) keeps at most MAX_NEXT_HOPS equal-cost next hops per switch and host: a
  // switch with more links to other switches could exceed it, which would fail only when the run builds its routes
  const toSwitches = new Map<number, number>();
  for (const l of topo.links) {
    if (l.a >= H && l.b >= H) {
      toSwitches.set(l.a, (toSwitches.get(l.a) ?? 0) + 1);
      toSwitches.set(l.b, (toSwitches.get(l.b) ?? 0) + 1);
    }
  }
  for (const [s, n] of toSwitches) {
    if (n > MAX_NEXT_HOPS) {
      problems.push(`${path}: ${named(s)} has ${n.toLocaleString('en-US')} links to other switches, above the routing limit of ${MAX_NEXT_HOPS.toLocaleString('en-US')} equal-cost next hops per switch`);
      break;
    }
  }
  if (problems.length > SHOWN) return [...problems.slice(0, SHOWN), `... and ${problems.length - SHOWN} more problems in ${path}`];
  return problems;
}

/** Hosts that the first connected host cannot reach, reported as one problem (empty when all hosts are connected). */
function disconnectedHosts(loaded: LoadedTopology, path: string, named: (id: number) => string): string[] {
  const topo = loaded.topology;
  const H = topo.hostCount;
  const n = topo.nodes.length;
  if (H < 2) return [];
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const l of topo.links) {
    adj[l.a]!.push(l.b);
    adj[l.b]!.push(l.a);
  }
  let from = 0;
  while (from < H && adj[from]!.length === 0) from++; // a host without a link is reported on its own
  if (from === H) return [];
  const seen = new Uint8Array(n);
  const queue = [from];
  seen[from] = 1;
  for (let i = 0; i < queue.length; i++) {
    for (const nb of adj[queue[i]!]!) {
      if (seen[nb] === 0) {
        seen[nb] = 1;
        queue.push(nb);
      }
    }
  }
  const cut: number[] = [];
  for (let h = from + 1; h < H; h++) if (seen[h] === 0 && adj[h]!.length > 0) cut.push(h);
  if (cut.length === 0) return [];
  const list = cut.slice(0, 3).map(named).join(', ') + (cut.length > 3 ? ` and ${cut.length - 3} more hosts` : '');
  return [`${path}: the graph is disconnected: ${list} cannot reach ${named(from)} through any link`];
}
