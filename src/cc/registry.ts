/**
 * The CC registry. Adding a CC = one new file in this folder + one line here.
 */
import type { CcDefinition } from './types.js';
import { noneCc } from './none.js';
import { dcqcnCc } from './dcqcn.js';
import { hpccCc } from './hpcc.js';
import { powertcpCc } from './powertcp.js';
import { thetaPowertcpCc } from './theta-powertcp.js';

export const CC_REGISTRY: readonly CcDefinition[] = [noneCc, dcqcnCc, hpccCc, powertcpCc, thetaPowertcpCc] as readonly CcDefinition[];

export function findCc(name: string): CcDefinition | undefined {
  return CC_REGISTRY.find((c) => c.name === name);
}

export function ccNames(): string[] {
  return CC_REGISTRY.map((c) => c.name);
}
