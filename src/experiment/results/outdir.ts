/**
 * Result folders: where a run's files go, checked before anything is
 * simulated, and how they are put in place.
 *
 * Rules (the same for `ccsim run` and every point of a sweep):
 * - ccsim never deletes or overwrites a file it did not write. A folder that is
 *   not empty is accepted only if it is a ccsim result folder: its manifest.json
 *   is a sealed ccsim record of kind `result` (experiment/results/ownership.ts: version,
 *   kind, file list and a seal over the content, so a hand-made manifest does
 *   not pass); it lists the files ccsim wrote there, and only those are
 *   replaced or removed. Everything else (notebooks, plots, notes) stays.
 * - The location is checked for being creatable and writable before the
 *   simulation starts (`prepareOutDir`), so a bad `--out` fails in
 *   milliseconds, not after the run.
 * - Files are written into a staging folder inside the result folder and
 *   renamed into place; the manifest is written first marked `incomplete`
 *   (listing old and new files, so an interrupted write is still recognised as
 *   ccsim's) and last as the final record. A folder is a finished result only
 *   when its manifest is final and every file it lists exists
 *   (`isCompleteResultDir`).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { UsageError, errorMessage } from '../../engine/errors.js';
import { readOwnedRecord, sealJson } from './ownership.js';

export const MANIFEST_FILE = 'manifest.json';
/** Prefix of the staging folders and probe files ccsim creates inside a result folder. */
export const STAGING_PREFIX = '.ccsim-staging-';

/** A result folder checked by `prepareOutDir`. */
export interface OutDirPlan {
  /** absolute path */
  readonly dir: string;
  /** as the user wrote it, for messages */
  readonly shown: string;
  /** files a previous ccsim run wrote there (its manifest's list); empty for a new or empty folder */
  readonly owned: readonly string[];
  /** the previous manifest, if any */
  readonly previousManifest: Record<string, unknown> | undefined;
}

/** A plain file name (no folder part), as manifests list them. */
function isPlainName(n: unknown): n is string {
  return typeof n === 'string' && n !== '' && n !== '.' && n !== '..' && !/[/\\\0]/.test(n);
}

/** The `kind` of a result folder's manifest. */
export const RESULT_KIND = 'result';

/**
 * The manifest of a ccsim result folder, or undefined if `dir` has none or its
 * manifest.json is not provably ccsim's (not JSON, or not a sealed record of
 * kind `result` with a `ccsim` version and a `files` list: ownership.ts).
 */
export function readManifest(dir: string): Record<string, unknown> | undefined {
  return readOwnedRecord(join(dir, MANIFEST_FILE), RESULT_KIND, 'files');
}

/** The files a manifest says ccsim wrote (plain names only; the manifest itself included). */
export function manifestFiles(m: Record<string, unknown>): string[] {
  const files = (m['files'] as unknown[]).filter(isPlainName);
  return files.includes(MANIFEST_FILE) ? files : [...files, MANIFEST_FILE];
}

/** True when `dir` holds a finished ccsim result: a final manifest and every file it lists. */
export function isCompleteResultDir(dir: string): boolean {
  const m = readManifest(dir);
  if (m === undefined || m['incomplete'] === true) return false;
  return manifestFiles(m).every((f) => existsSync(join(dir, f)));
}

/** The lock a process holds on a result folder while it commits files there (inside the folder, so ignored as ccsim's own). */
export const LOCK_FILE = `${STAGING_PREFIX}lock`;
/** The lock a `ccsim sweep` holds on its sweep folder while it runs (one sweep per folder at a time). */
export const SWEEP_LOCK_FILE = `${STAGING_PREFIX}sweep-lock`;
/** A lock held by a process on another host is taken as stale after this long (a commit takes milliseconds to seconds). */
const FOREIGN_LOCK_STALE_MS = 10 * 60 * 1000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Who holds the lock of `dir` ("pid N on host H"), or undefined when it is free or stale. */
export function lockHolder(dir: string, file: string = LOCK_FILE): string | undefined {
  const p = join(dir, file);
  let text: string;
  let mtimeMs: number;
  try {
    text = readFileSync(p, 'utf8');
    mtimeMs = statSync(p).mtimeMs;
  } catch {
    return undefined;
  }
  const [host, pidText] = text.trim().split(' ');
  const pid = Number(pidText);
  if (host === hostname()) return Number.isInteger(pid) && pid > 0 && processAlive(pid) ? `pid ${pid}` : undefined;
  return Date.now() - mtimeMs < FOREIGN_LOCK_STALE_MS ? `pid ${pidText ?? '?'} on host ${host ?? '?'}` : undefined;
}

function busy(shown: string, holder: string): UsageError {
  return cannot(shown, `another ccsim process (${holder}) is writing results there; run one at a time per folder`);
}

/** Takes the commit lock of `dir` (removing a stale one); throws UsageError when a live process holds it. */
function acquireLock(dir: string, shown: string, file: string = LOCK_FILE, refusal: (holder: string) => UsageError = (h) => busy(shown, h)): void {
  const p = join(dir, file);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(p, `${hostname()} ${process.pid}\n`, { flag: 'wx' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw cannot(shown, errorMessage(e));
      const holder = lockHolder(dir, file);
      if (holder !== undefined) throw refusal(holder);
      rmSync(p, { force: true }); // stale: its process is gone
    }
  }
  throw refusal('unknown');
}

/**
 * Takes the sweep lock of the sweep folder `dir` for this process (released by
 * releaseSweepLock, or when the process exits): a second sweep into the same
 * folder is refused at once, naming the process that holds it, instead of both
 * writing the same points.
 */
export function acquireSweepLock(shown: string): void {
  const dir = resolvePath(shown);
  if (heldSweepLocks.has(dir)) return; // this process holds it already (reproduce prepares every sweep before running them)
  acquireLock(dir, shown, SWEEP_LOCK_FILE, (holder) =>
    new UsageError(`cannot run the sweep into ${shown}: another ccsim sweep (${holder}) is running into that folder; wait for it to end, or give this one another --out`),
  );
  heldSweepLocks.add(dir);
  if (heldSweepLocks.size === 1) process.once('exit', releaseAllSweepLocks);
}

const heldSweepLocks = new Set<string>();

export function releaseSweepLock(shown: string): void {
  const dir = resolvePath(shown);
  if (!heldSweepLocks.delete(dir)) return;
  rmSync(join(dir, SWEEP_LOCK_FILE), { force: true });
}

function releaseAllSweepLocks(): void {
  for (const d of [...heldSweepLocks]) releaseSweepLock(d);
}

function releaseLock(dir: string): void {
  rmSync(join(dir, LOCK_FILE), { force: true });
}

/** This process's prefix for staging names: `.ccsim-staging-<pid>@<host>-`, so a later run can tell a dead process's leftovers. */
export function stagingPrefix(): string {
  return `${STAGING_PREFIX}${process.pid}@${hostname().replace(/[^A-Za-z0-9.]/g, '_')}-`;
}

/** Leftovers of an unknown or remote writer are removed after this long. */
const STALE_STAGING_MS = 60 * 60 * 1000;

/**
 * Removes what killed ccsim processes left in `dir`: staging folders, probe
 * files and FCT scratch folders (`.ccsim-staging-*`) whose process is gone
 * (same host) or that are older than an hour (another host, or an older name
 * format). The lock file is left to acquireLock.
 */
export function removeStaleStaging(dir: string): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  const host = hostname().replace(/[^A-Za-z0-9.]/g, '_');
  for (const e of entries) {
    if (!e.startsWith(STAGING_PREFIX) || e === LOCK_FILE || e === SWEEP_LOCK_FILE) continue;
    const p = join(dir, e);
    const m = /^(\d+)@([A-Za-z0-9._]+)-/.exec(e.slice(STAGING_PREFIX.length));
    let stale: boolean;
    if (m !== null && m[2] === host) stale = Number(m[1]) !== process.pid && !processAlive(Number(m[1]));
    else {
      try {
        stale = Date.now() - lstatSync(p).mtimeMs > STALE_STAGING_MS;
      } catch {
        continue;
      }
    }
    if (stale) rmSync(p, { recursive: true, force: true });
  }
}

/**
 * Makes sure the folder of a checked plan exists before a run streams scratch
 * files into it; returns the topmost folder it created (to remove with
 * `removeCreatedDirs` if the run fails), or undefined.
 */
export function ensureOutDir(plan: OutDirPlan): string | undefined {
  try {
    return makeDirs(plan.dir);
  } catch (e) {
    throw cannot(plan.shown, errorMessage(e));
  }
}

/** Removes the empty folders ensureOutDir created (nothing if the folder is not empty). */
export function removeCreatedDirs(plan: OutDirPlan, top: string | undefined): void {
  if (top !== undefined) removeCreated(plan.dir, top);
}

function probeName(): string {
  return `${stagingPrefix()}probe-${randomBytes(4).toString('hex')}`;
}

/** Creates and removes a file in `dir`; throws the OS error if that is impossible. */
function probeWrite(dir: string): void {
  const p = join(dir, probeName());
  closeSync(openSync(p, 'wx'));
  unlinkSync(p);
}

function cannot(shown: string, why: string): UsageError {
  return new UsageError(`cannot write results to ${shown}: ${why}`);
}

/**
 * Checks an output folder before a run: it must be creatable and writable, and
 * if it exists and is not empty it must be a ccsim result folder; none of
 * `names` (the files the run will write) may be a file ccsim did not write.
 * Leaves no trace: a folder created to test writability is removed again.
 * Throws UsageError naming the folder and the reason.
 */
export function prepareOutDir(outDir: string, names: readonly string[] = []): OutDirPlan {
  const dir = resolvePath(outDir);
  const shown = outDir;
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw cannot(shown, 'it exists and is not a folder');
    removeStaleStaging(dir);
    const entries = readdirSync(dir).filter((e) => !e.startsWith(STAGING_PREFIX));
    const manifest = readManifest(dir);
    if (entries.length > 0 && manifest === undefined) {
      throw cannot(
        shown,
        'the folder is not empty and is not a ccsim result folder (no manifest.json written by ccsim); ' +
          'ccsim never replaces files it did not write: choose an empty or new folder',
      );
    }
    const holder = lockHolder(dir);
    if (holder !== undefined) throw busy(shown, holder);
    const owned = manifest === undefined ? [] : manifestFiles(manifest);
    for (const n of names) {
      if (entries.includes(n) && !owned.includes(n)) {
        throw cannot(shown, `${n} exists there and was not written by ccsim (not in its manifest); move it away first`);
      }
    }
    try {
      probeWrite(dir);
    } catch (e) {
      throw cannot(shown, `the folder is not writable (${errorMessage(e)})`);
    }
    return { dir, shown, owned, previousManifest: manifest };
  }
  // a new folder: the nearest existing ancestor must be a folder we can create it in
  let anc = dirname(dir);
  while (!existsSync(anc) && dirname(anc) !== anc) anc = dirname(anc);
  if (existsSync(anc) && !statSync(anc).isDirectory()) throw cannot(shown, `${anc} is a file, not a folder`);
  let created: string | undefined;
  try {
    created = makeDirs(dir);
    probeWrite(dir);
  } catch (e) {
    throw cannot(shown, errorMessage(e));
  } finally {
    if (created !== undefined) removeCreated(dir, created);
  }
  return { dir, shown, owned: [], previousManifest: undefined };
}

/**
 * mkdir -p without `recursive: true` (which spins forever on some paths, e.g.
 * under /proc, and reports ENOENT instead of EROFS on a read-only filesystem):
 * creates the missing folders top-down and returns the topmost one it created,
 * or undefined if `dir` existed.
 */
export function makeDirs(dir: string): string | undefined {
  const missing: string[] = [];
  let d = dir;
  while (!existsSync(d)) {
    missing.push(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  const created: string[] = [];
  try {
    for (let i = missing.length - 1; i >= 0; i--) {
      mkdirSync(missing[i]!);
      created.push(missing[i]!);
    }
  } catch (e) {
    for (let i = created.length - 1; i >= 0; i--) rmdirSync(created[i]!);
    throw e;
  }
  const top = created[0];
  return top;
}

/** Removes the empty folders from `dir` up to and including `top` (what one makeDirs created). */
function removeCreated(dir: string, top: string): void {
  let d = dir;
  for (;;) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top || dirname(d) === d) return;
    d = dirname(d);
  }
}

/** Writes a manifest: kind `result`, sealed (ownership.ts). */
function writeManifestFile(path: string, value: Record<string, unknown>): void {
  const { kind: _k, ...rest } = value;
  writeFileSync(path, JSON.stringify(sealJson({ ...rest, kind: RESULT_KIND }), null, 2) + '\n');
}

/**
 * Writes a run's files into a folder checked by `prepareOutDir`. `fill`
 * writes the files into the staging folder it is given and returns their names
 * (manifest.json excluded); `manifest` builds the manifest from the final file
 * list (manifest.json included) and must contain `ccsim` (version) and
 * `files`. Files of the previous ccsim result that the new one does not
 * contain are removed; any other file in the folder is left alone. Returns the
 * names written, manifest last.
 */
export function commitResultFiles(
  plan: OutDirPlan,
  fill: (stagingDir: string) => string[],
  manifest: (files: readonly string[]) => Record<string, unknown>,
): string[] {
  const { dir, shown } = plan;
  let createdTop: string | undefined;
  try {
    createdTop = makeDirs(dir);
  } catch (e) {
    throw cannot(shown, errorMessage(e));
  }
  try {
    acquireLock(dir, shown);
  } catch (e) {
    if (createdTop !== undefined) removeCreated(dir, createdTop);
    throw e;
  }
  let staging: string;
  try {
    staging = mkdtempSync(join(dir, stagingPrefix()));
  } catch (e) {
    releaseLock(dir);
    throw cannot(shown, errorMessage(e));
  }
  let moved = false;
  try {
    const names = fill(staging);
    for (const n of names) {
      if (!isPlainName(n) || n === MANIFEST_FILE) throw new Error(`internal: bad result file name ${JSON.stringify(n)}`);
    }
    // the folder may have changed since prepareOutDir: re-check ownership now
    const current = readManifest(dir);
    const owned = current === undefined ? [] : manifestFiles(current);
    for (const n of names) {
      if (existsSync(join(dir, n)) && !owned.includes(n)) {
        throw cannot(shown, `${n} exists there and was not written by ccsim (not in its manifest); move it away first`);
      }
    }
    const files = [...names, MANIFEST_FILE];
    const union = [...new Set([...owned, ...files])];
    // both manifests are written before anything moves: from step 1 on only renames happen, which need no
    // space, so a full disk fails here with the folder untouched
    const interimFile = join(staging, 'manifest.interim.json');
    const finalFile = join(staging, MANIFEST_FILE);
    // 1. an incomplete manifest that claims old and new files: a crash from here on leaves a folder that is
    //    still recognisably ccsim's, and not mistaken for a finished result
    writeManifestFile(interimFile, { ...manifest(files), incomplete: true, files: union });
    writeManifestFile(finalFile, manifest(files));
    renameSync(interimFile, join(dir, MANIFEST_FILE));
    moved = true;
    // 2. the new files
    for (const n of names) renameSync(join(staging, n), join(dir, n));
    // 3. files of the previous result that this one does not have
    for (const n of owned) {
      if (files.includes(n)) continue;
      const p = join(dir, n);
      try {
        if (lstatSync(p).isFile()) unlinkSync(p);
      } catch {
        // already gone
      }
    }
    // 4. the final manifest
    renameSync(finalFile, join(dir, MANIFEST_FILE));
    rmSync(staging, { recursive: true, force: true });
    releaseLock(dir);
    return files;
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    releaseLock(dir);
    if (!moved && createdTop !== undefined) removeCreated(dir, createdTop);
    // an OS error (a full disk, a quota, a folder that vanished) names the folder it happened in
    if (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && !(e instanceof UsageError)) {
      throw cannot(shown, `${errorMessage(e)}${moved ? ' (the folder holds an incomplete result: its manifest says so, and reports refuse it)' : '; nothing was changed there'}`);
    }
    throw e;
  }
}
