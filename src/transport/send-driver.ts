/**
 * Who drives sending, as a strategy: the NIC asks a sending flow whether it
 * may put its next data packet in flight (`NicFlow.maySend`, docs/network-model.md
 * §10.2 / §10.3 window test); the flow asks its transport's send driver. The
 * transport picks one driver per run and keeps it (the call stays
 * monomorphic). Pacing (the CC's rate, `readyAt`) and PFC stay the NIC's in
 * every driver.
 *
 * - `SenderDriven` (the default): the sender's CC decides, by its window.
 * - receiver-driven drivers (receiver-grant.ts) also make the sender wait
 *   for credit the receiver grants (`carriesGrants`): the receiver writes a
 *   grant on each ACK (`grant`), the sender takes it (`onGrant`).
 */
import type { Flow } from './flow.js';

export interface SendDriver {
  /** `sendDriver` value: its name in the registry (strategies.ts) */
  readonly name: string;
  /** ACKs carry the receiver's credit (the transport then calls `grant` and `onGrant`) */
  readonly carriesGrants: boolean;
  /** Sender: f starts (before its first packet). */
  onStart(f: Flow): void;
  /**
   * Sender: may f put its next data packet in flight? Bytes left (new or
   * lost), time and PFC aside: the NIC checks those.
   */
  mayPut(f: Flow): boolean;
  /**
   * Receiver, when it sends an ACK of f: the credit the ACK carries, in bytes
   * beyond its cumulative sequence `f.rcvExpected`.
   */
  grant(f: Flow): number;
  /** Sender: an ACK of f arrived with cumulative sequence `seq` and credit `creditBytes` beyond it. */
  onGrant(f: Flow, seq: number, creditBytes: number): void;
  /**
   * Sender: the priority class of f's data packet starting at `seq` (Homa's
   * levels, homa.ts). Absent: the flow's class. The transport calls it only
   * for a driver that has it, decided once per run.
   */
  packetPrio?(f: Flow, seq: number): number;
  /** the driver's PULLs, for a loss recovery that asks for them (NDP's trim recovery); absent: none */
  readonly pulls?: PullSource;
  /**
   * Before the run, once: the run's CC (its name and parsed parameters) and the sizes of its
   * messages, for a driver that plans from them (Homa's priority plan, homa.ts). Throws if the
   * driver cannot work with that CC. Absent: the driver needs neither.
   */
  prepareRun?(cc: { readonly name: string; readonly params: unknown }, messageBytes: ArrayLike<number>): void;
}

/** A receiver-paced source of sending credit (NDP's PULLs, ndp-pull.ts) that a loss recovery drives. */
export interface PullSource {
  /** a data packet (or trimmed header) of f arrived at its receiver */
  onArrival(f: Flow): void;
  /** the receiver asks for `n` more packets of f */
  credit(f: Flow, n: number): void;
}

/**
 * The window test (docs/network-model.md §10.2 / §10.3): the bytes in flight,
 * `sndNxt - sndUna` less those known lost and waiting to be resent (only when
 * the run's loss recovery keeps lost packets, `lossList`), must be below the
 * CC's window (whole packets under `windowUnit: packets`; scaled by rate /
 * line rate under D-HPCC `VAR_WIN`, §10.2).
 */
export function windowAdmits(f: Flow, scaleWindow: boolean, windowPackets: boolean, lossList: boolean): boolean {
  let w = f.cwndBytes;
  if (w === Infinity) return true;
  if (scaleWindow === true) {
    // D-HPCC VAR_WIN: max(1, floor(win·rate/maxRate)) (docs/network-model.md §10.2)
    w = Math.floor((w * f.rateBps) / f.lineRateBps);
    if (w < 1) w = 1;
  }
  let infl = f.sndNxt - f.sndUna;
  if (lossList === true) infl -= f.lostBytes();
  if (windowPackets === true) return Math.ceil(infl / f.mtuBytes) < Math.ceil(w / f.dataWireBytes);
  return infl < w;
}

/** Sender-driven sending (the references' RoCEv2 NIC, docs/network-model.md §10): the CC's window alone gates. */
export class SenderDriven implements SendDriver {
  readonly name = 'sender';
  readonly carriesGrants = false;

  constructor(
    /** the CC's fixed window scales with its rate (D-HPCC VAR_WIN) */
    private readonly scaleWindow: boolean,
    /** the window counts packets (D-OSCAR) */
    private readonly windowPackets: boolean,
    /** the loss recovery keeps lost packets (selective, trim): they do not count in flight */
    private readonly lossList: boolean,
  ) {}

  onStart(): void {}

  mayPut(f: Flow): boolean {
    return windowAdmits(f, this.scaleWindow, this.windowPackets, this.lossList);
  }

  grant(): number {
    return 0;
  }

  onGrant(): void {}
}
