/** How the CLI reports an error, and its exit code. */
import { SpecError, UsageError, errorMessage } from '../experiment/errors.js';

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
  process.stderr.write(`error: ${errorMessage(e)}\n`);
  if (process.env['CCSIM_DEBUG'] && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
  return 1;
}
