/**
 * The layers point one way (issue 11 item 3, issue 24): engine < net <
 * (cc, workload) < transport < metrics < sim < experiment < report < cli.
 * `engine` depends on no other layer of src/, and `net` only on `engine`. A NIC
 * knows sending flows through `NicFlow` and delivers packets to a
 * `HostEndpoint`, both defined in net; the transport implements them. The
 * experiment layer owns the figure-analysis contract (src/experiment/analysis.ts),
 * so it needs nothing from report or cli, and the papers' analyses under
 * experiments/ use only the experiment layer and the layers below it. The
 * check reads the import and re-export statements of every source file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PAPERS = fileURLToPath(new URL('../../experiments/', import.meta.url));

/** The layers each layer may import from (besides itself and node / npm packages). */
const BELOW_SIM = ['engine', 'net', 'cc', 'workload', 'transport', 'metrics'];
const ALLOWED: Record<string, readonly string[]> = {
  engine: [],
  net: ['engine'],
  experiment: [...BELOW_SIM, 'sim'],
  report: [...BELOW_SIM, 'sim', 'experiment'],
};

/** The src/ layers a paper's analyses (experiments/<paper>/*.ts) may import. */
const PAPER_ALLOWED: readonly string[] = [...BELOW_SIM, 'sim', 'experiment'];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Module specifiers of `import ... from`, `export ... from`, side-effect imports and dynamic imports. */
function importSpecifiers(text: string): string[] {
  const specs: string[] = [];
  const re = /(?:^|[;\s])(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) specs.push((m[1] ?? m[2] ?? m[3])!);
  return specs;
}

/** Layer (first folder under src/) a relative specifier in `file` resolves to; null for packages. */
function targetLayer(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const rel = relative(SRC, join(file, '..', spec));
  return rel.split(/[\\/]/)[0]!;
}

function violations(layer: string): string[] {
  const allowed = ALLOWED[layer]!;
  const bad: string[] = [];
  for (const file of tsFiles(join(SRC, layer))) {
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      const target = targetLayer(file, spec);
      if (target === null || target === layer || allowed.includes(target)) continue;
      bad.push(`${relative(SRC, file)} imports ${spec} (layer ${target})`);
    }
  }
  return bad;
}

test('the import scanner sees every form of import', () => {
  const text = [
    "import type { Flow } from '../transport/flow.js';",
    "import {\n  INT_MAX_HOPS,\n  TCD_CE,\n} from '../cc/types.js';",
    "export { x } from '../metrics/collect.js';",
    "import '../workload/index.js';",
    "const m = await import('../experiment/runner.js');",
    "import { NIL } from './packet.js';",
    "import { z } from 'zod';",
  ].join('\n');
  assert.deepEqual(importSpecifiers(text), ['../transport/flow.js', '../cc/types.js', '../metrics/collect.js', '../workload/index.js', '../experiment/runner.js', './packet.js', 'zod']);
  const host = join(SRC, 'net', 'host.ts');
  assert.equal(targetLayer(host, '../transport/flow.js'), 'transport');
  assert.equal(targetLayer(join(SRC, 'net', 'topology', 'files.ts'), '../../engine/io.js'), 'engine');
  assert.equal(targetLayer(host, './port.js'), 'net');
  assert.equal(targetLayer(host, 'node:fs'), null);
});

test('src/net imports from no layer above it (no transport, cc, metrics, ...)', () => {
  assert.ok(tsFiles(join(SRC, 'net')).length >= 10);
  assert.deepEqual(violations('net'), []);
});

test('src/engine imports from no other layer', () => {
  assert.deepEqual(violations('engine'), []);
});

test('src/experiment imports from no layer above it (no report, cli)', () => {
  assert.deepEqual(violations('experiment'), []);
});

test('src/report imports from no layer above it (no cli)', () => {
  assert.deepEqual(violations('report'), []);
});

/**
 * Where a relative specifier in experiments/ points: `src:<layer>`, `paper:<name>`
 * (a folder under experiments/), `experiments` (a file at its top), `outside`;
 * null for packages.
 */
function paperTarget(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const target = join(file, '..', spec);
  const inSrc = relative(SRC, target);
  if (!inSrc.startsWith('..')) return `src:${inSrc.split(/[\\/]/)[0]!}`;
  const inPapers = relative(PAPERS, target);
  if (inPapers.startsWith('..')) return 'outside';
  const parts = inPapers.split(/[\\/]/);
  return parts.length > 1 ? `paper:${parts[0]!}` : 'experiments';
}

test('experiments/: a paper\'s analyses import only src/experiment and the layers below it, and their own paper folder', () => {
  const files = tsFiles(PAPERS);
  assert.ok(files.some((f) => relative(PAPERS, f).includes('analysis')), 'experiments/ has analysis files');
  assert.equal(paperTarget(join(PAPERS, 'oscar', 'analysis.ts'), '../../src/experiment/results.js'), 'src:experiment');
  assert.equal(paperTarget(join(PAPERS, 'oscar', 'analysis.ts'), './fct.js'), 'paper:oscar');
  assert.equal(paperTarget(join(PAPERS, 'acc', 'analysis.ts'), '../oscar/fct.js'), 'paper:oscar');
  assert.equal(paperTarget(join(PAPERS, 'index.ts'), '../src/cli/main.js'), 'src:cli');
  const bad: string[] = [];
  for (const file of files) {
    const rel = relative(PAPERS, file);
    const parts = rel.split(/[\\/]/);
    // experiments/index.ts gathers the papers; a paper file stays in its folder
    const ownPaper = parts.length > 1 ? `paper:${parts[0]!}` : undefined;
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      const t = paperTarget(file, spec);
      if (t === null || t === ownPaper) continue;
      if (t.startsWith('src:') && PAPER_ALLOWED.includes(t.slice(4))) continue;
      if (ownPaper === undefined && t.startsWith('paper:')) continue;
      bad.push(`experiments/${rel} imports ${spec} (${t})`);
    }
  }
  assert.deepEqual(bad, []);
});
