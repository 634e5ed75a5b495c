/**
 * The CC registry. Adding a CC = one new file in this folder + one line here.
 */
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

export const CC_REGISTRY: readonly CcDefinition[] = [
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

export function findCc(name: string): CcDefinition | undefined {
  return CC_REGISTRY.find((c) => c.name === name);
}

export function ccNames(): string[] {
  return CC_REGISTRY.map((c) => c.name);
}
