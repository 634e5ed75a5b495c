/**
 * The exact FCT breakdown (`metrics.breakdown`, issue 41; states defined in docs/guide.md, "Why a
 * flow was slow"): installs the accounting (net/queue-account.ts, transport/breakdown-sender.ts),
 * keeps each finished flow's parts for its FCT row and the summary, and gives the per-port totals
 * with each port's role in the fabric.
 */
import type { NetContext } from '../net/context.js';
import type { Network } from '../net/network.js';
import { QueueAccount } from '../net/queue-account.js';
import type { Topology } from '../net/topology/types.js';
import { BREAKDOWN_PARTS, SenderAccount } from '../transport/breakdown-sender.js';
import type { Flow } from '../transport/flow.js';
import type { Transport } from '../transport/transport.js';
import type { BreakdownOutput, FctRow, FlowBreakdown, PortBreakdown } from './types.js';
import { BoardView, type FinishBoard, type PartitionBreakdown, type PartitionFlow } from './breakdown-merge.js';

export { BREAKDOWN_PARTS };

/**
 * Each node's level: hosts 0, a switch its hop distance from the nearest host (ToR 1, then
 * aggregation or spine, then core).
 */
function levels(topo: Topology): Int32Array {
  const n = topo.nodes.length;
  const lvl = new Int32Array(n).fill(-1);
  const adj: number[][] = Array.from({ length: n }, () => []);
  for (const l of topo.links) {
    adj[l.a]!.push(l.b);
    adj[l.b]!.push(l.a);
  }
  let frontier: number[] = [];
  for (let h = 0; h < topo.hostCount; h++) {
    lvl[h] = 0;
    frontier.push(h);
  }
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const a of frontier) for (const b of adj[a]!) if (lvl[b] === -1) {
      lvl[b] = lvl[a]! + 1;
      next.push(b);
    }
    frontier = next;
  }
  return lvl;
}

/** Port roles by gid: `host-nic`, or the switch's level name and the direction (`tor-down`, `agg-up`, `spine-down`, `core-down`, ...). */
export function portRoles(topo: Topology, ctx: NetContext): string[] {
  const lvl = levels(topo);
  let top = 0;
  for (const v of lvl) if (v > top) top = v;
  const name = (l: number): string => (l === 1 ? 'tor' : l === 2 ? (top === 2 ? 'spine' : 'agg') : l === 3 ? 'core' : `level${l}`);
  return ctx.ports.map((p) => {
    if (p.node < topo.hostCount) return 'host-nic';
    const a = lvl[p.node]!;
    const b = p.peerNode >= 0 ? lvl[p.peerNode]! : a;
    return `${name(a)}-${b < a ? 'down' : b > a ? 'up' : 'across'}`;
  });
}

export class Breakdown {
  private readonly qa: QueueAccount;
  private readonly sender: SenderAccount;
  private readonly roles: string[];
  private readonly pending = new Map<number, FlowBreakdown>();
  private n = 0;
  private bytes = new Float64Array(1024);
  private fct = new Float64Array(1024);
  private values = new Float64Array(1024 * BREAKDOWN_PARTS.length);
  private readonly tags: string[] = [];
  /** on the parallel engine (`partition`): the finish board, this partition's flows, and the others' flows' worst ports here */
  private board: BoardView | null = null;
  private readonly own: PartitionFlow[] = [];
  private readonly remote: number[] = [];
  private readonly openPauses: number[] = [];

  constructor(
    private readonly ctx: NetContext,
    private readonly network: Network,
    transport: Transport,
    topo: Topology,
  ) {
    const hostPorts = network.hosts.map((h) => h.port.gid);
    this.roles = portRoles(topo, ctx);
    // a flow's port slots by role: one port per role on a path (net/queue-account.ts, FLOW_PORT_SLOTS)
    const roleIds = new Map<string, number>();
    const hints = this.roles.map((r) => {
      let k = roleIds.get(r);
      if (k === undefined) roleIds.set(r, (k = roleIds.size));
      return k;
    });
    this.qa = new QueueAccount(ctx.pool, ctx.sched, hostPorts, ctx.ports.length, hints);
    // BFC's split queues keep their entries without the packet's arrival time (net/queue-account.ts)
    if (ctx.ports.some((p) => p.split !== null)) this.qa.trackArrivals();
    this.sender = new SenderAccount(transport, this.qa, network.hosts);
    ctx.acct = this.qa;
    ctx.flowAcct = this.sender;
  }

  /** Flow f finished (a finish listener that runs before the FCT recorder's). */
  finished(f: Flow): void {
    this.sender.finish(f);
    const parts = Array.from(this.sender.out);
    const g = this.qa.worstGid;
    if (this.board !== null) {
      this.board.publish(f.id, f.finishPs);
      this.own.push({ id: f.id, bytes: f.sizeBytes, fctPs: f.finishPs - f.startPs, tag: f.tag, parts, gid: g, q: this.qa.worstQ, t: this.qa.worstT });
    }
    const port = g >= 0 ? this.ctx.ports[g]! : null;
    this.pending.set(f.id, {
      parts,
      worstNode: port === null ? -1 : port.node,
      worstPort: port === null ? -1 : port.index,
      worstRole: port === null ? '' : this.roles[g]!,
      worstQueuePs: this.qa.worstQ,
    });
    const K = parts.length;
    if (this.n === this.bytes.length) {
      const cap = this.n * 2;
      const grow = (a: Float64Array, m: number): Float64Array<ArrayBuffer> => {
        const b = new Float64Array(m);
        b.set(a);
        return b;
      };
      this.bytes = grow(this.bytes, cap);
      this.fct = grow(this.fct, cap);
      this.values = grow(this.values, cap * K);
    }
    const i = this.n++;
    this.bytes[i] = f.sizeBytes;
    this.fct[i] = f.finishPs - f.startPs;
    this.tags.push(f.tag);
    for (let k = 0; k < K; k++) this.values[i * K + k] = parts[k]!;
  }

  /** Gives an FCT row its flow's breakdown (the recorder's hook, as it hands rows on). */
  attach(row: FctRow): void {
    const b = this.pending.get(row.id);
    if (b === undefined) return;
    this.pending.delete(row.id);
    row.breakdown = b;
  }

  /**
   * This breakdown is one partition's of a parallel run (experiment/parallel.ts) of `flows` flows:
   * `remote` tells whether another partition sends a flow; completions are shared on `board`.
   */
  partition(board: FinishBoard, me: number, remote: (id: number) => boolean, flows: number): void {
    this.board = new BoardView(board, me);
    this.qa.partition(remote, flows);
  }

  /** A window ending at `upTo` is over (Infinity: the run): takes in the other partitions' completions up to then. */
  learn(upTo: number): void {
    if (this.board === null) return;
    const ids: number[] = [];
    const at: number[] = [];
    this.board.take(upTo, ids, at);
    this.qa.settle(ids, at, (id, gid, q, t) => this.remote.push(id, gid, q, t));
  }

  /** What the merge needs of this partition (after `output`). */
  partitionReport(): PartitionBreakdown {
    const ports = this.rows();
    return {
      flows: this.own,
      remote: this.remote,
      queuePs: this.qa.queuePs,
      pausedPs: this.qa.pausedPs,
      openPauses: this.openPauses,
      ports: ports.rows,
      portGid: ports.gid,
      peerGid: ports.peer,
      parts: [...BREAKDOWN_PARTS],
    };
  }

  /** The ports in output order: their rows (totals as counted here), gids and peers' gids. */
  private rows(): { rows: PortBreakdown[]; gid: number[]; peer: number[] } {
    const qa = this.qa;
    const rows: PortBreakdown[] = [];
    const gid: number[] = [];
    const peerGid: number[] = [];
    for (const list of this.network.nodePorts) {
      for (const p of list) {
        const peer = p.peerNode >= 0 ? this.network.nodePorts[p.peerNode]?.[p.peerPort] : undefined;
        gid.push(p.gid);
        peerGid.push(peer !== undefined ? peer.gid : -1);
        rows.push({
          node: p.node,
          port: p.index,
          peer: p.peerNode,
          role: this.roles[p.gid]!,
          queuePs: qa.queuePs[p.gid]!,
          pausedPs: qa.pausedPs[p.gid]!,
          // the peer's egress toward this port is the one this port's node pauses (docs/guide.md)
          pauseCausedPs: peer !== undefined ? qa.pausedPs[peer.gid]! : 0,
        });
      }
    }
    return { rows, gid, peer: peerGid };
  }

  /** The run is over at `endPs`: the finished flows' parts and the per-port totals. */
  output(endPs: number): BreakdownOutput {
    const qa = this.qa;
    // a partition's end is not the run's: its pauses still in force are closed by the merge
    qa.closePauses(endPs, this.board !== null ? this.openPauses : undefined);
    const ports = this.rows().rows;
    const n = this.n;
    return {
      parts: [...BREAKDOWN_PARTS],
      count: n,
      bytes: this.bytes.subarray(0, n),
      fctPs: this.fct.subarray(0, n),
      tag: this.tags,
      values: this.values.subarray(0, n * BREAKDOWN_PARTS.length),
      ports,
    };
  }
}
