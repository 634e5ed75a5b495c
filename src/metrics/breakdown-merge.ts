/**
 * The FCT breakdown on the parallel engine (`metrics.breakdown`; docs/guide.md, "Why a flow was
 * slow"; docs/architecture.md, "Parallel runs"). Each partition counts the waits at its own ports,
 * the flows of other partitions' senders included (net/queue-account.ts `partition`); the sender's
 * partition has the flow's parts. A partition learns which of the others' flows completed, and
 * when, from the finish board: shared memory where each partition lists the flows its senders
 * completed, in completion order, with their completion times. At each window's end it takes back
 * what it counted at or after a completion and names its worst port for that flow; the merge then
 * picks each flow's worst port among the partitions' by the one-thread rule (most queueing, then
 * met first, then lowest gid) and takes each port's totals from its node's partition.
 */
import type { BreakdownOutput, FlowBreakdown, PortBreakdown } from './types.js';

/** Shared memory of a parallel run's completions: by flow id its completion time; per partition its completed flows in order, and their count. */
export interface FinishBoard {
  at: SharedArrayBuffer;
  ids: SharedArrayBuffer;
  counts: SharedArrayBuffer;
  /** where each partition's list starts in `ids` */
  off: number[];
}

/** The board of a run whose flows are sent by hosts `srcs` (one per flow), partitioned by `of`. */
export function finishBoard(srcs: readonly number[], of: ArrayLike<number>, partitions: number): FinishBoard {
  const n = new Array<number>(partitions).fill(0);
  for (const s of srcs) n[of[s]!]!++;
  const off: number[] = [];
  let o = 0;
  for (let p = 0; p < partitions; p++) {
    off.push(o);
    o += n[p]!;
  }
  return { at: new SharedArrayBuffer(8 * Math.max(1, srcs.length)), ids: new SharedArrayBuffer(4 * Math.max(1, srcs.length)), counts: new SharedArrayBuffer(4 * partitions), off };
}

/** One partition's view of the board: it lists its completions and reads the others'. */
export class BoardView {
  private readonly at: Float64Array;
  private readonly ids: Int32Array;
  private readonly counts: Int32Array;
  private readonly read: number[];
  private n = 0;

  constructor(
    private readonly board: FinishBoard,
    private readonly me: number,
  ) {
    this.at = new Float64Array(board.at);
    this.ids = new Int32Array(board.ids);
    this.counts = new Int32Array(board.counts);
    this.read = board.off.map(() => 0);
  }

  /** This partition's sender completed flow `id` at `at`. */
  publish(id: number, at: number): void {
    this.at[id] = at;
    this.ids[this.board.off[this.me]! + this.n] = id;
    this.n++;
    Atomics.store(this.counts, this.me, this.n);
  }

  /** The other partitions' completions at or before `upTo` not read yet, into `ids` / `at` (each partition's in order). */
  take(upTo: number, ids: number[], at: number[]): void {
    for (let u = 0; u < this.read.length; u++) {
      if (u === this.me) continue;
      const n = Atomics.load(this.counts, u);
      const o = this.board.off[u]!;
      let r = this.read[u]!;
      for (; r < n; r++) {
        const id = this.ids[o + r]!;
        const t = this.at[id]!;
        // a partition ahead may have listed completions of the next window already
        if (t > upTo) break;
        ids.push(id);
        at.push(t);
      }
      this.read[u] = r;
    }
  }
}

/** A finished flow's parts and its worst port in the partition that sent it. */
export interface PartitionFlow {
  id: number;
  bytes: number;
  fctPs: number;
  tag: string;
  parts: number[];
  gid: number;
  q: number;
  t: number;
}

/** What a partition's breakdown gives the merge. */
export interface PartitionBreakdown {
  flows: PartitionFlow[];
  /** the worst port here of the other partitions' completed flows: id, gid, queueing, when met; four numbers each */
  remote: number[];
  /** by gid: the queueing at the port, and its paused time (without the pauses still in force) */
  queuePs: Float64Array;
  pausedPs: Float64Array;
  /** pauses still in force at this partition's end: gid, since; in (port, class) order */
  openPauses: number[];
  /** the ports' rows (as one thread lists them), the gid of each and of its peer (-1: none) */
  ports: PortBreakdown[];
  portGid: number[];
  peerGid: number[];
  parts: string[];
}

const better = (q: number, t: number, g: number, bq: number, bt: number, bg: number): boolean => q > bq || (q === bq && (t < bt || (t === bt && g < bg)));

/**
 * The one-thread breakdown from the partitions' (node n belongs to partition `of[n]`; the run
 * ended at `endPs`): the finished flows in flow id order, with their worst port over all
 * partitions, and each port's totals from its own node's partition.
 */
export function mergeBreakdown(parts: readonly PartitionBreakdown[], of: ArrayLike<number>, endPs: number): { output: BreakdownOutput; byId: Map<number, FlowBreakdown> } {
  const p0 = parts[0]!;
  const rows = p0.ports;
  const G = p0.queuePs.length;
  const nodeOf = new Int32Array(G).fill(-1);
  const rowOf = new Int32Array(G).fill(-1);
  rows.forEach((r, i) => {
    nodeOf[p0.portGid[i]!] = r.node;
    rowOf[p0.portGid[i]!] = i;
  });
  const owner = (g: number): PartitionBreakdown => parts[of[nodeOf[g]!]!]!;
  const paused = new Float64Array(G);
  for (let g = 0; g < G; g++) if (nodeOf[g]! >= 0) paused[g] = owner(g).pausedPs[g]!;
  parts.forEach((pb, w) => {
    for (let i = 0; i < pb.openPauses.length; i += 2) {
      const g = pb.openPauses[i]!;
      if (of[nodeOf[g]!] === w) paused[g] = paused[g]! + (endPs - pb.openPauses[i + 1]!);
    }
  });
  const ports: PortBreakdown[] = rows.map((r, i) => {
    const g = p0.portGid[i]!;
    const peer = p0.peerGid[i]!;
    return { ...r, queuePs: owner(g).queuePs[g]!, pausedPs: paused[g]!, pauseCausedPs: peer >= 0 ? paused[peer]! : 0 };
  });
  // each flow's worst port: its sender's partition's, or a better one of another partition
  const flows = parts.flatMap((pb) => pb.flows).sort((a, b) => a.id - b.id);
  const best = new Map<number, PartitionFlow>();
  for (const f of flows) best.set(f.id, { ...f });
  for (const pb of parts) {
    const r = pb.remote;
    for (let i = 0; i < r.length; i += 4) {
      const b = best.get(r[i]!);
      if (b === undefined) continue;
      const g = r[i + 1]!;
      const q = r[i + 2]!;
      const t = r[i + 3]!;
      if (b.gid < 0 ? q > 0 : better(q, t, g, b.q, b.t, b.gid)) {
        b.gid = g;
        b.q = q;
        b.t = t;
      }
    }
  }
  const K = p0.parts.length;
  const n = flows.length;
  const bytes = new Float64Array(n);
  const fctPs = new Float64Array(n);
  const values = new Float64Array(n * K);
  const tag: string[] = [];
  const byId = new Map<number, FlowBreakdown>();
  flows.forEach((f, i) => {
    bytes[i] = f.bytes;
    fctPs[i] = f.fctPs;
    tag.push(f.tag);
    for (let k = 0; k < K; k++) values[i * K + k] = f.parts[k]!;
    const b = best.get(f.id)!;
    const row = b.gid >= 0 ? rows[rowOf[b.gid]!]! : null;
    byId.set(f.id, {
      parts: f.parts,
      worstNode: row === null ? -1 : row.node,
      worstPort: row === null ? -1 : row.port,
      worstRole: row === null ? '' : row.role,
      worstQueuePs: b.gid >= 0 ? b.q : 0,
    });
  });
  return { output: { parts: [...p0.parts], count: n, bytes, fctPs, tag, values, ports }, byId };
}
