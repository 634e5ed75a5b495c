/**
 * reTCP (Mukerjee et al., "Adapting TCP for reconfigurable datacenter networks",
 * NSDI'20), the baseline of PowerTCP §5 (Fig. 8): a TCP whose window jumps when its
 * ToR gets a circuit to the destination rack, and falls back when the circuit ends.
 *
 * - Base TCP: a window AIMD, +1 packet per RTT (MSS²/cwnd per acknowledged packet),
 *   halved at most once per window of data on an ECN echo (the VOQ's congestion signal:
 *   reTCP's small static VOQs, whose drop ccsim's lossless ToRs turn into a mark).
 * - Circuit-state feedback: the ToR tells the sender whether the packet crossed the
 *   circuit. ccsim reads that bit from the first INT hop (the sender's ToR egress): it
 *   crossed a circuit when that hop's rate is above `packetRateBps`. On the first ACK
 *   that says "circuit" the window is multiplied by `alpha`; on the first that says
 *   "packet network" again, divided by it.
 * - Prebuffering (reTCP §"dynamic VOQ resizing"): the ToR announces the circuit
 *   `prebufferUs` before it comes up, so the sender ramps up early and the VOQ (resized
 *   to hold it) is full when the circuit arrives. ccsim's sender knows the schedule's
 *   cycle (`weekUs`, one circuit per ToR pair per week) and raises its window
 *   `prebufferUs` before the next circuit is due (a week after the last one it saw); the
 *   first week of a flow has no prebuffering. While the window is raised (prebuffering
 *   or circuit) ECN echoes are ignored: the resized VOQ does not signal congestion.
 *
 * The window is unpaced (rate = line rate). The circuit-state bit itself costs no header
 * bytes (reTCP uses a spare header bit).
 */
import { z } from 'zod';
import { bpsParam, timeParam } from '../engine/spec-fields.js';
import { US } from '../engine/units.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';

const params = z
  .object({
    alpha: z.number().gt(1).default(4).describe('window multiplier while a circuit is up or announced (circuit/packet bandwidth: 100 G / 25 G in PowerTCP §5)'),
    prebufferUs: timeParam('us', { allowZero: true }).default(0).describe('announce the circuit this long before it comes up, us (PowerTCP §5: 1800 and 600); 0 = no prebuffering'),
    weekUs: timeParam('us').default(5880).describe('the circuit schedule cycle, us (PowerTCP §5: 24 matchings × (225 + 20) us)'),
    packetRateBps: bpsParam().default(25e9).describe('the packet network rate at the ToR: a first INT hop faster than this is a circuit'),
  })
  .strict();
type Params = z.infer<typeof params>;

const TIMER_PREBUFFER = 0;

class ReTcp implements CcInstance {
  private w: number;
  /** the window is raised (circuit up, or announced) */
  private boosted = false;
  /** the last ACK crossed a circuit */
  private onCircuit = false;
  private cwrUntil = 0;
  private readonly mss: number;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    this.mss = f.mtuBytes;
    this.w = f.cwndBytes;
  }

  private apply(): void {
    if (this.w < this.mss) this.w = this.mss;
    this.f.setCwnd(this.w);
  }

  onStart(): void {
    this.f.setRate(this.f.lineRateBps);
  }

  onAck(ack: AckInfo): void {
    const circuit = ack.intHops > 0 && ack.intRateBps[0]! > this.p.packetRateBps;
    if (circuit !== this.onCircuit) {
      this.onCircuit = circuit;
      if (circuit) {
        if (!this.boosted) this.boost(true);
        // the next circuit to this rack is a week after this one
        const lead = this.p.prebufferUs * US;
        if (lead > 0) this.f.setTimer(TIMER_PREBUFFER, Math.max(0, this.p.weekUs * US - lead));
      } else if (this.boosted) this.boost(false);
    }
    if (ack.newlyAckedBytes > 0) this.w += (this.mss * Math.min(ack.newlyAckedBytes, this.mss)) / this.w;
    if (ack.ecnEcho && !this.boosted && ack.seq > this.cwrUntil) {
      this.w /= 2;
      this.cwrUntil = ack.sndNxt;
    }
    this.apply();
  }

  onTimer(slot: number): void {
    if (slot === TIMER_PREBUFFER && !this.boosted) {
      this.boost(true);
      this.apply();
    }
  }

  private boost(on: boolean): void {
    this.boosted = on;
    this.w = on ? this.w * this.p.alpha : this.w / this.p.alpha;
  }

  traceState(out: Float64Array): void {
    out[0] = this.w;
    out[1] = this.boosted ? 1 : 0;
  }
}

export const retcpCc: CcDefinition<typeof params> = {
  name: 'retcp',
  description: 'reTCP: TCP window ×alpha while its ToR has (or announces, prebufferUs ahead) a circuit to the destination rack',
  reference: 'Mukerjee et al. NSDI\'20; PowerTCP §5 (Fig. 8); docs/algorithms.md §9.10',
  params,
  // the circuit-state bit is read from the first INT hop; ECN echo is the base TCP's signal
  needs: { int: true, ecn: true },
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: (flow) => flow.baseBdpBytes,
  create: (flow, p) => new ReTcp(flow, p),
  traceFields: ['cwnd_bytes', 'boosted'],
};
