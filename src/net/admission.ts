/**
 * Admission policies: an ordered per-switch list consulted when a data packet
 * has been routed and classified and is about to enter an egress queue, before
 * the shared-buffer MMU charges it (docs/network-model.md §11.1 "on arrival",
 * §11.2). The MMU's own admission (reserve, dynamic threshold, headroom, PFC
 * pause, drops) is not a policy here: it always runs after the list, on what
 * the list admitted, and with an empty list (every profile's default) the
 * switch's arrival path is the one it was.
 *
 * A policy returns a verdict, a small integer:
 * - `ADMIT`: no objection; the next policy is asked;
 * - `DROP`: the packet is dropped here (counted as a switch, port and flow drop);
 * - `TRIM`: a data packet is cut to its headers (wire size minus payload),
 *   flagged `FLAG_TRIM`, moved to the switch's header queue (`trimQueue`,
 *   urgent at every port: served first, never paused) and counted; the
 *   receiving host hands it to its endpoint's `onTrimmed`, or counts it as a
 *   loss without one (NDP, Homa: the header tells the receiver what was lost);
 *   a non-data packet is dropped instead, and a packet trimmed upstream (it
 *   is in the header queue already) is admitted as it is;
 * - `MARK`: ECN CE is set on the packet, which is then admitted;
 * - `HOLD`: admitted, and the ingress class (port, queue) pauses its upstream
 *   with a PFC PAUSE until the policy calls `Switch.releaseHold` (hop-by-hop
 *   backpressure as in BFC; a first form: the MMU's own PFC runs beside it and
 *   its resume waits for the hold to be released).
 * - `RETURN`: return-to-sender (NDP §3.1): a data packet (or its header)
 *   that finds the header queue full is cut to its header, flagged
 *   `FLAG_RTS` and sent back toward its flow's source host in the header
 *   queue, so the sender learns of the loss at once; a packet that is not
 *   data, or was returned already, is dropped instead (a header drop).
 * DROP, TRIM and RETURN end the list (a trimmed packet is not asked again); MARK and
 * HOLD take effect and the list goes on.
 *
 * Policies keep per-port state in typed arrays sized at build time, read the
 * packet's per-hop words from the arguments (the record only if they need
 * more) and allocate nothing per packet.
 */
import type { z } from 'zod';
import type { Rng } from '../engine/rng.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { SwitchConfig } from './config.js';
import type { PacketStore } from './packet.js';
import type { Port } from './port.js';

export const ADMIT = 0;
export const DROP = 1;
export const TRIM = 2;
export const MARK = 3;
export const HOLD = 4;
export const RETURN = 5;
/** Verdict names, indexed by the verdict (diagnostics). */
export const VERDICT_NAMES = ['admit', 'drop', 'trim', 'mark', 'hold', 'return'] as const;

/** One step of a switch's admission, run for every data packet headed for a (non-control) egress queue. */
export interface AdmissionPolicy {
  /** short name for diagnostics */
  readonly name: string;
  /**
   * Data packet `pkt` (its meta word `meta`, wire size `size`) arrived on
   * ingress port `inPort` and is headed for data queue `q` of egress port
   * `out`, which does not hold it yet (its `queueBytes(q)` and `totalBytes`
   * are what is ahead of it). Returns a verdict (ADMIT, DROP, TRIM, MARK,
   * HOLD, RETURN). A policy that needs the time reads `sched.now` itself.
   */
  admit(pkt: number, out: Port, q: number, size: number, meta: number, inPort: number): number;
}

/** What an admission policy may use when a switch builds it (after its ports are attached). */
export interface AdmissionContext {
  readonly pk: PacketStore;
  readonly cfg: SwitchConfig;
  readonly sched: Scheduler;
  /** rate of each port of the switch, bps */
  readonly rateBps: readonly number[];
  /** the switch's own random stream for admission (independent of spraying and ECN draws) */
  readonly rng: Rng;
}

/**
 * A named admission policy (switch-registry.ts): `SwitchConfig.admission` names it. Its
 * parameters are typed by a zod schema with units (`params`, made with engine/spec-fields.ts as
 * specs are): the spec's `params` are checked with it when the spec is resolved (errors name the
 * field), parsed with it before `create`, and it is what the JSON schema and `ccsim list` show.
 */
export interface AdmissionPolicyDefinition<P = Readonly<Record<string, unknown>>> {
  readonly name: string;
  readonly description?: string;
  /** the policy may return TRIM: a switch running it makes its header queue (`trimQueue`) urgent at every port */
  readonly trims?: boolean;
  /** the parameters, with units; absent: `create` gets the spec's `params` object as written */
  readonly params?: z.ZodType<P>;
  /** (without `params`) problems with the spec's `params` (the key and what is wrong), checked when a spec is resolved */
  check?(params: Readonly<Record<string, unknown>>): { key: string; message: string }[];
  /** a fresh policy for one switch, with its parsed parameters */
  create(ctx: AdmissionContext, params: P): AdmissionPolicy;
}

/** A policy's parameters from the spec, parsed by its schema (absent: as written); a spec resolved first has been checked. */
export function admissionParams<P>(def: AdmissionPolicyDefinition<P>, raw: Readonly<Record<string, unknown>>): P {
  if (def.params === undefined) return raw as P;
  const r = def.params.safeParse(raw);
  if (!r.success) throw new Error(`admission policy ${def.name}: ${r.error.issues.map((i) => `params.${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}
