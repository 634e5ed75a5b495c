/**
 * Rules about the test suite itself: scratch folders come from
 * helpers/tmp.ts (removed after each file, so `npm test` leaves nothing
 * behind), and no test asserts on wall-clock time (the machine's load is not
 * the simulator's behaviour). Also a rule about the repository: no file holds
 * git merge-conflict markers (they were once committed in a README), and no shipped file
 * cites the private spec files or the session's shared folder (a clone has neither).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './helpers/tmp.js';

const TEST_SRC = fileURLToPath(new URL('../../test/', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));

function sources(): { name: string; text: string }[] {
  return readdirSync(TEST_SRC)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ name: f, text: readFileSync(join(TEST_SRC, f), 'utf8') }));
}

test('test files take scratch folders from helpers/tmp.ts only', () => {
  const files = sources();
  assert.ok(files.length > 5, `found ${files.length} test sources in ${TEST_SRC}`);
  const offenders = files.filter((f) => /\btmpdir\s*\(/.test(f.text)).map((f) => f.name);
  assert.deepEqual(offenders, [], 'use tempDir() from helpers/tmp.ts, which removes the folder after the file');
});

test('no test asserts on wall-clock time', () => {
  const offenders = sources()
    .filter((f) => f.name !== 'hygiene.test.ts' && /performance\.now\(\)|Date\.now\(\)/.test(f.text))
    .map((f) => f.name);
  assert.deepEqual(offenders, []);
});

let scratch = '';
test('tempDir gives an empty folder ...', () => {
  scratch = tempDir('hygiene');
  assert.deepEqual(readdirSync(scratch), []);
});
test.after(() => {
  // runs after the helper's own after() hook registered above: the folder is gone
  assert.ok(scratch === '' || !existsSync(scratch), `${scratch} was left behind`);
});

// ------------------------------------------------------------------------------- conflict markers

// built, not written out, so this file does not hold the markers it looks for
const OURS = '<'.repeat(7) + ' ';
const BASE = '|'.repeat(7);
const MID = '='.repeat(7);
const THEIRS = '>'.repeat(7) + ' ';

/**
 * Lines (1-based) of `text` that are merge-conflict markers: `<<<<<<< x`,
 * `>>>>>>> x` and diff3's `||||||| x` anywhere, and a bare `=======` only
 * inside an open `<<<<<<<` block (alone it is a Markdown heading underline).
 */
function conflictMarkerLines(text: string): number[] {
  const out: number[] = [];
  let open = false;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.replace(/\r$/, '');
    if (l.startsWith(OURS)) {
      open = true;
      out.push(i + 1);
    } else if (l.startsWith(THEIRS)) {
      open = false;
      out.push(i + 1);
    } else if (l.startsWith(BASE) && open) out.push(i + 1);
    else if (l === MID && open) out.push(i + 1);
  }
  return out;
}

const SKIP_DIRS = new Set(['.git', 'node_modules', 'dist', 'results']);

/** The files git tracks below `root`; undefined without git or outside a git checkout. */
function gitFiles(root: string): string[] | undefined {
  try {
    const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.split('\0').filter((f) => f !== '').map((f) => join(root, f));
  } catch {
    return undefined;
  }
}

/** Every file below `root` but git's folder, build output and results. */
function walkFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(join(dir, e.name));
      } else if (e.isFile()) files.push(join(dir, e.name));
    }
  };
  walk(root);
  return files;
}

/** `file:line` of every conflict marker in the text files (no NUL byte) among `files`. */
function conflictsIn(root: string, files: readonly string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    if (!existsSync(f) || !statSync(f).isFile()) continue; // tracked but deleted in the working tree
    const buf = readFileSync(f);
    if (buf.includes(0)) continue;
    for (const line of conflictMarkerLines(buf.toString('utf8'))) found.push(`${relative(root, f)}:${line}`);
  }
  return found;
}

test('conflict markers are found: ours / base / theirs lines, a bare ======= only between them', () => {
  const text = ['# Title', MID, 'a', `${OURS}HEAD`, 'x', `${BASE} base`, 'y', MID, 'z', `${THEIRS}main`, MID, ''].join('\n');
  assert.deepEqual(conflictMarkerLines(text), [4, 6, 8, 10]);
  assert.deepEqual(conflictMarkerLines(`a\n${MID}\nb\n<<<<<<<<< not a marker\n`), []);
  // and through the file scan, on a folder of its own
  const dir = tempDir('conflicts');
  writeFileSync(join(dir, 'README.md'), `intro\r\n${OURS}HEAD\r\nours\r\n${MID}\r\ntheirs\r\n${THEIRS}branch\r\n`);
  writeFileSync(join(dir, 'clean.md'), `Heading\n${MID}\n`);
  writeFileSync(join(dir, 'blob.bin'), Buffer.from([0, ...Buffer.from(`\n${OURS}x\n`)]));
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'copy.md'), `${OURS}x\n`);
  assert.deepEqual(conflictsIn(dir, walkFiles(dir)).sort(), ['README.md:2', 'README.md:4', 'README.md:6']);
});

test('no file of the repository holds git merge-conflict markers', () => {
  const files = gitFiles(REPO) ?? walkFiles(REPO);
  assert.ok(files.some((f) => f.endsWith('package.json')), `found ${files.length} files under ${REPO}`);
  assert.deepEqual(conflictsIn(REPO, files), [], 'resolve the merge: remove the conflict markers');
});

// ------------------------------------------------------------------ citations of files a clone lacks

/**
 * The project's specs were written from files outside the repository. A user's clone does
 * not have them, so nothing the repository ships may cite them: comments, docs, test names
 * and `source:` fields cite the papers or the project's own docs/ pages (README "How to
 * cite"). The patterns are built from pieces so this file does not match itself.
 */
const MD = '.md';
const PRIVATE_SPEC = 'cc-seeds' + MD; // never a project file
const DOCS_ONLY = ['experiments' + MD, 'network-model' + MD]; // only as docs/<name>
const SHARED = ['..' + '/shared', '/work' + '/shared'];
const CITE_ROOTS = ['src/', 'test/', 'docs/', 'experiments/', 'data/', 'examples/', 'bench/'];
const CITE_FILES = ['README.md'];

/** Offending citations in `text`, as `line: excerpt`. */
function privateCitations(text: string): string[] {
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns: RegExp[] = [
    new RegExp(esc(PRIVATE_SPEC)),
    // one of the two shared names without the docs/ folder, and not part of a longer name
    ...DOCS_ONLY.map((n) => new RegExp(`(?<!docs/)(?<![\\w.-])${esc(n)}`)),
    ...SHARED.map((s) => new RegExp(esc(s))),
  ];
  const found: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (patterns.some((p) => p.test(l))) found.push(`${i + 1}: ${l.trim().slice(0, 120)}`);
  }
  return found;
}

test('private-citation check finds the private spec, bare doc names and the shared folder, and passes docs/ citations', () => {
  const bad = [
    `see ${PRIVATE_SPEC} §4.2`,
    `(${DOCS_ONLY[1]} §3.2)`,
    `${DOCS_ONLY[0]} OSCAR-Fig10a`,
    `read ${SHARED[0]}/spec/x`,
    `spec/${DOCS_ONLY[1]} §1.4`,
    `/** ${SHARED[1]}/papers/oscar.txt */`,
  ];
  for (const b of bad) assert.equal(privateCitations(b).length, 1, `should flag: ${b}`);
  const good = [
    `docs/${DOCS_ONLY[1]} §11.2`,
    `(docs/${DOCS_ONLY[0]} §2)`,
    '[docs/network-model' + MD + '](docs/network-model' + MD + ')',
    `src/net/${DOCS_ONLY[1].replace(MD, '.ts')}`,
    'OSCAR App. C.6; PowerTCP §3.3, Alg. 1',
    `my-${DOCS_ONLY[0]}`,
  ];
  for (const g of good) assert.deepEqual(privateCitations(g), [], `should pass: ${g}`);
  assert.deepEqual(privateCitations(`a\n${bad[1]}\nb`), [`2: ${bad[1]}`]);
});

test('no shipped file cites the private specs or the shared folder (cite papers or docs/ pages)', () => {
  const all = gitFiles(REPO) ?? walkFiles(REPO);
  const files = all.filter((f) => {
    const r = relative(REPO, f).split('\\').join('/');
    return CITE_ROOTS.some((d) => r.startsWith(d)) || CITE_FILES.includes(r);
  });
  assert.ok(files.some((f) => f.endsWith('hygiene.test.ts')) && files.length > 50, `found ${files.length} files under ${REPO}`);
  const offenders: string[] = [];
  for (const f of files) {
    if (!existsSync(f) || !statSync(f).isFile()) continue;
    const buf = readFileSync(f);
    if (buf.includes(0)) continue;
    for (const hit of privateCitations(buf.toString('utf8'))) offenders.push(`${relative(REPO, f)}:${hit}`);
  }
  assert.deepEqual(offenders, [], 'cite the paper section or a docs/ page instead (README "How to cite")');
});

test('no source file under src/ is longer than 600 lines (split a file by job before it grows past that)', () => {
  const long: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        const lines = readFileSync(p, 'utf8').split('\n').length - 1;
        if (lines > 600) long.push(`${relative(REPO, p)}: ${lines} lines`);
      }
    }
  };
  walk(join(REPO, 'src'));
  assert.deepEqual(long, []);
});
