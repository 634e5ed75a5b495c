/** `ccsim run --check-fast-forward`: a spec run both ways (sim/fast-forward-check.ts), printed side by side. */
import { summarize } from '../metrics/summary.js';
import { checkFastForward } from '../sim/fast-forward-check.js';
import type { SimInput, SimOutput } from '../sim/types.js';
import { out } from './format.js';

const pct = (x: number): string => `${(100 * x).toFixed(3)} %`;

/** Runs `input` exact and fast-forwarded and prints events, wall time, skips, FCT error and slowdowns. */
export function printFastForwardCheck(make: () => SimInput): void {
  const c = checkFastForward(make);
  const row = (name: string, o: SimOutput): void => {
    const s = summarize(o.fct).overall;
    const ff = o.fastForward;
    out(
      `${name.padEnd(6)} events ${String(o.events).padStart(11)}  wall ${(o.wallMs / 1000).toFixed(2).padStart(7)} s  end ${(o.endPs / 1e6).toFixed(1)} us  ` +
        `finished ${s.count}  slowdown mean ${s.meanSlowdown.toFixed(4)} p99 ${s.p99Slowdown.toFixed(4)}` +
        (ff !== undefined ? `  skips ${ff.skips}, skipped ${(ff.skippedPs / 1e6).toFixed(1)} us, ~${ff.skippedEventsEstimate} events` : ''),
    );
  };
  row('exact', c.exact);
  row('fast', c.fast);
  const a = summarize(c.exact.fct).overall;
  const b = summarize(c.fast.fct).overall;
  out(`events reduced ${c.eventRatio.toFixed(2)}x; slowdown difference: mean ${pct(b.meanSlowdown / a.meanSlowdown - 1)}, p99 ${pct(b.p99Slowdown / a.p99Slowdown - 1)}`);
  if (c.exact.jobs !== undefined && c.fast.jobs !== undefined) {
    const it = (o: SimOutput): number[] => o.jobs!.map((j) => j.finishPs - j.startPs);
    const x = it(c.exact);
    const y = it(c.fast);
    const errs = x.map((v, i) => (y[i] === undefined ? NaN : Math.abs(y[i]! - v) / v));
    out(`job iterations: ${x.length} exact, ${y.length} fast; |error| max ${pct(Math.max(...errs))}, mean ${pct(errs.reduce((p, q) => p + q, 0) / Math.max(1, errs.length))}`);
  }
  out(`per-flow FCT error over ${c.flows} flows: mean ${pct(c.fctError.mean)}, p99 ${pct(c.fctError.p99)}, max ${pct(c.fctError.max)}` + (c.finishedInOneOnly > 0 ? `; ${c.finishedInOneOnly} flows finished in one run only` : ''));
}
