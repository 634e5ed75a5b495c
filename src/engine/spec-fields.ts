/**
 * Spec field types shared by every layer that declares part of the spec
 * schema (the experiment spec, workload plug-ins, topology changes): values
 * with units, converted to the simulator's units when parsed (rates to bps,
 * durations to integer ps, sizes to whole bytes), with the spec's error
 * wording. Conventions: a rate is a string such as "100Gbps", a duration a
 * string such as "10us", a size a string such as "1MB" or "1500B".
 *
 * A bare number is an error that names the field and suggests units (`delay: 1`
 * would be a second per link, `duration: 1` a second of arrivals): 0 is the one
 * number allowed, as it means the same in every unit. A field whose key names
 * its unit (`bufferBytes`, `refRateBps`, `bytes`) documents that meaning and
 * takes a number (`bare: true`). Programs that build specs write units too
 * (`${x}B`, `${ps}ps`), or pass the simulator's input directly (docs/api.md).
 */
import { z } from 'zod';
import { LINK_RATE_MAX_BPS, linkDelayProblem, linkRateProblem } from './plausibility.js';
import { parseBytes, parseRate, parseTimePs } from './units.js';

const NUM_OR_STRING_RATE = 'expected a rate: a string such as "100Gbps"';
const NUM_OR_STRING_TIME = 'expected a duration: a string such as "10us"';
const NUM_OR_STRING_SIZE = 'expected a size: a string such as "1MB" or "1500B"';

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A number as a short decimal (no float noise: 1e-6 * 1e6 -> "1"). */
function short(x: number): string {
  return String(Number(x.toPrecision(12)));
}

/**
 * The error for a bare number (anything but 0) where a unit is needed, with units
 * to write: the likely intent (`"1us"`) and the reading the number has as a
 * number (`"1s"`, `"64000B"`).
 */
function bareNumberMessage(v: number, kind: 'rate' | 'time' | 'size'): string {
  let eg: string[];
  if (kind === 'time') {
    const ps = v * 1e12;
    const read = ps >= 1e12 ? `${short(v)}s` : ps >= 1e9 ? `${short(ps / 1e9)}ms` : ps >= 1e6 ? `${short(ps / 1e6)}us` : ps >= 1e3 ? `${short(ps / 1e3)}ns` : `${short(ps)}ps`;
    // a tiny number was meant in seconds; a larger one is more likely µs without its unit
    eg = v < 1e-3 ? [`"${read}"`] : [`"${short(v)}us"`, `"${read}"`];
  } else if (kind === 'size') {
    eg = [`"${short(v)}B"`, ...(v >= 1000 && v % 1000 === 0 ? [`"${short(v / 1000)}KB"`] : [])];
  } else {
    const read = v >= 1e9 ? `${short(v / 1e9)}Gbps` : v >= 1e6 ? `${short(v / 1e6)}Mbps` : `${short(v)}bps`;
    eg = v >= 1e6 ? [`"${read}"`] : [`"${short(v)}Gbps"`, `"${read}"`];
  }
  const reading = kind === 'time' ? `${short(v)} s` : kind === 'size' ? `${short(v)} bytes` : `${short(v)} bps`;
  return `is a bare number; write a unit, e.g. ${eg.join(' or ')} (as a number it would be read as ${reading})`;
}

/**
 * Refuses a bare number above 0 unless `bare` (the field's key names the unit); 0, a
 * negative or non-finite number go on to the range checks, which name what is wrong.
 */
function checkBare(v: number | string, kind: 'rate' | 'time' | 'size', bare: boolean | undefined, ctx: z.RefinementCtx): boolean {
  if (bare === true || typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) return true;
  ctx.addIssue({ code: 'custom', message: bareNumberMessage(v, kind) });
  return false;
}

/** The fastest rate a spec may give (100 Tbps): beyond it serialization times round to 0 ps. */
export const MAX_RATE_BPS = LINK_RATE_MAX_BPS;

/** A link rate in bps; 1 kbps .. 100 Tbps (0 too with `allowZero`: a link down); a bare number only with `bare` (or 0). */
export function rateField(opts: { allowZero?: boolean; bare?: boolean } = {}) {
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_RATE }).transform((v, ctx): number => {
    if (!checkBare(v, 'rate', opts.bare, ctx)) return z.NEVER;
    let bps: number;
    try {
      bps = parseRate(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    // the plausibility bounds of every link rate (engine/plausibility.ts)
    const problem = linkRateProblem(bps, opts.allowZero === true);
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return bps;
  });
}

function showPs(ps: number): string {
  return ps >= 1e6 ? `${ps / 1e6}us` : ps >= 1e3 ? `${ps / 1e3}ns` : `${ps}ps`;
}

/**
 * A duration converted to integer ps; >= 0, or > 0 when `positive`; and at
 * least `min` ps when given (a timer or sampling period below it would cost
 * more events or rows than the run's limits count: `why` says so).
 */
export function durationField(opts: { positive?: boolean; min?: number; why?: string; linkDelay?: boolean } = {}) {
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_TIME }).transform((v, ctx): number => {
    if (!checkBare(v, 'time', false, ctx)) return z.NEVER;
    let ps: number;
    try {
      ps = parseTimePs(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    if (!Number.isFinite(ps) || !Number.isSafeInteger(ps)) {
      ctx.addIssue({ code: 'custom', message: 'must be finite (and below about 9000 s)' });
      return z.NEVER;
    }
    if (opts.positive ? ps <= 0 : ps < 0) {
      ctx.addIssue({ code: 'custom', message: opts.positive ? 'must be > 0' : 'must be >= 0' });
      return z.NEVER;
    }
    if (opts.min !== undefined && ps < opts.min) {
      ctx.addIssue({ code: 'custom', message: `must be >= ${showPs(opts.min)}${opts.why !== undefined ? ` (${opts.why})` : ''}` });
      return z.NEVER;
    }
    const problem = opts.linkDelay === true ? linkDelayProblem(ps) : undefined;
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return ps;
  });
}

/** A one-way link delay in ps: a duration of at most 1 s (engine/plausibility.ts). */
export function linkDelayField() {
  return durationField({ linkDelay: true });
}

/**
 * A size converted to whole bytes, >= min (default 1) and <= max (default 1 TiB); a bare
 * number only with `bare` (a key that names bytes: `bufferBytes`, `bytes`) or 0.
 */
export function sizeField(opts: { min?: number; max?: number; bare?: boolean } = {}) {
  const min = opts.min ?? 1;
  const max = opts.max ?? 2 ** 40;
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_SIZE }).transform((v, ctx): number => {
    if (!checkBare(v, 'size', opts.bare, ctx)) return z.NEVER;
    let bytes: number;
    try {
      bytes = parseBytes(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    if (!Number.isSafeInteger(bytes)) {
      ctx.addIssue({ code: 'custom', message: 'must be a whole, finite number of bytes' });
      return z.NEVER;
    }
    if (bytes < min) {
      ctx.addIssue({ code: 'custom', message: `must be >= ${min}` });
      return z.NEVER;
    }
    if (bytes > max) {
      ctx.addIssue({ code: 'custom', message: `must be <= ${max} bytes` });
      return z.NEVER;
    }
    return bytes;
  });
}

/**
 * Durations inside `network`: a number is ps already, a string is converted;
 * >= 0, or > 0 when `positive`; 0 or at least `minNonZero` ps when given.
 */
export function psField(opts: { positive?: boolean; minNonZero?: number; why?: string } = {}) {
  return z.union([z.number(), z.string()], { error: NUM_OR_STRING_TIME }).transform((v, ctx): number => {
    let ps: number;
    try {
      ps = typeof v === 'number' ? v : parseTimePs(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    if (!Number.isSafeInteger(ps) || ps < 0) {
      ctx.addIssue({ code: 'custom', message: 'must be a whole number of ps >= 0' });
      return z.NEVER;
    }
    if (opts.positive === true && ps === 0) {
      ctx.addIssue({ code: 'custom', message: 'must be > 0' });
      return z.NEVER;
    }
    if (opts.minNonZero !== undefined && ps !== 0 && ps < opts.minNonZero) {
      ctx.addIssue({ code: 'custom', message: `must be 0 or >= ${showPs(opts.minNonZero)}${opts.why !== undefined ? ` (${opts.why})` : ''}` });
      return z.NEVER;
    }
    return ps;
  });
}

/** A host id of the spec (checked against the built topology when resolved). */
export const hostId = z.number().int().min(0);
/** A node id of the spec. */
export const nodeId = z.number().int().min(0);
/** An integer >= 1. */
export const posInt = z.number().int().min(1);
/** A priority class 0..7. */
export const prio = z.number().int().min(0).max(7);
/** `all` or a list of host ids. */
export const hostSelection = z.union([z.literal('all'), z.array(hostId).min(1)], { error: 'expected "all" or a list of host ids' });

/** A load: a fraction of a link rate, > 0 and <= 1. */
export const loadField = z.number().gt(0).max(1);

// ---------------------------------------------------------------------------------------------
// CC parameters whose key names the unit (docs/extending.md, "Parameters")

/** The longest CC timer, target or period (1 s, in ps): beyond it a value is not a datacenter time scale. */
export const MAX_CC_TIME_PS = 1e12;
/** The largest CC size parameter (4 GiB): a queue target or counter above it is not a switch buffer's scale. */
export const MAX_CC_BYTES = 2 ** 32;

const PS_PER: Record<'ps' | 'ns' | 'us', number> = { ps: 1, ns: 1e3, us: 1e6 };

/** Shared checks of a unit-carrying parameter: finite, the sign, an upper bound (`maxText` says it in words). */
function checkRange(x: number, ctx: z.RefinementCtx, o: { allowZero?: boolean; max: number; maxText: string; int?: boolean }): boolean {
  const fail = (message: string): false => {
    ctx.addIssue({ code: 'custom', message });
    return false;
  };
  if (!Number.isFinite(x)) return fail('must be finite');
  if (o.allowZero === true ? x < 0 : x <= 0) return fail(o.allowZero === true ? 'must be >= 0' : 'must be > 0');
  if (o.int === true && !Number.isInteger(x)) return fail('must be a whole number');
  if (x > o.max) return fail(`must be <= ${o.maxText}`);
  return true;
}

/**
 * A CC rate parameter whose key ends in `Bps`: a number in bps, or a rate
 * string ("50Mbps") converted to bps; > 0 (>= 0 with `allowZero`) and at most
 * MAX_RATE_BPS, the fastest link a spec may have.
 */
export function bpsParam(opts: { allowZero?: boolean } = {}) {
  return z.union([z.number(), z.string()], { error: 'expected a rate: a number of bps or a string such as "50Mbps"' }).transform((v, ctx): number => {
    let bps: number;
    try {
      bps = typeof v === 'number' ? v : parseRate(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    return checkRange(bps, ctx, { ...opts, max: MAX_RATE_BPS, maxText: '1e14 bps (100 Tbps, the fastest link a spec may have)' }) ? bps : z.NEVER;
  });
}

/**
 * A CC size parameter whose key ends in `Bytes`: a number of bytes, or a size
 * string ("75KB") converted to bytes; > 0 (>= 0 with `allowZero`), whole with
 * `int`, at most `max` (default MAX_CC_BYTES).
 */
export function bytesParam(opts: { allowZero?: boolean; int?: boolean; max?: number } = {}) {
  const max = opts.max ?? MAX_CC_BYTES;
  return z.union([z.number(), z.string()], { error: 'expected a size: a number of bytes or a string such as "75KB"' }).transform((v, ctx): number => {
    let bytes: number;
    try {
      bytes = typeof v === 'number' ? v : parseBytes(v);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    const maxText = max === MAX_CC_BYTES ? `${max} bytes (4 GiB, more than any switch buffer)` : `${max} bytes`;
    return checkRange(bytes, ctx, { ...opts, max, maxText }) ? bytes : z.NEVER;
  });
}

/**
 * A CC time parameter whose key ends in `Ps`, `Ns` or `Us` (`unit`): a number
 * in that unit, or a duration string ("5us") converted to it; > 0 (>= 0 with
 * `allowZero`) and at most MAX_CC_TIME_PS (1 s).
 */
export function timeParam(unit: 'ps' | 'ns' | 'us', opts: { allowZero?: boolean } = {}) {
  const per = PS_PER[unit];
  return z.union([z.number(), z.string()], { error: `expected a duration: a number of ${unit} or a string such as "10us"` }).transform((v, ctx): number => {
    let x: number;
    try {
      x = typeof v === 'number' ? v : parseTimePs(v) / per;
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: errText(e) });
      return z.NEVER;
    }
    return checkRange(x, ctx, { ...opts, max: MAX_CC_TIME_PS / per, maxText: `${short(MAX_CC_TIME_PS / per)} ${unit} (1 s: longer is not a datacenter time scale)` }) ? x : z.NEVER;
  });
}
