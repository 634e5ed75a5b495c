/**
 * The experiment spec (YAML or JSON) as a zod schema.
 *
 * Parsing a raw spec with `specSchema` validates it and converts every unit
 * string to the simulator's units: rates to bps, durations to ps, sizes to
 * bytes. Field names stay as written (`rate`, `delay`, `size`), so the parsed
 * `Spec` is the spec "as resolved" and is what the manifest records.
 *
 * Conventions for values written in a spec:
 * - rates: a number in bps, or a string such as "100Gbps", "25G";
 * - durations: a number in seconds, or a string such as "1us", "10ms";
 * - sizes: a number of bytes, or a string such as "1MB", "32MiB".
 * Inside `network` the fields carry their unit in their names (`...Bytes`,
 * `...Ps`, `...Bps`): a bare number is in that unit, a string is converted.
 *
 * Cross-field checks that need the built topology (host ids in range, ports
 * and links that exist) are done in resolve.ts.
 */
import { z } from 'zod';
import { ccNames, findCc } from '../cc/registry.js';
import { BIN_SETS, DEFAULT_BIN_SETS } from '../metrics/summary.js';
import {
  PROFILE_NAMES,
  type AckOrder,
  type AckPriority,
  type BaseRttMode,
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
  type RetxMode,
  type SendDriverMode,
  type NetworkConfig,
  type NicArbitration,
  type PacingUpdate,
  type PfcMode,
  type PortRule,
  type PtPoolLayout,
  type QueueService,
  type SwitchConfig,
  type WindowUnit,
} from '../net/config.js';
import {
  CORE_WIRINGS,
  FAT_TREE_PRESET_NAMES,
  SPINE_LEAF_PRESET_NAMES,
  TOPOLOGY_FILE_FORMATS,
  TOPOLOGY_PRESETS,
} from '../net/topology/index.js';
import { MIB, SEC, TX_QUANTIZATIONS, US, parseBytes, parseRate, parseTimePs } from '../engine/units.js';
import { specIssueMessage, zodIssuesToSpecIssues, type PathSegment } from './errors.js';

// ---------------------------------------------------------------------------------------------
// unit-bearing values

const NUM_OR_STRING_RATE = 'expected a rate: a number in bps or a string such as "100Gbps"';
const NUM_OR_STRING_TIME = 'expected a duration: a number in seconds or a string such as "10us"';
const NUM_OR_STRING_SIZE = 'expected a size: a number of bytes or a string such as "1MB"';

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The fastest rate a spec may give (100 Tbps): beyond it serialization times round to 0 ps. */
export const MAX_RATE_BPS = 1e14;

/** A rate in bps; > 0 unless `allowZero`, <= MAX_RATE_BPS. */
export function rateField(opts: { allowZero?: boolean } = {}) {
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_RATE }).transform((v, ctx): number => {
    let bps: number;
    try {
      bps = parseRate(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    if (!Number.isFinite(bps)) {
      ctx.addIssue({ code: 'custom', message: 'must be finite' });
      return z.NEVER;
    }
    if (opts.allowZero ? bps < 0 : bps <= 0) {
      ctx.addIssue({ code: 'custom', message: opts.allowZero ? 'must be >= 0' : 'must be > 0' });
      return z.NEVER;
    }
    if (bps > MAX_RATE_BPS) {
      ctx.addIssue({ code: 'custom', message: 'must be <= 100 Tbps (1e14 bps): not a physical link rate' });
      return z.NEVER;
    }
    return bps;
  });
}

/** A duration converted to integer ps; >= 0, or > 0 when `positive`. */
export function durationField(opts: { positive?: boolean } = {}) {
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_TIME }).transform((v, ctx): number => {
    let ps: number;
    try {
      ps = parseTimePs(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    if (!Number.isFinite(ps) || !Number.isSafeInteger(ps)) {
      ctx.addIssue({ code: 'custom', message: 'must be finite (and below about 9000 s)' });
      return z.NEVER;
    }
    if (opts.positive ? ps <= 0 : ps < 0) {
      ctx.addIssue({ code: 'custom', message: opts.positive ? 'must be > 0' : 'must be >= 0' });
      return z.NEVER;
    }
    return ps;
  });
}

/** A size converted to whole bytes, >= min (default 1) and <= max (default 1 TiB). */
export function sizeField(opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? 1;
  const max = opts.max ?? 2 ** 40;
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_SIZE }).transform((v, ctx): number => {
    let bytes: number;
    try {
      bytes = parseBytes(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    if (!Number.isSafeInteger(bytes)) {
      ctx.addIssue({ code: 'custom', message: 'must be a whole, finite number of bytes' });
      return z.NEVER;
    }
    if (bytes < min) {
      ctx.addIssue({ code: 'custom', message: `must be >= ${min}` });
      return z.NEVER;
    }
    if (bytes > max) {
      ctx.addIssue({ code: 'custom', message: `must be <= ${max} bytes` });
      return z.NEVER;
    }
    return bytes;
  });
}

/** Durations inside `network`: a number is ps already, a string is converted; >= 0, or > 0 when `positive`. */
function psField(opts: { positive?: boolean } = {}) {
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_TIME }).transform((v, ctx): number => {
    let ps: number;
    try {
      ps = typeof v === 'number' ? v : parseTimePs(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    if (!Number.isSafeInteger(ps) || ps < 0) {
      ctx.addIssue({ code: 'custom', message: 'must be a whole number of ps >= 0' });
      return z.NEVER;
    }
    if (opts.positive === true && ps === 0) {
      ctx.addIssue({ code: 'custom', message: 'must be > 0' });
      return z.NEVER;
    }
    return ps;
  });
}

const hostId = z.number().int().min(0);
const nodeId = z.number().int().min(0);
const posInt = z.number().int().min(1);
const prio = z.number().int().min(0).max(7);
const hostSelection = z.union([z.literal('all'), z.array(hostId).min(1)], { error: 'expected "all" or a list of host ids' });

// ---------------------------------------------------------------------------------------------
// topology

const nameOpt = z.string().min(1).optional();

const starTopo = z
  .object({ type: z.literal('star'), hosts: posInt, rate: rateField(), delay: durationField(), name: nameOpt })
  .strict();

const dumbbellTopo = z
  .object({
    type: z.literal('dumbbell'),
    left: posInt,
    right: posInt,
    hostRate: rateField(),
    /** default: hostRate */
    bottleneckRate: rateField().optional(),
    delay: durationField(),
    name: nameOpt,
  })
  .strict();

const parkingLotTopo = z
  .object({
    type: z.literal('parkingLot'),
    switches: posInt,
    hostsPerSwitch: posInt.default(1),
    rate: rateField(),
    delay: durationField(),
    name: nameOpt,
  })
  .strict();

const FAT_TREE_REQUIRED = ['pods', 'edgesPerPod', 'aggsPerPod', 'hostsPerEdge', 'cores', 'hostRate', 'fabricRate'] as const;

const fatTreeTopo = z
  .object({
    type: z.literal('fatTree'),
    /** start from a named fat tree; the other fields override it */
    preset: z.enum(FAT_TREE_PRESET_NAMES as [string, ...string[]]).optional(),
    pods: posInt.optional(),
    edgesPerPod: posInt.optional(),
    aggsPerPod: posInt.optional(),
    hostsPerEdge: posInt.optional(),
    cores: posInt.optional(),
    hostRate: rateField().optional(),
    fabricRate: rateField().optional(),
    aggCoreRate: rateField().optional(),
    /** sets hostDelay, edgeAggDelay and aggCoreDelay */
    delay: durationField().optional(),
    hostDelay: durationField().optional(),
    edgeAggDelay: durationField().optional(),
    aggCoreDelay: durationField().optional(),
    coreWiring: z.enum(CORE_WIRINGS as [string, ...string[]]).optional(),
    name: nameOpt,
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.preset !== undefined) return;
    for (const k of FAT_TREE_REQUIRED) {
      if (t[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'required unless a preset is given' });
    }
    const perTier = ['hostDelay', 'edgeAggDelay', 'aggCoreDelay'] as const;
    if (t.delay === undefined && perTier.some((k) => t[k] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['delay'],
        message: 'required unless a preset is given (or set all of hostDelay, edgeAggDelay, aggCoreDelay)',
      });
    }
  });

const SPINE_LEAF_REQUIRED = ['spines', 'leaves', 'hostsPerLeaf', 'hostRate', 'fabricRate', 'delay'] as const;

const spineLeafTopo = z
  .object({
    type: z.literal('spineLeaf'),
    preset: z.enum(SPINE_LEAF_PRESET_NAMES as [string, ...string[]]).optional(),
    spines: posInt.optional(),
    leaves: posInt.optional(),
    hostsPerLeaf: posInt.optional(),
    hostRate: rateField().optional(),
    fabricRate: rateField().optional(),
    delay: durationField().optional(),
    name: nameOpt,
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.preset !== undefined) return;
    for (const k of SPINE_LEAF_REQUIRED) {
      if (t[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'required unless a preset is given' });
    }
  });

const switchLabel = z.string().min(1);
const accCbdTopo = z
  .object({
    type: z.literal('accCbd'),
    hostsPerTor: posInt.default(8),
    /** host links */
    rate: rateField(),
    /** ToR–upper links; default `rate` */
    fabricRate: rateField().optional(),
    delay: durationField(),
    /** removed upper–ToR links as [L0|L1, T0..T3] pairs; default ACC Fig. 12's [[L0, T3], [L1, T0]] */
    failedLinks: z.array(z.tuple([switchLabel, switchLabel])).optional(),
    name: nameOpt,
  })
  .strict();

const accTreeTopo = z
  .object({ type: z.literal('accTree'), burstHosts: posInt, rate: rateField(), delay: durationField(), name: nameOpt })
  .strict();

const presetTopo = z
  .object({ type: z.literal('preset'), preset: z.enum(TOPOLOGY_PRESETS.map((p) => p.name) as [string, ...string[]]) })
  .strict();

const linkTypeConfig = z.object({ rate: rateField(), delay: durationField() }).strict();

const fileTopo = z
  .object({
    type: z.literal('file'),
    /** resolved relative to the spec file's directory */
    path: z.string().min(1),
    format: z.enum(TOPOLOGY_FILE_FORMATS as [string, ...string[]]).default('ccsim'),
    /** oscar format: rate and delay per link type (host, switch, switch-oversub, ...) */
    linkConfig: z.record(z.string(), linkTypeConfig).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.format === 'oscar' && t.linkConfig === undefined) {
      ctx.addIssue({ code: 'custom', path: ['linkConfig'], message: 'required for format oscar (rate and delay per link type)' });
    }
  });

export const topologySchema = z.discriminatedUnion('type', [
  starTopo,
  dumbbellTopo,
  parkingLotTopo,
  fatTreeTopo,
  spineLeafTopo,
  accCbdTopo,
  accTreeTopo,
  presetTopo,
  fileTopo,
]);

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
  loadBalancing: allOf<SwitchConfig['loadBalancing']>()(['ecmp', 'spray']),
  ackOrder: allOf<AckOrder>()(['transportFirst', 'ccFirst']),
  cnpMode: allOf<CnpMode>()(['ackFlag', 'cnpPacket']),
  nicArbitration: allOf<NicArbitration>()(['rrPerPacket', 'fifoWhenQueueEmpty']),
  ackPriority: allOf<AckPriority>()(['strictAtHost', 'sameAsData']),
  windowUnit: allOf<WindowUnit>()(['bytes', 'packets']),
  pacingUpdate: allOf<PacingUpdate>()(['adjustOnRateChange', 'noReschedule']),
  txTimeQuantization: TX_QUANTIZATIONS,
  nackRule: allOf<NackRule>()(['timer', 'rearmOnInOrder']),
  retxMode: allOf<RetxMode>()(['gbn', 'none', 'selective']),
  sendDriver: allOf<SendDriverMode>()(['sender', 'receiverGrant']),
  portRule: allOf<PortRule>()(['hpcc', 'sequential']),
  baseRtt: allOf<BaseRttMode>()(['perFlowOscar', 'globalMaxHpcc']),
  idealFct: allOf<IdealFctMode>()(['hpcc', 'oscar']),
} as const satisfies Readonly<Record<string, readonly string[]>>;

const enumOf = (key: keyof typeof NETWORK_ENUMS) => z.enum(NETWORK_ENUMS[key] as [string, ...string[]]);
const int = (min: number, max: number) => z.number().int().min(min).max(max);
const num = (min: number, max: number) => z.number().min(min).max(max);
/** header / frame sizes: whole bytes, bare numbers or "64B" */
const headerBytes = (min: number) => sizeField({ min, max: 4096 });

/**
 * Every field of the switch, transport and metrics configuration with its own
 * rule (type, integer or not, range). `satisfies` makes a field added to
 * net/config.ts without a rule here a compile error, so this stays the one
 * place that says what a spec may set.
 */
const ecnShape = {
  enabled: z.boolean(),
  kminBytes: sizeField({ min: 0 }),
  kmaxBytes: sizeField({ min: 0 }),
  pmax: num(0, 1),
  scaleWithRate: z.boolean(),
  refRateBps: rateField(),
  comparison: enumOf('comparison'),
  markNonEct: z.boolean(),
} satisfies Record<keyof EcnConfig, z.ZodType>;

const switchShape = {
  /** 0 is allowed only without PFC (checked with the merged profile in resolve.ts) */
  bufferBytes: sizeField({ min: 0 }),
  pfcEnabled: z.boolean(),
  pfcMode: enumOf('pfcMode'),
  dtMode: enumOf('dtMode'),
  /** alpha = 2^-dtShift */
  dtShift: int(0, 30),
  staticThresholdBytes: sizeField({ min: 0 }),
  reservePerQueueBytes: sizeField({ min: 0 }),
  headroomMode: enumOf('headroomMode'),
  headroomRttMultiplier: num(0, 100),
  resumeOffsetBytes: sizeField({ min: 0 }),
  bufferCompensationLosslessQueues: int(0, 8),
  queue0Control: z.boolean(),
  service: enumOf('service'),
  mmuHeaderOffset: int(0, 4096),
  queueHeaderOffset: int(0, 4096),
  intTxIncludesPacket: z.boolean(),
  ecn: z.object(partialShape(ecnShape)).strict(),
  loadBalancing: enumOf('loadBalancing'),
  pauseQuantaPs: psField(),
  ptPools: enumOf('ptPools'),
  alphaIngress: z.number().gt(0).max(65535),
  alphaEgress: z.number().gt(0).max(65535),
  xonBytes: sizeField({ min: 0 }),
  xonOffsetBytes: sizeField({ min: 0 }),
  tcd: z
    .object(
      partialShape({
        enabled: z.boolean(),
        maxTonPs: psField({ positive: true }),
        queueThresholdBytes: sizeField({ min: 0 }),
      } satisfies Record<keyof TcdConfig, z.ZodType>),
    )
    .strict(),
} satisfies Record<keyof SwitchConfig, z.ZodType>;

const transportShape = {
  mtuBytes: sizeField({ min: 1, max: 65536 }),
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
  retxMode: enumOf('retxMode'),
  /** ACK every n-th in-order packet */
  ackEvery: int(1, 1_000_000),
  /** with ackEvery > 1: flush a partial ACK this long after its first packet; 0 = never */
  ackCoalesceTimeoutPs: psField(),
  /** 0 = no retransmission timeout */
  rtoPs: psField(),
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
  sendDriver: enumOf('sendDriver'),
  /** receiverGrant: initial credit per flow; 0 = the flow's base BDP */
  grantWindowBytes: sizeField({ min: 0 }),
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

// ---------------------------------------------------------------------------------------------
// congestion control

export interface ResolvedCc {
  name: string;
  params: Record<string, unknown>;
  /**
   * Per-tag parameter overrides: flows whose workload tag is a key start their
   * CC with `{ ...params, ...byTag[tag] }` (e.g. one flow of a figure that
   * starts at a lower rate, CCC Fig 2). Headers and needs follow `params`.
   */
  byTag?: Record<string, Record<string, unknown>>;
}

function checkCcParams(schema: z.ZodType, params: Record<string, unknown>, at: PathSegment[], ctx: z.RefinementCtx): Record<string, unknown> | null {
  const r = schema.safeParse(params, { error: specErrorMap });
  if (r.success) return r.data as Record<string, unknown>;
  // re-issued as custom issues under `at`; values are looked up from the raw spec later
  for (const s of zodIssuesToSpecIssues(r.error.issues, params)) {
    ctx.addIssue({ code: 'custom', path: [...at, ...splitPath(s.path)], message: s.message });
  }
  return null;
}

const ccParamsRecord = z.record(z.string(), z.unknown());

export const ccSchema = z
  .union(
    [
      z.string(),
      z.object({ name: z.string(), params: ccParamsRecord.optional(), byTag: z.record(z.string(), ccParamsRecord).optional() }).strict(),
    ],
    { error: 'expected a congestion control name or { name, params, byTag }' },
  )
  .transform((v, ctx): ResolvedCc => {
    const name = typeof v === 'string' ? v : v.name;
    const namePath: PathSegment[] = typeof v === 'string' ? [] : ['name'];
    const def = findCc(name);
    if (def === undefined) {
      ctx.addIssue({ code: 'custom', path: namePath, message: `unknown congestion control (known: ${ccNames().join(', ')})` });
      return z.NEVER;
    }
    const params = typeof v === 'string' ? {} : (v.params ?? {});
    const schema = def.params instanceof z.ZodObject ? def.params.strict() : def.params;
    const base = checkCcParams(schema, params, ['params'], ctx);
    if (base === null) return z.NEVER;
    if (typeof v === 'string' || v.byTag === undefined) return { name, params: base };
    const byTag: Record<string, Record<string, unknown>> = {};
    let ok = true;
    for (const [tag, over] of Object.entries(v.byTag)) {
      // each override is checked merged with the base parameters (cross-field rules see both)
      const merged = checkCcParams(schema, { ...params, ...over }, ['byTag', tag], ctx);
      if (merged === null) ok = false;
      else byTag[tag] = merged;
    }
    return ok ? { name, params: base, byTag } : z.NEVER;
  });

/** Inverse of formatPath for the simple paths it produces. */
function splitPath(p: string): PathSegment[] {
  const out: PathSegment[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(p)) !== null) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

// ---------------------------------------------------------------------------------------------
// workload

const loadField = z.number().gt(0).max(1);

const poissonWorkload = z
  .object({
    type: z.literal('poisson'),
    /** built-in name or CDF file path (relative to the spec file) */
    cdf: z.string().min(1),
    load: loadField,
    start: durationField().default(0),
    duration: durationField({ positive: true }),
    /** sources */
    hosts: hostSelection.default('all'),
    destinations: hostSelection.default('all'),
    /** the link rate `load` is relative to; default each source's host link rate */
    refRate: rateField().optional(),
    /**
     * PowerTCP's generator (PowerTCP §4.1; docs/network-model.md §12.2): `paper` = every
     * server, destinations uniform over the others; `artifact` = the artifact's hosts of
     * the first two racks with its destination rule. Load is then relative to a server's
     * share of its ToR uplinks (6.25 Gb/s on powertcp256) unless `refRate` is given.
     */
    ptGenerator: z.enum(['paper', 'artifact']).optional(),
    prio: prio.optional(),
    tag: z.string().default('background'),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.ptGenerator === undefined) return;
    for (const k of ['hosts', 'destinations'] as const) {
      if (w[k] !== 'all') ctx.addIssue({ code: 'custom', path: [k], message: `must be "all" (or left out) with ptGenerator ${w.ptGenerator}, which chooses sources and destinations itself` });
    }
  });

/**
 * PowerTCP's query (incast) generator (PowerTCP §4.1; docs/network-model.md §12.3): every
 * requesting server issues Poisson requests at `requestRate`/s; each request asks `fan`
 * servers of another rack (drawn with replacement) for requestSize/fan bytes each.
 */
const queryWorkload = z
  .object({
    type: z.literal('query'),
    /** requests per second per requesting server */
    requestRate: z.number().gt(0),
    requestSize: sizeField(),
    fan: posInt.default(10),
    /** who requests: `paper` every server (from start, default 0.1 s); `artifact` the first two racks, from 0 */
    ptGenerator: z.enum(['paper', 'artifact']).default('paper'),
    /** default 100 ms (`paper`) or 0 (`artifact`, QUERY_START_TIME 0) */
    start: durationField().optional(),
    duration: durationField({ positive: true }),
    prio: prio.optional(),
    tag: z.string().default('query'),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.requestSize < w.fan) ctx.addIssue({ code: 'custom', path: ['requestSize'], message: `must be at least fan (${w.fan}) bytes` });
  });

const incastWorkload = z
  .object({
    type: z.literal('incast'),
    fanIn: posInt,
    /** bytes per sender per event */
    size: sizeField(),
    /** fixed receiver; default uniform over `hosts` per event */
    receiver: hostId.optional(),
    /** fixed senders (exactly fanIn); default fanIn distinct random hosts per event */
    senders: z.array(hostId).min(1).optional(),
    /** pool for random receivers and senders */
    hosts: hostSelection.default('all'),
    /** explicit event times */
    at: z.array(durationField()).min(1).optional(),
    /** incast load (aggregate incast bytes / total host capacity of `hosts`) → Poisson event rate */
    load: loadField.optional(),
    /** Poisson event rate, events per second */
    eventRate: z.number().gt(0).optional(),
    start: durationField().default(0),
    duration: durationField({ positive: true }).optional(),
    /** sender j starts at event + j·stagger */
    stagger: durationField().default(0),
    prio: prio.optional(),
    tag: z.string().default('incast'),
  })
  .strict()
  .superRefine((w, ctx) => {
    const given = (['at', 'load', 'eventRate'] as const).filter((k) => w[k] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give event times (`at`), an incast `load`, or an `eventRate`' });
    } else if (given.length > 1) {
      ctx.addIssue({ code: 'custom', path: [given[1]!], message: `conflicts with \`${given[0]}\`: give only one of at, load, eventRate` });
    }
    if ((w.load !== undefined || w.eventRate !== undefined) && w.duration === undefined) {
      ctx.addIssue({ code: 'custom', path: ['duration'], message: 'required with `load` or `eventRate`' });
    }
    if (w.senders !== undefined && w.senders.length !== w.fanIn) {
      ctx.addIssue({ code: 'custom', path: ['senders'], message: `must list exactly fanIn (${w.fanIn}) hosts` });
    }
  });

const explicitFlow = z
  .object({
    src: hostId,
    dst: hostId,
    size: sizeField(),
    start: durationField().default(0),
    prio: prio.optional(),
    tag: z.string().optional(),
  })
  .strict();

const flowsWorkload = z.object({ type: z.literal('flows'), flows: z.array(explicitFlow).min(1) }).strict();

export const workloadEntrySchema = z.discriminatedUnion('type', [poissonWorkload, incastWorkload, flowsWorkload, queryWorkload]);

// ---------------------------------------------------------------------------------------------
// stop, events, metrics, output

const stopSchema = z
  .object({
    /** hard stop; default: run until every flow finished */
    at: durationField({ positive: true }).optional(),
    /** safety cap when running until done (default 10 s); not with `at` */
    maxTime: durationField({ positive: true }).optional(),
    /**
     * PFC deadlock detection: end the run when a cycle of ports has been paused
     * for `pausedFor` (default 1 ms), checked every `checkEvery` (default 100 us);
     * false = off
     */
    deadlock: z
      .union([
        z.literal(false),
        z
          .object({ pausedFor: durationField({ positive: true }).default(1e9), checkEvery: durationField({ positive: true }).default(1e8) })
          .strict(),
      ])
      .optional(),
  })
  .strict()
  .superRefine((st, ctx) => {
    if (st.at !== undefined && st.maxTime !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxTime'],
        message: 'only applies when running until every flow finished; with stop.at the run ends at stop.at (give one of them)',
      });
    }
  });

const linkEvent = z
  .object({
    at: durationField(),
    link: z.tuple([nodeId, nodeId]),
    /** new rate; 0 = link down */
    rate: rateField({ allowZero: true }),
  })
  .strict();

/** An egress port: { node, port } or { link: [a, b] } = the port of a toward b. */
const portRef = z.union(
  [z.object({ node: nodeId, port: z.number().int().min(0) }).strict(), z.object({ link: z.tuple([nodeId, nodeId]) }).strict()],
  { error: 'expected { node, port } or { link: [a, b] }' },
);

const sizeBinSchema = z
  .object({
    label: z.string().min(1).optional(),
    /** exclusive lower bound, default 0 */
    min: sizeField({ min: 0 }).default(0),
    /** inclusive upper bound; 'inf' = unbounded */
    max: z.union([z.literal('inf'), sizeField({ min: 0 })], { error: 'expected "inf" or a size' }).default('inf'),
  })
  .strict();

const metricsSchema = z
  .object({
    queues: z.object({ ports: z.array(portRef).min(1), interval: durationField({ positive: true }).default(US) }).strict().optional(),
    throughput: z
      .object({ ports: z.array(portRef).min(1), interval: durationField({ positive: true }).default(10 * US) })
      .strict()
      .optional(),
    flowThroughput: z
      .object({
        flows: z
          .union([z.literal('all'), z.array(z.number().int().min(0)).min(1)], { error: 'expected "all" or a list of flow ids' })
          .default('all'),
        interval: durationField({ positive: true }).default(10 * US),
      })
      .strict()
      .optional(),
    /** sampled CC state (the CC's traceFields, e.g. CCC region, q, q_v, S, v_ai) -> cc_trace.csv */
    ccTrace: z
      .object({
        flows: z
          .union([z.literal('all'), z.array(z.number().int().min(0)).min(1)], { error: 'expected "all" or a list of flow ids' })
          .default('all'),
        interval: durationField({ positive: true }).default(US),
      })
      .strict()
      .optional(),
    /**
     * Switch buffer sampler (docs/network-model.md §13.3, PowerTCP Fig. 7g/h): total egress bytes
     * of each chosen switch every `interval` (default 1.5 x the minimum base RTT, 6.96 us on
     * powertcp256), reported as the max of each block of `block` samples -> switch_buffer.csv.
     * `firstTor` = the ToR of host 0 (the artifact's ToR 256), `allTors`, or switch node ids.
     */
    switchBuffer: z
      .object({
        switches: z
          .union([z.literal('firstTor'), z.literal('allTors'), z.array(nodeId).min(1)], { error: 'expected "firstTor", "allTors" or a list of switch node ids' })
          .default('firstTor'),
        interval: durationField({ positive: true }).optional(),
        block: posInt.default(100),
      })
      .strict()
      .optional(),
    /** percentile method of summary.json: numpy-style 'linear' or HPCC 'nearestRank' */
    percentile: z.enum(['linear', 'nearestRank']).default('linear'),
    /** named bin sets of the summary (each printed under its paper's name, with an "outside" row) */
    binSets: z.array(z.enum(Object.keys(BIN_SETS) as [string, ...string[]])).default([...DEFAULT_BIN_SETS]),
    /** the spec's own size bins, reported as one more set ("spec bins") */
    bins: z.array(sizeBinSchema).min(1).optional(),
  })
  .strict();

const outputSchema = z.object({ format: z.enum(['csv', 'jsonl']).default('csv') }).strict();

// ---------------------------------------------------------------------------------------------
// limits

/**
 * How big a run a spec may ask for before ccsim refuses it (estimated at
 * validation, before anything is built): a typo such as `hosts: 10000000` or a
 * CDF path of /dev/zero fails in milliseconds with the limit it exceeds,
 * instead of using gigabytes first. Raise a limit under `limits:` to allow it.
 */
export const DEFAULT_LIMITS = {
  /** hosts in the topology (the largest paper fabric has 320) */
  hosts: 20_000,
  /** links in the topology */
  links: 200_000,
  /** flows the workload generates */
  flows: 5_000_000,
  /** data packets the flows need (payload / MTU, bounded by what the host links can send before the run ends) */
  packets: 2_000_000_000,
  /** size of a file the spec reads (CDF, topology) */
  fileBytes: 16 * MIB,
} as const;

const limitsSchema = z
  .object({
    hosts: posInt.default(DEFAULT_LIMITS.hosts),
    links: posInt.default(DEFAULT_LIMITS.links),
    flows: posInt.default(DEFAULT_LIMITS.flows),
    packets: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(DEFAULT_LIMITS.packets),
    fileBytes: sizeField().default(DEFAULT_LIMITS.fileBytes),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// the spec

export const specSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'must be letters, digits, ".", "_" or "-" (it names the output directory)' }),
    description: z.string().optional(),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(1),
    profile: z.enum(PROFILE_NAMES as [string, ...string[]]).default('oscar'),
    topology: topologySchema,
    network: networkSchema.optional(),
    cc: ccSchema,
    workload: z.array(workloadEntrySchema).min(1),
    stop: stopSchema.default({}),
    events: z.array(linkEvent).default([]),
    metrics: metricsSchema.default({ percentile: 'linear', binSets: [...DEFAULT_BIN_SETS] }),
    output: outputSchema.default({ format: 'csv' }),
    limits: limitsSchema.default({ ...DEFAULT_LIMITS }),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// experiment keys around a run spec: sweep, figure, quick (see experiment/sweep.ts)

/** Top-level keys of an experiment file that are not part of one run's spec. */
export const EXPERIMENT_KEYS = ['sweep', 'figure', 'quick'] as const;

const sweepValues = z.array(z.unknown(), { error: 'expected a list of values' }).min(1, { message: 'must list at least one value' });
const zipGroup = z.record(z.string(), sweepValues, { error: 'expected a mapping from field path to a list of values' });

/**
 * `sweep:` a mapping from a field path (`cc`, `cc.params.eta`, `workload[0].load`,
 * `seed`, `network.switch.bufferBytes`, ...) to the values it takes; the points are
 * the cartesian product. `zip:` groups fields whose lists vary together (equal
 * lengths): a list of mappings, or a mapping from a group name to a mapping.
 */
export const sweepSchema = z
  .object({ zip: z.union([z.array(zipGroup).min(1), z.record(z.string(), zipGroup)], { error: 'expected a list of mappings or a mapping of named mappings' }).optional() })
  .catchall(sweepValues);

export const experimentMetaSchema = z.object({
  sweep: sweepSchema.optional(),
  /** id of a figure analysis (report/figures) run on the points */
  figure: z.string().min(1).optional(),
  /** partial spec merged over the file with --quick (reduced sizes) */
  quick: z.record(z.string(), z.unknown(), { error: 'expected a mapping (a partial spec)' }).optional(),
});
export type SweepBlock = z.output<typeof sweepSchema>;
export type ExperimentMeta = z.output<typeof experimentMetaSchema>;

/** A validated spec with units converted (rates bps, durations ps, sizes bytes). */
export type Spec = z.output<typeof specSchema>;
/** What a spec file may contain. */
export type SpecInput = z.input<typeof specSchema>;
export type TopologySpec = Spec['topology'];
export type WorkloadSpec = Spec['workload'][number];
export type PortRefSpec = z.output<typeof portRef>;
export type MetricsSpec = Spec['metrics'];
export type SpecLimits = Spec['limits'];

/** Per-parse error map giving the spec wording (`must be <= 1`, `unknown key`, ...). */
export function specErrorMap(iss: Parameters<typeof specIssueMessage>[0]): string | undefined {
  return specIssueMessage(iss);
}

/** Defaults applied by the schema (ps where a duration). */
export const SPEC_DEFAULTS = {
  seed: 1,
  profile: 'oscar',
  maxTimePs: 10 * SEC,
  queueIntervalPs: US,
  throughputIntervalPs: 10 * US,
  flowThroughputIntervalPs: 10 * US,
  ccTraceIntervalPs: US,
} as const;
