/**
 * TIMELY+TCD, an ACC baseline (ACC §6.1; docs/algorithms.md §9.7). TCD's own
 * parameter changes are not in the corpus; following the minimal spec of
 * §4.9, this is the HPCC simulator's TIMELY (§4.3.A, α 0.875, β 0.8) whose
 * rate decreases are suppressed for victim flows: an update whose RTT window
 * brought UE marks but no CE keeps the rate (no decrease, no increase).
 */
import type { AckInfo, CcDefinition } from './types.js';
import { TCD_CE, TCD_UE } from './types.js';
import { Timely, timelyCc, timelyParams } from './timely.js';

class TimelyTcd extends Timely {
  private ceSeen = false;
  private ueSeen = false;

  override onAck(ack: AckInfo): void {
    if (ack.tcd === TCD_CE) this.ceSeen = true;
    else if (ack.tcd === TCD_UE) this.ueSeen = true;
    super.onAck(ack);
  }

  protected override allowDecrease(): boolean {
    return this.ceSeen || !this.ueSeen;
  }

  protected override windowClosed(): void {
    this.ceSeen = false;
    this.ueSeen = false;
  }
}

export const timelyTcdCc: CcDefinition<typeof timelyParams> = {
  name: 'timely-tcd',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'TIMELY+TCD (ACC baseline): TIMELY whose decreases are suppressed for victim (UE-only) flows',
  reference: 'ACC NSDI\'24 §6.1; docs/algorithms.md §9.7 (minimal spec), §9.3',
  params: timelyParams,
  needs: { ts: true, tcd: true },
  dataHeaderBytes: timelyCc.dataHeaderBytes,
  ackHeaderBytes: timelyCc.ackHeaderBytes,
  initialCwnd: timelyCc.initialCwnd,
  create: (flow, p) => new TimelyTcd(flow, p),
};
