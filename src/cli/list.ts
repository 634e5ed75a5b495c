/** `ccsim list`: topologies, workloads and CCs with their parameters (from the zod schemas). */
import { z } from 'zod';
import { ccDefinitions } from '../cc/registry.js';
import type { CcDefinition } from '../cc/types.js';
import { PROFILE_NAMES, profileDefaults } from '../net/config.js';
import { formatTime } from '../engine/units.js';
import { UsageError } from '../engine/errors.js';
import { TOPOLOGY_PRESETS, topologyRegistry, type TopologyDefinition } from '../net/topology/index.js';
import { listWorkloads } from '../workload/index.js';
import { workloadDefinitions } from '../workload/registry.js';
import { admissionPolicyRegistry, disciplineRegistry } from '../net/switch-registry.js';
import { lossRecoveryRegistry, sendDriverRegistry } from '../transport/strategies.js';
import { fmtInt, out, pad } from './format.js';
import { TERMINAL_COLUMNS, wrap } from './fit.js';

/** (for `ccsim list --plugins`: their CCs, workload types and disciplines are listed) */
export { loadPlugins } from '../experiment/run/plugins.js';

// ---------------------------------------------------------------------------------------------
// `list`: CC parameter descriptions from the zod schemas

interface ParamInfo {
  name: string;
  type: string;
  default: unknown;
  hasDefault: boolean;
  optional: boolean;
  description: string;
}

function typeName(s: z.ZodType): string {
  if (s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
    return typeName(s.unwrap() as z.ZodType);
  }
  if (s instanceof z.ZodEnum) return s.options.map((o) => JSON.stringify(o)).join(' | ');
  if (s instanceof z.ZodLiteral) return [...s.values].map((v) => JSON.stringify(v)).join(' | ');
  if (s instanceof z.ZodUnion) return (s.options as readonly z.ZodType[]).map(typeName).join(' | ');
  if (s instanceof z.ZodArray) return `${typeName(s.element as z.ZodType)}[]`;
  return s._zod.def.type;
}

function describeParams(schema: z.ZodType): ParamInfo[] {
  if (!(schema instanceof z.ZodObject)) return [];
  const out: ParamInfo[] = [];
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    let s: z.ZodType = field;
    let description = s.description;
    let hasDefault = false;
    let optional = false;
    let dflt: unknown;
    for (let i = 0; i < 8; i++) {
      if (s instanceof z.ZodDefault) {
        hasDefault = true;
        dflt = s._zod.def.defaultValue;
        s = s.unwrap() as z.ZodType;
      } else if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
        optional ||= s instanceof z.ZodOptional;
        s = s.unwrap() as z.ZodType;
      } else break;
      description ??= s.description;
    }
    out.push({ name, type: typeName(field), default: dflt, hasDefault, optional, description: description ?? '' });
  }
  return out;
}

/** What a topology field takes, from its schema: rate, time, size, int, number, a list of names ... */
function fieldKind(s: z.ZodType): string {
  let inner: z.ZodType = s;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodPipe) {
    if (inner.safeParse('100Gbps').success) return 'rate';
    if (inner.safeParse('1us').success) return 'time';
    if (inner.safeParse('1KB').success) return 'size';
  }
  if (inner instanceof z.ZodNumber) return inner.format === 'safeint' || inner.isInt === true ? 'int' : 'number';
  if (inner instanceof z.ZodEnum) return inner.options.map(String).join(' | ');
  if (inner instanceof z.ZodObject) return `{ ${Object.keys(inner.shape).join(', ')} }`;
  return typeName(inner);
}

/** A topology type's fields from its spec schema: `name (kind)`, optional ones with `?`, defaults with `=`. */
function topologyFields(def: TopologyDefinition): string[] {
  const schema = def.schema;
  if (!(schema instanceof z.ZodObject)) return [];
  const requiredUnlessPreset: readonly string[] = def.requiredUnlessPreset ?? [];
  const parts: string[] = [];
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    if (name === 'type') continue;
    const info = describeParams(z.object({ [name]: field }))[0]!;
    const optional = (info.optional || info.hasDefault) && !requiredUnlessPreset.includes(name);
    const dflt = info.hasDefault ? ` = ${JSON.stringify(info.default)}` : '';
    parts.push(`${name}${optional ? '?' : ''} (${fieldKind(field)}${dflt})`);
  }
  const text = `fields: ${parts.join(', ')}${requiredUnlessPreset.length > 0 ? '; the fields without ? are required unless a preset is given' : ''}`;
  return wrap(text, TERMINAL_COLUMNS - 17, '').map((l) => `${' '.repeat(17)}${l}`);
}

/** The registered topology types (net/topology/kinds.ts), plug-ins' included, then the presets. */
function listTopologies(): void {
  out('topology types (spec `topology.type`; fields: ? marks an optional one; rate as 100Gbps, time as 1us, size as 1KB):');
  for (const def of topologyRegistry.values()) {
    for (const l of wrap(`${pad(def.type, 12, true)} ${def.summary}`, TERMINAL_COLUMNS - 2, ' '.repeat(13))) out(`  ${l}`);
    for (const l of topologyFields(def)) out(l);
  }
  out('topology presets:');
  const w = Math.max(...TOPOLOGY_PRESETS.map((p) => p.name.length));
  for (const p of TOPOLOGY_PRESETS) out(`  ${pad(p.name, w, true)}  ${p.description}`);
}

function listWorkloadCdfs(): void {
  out('workload types (spec `workload[i].type`):');
  const defs = workloadDefinitions();
  const tw = Math.max(...defs.map((d) => d.type.length));
  for (const d of defs) out(`  ${pad(d.type, tw, true)}  ${d.summary}`);
  out('workloads (flow-size distributions, spec `cdf`):');
  const list = listWorkloads();
  const w = Math.max(...list.map((x) => x.name.length));
  for (const x of list) {
    out(`  ${pad(x.name, w, true)}  mean ${pad(fmtInt(x.meanBytes), 11)} B, max ${pad(fmtInt(x.maxBytes), 13)} B  ${x.description}`);
  }
}

function listCcs(): void {
  out('congestion control (spec `cc`):');
  for (const cc of ccDefinitions()) {
    out(`  ${cc.name}: ${cc.description}`);
    out(`    reference: ${cc.reference}`);
    // what choosing the CC turns on (cc/network-settings.ts), with default params under profile hpcc
    const defaults = cc.network === undefined ? undefined : cc.params.safeParse({});
    if (cc.network !== undefined && defaults?.success === true) {
      for (const n of cc.network(defaults.data, profileDefaults('hpcc'))) out(`    sets network.${n.path.join('.')}: ${JSON.stringify(n.value)}  (${n.why})`);
    }
    const params = describeParams(cc.params);
    if (params.length === 0) continue;
    out('    params:');
    for (const p of params) {
      const d = p.hasDefault ? ` = ${JSON.stringify(p.default)}` : '';
      const kind = p.optional && !p.hasDefault ? `${p.type}, optional` : p.type;
      out(`      ${p.name}${d}  (${kind})${p.description ? `  ${p.description}` : ''}`);
    }
    listResolved(cc, params);
  }
}

/** A resolved parameter value, with the unit its name carries. */
function showValue(name: string, v: unknown): string {
  if (typeof v !== 'number') return JSON.stringify(v);
  if (name.endsWith('Bps')) return v >= 1e9 ? `${+(v / 1e9).toPrecision(6)} Gbps` : `${+(v / 1e6).toPrecision(6)} Mbps`;
  if (name.endsWith('Ps')) return formatTime(v);
  if (name.endsWith('Bytes')) return `${fmtInt(v)} B`;
  return String(+v.toPrecision(6));
}

/**
 * For a CC whose optional parameters take their values from a preset or the
 * profile: the value each takes, per preset (or per profile), at 100 Gbps.
 */
function listResolved(cc: CcDefinition, params: readonly ParamInfo[]): void {
  if (cc.resolvedParams === undefined) return;
  const rows = params.filter((p) => p.optional && !p.hasDefault).map((p) => p.name);
  if (rows.length === 0) return;
  const preset = params.find((p) => p.name === 'preset' && p.type.includes('|'));
  const presetValues = preset === undefined ? [] : [...preset.type.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((v) => v !== 'auto');
  const columns =
    presetValues.length > 0
      ? presetValues.map((v) => ({ label: `preset ${v}`, raw: { preset: v }, net: profileDefaults('oscar') }))
      : PROFILE_NAMES.map((pr) => ({ label: `profile ${pr}`, raw: {}, net: profileDefaults(pr) }));
  const values = columns.map((c) => cc.resolvedParams!(cc.params.parse(c.raw), c.net, 100e9));
  out(`    values the optional params take (at 100 Gbps line rate; rates scale with it where the preset says so)${
    preset !== undefined ? `; preset auto: ${preset.description}` : ''
  }:`);
  const w0 = Math.max(...rows.map((r) => r.length)) + 2;
  const cells = rows.map((r) => values.map((v) => showValue(r, v[r])));
  const ws = columns.map((c, j) => Math.max(c.label.length, ...cells.map((row) => row[j]!.length)) + 2);
  out('      ' + pad('', w0, true) + columns.map((c, j) => pad(c.label, ws[j]!)).join(''));
  rows.forEach((r, i) => out('      ' + pad(r, w0, true) + cells[i]!.map((c, j) => pad(c, ws[j]!)).join('')));
}


/** The queue disciplines (net/switch-registry.ts) with their parameters. */
function listDisciplines(): void {
  out('queue disciplines (spec `network.switch.discipline`, parameters in `disciplineParams`):');
  const defs = disciplineRegistry.values();
  const w = Math.max(...defs.map((d) => d.name.length));
  for (const d of defs) {
    out(`  ${pad(d.name, w, true)}  ${d.description ?? ''}`);
    const shape = d.params instanceof z.ZodObject ? (d.params.shape as Record<string, z.ZodType>) : {};
    for (const [key, field] of Object.entries(shape)) out(`  ${pad('', w, true)}    ${key}: ${field.description ?? ''}`);
  }
}

/** The admission policies (net/switch-registry.ts) with their parameters and units. */
function listAdmissionPolicies(): void {
  out('admission policies (spec `network.switch.admission: [{ name, params }]`):');
  const defs = admissionPolicyRegistry.values();
  const w = Math.max(...defs.map((d) => d.name.length));
  for (const d of defs) {
    out(`  ${pad(d.name, w, true)}  ${d.description ?? ''}`);
    for (const p of d.params === undefined ? [] : describeParams(d.params)) out(`  ${pad('', w, true)}    ${p.name}: ${p.description}`);
  }
}

/** The transport's send drivers and loss recoveries (transport/strategies.ts), plug-ins' included. */
function listTransportStrategies(): void {
  const section = (title: string, defs: readonly { name: string; description: string; parallel?: boolean }[]): void => {
    out(title);
    const w = Math.max(...defs.map((d) => d.name.length));
    for (const d of defs) out(`  ${pad(d.name, w, true)}  ${d.description}${d.parallel === true ? '' : ' [one thread]'}`);
  };
  section('send drivers (spec `network.transport.sendDriver`):', sendDriverRegistry.values());
  out();
  section('loss recovery (spec `network.transport.retxMode`):', lossRecoveryRegistry.values());
}

export function listCommand(what: string | undefined): void {
  const all = what === undefined;
  const known = ['topologies', 'workloads', 'ccs', 'disciplines', 'transport'];
  if (!all && !known.includes(what)) throw new UsageError(`list: unknown "${what}" (use ${known.join(', ')})`);
  if (all || what === 'topologies') listTopologies();
  if (all) out();
  if (all || what === 'workloads') listWorkloadCdfs();
  if (all) out();
  if (all || what === 'ccs') listCcs();
  if (all) out();
  if (all || what === 'disciplines') {
    listDisciplines();
    out();
    listAdmissionPolicies();
  }
  if (all) out();
  if (all || what === 'transport') listTransportStrategies();
}
