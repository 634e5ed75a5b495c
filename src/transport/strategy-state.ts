/**
 * A flow's state that only some transport strategies use (selective and
 * trim-recovery loss recovery, the reorder buffer of `retxMode: none`,
 * receiver-driven send drivers, Homa, NDP's PULLs), kept off `Flow` so that
 * the default path's flow object stays as small as the go-back-N,
 * sender-driven transport needs (docs/performance.md). A flow gets one when
 * a strategy first touches it (`Flow.state()`); until then `Flow.strategy`
 * is null, so every flow keeps the same hidden class.
 */
export class StrategyState {
  /**
   * Selective retransmission (selective.ts): payload bytes known lost and
   * waiting to be resent, not counted in flight; the lost packets by index
   * (allocated at the first loss) and where `takeLost` looks first
   */
  lostBytes = 0;
  lostMap: Uint8Array | null = null;
  lostScan = 0;
  /** payload bytes of the data packets this flow resent (any strategy; attached at the first resend) */
  retxBytes = 0;
  /** retxMode none / selective / trim: packets received beyond rcvExpected, by packet index (allocated at the first reordering), and their payload bytes */
  rcvOoo: Uint8Array | null = null;
  rcvOooBytes = 0;
  /** selective: one past the highest byte received */
  rcvHighest = 0;
  /** receiver-driven sending (receiver-grant.ts): the sender may start packets below this byte; the receiver's initial credit */
  grantLimit = Infinity;
  grantWindowBytes = 0;
  /**
   * Homa (homa.ts). Sender: the unscheduled bytes, their level, the scheduled
   * level of the latest grant. Receiver: the offset granted so far, the bytes
   * left to receive, the level of the message's rank, its place in the host's
   * SRPT list (-1: not listed yet, -2: needs no more grants).
   */
  homaUnsched = 0;
  homaUnschedPrio = 0;
  homaSchedPrio = 0;
  homaGranted = 0;
  homaLeft = 0;
  homaRxPrio = 0;
  homaIdx = -1;
  /** Homa sender: held back for a paused class, waiting for the NIC's next resume */
  homaBlocked = false;
  /**
   * `ndpPull` (ndp-pull.ts). Sender: the data packets (resent ones too) it may
   * have sent in all, and the part of that not from PULLs (initial window,
   * returned headers, timeouts). Receiver: the PULLs sent for this flow (the
   * PULL counter).
   */
  pullCredit = 0;
  pullBase = 0;
  pullsSent = 0;

  /** The flow completed: the bitmaps go (the counters stay for the results). */
  release(): void {
    this.rcvOoo = null;
    this.lostMap = null;
  }
}
