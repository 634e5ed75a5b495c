/**
 * The receiving side of a switch with admission policies (admission.ts), or with BFC's
 * split class (bfc.ts): the links toward the switch deliver to its `AdmissionGate`
 * (`Switch.arrivals`, set by `Network`), which runs the policies after routing and before
 * the MMU, then enqueues what they let through. A switch without policies is its own
 * receiving side, so its hop has no admission test at all (docs/journal.md, 2026-11-26,
 * sixth session). The gate keeps no state of its own: the policies, their hold flags and
 * the counters of their verdicts are the switch's (`Switch.admission`, `held`, `trimmed`,
 * ...), which the metrics read.
 */
import * as admissionModule from './admission.js';
import * as mmuModule from './mmu.js';
import * as packet from './packet.js';
import type { Port, PortOwner } from './port.js';
import type { Switch } from './switch.js';

// imported constants as own bindings, which V8 folds (port.ts says why)
const { ADMITTED_PAUSE } = mmuModule;
const { FLAG_CE, FLAG_RTS, FLAG_TRIM, PKT_DATA, PKT_PFC, metaPrio, metaType } = packet;
const { ADMIT, DROP, HOLD, MARK, RETURN, TRIM } = admissionModule;

export class AdmissionGate implements PortOwner {
  constructor(private readonly sw: Switch) {}

  /**
   * Arrival at a switch with admission policies (`Switch.arrive` has no
   * admission test, so a switch without policies pays nothing for them).
   * The policies run after routing, before the MMU and
   * before the straight-through test; a verdict may drop, trim or mark the
   * packet, whose record is then read again. The packet then takes the
   * general path: the MMU's admission and its queue's ring; an idle port takes
   * it at once (`enqueueEntry` kicks it), with the counters and order of work
   * of the straight-through hop. PFC frames and D-HPCC control-queue packets
   * skip admission, as they skip the MMU.
   */
  arrive(pkt: number, inPort: number, meta: number, dst: number, size: number, hash: number): void {
    const sw = this.sw;
    if (metaType(meta) === PKT_PFC || (sw.queue0Control === true && metaPrio(meta) === 0)) {
      sw.arrive(pkt, inPort, meta, dst, size, hash);
      return;
    }
    const e = sw.egressPort(dst, hash, pkt);
    if (e < 0) {
      sw.dropPacket(pkt, sw.ports[inPort]!);
      return;
    }
    const out = sw.ports[e]!;
    if (this.admit(pkt, out, metaPrio(meta), size, meta, inPort) === false) return;
    const pk = sw.pk;
    const m = pk.meta(pkt);
    const sz = pk.size(pkt);
    const q = metaPrio(m);
    const r = sw.mmu.enqueue(inPort, q, sz - sw.mmuOffset, e);
    if (r >= 0) {
      if ((m & FLAG_TRIM) !== 0) sw.headerDrops++;
      sw.dropPacket(pkt, out);
      return;
    }
    if (r === ADMITTED_PAUSE) sw.sendPfc(inPort, q, true);
    this.enqueueOrSplit(out, pkt, q, sz, m, dst, hash, inPort);
  }

  /** `out.enqueueEntry`, or BFC's storage for the split class (`Port.splitCls`): only the gate's paths can meet a split class. */
  private enqueueOrSplit(out: Port, pkt: number, q: number, size: number, meta: number, dst: number, hash: number, inPort: number): void {
    if (q === out.splitCls) out.split!.push(out, pkt, q, size, meta, dst, hash, inPort);
    else out.enqueueEntry(pkt, q, size, meta, dst, hash, inPort);
  }

  /** `Switch.receive` through the gate. */
  receive(pkt: number, inPort: number): void {
    const pk = this.sw.pk;
    this.arrive(pkt, inPort, pk.meta(pkt), pk.dst(pkt), pk.size(pkt), pk.hash(pkt));
  }

  /**
   * Runs the admission policies (admission.ts) on a data packet headed for
   * queue q of `out`; false when it was dropped. A trim or mark is written to
   * the packet's record, which the caller reads again.
   */
  private admit(pkt: number, out: Port, q: number, size: number, meta: number, inPort: number): boolean {
    const sw = this.sw;
    const list = sw.admission;
    const pk = sw.pk;
    for (let i = 0; i < list.length; i++) {
      const v = list[i]!.admit(pkt, out, q, size, meta, inPort);
      if (v === ADMIT) continue;
      if (v === RETURN) {
        this.returnToSender(pkt, inPort, size, meta);
        return false;
      }
      if (v === DROP || (v === TRIM && metaType(meta) !== PKT_DATA)) {
        sw.admissionDrops++;
        if ((meta & FLAG_TRIM) !== 0 || metaPrio(meta) === sw.trimQueue) sw.headerDrops++;
        sw.dropPacket(pkt, out);
        return false;
      }
      if (v === TRIM) {
        if ((meta & FLAG_TRIM) !== 0) return true; // trimmed upstream already: it stays in the header queue
        // the headers only (wire size minus payload), to the header queue (NDP's packet trimming; admission.ts TRIM)
        const hdr = size - pk.aux(pkt);
        pk.setSize(pkt, hdr > 0 ? hdr : 1);
        pk.setFlag(pkt, FLAG_TRIM, true);
        pk.setPrio(pkt, sw.trimQueue);
        sw.trimmed++;
        out.trimmed++;
        return true;
      }
      if (v === MARK) {
        pk.setFlag(pkt, FLAG_CE, true);
        meta = pk.meta(pkt);
        sw.admissionMarks++;
      } else if (v === HOLD) this.hold(inPort, q);
      else throw new Error(`admission policy ${list[i]!.name}: unknown verdict ${v}`);
    }
    return true;
  }

  /**
   * RETURN (admission.ts; NDP §3.1 return-to-sender): the packet, cut to its
   * header if it is not yet, turns back toward its flow's source host in the
   * header queue. A packet that is not data, was returned already, or whose
   * source is unknown (`NetContext.sourceOf`) is dropped as a header drop.
   * Rare (the header queue is full), so it may read the packet's record.
   */
  private returnToSender(pkt: number, inPort: number, size: number, meta: number): void {
    const sw = this.sw;
    const pk = sw.pk;
    const src = metaType(meta) === PKT_DATA && (meta & FLAG_RTS) === 0 ? sw.ctx.sourceOf(pk.flow(pkt)) : -1;
    const e = src >= 0 ? sw.egressPort(src, pk.hash(pkt), pkt) : -1;
    if (e < 0) {
      sw.admissionDrops++;
      sw.headerDrops++;
      sw.dropPacket(pkt, sw.ports[inPort]!);
      return;
    }
    const out = sw.ports[e]!;
    if ((meta & FLAG_TRIM) === 0) {
      const hdr = size - pk.aux(pkt);
      pk.setSize(pkt, hdr > 0 ? hdr : 1);
      pk.setFlag(pkt, FLAG_TRIM, true);
      sw.trimmed++;
      out.trimmed++;
    }
    pk.setFlag(pkt, FLAG_RTS, true);
    pk.setPrio(pkt, sw.trimQueue);
    pk.setDst(pkt, src);
    sw.returned++;
    const q = sw.trimQueue;
    const sz = pk.size(pkt);
    const r = sw.mmu.enqueue(inPort, q, sz - sw.mmuOffset, e);
    if (r >= 0) {
      sw.headerDrops++;
      sw.dropPacket(pkt, out);
      return;
    }
    if (r === ADMITTED_PAUSE) sw.sendPfc(inPort, q, true);
    this.enqueueOrSplit(out, pkt, q, sz, pk.meta(pkt), src, pk.hash(pkt), inPort);
  }

  /** HOLD: ingress (port, class) pauses its upstream until `releaseHold` (admission.ts). */
  private hold(inPort: number, cls: number): void {
    const sw = this.sw;
    const pq = inPort * 8 + cls;
    if (sw.held[pq] === 1) return;
    sw.held[pq] = 1;
    sw.holds++;
    if (sw.mmu.upstreamPaused[pq] === 0) sw.sendPfc(inPort, cls, true);
  }

  pull(port: Port): number {
    return this.sw.pull(port);
  }

  hasMore(port: Port): boolean {
    return this.sw.hasMore(port);
  }
}
