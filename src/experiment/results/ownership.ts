/**
 * Ownership: the one rule every command (run, sweep, report, reproduce,
 * claims) follows before it replaces or deletes a file — ccsim touches only
 * what it can prove it wrote.
 *
 * Proof is a seal: the SHA-256 of the file's own content under a ccsim-only
 * prefix, stored in the file. A JSON record ccsim owns (a result folder's
 * manifest.json, a sweep's sweep.json) carries `ccsim` (the version), `kind`
 * (what it records), its kind's keys (`files` or `points`) and `ccsimSeal`;
 * an HTML report ends with a seal comment. A hand-made manifest with the
 * right keys, or a file ccsim wrote and a user then edited, does not verify,
 * so ccsim leaves it alone and says why. The files a sealed manifest lists
 * are ccsim's too (experiment/results/outdir.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync } from 'node:fs';

export const SEAL_KEY = 'ccsimSeal';
const SEAL_PREFIX = 'ccsim-owned-v1\n';
const HTML_SEAL = /\n<!-- ccsim-seal ([0-9a-f]{64}) -->\n$/;

function digest(text: string): string {
  return createHash('sha256').update(SEAL_PREFIX).update(text).digest('hex');
}

/** `value` with its seal as the last key (value must be a plain JSON object without one). */
export function sealJson(value: Record<string, unknown>): Record<string, unknown> {
  const { [SEAL_KEY]: _old, ...rest } = value;
  return { ...rest, [SEAL_KEY]: digest(JSON.stringify(rest)) };
}

/** True when parsed JSON `v` is an object carrying a seal that matches its other keys. */
export function hasValidSeal(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const { [SEAL_KEY]: seal, ...rest } = v as Record<string, unknown>;
  return typeof seal === 'string' && seal === digest(JSON.stringify(rest));
}

/**
 * A sealed ccsim record of `kind` read from `path`, or undefined when the file
 * is missing, not JSON, or not provably ccsim's (no `ccsim` version, another
 * kind, a missing `listKey` array, or a seal that does not match).
 */
export function readOwnedRecord(path: string, kind: string, listKey: string): Record<string, unknown> | undefined {
  try {
    if (!lstatSync(path).isFile()) return undefined;
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!hasValidSeal(v)) return undefined;
    if (typeof v['ccsim'] !== 'string' || v['kind'] !== kind || !Array.isArray(v[listKey])) return undefined;
    return v;
  } catch {
    return undefined;
  }
}

/** HTML text with a seal comment appended. */
export function sealHtml(html: string): string {
  const body = html.endsWith('\n') ? html : `${html}\n`;
  return `${body}<!-- ccsim-seal ${digest(body)} -->\n`;
}

/** True when the text is sealed HTML whose content still matches its seal. */
export function isSealedHtml(text: string): boolean {
  const m = HTML_SEAL.exec(text);
  return m !== null && m[1] === digest(text.slice(0, m.index + 1));
}

/**
 * Why ccsim may not replace the file at `path` with a report, or undefined
 * when it may: the file does not exist, or it is a regular file ccsim wrote
 * (a sealed HTML report nobody edited since).
 */
export function reportReplaceRefusal(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!st.isFile()) return `${path} exists and is not a regular file`;
  let text: string;
  try {
    text = st.size > 256 * 1024 * 1024 ? '' : readFileSync(path, 'utf8');
  } catch (e) {
    return `${path} exists and cannot be read (${e instanceof Error ? e.message : String(e)})`;
  }
  if (!isSealedHtml(text)) {
    return `${path} exists and was not written by ccsim (or was edited since): ccsim never replaces files it did not write; move it away or choose another file`;
  }
  return undefined;
}

const SCHEMA_SEAL = /^written by `ccsim schema`; ccsim-seal ([0-9a-f]{64})$/;

/**
 * A JSON Schema sealed as ccsim's: the seal goes in the schema's `$comment`
 * (a keyword schema validators and editors ignore), over the other keys.
 */
export function sealSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $comment: _old, ...rest } = schema;
  return { ...rest, $comment: `written by \`ccsim schema\`; ccsim-seal ${digest(JSON.stringify(rest))}` };
}

function hasValidSchemaSeal(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const { $comment: c, ...rest } = v as Record<string, unknown>;
  const m = typeof c === 'string' ? SCHEMA_SEAL.exec(c) : null;
  return m !== null && m[1] === digest(JSON.stringify(rest));
}

/**
 * Why ccsim may not replace the file at `path` with a JSON file it writes
 * (`compare --json`, `schema -o`), or undefined when it may: the file does not
 * exist, or it is a sealed JSON file ccsim wrote that nobody edited since.
 */
export function jsonReplaceRefusal(path: string): string | undefined {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined; // nothing there
  }
  if (!st.isFile()) return `${path} exists and is not a regular file`;
  let v: unknown;
  try {
    v = st.size > 64 * 1024 * 1024 ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as unknown);
  } catch {
    v = undefined;
  }
  if (!hasValidSeal(v) && !hasValidSchemaSeal(v)) {
    return `${path} exists and was not written by ccsim (or was edited since): ccsim never replaces files it did not write; move it away or choose another file`;
  }
  return undefined;
}
