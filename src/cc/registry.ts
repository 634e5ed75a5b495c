/**
 * The CC registry (a `Registry`, engine/registry.ts). Adding a built-in CC = one new file in
 * this folder + one line in `BUILT_IN` here; a user's CC in their own file registers itself
 * with `registerCc` from a plug-in module (docs/extending.md, "Plug-ins in your own files").
 */
import { Registry } from '../engine/registry.js';
import type { CcDefinition } from './types.js';
import { noneCc } from './none.js';
import { dcqcnCc } from './dcqcn.js';
import { oscarCc } from './oscar.js';
import { hpccCc, hpccStarCc } from './hpcc.js';
import { dctcpCc } from './dctcp.js';
import { timelyCc } from './timely.js';
import { swiftCc } from './swift.js';
import { poseidonCc } from './poseidon.js';
import { oracleCc } from './oracle.js';
import { powertcpCc } from './powertcp.js';
import { thetaPowertcpCc } from './theta-powertcp.js';
import { cccCc } from './ccc.js';
import { timelyPatchedCc } from './timely-patched.js';
import { sqccCc } from './sqcc.js';
import { accCc, accNoHaltCc } from './acc.js';
import { dcqcnTcdCc } from './dcqcn-tcd.js';
import { timelyTcdCc } from './timely-tcd.js';
import { homaCc } from './homa.js';
import { ndpCc } from './ndp.js';
import { retcpCc } from './retcp.js';

const BUILT_IN: readonly CcDefinition[] = [
  noneCc,
  dcqcnCc,
  hpccCc,
  hpccStarCc,
  dctcpCc,
  timelyCc,
  swiftCc,
  poseidonCc,
  oracleCc,
  oscarCc,
  powertcpCc,
  thetaPowertcpCc,
  cccCc,
  timelyPatchedCc,
  sqccCc,
  accCc,
  accNoHaltCc,
  dcqcnTcdCc,
  timelyTcdCc,
  homaCc,
  ndpCc,
  retcpCc,
] as readonly CcDefinition[];

/** Every CC a spec may name (`cc: <name>`), built-ins first in the order above. */
export const ccRegistry = new Registry<CcDefinition>({ kind: 'congestion control', key: (c) => c.name });
for (const c of BUILT_IN) ccRegistry.register(c);

/**
 * Adds a CC; its name must be free. `source` names where it comes from for messages (a
 * plug-in module's file; default `built-in`).
 */
export function registerCc<S extends CcDefinition['params']>(def: CcDefinition<S>, source?: string): void {
  ccRegistry.register(def as unknown as CcDefinition, source);
}

export function findCc(name: string): CcDefinition | undefined {
  return ccRegistry.find(name);
}

export function ccNames(): string[] {
  return ccRegistry.names();
}

/** Every registered CC, in registration order. */
export function ccDefinitions(): CcDefinition[] {
  return ccRegistry.values();
}
