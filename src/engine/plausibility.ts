/**
 * Physical plausibility bounds: the one place that says which link rates,
 * link delays and durations a datacenter can have (issue 45). Every way a
 * value enters uses these (spec fields, every topology file format, link
 * events), so a typo such as "1bps", "1e-300s" or "10s" for a link delay is an
 * error with the bound in the message instead of a run that is silently
 * meaningless (docs/guide.md, validation limits).
 */

/** The slowest link rate accepted: 1 kbps (nothing in a datacenter is slower; 1 bps takes 2.7 h per 1 KB packet). */
export const LINK_RATE_MIN_BPS = 1e3;
/** The fastest link rate accepted: 100 Tbps (beyond it serialization times round to 0 ps). */
export const LINK_RATE_MAX_BPS = 1e14;
/** The longest one-way link delay accepted: 1 s (a datacenter link is well under 1 ms; 1 s is a typo of units). */
export const LINK_DELAY_MAX_PS = 1_000_000_000_000;

/** Why `bps` is not a link rate, or undefined when it is one (0 = a link down, where `allowZero`). */
export function linkRateProblem(bps: number, allowZero = false): string | undefined {
  if (!Number.isFinite(bps)) return 'must be finite';
  if (allowZero && bps === 0) return undefined;
  if (bps <= 0) return allowZero ? 'must be >= 0' : 'must be > 0';
  if (bps < LINK_RATE_MIN_BPS) return `is ${bps} bps, below the slowest plausible link rate of 1 kbps (1e3 bps)`;
  if (bps > LINK_RATE_MAX_BPS) return 'must be <= 100 Tbps (1e14 bps): not a physical link rate';
  return undefined;
}

/** Why `ps` is not a one-way link delay, or undefined when it is one. */
export function linkDelayProblem(ps: number): string | undefined {
  if (!Number.isFinite(ps) || ps < 0) return 'must be >= 0';
  if (ps > LINK_DELAY_MAX_PS) return 'is above 1 s, the longest plausible link delay (a datacenter link is well under 1 ms; a bare number is seconds)';
  return undefined;
}

/**
 * A duration in ps from a number and its unit multiplier, rounded to the
 * clock's resolution of 1 ps; a duration above 0 that would round to 0 ps
 * ("1e-300s") is an error, not silently 0.
 */
export function roundToClock(value: number, psPerUnit: number, shown: string): number {
  const ps = Math.round(value * psPerUnit);
  if (ps === 0 && value > 0) throw new Error(`"${shown}" is below 1 ps, the clock's resolution: it would be recorded as 0`);
  return ps;
}

/**
 * Why a lossless (PFC) switch buffer of `bufferBytes` is implausible for a
 * switch with `ports` ports and packets of up to `mtuBytes`, or undefined: it
 * must hold at least one full packet per port, or PFC cannot keep the fabric
 * lossless (a 1-byte buffer would have every packet go to headroom).
 */
export function losslessBufferProblem(bufferBytes: number, ports: number, mtuBytes: number): string | undefined {
  const min = ports * mtuBytes;
  if (bufferBytes >= min) return undefined;
  return `is ${bufferBytes} bytes: a lossless switch (pfcEnabled) needs at least one full packet per port, ${ports} ports x ${mtuBytes} B = ${min} bytes; give a larger buffer or set pfcEnabled: false`;
}
