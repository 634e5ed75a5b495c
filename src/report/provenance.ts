/**
 * Provenance of a measured claim (issue 40): which build ran it, on which model and spec,
 * over which replicas and points, at what cost. Every value the project records for a paper
 * (data/measured/<paper>.json) carries it, and `ccsim claims` judges a record only when it is
 * current:
 * - the model: every build carries a fingerprint of its model (data/measured/model.json, the
 *   outputs of the canary scenarios, ./canary.ts); a record made on another fingerprint is
 *   **stale**. A refactor that leaves every canary output byte-identical keeps records fresh;
 *   a change that moves one makes the canary test fail until model.json is renewed, which
 *   makes every record of the old model stale.
 * - the spec: a hash of the sweep points the claim needs (their specs and input files); a
 *   record made from other specs is stale.
 * - the build: the commit the points ran on (experiment/results/build-id.ts); a record without one
 *   (made before provenance existed) or from uncommitted changes is stale.
 * - the points: used / needed; fewer used than needed is **partial**.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { currentModel } from '../experiment/results/build-id.js';

export interface Provenance {
  /** commits the points ran on (experiment/results/build-id.ts), comma-separated when several */
  build: string;
  /** model fingerprints the points ran on (data/measured/model.json), comma-separated when several */
  model: string;
  /** hash of the specs of the points the claim needs */
  spec: string;
  /** points used / points the claim needs, e.g. "12/12" */
  points: string;
  /** CPU seconds of the points used (wall time x threads) */
  cpuSeconds: number;
}

/**
 * A claim's measurement as last written to a paper's README table, kept in the committed
 * record data/measured/<paper>.json. Full-size points take CPU-hours and their result folders
 * live outside the repository, so a table regenerated on a machine that holds only some of
 * them keeps the others' last measurement, marked as recorded.
 */
export const recordedClaimSchema = z
  .object({
    value: z.number().finite(),
    bound: z.literal('lower').optional(),
    /** points used / points needed when the value was measured, e.g. "15/30" */
    points: z.string().min(1),
    /** replicas the value is the mean over (absent: 1) */
    n: z.number().int().min(1).optional(),
    /** half-width of the mean's 95 % confidence interval (n >= 2) */
    ci95: z.number().min(0).optional(),
    /** each replica's value and name (n >= 2) */
    values: z.array(z.number().finite()).min(2).optional(),
    replicas: z.array(z.string()).optional(),
    /** the build (commit) the points ran on; absent in records made before issue 40 */
    build: z.string().min(1).optional(),
    /** the model fingerprint the points ran on */
    model: z.string().min(1).optional(),
    /** hash of the specs of the points used */
    spec: z.string().min(1).optional(),
    /** CPU seconds the points took */
    cpuSeconds: z.number().min(0).optional(),
  })
  .strict();

export type RecordedClaim = z.output<typeof recordedClaimSchema>;

/** data/measured/model.json: the canary outputs of the current model and their fingerprint. */
export const modelFileSchema = z
  .object({
    /** sha256 (16 hex) of `canaries` */
    fingerprint: z.string().regex(/^[0-9a-f]{16}$/),
    /** `<paper>/<experiment>/<claim id>` -> value, from `ccsim canary` */
    canaries: z.record(z.string(), z.number()),
    /** the build the canaries last ran on */
    build: z.string().min(1),
    /** CPU seconds the canaries took */
    cpuSeconds: z.number().min(0),
  })
  .strict();
export type ModelFile = z.output<typeof modelFileSchema>;

export { currentModel, modelFilePath } from '../experiment/results/build-id.js';

/** The fingerprint of a set of canary values: sha256 of their sorted keys and 12-digit values. */
export function fingerprintOf(canaries: Readonly<Record<string, number>>): string {
  const text = Object.keys(canaries)
    .sort()
    .map((k) => `${k}=${canaries[k]!.toPrecision(12)}`)
    .join('\n');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Hash of the sweep-point hashes a claim needs (they cover each point's spec and input files). */
export function specHashOf(pointHashes: readonly string[]): string {
  return createHash('sha256').update([...pointHashes].sort().join(',')).digest('hex').slice(0, 12);
}

/**
 * Why a measurement is stale, or undefined when it is current. `specNow` undefined: the spec is
 * not checked. A record (`recorded`) made from uncommitted changes is stale too: nobody can
 * rebuild what it ran on; results on disk from such a build are shown (a local experiment) and
 * are stale once recorded.
 */
export function staleReason(
  p: Partial<Pick<Provenance, 'build' | 'model' | 'spec'>>,
  specNow: string | undefined,
  recorded: boolean,
  modelNow: string | undefined = currentModel(),
): string | undefined {
  if (p.build === undefined || p.build === '' || p.build.split(',').includes('unknown')) return 'no build recorded (measured before records carried provenance)';
  if (recorded && p.build.split(',').some((b) => b.endsWith('+dirty'))) return `recorded from uncommitted changes (${p.build})`;
  if (modelNow !== undefined && p.model !== modelNow) return `model changed since (recorded on model ${p.model ?? 'unknown'}, current ${modelNow})`;
  if (specNow !== undefined && p.spec !== undefined && p.spec !== specNow) return 'spec changed since';
  return undefined;
}

/** Whether `points` ("used/needed") has fewer used than needed. */
export function isPartial(points: string | undefined): boolean {
  if (points === undefined) return false;
  const m = /^(\d+)\/(\d+)$/.exec(points);
  return m !== null && Number(m[1]) < Number(m[2]);
}
