/**
 * The spec's JSON Schema (`ccsim schema`, committed as spec.schema.json for
 * editors): generated from the zod schema, so the committed file must equal
 * a fresh one; every example and experiment spec validates against it with a
 * JSON Schema validator (Ajv, draft 2020-12); it rejects what `validate`
 * rejects structurally (unknown keys, missing fields, wrong enum values);
 * every example names it on its first line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { specJsonSchema } from '../src/experiment/spec/json-schema.js';
import { CLI } from './helpers/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function specFiles(): string[] {
  const files = readdirSync(join(ROOT, 'examples'))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(ROOT, 'examples', f));
  for (const d of readdirSync(join(ROOT, 'experiments'), { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    for (const f of readdirSync(join(ROOT, 'experiments', d.name))) if (/\.ya?ml$/.test(f)) files.push(join(ROOT, 'experiments', d.name, f));
  }
  return files.sort();
}

test('spec.schema.json is what `ccsim schema` generates now', () => {
  const r = spawnSync(process.execPath, [CLI, 'schema'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(join(ROOT, 'spec.schema.json'), 'utf8'), r.stdout, 'regenerate: node dist/cli/ccsim.mjs schema > spec.schema.json');
  assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(specJsonSchema())));
});

test('every example names the schema on its first line', () => {
  for (const f of specFiles().filter((x) => x.includes('/examples/'))) {
    assert.equal(readFileSync(f, 'utf8').split('\n')[0], '# yaml-language-server: $schema=../spec.schema.json', f);
  }
});

test('every example and experiment spec validates against the schema (Ajv); structural mistakes do not', async (t) => {
  let Ajv2020: new (o: object) => { compile(s: object): ((d: unknown) => boolean) & { errors?: unknown[] | null } };
  try {
    Ajv2020 = ((await import('ajv/dist/2020.js' as string)) as { default: typeof Ajv2020 }).default;
  } catch {
    if (process.env['CI']) assert.fail('ajv (a devDependency) is missing in CI');
    t.skip('ajv is not installed (npm install): the schema check runs in CI');
    return;
  }
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(specJsonSchema());
  const files = specFiles();
  assert.ok(files.length > 20);
  for (const f of files) assert.ok(validate(parse(readFileSync(f, 'utf8'))), `${f}: ${JSON.stringify(validate.errors)}`);
  const demo = parse(readFileSync(join(ROOT, 'examples', 'demo.yaml'), 'utf8')) as Record<string, unknown>;
  const bad: [string, unknown][] = [
    ['unknown top-level key', { ...demo, topolgy: demo['topology'] }],
    ['missing topology', { ...demo, topology: undefined }],
    ['unknown profile', { ...demo, profile: 'nope' }],
    ['queues ports neither auto nor a list', { ...demo, metrics: { queues: { ports: 'all' } } }],
    ['negative seed', { ...demo, seed: -1 }],
    ['a CC parameter outside its range (a percent for a fraction)', { ...demo, cc: { name: 'hpcc', params: { eta: 95 } } }],
    ['a parameter the CC does not have', { ...demo, cc: { name: 'hpcc', params: { gamma: 0.9 } } }],
    ['an unknown CC name', { ...demo, cc: 'hpcc2' }],
  ];
  assert.ok(validate({ ...demo, cc: { name: 'hpcc', params: { eta: 1.5 }, byTag: { incast: { eta: 0.95 } } } }), JSON.stringify(validate.errors));
  for (const [what, spec] of bad) assert.equal(validate(JSON.parse(JSON.stringify(spec))), false, what);
});
