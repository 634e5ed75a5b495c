/**
 * The checking mode of fast-forward (issue 46; `ccsim run --check-fast-forward`): one input run
 * packet by packet and fast-forwarded, side by side, and the per-flow FCT error between them.
 */
import { simulate } from './simulate.js';
import { DEFAULT_FAST_FORWARD, type SimInput, type SimOutput } from './types.js';

export interface FastForwardCheck {
  exact: SimOutput;
  fast: SimOutput;
  /** flows finished in both runs */
  flows: number;
  /** flows finished in one run only */
  finishedInOneOnly: number;
  /** |FCT_fast - FCT_exact| / FCT_exact over the flows finished in both: mean, p99 (nearest rank) and max */
  fctError: { mean: number; p99: number; max: number };
  /** exact events / fast-forwarded events (executed) */
  eventRatio: number;
}

/**
 * Runs the input `make` returns without and with fast-forward (its own options, or the defaults)
 * and compares the FCTs. `make` is called once per run: closed-loop drivers and flow streams are
 * used up by a run.
 */
export function checkFastForward(make: () => SimInput): FastForwardCheck {
  const a = make();
  const exact = simulate({ ...a, fastForward: null });
  const b = make();
  const fast = simulate({ ...b, fastForward: b.fastForward ?? DEFAULT_FAST_FORWARD });
  const byId = new Map<number, number>();
  for (const r of exact.fct) byId.set(r.id, r.fctPs);
  const errs: number[] = [];
  let one = 0;
  for (const r of fast.fct) {
    const e = byId.get(r.id);
    if (e === undefined) {
      one++;
      continue;
    }
    errs.push(Math.abs(r.fctPs - e) / e);
    byId.delete(r.id);
  }
  one += byId.size;
  errs.sort((a, b) => a - b);
  const n = errs.length;
  const mean = n === 0 ? 0 : errs.reduce((a, b) => a + b, 0) / n;
  const p99 = n === 0 ? 0 : errs[Math.min(n - 1, Math.ceil(0.99 * n) - 1)]!;
  return { exact, fast, flows: n, finishedInOneOnly: one, fctError: { mean, p99, max: n === 0 ? 0 : errs[n - 1]! }, eventRatio: exact.events / Math.max(1, fast.events) };
}
