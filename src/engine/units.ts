/**
 * Units. The clock is integer picoseconds held in a JS number (exact up to
 * 2^53 ps, about 9007 s). Rates are bits per second, sizes bytes.
 */

import { roundToClock } from './plausibility.js';

export const PS = 1;
export const NS = 1_000;
export const US = 1_000_000;
export const MS = 1_000_000_000;
export const SEC = 1_000_000_000_000;

export const KB = 1000;
export const KIB = 1024;
export const MB = 1_000_000;
export const MIB = 1024 * 1024;
export const GBPS = 1e9;

/**
 * How a serialization or pacing time is turned into whole nanoseconds, per
 * reference code base (docs/network-model.md §9).
 * - floorViaDouble64x64: ns-3.17 (HPCC simulator): double seconds truncated to
 *   64.64 fixed point, then the integer part of the ns count.
 * - floorExact: ns-3.39 fork (PowerTCP): exact floor of bytes*8e9/rate.
 * - roundHalfUp: official ns-3.39 (OSCAR): nearest ns.
 * - none: picosecond resolution, rounded to the nearest ps.
 */
export type TxTimeQuantization = 'floorViaDouble64x64' | 'floorExact' | 'roundHalfUp' | 'none';
export const TX_QUANTIZATIONS: readonly TxTimeQuantization[] = ['floorViaDouble64x64', 'floorExact', 'roundHalfUp', 'none'];

const TWO64 = 18446744073709551616n;
const E9 = 1_000_000_000n;

/** Exact floor(d·2^64)·1e9 / 2^64 for a positive double d (ns from seconds), by BigInt. */
function floorVia64x64Exact(d: number): number {
  // decompose d = mant * 2^exp exactly
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, d);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (expBits === 0) {
    exp = -1074;
  } else {
    mant |= 1n << 52n;
    exp = expBits - 1075;
  }
  // F = floor(mant * 2^(exp+64))
  const shift = exp + 64;
  const F = shift >= 0 ? mant << BigInt(shift) : mant >> BigInt(-shift);
  return Number((F * E9) / TWO64);
}

/**
 * Time in ps to put `bytes` on a wire of `rateBps`, quantized to whole ns per `q`
 * (or to ps when q is 'none').
 */
export function txTimePs(bytes: number, rateBps: number, q: TxTimeQuantization): number {
  const bits = bytes * 8;
  switch (q) {
    case 'floorExact': {
      // floor(bits*1e9/rate) ns. bits*1e9 < 2^53 for any packet; rate may be fractional.
      const ns = Math.floor((bits * 1e9) / rateBps);
      // guard against the division rounding up across an integer
      return (ns * rateBps > bits * 1e9 ? ns - 1 : ns) * NS;
    }
    case 'roundHalfUp': {
      const x = (bits * 1e9) / rateBps;
      return Math.floor(x + 0.5) * NS;
    }
    case 'floorViaDouble64x64': {
      const d = bits / rateBps; // seconds, as ns-3.17 computes it in double
      const p = d * 1e9;
      const fl = Math.floor(p);
      // Fast path: far from an integer boundary the truncations cannot change floor().
      if (p - fl > 1e-6 && p - fl < 1 - 1e-6) return fl * NS;
      return floorVia64x64Exact(d) * NS;
    }
    case 'none':
      return Math.round((bits * 1e12) / rateBps);
  }
}

const RATE_PREFIX: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12 };

/**
 * Parses a rate in bits per second: number (bps) or string like "100Gbps",
 * "25G", "400 Gb/s", "1e9". A capital B is bytes: "100GBps" (100 gigabytes
 * per second, 800 Gbps) is an error that names both readings, never
 * silently taken as 100 Gbps.
 */
export function parseRate(v: number | string): number {
  if (typeof v === 'number') return v;
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([kmgt]?)((?:bps|b\/s|bit\/s)?)\s*$/i.exec(v);
  if (!m) throw new Error(`not a rate: "${v}" (use e.g. 100Gbps, 25G or a number in bps)`);
  const x = parseFloat(m[1]!);
  const mult = RATE_PREFIX[m[2]!.toLowerCase()]!;
  if (m[3]!.startsWith('B')) {
    const bits = x * mult * 8;
    throw new Error(`"${v}" is bytes per second (capital B); rates are bits per second: write ${formatRateBits(bits)} for ${v}, or use a lower-case b (${m[1]}${m[2]}bps)`);
  }
  return x * mult;
}

function formatRateBits(bps: number): string {
  for (const [p, f] of [['T', 1e12], ['G', 1e9], ['M', 1e6], ['k', 1e3]] as const) if (bps >= f) return `${bps / f}${p}bps`;
  return `${bps}bps`;
}

/** Parses a duration into ps: number (seconds) or string like "1us", "10ms", "500ns", "2s", "3ps". */
export function parseTimePs(v: number | string): number {
  if (typeof v === 'number') return roundToClock(v, SEC, `${v}s`);
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*(ps|ns|us|µs|ms|s)\s*$/i.exec(v);
  if (!m) throw new Error(`not a duration: "${v}" (use e.g. 1us, 10ms, 500ns or a number in seconds)`);
  const mult: Record<string, number> = { ps: 1, ns: NS, us: US, 'µs': US, ms: MS, s: SEC };
  return roundToClock(parseFloat(m[1]!), mult[m[2]!.toLowerCase()]!, v.trim());
}

/**
 * Parses a size into bytes: number or string like "32MiB", "400KiB", "4MB",
 * "1000B", "150KB". A lower-case b is bits: "1Mb" is an error (a megabit is
 * 125 KB), never read as 1 MB. A size must come to whole bytes: "1.0001KB"
 * (1000.1 B) is an error, never rounded.
 */
export function parseBytes(v: number | string): number {
  if (typeof v === 'number') return v;
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*((?:[kmg]i?)?b)?\s*$/i.exec(v);
  if (!m) throw new Error(`not a size: "${v}" (use e.g. 32MiB, 400KiB, 1000B or a number of bytes)`);
  const unit = m[2] ?? '';
  const mult: Record<string, number> = { '': 1, b: 1, kb: KB, kib: KIB, mb: MB, mib: MIB, gb: 1e9, gib: 1024 * MIB };
  const x = parseFloat(m[1]!) * mult[unit.toLowerCase()]!;
  if (unit.endsWith('b')) {
    throw new Error(`"${v}" is bits (lower-case b); sizes are bytes: write ${m[1]}${unit.slice(0, -1)}B for bytes, or ${x / 8}B for ${v}`);
  }
  const bytes = Math.round(x);
  // a size that is not whole bytes is refused, not rounded (a little float noise, as in 0.1KB, is not a fraction)
  if (Number.isFinite(x) && Math.abs(x - bytes) > 1e-9 * Math.max(1, Math.abs(x))) {
    throw new Error(`"${v}" is ${x} bytes: not a whole number of bytes`);
  }
  return bytes;
}

/** Formats ps as a short human string. */
export function formatTime(ps: number): string {
  if (ps >= SEC) return `${(ps / SEC).toFixed(3)}s`;
  if (ps >= MS) return `${(ps / MS).toFixed(3)}ms`;
  if (ps >= US) return `${(ps / US).toFixed(3)}us`;
  return `${(ps / NS).toFixed(3)}ns`;
}
