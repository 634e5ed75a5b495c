/**
 * `none`: no congestion control. Every flow sends at line rate; the window is
 * one base BDP by default (`window: 'bdp'`) or unlimited (`window: 'none'`).
 * Used to exercise the fabric (PFC, DT, ideal FCT).
 */
import { z } from 'zod';
import type { CcDefinition, CcInstance } from './types.js';

const params = z
  .object({
    window: z.enum(['bdp', 'none']).default('none').describe("'bdp' = one base BDP window, 'none' = unlimited"),
    windowBdpMultiple: z.number().positive().default(1).describe('window in units of base BDP when window = bdp'),
  })
  .strict();

const instance: CcInstance = { onAck() {} };

export const noneCc: CcDefinition<typeof params> = {
  name: 'none',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'Line rate, window of one BDP or unlimited (no congestion control)',
  reference: 'docs/network-model.md §10.1 (flows start at line rate)',
  params,
  needs: {},
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: (flow, p) => (p.window === 'bdp' ? p.windowBdpMultiple * flow.baseBdpBytes : Infinity),
  create: () => instance,
};
