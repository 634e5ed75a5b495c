/**
 * The layers of src/ point one way (docs/architecture.md, "Layers"):
 *
 *   engine < net < (cc, workload) < transport < metrics < sim < sim/parallel
 *     < experiment/results < experiment/spec < experiment/run < report < cli
 *
 * A layer is a folder of src/, or a sub-folder named in ORDER (sim/parallel, the three jobs of
 * experiment/); a file belongs to the deepest layer that holds it.
 * A file may import from its own layer and from layers below it, never from a
 * layer above or beside it (cc and workload are siblings: neither imports the
 * other). Type-only imports count: a type is a dependency too. `src/index.ts`,
 * the library entry, sits on top and may import anything. No two folders of
 * src/ import each other, directly or through others (no cycle between
 * folders), so a folder can be read, tested and replaced from the bottom up.
 * The result layer (experiment/results) and the papers' figure analyses under experiments/,
 * which register with it (experiment/results/analysis.ts), reach no file of sim/ or net/,
 * directly or through other files: they read result folders, not the simulator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const PAPERS = fileURLToPath(new URL('../../experiments/', import.meta.url));

/** Layers from the bottom up; entries of one inner list are siblings of the same rank. */
const ORDER: readonly (readonly string[])[] = [
  ['engine'],
  ['net'],
  ['cc', 'workload'],
  ['transport'],
  ['metrics'],
  ['sim'],
  ['sim/parallel'],
  ['experiment/results'],
  ['experiment/spec'],
  ['experiment/run'],
  ['report'],
  ['cli'],
];
const LAYERS: readonly string[] = ORDER.flat();

function rank(layer: string): number {
  return ORDER.findIndex((l) => l.includes(layer));
}

/** The layer of a path relative to src/ (a file or folder): the deepest layer of ORDER holding it; else its first folder. */
function layerOf(rel: string): string {
  const parts = rel.split(/[\\/]/);
  for (let n = parts.length; n > 0; n--) {
    const l = parts.slice(0, n).join('/');
    if (LAYERS.includes(l)) return l;
  }
  return parts[0]!;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * Module specifiers of `import ... from`, `export ... from`, side-effect imports, `import x =
 * require(...)`, `import('...')` types and dynamic imports, found by TypeScript's own parser
 * (not a regular expression: a `;` or a comment inside an import's braces, or an import in a
 * string, cannot fool it). A dynamic import of a template with substitutions is returned as
 * its text with `${...}` for each substitution, so a relative one cannot pass unchecked; an
 * import of a computed value (a plug-in file's URL, experiment/plugins.ts) names no module here.
 */
function importSpecifiers(text: string): string[] {
  const sf = ts.createSourceFile('scan.ts', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specs: string[] = [];
  const literal = (n: ts.Node | undefined): string | undefined => (n !== undefined && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined);
  const add = (spec: string | undefined): void => {
    if (spec !== undefined) specs.push(spec);
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) add(literal(n.moduleSpecifier));
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) add(literal(n.moduleReference.expression));
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) add(literal(n.argument.literal));
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = n.arguments[0];
      if (arg !== undefined && ts.isTemplateExpression(arg)) add(arg.head.text + arg.templateSpans.map((t) => '${...}' + t.literal.text).join(''));
      else add(literal(arg));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return specs;
}

/** Layer (layerOf) a relative specifier in `file` resolves to; null for packages. */
function targetLayer(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return layerOf(relative(SRC, join(file, '..', spec)));
}

/** Every import against the layer order, as `file imports spec (layer x)`. */
function violations(): string[] {
  const bad: string[] = [];
  for (const file of tsFiles(SRC)) {
    const layer = layerOf(relative(SRC, file));
    if (layer.endsWith('.ts')) continue; // src/index.ts: the library entry
    const own = rank(layer);
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      const target = targetLayer(file, spec);
      if (target === null || target === layer) continue;
      // the CLI loads the papers' analyses (experiments/index.ts), which sit on the result layer
      if (target === '..' && layer === 'cli') continue;
      const r = rank(target);
      if (r < 0 || r >= own) bad.push(`${relative(SRC, file)} imports ${spec} (layer ${target})`);
    }
  }
  return bad;
}

/** The folder-level import graph: folder (relative to src/) -> folders it imports. */
function folderGraph(): Map<string, Set<string>> {
  const g = new Map<string, Set<string>>();
  for (const file of tsFiles(SRC)) {
    const from = relative(SRC, dirname(file));
    if (from === '') continue;
    const edges = g.get(from) ?? new Set<string>();
    g.set(from, edges);
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = relative(SRC, dirname(join(dirname(file), spec)));
      if (to !== from) edges.add(to);
    }
  }
  return g;
}

/** A cycle of folders as a list (first = last), or null. */
function findCycle(g: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    state.set(n, 1);
    stack.push(n);
    for (const m of g.get(n) ?? []) {
      if (state.get(m) === 1) return [...stack.slice(stack.indexOf(m)), m];
      if (state.get(m) === undefined) {
        const c = visit(m);
        if (c !== null) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return null;
  };
  for (const n of g.keys()) {
    if (state.get(n) !== undefined) continue;
    const c = visit(n);
    if (c !== null) return c;
  }
  return null;
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
    // what a regular expression got wrong: a `;` or comment inside the braces, template-literal and computed imports, import types, strings
    "import { a, /* ; */ b } from '../cli/main.js';",
    'const r = await import(`../report/html.js`);',
    'const s = await import(`../${layer}/x.js`);',
    'const u = await import(pathToFileURL(file).href);',
    "type T = import('../sim/types.js').SimInput;",
    "const text = \"import { q } from '../cli/fake.js'\";",
    'export * as ns from "../net/packet.js";',
  ].join('\n');
  assert.deepEqual(importSpecifiers(text), [
    '../transport/flow.js',
    '../cc/types.js',
    '../metrics/collect.js',
    '../workload/index.js',
    '../experiment/runner.js',
    './packet.js',
    'zod',
    '../cli/main.js',
    '../report/html.js',
    '../${...}/x.js',
    '../sim/types.js',
    '../net/packet.js',
  ]);
  const host = join(SRC, 'net', 'host.ts');
  assert.equal(targetLayer(host, '../transport/flow.js'), 'transport');
  assert.equal(targetLayer(join(SRC, 'net', 'topology', 'files.ts'), '../../engine/io.js'), 'engine');
  assert.equal(targetLayer(host, './port.js'), 'net');
  assert.equal(targetLayer(host, 'node:fs'), null);
  // a relative import whose path is computed names no known layer: a violation, never a pass
  assert.equal(rank(targetLayer(host, '../${...}/x.js')!), -1);
});

test('every folder of src/ is a known layer, and every file sits in one', () => {
  const layers = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
  // experiment/ is the three layers under it: no file of its own
  assert.deepEqual(layers.filter((l) => rank(l) < 0 && !LAYERS.some((k) => k.startsWith(`${l}/`))), []);
  assert.deepEqual(tsFiles(SRC).map((f) => relative(SRC, f)).filter((f) => f !== 'index.ts' && rank(layerOf(f)) < 0), []);
  assert.equal(layerOf('experiment/results/results.ts'), 'experiment/results');
  assert.equal(layerOf('sim/parallel/parallel.ts'), 'sim/parallel');
  assert.equal(layerOf('sim/simulate.ts'), 'sim');
  assert.equal(layerOf('net/topology/rdcn.ts'), 'net');
  assert.ok(layers.length >= 9);
});

test('no file of src/ imports from a layer above or beside its own', () => {
  assert.deepEqual(violations(), []);
});

test('the cycle finder finds a cycle and only a cycle', () => {
  const g = new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]);
  assert.deepEqual(findCycle(g), ['a', 'b', 'c', 'a']);
  g.get('c')!.delete('a');
  assert.equal(findCycle(g), null);
});

test('no two folders of src/ import each other, directly or through others', () => {
  const g = folderGraph();
  assert.ok(g.size >= 10);
  assert.equal(findCycle(g), null);
});

/**
 * The src/ layers a paper's analyses (experiments/<paper>/*.ts) may import: the result layer
 * and what it stands on (units and statistics, the workload's CDF files), never the simulator.
 */
const PAPER_ALLOWED: readonly string[] = ['engine', 'workload', 'metrics', 'experiment/results'];

/**
 * Where a relative specifier in experiments/ points: `src:<layer>`, `paper:<name>`
 * (a folder under experiments/), `experiments` (a file at its top), `outside`;
 * null for packages.
 */
function paperTarget(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const target = join(file, '..', spec);
  const inSrc = relative(SRC, target);
  if (!inSrc.startsWith('..')) return `src:${layerOf(inSrc)}`;
  const inPapers = relative(PAPERS, target);
  if (inPapers.startsWith('..')) return 'outside';
  const parts = inPapers.split(/[\\/]/);
  return parts.length > 1 ? `paper:${parts[0]!}` : 'experiments';
}

test("experiments/: a paper's analyses import only the result layer and what it stands on, and their own paper folder", () => {
  const files = tsFiles(PAPERS);
  assert.ok(files.some((f) => relative(PAPERS, f).includes('analysis')), 'experiments/ has analysis files');
  assert.equal(paperTarget(join(PAPERS, 'oscar', 'analysis.ts'), '../../src/experiment/results/results.js'), 'src:experiment/results');
  assert.equal(paperTarget(join(PAPERS, 'oscar', 'analysis.ts'), '../../src/sim/parallel/threads.js'), 'src:sim/parallel');
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

/**
 * Every file `from` reaches through relative imports (type-only ones too: a type is a
 * dependency), each with the file that first imported it, so a failure shows the chain.
 */
function reach(from: readonly string[]): Map<string, string | null> {
  const seen = new Map<string, string | null>();
  const todo: [string, string | null][] = from.map((f) => [f, null]);
  while (todo.length > 0) {
    const [file, by] = todo.pop()!;
    if (seen.has(file)) continue;
    seen.set(file, by);
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = join(dirname(file), spec).replace(/\.js$/, '.ts');
      if (existsSync(target)) todo.push([target, file]);
    }
  }
  return seen;
}

/** Files of sim/ and net/ that `from` reaches, each as its import chain back to a starting file. */
function simulatorReached(from: readonly string[]): string[] {
  const seen = reach(from);
  const chain = (f: string): string => {
    const out: string[] = [];
    for (let at: string | null | undefined = f; at != null; at = seen.get(at)) out.push(relative(join(SRC, '..'), at));
    return out.join(' <- ');
  };
  return [...seen.keys()].filter((f) => ['sim', 'net'].includes(relative(SRC, f).split(/[\\/]/)[0]!)).map(chain);
}

test('the reachability walk follows imports through files and sees the simulator', () => {
  const fromRunner = simulatorReached([join(SRC, 'experiment', 'run', 'runner.ts')]);
  assert.ok(fromRunner.some((c) => c.startsWith('src/sim/simulate.ts <- ')), 'the runner reaches the simulator');
  assert.ok(fromRunner.some((c) => c.startsWith('src/net/')), 'and the network through it');
});

test('experiments/ and the result layer reach no file of sim/ or net/, directly or through other files', () => {
  const from = [...tsFiles(PAPERS), ...tsFiles(join(SRC, 'experiment', 'results'))];
  assert.ok(from.length > 20);
  assert.deepEqual(simulatorReached(from), []);
});
