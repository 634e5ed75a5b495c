/**
 * The spec's `network:` overrides (docs/network-model.md §7): one rule per
 * NetworkConfig field (integer or not, range, unit), so a spec can set only
 * what the simulator accepts.
 */
import { z } from 'zod';
import { 
  type AckOrder,
  type AckPriority,
  type BaseRttMode,
  type BfcConfig,
  type CnpMode,
  type DtMode,
  type EcnComparison,
  type EcnConfig,
  type MetricsDefaults,
  type TransportConfig,
  type TcdConfig,
  type HeadroomMode,
  type IdealFctMode,
  type NackRule,
  type NetworkConfig,
  type NicArbitration,
  type PacingUpdate,
  type PfcMode,
  type PortRule,
  type PtPoolLayout,
  type QueueService,
  type SwitchConfig,
  type WindowUnit,
} from '../../net/config.js';
import { TX_QUANTIZATIONS } from '../../engine/units.js';
import { BFC_MAX_QUEUES } from '../../net/bfc.js';
import type { Registry } from '../../engine/registry.js';
import { lossRecoveryRegistry, sendDriverRegistry } from '../../transport/strategies.js';
import { prio, psField, rateField, sizeField } from '../../engine/spec-fields.js';

// ---------------------------------------------------------------------------------------------
// network overrides: one rule per field

/**
 * Every value of a string union, checked at compile time both ways: a value
 * not in T, or a member of T missing from the list, is a type error here (so
 * a new option in net/config.ts cannot be silently rejected by specs).
 */
function allOf<T extends string>() {
  return <const A extends readonly T[]>(values: A & ([Exclude<T, A[number]>] extends [never] ? unknown : never)): readonly string[] =>
    values;
}

/** Allowed values of the string-valued NetworkConfig fields, by field name. */
const NETWORK_ENUMS = {
  pfcMode: allOf<PfcMode>()(['onOff', 'quanta']),
  dtMode: allOf<DtMode>()(['shiftByPortRate', 'fixedShift', 'static', 'alpha']),
  ptPools: allOf<PtPoolLayout>()(['ptWorkload', 'ptBurst']),
  headroomMode: allOf<HeadroomMode>()(['perPort', 'perQueue']),
  service: allOf<QueueService>()(['rr', 'strict']),
  comparison: allOf<EcnComparison>()(['afterRemoval', 'includingPacket']),
  loadBalancing: allOf<SwitchConfig['loadBalancing']>()(['ecmp', 'spray', 'ns3Hash']),
  ackOrder: allOf<AckOrder>()(['transportFirst', 'ccFirst']),
  cnpMode: allOf<CnpMode>()(['ackFlag', 'cnpPacket']),
  nicArbitration: allOf<NicArbitration>()(['rrPerPacket', 'fifoWhenQueueEmpty']),
  ackPriority: allOf<AckPriority>()(['strictAtHost', 'sameAsData']),
  windowUnit: allOf<WindowUnit>()(['bytes', 'packets']),
  pacingUpdate: allOf<PacingUpdate>()(['adjustOnRateChange', 'noReschedule']),
  txTimeQuantization: TX_QUANTIZATIONS,
  nackRule: allOf<NackRule>()(['timer', 'rearmOnInOrder']),
  portRule: allOf<PortRule>()(['hpcc', 'sequential']),
  baseRtt: allOf<BaseRttMode>()(['perFlowOscar', 'globalMaxHpcc']),
  idealFct: allOf<IdealFctMode>()(['hpcc', 'oscar']),
} as const satisfies Readonly<Record<string, readonly string[]>>;

const enumOf = (key: keyof typeof NETWORK_ENUMS) => z.enum(NETWORK_ENUMS[key] as [string, ...string[]]);

/**
 * A strategy named by its registry (transport/strategies.ts): any registered name, built-in or a
 * plug-in's, checked when the spec is parsed; the JSON schema lists the names registered when it
 * is written (json-schema.ts).
 */
function registeredName<T>(registry: Registry<T>) {
  return z.string().superRefine((v, ctx) => {
    if (!registry.has(v)) ctx.addIssue({ code: 'custom', message: `unknown ${registry.kind} "${v}" (${registry.knownText()})` });
  });
}
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const num = (min: number, max: number) => z.number().min(min).max(max);
/** header / frame sizes: whole bytes, bare numbers or "64B" */
const headerBytes = (min: number) => sizeField({ min, max: 4096, bare: true });

/**
 * Every field of the switch, transport and metrics configuration with its own
 * rule (type, integer or not, range). `satisfies` makes a field added to
 * net/config.ts without a rule here a compile error, so this stays the one
 * place that says what a spec may set.
 */
const ecnShape = {
  enabled: z.boolean(),
  kminBytes: sizeField({ min: 0, bare: true }),
  kmaxBytes: sizeField({ min: 0, bare: true }),
  pmax: num(0, 1),
  scaleWithRate: z.boolean(),
  refRateBps: rateField({ bare: true }),
  comparison: enumOf('comparison'),
  markNonEct: z.boolean(),
} satisfies Record<keyof EcnConfig, z.ZodType>;

const switchShape = {
  /** 0 is allowed only without PFC (checked with the merged profile in resolve.ts) */
  bufferBytes: sizeField({ min: 0, bare: true }),
  pfcEnabled: z.boolean(),
  pfcMode: enumOf('pfcMode'),
  dtMode: enumOf('dtMode'),
  /** alpha = 2^-dtShift */
  dtShift: int(0, 30),
  staticThresholdBytes: sizeField({ min: 0, bare: true }),
  reservePerQueueBytes: sizeField({ min: 0, bare: true }),
  headroomMode: enumOf('headroomMode'),
  headroomRttMultiplier: num(0, 100),
  headroomExtraBytes: sizeField({ min: 0, max: 1e9, bare: true }),
  resumeOffsetBytes: sizeField({ min: 0, bare: true }),
  bufferCompensationLosslessQueues: int(0, 8),
  queue0Control: z.boolean(),
  service: enumOf('service'),
  mmuHeaderOffset: int(0, 4096),
  queueHeaderOffset: int(0, 4096),
  intTxIncludesPacket: z.boolean(),
  ecn: z.object(partialShape(ecnShape)).strict(),
  loadBalancing: enumOf('loadBalancing'),
  ecmpSeed: int(0, 0x7fffffff),
  pauseQuantaPs: psField(),
  ptPools: enumOf('ptPools'),
  alphaIngress: z.number().gt(0).max(65535),
  alphaEgress: z.number().gt(0).max(65535),
  xonBytes: sizeField({ min: 0, bare: true }),
  xonOffsetBytes: sizeField({ min: 0, bare: true }),
  tcd: z
    .object(
      partialShape({
        enabled: z.boolean(),
        maxTonPs: psField({ positive: true }),
        queueThresholdBytes: sizeField({ min: 0, bare: true }),
      } satisfies Record<keyof TcdConfig, z.ZodType>),
    )
    .strict(),
  // switch edges (net/admission.ts, net/queue-discipline.ts): names from net/switch-registry.ts, checked when the network is built
  admission: z.array(z.object({ name: z.string().min(1), params: z.record(z.string(), z.unknown()).optional() }).strict()),
  discipline: z.string().min(1),
  disciplineParams: z.record(z.string(), z.unknown()),
  trimQueue: int(0, 7),
  // BFC (net/bfc.ts): a queue count the port cannot hold is an error naming the field and value
  bfc: z
    .object(
      partialShape({
        queues: z.number().int().min(1, 'a port holds at least 1 physical queue').max(BFC_MAX_QUEUES, `a port holds at most ${BFC_MAX_QUEUES} physical queues (BFC-32, BFC-128)`),
        pauseBytes: sizeField({ min: 0, bare: true }),
        resumeBytes: sizeField({ min: 0, bare: true }),
        flowTableSize: z.number().int().min(1).max(1 << 20).refine((v) => (v & (v - 1)) === 0, 'must be a power of two'),
        cls: int(-1, 7),
      } satisfies Record<keyof BfcConfig, z.ZodType>),
    )
    .strict(),
} satisfies Record<keyof SwitchConfig, z.ZodType>;

const transportShape = {
  mtuBytes: sizeField({ min: 1, max: 65536, bare: true }),
  dataHeaderBytes: headerBytes(0),
  ackBytes: headerBytes(1),
  ackMinBytes: headerBytes(0),
  nackCarriesEcho: z.boolean(),
  cnpBytes: headerBytes(1),
  pfcBytes: headerBytes(1),
  ackOrder: enumOf('ackOrder'),
  ackOnDuplicate: z.boolean(),
  nackRule: enumOf('nackRule'),
  nackIntervalPs: psField({ positive: true }),
  retxMode: registeredName(lossRecoveryRegistry),
  /** ACK every n-th in-order packet */
  ackEvery: int(1, 1_000_000),
  /** with ackEvery > 1: flush a partial ACK this long after its first packet; 0 = never */
  ackCoalesceTimeoutPs: psField(),
  /** 0 = no retransmission timeout */
  rtoPs: psField({ minNonZero: 1_000_000, why: 'a shorter timeout fires millions of times per simulated millisecond' }),
  cnpMode: enumOf('cnpMode'),
  cnpIntervalPs: psField(),
  cnpPriority: prio,
  nicArbitration: enumOf('nicArbitration'),
  ackPriority: enumOf('ackPriority'),
  ackClass: prio,
  dataPriority: prio,
  windowUnit: enumOf('windowUnit'),
  pacingUpdate: enumOf('pacingUpdate'),
  txTimeQuantization: enumOf('txTimeQuantization'),
  portRule: enumOf('portRule'),
  baseRtt: enumOf('baseRtt'),
  minRateRatio: z.number().gt(0).max(1),
  rateScaledWindow: z.boolean(),
  sendDriver: registeredName(sendDriverRegistry),
  /** receiverGrant: initial credit per flow; 0 = the flow's base BDP */
  grantWindowBytes: sizeField({ min: 0, bare: true }),
} satisfies Record<keyof TransportConfig, z.ZodType>;

const metricsDefaultsShape = {
  idealFct: enumOf('idealFct'),
  clampSlowdownAt1: z.boolean(),
  /** 0 = topologically correct ideal-FCT class; 1 = the OSCAR artifact notebooks' host-IP indexing */
  oscarIdealIndexOffset: int(0, 1),
} satisfies Record<keyof MetricsDefaults, z.ZodType>;

function partialShape<T extends Record<string, z.ZodType>>(shape: T): { [K in keyof T]: z.ZodOptional<T[K]> } {
  const out: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(shape)) out[k] = v.optional();
  return out as { [K in keyof T]: z.ZodOptional<T[K]> };
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Deep-partial overrides of a NetworkConfig (all but `profile`), in simulator units. */
export type NetworkOverrides = DeepPartial<Omit<NetworkConfig, 'profile'>>;

export const networkSchema = z
  .object({
    switch: z.object(partialShape(switchShape)).strict().optional(),
    transport: z.object(partialShape(transportShape)).strict().optional(),
    metrics: z.object(partialShape(metricsDefaultsShape)).strict().optional(),
  } satisfies Record<keyof Omit<NetworkConfig, 'profile'>, z.ZodType>)
  .strict() as unknown as z.ZodType<NetworkOverrides, unknown>;

