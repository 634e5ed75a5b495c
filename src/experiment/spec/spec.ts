/**
 * The experiment spec (YAML or JSON) as a zod schema.
 *
 * Parsing a raw spec with `specSchema` validates it and converts every unit
 * string to the simulator's units: rates to bps, durations to ps, sizes to
 * bytes. Field names stay as written (`rate`, `delay`, `size`), so the parsed
 * `Spec` is the spec "as resolved" and is what the manifest records.
 *
 * Conventions for values written in a spec:
 * - rates: a string such as "100Gbps", "25G";
 * - durations: a string such as "1us", "10ms";
 * - sizes: a string such as "1500B", "1MB", "32MiB";
 * a bare number is an error (0 excepted) that suggests units (engine/spec-fields.ts).
 * Inside `network` the fields carry their unit in their names (`...Bytes`,
 * `...Ps`, `...Bps`): a bare number is in that unit, a string is converted.
 *
 * Cross-field checks that need the built topology (host ids in range, ports
 * and links that exist) are done in resolve.ts.
 */
import { z } from 'zod';
import { ccNames, findCc } from '../../cc/registry.js';
import { BIN_SETS, DEFAULT_BIN_SETS } from '../../metrics/summary.js';
import { PROFILE_NAMES } from '../../net/config.js';
import { MIB, SEC, US } from '../../engine/units.js';
import { durationField, nodeId, posInt, sizeField } from '../../engine/spec-fields.js';
import { workloadDefinitions, workloadRegistryVersion } from '../../workload/registry.js';
import { specIssueMessage, zodIssuesToSpecIssues, type PathSegment } from '../../engine/errors.js';
import { networkSchema, type NetworkOverrides } from './spec-network.js';
import { linkEvent, schedule } from './spec-topology-change.js';
import { topologySchema } from './spec-topology.js';

export { networkSchema, topologySchema, type NetworkOverrides };

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

/**
 * The range a CC parameter's declaration allows, as `(0, 1]` or `>= 0`, read
 * from its zod checks (the CC file declares it once: src/cc/<name>.ts).
 */
export function paramRange(schema: z.ZodType | undefined): string | undefined {
  let s: z.core.$ZodType | undefined = schema;
  while (s !== undefined && 'innerType' in s._zod.def) s = (s._zod.def as { innerType: z.core.$ZodType }).innerType;
  const checks = (s?._zod.def as { checks?: { _zod: { def: { check: string; value?: unknown; inclusive?: boolean } } }[] } | undefined)?.checks ?? [];
  let lo = '';
  let hi = '';
  for (const c of checks) {
    const d = c._zod.def;
    if (d.check === 'greater_than') lo = `${d.inclusive === true ? '[' : '('}${String(d.value)}`;
    if (d.check === 'less_than') hi = `${String(d.value)}${d.inclusive === true ? ']' : ')'}`;
  }
  if (lo !== '' && hi !== '') return `${lo}, ${hi}`;
  if (lo !== '') return `${lo.startsWith('[') ? '>=' : '>'} ${lo.slice(1)}`;
  if (hi !== '') return `${hi.endsWith(']') ? '<=' : '<'} ${hi.slice(0, -1)}`;
  return undefined;
}

function checkCcParams(schema: z.ZodType, params: Record<string, unknown>, at: PathSegment[], ctx: z.RefinementCtx): Record<string, unknown> | null {
  const r = schema.safeParse(params, { error: specErrorMap });
  if (r.success) return r.data as Record<string, unknown>;
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  // a number outside its declared range names the whole range and what the parameter is (`eta: 95` for 0.95)
  const issues = r.error.issues.map((iss) => {
    if ((iss.code !== 'too_big' && iss.code !== 'too_small') || iss.origin !== 'number' || iss.path.length !== 1) return iss;
    const field = shape[String(iss.path[0])];
    const range = paramRange(field);
    if (range === undefined || !range.includes(',')) return iss;
    const what = field?.description;
    return { ...iss, message: `must be in ${range}${what !== undefined ? `: ${what}` : ''}` };
  });
  // re-issued as custom issues under `at`; values are looked up from the raw spec later
  for (const s of zodIssuesToSpecIssues(issues, params)) {
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

/** One entry of `workload:` as parsed: its type's fields (units converted), by its `type`. */
export type WorkloadSpec = { type: string } & Record<string, unknown>;

let entryCache: { version: number; schema: z.ZodType<WorkloadSpec> } | undefined;

/**
 * The schema of one `workload:` entry: the registered workload types'
 * schemas (src/workload/registry.ts), chosen by `type`. Built when first
 * used, and again after a type is registered.
 */
export function workloadEntrySchema(): z.ZodType<WorkloadSpec> {
  const version = workloadRegistryVersion();
  if (entryCache === undefined || entryCache.version !== version) {
    const options = workloadDefinitions().map((d) => d.schema) as unknown as [z.ZodObject, ...z.ZodObject[]];
    entryCache = { version, schema: z.discriminatedUnion('type', options) as unknown as z.ZodType<WorkloadSpec> };
  }
  return entryCache.schema;
}

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
          .object({ pausedFor: durationField({ positive: true }).default(1e9), checkEvery: durationField({ positive: true, min: US, why: 'a shorter check costs more wall time than the run it watches' }).default(1e8) })
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
    /**
     * the exact FCT breakdown (docs/guide.md, "Why a flow was slow"): every finished flow's FCT
     * cut into tx, cc, pfc, nic, loss, tail_queue and tail_base (ps, summing to the FCT), its worst
     * port, per-port totals (breakdown_ports), and summary.json's breakdown per size bin and tag
     */
    breakdown: z.boolean().optional().describe('exact per-flow FCT breakdown: fct columns, breakdown_ports, summary.json breakdown (docs/guide.md, "Why a flow was slow")'),
    /**
     * sampled egress queue bytes: chosen ports, or `auto` (= `{ ports: auto }`): every switch
     * egress port is watched and the `top` ports by peak queue are written (src/metrics/samplers.ts)
     */
    queues: z
      .union([
        z.literal('auto'),
        z
          .object({
            ports: z.union([z.literal('auto'), z.array(portRef).min(1)], { error: 'expected "auto" or a list of ports' }),
            top: z.number().int().min(1).max(64).default(4).describe('with ports: auto, how many ports (highest peak queue first) are written'),
            interval: durationField({ positive: true, min: 1000, why: 'sampling faster than every ns writes millions of rows per simulated us' }).default(US),
          })
          .strict(),
      ])
      .optional(),
    throughput: z
      .object({ ports: z.array(portRef).min(1), interval: durationField({ positive: true, min: 1000, why: 'sampling faster than every ns writes millions of rows per simulated us' }).default(10 * US) })
      .strict()
      .optional(),
    flowThroughput: z
      .object({
        flows: z
          .union([z.literal('all'), z.array(z.number().int().min(0)).min(1)], { error: 'expected "all" or a list of flow ids' })
          .default('all'),
        interval: durationField({ positive: true, min: 1000, why: 'sampling faster than every ns writes millions of rows per simulated us' }).default(10 * US),
      })
      .strict()
      .optional(),
    /** sampled CC state (the CC's traceFields, e.g. CCC region, q, q_v, S, v_ai) -> cc_trace.csv */
    ccTrace: z
      .object({
        flows: z
          .union([z.literal('all'), z.array(z.number().int().min(0)).min(1)], { error: 'expected "all" or a list of flow ids' })
          .default('all'),
        interval: durationField({ positive: true, min: 1000, why: 'sampling faster than every ns writes millions of rows per simulated us' }).default(US),
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
        interval: durationField({ positive: true, min: 1000, why: 'sampling faster than every ns writes millions of rows per simulated us' }).optional(),
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

const fastForwardSchema = z
  .object({
    tolerance: z.number().gt(0).lt(1).optional(),
    driftTolerance: z.number().gt(0).lt(1).optional(),
    intervalRtts: z.number().gt(0).max(1000).optional(),
    intervals: z.number().int().min(2).max(1000).optional(),
    marginRtts: z.number().min(1).max(1e6).optional(),
    minSkipRtts: z.number().min(1).max(1e9).optional(),
    queueSlackBytes: z.number().min(0).max(1e12).optional(),
    replay: z.boolean().optional().describe('replay a closed-loop job\'s recurring iterations from their record (sim/replay.ts)'),
  })
  .strict();
const engineSchema = z
  .object({ fastForward: z.union([z.boolean(), fastForwardSchema], { error: 'expected true, false or a mapping of fast-forward options' }).optional() })
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
  /** events of timers and samplers: deadlock checks, retransmission timers, metrics samples (experiment/spec/estimate-periodic.ts) */
  timers: 1_000_000_000,
  /** rows the metrics samplers write (queue, throughput, goodput, CC trace, switch buffer) */
  samples: 50_000_000,
} as const;

const limitsSchema = z
  .object({
    hosts: posInt.default(DEFAULT_LIMITS.hosts),
    links: posInt.default(DEFAULT_LIMITS.links),
    flows: posInt.default(DEFAULT_LIMITS.flows),
    packets: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(DEFAULT_LIMITS.packets),
    fileBytes: sizeField({ bare: true }).default(DEFAULT_LIMITS.fileBytes),
    timers: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(DEFAULT_LIMITS.timers),
    samples: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(DEFAULT_LIMITS.samples),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// the spec

/** The most worker threads a run may ask for (`threads`, `--threads`). */
export const MAX_THREADS = 1024;

export const specSchema = z
  .object({
    name: z
      .string()
      .min(1)
      // a folder name (with a -seed<n> / -quick suffix) must fit the 255-byte limit of file names
      .max(200, { message: 'must be at most 200 characters (it names the output directory)' })
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { message: 'must be letters, digits, ".", "_" or "-" (it names the output directory)' }),
    description: z.string().optional(),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(1),
    /**
     * tie-order perturbation (issue 40; docs/guide.md, "Replicas"): 0 (the default) runs the
     * flows as resolved; k > 0 delays every open-loop flow's start by a whole number of
     * picoseconds drawn uniformly below one MTU's serialization time on the fabric's fastest
     * link, from a random stream of k (not of `seed`), so only the order of (near-)simultaneous
     * events changes and a result that hinges on tie order shows as a spread over replicas
     */
    perturb: z.number().int().min(0).max(0x7fffffff).default(0),
    profile: z.enum(PROFILE_NAMES as [string, ...string[]]).default('oscar'),
    topology: topologySchema,
    network: networkSchema.optional(),
    cc: ccSchema,
    workload: z.array(z.lazy(workloadEntrySchema)).min(1),
    stop: stopSchema.default({}),
    events: z.array(linkEvent).default([]),
    schedule: schedule.optional(),
    metrics: metricsSchema.default({ percentile: 'linear', binSets: [...DEFAULT_BIN_SETS] }),
    output: outputSchema.default({ format: 'csv' }),
    /**
     * engine options: `fastForward` (issue 46; docs/performance.md, "Fast-forward"), off by
     * default: true for the defaults, or any of its knobs (sim/types.ts FastForwardOptions)
     */
    engine: engineSchema.optional(),
    limits: limitsSchema.default({ ...DEFAULT_LIMITS }),
    /**
     * worker threads for this one run (issue 31; sim/parallel/threads.ts): the topology is split
     * into that many partitions at most. Results do not depend on it.
     */
    threads: z.number().int().min(1).max(MAX_THREADS).default(1),
    /**
     * plug-in modules to load before the rest of the spec is checked (experiment/run/plugins.ts;
     * docs/extending.md, "Plug-ins in your own files"): ES module files, relative to the spec's
     * folder, each registering CCs, workload types, queue disciplines, ... that the spec then names
     */
    plugins: z
      .array(z.string().min(1, 'expected the path of a plug-in module (.mjs or .js)'))
      .optional()
      .describe('ES modules (paths relative to this file) that register CCs, workload types or queue disciplines the spec names'),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// experiment keys around a run spec: sweep, figure, quick (see experiment/run/sweep.ts)

/** Top-level keys of an experiment file that are not part of one run's spec. */
export const EXPERIMENT_KEYS = ['sweep', 'figure', 'quick', 'seeds', 'perturbations'] as const;

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
  /** id of a figure analysis (experiments/<paper>/analysis*.ts, registered in src/experiment/results/analysis.ts) run on the points */
  figure: z.string().min(1).optional(),
  /** partial spec merged over the file with --quick (reduced sizes) */
  quick: z.record(z.string(), z.unknown(), { error: 'expected a mapping (a partial spec)' }).optional(),
  /**
   * seeds each point runs with (`sweep`, `reproduce`): claims of the figure analysis are then
   * computed per seed and reported as mean ± 95 % CI. The spec's own `seed` keeps its point
   * folders (no `seed=` in their names), so adding seeds reuses finished single-seed results.
   */
  seeds: z
    .array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
    .min(1)
    .refine((xs) => new Set(xs).size === xs.length, { message: 'lists a seed twice' })
    .optional(),
  /**
   * tie-order replicas of a deterministic experiment (issue 40): each point runs once per listed
   * `perturb` value (the run spec's field) (0 = unperturbed, the spec's own folders); claims are then the mean ± 95 %
   * CI over the replicas, like `seeds:` (both together: every seed with every perturbation)
   */
  perturbations: z
    .array(z.number().int().min(0).max(0x7fffffff))
    .min(1)
    .refine((xs) => new Set(xs).size === xs.length, { message: 'lists a value twice' })
    .optional(),
});
export type SweepBlock = z.output<typeof sweepSchema>;
export type ExperimentMeta = z.output<typeof experimentMetaSchema>;

/** A validated spec with units converted (rates bps, durations ps, sizes bytes). */
export type Spec = z.output<typeof specSchema>;
/** What a spec file may contain. */
export type SpecInput = z.input<typeof specSchema>;
export type TopologySpec = Spec['topology'];
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
