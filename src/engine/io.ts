/**
 * Reading input files safely: only regular files (not /dev/zero, a FIFO or a
 * folder) and only up to a size cap, so a wrong path fails at once with a
 * clear message instead of hanging or filling memory.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';

/** While set, every file read here is recorded: absolute path -> SHA-256 of its bytes. */
let reads: Map<string, string> | undefined;

/**
 * Runs `fn` and returns what it returned with the files it read through
 * readTextFileCapped and their content digests (a sweep point's hash covers
 * the CDF and topology files its spec names, so editing one re-runs it).
 */
export function recordFileReads<T>(fn: () => T): { value: T; files: Map<string, string> } {
  const outer = reads;
  const mine = new Map<string, string>();
  reads = mine;
  try {
    return { value: fn(), files: mine };
  } finally {
    reads = outer;
    if (outer !== undefined) for (const [k, v] of mine) outer.set(k, v);
  }
}

/** Default cap for a file a spec reads (spec, CDF, topology). */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Reads a UTF-8 text file of at most `maxBytes`. Throws an Error whose message
 * starts with `what` for a missing file, a non-regular file, or a file larger
 * than the cap.
 */
export function readTextFileCapped(path: string, what: string, maxBytes: number = DEFAULT_MAX_FILE_BYTES): string {
  // stat before open: opening a FIFO (or a device) blocks until a writer appears
  if (!statSync(path).isFile()) throw new Error(`${what} ${path} is not a regular file`);
  // non-blocking open as well, in case the path is swapped for a FIFO between the stat and the open
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${what} ${path} is not a regular file`);
    if (st.size > maxBytes) {
      throw new Error(`${what} ${path} is ${st.size.toLocaleString('en-US')} bytes, above the limit of ${maxBytes.toLocaleString('en-US')} (limits.fileBytes)`);
    }
    // read at most maxBytes + 1 even if the file grew since fstat
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n === buf.length) break;
    }
    if (n > maxBytes) throw new Error(`${what} ${path} is larger than the limit of ${maxBytes.toLocaleString('en-US')} bytes (limits.fileBytes)`);
    const bytes = buf.subarray(0, n);
    if (reads !== undefined) reads.set(resolvePath(path), createHash('sha256').update(bytes).digest('hex'));
    return bytes.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The deepest nesting any JSON or YAML input may have (specs, topology files,
 * result records). Real specs nest about 8 levels; parsers and validators
 * recurse once per level, so a file nested 200,000 levels deep would exhaust
 * the stack instead of failing with a message (docs/guide.md, validation limits).
 */
export const MAX_NESTING_DEPTH = 100;

/**
 * Where JSON text first nests deeper than `maxDepth` (objects and arrays, strings
 * skipped): `{ line, column }`, or undefined when it does not. A linear scan,
 * run before JSON.parse so a hostile file cannot overflow the stack.
 */
export function jsonTooDeepAt(text: string, maxDepth: number = MAX_NESTING_DEPTH): { line: number; column: number } | undefined {
  let depth = 0;
  let inString = false;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
    }
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return { line, column: i - lineStart + 1 };
    } else if (c === 93 || c === 125) depth--;
  }
  return undefined;
}

/** JSON.parse after the depth check; throws an Error naming `what`, the file, the line and the limit. */
export function parseJsonBounded(text: string, what: string, path: string, maxDepth: number = MAX_NESTING_DEPTH): unknown {
  const deep = jsonTooDeepAt(text, maxDepth);
  if (deep !== undefined) {
    throw new Error(`${what} ${path}: line ${deep.line}, column ${deep.column}: nested deeper than the limit of ${maxDepth} levels`);
  }
  return JSON.parse(text) as unknown;
}
