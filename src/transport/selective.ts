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
 * Sender: a NACK marks the named packet lost (`StrategyState.lostMap`, once; not
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
  readonly name: string = 'selective';

  constructor(protected readonly t: RecoveryHost) {}

  onData(f: Flow, pkt: number, seq: number, payload: number, ce: boolean): boolean {
    const t = this.t;
    const exp = f.rcvExpected;
    const fresh = acceptReordered(f, seq, payload);
    if (t.countsReceiving === true && f.rcvExpected > exp) t.countReceiving(f, exp);
    const end = seq + payload;
    const st = f.state();
    if (seq > exp) {
      // a new hole: the packets between the highest byte received so far and this one
      const hi = st.rcvHighest;
      const mtu = f.mtuBytes;
      for (let s = hi > exp ? hi : exp; s < seq; s += mtu) t.sendAck(f, pkt, true, 0, 0, s);
    }
    if (end > st.rcvHighest) st.rcvHighest = end;
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
    const st = f.state();
    let m = st.lostMap;
    if (m === null) {
      m = new Uint8Array(Math.ceil(f.sizeBytes / mtu));
      st.lostMap = m;
    }
    if (m[k] === 1) return;
    m[k] = 1;
    st.lostBytes += payloadAt(f, k);
    if (k < st.lostScan) st.lostScan = k;
  }

  onAcked(f: Flow): void {
    const st = f.state();
    const m = st.lostMap!;
    const mtu = f.mtuBytes;
    let k = st.lostScan;
    while (st.lostBytes > 0 && k * mtu < f.sndUna) {
      if (m[k] === 1) {
        m[k] = 0;
        st.lostBytes -= payloadAt(f, k);
      }
      k++;
    }
    st.lostScan = k;
  }

  takeLost(f: Flow): number {
    const st = f.state();
    const m = st.lostMap!;
    let k = st.lostScan;
    while (m[k] !== 1) k++;
    m[k] = 0;
    st.lostBytes -= payloadAt(f, k);
    st.lostScan = k + 1;
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
