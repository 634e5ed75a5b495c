/**
 * One partition of a parallel run (issue 31; docs/architecture.md, "Parallel runs"), as a
 * worker runs it: the whole network is built from the same `SimInput` (so node, port and flow
 * numbering agree), but only this partition's nodes ever get events. Its cut links send
 * into one `CrossBuffer` per receiving partition (net/crossing.ts); only its hosts' flows
 * start, though every flow is made (the receiving side's state lives on the flow). The FCT
 * rows of the flows it finishes go to the main thread, which hands them on in flow id order
 * as one thread does (metrics/collect.ts `FctRecorder`). The deadlock check needs the
 * whole network: instead the worker notes when any of its switch ports meets the check's
 * precondition (a class paused long enough with packets queued), which the run reports so
 * that it is redone on one thread.
 */
import { CROSS_WORDS, CrossBuffer, type CrossSink } from '../net/crossing.js';
import type { Port } from '../net/port.js';
import type { FinishBoard } from '../metrics/breakdown-merge.js';
import { Simulation } from './simulate.js';
import type { SimInput } from './types.js';

/** A flow this partition finished. */
export interface FinishRecord {
  id: number;
  src: number;
  dst: number;
  sizeBytes: number;
  startPs: number;
  finishPs: number;
  idealFctPs: number;
  tag: string;
}

export class PartitionSim implements CrossSink {
  readonly sim: Simulation;
  /** outgoing entries by receiving partition (null: this one) */
  readonly out: (CrossBuffer | null)[];
  readonly finishes: FinishRecord[] = [];
  /** a switch port met the deadlock check's precondition: only the whole network can tell */
  wholeNetwork = false;
  /** earliest arrival among the entries sent this window (ps) */
  earliestSent = Infinity;
  /** this partition's ports whose links are cut */
  private readonly cut: Port[] = [];

  constructor(
    input: SimInput,
    private readonly of: Int32Array,
    readonly me: number,
    count: number,
    board?: FinishBoard,
  ) {
    const sim = new Simulation(input);
    this.sim = sim;
    this.out = Array.from({ length: count }, (_, p) => (p === me ? null : new CrossBuffer(new Float64Array(0), false)));
    const local = new Uint8Array(of.length);
    for (let n = 0; n < of.length; n++) local[n] = of[n] === me ? 1 : 0;
    for (const p of sim.ctx.ports) {
      if (of[p.node] === me && of[p.peerNode] !== me) {
        p.cutLink(this);
        this.cut.push(p);
      }
    }
    sim.transport.startOnly(local);
    if (sim.breakdown !== null && board !== undefined) {
      // the FCT breakdown counts here the waits of the flows other partitions send (metrics/breakdown-merge.ts)
      // (asked once per flow and partition: flows are made as they start, every partition makes every flow)
      const ctx = sim.ctx;
      const remote = (id: number): boolean => {
        const s = ctx.sourceOf(id);
        return s >= 0 && local[s] === 0;
      };
      sim.breakdown.partition(board, me, remote, input.flows.length);
    }
    sim.ownWindows = false;
    sim.deadlockHook = (now, minPausedPs, frozen) => {
      const net = sim.network;
      for (let n = 0; n < net.switches.length; n++) {
        if (net.switches[n] === null || local[n] === 0) continue;
        for (const p of net.nodePorts[n]!) {
          for (let c = 0; c < 8; c++) {
            if (p.paused[c] === 1 && p.queuePkts(c) > 0 && (frozen || now - p.pauseStartPs[c]! >= minPausedPs)) this.wholeNetwork = true;
          }
        }
      }
      return this.wholeNetwork;
    };
    sim.transport.addFinishListener((f) => {
      this.finishes.push({
        id: f.id,
        src: f.src,
        dst: f.dst,
        sizeBytes: f.sizeBytes,
        startPs: f.startPs,
        finishPs: f.finishPs,
        idealFctPs: f.idealFctPs,
        tag: f.tag,
      });
    });
  }

  send(port: Port, pkt: number, meta: number, dst: number, size: number, hash: number, arrival: number): void {
    this.out[this.of[port.peerNode]!]!.push(this.sim.ctx, port, pkt, meta, dst, size, hash, arrival);
    if (arrival < this.earliestSent) this.earliestSent = arrival;
  }

  /** The window's end: the packets this partition's cut links sent in it go to their receivers' buffers. */
  drainCuts(): void {
    for (const p of this.cut) p.drainCut();
  }

  /** Entries another partition sent in the window that just ended: into this partition's links, held. */
  deliver(entries: Float64Array): void {
    const b = new CrossBuffer(entries, false);
    b.count = entries.length / CROSS_WORDS;
    b.deliver(this.sim.ctx);
  }

  /** After every partition's entries are delivered: the held packets join their links, in port order (NetContext.releaseHeld). */
  release(): void {
    this.sim.ctx.releaseHeld();
  }
}
