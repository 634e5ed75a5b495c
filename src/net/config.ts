/**
 * Resolved network configuration: every switch, NIC and transport option of
 * docs/network-model.md §1-11 in one plain object, and the two reference "dialects"
 * (§7, §10, §15 there) as named profiles. The experiment spec starts from a profile
 * and overrides fields.
 */
import { KIB, MIB, MS, US, type TxTimeQuantization } from '../engine/units.js';

/** Which shared-buffer admission / PFC threshold rule the switch MMU uses (docs/network-model.md §11.2). */
export type DtMode =
  /** D-HPCC: threshold = free >> shift, shift 3 at host rate and one less per doubling */
  | 'shiftByPortRate'
  /** D-OSCAR: threshold = free >> dtShift for every port */
  | 'fixedShift'
  /** ACC: a static per-(port, queue) threshold of `staticThresholdBytes` */
  | 'static'
  /**
   * D-PowerTCP ("sonic" MMU): threshold = alphaIngress * (ingressPool - shared bytes
   * in use), sticky per-(port, queue) headroom, egress DT admission; pool layout
   * from `ptPools`
   */
  | 'alpha';

/**
 * D-PowerTCP pool layout (docs/network-model.md §11.2), used by dtMode 'alpha'.
 * B = bufferBytes, X = total headroom (all 8 queues of every port):
 * - ptWorkload: bufferPool B, ingressPool B - X (<= 0: no PFC from that switch), egressPool B, alpha_e = alphaEgress;
 * - ptBurst:    bufferPool B + X, ingressPool B, egressPool B, alpha_e = 65535 (fixed by the layout).
 */
export type PtPoolLayout = 'ptWorkload' | 'ptBurst';

export type HeadroomMode = 'perPort' | 'perQueue';
export type PfcMode = 'onOff' | 'quanta';
export type EcnComparison = 'afterRemoval' | 'includingPacket';
export type QueueService = 'rr' | 'strict';

export interface EcnConfig {
  enabled: boolean;
  kminBytes: number;
  kmaxBytes: number;
  pmax: number;
  /** scale kmin/kmax by portRate/refRateBps (D-HPCC KMIN_MAP behaviour) */
  scaleWithRate: boolean;
  refRateBps: number;
  comparison: EcnComparison;
  /** mark packets that are not ECN-capable too (D-HPCC marks ACKs as well) */
  markNonEct: boolean;
}

/**
 * RED thresholds a CC asks for (`CcNeeds.ecnMarking`, e.g. DCTCP's step),
 * replacing the profile's on every switch port; the comparison rule stays the
 * profile's.
 */
export interface CcEcnMarking {
  kminBytes: number;
  kmaxBytes: number;
  pmax: number;
  /** scale kmin/kmax by portRate / refRateBps; null = the same thresholds on every port */
  refRateBps: number | null;
}

/**
 * TCD ternary congestion detection (docs/algorithms.md §5, a reconstruction: ACC
 * §2.2/§6.1 give only the port states and these two numbers). Switches mark
 * TCD only when the CC needs it; `enabled` says whether this profile's
 * switches can (a TCD CC on a profile without it is a spec error).
 */
export interface TcdConfig {
  enabled: boolean;
  /** max(T_on): a class continuously ON this long with a queue is a congestion port (ACC §6.1: 24 us) */
  maxTonPs: number;
  /** queue threshold Q_th in bytes (ACC §6.1: 2 MTU; 2 x the 1048-B D-HPCC data packet) */
  queueThresholdBytes: number;
}

export interface SwitchConfig {
  bufferBytes: number;
  /** false: lossy mode, drop-tail at the DT threshold, no PFC (docs/network-model.md §11.7) */
  pfcEnabled: boolean;
  pfcMode: PfcMode;
  dtMode: DtMode;
  /** D-OSCAR shift (alpha = 2^-dtShift); base shift for shiftByPortRate */
  dtShift: number;
  /** threshold for dtMode 'static' */
  staticThresholdBytes: number;
  reservePerQueueBytes: number;
  headroomMode: HeadroomMode;
  /** headroom = headroomRttMultiplier * rate * delay / 8 (+ headroomExtraBytes) */
  headroomRttMultiplier: number;
  /**
   * Bytes added to every port's headroom (default 0, the HPCC simulator's sizing). Multiples of
   * the one-way bandwidth-delay product alone fall short of what still arrives after a pause when
   * a packet takes about as long as the link's delay (10 Gbps, 1 us: 3 750 B of headroom against
   * two delays of data plus the packets in service at both ends); later ns-3 forks size
   * headroom as 2 x BDP + 2 packets, which `headroomRttMultiplier: 2, headroomExtraBytes: 2096`
   * gives (docs/network-model.md §11).
   */
  headroomExtraBytes?: number;
  resumeOffsetBytes: number;
  /** D-OSCAR adds headroom*(8 - losslessQueues) per port to the buffer */
  bufferCompensationLosslessQueues: number;
  /** queue 0 is a strict, never-paused, unaccounted control queue (D-HPCC) */
  queue0Control: boolean;
  service: QueueService;
  /** bytes not counted by the MMU (D-OSCAR: Ethernet + IPv4 = 34) */
  mmuHeaderOffset: number;
  /** bytes not counted in ECN / INT queue lengths (D-OSCAR: 14) */
  queueHeaderOffset: number;
  /** INT txBytes counts the stamped packet itself (D-OSCAR) or only the bytes before it (D-HPCC), §3.5 */
  intTxIncludesPacket: boolean;
  ecn: EcnConfig;
  /**
   * per-flow ECMP (ccsim's hash), per-packet spraying, or the ns-3 HPCC / PowerTCP
   * simulators' ECMP hash for flow-for-flow replays of their runs (net/ecmp-ns3.ts)
   */
  loadBalancing: 'ecmp' | 'spray' | 'ns3Hash';
  /**
   * Varies every switch's ECMP salt, i.e. which equal-cost path each flow hashes
   * to (docs/network-model.md §11.6); 0 = the default salts. A sensitivity knob:
   * ccsim's hash is not the references', so a replay's paths are one draw.
   */
  ecmpSeed: number;
  /** D-HPCC PAUSE_TIME (only its sign matters in onOff mode), ps */
  pauseQuantaPs: number;
  /** dtMode 'alpha': pool layout (D-PowerTCP workload or burst programs) */
  ptPools: PtPoolLayout;
  /** dtMode 'alpha': ingress DT alpha (D-PowerTCP 1/8) */
  alphaIngress: number;
  /**
   * dtMode 'alpha': egress DT alpha for the `ptWorkload` layout (default 1, the
   * [P] default). `ptBurst` always uses 65535 (its programs set UINT16_MAX), so
   * this field does not apply there.
   */
  alphaEgress: number;
  /** dtMode 'alpha': resume when the (port, queue) holds fewer bytes than this */
  xonBytes: number;
  /** dtMode 'alpha': or when its bytes plus this offset are at most the threshold */
  xonOffsetBytes: number;
  tcd: TcdConfig;
  /**
   * admission policies consulted before the MMU's admission, in order, by
   * registry name (admission.ts, switch-registry.ts); absent: none (every profile)
   */
  admission?: AdmissionChoice[];
  /** queue-service discipline of every port, by registry name, in place of `service` (queue-discipline.ts) */
  discipline?: string;
  /** the parameters of `discipline` (its definition's `params` schema; DRR's `quantumBytes`, drr.ts) */
  disciplineParams?: Record<string, unknown>;
  /** the data queue trimmed headers go to, urgent at every port of a switch with admission policies (default 7) */
  trimQueue?: number;
  /** BFC's per-flow backpressure over physical queues at every switch port (bfc.ts); absent: none (every profile) */
  bfc?: Partial<BfcConfig>;
}

/**
 * BFC, Backpressure Flow Control (Goyal et al., NSDI'22; src/net/bfc.ts,
 * docs/network-model.md §11.9). A spec gives any subset; `bfcConfig` fills the rest.
 */
export interface BfcConfig {
  /** physical queues per egress port (BFC-32, BFC-128; at most 128) */
  queues: number;
  /** a flow's queue above this many bytes pauses the flow upstream; 0 = one hop BDP of the port (rate x 2 x the switch's longest link delay) */
  pauseBytes: number;
  /** the queue's paused flows resume when it holds at most this; 0 = pauseBytes */
  resumeBytes: number;
  /** flow-table entries per egress port, a power of two (flows whose hashes share an entry share a queue) */
  flowTableSize: number;
  /** the data class split into physical queues; -1 = the transport's data class */
  cls: number;
}

/** An admission policy of `SwitchConfig.admission`: its registry name and parameters. */
export interface AdmissionChoice {
  name: string;
  params?: Record<string, unknown>;
}

export type AckOrder = 'transportFirst' | 'ccFirst';
export type CnpMode = 'ackFlag' | 'cnpPacket';
export type NicArbitration = 'rrPerPacket' | 'fifoWhenQueueEmpty';
export type AckPriority = 'strictAtHost' | 'sameAsData';
export type WindowUnit = 'bytes' | 'packets';
export type PacingUpdate = 'adjustOnRateChange' | 'noReschedule';
export type NackRule = 'timer' | 'rearmOnInOrder';
/**
 * Loss recovery (docs/network-model.md §10.3): go-back-N on NACK / RTO, or none
 * (D-OSCAR `RetxMode None`, used with packet spraying: the receiver accepts
 * out-of-order packets into a reorder buffer, ACKs every packet with the
 * cumulative expected sequence, and there are no NACKs or RTO actions), or
 * selective (a reorder buffer, one NACK per missing packet, only those
 * resent; OSCAR §6 NDP baseline; src/transport/selective.ts), or trim (a
 * reorder buffer; losses are learnt only from trimmed headers, NACKed one by
 * one, and from headers a switch returned: NDP §3; src/transport/trim-recovery.ts).
 * A name in the loss-recovery registry (src/transport/strategies.ts; plug-ins may add one).
 */
export type RetxMode = string;
/**
 * Who lets a flow send (src/transport/send-driver.ts): the sender's CC window
 * (`sender`), or also credit the receiver grants on its ACKs (`receiverGrant`,
 * NDP-like: one packet per packet received after an initial window; OSCAR §6),
 * or Homa's grants (`homa`: SRPT over a receiver's incoming messages, set by
 * the `homa` CC; src/transport/homa.ts), or NDP's PULLs (`ndpPull`: an
 * initial window, then one packet per PULL the receiver paces at its link
 * rate; src/transport/ndp-pull.ts; needs retxMode trim). A name in the send-driver registry
 * (src/transport/strategies.ts; plug-ins may add one).
 */
export type SendDriverMode = string;
export type PortRule = 'hpcc' | 'sequential';
export type BaseRttMode = 'perFlowOscar' | 'globalMaxHpcc';
export type IdealFctMode = 'hpcc' | 'oscar';

export interface TransportConfig {
  /** payload bytes per data packet */
  mtuBytes: number;
  /** data packet headers without CC extras */
  dataHeaderBytes: number;
  /** ACK/NACK header bytes without CC extras (padded up to ackMinBytes) */
  ackBytes: number;
  /** minimum ACK size (padding) */
  ackMinBytes: number;
  /** NACKs carry the CC's ACK echo header (D-HPCC) or not (D-OSCAR) */
  nackCarriesEcho: boolean;
  cnpBytes: number;
  pfcBytes: number;
  ackOrder: AckOrder;
  /** the receiver ACKs duplicate data packets (D-OSCAR); always when a retransmission timeout is on (lossy mode) */
  ackOnDuplicate: boolean;
  nackRule: NackRule;
  nackIntervalPs: number;
  retxMode: RetxMode;
  /** ACK every n-th in-order packet (1 = per-packet ACK) */
  ackEvery: number;
  /**
   * with ackEvery > 1: a pending partial ACK goes out this long after the first
   * packet it covers (a NIC's coalescing timer), so a window smaller than
   * ackEvery packets is still acknowledged; 0 = no timer
   */
  ackCoalesceTimeoutPs: number;
  /** retransmission timeout; 0 = off */
  rtoPs: number;
  cnpMode: CnpMode;
  cnpIntervalPs: number;
  /** priority of CNP packets when cnpMode = cnpPacket */
  cnpPriority: number;
  nicArbitration: NicArbitration;
  ackPriority: AckPriority;
  /** class of ACKs (strictAtHost: the PFC class that pauses the host ACK queue) */
  ackClass: number;
  dataPriority: number;
  windowUnit: WindowUnit;
  pacingUpdate: PacingUpdate;
  txTimeQuantization: TxTimeQuantization;
  portRule: PortRule;
  baseRtt: BaseRttMode;
  /** fraction of line rate below which no CC may set the rate */
  minRateRatio: number;
  /**
   * D-HPCC `VAR_WIN 1` (docs/network-model.md §10.2 window test): the fixed window of a
   * CC that declares `needs.rateScaledWindow` gates at max(1, floor(win·rate/lineRate))
   * bytes, so it shrinks with the rate; false keeps it fixed (D-OSCAR, OSCAR App. C.6)
   */
  rateScaledWindow: boolean;
  /** who lets a flow send: the CC's window (`sender`, the references) or receiver credit too (`receiverGrant`) */
  sendDriver: SendDriverMode;
  /** `receiverGrant`, `ndpPull`: the receiver's initial credit per flow, bytes, rounded up to whole packets; 0 = the flow's base BDP */
  grantWindowBytes: number;
}

export interface MetricsDefaults {
  idealFct: IdealFctMode;
  clampSlowdownAt1: boolean;
  /**
   * idealFct 'oscar' only: class a pair (same rack / pod / other) by host id + this offset.
   * 0 (default) = the topologically correct class (docs/network-model.md §13.1). 1 reproduces the
   * OSCAR artifact notebooks, which index racks by host IP = id + 1, so one host per rack is
   * classed with the next rack; OSCAR reproduction specs set it explicitly.
   */
  oscarIdealIndexOffset: number;
}

export interface NetworkConfig {
  profile: ProfileName;
  switch: SwitchConfig;
  transport: TransportConfig;
  metrics: MetricsDefaults;
}

export type ProfileName = 'oscar' | 'hpcc' | 'acc';
export const PROFILE_NAMES: readonly ProfileName[] = ['oscar', 'hpcc', 'acc'];

/** D-OSCAR (docs/network-model.md §7 [O]/[PP]): the default. */
function oscarProfile(): NetworkConfig {
  return {
    profile: 'oscar',
    switch: {
      bufferBytes: 32 * MIB,
      pfcEnabled: true,
      pfcMode: 'onOff',
      dtMode: 'fixedShift',
      dtShift: 2,
      staticThresholdBytes: 512_000,
      reservePerQueueBytes: 4 * KIB,
      headroomMode: 'perQueue',
      headroomRttMultiplier: 3,
      resumeOffsetBytes: 3 * KIB,
      bufferCompensationLosslessQueues: 2,
      queue0Control: false,
      service: 'strict',
      mmuHeaderOffset: 34,
      queueHeaderOffset: 14,
      intTxIncludesPacket: true,
      ecn: {
        enabled: true,
        kminBytes: 400 * KIB,
        kmaxBytes: 1600 * KIB,
        pmax: 0.2,
        scaleWithRate: false,
        refRateBps: 25e9,
        comparison: 'includingPacket',
        markNonEct: false,
      },
      loadBalancing: 'ecmp',
      ecmpSeed: 0,
      pauseQuantaPs: 0,
      ptPools: 'ptWorkload',
      alphaIngress: 0.125,
      alphaEgress: 1,
      xonBytes: 1248,
      xonOffsetBytes: 2496,
      tcd: { enabled: false, maxTonPs: 24 * US, queueThresholdBytes: 2 * 1048 },
    },
    transport: {
      mtuBytes: 1000,
      dataHeaderBytes: 54,
      ackBytes: 58,
      ackMinBytes: 64,
      nackCarriesEcho: false,
      cnpBytes: 70,
      pfcBytes: 64,
      ackOrder: 'ccFirst',
      ackOnDuplicate: true,
      nackRule: 'rearmOnInOrder',
      nackIntervalPs: 500 * US,
      retxMode: 'gbn',
      ackEvery: 1,
      ackCoalesceTimeoutPs: 2 * US,
      rtoPs: 10 * MS,
      cnpMode: 'cnpPacket',
      cnpIntervalPs: 50 * US,
      cnpPriority: 7,
      nicArbitration: 'fifoWhenQueueEmpty',
      ackPriority: 'sameAsData',
      ackClass: 0,
      dataPriority: 0,
      windowUnit: 'packets',
      pacingUpdate: 'noReschedule',
      txTimeQuantization: 'roundHalfUp',
      portRule: 'sequential',
      baseRtt: 'perFlowOscar',
      minRateRatio: 0.001,
      rateScaledWindow: false,
      sendDriver: 'sender',
      grantWindowBytes: 0,
    },
    metrics: { idealFct: 'oscar', clampSlowdownAt1: false, oscarIdealIndexOffset: 0 },
  };
}

/** D-HPCC ([H]/[P], docs/network-model.md §7): ACC, PowerTCP, CCC, SQCC family. */
function hpccProfile(): NetworkConfig {
  return {
    profile: 'hpcc',
    switch: {
      bufferBytes: 32 * MIB,
      pfcEnabled: true,
      pfcMode: 'onOff',
      dtMode: 'shiftByPortRate',
      dtShift: 3,
      staticThresholdBytes: 512_000,
      reservePerQueueBytes: 4 * KIB,
      headroomMode: 'perPort',
      headroomRttMultiplier: 3,
      resumeOffsetBytes: 3 * KIB,
      bufferCompensationLosslessQueues: 8,
      queue0Control: true,
      service: 'rr',
      mmuHeaderOffset: 0,
      queueHeaderOffset: 0,
      intTxIncludesPacket: false,
      ecn: {
        enabled: true,
        kminBytes: 100_000,
        kmaxBytes: 400_000,
        pmax: 0.2,
        scaleWithRate: true,
        refRateBps: 25e9,
        comparison: 'afterRemoval',
        markNonEct: true,
      },
      loadBalancing: 'ecmp',
      ecmpSeed: 0,
      pauseQuantaPs: 5 * US,
      ptPools: 'ptWorkload',
      alphaIngress: 0.125,
      alphaEgress: 1,
      xonBytes: 1248,
      xonOffsetBytes: 2496,
      tcd: { enabled: false, maxTonPs: 24 * US, queueThresholdBytes: 2 * 1048 },
    },
    transport: {
      mtuBytes: 1000,
      dataHeaderBytes: 48,
      ackBytes: 46,
      ackMinBytes: 60,
      nackCarriesEcho: true,
      cnpBytes: 60,
      pfcBytes: 43,
      ackOrder: 'transportFirst',
      ackOnDuplicate: false,
      nackRule: 'timer',
      nackIntervalPs: 500 * US,
      retxMode: 'gbn',
      ackEvery: 1,
      ackCoalesceTimeoutPs: 2 * US,
      rtoPs: 0,
      cnpMode: 'ackFlag',
      cnpIntervalPs: 50 * US,
      cnpPriority: 7,
      nicArbitration: 'rrPerPacket',
      ackPriority: 'strictAtHost',
      ackClass: 0,
      dataPriority: 3,
      windowUnit: 'bytes',
      pacingUpdate: 'adjustOnRateChange',
      txTimeQuantization: 'floorViaDouble64x64',
      portRule: 'hpcc',
      baseRtt: 'globalMaxHpcc',
      minRateRatio: 0.001,
      rateScaledWindow: true,
      sendDriver: 'sender',
      grantWindowBytes: 0,
    },
    metrics: { idealFct: 'hpcc', clampSlowdownAt1: true, oscarIdealIndexOffset: 0 },
  };
}

/**
 * ACC (docs/network-model.md §15, ACC column): D-HPCC with ACC's switch settings, a
 * static 512 KB PFC threshold in place of DT (ACC §6.1 "X_OFF is set to
 * 512KB", docs/network-model.md §11.2 assumption), the DCQCN paper's ECN thresholds 5 KB / 200 KB
 * with pmax 1 % on every port, not scaled by rate (ACC §6.1, §3.4
 * assumption), and TCD-capable switches (max T_on 24 us, Q_th 2 MTU).
 */
function accProfile(): NetworkConfig {
  const n = hpccProfile();
  n.profile = 'acc';
  n.switch.dtMode = 'static';
  n.switch.staticThresholdBytes = 512_000;
  n.switch.ecn = { ...n.switch.ecn, kminBytes: 5_000, kmaxBytes: 200_000, pmax: 0.01, scaleWithRate: false };
  n.switch.tcd = { ...n.switch.tcd, enabled: true };
  // the baselines' host ACK queue pauses with the data class (the simulator's ACK_HIGH_PRIO 0,
  // as in the PowerTCP artifact; docs/network-model.md §10.2, §16): ACC does not say, and the
  // unpausable class loses ACKs to ingress headroom under heavy PFC. ACC's own ACKs use the
  // switches' control queue (CcNeeds.highPriorityAcks), so this does not touch them.
  n.transport.ackClass = 3;
  return n;
}

export function profileDefaults(name: ProfileName): NetworkConfig {
  return name === 'hpcc' ? hpccProfile() : name === 'acc' ? accProfile() : oscarProfile();
}

/** Recursively overlays `over` on `base` (plain objects only; arrays and scalars replace). */
export function deepMerge<T>(base: T, over: unknown): T {
  if (over === undefined || over === null) return base;
  if (typeof base !== 'object' || base === null || typeof over !== 'object' || Array.isArray(over)) return over as T;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over as Record<string, unknown>)) {
    if (v === undefined) continue;
    out[k] = k in out ? deepMerge(out[k], v) : v;
  }
  return out as T;
}
