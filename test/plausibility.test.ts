/**
 * Plausibility checks of a spec (issue 29): values that parse but cannot be
 * what the author meant are spec errors naming the field, not hours of
 * simulation or silently wrong results. CC parameters carry the ranges their
 * CC file declares, in validation (the error names `cc.params.<key>` and the
 * range) and in the editor schema (spec.schema.json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ccDefinitions } from '../src/cc/registry.js';
import { specJsonSchema } from '../src/experiment/spec/json-schema.js';
import { parseSpec } from '../src/experiment/spec/resolve.js';
import { paramRange } from '../src/experiment/spec/spec.js';
import { specErrorOf } from './helpers/specs.js';

const BASE = {
  name: 'p',
  topology: { type: 'star', hosts: 4, rate: '100Gbps', delay: '1us' },
  workload: [{ type: 'incast', fanIn: 3, size: '64KB', receiver: 0, at: ['1us'] }],
};

test('a CC parameter outside its range is an error naming cc.params.<key>, the range and what it is', () => {
  // a percent written for a fraction
  const eta = specErrorOf(() => parseSpec({ ...BASE, cc: { name: 'hpcc', params: { eta: 95 } } }));
  assert.match(eta, /cc\.params\.eta: 95 — must be in \(0, 2\]: target utilisation as a fraction, 0\.95 = 95 %/);
  // both ends of a fraction, and per-tag overrides
  const g = specErrorOf(() => parseSpec({ ...BASE, cc: { name: 'dcqcn', params: { g: 2, alphaInit: -1 } } }));
  assert.match(g, /cc\.params\.g: 2 — must be in \(0, 1\]/);
  assert.match(g, /cc\.params\.alphaInit: -1 — must be in \[0, 1\]/);
  const tag = specErrorOf(() => parseSpec({ ...BASE, cc: { name: 'powertcp', byTag: { incast: { gamma: 0 } } } }));
  assert.match(tag, /cc\.byTag\.incast\.gamma: 0 — must be in \(0, 1\]/);
  // a multiplicative decrease above 1 would make the rate negative
  assert.match(specErrorOf(() => parseSpec({ ...BASE, cc: { name: 'sqcc', params: { beta: 8 } } })), /cc\.params\.beta: 8 — must be in \[0, 1\]/);
  assert.match(specErrorOf(() => parseSpec({ ...BASE, cc: { name: 'ccc', params: { mdWeight: 25 } } })), /cc\.params\.mdWeight: 25 — must be in \[0, 1\]/);
  // the papers' values pass: HPCC 0.95, HPCC* 1.5, SQCC 0.008
  for (const cc of [{ name: 'hpcc', params: { eta: 0.95 } }, { name: 'hpcc', params: { eta: 1.5 } }, { name: 'sqcc', params: { beta: 0.008 } }]) {
    assert.equal(parseSpec({ ...BASE, cc }).cc.name, cc.name);
  }
});

test('every fraction-like CC parameter has both ends of its range declared', () => {
  // names that are fractions, weights or gains in (0, 1] by definition in their papers
  const fractional = /^(alpha|beta|gamma|g|alphaInit|eta|ceFraction|maxMdf|scalingMin|aiBdpFraction|maxRateRatio|uAi|uHai|uInit|uMin|uMax|mdWeight|rateOnFirstCnp|targetUtil|lambdaFloorRatio)$|Fraction$/;
  for (const c of ccDefinitions()) {
    const shape = (c.params as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    for (const [k, v] of Object.entries(shape)) {
      if (!fractional.test(k) || c.name === 'retcp' || k.endsWith('RttFraction')) continue;
      const r = paramRange(v as Parameters<typeof paramRange>[0]);
      assert.ok(r !== undefined && r.includes(','), `${c.name}.${k}: range ${r ?? 'none'}`);
    }
  }
});

test('spec.schema.json gives each CC its parameters with their ranges', () => {
  const s = specJsonSchema() as { properties: { cc: { anyOf: { properties?: { name?: { const?: string }; params?: { $ref?: string } } }[] } }; $defs: Record<string, { properties: Record<string, Record<string, unknown>>; additionalProperties?: boolean }> };
  const hpcc = s.properties.cc.anyOf.find((o) => o.properties?.name?.const === 'hpcc');
  assert.ok(hpcc);
  const ref = hpcc.properties!.params!.$ref!;
  const params = s.$defs[ref.replace('#/$defs/', '')]!;
  assert.deepEqual({ ex: params.properties['eta']!['exclusiveMinimum'], max: params.properties['eta']!['maximum'], def: params.properties['eta']!['default'] }, { ex: 0, max: 2, def: 0.95 });
  assert.equal(params.additionalProperties, false);
  assert.equal(s.properties.cc.anyOf.length, ccDefinitions().length + 1);
});

test('a time, rate or size written as a bare number is an error naming the field and suggesting units', () => {
  const delay = specErrorOf(() => parseSpec({ ...BASE, cc: 'hpcc', topology: { type: 'star', hosts: 4, rate: '100Gbps', delay: 1 } }));
  assert.match(delay, /^topology\.delay: 1 — is a bare number; write a unit, e.g\. "1us" or "1s" \(as a number it would be read as 1 s\)$/m);
  const rate = specErrorOf(() => parseSpec({ ...BASE, cc: 'hpcc', topology: { type: 'star', hosts: 4, rate: 100, delay: '1us' } }));
  assert.match(rate, /topology\.rate: 100 — is a bare number; write a unit, e.g\. "100Gbps" or "100bps"/);
  const bps = specErrorOf(() => parseSpec({ ...BASE, cc: 'hpcc', topology: { type: 'star', hosts: 4, rate: 25e9, delay: '1us' } }));
  assert.match(bps, /topology\.rate: 25000000000 — is a bare number; write a unit, e.g\. "25Gbps"/);
  const w = specErrorOf(() =>
    parseSpec({
      ...BASE,
      cc: 'hpcc',
      workload: [
        { type: 'incast', fanIn: 3, size: 64000, receiver: 0, at: [0.000005] },
        { type: 'poisson', cdf: 'websearch', load: 0.5, duration: 1 },
      ],
    }),
  );
  assert.match(w, /workload\[0\]\.size: 64000 — is a bare number; write a unit, e.g\. "64000B" or "64KB"/);
  assert.match(w, /workload\[0\]\.at\[0\]: 0\.000005 — is a bare number; write a unit, e.g\. "5us" \(as a number it would be read as 0\.000005 s\)/);
  assert.match(w, /workload\[1\]\.duration: 1 — is a bare number/);
  // 0 means the same in every unit; keys that name their unit take numbers in it
  const ok = parseSpec({
    ...BASE,
    cc: 'hpcc',
    workload: [{ type: 'flows', flows: [{ src: 1, dst: 0, size: '1500B', start: 0 }] }],
    network: { switch: { bufferBytes: 4_000_000 }, transport: { rtoPs: 5_000_000 } },
  });
  assert.equal(ok.workload.length, 1);
});

test('shipped specs write times, rates and sizes with units', async () => {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { fileURLToPath } = await import('node:url');
  const { parse } = await import('yaml');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(f)) files.push(p);
    }
  };
  walk(join(root, 'examples'));
  walk(join(root, 'experiments'));
  let checked = 0;
  for (const f of files) {
    const raw = parse(readFileSync(f, 'utf8')) as Record<string, unknown> | null;
    if (raw === null || typeof raw !== 'object' || !('topology' in raw)) continue;
    const { sweep: _s, figure: _f, quick, seeds: _d, ...base } = raw;
    for (const r of [base, ...(quick !== undefined ? [{ ...base, ...(quick as object) }] : [])]) {
      try {
        parseSpec(r);
      } catch (e) {
        assert.doesNotMatch(String(e), /bare number/, f);
      }
    }
    checked++;
  }
  assert.ok(checked > 40, `${checked} specs`);
});
