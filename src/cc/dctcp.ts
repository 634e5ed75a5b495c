/**
 * DCTCP over RDMA, rate-based: the HPCC simulator's CC_MODE 8
 * (docs/algorithms.md §9.2, `HandleAckDctcp`). Not in the papers' figures; kept
 * as the ECN-fraction baseline of the reference scripts.
 *
 * Once per window of feedback (an ACK beyond `lastUpdateSeq`) α moves toward
 * the fraction of CE-echoing ACKs in that window, α = (1-g)α + g·frac. A CE
 * echo outside CWR cuts the rate to rate·(1 - α/2) and enters CWR until the ACK
 * passes the sndNxt of the cut; each new window outside CWR adds
 * DCTCP_RATE_AI. The rate is assigned directly (no pacing adjustment, as the
 * reference); the window follows it (`VAR_WIN`: max(1, floor(BDP·rate/C))).
 *
 * Switch side: DCTCP's own step marking, kmin = kmax = 30 KB per 10 Gb/s of
 * port rate (300 KB at 100 G, KB = 1000 B), pmax 1 (docs/network-model.md §11.4), declared in
 * `needs.ecnMarking` so it replaces the profile's RED thresholds.
 *
 * Parameter columns (`preset`): `hpcc` (the HPCC scripts' DCTCP: g 1/16, +615 Mb/s,
 * floor 1 Gb/s, step marking) and `powertcp` (the PowerTCP authors' simulator with its
 * configs, which ran DCTCP for their reference runs: its rate code shares DCQCN's
 * EWMA_GAIN 1/256 as g, DCTCP_RATE_AI 1000 Mb/s, MIN_RATE 100 Mb/s, and its switches keep
 * the config's RED marking for every CC, 100/400 KB at p 0.2 per 25 G: `marking:
 * profile`; docs/algorithms.md §9.2).
 */
import { z } from 'zod';
import { bpsParam } from '../engine/spec-fields.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance, CcNeeds } from './types.js';

const params = z
  .object({
    preset: z.enum(['hpcc', 'powertcp']).default('hpcc').describe('parameter column: HPCC scripts (g 1/16, 615 Mb/s, floor 1 Gb/s, step marking) or the PowerTCP authors\' configs (g 1/256, 1000 Mb/s, floor 100 Mb/s, the profile\'s RED)'),
    g: z.number().positive().max(1).optional().describe('EWMA gain of alpha (hpcc: 1/16; powertcp: EWMA_GAIN 1/256)'),
    rateAiBps: bpsParam({ allowZero: true }).optional().describe('additive increase per window of feedback, bps (DCTCP_RATE_AI; hpcc: 615 Mb/s, powertcp: 1000 Mb/s)'),
    minRateBps: bpsParam().optional().describe('rate floor, bps (MIN_RATE; hpcc: 1 Gb/s, powertcp: 100 Mb/s)'),
    marking: z.enum(['step', 'profile']).optional().describe("'step' = DCTCP's own kmin = kmax = 30 KB per 10 G (hpcc); 'profile' = the profile's RED thresholds (powertcp)"),
    window: z.enum(['rate', 'none']).default('rate').describe("'rate' = window follows the rate, BDP·rate/C (VAR_WIN); 'none' = rate only"),
  })
  .strict();
type Params = z.infer<typeof params>;

interface Resolved {
  g: number;
  rateAiBps: number;
  minRateBps: number;
  marking: 'step' | 'profile';
}

function resolve(p: Params): Resolved {
  const pt = p.preset === 'powertcp';
  return {
    g: p.g ?? (pt ? 1 / 256 : 1 / 16),
    rateAiBps: p.rateAiBps ?? (pt ? 1000e6 : 615e6),
    minRateBps: p.minRateBps ?? (pt ? 100e6 : 1e9),
    marking: p.marking ?? (pt ? 'profile' : 'step'),
  };
}

/** DCTCP's step marking (docs/network-model.md §11.4). */
const STEP_NEEDS: CcNeeds = { ecn: true, ecnMarking: { kminBytes: 30_000, kmaxBytes: 30_000, pmax: 1, refRateBps: 10e9 } };
/** The profile's own RED thresholds (the PowerTCP authors' configs). */
const PROFILE_NEEDS: CcNeeds = { ecn: true };

class Dctcp implements CcInstance {
  private alpha = 1;
  private lastUpdateSeq = 0;
  private ecnCnt = 0;
  private batch = 0;
  private cwr = false;
  private highSeq = 0;
  private readonly r: Resolved;

  constructor(
    private readonly f: CcFlow,
    private readonly p: Params,
  ) {
    this.r = resolve(p);
  }

  private setRate(r: number): void {
    const f = this.f;
    f.setRate(r, false);
    if (this.p.window === 'rate') f.setCwnd(Math.max(1, Math.floor((f.baseBdpBytes * f.rateBps) / f.lineRateBps)));
  }

  onAck(ack: AckInfo): void {
    const f = this.f;
    const mtu = f.mtuBytes;
    const cnp = ack.ecnEcho;
    if (cnp) this.ecnCnt++;
    let newBatch = false;
    if (ack.seq > this.lastUpdateSeq) {
      newBatch = true;
      if (this.lastUpdateSeq === 0) {
        this.batch = Math.floor(ack.sndNxt / mtu) + 1;
      } else {
        const frac = Math.min(1, this.ecnCnt / this.batch);
        this.alpha = (1 - this.r.g) * this.alpha + this.r.g * frac;
        this.ecnCnt = 0;
        this.batch = Math.floor((ack.sndNxt - ack.seq) / mtu) + 1;
      }
      this.lastUpdateSeq = ack.sndNxt;
    }
    if (this.cwr && ack.seq > this.highSeq) this.cwr = false;
    if (cnp && !this.cwr) {
      this.setRate(Math.max(this.r.minRateBps, f.rateBps * (1 - this.alpha / 2)));
      this.cwr = true;
      this.highSeq = ack.sndNxt;
    }
    if (!this.cwr && newBatch) this.setRate(Math.min(f.lineRateBps, f.rateBps + this.r.rateAiBps));
  }

  shiftSeq(bytes: number): void {
    // 0 marks "no window yet" (onAck): only a marker already set moves
    if (this.lastUpdateSeq > 0) this.lastUpdateSeq += bytes;
    if (this.highSeq > 0) this.highSeq += bytes;
  }

  traceState(out: Float64Array): void {
    out[0] = this.f.rateBps;
    out[1] = this.alpha;
  }
}

export const dctcpCc: CcDefinition<typeof params> = {
  name: 'dctcp',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'DCTCP over RDMA (rate-based): ECN-fraction alpha, one cut per window, additive increase; step marking kmin = kmax',
  reference: 'Alizadeh et al. SIGCOMM\'10; docs/algorithms.md §9.2 (HPCC simulator CC_MODE 8), docs/network-model.md §11.4 (DCTCP marking); docs/baselines.md',
  params,
  needs: STEP_NEEDS,
  needsFor: (p) => (resolve(p).marking === 'step' ? STEP_NEEDS : PROFILE_NEEDS),
  resolvedParams: (p) => ({ preset: p.preset, ...resolve(p), window: p.window }),
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: (flow, p) => (p.window === 'rate' ? flow.baseBdpBytes : Infinity),
  fastForward: true, // lastUpdateSeq and highSeq move with shiftSeq (test/fast-forward-ccs.test.ts)
  create: (flow, p) => new Dctcp(flow, p),
  traceFields: ['rate_bps', 'alpha'],
};
