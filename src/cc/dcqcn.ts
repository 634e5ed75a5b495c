/**
 * DCQCN (Zhu et al., SIGCOMM'15), reaction point at the sender; the switches'
 * RED marking and the receiver's CE echo / CNP are the network's
 * (docs/network-model.md §11.4, §10.2, §10.3). Two reference variants:
 *
 * - `mlx` (docs/algorithms.md §9.1, the HPCC simulator's Mellanox-style RP):
 *   CNP flag on ACKs; periodic α update (ALPHA_RESUME_INTERVAL), periodic
 *   decrease check (RATE_DECREASE_INTERVAL, first expiry at +interval+1 ns),
 *   rate-increase timer RP_TIMER with fast recovery / additive / hyper
 *   increase; no byte counter. The rate is assigned directly (no pacing
 *   adjustment).
 * - `paper` (the OSCAR artifact's RP): CNP packets; on each CNP
 *   RT = RC, RC *= 1 - α/2, α = (1-g)α + g; α decays on a 55 us timer; the
 *   rate timer and a byte counter drive increases.
 *
 * `variant: auto` picks `mlx` under the D-HPCC profiles (hpcc, acc) and `paper` under oscar;
 * `preset` picks the parameter column (hpcc run.py, PowerTCP config, OSCAR
 * config). Any explicit parameter overrides the preset.
 *
 * The mlx α timer fires every 1 us in the references. Here it is evaluated
 * lazily: the state remembers the tick phase and, when α is needed, applies
 * the ticks that have elapsed (the first one adds g if a CNP arrived since the
 * previous tick, the rest multiply by (1-g)); the decrease check is an event
 * only when a CNP is pending. Same arithmetic at the same tick times, without
 * a million events per flow-second.
 */
import { z } from 'zod';
import { bpsParam, bytesParam, timeParam } from '../engine/spec-fields.js';
import { MIB, NS, US } from '../engine/units.js';
import type { NetworkConfig } from '../net/config.js';
import type { AckInfo, CcDefinition, CcFlow, CcInstance } from './types.js';

export const dcqcnParams = z
  .object({
    variant: z.enum(['auto', 'mlx', 'paper']).default('auto').describe('mlx = HPCC-simulator RP, paper = OSCAR-artifact RP (docs/algorithms.md §9.1); auto by profile'),
    preset: z.enum(['auto', 'hpcc', 'powertcp', 'oscar', 'oscarFig1']).default('auto').describe('parameter column; auto = hpcc (mlx) or oscar (paper)'),
    g: z.number().positive().max(1).optional().describe('EWMA gain of alpha'),
    alphaInit: z.number().min(0).max(1).optional().describe('initial alpha'),
    rateAiBps: bpsParam({ allowZero: true }).optional().describe('additive increase step, bps'),
    rateHaiBps: bpsParam({ allowZero: true }).optional().describe('hyper increase step, bps'),
    minRateBps: bpsParam().optional().describe('rate floor, bps'),
    alphaIntervalPs: timeParam('ps').optional().describe('alpha update period, ps'),
    decreaseIntervalPs: timeParam('ps').optional().describe('mlx: rate decrease check period, ps'),
    increaseIntervalPs: timeParam('ps').optional().describe('rate increase timer (RP_TIMER / RateTimerDelay), ps'),
    fastRecoverySteps: z.number().int().nonnegative().optional().describe('F: fast recovery steps before additive increase'),
    byteCounterBytes: bytesParam().optional().describe('paper: byte counter threshold B'),
    rateOnFirstCnp: z.number().positive().max(1).optional().describe('mlx: rate multiplier on the first CNP'),
    clampTargetRate: z.boolean().optional().describe('mlx: CLAMP_TARGET_RATE'),
    window: z.enum(['none', 'bdp']).default('none').describe("'bdp' = DCQCN with a fixed one-BDP window (OSCAR App. C.6)"),
  })
  .strict();
type Params = z.infer<typeof dcqcnParams>;
const params = dcqcnParams;

export interface Resolved {
  mlx: boolean;
  g: number;
  alphaInit: number;
  rateAi: number;
  rateHai: number;
  minRate: number;
  alphaInterval: number;
  decInterval: number;
  incInterval: number;
  F: number;
  byteCounter: number;
  rateOnFirstCnp: number;
  clampTarget: boolean;
}

export function resolveDcqcn(p: Params, net: NetworkConfig, lineRate: number): Resolved {
  const mlx = p.variant === 'auto' ? net.profile !== 'oscar' : p.variant === 'mlx'; // D-HPCC profiles (hpcc, acc)
  const preset = p.preset === 'auto' ? (mlx ? 'hpcc' : 'oscar') : p.preset;
  let base: Resolved;
  if (preset === 'hpcc') {
    // HPCC simulator run.py "dcqcn" column
    const k = lineRate / 25e9;
    base = { mlx, g: 1 / 256, alphaInit: 1, rateAi: 5e6 * k, rateHai: 50e6 * k, minRate: 1e9, alphaInterval: 1 * US, decInterval: 4 * US, incInterval: 300 * US, F: 1, byteCounter: 10 * MIB, rateOnFirstCnp: 1, clampTarget: false };
  } else if (preset === 'powertcp') {
    // PowerTCP artifact config column
    base = { mlx, g: 1 / 256, alphaInit: 1, rateAi: 50e6, rateHai: 100e6, minRate: 100e6, alphaInterval: 1 * US, decInterval: 4 * US, incInterval: 900 * US, F: 1, byteCounter: 10 * MIB, rateOnFirstCnp: 1, clampTarget: false };
  } else {
    // OSCAR configs (RateAIRatio 0.001, G 1/256), attribute defaults otherwise; Fig1 uses AI 0.01, alpha 0.5
    const fig1 = preset === 'oscarFig1';
    base = { mlx, g: 1 / 256, alphaInit: fig1 ? 0.5 : 1, rateAi: (fig1 ? 0.01 : 0.001) * lineRate, rateHai: 0.01 * lineRate, minRate: 0.001 * lineRate, alphaInterval: 55 * US, decInterval: 55 * US, incInterval: 55 * US, F: 5, byteCounter: 10 * MIB, rateOnFirstCnp: 1, clampTarget: false };
  }
  return {
    mlx,
    g: p.g ?? base.g,
    alphaInit: p.alphaInit ?? base.alphaInit,
    rateAi: p.rateAiBps ?? base.rateAi,
    rateHai: p.rateHaiBps ?? base.rateHai,
    minRate: p.minRateBps ?? base.minRate,
    alphaInterval: p.alphaIntervalPs ?? base.alphaInterval,
    decInterval: p.decreaseIntervalPs ?? base.decInterval,
    incInterval: p.increaseIntervalPs ?? base.incInterval,
    F: p.fastRecoverySteps ?? base.F,
    byteCounter: p.byteCounterBytes ?? base.byteCounter,
    rateOnFirstCnp: p.rateOnFirstCnp ?? base.rateOnFirstCnp,
    clampTarget: p.clampTargetRate ?? base.clampTarget,
  };
}

/** The values a flow uses, named like the params (for `ccsim list` and the manifest). */
function resolvedParams(p: Params, net: NetworkConfig, lineRate: number): Record<string, unknown> {
  const r = resolveDcqcn(p, net, lineRate);
  const mlx = p.variant === 'auto' ? net.profile === 'hpcc' : p.variant === 'mlx';
  return {
    variant: r.mlx ? 'mlx' : 'paper',
    preset: p.preset === 'auto' ? (mlx ? 'hpcc' : 'oscar') : p.preset,
    g: r.g,
    alphaInit: r.alphaInit,
    rateAiBps: r.rateAi,
    rateHaiBps: r.rateHai,
    minRateBps: r.minRate,
    alphaIntervalPs: r.alphaInterval,
    decreaseIntervalPs: r.decInterval,
    increaseIntervalPs: r.incInterval,
    fastRecoverySteps: r.F,
    byteCounterBytes: r.byteCounter,
    rateOnFirstCnp: r.rateOnFirstCnp,
    clampTargetRate: r.clampTarget,
    window: p.window,
  };
}

const T_DEC = 0;
const T_INC = 1;
const T_ALPHA = 2;

/** HPCC-simulator (Mellanox) reaction point (docs/algorithms.md §9.1). */
export class DcqcnMlx implements CcInstance {
  private rate: number;
  private target: number;
  private alpha: number;
  private cnpForAlpha = false;
  private cnpForDecrease = false;
  private firstCnp = true;
  private stage = 0;
  /** time of the first CNP: α ticks at t0 + k·Ta, decrease checks at t0 + 1 ns + j·Td */
  private t0 = 0;
  private alphaTicks = 0;
  private readonly decay: number;

  constructor(
    private readonly f: CcFlow,
    private readonly r: Resolved,
  ) {
    this.rate = f.lineRateBps;
    this.target = f.lineRateBps;
    this.alpha = r.alphaInit;
    this.decay = 1 - r.g;
  }

  private set(rate: number): void {
    this.rate = rate;
    this.f.setRate(rate, false);
  }

  /** Applies the α ticks due at or before now. */
  private catchUpAlpha(now: number): void {
    const due = Math.floor((now - this.t0) / this.r.alphaInterval);
    let n = due - this.alphaTicks;
    if (n <= 0) return;
    this.alphaTicks = due;
    this.alpha = this.decay * this.alpha + (this.cnpForAlpha ? this.r.g : 0);
    this.cnpForAlpha = false;
    n--;
    if (n > 0) this.alpha *= this.decay ** n;
  }

  onCnp(): void {
    const now = this.f.now();
    if (this.firstCnp) {
      this.firstCnp = false;
      this.alpha = 1;
      this.cnpForAlpha = false;
      this.cnpForDecrease = true;
      this.t0 = now;
      this.alphaTicks = 0;
      this.target = this.rate = this.r.rateOnFirstCnp * this.rate;
      this.f.setRate(this.rate, false);
      this.f.setTimer(T_DEC, this.r.decInterval + NS);
      return;
    }
    this.catchUpAlpha(now);
    this.cnpForAlpha = true;
    if (!this.cnpForDecrease) {
      this.cnpForDecrease = true;
      // next decrease check strictly after now
      const first = this.t0 + this.r.decInterval + NS;
      const k = now < first ? 0 : Math.floor((now - first) / this.r.decInterval) + 1;
      this.f.setTimer(T_DEC, first + k * this.r.decInterval - now);
    }
  }

  onAck(_ack: AckInfo): void {}

  onTimer(slot: number): void {
    const now = this.f.now();
    if (slot === T_DEC) {
      this.catchUpAlpha(now);
      if (!this.cnpForDecrease) return;
      if (this.r.clampTarget || this.stage !== 0) this.target = this.rate;
      this.set(Math.max(this.r.minRate, this.rate * (1 - this.alpha / 2)));
      this.stage = 0;
      this.cnpForDecrease = false;
      this.f.setTimer(T_INC, this.r.incInterval);
    } else if (slot === T_INC) {
      const C = this.f.lineRateBps;
      if (this.stage < this.r.F) {
        this.set((this.rate + this.target) / 2);
      } else if (this.stage === this.r.F) {
        this.target = Math.min(C, this.target + this.r.rateAi);
        this.set((this.rate + this.target) / 2);
      } else {
        this.target = Math.min(C, this.target + this.r.rateHai);
        this.set((this.rate + this.target) / 2);
      }
      this.stage++;
      // at line rate with nothing left to recover, further ticks change nothing until the next decrease
      if (!(this.rate >= C && this.target >= C)) this.f.setTimer(T_INC, this.r.incInterval);
    }
  }
}

/** OSCAR-artifact (paper-style) reaction point, in rate ratios (docs/algorithms.md §9.1). */
class DcqcnPaper implements CcInstance {
  private rc = 1;
  private rt = 1;
  private alpha: number;
  private byteCnt = 0;
  private iT = 0;
  private iB = 0;
  private readonly minRatio: number;
  private readonly aiRatio: number;
  private readonly haiRatio: number;

  constructor(
    private readonly f: CcFlow,
    private readonly r: Resolved,
  ) {
    this.alpha = r.alphaInit;
    this.minRatio = r.minRate / f.lineRateBps;
    this.aiRatio = r.rateAi / f.lineRateBps;
    this.haiRatio = r.rateHai / f.lineRateBps;
  }

  onStart(): void {
    this.f.setTimer(T_INC, this.r.incInterval);
  }

  private apply(): void {
    this.f.setRate(this.rc * this.f.lineRateBps);
  }

  onSend(info: { wireBytes: number }): void {
    this.byteCnt += info.wireBytes - 12;
    if (this.byteCnt >= this.r.byteCounter) {
      this.byteCnt = 0;
      this.iB++;
      this.increase();
    }
  }

  onCnp(): void {
    this.rt = this.rc;
    this.rc = Math.max(this.minRatio, this.rc * (1 - this.alpha / 2));
    this.alpha = (1 - this.r.g) * this.alpha + this.r.g;
    this.f.setTimer(T_ALPHA, this.r.alphaInterval);
    this.f.setTimer(T_INC, this.r.incInterval);
    this.byteCnt = 0;
    this.iT = 0;
    this.iB = 0;
    this.apply();
  }

  onAck(_ack: AckInfo): void {}

  private increase(): void {
    const F = this.r.F;
    if (this.iT > F && this.iB > F) this.rt = Math.min(1, this.rt + this.haiRatio);
    else if (this.iT > F || this.iB > F) this.rt = Math.min(1, this.rt + this.aiRatio);
    this.rc = (this.rt + this.rc) / 2;
    this.apply();
  }

  onTimer(slot: number): void {
    if (slot === T_ALPHA) {
      this.alpha = (1 - this.r.g) * this.alpha;
      this.f.setTimer(T_ALPHA, this.r.alphaInterval);
    } else if (slot === T_INC) {
      this.iT++;
      this.increase();
      if (!(this.rc >= 1 && this.rt >= 1)) this.f.setTimer(T_INC, this.r.incInterval);
    }
  }
}

export const dcqcnCc: CcDefinition<typeof params> = {
  name: 'dcqcn',
  parallel: true, // checked against one thread (test/threads.test.ts)
  description: 'DCQCN: ECN/CNP-driven rate control (Mellanox-style or paper-style reaction point)',
  reference: 'Zhu et al. SIGCOMM\'15; docs/algorithms.md §9.1 (OSCAR artifact and HPCC simulator variants)',
  params,
  needs: { ecn: true, cnp: true, rateScaledWindow: true },
  dataHeaderBytes: () => 0,
  ackHeaderBytes: () => 0,
  initialCwnd: (flow, p) => (p.window === 'bdp' ? flow.baseBdpBytes : Infinity),
  resolvedParams,
  // no sequence number in state; its timers run on the scheduler's clock, which a skip does not move (test/fast-forward-ccs.test.ts)
  fastForward: true,
  fastForwardTimerPs: (p, net, lineRate) => {
    const r = resolveDcqcn(p, net, lineRate);
    return Math.max(r.incInterval, r.alphaInterval, r.decInterval);
  },
  create: (flow, p) => {
    const r = resolveDcqcn(p, flow.net, flow.lineRateBps);
    return r.mlx ? new DcqcnMlx(flow, r) : new DcqcnPaper(flow, r);
  },
};
