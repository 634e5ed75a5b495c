/**
 * The congestion-control plug-in interface (docs/architecture.md rule 4,
 * docs/network-model.md §10.1, docs/algorithms.md §1).
 *
 * A CC is one file exporting a `CcDefinition`: a name, a zod parameter schema
 * with defaults (units in the names), the network features it needs, the extra
 * header bytes it adds, and `create`, which returns one `CcInstance` per flow.
 * An instance sees the flow through `CcFlow` and writes only the flow's rate and
 * window. Hooks receive shared, reused objects (`AckInfo`, `SendInfo`): read
 * what you need, never keep a reference.
 */
import type { z } from 'zod';
import type { Capabilities } from '../engine/registry.js';
import type { CcEcnMarking, NetworkConfig } from '../net/config.js';
import { unmetSwitchNeeds } from '../net/switch-features.js';

/**
 * Network features a CC needs. Where the references make a feature depend on
 * the CC, `needs` turns it on: INT stamping at switches (`int`), the echoed
 * send timestamp (`ts`), the echoed in-flight stamp (`inflight`) and the
 * receive timestamp (`rxTs`); a CC that does not declare one of these sees
 * the "absent" value documented on `AckInfo`. The rest is decided by the
 * network profile as its reference does (docs/network-model.md §10.3: D-OSCAR
 * switches mark ECN and receivers send CNPs whatever the CC); declaring
 * `ecn`, `cnp` or `tcd` asks the runner to check that the profile provides
 * them, and a run whose profile cannot is rejected before it starts
 * (`unmetNeeds`).
 */
export interface CcNeeds {
  /** switches push INT hops (ts, qlen, txBytes, rate) into data packets; ACKs echo them */
  int?: boolean;
  /** ECN marking at switches and CE echo / CNP from receivers */
  ecn?: boolean;
  /** CNP delivery to the sender (`onCnp`) */
  cnp?: boolean;
  /** TCD ternary marks (NO/UE/CE) on data, echoed in ACKs; switches run the TCD dequeue policy (docs/algorithms.md §5) */
  tcd?: boolean;
  /**
   * ACKs travel in a higher-priority class than data at every hop (ACC §4.3):
   * the strict, never-paused control queue 0 of D-HPCC switches, or the
   * highest class under strict-priority service
   */
  highPriorityAcks?: boolean;
  /** data packets carry the send timestamp, ACKs echo it */
  ts?: boolean;
  /** data packets carry the sender's in-flight bytes, ACKs echo it (OSCAR pktInfl) */
  inflight?: boolean;
  /** the CC's window is a fixed limit `win` that a profile with `transport.rateScaledWindow` scales by rate/lineRate (D-HPCC VAR_WIN) */
  rateScaledWindow?: boolean;
  /** ACKs carry the time the acknowledged data packet reached the receiver (one-way delay, OSCAR-OWD) */
  rxTs?: boolean;
  /**
   * Poseidon's short INT: every switch writes max(mpd, its queueing delay in
   * whole us) into data packets, ACKs echo it as `AckInfo.mpdUs`
   * (docs/network-model.md §11.5, docs/algorithms.md §9.6)
   */
  mpd?: boolean;
  /**
   * the CC's own RED marking, replacing the profile's thresholds at every switch
   * port and turning marking on (DCTCP: kmin = kmax, pmax 1; docs/network-model.md §11.4, docs/algorithms.md §9.2)
   */
  ecnMarking?: CcEcnMarking;
}

/** One network setting a CC requires (`CcDefinition.network`). */
export interface CcNetworkSetting {
  /** the field under the spec's `network:` (e.g. ['switch', 'pfcEnabled']) */
  readonly path: readonly string[];
  readonly value: unknown;
  /** why the CC needs it, for the error a contradicting spec gets */
  readonly why: string;
  /** the value is one entry (with a `name`) added to the list at `path` unless one of that name is there */
  readonly append?: boolean;
}

// Packet-level constants and the RED-threshold type belong to the network layer; CCs import them from here.
export type { CcEcnMarking } from '../net/config.js';
export { INT_MAX_HOPS, TCD_CE, TCD_NO, TCD_UE } from '../net/packet.js';

/**
 * What the sender learns from one ACK or NACK. One object per simulation,
 * overwritten for every ACK.
 */
export interface AckInfo {
  /** cumulative ACK: next expected byte (D-HPCC) / first byte of the next expected packet */
  seq: number;
  isNack: boolean;
  /** the acknowledged data packet was CE-marked (CNP flag of D-HPCC ACKs) */
  ecnEcho: boolean;
  /** TCD mark of the acknowledged data packet */
  tcd: number;
  /** send time (ps) of the data packet that triggered this ACK, echoed; -1 unless the CC needs `ts` */
  sendTsPs: number;
  /**
   * time (ps) the data packet that triggered this ACK reached the receiver
   * (clocks are synchronised); -1 unless the CC needs `rxTs`
   */
  rxTsPs: number;
  /** sender in-flight stamp of that data packet (`SendInfo.inflightStamp`), echoed; 0 unless the CC needs `inflight` */
  inflightBytes: number;
  /** number of data packets this ACK covers (ACK coalescing `cnt`, docs/algorithms.md §2); 1 without coalescing, 0 on a NACK */
  ackedPackets: number;
  /**
   * sum of the in-flight stamps of the data packets this ACK covers (ACK
   * coalescing `sumInfl`, docs/algorithms.md §2: the receiver accumulates the
   * stamps of the in-order packets since its last ACK); equals
   * `inflightBytes` when an ACK covers one packet; 0 on a NACK or unless the
   * CC needs `inflight`
   */
  sumInflightBytes: number;
  /**
   * bytes this ACK newly acknowledges: max(0, seq - sndUna before the ACK);
   * 0 on a NACK. Independent of ackOrder.
   */
  newlyAckedBytes: number;
  /** INT stack echoed from the data packet; hop i at index i (0 = first switch) */
  intHops: number;
  intTsPs: Float64Array;
  intQlenBytes: Float64Array;
  intTxBytes: Float64Array;
  intRateBps: Float64Array;
  /** bytes ever enqueued at the hop's egress port (PowerTCP rx-byte variant, docs/algorithms.md §3) */
  intRxBytes: Float64Array;
  /**
   * Poseidon MPD echoed from the data packet: the largest per-hop queueing
   * delay on its path, whole us (`needs.mpd`; 0 without it, and on a D-OSCAR
   * NACK, which carries no echo header)
   */
  mpdUs: number;
  /**
   * Sender state seen by the hook (docs/network-model.md §10.1). Under `ackOrder:
   * ccFirst` (D-OSCAR) these are the values before this ACK is applied (no
   * sndUna advance, no go-back-N rewind yet); under `transportFirst` (D-HPCC)
   * they are after sndUna advanced and a NACK rewound sndNxt.
   */
  sndNxt: number;
  sndUna: number;
  /** highest sndNxt ever (docs/algorithms.md §1 maxSentSeq) */
  maxSentSeq: number;
  /** arrival time at the sender, ps (= now) */
  nowPs: number;
  /** value the receiver's `CcDefinition.receiverEcho` stamped on this ACK (0 without the hook) */
  receiverEcho: number;
}

/**
 * What the receiver knows when it acknowledges a data packet
 * (`CcDefinition.receiverEcho`). One shared object, overwritten per ACK.
 */
export interface ReceiverInfo {
  /** flow of the data packet */
  flowId: number;
  /** receiving host */
  host: number;
  /**
   * flows to this host that have delivered at least one packet and are not yet
   * complete (SQCC's N, docs/algorithms.md §8 [AMB-S7]); includes this flow
   */
  activeFlowsAtHost: number;
  nowPs: number;
}

/** What a CC sees when a data packet starts transmission. */
export interface SendInfo {
  /** first byte of the packet */
  seq: number;
  payloadBytes: number;
  wireBytes: number;
  nowPs: number;
  isRetransmission: boolean;
  /**
   * The in-flight value stamped on this packet and echoed in its ACK
   * (`AckInfo.inflightBytes`). The transport presets it to the sequence-space
   * in-flight bytes (sndNxt - sndUna after this packet); a CC may overwrite it
   * in `onSend` with its own header field (OSCAR pktInfl in wire bytes,
   * docs/algorithms.md §2).
   */
  inflightStamp: number;
  /**
   * Gap (ps) until this flow's next packet may start. The transport presets it
   * to -1, meaning the pacer's `wireBytes / rate`; a CC may set it in `onSend`
   * (segment bursts at line rate, TIMELY docs/algorithms.md §7).
   */
  nextGapPs: number;
}

/** The flow as a CC sees it. */
export interface CcFlow {
  readonly id: number;
  readonly src: number;
  readonly dst: number;
  readonly sizeBytes: number;
  /** host NIC line rate, bps */
  readonly lineRateBps: number;
  /** base RTT given to the CC (docs/network-model.md §9), ps */
  readonly baseRttPs: number;
  /** base BDP, bytes */
  readonly baseBdpBytes: number;
  /**
   * this flow's own base RTT by the profile's per-pair formula (docs/network-model.md
   * §9: D-OSCAR baseRtt, or D-HPCC pairRtt of the flow's path), ps; equals
   * baseRttPs unless the profile gives every flow the global maximum
   */
  readonly pathBaseRttPs: number;
  /** topology-wide maximum base RTT (D-HPCC's global T, docs/network-model.md §9), ps; independent of the profile's baseRtt rule */
  readonly maxBaseRttPs: number;
  /** line rate x maxBaseRttPs, bytes */
  readonly maxBaseBdpBytes: number;
  /** one-way base delay (D-OSCAR baseOneWay), ps */
  readonly baseOneWayPs: number;
  /**
   * this flow's own unloaded RTT, ps: two-way propagation plus one data-packet
   * and one ACK serialization per link of its path at that link's rate. The
   * per-flow RTT_min of delay-based CCs (CCC §4.3.1), whatever the profile's
   * baseRtt rule.
   */
  readonly pathRttPs: number;
  /** data packet wire size including CC headers, bytes */
  readonly dataWireBytes: number;
  readonly mtuBytes: number;
  /** current pacing rate, bps */
  readonly rateBps: number;
  /** current window, bytes (Infinity = none) */
  readonly cwndBytes: number;
  readonly sndNxt: number;
  readonly sndUna: number;
  readonly maxSentSeq: number;
  readonly minRateBps: number;
  readonly net: NetworkConfig;
  now(): number;
  /**
   * Sets the pacing rate; clamped to [minRate, lineRate] by the transport.
   * With `adjustPacing` (default) the profile's pacingUpdate rule moves the
   * pending send time (D-HPCC ChangeRate); false assigns the rate directly.
   */
  setRate(bps: number, adjustPacing?: boolean): void;
  /** Sets the window in bytes (Infinity = no window). */
  setCwnd(bytes: number): void;
  /** time (ps) the pacer allows the next data packet (the rate pacer's next send time) */
  readonly nextAvail: number;
  /** the CC hold in force (ps; 0 = none) */
  readonly holdUntilPs: number;
  /**
   * Holds the flow: no data packet starts before `untilPs` (ACC's source halt,
   * docs/algorithms.md §1). A separate deadline from the pacer's: `setRate` never
   * moves it, and a packet leaves only when both allow.
   */
  setHold(untilPs: number): void;
  /** Arms CC timer `slot` (0..7) to fire `delayPs` from now, replacing a pending one in that slot. */
  setTimer(slot: number, delayPs: number): void;
  cancelTimer(slot: number): void;
  timerPending(slot: number): boolean;
}

export interface CcInstance {
  /** before the first packet */
  onStart?(): void;
  /** at transmission start of every data packet */
  onSend?(info: SendInfo): void;
  /** every ACK, and every NACK (the references call the same hook) */
  onAck(ack: AckInfo): void;
  /** every NACK, after onAck */
  onNack?(ack: AckInfo): void;
  /** CNP received (cnpMode cnpPacket), or an ACK with the CNP flag (ackFlag) */
  onCnp?(): void;
  onRto?(): void;
  onTimer?(slot: number): void;
  /** flow completed: release timers and state */
  onFinish?(): void;
  /**
   * Writes the current values of `CcDefinition.traceFields` into `out` (same
   * order). Called by the CC-state sampler (metrics `ccTrace`), never per packet.
   */
  traceState?(out: Float64Array): void;
  /**
   * Fast-forward (sim/fast-forward.ts) moved the flow's sequence space `bytes` ahead (sndNxt,
   * sndUna, maxSentSeq and every packet in flight): move every sequence number the state keeps
   * (a once-per-window marker such as `lastUpdateSeq`) as far. Absent: the state keeps none.
   */
  shiftSeq?(bytes: number): void;
}

export interface CcDefinition<S extends z.ZodType = z.ZodType> extends Capabilities {
  name: string;
  /** one line for `ccsim list` */
  description: string;
  /** paper section / spec the implementation follows */
  reference: string;
  params: S;
  needs: CcNeeds;
  /** the needs under `params` when they depend on them (DCTCP's marking); absent: `needs` */
  needsFor?(params: z.infer<S>): CcNeeds;
  /** extra header bytes the CC puts on every data packet (e.g. HPCC INT block 42 B, OSCAR sendTs + pktInfl 6 B); they cost wire time and buffer */
  dataHeaderBytes(net: NetworkConfig, params: z.infer<S>): number;
  /** extra header bytes on every ACK (before the profile's minimum-size padding) */
  ackHeaderBytes(net: NetworkConfig, params: z.infer<S>): number;
  /** initial window given the flow (bytes; Infinity = none) */
  initialCwnd(flow: CcFlow, params: z.infer<S>): number;
  create(flow: CcFlow, params: z.infer<S>): CcInstance;
  /**
   * Receiver-side hook: the value the receiver stamps on the ACK of a data
   * packet, echoed to the sender as `AckInfo.receiverEcho` (SQCC's flow count,
   * docs/algorithms.md §1). Absent: ACKs carry 0.
   */
  receiverEcho?(rx: ReceiverInfo): number;
  /**
   * the CC may be fast-forwarded (`engine.fastForward`, sim/fast-forward.ts): its instances keep
   * every sequence number in state that `shiftSeq` moves, and every time on the scheduler's clock
   */
  fastForward?: boolean;
  /** names of the per-flow state fields `CcInstance.traceState` writes (metrics `ccTrace`, cc_trace.csv) */
  traceFields?: readonly string[];
  /**
   * Network settings the CC cannot run without (NDP: trimming, spraying, no
   * PFC; cc/network-settings.ts): applied over the profile when a spec is
   * resolved and when a simulation is built, recorded in the manifest with
   * the network; a spec that sets one of these fields to another value is a
   * spec error naming both.
   */
  network?(params: z.infer<S>, net: NetworkConfig): CcNetworkSetting[];
  /**
   * The value every parameter takes for a flow of line rate `lineRateBps` under `net`, when the
   * parsed params leave some to a preset or the profile (e.g. DCQCN's parameter columns); keys
   * are the param names. Shown by `ccsim list` and recorded in manifest.json. Absent: the
   * parsed params (schema defaults applied) are the values used.
   */
  resolvedParams?(params: z.infer<S>, net: NetworkConfig, lineRateBps: number): Record<string, unknown>;
  /**
   * with `fastForward`: the period of the CC's slowest periodic timer (a rate-increase timer),
   * ps. A steady stretch must span two of them before a skip, so that a ramp in the timer's
   * steps shows (sim/fast-forward.ts). Absent: the CC reacts per ACK only.
   */
  fastForwardTimerPs?(params: z.infer<S>, net: NetworkConfig, lineRateBps: number): number;
}

/**
 * The needs of `def` that profile `net` cannot meet, one message each (empty:
 * runnable). Checked before a run starts (spec resolution and `simulate`).
 */
export function unmetNeeds(def: CcDefinition, net: NetworkConfig, params?: unknown): string[] {
  // what the switches must provide is the needs table's (net/switch-features.ts)
  return unmetSwitchNeeds(def.name, ccNeeds(def, params), net);
}

/** The needs of `def` under its parsed `params` (`needsFor`), or its static `needs` without params. */
export function ccNeeds(def: CcDefinition, params?: unknown): CcNeeds {
  return params !== undefined && def.needsFor !== undefined ? def.needsFor(params) : def.needs;
}
