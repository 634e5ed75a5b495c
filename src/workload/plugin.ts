/**
 * The workload plug-in interface (docs/extending.md, "Adding a workload").
 *
 * A workload type is one `WorkloadDefinition`: its part of the spec schema
 * (one entry of the spec's `workload:` list), and `prepare`, which checks the
 * entry against the built topology and returns a `PreparedWorkload`: what the
 * input limits need to know before anything is generated (an estimate of
 * flows and bytes, offered load, tags), and then either the entry's flows
 * (open loop: a list with start times, made once) or a `WorkloadDriver` that
 * starts flows during the run (closed loop: src/workload/driver.ts).
 *
 * The definition never sees the spec file or the experiment layer: the
 * `WorkloadContext` the experiment layer passes in maps host ids, loads
 * files and records problems against the entry's own fields, so a plug-in's
 * errors read like every other spec error (`workload[2].fanIn: 40 — exceeds
 * the 31 hosts available as senders`).
 */
import type { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import type { Topology } from '../net/topology/types.js';
import type { Cdf } from './cdf.js';
import type { WorkloadDriver } from './driver.js';
import type { Racks } from './powertcp.js';
import type { FlowSpec } from './types.js';

/** A field path below the workload entry, e.g. `['flows', 3, 'dst']`. */
export type FieldPath = readonly (string | number)[];

/** What a plug-in may ask while it prepares one entry (the experiment layer implements it). */
export interface WorkloadContext {
  readonly topology: Topology;
  readonly hostCount: number;
  /** per host, the rate of its (first) link, bps */
  readonly hostRate: readonly number[];
  /** `stop.at` of the spec, ps, when the run has a hard stop */
  readonly stopAtPs: number | undefined;
  /** hosts grouped by ToR (computed once per spec) */
  racks(): Racks;
  /** every host id, 0..hostCount-1 */
  allHosts(): number[];
  /** The topology host of a spec host id; records a problem at `path` and returns -1 when it is not a host. */
  host(id: number, path: FieldPath): number;
  /** `all` or a list of spec host ids as topology hosts; records unknown and repeated ids. */
  hostSelection(sel: 'all' | readonly number[], path: FieldPath): number[];
  /** Records a problem with the field at `path` (`value`: what to print; default the spec's value there). */
  error(path: FieldPath, message: string, value?: unknown): void;
  /** Runs `fn`; an exception becomes a problem at `path` and resolution stops. */
  guard<T>(path: FieldPath, fn: () => T): T;
  /** A flow-size CDF: a built-in name or a file relative to the spec; a problem at `path` if it cannot be read. */
  cdf(nameOrPath: string, path: FieldPath): Cdf;
  /** A text file relative to the spec (e.g. a collective schedule); a problem at `path` and undefined if it cannot be read. */
  readText(file: string, path: FieldPath): string | undefined;
}

/** Flows and payload bytes an entry is expected to produce, for the input limits (docs/extending.md). */
export interface WorkloadEstimate {
  flows: number;
  bytes: number;
  /** hosts that receive its flows (the bytes they can take before the run ends bound the packets); 'all' = any host */
  receivers: readonly number[] | 'all';
}

/** One workload entry, checked and ready to produce flows. */
export interface PreparedWorkload {
  readonly estimate: WorkloadEstimate;
  /** tags the entry's flows carry (a `cc.byTag` key must name one of some entry) */
  readonly tags: readonly string[];
  /**
   * Adds the offered load at each source host, as a fraction of its link rate,
   * into `perHost`, and returns a load offered over all hosts (0 if none); the
   * sums must stay <= 1.
   */
  addOfferedLoad?(perHost: Float64Array): number;
  /** Open loop: the entry's flows, in start order (ties in the generator's order). `rng` is the entry's own stream. */
  flows?(rng: Rng): FlowSpec[];
  /** Closed loop: a driver that starts the entry's flows during the run. `rng` is the entry's own stream. */
  driver?(rng: Rng): WorkloadDriver;
}

/** A workload type: spec `workload[i].type` = `type`. */
export interface WorkloadDefinition<E extends { type: string } = { type: string }> {
  readonly type: E['type'];
  /** one line for `ccsim list` */
  readonly summary: string;
  /** the entry's schema: a strict zod object whose `type` is `z.literal(type)`; units convert on parse (engine/spec-fields.ts) */
  readonly schema: z.ZodType<E>;
  /**
   * Start times the entry names, with their paths: a flow starting at or after
   * the end of the run (`stop.at`, else `stop.maxTime`) would never run, so
   * those are spec errors (checked before the topology is built). A start that
   * is not the field's own value (e.g. an incast's last staggered sender) comes
   * with a third element saying which flow it is.
   */
  startTimes(entry: E): Iterable<readonly [FieldPath, number] | readonly [FieldPath, number, string]>;
  /** Checks the entry against the topology (through `ctx`) and prepares it. */
  prepare(entry: E, ctx: WorkloadContext): PreparedWorkload;
}
