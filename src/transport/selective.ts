/**
 * Selective retransmission (`retxMode: selective`): the receiver keeps what
 * arrives out of order and names each missing packet; the sender resends only
 * those. The receiver-driven designs that OSCAR compares against rely on it
 * (OSCAR §6, NDP baseline: a per-packet NACK for every packet the network
 * lost, so one loss costs one packet, not a window as under go-back-N).
 *
 * Receiver: packets are accepted out of order into the reorder bitmap of
 * `retxMode: none` (`acceptReordered`) and acknowledged like in-order ones,
 * with the cumulative sequence (ACK coalescing applies). A packet beyond the
 * highest byte received so far reveals a hole: one NACK per packet of the
 * hole, each with the cumulative sequence and, in its `xack` word, the index
 * of the missing packet. A duplicate is acknowledged at once (its ACK may have
 * been lost).
 *
 * Sender: a NACK marks the named packet lost (`Flow.lostMap`, once; not
 * below `sndUna`, not beyond what was sent). Lost bytes do not count as in
 * flight (`windowAdmits`), and the next packet the NIC takes from the flow is
 * the lowest lost one; `sndNxt` never goes back. A retransmission timeout
 * (a lost retransmission, or a loss at the tail that no later packet
 * revealed) marks every outstanding packet lost, from `sndUna` to
 * `maxSentSeq`, as TCP does after a timeout. The cumulative ACK forgets lost
 * marks below it.
 */
import { acceptReordered, type LossRecovery, type RecoveryHost } from './loss-recovery.js';
import type { Flow } from './flow.js';

export class SelectiveRepeat implements LossRecovery {
  readonly name: LossRecovery['name'] = 'selective';

  constructor(protected readonly t: RecoveryHost) {}

  onData(f: Flow, pkt: number, seq: number, payload: number, ce: boolean): boolean {
    const t = this.t;
    const exp = f.rcvExpected;
    const fresh = acceptReordered(f, seq, payload);
    if (t.countsReceiving === true && f.rcvExpected > exp) t.countReceiving(f, exp);
    const end = seq + payload;
    if (seq > exp) {
      // a new hole: the packets between the highest byte received so far and this one
      const hi = f.rcvHighest;
      const mtu = f.mtuBytes;
      for (let s = hi > exp ? hi : exp; s < seq; s += mtu) t.sendAck(f, pkt, true, 0, 0, s);
    }
    if (end > f.rcvHighest) f.rcvHighest = end;
    if (!fresh) {
      t.sendAck(f, pkt, false, 1, t.pool.inflight(pkt), -1);
      return false;
    }
    return t.countForAck(f, pkt, ce);
  }

  onNack(f: Flow, _seq: number, pkt: number): void {
    const k = this.t.pool.xack(pkt);
    const s = k * f.mtuBytes;
    if (s >= f.sndUna && s < f.maxSentSeq) this.mark(f, k);
  }

  /** Marks packet k of f lost (once). */
  mark(f: Flow, k: number): void {
    const mtu = f.mtuBytes;
    let m = f.lostMap;
    if (m === null) {
      m = new Uint8Array(Math.ceil(f.sizeBytes / mtu));
      f.lostMap = m;
    }
    if (m[k] === 1) return;
    m[k] = 1;
    f.lostBytes += payloadAt(f, k);
    if (k < f.lostScan) f.lostScan = k;
  }

  onAcked(f: Flow): void {
    const m = f.lostMap!;
    const mtu = f.mtuBytes;
    let k = f.lostScan;
    while (f.lostBytes > 0 && k * mtu < f.sndUna) {
      if (m[k] === 1) {
        m[k] = 0;
        f.lostBytes -= payloadAt(f, k);
      }
      k++;
    }
    f.lostScan = k;
  }

  takeLost(f: Flow): number {
    const m = f.lostMap!;
    let k = f.lostScan;
    while (m[k] !== 1) k++;
    m[k] = 0;
    f.lostBytes -= payloadAt(f, k);
    f.lostScan = k + 1;
    return k * f.mtuBytes;
  }

  onTimeout(f: Flow): void {
    // everything outstanding is presumed lost (the sender has no record of what arrived beyond
    // sndUna); the receiver drops the duplicates
    const mtu = f.mtuBytes;
    const end = f.maxSentSeq;
    for (let k = Math.floor(f.sndUna / mtu); k * mtu < end; k++) this.mark(f, k);
  }
}

/** Payload bytes of packet k of f (the last may be short). */
function payloadAt(f: Flow, k: number): number {
  const left = f.sizeBytes - k * f.mtuBytes;
  return left < f.mtuBytes ? left : f.mtuBytes;
}
