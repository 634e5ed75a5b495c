/**
 * Receiver-driven sending, a first cut (`sendDriver: receiverGrant`): the
 * sender puts a packet in flight only against credit the receiver granted,
 * as in the receiver-driven transports OSCAR and PowerTCP compare against
 * (OSCAR §6, NDP baseline: the receiver pulls one packet for every packet
 * that arrives, after an unsolicited first window; PowerTCP appendix, the
 * Homa / NDP discussion: the receiver schedules its own downlink).
 *
 * The credit is cumulative, so a lost ACK loses no credit: each ACK carries,
 * in its `xack` word, the bytes beyond its cumulative sequence the sender may
 * start; the sender keeps the highest limit (`StrategyState.grantLimit`). This
 * receiver grants one packet per packet received: the initial window
 * (`grantWindowBytes`, 0 = the flow's base BDP, in whole packets) plus what it
 * holds out of order. A packet of f may start when its first byte is below
 * the limit (resent lost packets lie below `sndNxt`, so always), and the CC's
 * window still applies; pacing and PFC stay the NIC's.
 *
 * Not modelled yet: pull packets of their own paced at the receiver's link
 * rate, and grants shared among the flows arriving at one host (the part of
 * NDP / Homa that controls incast); `grant` is where that policy goes.
 */
import type { Flow } from './flow.js';
import { windowAdmits, type SendDriver } from './send-driver.js';

export class ReceiverGrant implements SendDriver {
  readonly name = 'receiverGrant';
  readonly carriesGrants = true;

  constructor(
    private readonly scaleWindow: boolean,
    private readonly windowPackets: boolean,
    /** the loss recovery keeps lost packets (selective, trim) */
    private readonly lossList: boolean,
    /** initial credit per flow, bytes (0: the flow's base BDP) */
    private readonly initialBytes: number,
  ) {}

  onStart(f: Flow): void {
    const mtu = f.mtuBytes;
    const w = this.initialBytes > 0 ? this.initialBytes : f.baseBdpBytes;
    const s = f.state();
    s.grantWindowBytes = Math.max(1, Math.ceil(w / mtu)) * mtu;
    s.grantLimit = s.grantWindowBytes;
  }

  mayPut(f: Flow): boolean {
    const s = f.state();
    return (s.lostBytes > 0 || f.sndNxt < s.grantLimit) && windowAdmits(f, this.scaleWindow, this.windowPackets, this.lossList);
  }

  grant(f: Flow): number {
    const s = f.state();
    return s.grantWindowBytes + s.rcvOooBytes;
  }

  onGrant(f: Flow, seq: number, creditBytes: number): void {
    const limit = seq + creditBytes;
    const s = f.state();
    if (limit > s.grantLimit) s.grantLimit = limit;
  }
}
