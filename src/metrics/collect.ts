/**
 * End-of-run results: FCT rows and slowdowns of finished flows (docs/network-model.md §13.1),
 * unfinished flows with the bytes they got acknowledged (docs/network-model.md §11.8), and PFC, drop,
 * byte and ECN counters per node and per port (docs/network-model.md §11.3, §11.8).
 */
import type { FctColumns, FctRow, NodeCounters, PortCounters, SimOutput, UnfinishedFlow } from './types.js';
import { DROP_REASONS } from '../net/mmu.js';
import type { Network } from '../net/network.js';
import type { Switch } from '../net/switch.js';
import type { Topology } from '../net/topology/types.js';
import type { Flow } from '../transport/flow.js';
import type { Transport } from '../transport/transport.js';

/** The trimming counters of the run's switches, when any trims (absent otherwise: outputs without trimming keep their shape). */
function trimTotals(switches: readonly (Switch | null)[]): { trimmedPackets: number; headerDrops: number; returnedHeaders: number } | Record<string, never> {
  let trims = false;
  let trimmedPackets = 0;
  let headerDrops = 0;
  let returnedHeaders = 0;
  for (const sw of switches) {
    if (sw === null || sw.trims === false) continue;
    trims = true;
    trimmedPackets += sw.trimmed;
    headerDrops += sw.headerDrops;
    returnedHeaders += sw.returned;
  }
  return trims ? { trimmedPackets, headerDrops, returnedHeaders } : {};
}

/** BFC's counters over the run's switches, when they run BFC (absent otherwise: outputs without BFC keep their shape). */
function bfcTotals(switches: readonly (Switch | null)[]): { bfcPauses: number; bfcSharedAssignments: number; bfcMaxQueuesInUse: number } | Record<string, never> {
  let on = false;
  let bfcPauses = 0;
  let bfcSharedAssignments = 0;
  let bfcMaxQueuesInUse = 0;
  for (const sw of switches) {
    const b = sw?.bfc ?? null;
    if (b === null) continue;
    on = true;
    bfcPauses += b.pausesSent;
    bfcSharedAssignments += b.sharedAssignments;
    if (b.maxQueuesInUse > bfcMaxQueuesInUse) bfcMaxQueuesInUse = b.maxQueuesInUse;
  }
  return on ? { bfcPauses, bfcSharedAssignments, bfcMaxQueuesInUse } : {};
}

export type CollectedResults = Pick<SimOutput, 'fct' | 'fctColumns' | 'unfinished' | 'nodes' | 'ports' | 'totals' | 'heldFlows'>;

/**
 * FCT rows of finished flows, taken when each flow finishes and handed on in
 * flow id order: into `rows`, or to a sink (a file) as soon as every lower id
 * has finished. With a sink only typed columns stay, for the summary; a row
 * waits (in typed columns) only while a lower-id flow is still running.
 */
export class FctRecorder {
  readonly rows: FctRow[] = [];
  /** next id to hand on; rows of higher ids wait in a ring of typed columns, slot id & mask */
  private nextId = 0;
  private maxId = -1;
  private mask = 1023;
  private has = new Uint8Array(1024);
  private pSrc = new Int32Array(1024);
  private pDst = new Int32Array(1024);
  private pTag = new Int32Array(1024);
  /** bytes, startPs, finishPs, fctPs, idealFctPs, slowdown per slot */
  private pNum = new Float64Array(1024 * 6);
  private n = 0;
  private bytes = new Float64Array(0);
  private slowdown = new Float64Array(0);
  private fct = new Float64Array(0);
  private tag = new Int32Array(0);
  private readonly tags: string[] = [];
  private readonly tagIndex = new Map<string, number>();

  constructor(
    private readonly clampSlowdownAt1: boolean,
    private readonly sink: ((row: FctRow) => void) | null,
  ) {}

  /** Flow f finished (call once per flow); a parallel run's merge passes its partitions' records of the same fields. */
  add(f: Pick<Flow, 'id' | 'src' | 'dst' | 'sizeBytes' | 'startPs' | 'finishPs' | 'idealFctPs' | 'tag'>): void {
    const fctPs = f.finishPs - f.startPs;
    let slowdown = fctPs / f.idealFctPs;
    if (this.clampSlowdownAt1 && slowdown < 1) slowdown = 1;
    const tag = this.tagOf(f.tag);
    if (this.sink !== null) this.addColumns(f.sizeBytes, slowdown, fctPs, tag);
    const id = f.id;
    if (id > this.maxId) this.maxId = id;
    if (id !== this.nextId) {
      // wait for the lower ids
      while (id - this.nextId > this.mask) this.growRing();
      const k = id & this.mask;
      this.has[k] = 1;
      this.pSrc[k] = f.src;
      this.pDst[k] = f.dst;
      this.pTag[k] = tag;
      const o = k * 6;
      const num = this.pNum;
      num[o] = f.sizeBytes;
      num[o + 1] = f.startPs;
      num[o + 2] = f.finishPs;
      num[o + 3] = fctPs;
      num[o + 4] = f.idealFctPs;
      num[o + 5] = slowdown;
      return;
    }
    this.emit({ id, src: f.src, dst: f.dst, bytes: f.sizeBytes, startPs: f.startPs, finishPs: f.finishPs, fctPs, idealFctPs: f.idealFctPs, slowdown, tag: f.tag });
    this.nextId++;
    while (this.has[this.nextId & this.mask] === 1) this.emitWaiting(this.nextId++);
  }

  /** The run is over: hands on every row still waiting, in id order. */
  flush(): void {
    for (let id = this.nextId; id <= this.maxId; id++) if (this.has[id & this.mask] === 1) this.emitWaiting(id);
    this.nextId = this.maxId + 1;
  }

  hasSink(): boolean {
    return this.sink !== null;
  }

  /** The summary's columns (only with a sink). */
  columns(): FctColumns {
    const n = this.n;
    return { count: n, bytes: this.bytes.subarray(0, n), slowdown: this.slowdown.subarray(0, n), fctPs: this.fct.subarray(0, n), tag: this.tag.subarray(0, n), tags: [...this.tags] };
  }

  private emitWaiting(id: number): void {
    const k = id & this.mask;
    this.has[k] = 0;
    const o = k * 6;
    const num = this.pNum;
    this.emit({ id, src: this.pSrc[k]!, dst: this.pDst[k]!, bytes: num[o]!, startPs: num[o + 1]!, finishPs: num[o + 2]!, fctPs: num[o + 3]!, idealFctPs: num[o + 4]!, slowdown: num[o + 5]!, tag: this.tags[this.pTag[k]!]! });
  }

  /** adds what else a row carries (metrics/breakdown.ts `Breakdown.attach`), or null */
  attach: ((row: FctRow) => void) | null = null;

  private emit(row: FctRow): void {
    if (this.attach !== null) this.attach(row);
    if (this.sink !== null) this.sink(row);
    else this.rows.push(row);
  }

  /** Doubles the waiting ring, keeping each waiting row of id in [nextId, nextId + old size) at its new slot. */
  private growRing(): void {
    const old = this.mask + 1;
    const cap = old * 2;
    const has = new Uint8Array(cap);
    const src = new Int32Array(cap);
    const dst = new Int32Array(cap);
    const tag = new Int32Array(cap);
    const num = new Float64Array(cap * 6);
    for (let id = this.nextId; id < this.nextId + old; id++) {
      const a = id & this.mask;
      if (this.has[a] !== 1) continue;
      const b = id & (cap - 1);
      has[b] = 1;
      src[b] = this.pSrc[a]!;
      dst[b] = this.pDst[a]!;
      tag[b] = this.pTag[a]!;
      num.set(this.pNum.subarray(a * 6, a * 6 + 6), b * 6);
    }
    this.has = has;
    this.pSrc = src;
    this.pDst = dst;
    this.pTag = tag;
    this.pNum = num;
    this.mask = cap - 1;
  }

  private tagOf(name: string): number {
    let t = this.tagIndex.get(name);
    if (t === undefined) {
      t = this.tags.length;
      this.tags.push(name);
      this.tagIndex.set(name, t);
    }
    return t;
  }

  private addColumns(bytes: number, slowdown: number, fctPs: number, tag: number): void {
    const n = this.n;
    if (n === this.bytes.length) {
      const cap = Math.max(1024, 2 * n);
      const grow = <T extends Float64Array | Int32Array>(a: T, b: T): T => {
        b.set(a);
        return b;
      };
      this.bytes = grow(this.bytes, new Float64Array(cap));
      this.slowdown = grow(this.slowdown, new Float64Array(cap));
      this.fct = grow(this.fct, new Float64Array(cap));
      this.tag = grow(this.tag, new Int32Array(cap));
    }
    this.bytes[n] = bytes;
    this.slowdown[n] = slowdown;
    this.fct[n] = fctPs;
    this.tag[n] = tag;
    this.n = n + 1;
  }
}

/**
 * End-of-run results. FCT rows come from the recorder (flushed here); the
 * transport's flows that are still held give the unfinished rows and their
 * counters, released flows their counters' sums.
 */
export function collectResults(transport: Transport, recorder: FctRecorder, topo: Topology, network: Network): CollectedResults {
  const unfinished: UnfinishedFlow[] = [];
  let retx = transport.releasedRetxPackets;
  let timeouts = transport.releasedTimeouts;
  let dataSent = transport.releasedDataPackets;
  let count = 0;
  let held = 0;
  for (const f of transport.flows) {
    count++;
    if (f === null) continue;
    held++;
    retx += f.retxPackets;
    timeouts += f.timeouts;
    dataSent += f.dataPacketsSent;
    if (!f.finished) {
      unfinished.push({ id: f.id, src: f.src, dst: f.dst, bytes: f.sizeBytes, ackedBytes: f.sndUna, startPs: f.startPs, tag: f.tag });
    }
  }
  if (transport.hasUnstarted()) {
    for (const { id, spec } of transport.unstarted()) {
      // eager flows not yet started are in transport.flows already (counted above)
      if (id >= count) {
        count++;
        unfinished.push({ id, src: spec.src, dst: spec.dst, bytes: spec.bytes, ackedBytes: 0, startPs: spec.startPs, tag: spec.tag ?? '' });
      }
    }
  }
  recorder.flush();
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
    fct: recorder.rows,
    ...(recorder.hasSink() ? { fctColumns: recorder.columns() } : {}),
    unfinished,
    nodes,
    ports,
    heldFlows: held,
    totals: { flows: count, finished: transport.finishedCount, drops, pausesSent, retransmittedPackets: retx, timeouts, dataPacketsSent: dataSent, ...trimTotals(network.switches), ...bfcTotals(network.switches) },
  };
}
