/**
 * Temporary folders for tests, removed when the test file finishes: every
 * test that needs a scratch folder takes it from here (a test checks that no
 * other test file calls mkdtempSync itself), so `npm test` leaves nothing in
 * the system's temp folder.
 */
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new empty folder under the system temp folder, removed after the calling test file's tests. */
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), `ccsim-${prefix}-`));
  after(() => rmSync(d, { recursive: true, force: true }));
  return d;
}
