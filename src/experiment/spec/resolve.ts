/**
 * From a spec file to a `SimInput`: load (YAML or JSON), validate (zod), and
 * resolve (build the topology, the network config and the flows; check every
 * host id, port and link against the built topology). Every problem becomes a
 * `SpecError` naming the spec field, before anything is simulated or written.
 */
import { perturbBoundPs, perturbStarts } from './perturb.js';
import { existsSync, statSync } from 'node:fs';
import { dirname, extname, resolve as resolvePath } from 'node:path';
import { Composer, LineCounter, Parser, YAMLParseError, type CST } from 'yaml';
import { z } from 'zod';
import { findCc } from '../../cc/registry.js';
import { unmetNeeds } from '../../cc/types.js';
import { applyCcNetwork, ccNetworkSettings, contradictedSettings } from '../../cc/network-settings.js';
import { MAX_NESTING_DEPTH, jsonTooDeepAt, readTextFileCapped } from '../../engine/io.js';
import { losslessBufferProblem } from '../../engine/plausibility.js';
import { admissionPolicyNames, findAdmissionPolicy } from '../../net/switch-registry.js';
import { deepMerge, profileDefaults, type NetworkConfig, type ProfileName } from '../../net/config.js';
import { DEFAULT_FAST_FORWARD, fastForwardRefusals } from '../../sim/fast-forward-refusals.js';
import type { SimInput } from '../../sim/types.js';
import { SpecError, UsageError, errorMessage, valueAtPath, zodToSpecError, type SpecIssue } from '../../engine/errors.js';
import { checkDiscipline } from './check-discipline.js';
import { Issues } from './issues.js';
import { splitExperiment } from './meta.js';
import { checkFlowIds, resolveMetrics } from './resolve-metrics.js';
import { resolveLinkEvents, resolveSchedule } from './resolve-topology-change.js';
import { buildTopology, TopoIndex } from './resolve-topology.js';
import { checkPeriodicCost } from './estimate-periodic.js';
import type { ClosedLoopWork } from './estimate-work.js';
import { checkCcTags, checkOfferedLoad, checkStartsBeforeStop, checkWorkloadSize, generateWorkload, prepareWorkload } from './resolve-workload.js';
import { SPEC_DEFAULTS, specErrorMap, specSchema, type Spec } from './spec.js';

export interface LoadedSpec {
  /** the parsed file before validation (YAML/JSON data) */
  raw: unknown;
  spec: Spec;
  /** absolute path of the spec file */
  path: string;
}

/** Validates raw spec data; throws SpecError listing every problem. */
export function parseSpec(raw: unknown, file?: string): Spec {
  const r = specSchema.safeParse(raw, { error: specErrorMap });
  if (!r.success) throw zodToSpecError(r.error, raw, file);
  return r.data;
}

/** Reads raw spec data from a YAML (.yaml/.yml) or JSON (.json) file. */
export function readSpecFile(path: string): unknown {
  const abs = resolvePath(path);
  if (!existsSync(abs)) throw new UsageError(`spec file not found: ${path}`);
  if (statSync(abs).isDirectory()) throw new UsageError(`spec path is a directory, not a file: ${path}`);
  let text: string;
  try {
    text = readTextFileCapped(abs, 'spec file');
  } catch (e) {
    throw new UsageError(errorMessage(e));
  }
  if (text.includes('\u0000') || text.startsWith('\uFFFD\uFFFD')) {
    throw new UsageError(`spec file ${path} is not UTF-8 text (it looks like UTF-16 or binary): save it as UTF-8`);
  }
  const ext = extname(abs).toLowerCase();
  const raw = ext === '.json' ? parseJsonText(text, path) : parseYamlText(text, path);
  const proto = protoKeyPath(raw, '');
  if (proto !== undefined) {
    throw new SpecError([{ path: proto, value: undefined, showValue: false, message: 'is not a spec field (a reserved JavaScript name, never accepted as a key)' }], path);
  }
  return raw;
}

/** The path of the first `__proto__` key in parsed spec data (an own key, or one that set an object's prototype). */
function protoKeyPath(v: unknown, at: string): string | undefined {
  if (v === null || typeof v !== 'object') return undefined;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = protoKeyPath(v[i], `${at}[${i}]`);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  const here = at === '' ? '__proto__' : `${at}.__proto__`;
  if (Object.prototype.hasOwnProperty.call(v, '__proto__') || Object.getPrototypeOf(v) !== Object.prototype) return here;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const p = protoKeyPath(x, at === '' ? k : `${at}.${k}`);
    if (p !== undefined) return p;
  }
  return undefined;
}

function parseJsonText(text: string, file: string): unknown {
  const deep = jsonTooDeepAt(text);
  if (deep !== undefined) {
    throw new SpecError([{ path: `line ${deep.line}, column ${deep.column}`, value: undefined, showValue: false, message: `nested deeper than the limit of ${MAX_NESTING_DEPTH} levels` }], file);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const msg = errorMessage(e);
    const m = /position (\d+)/.exec(msg);
    let where = 'JSON';
    if (m) {
      const pos = Number(m[1]);
      const before = text.slice(0, pos);
      const line = before.split('\n').length;
      const col = pos - before.lastIndexOf('\n');
      where = `line ${line}, column ${col}`;
    }
    throw new SpecError([{ path: where, value: undefined, message: `invalid JSON: ${msg}`, showValue: false }], file);
  }
}

/**
 * The most YAML values (mapping entries, sequence items, flow-collection
 * members, aliases) a spec may hold: parsing YAML costs about 20 µs and 2 KB
 * per value, so the budget keeps a spec under about 4 s and 0.5 GB. JSON parses
 * a hundred times faster: a long explicit flow list belongs in a .json spec.
 * Text inside a scalar (a long description) is not a value and costs little.
 */
export const YAML_VALUE_BUDGET = 200_000;

/**
 * An upper estimate of the values in YAML text, counted without parsing it:
 * the indicator characters outside quoted scalars and comments. It bounds the
 * work of the exact count (yamlShape) on hostile input.
 */
function countYamlIndicators(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      // a quoted scalar: skip to its closing quote ("" escapes with a backslash, '' by doubling)
      const prev = i > 0 ? text.charCodeAt(i - 1) : 32;
      if (prev !== 32 && prev !== 10 && prev !== 9 && prev !== 58 && prev !== 44 && prev !== 91 && prev !== 123 && prev !== 45) continue;
      const q = c;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (q === 34 && d === 92) i++;
        else if (d === q) break;
      }
      continue;
    }
    if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 10)) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol - 1;
      continue;
    }
    // : , - * & [ {
    if (c === 58 || c === 44 || c === 45 || c === 42 || c === 38 || c === 91 || c === 123) n++;
  }
  return n;
}

/** Where the CST of a YAML stream first nests deeper than `maxDepth` (a source offset), and its exact value count. */
function yamlShape(tokens: readonly CST.Token[], maxDepth: number): { values: number; tooDeepAt: number | undefined } {
  let values = 0;
  const stack: [CST.Token, number][] = tokens.map((t) => [t, 0]);
  const push = (t: CST.Token | undefined, depth: number): void => {
    if (t !== undefined) stack.push([t, depth]);
  };
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [t, depth] = top;
    if (depth > maxDepth) return { values, tooDeepAt: 'offset' in t ? t.offset : 0 };
    switch (t.type) {
      case 'document':
        push(t.value, depth);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        for (const it of t.items) {
          values++;
          push('key' in it ? (it.key ?? undefined) : undefined, depth + 1);
          push(it.value, depth + 1);
        }
        break;
      case 'alias':
        values++;
        break;
      default:
        break;
    }
  }
  return { values, tooDeepAt: undefined };
}

function budgetIssue(values: number, file: string): SpecError {
  return new SpecError(
    [
      {
        path: '',
        value: undefined,
        showValue: false,
        message:
          `the YAML has about ${values.toLocaleString('en-US')} values, above the budget of ${YAML_VALUE_BUDGET.toLocaleString('en-US')} ` +
          '(YAML this large takes minutes and gigabytes to parse): write a long flow list as a JSON spec (.json), which has no such budget',
      },
    ],
    file,
  );
}

function parseYamlText(text: string, file: string): unknown {
  // a cheap bound first (twice the budget: indicators overcount), then the exact count on the syntax tree
  const indicators = countYamlIndicators(text);
  if (indicators > 2 * YAML_VALUE_BUDGET) throw budgetIssue(indicators, file);
  const lines = new LineCounter();
  // the syntax tree is built without recursion; the composer and validation recurse per level, so depth is checked here
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const shape = yamlShape(tokens, MAX_NESTING_DEPTH);
  if (shape.tooDeepAt !== undefined) {
    const lp = lines.linePos(shape.tooDeepAt);
    throw new SpecError(
      [{ path: `line ${lp.line}, column ${lp.col}`, value: undefined, showValue: false, message: `nested deeper than the limit of ${MAX_NESTING_DEPTH} levels` }],
      file,
    );
  }
  if (shape.values > YAML_VALUE_BUDGET) throw budgetIssue(shape.values, file);
  const docs = [...new Composer({ uniqueKeys: true }).compose(tokens, true, text.length)];
  const doc = docs[0]!;
  const errors = [...doc.errors];
  if (docs.length > 1) errors.push(new YAMLParseError(docs[1]!.range.slice(0, 2) as [number, number], 'MULTIPLE_DOCS', 'Source contains multiple documents'));
  if (errors.length > 0) {
    const issues: SpecIssue[] = errors.map((err) => {
      const lp = lines.linePos(err.pos[0]);
      const where = `line ${lp.line}, column ${lp.col}`;
      const msg = err.message.split('\n')[0] ?? '';
      return { path: where, value: undefined, message: `invalid YAML: ${msg}`, showValue: false };
    });
    throw new SpecError(issues, file);
  }
  try {
    return doc.toJS({ maxAliasCount: 1000 }) as unknown;
  } catch (e) {
    // an alias bomb (aliases expanding to too many values) or an alias to a missing anchor
    throw new SpecError([{ path: 'YAML', value: undefined, showValue: false, message: `invalid YAML: ${errorMessage(e)}` }], file);
  }
}

export interface LoadOptions {
  /** merge the file's `quick:` block over it (reduced sizes) */
  quick?: boolean;
  /** the file's data when the caller has read it already (readSpecFile), so it is not parsed twice */
  raw?: unknown;
}

/**
 * Loads and validates a run spec file (no resolution: files it names are not
 * read yet). The experiment keys `figure` and `quick` are accepted (`quick`
 * applied with `opts.quick`); a file with a `sweep:` block is a sweep, run by
 * `ccsim sweep`, and is refused here with a message saying so.
 */
export function loadSpec(path: string, opts: LoadOptions = {}): LoadedSpec {
  const abs = resolvePath(path);
  const raw = 'raw' in opts ? opts.raw : readSpecFile(path);
  if (raw === null || raw === undefined) {
    throw new SpecError([{ path: '', value: raw, message: 'the spec file is empty' }], path);
  }
  const { base, meta } = splitExperiment(raw, path, opts.quick === true);
  if (meta.sweep !== undefined) {
    throw new UsageError(`${path} is a sweep (it has a \`sweep:\` block): run it with \`ccsim sweep ${path}\``);
  }
  return { raw: base, spec: parseSpec(base, path), path: abs };
}

// ---------------------------------------------------------------------------------------------
// resolution

export interface ResolveOverrides {
  seed?: number;
  /** turn on the per-flow FCT breakdown (`ccsim run --breakdown`), as `metrics: { breakdown: true }` does */
  breakdown?: boolean;
}

function resolveNetwork(spec: Spec, issues: Issues): NetworkConfig {
  const net = withCcNetwork(spec, deepMerge(profileDefaults(spec.profile as ProfileName), spec.network ?? {}), issues);
  if (net.transport.sendDriver === 'homa' && spec.cc.name !== 'homa') {
    issues.add(['network', 'transport', 'sendDriver'], `needs cc.name: homa (its parameters and priority levels), got cc.name: ${spec.cc.name}`, 'homa');
  }
  if (net.switch.pfcEnabled && net.switch.bufferBytes === 0) {
    issues.add(
      ['network', 'switch', 'bufferBytes'],
      'a lossless switch (pfcEnabled) needs buffer for its PFC headroom; give a buffer or set pfcEnabled: false',
      net.switch.bufferBytes,
    );
  }
  const ecn = net.switch.ecn;
  if (ecn.kminBytes > ecn.kmaxBytes) {
    issues.add(['network', 'switch', 'ecn', 'kmaxBytes'], `must be >= kminBytes (${ecn.kminBytes})`, ecn.kmaxBytes);
  }
  // switch edges by registry name (net/switch-registry.ts): an unknown name is a spec error, not a run-time one
  const sw = net.switch;
  checkDiscipline(sw, issues);
  (sw.admission ?? []).forEach((a, i) => {
    if (!admissionPolicyNames().includes(a.name)) {
      const known = admissionPolicyNames();
      issues.add(['network', 'switch', 'admission', i, 'name'], `unknown admission policy (known: ${known.length > 0 ? known.join(', ') : 'none registered'})`, a.name);
      return;
    }
    const params = a.params ?? {};
    const def = findAdmissionPolicy(a.name);
    const at = ['network', 'switch', 'admission', i, 'params'] as const;
    for (const p of def.check?.(params) ?? []) issues.add([...at, p.key], p.message, params[p.key]);
    // typed parameters (with units): checked by the policy's schema, each problem at its field
    const r = def.params?.safeParse(params);
    if (r !== undefined && !r.success) {
      for (const iss of r.error.issues) {
        if (iss.code === 'unrecognized_keys') {
          const known = def.params instanceof z.ZodObject ? Object.keys(def.params.shape as Record<string, unknown>).join(', ') : '';
          for (const key of iss.keys) issues.add([...at, key], `unknown parameter (known: ${known})`, params[key]);
        } else {
          const path = iss.path.filter((s): s is string | number => typeof s !== 'symbol');
          issues.add([...at, ...path], iss.message, valueAtPath(params, path));
        }
      }
    }
  });
  // BFC splits one data class into physical queues (net/bfc.ts): not D-HPCC's unaccounted control queue
  const bfcCls = sw.bfc === undefined ? -1 : (sw.bfc.cls ?? -1) >= 0 ? sw.bfc.cls! : net.transport.dataPriority;
  if (bfcCls === 0 && sw.queue0Control) issues.add(['network', 'switch', 'bfc', 'cls'], 'the control queue (queue0Control) cannot be split into BFC queues', 0);
  if (net.transport.sendDriver === 'ndpPull' && net.transport.retxMode !== 'trim') {
    issues.add(['network', 'transport', 'sendDriver'], `ndpPull needs network.transport.retxMode: trim (PULLs are asked for by the receiver's recovery), got retxMode ${net.transport.retxMode}`, 'ndpPull');
  }
  // a CC whose needs this profile cannot meet is a spec error, before anything runs
  const def = findCc(spec.cc.name);
  if (def !== undefined) {
    const parsed = def.params.safeParse(spec.cc.params ?? {});
    for (const m of unmetNeeds(def, net, parsed.success ? parsed.data : undefined)) issues.add(['cc'], m, spec.cc.name);
  }
  return net;
}

/**
 * The network settings the spec's CC turns on (cc/network-settings.ts: NDP's
 * trimming, spraying, no PFC) applied over `net`; a field the spec sets to
 * another value is an error naming it and `cc.name`.
 */
function withCcNetwork(spec: Spec, net: NetworkConfig, issues: Issues): NetworkConfig {
  const def = findCc(spec.cc.name);
  if (def?.network === undefined) return net;
  const parsed = def.params.safeParse(spec.cc.params ?? {});
  if (!parsed.success) return net; // reported where cc.params are checked
  const settings = ccNetworkSettings(def, parsed.data, net);
  for (const { setting, value } of contradictedSettings(spec.network, settings)) {
    issues.add(
      ['network', ...setting.path],
      `contradicts cc.name: ${def.name}, which needs network.${setting.path.join('.')}: ${JSON.stringify(setting.value)} (${setting.why})`,
      value,
    );
  }
  return applyCcNetwork(net, settings);
}

export interface ResolveContext {
  /** raw spec data, for error values (default: none) */
  raw?: unknown;
  /** spec file name, for error messages */
  file?: string;
}

/**
 * Builds the simulator input from a validated spec. `specDir` anchors relative
 * paths (CDF and topology files). Throws SpecError naming the spec field of
 * every problem found.
 */
export function resolveSpec(spec: Spec, specDir: string, overrides: ResolveOverrides = {}, ctx: ResolveContext = {}): SimInput {
  const issues = new Issues(ctx.raw ?? spec, ctx.file);
  const seed = overrides.seed ?? spec.seed;
  if (!Number.isSafeInteger(seed) || seed < 0) {
    issues.add(['seed'], 'must be an integer >= 0', seed);
    issues.fail();
  }
  const net = resolveNetwork(spec, issues);
  checkStartsBeforeStop(spec, issues);
  issues.throwIfAny();
  const built = buildTopology(spec.topology, specDir, spec.limits, issues);
  const ti = new TopoIndex(built.topology, built.newIds);
  checkLosslessBuffer(net, built.topology, issues);

  const entries = prepareWorkload(spec, ti, specDir, issues);
  const circuitSchedule = resolveSchedule(spec, ti, issues);
  const events = resolveLinkEvents(spec, ti, issues, circuitSchedule);
  const metrics = resolveMetrics(spec, ti, issues, net.transport.mtuBytes);
  if (overrides.breakdown === true) metrics.breakdown = true;
  checkOfferedLoad(entries, ti, issues);
  issues.throwIfAny();

  checkWorkloadSize(spec, entries, ti, net.transport.mtuBytes, issues);
  const generated = generateWorkload(entries, seed);
  const drivers = generated.drivers;
  const flows = perturbStarts(generated.flows, spec.perturb, perturbBoundPs(built.topology, net.transport.mtuBytes));
  if (flows.length === 0 && drivers.length === 0) {
    issues.addNoValue(['workload'], 'produced no flows (durations too short or loads too low?)');
  }
  // a closed-loop workload's flows get their ids as they start: only open-loop ids are known here
  if (drivers.length === 0) checkFlowIds(spec, flows.length, issues);
  checkCcTags(spec, entries, issues);
  issues.throwIfAny();

  const input: SimInput = {
    seed,
    topology: built.topology,
    net,
    cc: { name: spec.cc.name, params: spec.cc.params, ...(spec.cc.byTag !== undefined ? { byTag: spec.cc.byTag } : {}) },
    flows,
    ...(drivers.length > 0 ? { drivers } : {}),
    stopAtPs: spec.stop.at ?? null,
    // with a hard stop, the stop time is also the cap
    maxTimePs: spec.stop.at ?? spec.stop.maxTime ?? SPEC_DEFAULTS.maxTimePs,
    linkEvents: events,
    ...(circuitSchedule !== undefined ? { circuitSchedule } : {}),
    metrics,
    ...(spec.stop.deadlock === false
      ? { deadlock: null }
      : spec.stop.deadlock !== undefined
        ? { deadlock: { minPausedPs: spec.stop.deadlock.pausedFor, checkIntervalPs: spec.stop.deadlock.checkEvery } }
        : {}),
    ...fastForwardInput(spec),
  };
  const ccDef = findCc(input.cc.name);
  if (input.fastForward !== undefined && ccDef !== undefined) {
    for (const m of fastForwardRefusals(input, ccDef, net)) issues.addNoValue(['engine', 'fastForward'], `refused: ${m}`);
  }
  const closedLoopBytes = entries.reduce((sum, e) => sum + (e.driver !== undefined ? e.estimate.bytes : 0), 0);
  checkPeriodicCost(input, closedLoopBytes, spec.limits, issues);
  issues.throwIfAny();
  const loops = entries.filter((e) => e.driver !== undefined);
  if (loops.length > 0) {
    const receivers = loops.some((e) => e.estimate.receivers === 'all') ? 'all' : loops.flatMap((e) => e.estimate.receivers as readonly number[]);
    closedLoops.set(input, { flows: loops.reduce((a, e) => a + e.estimate.flows, 0), bytes: closedLoopBytes, receivers });
  }
  return input;
}

/** `engine.fastForward` as the simulation's options (absent or false: off). */
function fastForwardInput(spec: Spec): Pick<SimInput, 'fastForward'> {
  const ff = spec.engine?.fastForward;
  if (ff === undefined || ff === false) return {};
  const given = ff === true ? {} : Object.fromEntries(Object.entries(ff).filter(([, v]) => v !== undefined));
  return { fastForward: { ...DEFAULT_FAST_FORWARD, ...given } };
}

/** A lossless switch's buffer must hold a full packet per port of its largest switch (engine/plausibility.ts). */
function checkLosslessBuffer(net: NetworkConfig, topo: SimInput['topology'], issues: Issues): void {
  if (!net.switch.pfcEnabled || net.switch.bufferBytes === 0) return; // 0 is reported by resolveNetwork
  const degree = new Map<number, number>();
  for (const l of topo.links) for (const n of [l.a, l.b]) if (n >= topo.hostCount) degree.set(n, (degree.get(n) ?? 0) + 1);
  let ports = 0;
  for (const d of degree.values()) if (d > ports) ports = d;
  const problem = losslessBufferProblem(net.switch.bufferBytes, ports, net.transport.mtuBytes);
  if (problem !== undefined) issues.add(['network', 'switch', 'bufferBytes'], problem, net.switch.bufferBytes);
}

/** Per resolved input, what its closed-loop workloads will send (their plug-ins' estimates), for the cost estimate. */
const closedLoops = new WeakMap<SimInput, ClosedLoopWork>();

/** The closed-loop workloads' estimated flows and bytes of an input resolved here (undefined: none). */
export function closedLoopOf(input: SimInput): ClosedLoopWork | undefined {
  return closedLoops.get(input);
}

/** Data packets of the input's flows known up front (a closed-loop workload's later flows are not counted). */
export function dataPackets(input: SimInput): number {
  const mtu = input.net.transport.mtuBytes;
  let n = 0;
  for (const f of input.flows) n += Math.max(1, Math.ceil(f.bytes / mtu));
  return n;
}

/** Loads, validates and resolves a spec file in one step. */
export function loadAndResolve(path: string, overrides: ResolveOverrides = {}, opts: LoadOptions = {}): { loaded: LoadedSpec; input: SimInput } {
  const loaded = loadSpec(path, opts);
  const input = resolveSpec(loaded.spec, dirname(loaded.path), overrides, { raw: loaded.raw, file: path });
  return { loaded, input };
}
