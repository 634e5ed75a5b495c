/**
 * Loss recovery as a strategy (docs/network-model.md §5, §10.2, §10.3): what the
 * receiver does with a data packet (accept, hold out of order, ACK, NACK) and
 * what the sender does on a NACK and on a retransmission timeout. The
 * transport picks one per run from `network.transport.retxMode` and keeps it
 * for the run (one class per run: the calls stay monomorphic):
 *
 * - `gbn`       go-back-N (`GoBackN`): in-order delivery only, a NACK on a
 *               gap, the sender resends everything from the NACKed sequence;
 * - `none`      no recovery (`NoRetransmission`, D-OSCAR spraying runs): a
 *               reorder buffer, no NACK, no timeout;
 * - `selective` selective retransmission (`SelectiveRepeat`, selective.ts):
 *               a reorder buffer, one NACK per missing packet, the sender
 *               resends only those.
 *
 * The transport keeps what every strategy shares: the cumulative ACK
 * (`sndUna`), ACK coalescing, CE echo and CNPs, the CC hooks and the order
 * in which ACK processing and the CC hook run (`ackOrder`).
 */
import type { PacketStore } from '../net/packet.js';
import type { Flow } from './flow.js';

/** What a loss-recovery strategy uses of the transport (the transport implements it). */
export interface RecoveryHost {
  readonly pool: PacketStore;
  now(): number;
  /**
   * An accepted data packet joins the receiver's pending ACK (coalescing);
   * returns true when the transport keeps the packet.
   */
  countForAck(f: Flow, pkt: number, ce: boolean): boolean;
  /**
   * Sends an ACK or a NACK of f with the cumulative sequence `f.rcvExpected`,
   * echoing data packet `data`. `lostSeq` (NACKs of selective strategies):
   * the first byte of the missing packet the NACK names; -1 otherwise.
   */
  sendAck(f: Flow, data: number, nack: boolean, covered: number, sumInflight: number, lostSeq: number): void;
  /** In-order delivery moved `f.rcvExpected` up from `exp`: the CC receiver hook's count of flows being received. */
  countReceiving(f: Flow, exp: number): void;
  /** whether the CC has a receiver hook (`countReceiving` needed) */
  readonly countsReceiving: boolean;
}

/** Loss recovery: the receiver's and the sender's side of one strategy. */
export interface LossRecovery {
  /** `retxMode` value: its name in the registry (strategies.ts) */
  readonly name: string;
  /**
   * Receiver: data packet `pkt` of f arrived (first byte `seq`, `payload`
   * bytes, CE-marked or not). Returns true when the transport keeps the
   * packet (the echo source of a pending coalesced ACK).
   */
  onData(f: Flow, pkt: number, seq: number, payload: number, ce: boolean): boolean;
  /**
   * Sender: a NACK arrived with cumulative sequence `seq` (under
   * `transportFirst` after `sndUna` moved to it). `pkt` is the NACK.
   */
  onNack(f: Flow, seq: number, pkt: number): void;
  /**
   * Sender, only while `f.lostBytes() > 0`: `sndUna` may have moved; forget
   * lost packets below it.
   */
  onAcked(f: Flow): void;
  /**
   * Sender, only while `f.lostBytes() > 0`: the first byte of the lost packet
   * to resend now (it leaves the lost set). The transport sends it instead
   * of new data at `sndNxt`.
   */
  takeLost(f: Flow): number;
  /** Sender: the retransmission timeout fired with data outstanding (`timeouts` already counted). */
  onTimeout(f: Flow): void;
  /**
   * A trimmed header of a data packet (`pkt`) reached its receiver, or came back to its sender
   * (HostEndpoint.onTrimmed): returns whether the recovery took it. Absent: the host counts
   * trimmed headers lost (only trim-recovery.ts has it).
   */
  onTrimmed?(pkt: number): boolean;
}

/**
 * Go-back-N (docs/network-model.md §10.2, §10.3): the receiver accepts only the
 * next expected packet; a gap is NACKed, by the 500-us timer rule (D-HPCC:
 * a NACK when the last is older than `nackIntervalPs` or named another
 * sequence) or re-armed by in-order / duplicate packets (D-OSCAR); duplicates
 * are acknowledged when the profile or a retransmission timeout asks for it.
 * The sender rewinds `sndNxt` to the NACKed sequence (never below `sndUna`),
 * and on a timeout to `sndUna`.
 */
export class GoBackN implements LossRecovery {
  readonly name = 'gbn';

  constructor(
    private readonly t: RecoveryHost,
    /** D-HPCC's 500 us NACK timer rule (else re-arm on in-order / duplicate) */
    private readonly nackTimerRule: boolean,
    private readonly nackIntervalPs: number,
    /** the receiver acknowledges duplicate data packets */
    private readonly ackDuplicates: boolean,
  ) {}

  onData(f: Flow, pkt: number, seq: number, payload: number, ce: boolean): boolean {
    const t = this.t;
    const exp = f.rcvExpected;
    if (seq === exp) {
      f.rcvExpected = exp + payload;
      if (t.countsReceiving === true) t.countReceiving(f, exp);
      f.nackArmed = true;
      return t.countForAck(f, pkt, ce);
    }
    if (seq < exp) {
      if (this.ackDuplicates === true) {
        f.nackArmed = true;
        t.sendAck(f, pkt, false, 1, t.pool.inflight(pkt), -1);
      }
    } else if (this.nackTimerRule === true) {
      const now = t.now();
      if (now >= f.nackTimerPs || f.lastNack !== exp) {
        t.sendAck(f, pkt, true, 0, 0, -1);
        f.nackTimerPs = now + this.nackIntervalPs;
        f.lastNack = exp;
      }
    } else if (f.nackArmed === true) {
      t.sendAck(f, pkt, true, 0, 0, -1);
      f.nackArmed = false;
    }
    return false;
  }

  onNack(f: Flow, seq: number): void {
    // go-back-N from the NACKed sequence (the NACK itself acknowledges nothing under ccFirst)
    f.sndNxt = seq > f.sndUna ? seq : f.sndUna;
  }

  onAcked(): void {}

  takeLost(f: Flow): number {
    return f.sndNxt;
  }

  onTimeout(f: Flow): void {
    f.sndNxt = f.sndUna;
  }
}

/**
 * Out-of-order acceptance (docs/network-model.md §10.3, `retxMode: none`, D-OSCAR
 * spraying runs; also the receiver of selective retransmission): every packet
 * is accepted; out-of-order packets wait in a per-flow bitmap (one byte per
 * packet, allocated at the first reordering) until the gap before them fills,
 * and the cumulative expected sequence then jumps past them. Returns whether
 * the packet was new (not a duplicate).
 */
export function acceptReordered(f: Flow, seq: number, payload: number): boolean {
  const mtu = f.mtuBytes;
  if (seq === f.rcvExpected) {
    let exp = seq + payload;
    const st = f.strategy;
    const ooo = st === null ? null : st.rcvOoo;
    if (ooo !== null) {
      let k = exp / mtu;
      while (k < ooo.length && ooo[k] === 1) {
        ooo[k] = 0;
        const next = Math.min(exp + mtu, f.sizeBytes);
        st!.rcvOooBytes -= next - exp;
        exp = next;
        k++;
      }
    }
    f.rcvExpected = exp;
    return true;
  }
  if (seq > f.rcvExpected) {
    const st = f.state();
    if (st.rcvOoo === null) st.rcvOoo = new Uint8Array(Math.ceil(f.sizeBytes / mtu));
    const k = seq / mtu;
    if (st.rcvOoo[k] === 1) return false;
    st.rcvOoo[k] = 1;
    st.rcvOooBytes += payload;
    return true;
  }
  return false;
}

/**
 * No loss recovery (`retxMode: none`, docs/network-model.md §10.3): packets are
 * accepted out of order and every one is acknowledged with the cumulative
 * sequence; no NACK, no timeout (the transport sets no RTO). Lost packets
 * are never resent: meant for lossless fabrics with packet spraying.
 */
export class NoRetransmission implements LossRecovery {
  readonly name = 'none';

  constructor(private readonly t: RecoveryHost) {}

  onData(f: Flow, pkt: number, seq: number, payload: number, ce: boolean): boolean {
    acceptReordered(f, seq, payload);
    return this.t.countForAck(f, pkt, ce);
  }

  onNack(): void {}

  onAcked(): void {}

  takeLost(f: Flow): number {
    return f.sndNxt;
  }

  onTimeout(): void {}
}
