/** Small experiment specs shared by the sweep, Slurm and reproduction tests, and a spec-error probe. */
import assert from 'node:assert/strict';
import { SpecError } from '../../src/engine/errors.js';

/** 8 senders x 64 KB into one receiver on a 9-host star: finishes in milliseconds of wall time. */
export function star9Incast(name: string): string {
  return `name: ${name}
topology: { type: star, hosts: 9, rate: 100Gbps, delay: 1us }
cc: hpcc
workload:
  - { type: incast, fanIn: 8, size: 64KB, receiver: 8, at: [0] }
`;
}

/** The message of the SpecError `fn` throws; fails the test if it throws anything else or nothing. */
export function specErrorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof SpecError, `expected a SpecError, got ${String(e)}`);
    return e.message;
  }
  assert.fail('expected a SpecError');
}
