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
