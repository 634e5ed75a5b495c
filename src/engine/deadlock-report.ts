/**
 * The record of a PFC deadlock (net/deadlock.ts finds it; SimOutput.deadlock and summary.json carry
 * it). Plain data, here at the bottom so that whoever reads a result folder (experiment/results/,
 * the paper analyses) depends on the record, not on the network that produced it.
 */

/** One (egress port, class) of a deadlock cycle. */
export interface DeadlockPort {
  node: number;
  name: string;
  /** port number at `node` */
  port: number;
  /** the node this port sends to (which paused it) */
  peer: number;
  peerName: string;
  cls: number;
  pausedSincePs: number;
  queuedBytes: number;
}

export interface DeadlockReport {
  /** simulated time of the check that found the cycle, ps */
  detectedAtPs: number;
  /** the pause duration required (DeadlockOptions.minPausedPs) */
  minPausedPs: number;
  /** true when no event was left (the fabric was frozen); the duration rule is then moot */
  frozen: boolean;
  /** the cycle in wait-for order: each port's queue waits for the next one */
  cycle: DeadlockPort[];
  /** flows not finished when the run ended */
  unfinishedFlows: number;
  /** packets dropped in the whole run */
  drops: number;
  /** unfinished flows that lost at least one packet (data or ACK; D-HPCC has no RTO, so a lost tail is never recovered) */
  unfinishedWithDrops: number;
  /** no unfinished flow lost a packet: the deadlock alone keeps them from finishing */
  dropsRuledOut: boolean;
}
