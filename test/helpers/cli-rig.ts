/**
 * A scratch folder and the ccsim CLI run in it as a user would (CI=1, no
 * terminal): what the hardening tests share.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';
import { CLI } from './cli.js';

export { CLI };


export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  signal: NodeJS.Signals | null;
}

export interface CliRig {
  /** the scratch folder (removed after the test file) and the CLI's working folder */
  dir: string;
  ccsim(...args: string[]): CliResult;
  /** writes `text` to `name` under `dir` (folders created), returns its path */
  write(name: string, text: string): string;
}

export function cliRig(prefix: string): CliRig {
  const dir = tempDir(prefix);
  return {
    dir,
    ccsim(...args: string[]): CliResult {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: '1' } });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
    },
    write(name: string, text: string): string {
      const p = join(dir, name);
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, text);
      return p;
    },
  };
}

export function assertNoStack(s: string): void {
  assert.doesNotMatch(s, /^\s+at /m, `stack trace in output:\n${s}`);
}
