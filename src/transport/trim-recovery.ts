/**
 * Loss recovery from trimmed headers (`retxMode: trim`; NDP, Handley et al.,
 * SIGCOMM'17 §3.1-3.2): a switch that cannot queue a data packet cuts it to
 * its header (the `trim` admission policy, net/trim.ts), so the receiver
 * learns of every loss the network makes and NACKs exactly that packet; the
 * sender resends it. With per-packet spraying packets arrive out of order, so
 * unlike `selective` a hole is never taken for a loss.
 *
 * Receiver: data packets are accepted out of order (`acceptReordered`) and
 * acknowledged at once (NDP ACKs every packet; a duplicate too); a trimmed
 * header (`onTrimmed`) is answered with a NACK naming its packet. Each data
 * packet or header received asks the send driver for a PULL (`ndpPull`,
 * ndp-pull.ts). Sender: a NACK marks the named packet lost
 * (`SelectiveRepeat`); a header a switch returned (`FLAG_RTS`, NDP's
 * return-to-sender) marks its packet lost and gives the flow one packet of
 * credit, since no PULL will come for it; a timeout marks everything
 * outstanding lost and gives credit for it.
 */
import * as packet from '../net/packet.js';
import type { Flow } from './flow.js';
import { acceptReordered, type LossRecovery, type RecoveryHost } from './loss-recovery.js';
import type { PullSource } from './send-driver.js';
import { SelectiveRepeat } from './selective.js';

const { FLAG_RTS } = packet;

export class TrimRecovery extends SelectiveRepeat implements LossRecovery {
  override readonly name: string = 'trim';
  /** headers a switch returned to this run's senders, and NACKs sent for trimmed headers */
  returnedHeaders = 0;
  headerNacks = 0;
  /** data packets the receivers got a second time (a resent packet whose first copy arrived after all) */
  duplicates = 0;

  constructor(
    t: RecoveryHost,
    private readonly flows: readonly (Flow | null)[],
    /** the PULL driver when sending is pulled (null: the CC's window drives it) */
    private readonly pull: PullSource | null,
    /** the transport's "something changed for f" notice to its NIC */
    private readonly touch: (f: Flow) => void,
  ) {
    super(t);
  }

  override onData(f: Flow, pkt: number, seq: number, payload: number, ce: boolean): boolean {
    const t = this.t;
    const exp = f.rcvExpected;
    const fresh = acceptReordered(f, seq, payload);
    if (t.countsReceiving === true && f.rcvExpected > exp) t.countReceiving(f, exp);
    const st = f.state();
    if (seq + payload > st.rcvHighest) st.rcvHighest = seq + payload;
    if (this.pull !== null) this.pull.onArrival(f);
    if (!fresh) {
      this.duplicates++;
      t.sendAck(f, pkt, false, 1, t.pool.inflight(pkt), -1);
      return false;
    }
    return t.countForAck(f, pkt, ce);
  }

  /** A trimmed header reached its receiver, or came back to its sender (FLAG_RTS). Never keeps the packet. */
  onTrimmed(pkt: number): boolean {
    const pk = this.t.pool;
    const f = this.flows[pk.flow(pkt)];
    if (f === null || f === undefined) return false;
    const seq = pk.seq(pkt);
    if (pk.has(pkt, FLAG_RTS)) {
      this.returnedHeaders++;
      if (f.finished || seq < f.sndUna || seq >= f.maxSentSeq) return false;
      this.mark(f, seq / f.mtuBytes);
      if (this.pull !== null) this.pull.credit(f, 1);
      this.touch(f);
      return false;
    }
    if (f.rcvExpected >= f.sizeBytes) return false;
    this.headerNacks++;
    this.t.sendAck(f, pkt, true, 0, 0, seq);
    if (this.pull !== null) this.pull.onArrival(f);
    return false;
  }

  override onTimeout(f: Flow): void {
    const before = f.lostBytes();
    super.onTimeout(f);
    const n = Math.ceil((f.lostBytes() - before) / f.mtuBytes);
    if (n > 0 && this.pull !== null) this.pull.credit(f, n);
  }
}
