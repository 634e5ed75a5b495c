/**
 * DCQCN+TCD, an ACC baseline (ACC §6.1; docs/algorithms.md §9.7). TCD's paper
 * changes DCQCN's parameters heuristically ("reduce the rate of congested flows
 * aggressively and adjust victim flows gently"); those changes are not in the
 * corpus, so this follows the minimal spec of §4.9: the HPCC simulator's
 * DCQCN reaction point (§4.1.B, the code ACC compared with) driven by TCD's CE
 * marks instead of RED/ECN, with victim (UE) marks treated as no congestion.
 * Every ACK echoing CE counts as a CNP (D-HPCC echoes per ACK, §2.2); the
 * profile's RED marks are ignored. Parameters are DCQCN's.
 */
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';
import { TCD_CE } from './types.js';
import { DcqcnMlx, dcqcnParams, resolveDcqcn } from './dcqcn.js';

class DcqcnTcd implements CcInstance {
  constructor(private readonly rp: DcqcnMlx) {}

  onAck(ack: AckInfo): void {
    if (ack.tcd === TCD_CE) this.rp.onCnp();
  }

  onTimer(slot: number): void {
    this.rp.onTimer(slot);
  }
}

export const dcqcnTcdCc: CcDefinition<typeof dcqcnParams> = {
  name: 'dcqcn-tcd',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'DCQCN+TCD (ACC baseline): DCQCN (HPCC-simulator RP) reacting to TCD CE marks, UE treated as no congestion',
  reference: 'ACC NSDI\'24 §6.1; docs/algorithms.md §9.7 (minimal spec), §9.1',
  params: dcqcnParams,
  needs: { tcd: true },
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: (flow, p) => (p.window === 'bdp' ? flow.baseBdpBytes : Infinity),
  create: (flow: CcFlow, p) => new DcqcnTcd(new DcqcnMlx(flow, resolveDcqcn({ ...p, variant: 'mlx' }, flow.net, flow.lineRateBps))),
};
