/**
 * The transport's strategies as registries (issue 43; docs/extending.md): who lets a flow send
 * (`network.transport.sendDriver`, send-driver.ts) and how losses are recovered
 * (`network.transport.retxMode`, loss-recovery.ts) are each a `Registry<T>` of named
 * definitions, so a spec names one by its registered name and a user's plug-in module can add
 * one (`ccsim.registerSendDriver` / `registerLossRecovery`) without editing the transport.
 *
 * The transport builds its run's two strategies once, in its constructor, from these
 * definitions (never on the hot path; each call site stays monomorphic within a run). A
 * definition declares `parallel: true` when the multi-threaded engine may run it
 * (sim/parallel/parallel.ts; each built-in one with the flag is checked against one thread by
 * test/threads.test.ts).
 */
import { Registry, type Capabilities } from '../engine/registry.js';
import type { NetContext } from '../net/context.js';
import type { NetworkConfig } from '../net/config.js';
import type { Host } from '../net/host.js';
import type { Flow } from './flow.js';
import { GoBackN, NoRetransmission, type LossRecovery, type RecoveryHost } from './loss-recovery.js';
import { NdpPull } from './ndp-pull.js';
import { ReceiverGrant } from './receiver-grant.js';
import { HomaDriver, type HomaHost } from './homa.js';
import { SelectiveRepeat } from './selective.js';
import { SenderDriven, type SendDriver } from './send-driver.js';
import { TrimRecovery } from './trim-recovery.js';

/** What a strategy may use when the transport builds it (once per run). */
export interface StrategyBuild {
  /** the transport's receiver side (receiver.ts), as the recovery and Homa's driver see it */
  readonly transport: RecoveryHost & HomaHost;
  readonly ctx: NetContext;
  readonly flows: readonly (Flow | null)[];
  readonly hosts: readonly Host[];
  readonly net: NetworkConfig;
  /** the CC's fixed window scales with its rate (D-HPCC VAR_WIN) */
  readonly scaleWindow: boolean;
  /** the window counts packets (D-OSCAR) */
  readonly windowPackets: boolean;
  /** the run's loss recovery keeps lost packets (its definition's `keepsLost`): they do not count in flight */
  readonly lossList: boolean;
  /** the class of high-priority ACKs, or -1 when the CC does not ask for them */
  readonly ackHighClass: number;
  /** the receiver acknowledges duplicate data packets (a sender with a timeout resends below what it holds) */
  readonly ackDuplicates: boolean;
  /** the transport's "f may send more" notice to its NIC */
  readonly windowGrew: (f: Flow) => void;
}

export interface SendDriverDefinition extends Capabilities {
  /** the `network.transport.sendDriver` value */
  readonly name: string;
  readonly description: string;
  create(b: StrategyBuild): SendDriver;
}

export interface LossRecoveryDefinition extends Capabilities {
  /** the `network.transport.retxMode` value */
  readonly name: string;
  readonly description: string;
  /** the recovery keeps lost packets to resend first (selective, trim): the send drivers' window test leaves them out */
  readonly keepsLost: boolean;
  /** the recovery resends at all: without it the run has no retransmission timeout */
  readonly resends: boolean;
  /** `driver`: the run's send driver (NDP's trim recovery asks its PULLs, SendDriver.pulls) */
  create(b: StrategyBuild, driver: SendDriver): LossRecovery;
}

export const sendDriverRegistry = new Registry<SendDriverDefinition>({ kind: 'send driver', key: (d) => d.name });
export const lossRecoveryRegistry = new Registry<LossRecoveryDefinition>({ kind: 'loss recovery', key: (d) => d.name });

export function registerSendDriver(def: SendDriverDefinition, source?: string): void {
  sendDriverRegistry.register(def, source);
}

export function registerLossRecovery(def: LossRecoveryDefinition, source?: string): void {
  lossRecoveryRegistry.register(def, source);
}

/** the class of high-priority control packets of a driver: the CC's ACK class, else `fallback` */
const controlClass = (b: StrategyBuild, fallback: number): number => (b.ackHighClass >= 0 ? b.ackHighClass : fallback);

/** Built-in send drivers, in the order `ccsim list` shows them (docs/network-model.md §10.2-10.3). */
const BUILT_IN_SEND_DRIVERS: readonly SendDriverDefinition[] = [
  {
    name: 'sender',
    description: "the sender's CC window decides (send-driver.ts)",
    parallel: true,
    create: (b) => new SenderDriven(b.scaleWindow, b.windowPackets, b.lossList),
  },
  {
    name: 'receiverGrant',
    description: 'also credit the receiver grants on its ACKs: one packet per packet received after an initial window (NDP-like; OSCAR §6; receiver-grant.ts)',
    create: (b) => new ReceiverGrant(b.scaleWindow, b.windowPackets, b.lossList, b.net.transport.grantWindowBytes),
  },
  {
    name: 'homa',
    description: "Homa's grants: SRPT over a receiver's incoming messages, set by the homa CC (Homa §3.3; homa.ts)",
    parallel: true,
    create: (b) => new HomaDriver(b.transport, controlClass(b, 7)),
  },
  {
    name: 'ndpPull',
    description: "NDP's PULLs: an initial window, then one packet per PULL the receiver paces at its link rate; needs retxMode trim (NDP §3.2-3.3; ndp-pull.ts)",
    parallel: true,
    // PULLs travel in the header class (ndp-pull.ts, trim-recovery.ts)
    create: (b) => new NdpPull(b.ctx, b.flows, b.hosts, b.net.transport.grantWindowBytes, controlClass(b, b.net.switch.trimQueue ?? 7)),
  },
];

/** Built-in loss recoveries (docs/network-model.md §10.3). */
const BUILT_IN_LOSS_RECOVERIES: readonly LossRecoveryDefinition[] = [
  {
    name: 'gbn',
    description: 'go-back-N on NACK and timeout (loss-recovery.ts)',
    parallel: true,
    keepsLost: false,
    resends: true,
    create: (b) => new GoBackN(b.transport, b.net.transport.nackRule === 'timer', b.net.transport.nackIntervalPs, b.ackDuplicates),
  },
  {
    name: 'none',
    description: 'no resending: out-of-order packets go to a reorder buffer, every packet is acknowledged with the cumulative sequence (D-OSCAR RetxMode None; loss-recovery.ts)',
    parallel: true,
    keepsLost: false,
    resends: false,
    create: (b) => new NoRetransmission(b.transport),
  },
  {
    name: 'selective',
    description: 'a reorder buffer, one NACK per missing packet, only those resent (OSCAR §6 NDP baseline; selective.ts)',
    keepsLost: true,
    resends: true,
    create: (b) => new SelectiveRepeat(b.transport),
  },
  {
    name: 'trim',
    description: 'losses learnt from trimmed headers, NACKed one by one, and from headers a switch returned (NDP §3; trim-recovery.ts)',
    parallel: true,
    keepsLost: true,
    resends: true,
    create: (b, driver) => new TrimRecovery(b.transport, b.flows, driver.pulls ?? null, b.windowGrew),
  },
];

for (const d of BUILT_IN_SEND_DRIVERS) registerSendDriver(d);
for (const d of BUILT_IN_LOSS_RECOVERIES) registerLossRecovery(d);
