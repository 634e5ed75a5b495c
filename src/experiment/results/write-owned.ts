/**
 * Writing a single output file a command names (`schema -o`, `compare --json`,
 * `compare --report`) under the ownership rule (./ownership.ts): an existing
 * file is replaced only when ccsim wrote it and nobody edited it since, and the
 * new content goes to a temporary sibling first and is renamed into place, so
 * a full disk or a kill never leaves half a file.
 */
import { UsageError } from '../../engine/errors.js';
import { makeDirs } from './outdir.js';
import { jsonReplaceRefusal, reportReplaceRefusal } from './ownership.js';
import { writeFileAtomic } from './points.js';
import { dirname } from 'node:path';
import { existsSync, statSync } from 'node:fs';

function checkParent(path: string, what: string): void {
  const dir = dirname(path);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`cannot write ${what} to ${path}: ${dir} is not a folder`);
  try {
    makeDirs(dir);
  } catch (e) {
    throw new UsageError(`cannot write ${what} to ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Writes sealed JSON text (the caller sealed it) to `path`, refusing to replace a file ccsim did not write. */
export function writeOwnedJson(path: string, text: string, what: string): void {
  const refusal = jsonReplaceRefusal(path);
  if (refusal !== undefined) throw new UsageError(`cannot write ${what}: ${refusal}`);
  checkParent(path, what);
  writeFileAtomic(path, text);
}

/** Writes sealed HTML (the caller sealed it) to `path`, refusing to replace a file ccsim did not write. */
export function writeOwnedHtml(path: string, html: string, what: string): void {
  const refusal = reportReplaceRefusal(path);
  if (refusal !== undefined) throw new UsageError(`cannot write ${what}: ${refusal}`);
  checkParent(path, what);
  writeFileAtomic(path, html);
}
