/** How the CLI reports an error, and its exit code. */
import { SpecError, UsageError, errorMessage } from '../engine/errors.js';

/** Some sweep points failed (already reported): exit code 3. */
export class PointsFailed extends Error {}

/** Prints an error the way the CLI does and returns the exit code (commander's own errors are handled by main.ts). */
export function reportError(e: unknown): number {
  if (e instanceof SpecError) {
    process.stderr.write(`invalid spec${e.file !== undefined ? ` ${e.file}` : ''}:\n`);
    for (const line of e.lines()) process.stderr.write(`  ${line}\n`);
    return 2;
  }
  if (e instanceof PointsFailed) return 3;
  if (e instanceof UsageError) {
    process.stderr.write(`error: ${e.message}\n`);
    return 2;
  }
  const os = osErrorMessage(e);
  if (os !== undefined) {
    process.stderr.write(`error: ${os}\n`);
    return 2;
  }
  process.stderr.write(`error: ${errorMessage(e)}\n`);
  if (process.env['CCSIM_DEBUG'] && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  return 1;
}

/** What the OS refused, for errors a command did not turn into a UsageError itself (a missing file, a folder where a file was expected, no space left, ...). */
const OS_REFUSALS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EEXIST: 'already exists',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  ENOTEMPTY: 'the folder is not empty',
  EXDEV: 'cannot move across file systems',
  EIO: 'input/output error',
};

/** "cannot open <path>: no such file or folder (ENOENT)" for an OS error of a file operation, else undefined. */
export function osErrorMessage(e: unknown): string | undefined {
  if (!(e instanceof Error)) return undefined;
  const err = e as NodeJS.ErrnoException & { dest?: string };
  const code = err.code;
  if (code === undefined || !(code in OS_REFUSALS)) return undefined;
  const what = err.syscall !== undefined ? `cannot ${err.syscall}` : 'cannot access';
  const where = err.path !== undefined ? ` ${err.path}${err.dest !== undefined ? ` -> ${err.dest}` : ''}` : '';
  return `${what}${where}: ${OS_REFUSALS[code]!} (${code})`;
}
