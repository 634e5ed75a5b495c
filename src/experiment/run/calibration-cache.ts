/**
 * The calibration behind `ccsim validate`'s cost estimate (estimate.ts
 * `calibrate`, most of a second) measured once per machine and kept in the
 * user's cache folder, so a second `validate` answers at once.
 *
 * Where: $CCSIM_CACHE_DIR, else $XDG_CACHE_HOME/ccsim, else ~/.cache/ccsim;
 * the file is `calibration.json`, a sealed ccsim record (ownership.ts) that
 * ccsim alone writes and replaces (a file there that ccsim did not write is
 * left alone). An entry holds for one machine and one simulator: the key is
 * ccsim's version, Node's version, the platform, the CPU model and the
 * number of cores; the record keeps the last few keys (several Node versions
 * on one machine). `validate --recalibrate` measures again and replaces the
 * entry. Nothing here ever fails a command: a cache folder that cannot be
 * read or written means measuring, as without a cache.
 */
import { lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { packageVersion } from '../../workload/package-root.js';
import type { Calibration } from './estimate-cost.js';
import { readOwnedRecord, sealJson } from '../results/ownership.js';

const KIND = 'calibration';
const FILE = 'calibration.json';
/** entries kept (one per machine/Node/ccsim key, newest first) */
const KEEP = 8;
/** 2: the median of 3 runs after 3 warm-up runs (1: one run after one warm-up, which caught the JIT cold) */
const CALIBRATION_METHOD = 2;

export interface CalibrationKey {
  /** how the calibration is measured (CALIBRATION_METHOD); entries of an older method are measured again */
  method: number;
  ccsim: string;
  node: string;
  platform: string;
  cpu: string;
  cores: number;
}

export interface CalibrationEntry extends Calibration {
  key: CalibrationKey;
  /** when it was measured (ISO 8601) */
  measuredAt: string;
}

export interface CalibrationResult extends CalibrationEntry {
  /** true when read from the cache, false when measured by this call */
  cached: boolean;
  /** the cache file, or undefined when there is no usable cache folder */
  file: string | undefined;
}

/** The cache folder ccsim uses (undefined when neither the variables nor a home folder name one). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const own = env['CCSIM_CACHE_DIR'];
  if (own !== undefined && own !== '') return own;
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'ccsim'); // the XDG spec ignores relative values
  try {
    const home = homedir();
    return home !== '' ? join(home, '.cache', 'ccsim') : undefined;
  } catch {
    return undefined;
  }
}

/** This machine and simulator. */
export function calibrationKey(): CalibrationKey {
  let cpu = 'unknown';
  try {
    cpu = cpus()[0]?.model.trim() || 'unknown';
  } catch {
    // no /proc/cpuinfo: the key still names the core count
  }
  return { method: CALIBRATION_METHOD, ccsim: packageVersion(), node: process.version, platform: `${process.platform}-${process.arch}`, cpu, cores: availableParallelism() };
}

function sameKey(a: CalibrationKey, b: CalibrationKey): boolean {
  return a.method === b.method && a.ccsim === b.ccsim && a.node === b.node && a.platform === b.platform && a.cpu === b.cpu && a.cores === b.cores;
}

function isEntry(v: unknown): v is CalibrationEntry {
  if (v === null || typeof v !== 'object') return false;
  const e = v as Partial<CalibrationEntry>;
  const k = e.key as Partial<CalibrationKey> | undefined;
  const pos = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && x > 0;
  return (
    pos(e.eventsPerPacket) &&
    pos(e.eventsPerSec) &&
    typeof e.measuredAt === 'string' &&
    k !== undefined &&
    k !== null &&
    typeof k.method === 'number' &&
    typeof k.ccsim === 'string' &&
    typeof k.node === 'string' &&
    typeof k.platform === 'string' &&
    typeof k.cpu === 'string' &&
    typeof k.cores === 'number'
  );
}

/** The entries of the cache file ccsim wrote; [] when it is missing, unreadable or not ccsim's. */
export function readCalibrations(file: string): CalibrationEntry[] {
  const rec = readOwnedRecord(file, KIND, 'entries');
  return rec === undefined ? [] : (rec['entries'] as unknown[]).filter(isEntry);
}

/** May ccsim write `file`? Yes when it is missing or a record ccsim wrote (never a user's file or a link). */
function mayWrite(file: string): boolean {
  try {
    lstatSync(file);
  } catch {
    return true;
  }
  return readOwnedRecord(file, KIND, 'entries') !== undefined;
}

function writeCalibrations(dir: string, file: string, entries: CalibrationEntry[]): void {
  try {
    if (!mayWrite(file)) return;
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(sealJson({ ccsim: packageVersion(), kind: KIND, entries }), null, 2) + '\n', { flag: 'wx' });
      renameSync(tmp, file);
    } finally {
      rmSync(tmp, { force: true });
    }
  } catch {
    // a read-only or missing home: the next validate measures again
  }
}

/** The built-in measurement, loaded (with the simulator) only when it runs. */
async function measureNow(): Promise<Calibration> {
  return (await import('./estimate.js')).calibrate();
}

/**
 * The calibration for this machine: the cached entry for its key, or a new
 * measurement (stored for next time) when there is none or `recalibrate`.
 * `measure` replaces the built-in measurement (tests).
 */
export async function cachedCalibration(
  opts: { recalibrate?: boolean; env?: NodeJS.ProcessEnv; measure?: () => Calibration | Promise<Calibration> } = {},
): Promise<CalibrationResult> {
  const dir = cacheDir(opts.env);
  const file = dir === undefined ? undefined : join(dir, FILE);
  const key = calibrationKey();
  const entries = file === undefined ? [] : readCalibrations(file);
  if (opts.recalibrate !== true) {
    const hit = entries.find((e) => sameKey(e.key, key));
    if (hit !== undefined) return { ...hit, cached: true, file };
  }
  const cal = await (opts.measure ?? measureNow)();
  const entry: CalibrationEntry = { key, eventsPerPacket: cal.eventsPerPacket, eventsPerSec: cal.eventsPerSec, measuredAt: new Date().toISOString() };
  if (dir !== undefined && file !== undefined && Number.isFinite(cal.eventsPerSec)) {
    writeCalibrations(dir, file, [entry, ...entries.filter((e) => !sameKey(e.key, key))].slice(0, KEEP));
  }
  return { ...entry, cached: false, file };
}
