/**
 * The spec's `workload:` entries resolved through their plug-ins
 * (src/workload/plugin.ts): each entry's definition checks it against the
 * built topology and prepares it; then, for all entries together, the
 * offered load per host (<= 1), the input limits (flows and data packets,
 * estimated before anything is generated), the `cc.byTag` keys, and the
 * flows. Open-loop entries' flows are merged in start order (ties keep entry
 * order, then generator order); flow ids are positions in that order.
 * Closed-loop entries become drivers, started by the simulation.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { Rng } from '../../engine/rng.js';
import { formatTime } from '../../engine/units.js';
import type { WorkloadDriver } from '../../workload/driver.js';
import { loadCdf, workloadNames, type Cdf } from '../../workload/cdf.js';
import type { FieldPath, PreparedWorkload, WorkloadContext } from '../../workload/plugin.js';
import { findWorkload } from '../../workload/registry.js';
import type { FlowSpec } from '../../workload/types.js';
import type { PathSegment } from '../../engine/errors.js';
import type { Issues } from './issues.js';
import { fmtCount, mapHost, mapHostSelection, type TopoIndex } from './resolve-topology.js';
import { SPEC_DEFAULTS, type Spec } from './spec.js';

/** The definition of an entry's type (the schema admitted only registered types). */
function definitionOf(type: string) {
  const def = findWorkload(type);
  if (def === undefined) throw new Error(`internal: workload type "${type}" passed the schema but is not registered`);
  return def;
}

/**
 * Flows that start at or after the end of the run would never run: an error,
 * not a silent result. The run ends at `stop.at`, or at the latest at
 * `stop.maxTime` (its default when not given).
 */
export function checkStartsBeforeStop(spec: Spec, issues: Issues): void {
  const end = spec.stop.at ?? spec.stop.maxTime ?? SPEC_DEFAULTS.maxTimePs;
  const field = spec.stop.at !== undefined ? 'stop.at' : spec.stop.maxTime !== undefined ? 'stop.maxTime' : 'the default stop.maxTime';
  spec.workload.forEach((w, i) => {
    for (const [path, t, what] of definitionOf(w.type).startTimes(w)) {
      if (t < end) continue;
      const who = what === undefined ? 'starts' : `${what} starts at ${formatTime(t)},`;
      issues.add(['workload', i, ...path], `${who} at or after ${field} (${formatTime(end)}): it would never run`);
    }
  });
}

/** The plug-ins' view of the spec and the built topology, for entry `i`. */
class EntryContext implements WorkloadContext {
  readonly topology;
  readonly hostCount;
  readonly hostRate;
  readonly stopAtPs;
  private readonly at: PathSegment[];

  constructor(
    private readonly ti: TopoIndex,
    private readonly issues: Issues,
    private readonly specDir: string,
    private readonly fileBytes: number,
    spec: Spec,
    i: number,
  ) {
    this.topology = ti.topo;
    this.hostCount = ti.hostCount;
    this.hostRate = ti.hostRate;
    this.stopAtPs = spec.stop.at;
    this.at = ['workload', i];
  }

  racks() {
    return this.ti.racks();
  }

  allHosts(): number[] {
    return this.ti.allHosts();
  }

  host(id: number, path: FieldPath): number {
    return mapHost(id, [...this.at, ...path], this.ti, this.issues);
  }

  hostSelection(sel: 'all' | readonly number[], path: FieldPath): number[] {
    return mapHostSelection(sel, [...this.at, ...path], this.ti, this.issues);
  }

  error(path: FieldPath, message: string, value?: unknown): void {
    this.issues.add([...this.at, ...path], message, value);
  }

  guard<T>(path: FieldPath, fn: () => T): T {
    return this.issues.guard([...this.at, ...path], fn);
  }

  cdf(name: string, path: FieldPath): Cdf {
    const specDir = this.specDir;
    const builtin = workloadNames().includes(name);
    const local = builtin ? undefined : resolvePath(specDir, name);
    const target = local !== undefined && existsSync(local) ? local : name;
    return this.issues.guard([...this.at, ...path], () => loadCdf(target, this.fileBytes), (msg) =>
      msg.startsWith('workload file not found')
        ? `workload file not found (relative paths are looked up in ${specDir}; built-in names: ${workloadNames().join(', ')})`
        : msg,
    );
  }

  readText(file: string, path: FieldPath): string | undefined {
    const target = resolvePath(this.specDir, file);
    let size: number;
    try {
      const st = statSync(target);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      this.issues.add([...this.at, ...path], `file not found (relative paths are looked up in ${this.specDir})`, file);
      return undefined;
    }
    if (size > this.fileBytes) {
      this.issues.add([...this.at, ...path], `file of ${size} bytes is above limits.fileBytes (${this.fileBytes})`, file);
      return undefined;
    }
    return readFileSync(target, 'utf8');
  }
}

/** Every entry checked against the topology and prepared, in spec order. */
export function prepareWorkload(spec: Spec, ti: TopoIndex, specDir: string, issues: Issues): PreparedWorkload[] {
  return spec.workload.map((w, i) => definitionOf(w.type).prepare(w, new EntryContext(ti, issues, specDir, spec.limits.fileBytes, spec, i)));
}

/** Offered load per source host (the entries' per-host loads plus loads over all hosts) must not exceed 1. */
export function checkOfferedLoad(entries: readonly PreparedWorkload[], ti: TopoIndex, issues: Issues): void {
  const perHost = new Float64Array(ti.hostCount);
  let everywhere = 0;
  for (const e of entries) if (e.addOfferedLoad !== undefined) everywhere += e.addOfferedLoad(perHost);
  let worst = -1;
  for (let h = 0; h < ti.hostCount; h++) if (worst < 0 || perHost[h]! > perHost[worst]!) worst = h;
  if (worst >= 0 && perHost[worst]! + everywhere > 1 + 1e-9) {
    const total = perHost[worst]! + everywhere;
    issues.addNoValue(['workload'], `offered load at host ${worst} adds up to ${+total.toFixed(6)} of its link rate; it must be <= 1`);
  }
}

/**
 * Flows and data packets the workload will need, from the entries' estimates,
 * before generating anything. Packets are bounded by what the receiving
 * hosts' links can take before the run ends.
 */
export function checkWorkloadSize(spec: Spec, entries: readonly PreparedWorkload[], ti: TopoIndex, mtu: number, issues: Issues): void {
  const limits = spec.limits;
  let flows = 0;
  let bytes = 0;
  const receivers = new Set<number>();
  for (const e of entries) {
    flows += e.estimate.flows;
    bytes += e.estimate.bytes;
    const r = e.estimate.receivers;
    if (r === 'all') for (let h = 0; h < ti.hostCount; h++) receivers.add(h);
    else for (const h of r) receivers.add(h);
  }
  if (flows > limits.flows) {
    issues.addNoValue(['workload'], `would generate about ${fmtCount(flows)} flows, above the limit of ${limits.flows.toLocaleString('en-US')} (raise limits.flows to allow it)`);
  }
  const horizonPs = spec.stop.at ?? spec.stop.maxTime ?? SPEC_DEFAULTS.maxTimePs;
  let capacity = 0;
  for (const h of receivers) capacity += ((ti.hostRate[h] ?? 0) * (horizonPs / 1e12)) / 8;
  const packets = Math.min(bytes, capacity) / mtu;
  if (packets > limits.packets) {
    issues.addNoValue(
      ['workload'],
      `would send about ${fmtCount(packets)} data packets, above the limit of ${limits.packets.toLocaleString('en-US')} (raise limits.packets to allow it)`,
    );
  }
  issues.throwIfAny();
}

/** `cc.byTag` keys must name a tag some workload entry gives its flows (a typo would silently change nothing). */
export function checkCcTags(spec: Spec, entries: readonly PreparedWorkload[], issues: Issues): void {
  if (spec.cc.byTag === undefined) return;
  const tags = new Set<string>();
  for (const e of entries) for (const t of e.tags) tags.add(t);
  for (const tag of Object.keys(spec.cc.byTag)) {
    if (!tags.has(tag)) issues.add(['cc', 'byTag', tag], `no workload flow has this tag (tags: ${[...tags].join(', ') || 'none'})`, tag);
  }
}

/** The run's open-loop flows (ids = positions in start order) and closed-loop drivers. */
export interface GeneratedWorkload {
  flows: FlowSpec[];
  drivers: WorkloadDriver[];
}

/** Each entry draws from its own stream, `workload/<i>` of the seed. */
export function generateWorkload(entries: readonly PreparedWorkload[], seed: number): GeneratedWorkload {
  const root = new Rng(seed);
  const all: FlowSpec[] = [];
  const drivers: WorkloadDriver[] = [];
  entries.forEach((e, i) => {
    const rng = root.fork('workload/' + i);
    if (e.flows !== undefined) {
      // a loop, not push(...): long runs have more flows than the call-stack argument limit
      for (const f of e.flows(rng)) all.push(f);
    }
    if (e.driver !== undefined) drivers.push(e.driver(e.flows !== undefined ? rng.fork('driver') : rng));
  });
  // flow ids = positions in start-time order; ties keep workload-entry order, then generator order
  const flows = all
    .map((f, k) => ({ f, k }))
    .sort((a, b) => a.f.startPs - b.f.startPs || a.k - b.k)
    .map((x) => x.f);
  return { flows, drivers };
}
