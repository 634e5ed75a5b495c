/**
 * Hostile input and failure hardening (issue 30): each test is one defect of
 * the adversarial pass, checked through the `ccsim` command as a user meets it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, assertNoStack, cliRig } from './helpers/cli-rig.js';

const { dir, ccsim, write } = cliRig('hardening');

const TINY = `name: tiny
topology: { type: star, hosts: 3, rate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: flows, flows: [{ src: 0, dst: 2, size: 10KB, start: 0us }] }
`;

function fifo(name: string): string {
  const p = join(dir, name);
  execFileSync('mkfifo', [p]);
  return p;
}

test('1. a FIFO as the spec, a CDF or a topology file is refused at once, not waited on', () => {
  const spec = fifo('spec.fifo');
  let r = ccsim('validate', spec);
  assert.equal(r.signal, null, 'validate hung on a FIFO spec');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not a regular file/);
  const cdf = fifo('cdf.fifo');
  r = ccsim('validate', write('cdf-fifo.yaml', TINY.replace(/workload:[^]*$/, `workload:\n  - { type: poisson, cdf: ${cdf}, load: 0.5, duration: 1us }\n`)));
  assert.equal(r.signal, null, 'validate hung on a FIFO CDF');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /workload\[0\]\.cdf: .*not a regular file/);
  const topo = fifo('topo.fifo');
  r = ccsim('run', write('topo-fifo.yaml', TINY.replace(/topology:.*\n/, `topology: { type: file, path: ${topo}, format: hpcc }\n`)), '--out', join(dir, 'out-fifo'));
  assert.equal(r.signal, null, 'run hung on a FIFO topology');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /topology\.path: .*not a regular file/);
  assert.ok(!existsSync(join(dir, 'out-fifo')));
  assertNoStack(r.stderr);
});

test('2. blow-ups: header counts, YAML size and alias bombs are refused before the work', () => {
  // a 40-byte HPCC file declaring 10^8 nodes: refused from its header, in well under a second of work
  write('huge.txt', '100000000 1 1\n0\n0 1 100Gbps 1us 0\n');
  let r = ccsim('validate', write('huge.yaml', TINY.replace(/topology:.*\n/, 'topology: { type: file, path: huge.txt, format: hpcc }\n')));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /topology\.path: .*huge\.txt:1: header declares 99,999,999 hosts, above the limit of 20,000 \(raise limits\.hosts/);
  assert.equal(r.signal, null, 'timed out');
  write('manylinks.txt', '3 1 10000000\n2\n0 2 100Gbps 1us 0\n');
  r = ccsim('validate', write('manylinks.yaml', TINY.replace(/topology:.*\n/, 'topology: { type: file, path: manylinks.txt, format: hpcc }\n')));
  assert.match(r.stderr, /header declares 10,000,000 links, above the limit of 200,000/);
  // a YAML list of a million values: refused by the value budget, pointing to JSON
  r = ccsim('validate', write('list.yaml', 'name: x\nl:\n' + '  - 1\n'.repeat(1_000_000)));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /the YAML has about 1,000,00\d values, above the budget of 200,000 .*JSON spec/);
  // an alias bomb: a spec error with the file, exit 2 (was exit 1)
  let bomb = 'a: &a [x, x, x, x, x, x, x, x, x, x]\n';
  for (const [p, q] of [['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'f']]) bomb += `${q}: &${q} [${Array(10).fill(`*${p}`).join(', ')}]\n`;
  r = ccsim('validate', write('bomb.yaml', bomb));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /invalid spec .*bomb\.yaml:\n {2}YAML: invalid YAML: Excessive alias count/);
  assertNoStack(r.stderr);
});

test('8. one ownership rule: no command replaces or deletes a file ccsim cannot prove it wrote', () => {
  const spec = write('own.yaml', TINY);
  // run: a hand-made manifest with the keys a ccsim manifest has does not make `run` delete the files it lists
  const victim = join(dir, 'victim');
  mkdirSync(victim);
  writeFileSync(join(victim, 'thesis.tex'), 'years of work');
  writeFileSync(join(victim, 'manifest.json'), JSON.stringify({ ccsim: '0.1.0', kind: 'result', files: ['thesis.tex', 'manifest.json'], ccsimSeal: 'f'.repeat(64) }));
  let r = ccsim('run', spec, '--out', victim);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not a ccsim result folder/);
  assert.equal(readFileSync(join(victim, 'thesis.tex'), 'utf8'), 'years of work');
  // a real result folder: its manifest is sealed over its content; editing the file list breaks the seal
  const res = join(dir, 'res');
  assert.equal(ccsim('run', spec, '--out', res).code, 0);
  const m = JSON.parse(readFileSync(join(res, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(m['kind'], 'result');
  assert.match(String(m['ccsimSeal']), /^[0-9a-f]{64}$/);
  writeFileSync(join(res, 'notes.md'), 'mine');
  writeFileSync(join(res, 'manifest.json'), JSON.stringify({ ...m, files: [...(m['files'] as string[]), 'notes.md'] }, null, 2));
  r = ccsim('run', spec, '--out', res);
  assert.equal(r.code, 2);
  assert.equal(readFileSync(join(res, 'notes.md'), 'utf8'), 'mine');
  // report: a user's report.html in the folder, and any file named by -o, is never replaced
  const run2 = join(dir, 'run2');
  assert.equal(ccsim('run', spec, '--out', run2).code, 0);
  writeFileSync(join(run2, 'report.html'), '<p>my own report</p>');
  r = ccsim('report', run2);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /report\.html exists and was not written by ccsim/);
  assert.equal(readFileSync(join(run2, 'report.html'), 'utf8'), '<p>my own report</p>');
  const precious = write('precious.txt', 'do not touch');
  r = ccsim('report', run2, '-o', precious);
  assert.equal(r.code, 2);
  assert.equal(readFileSync(precious, 'utf8'), 'do not touch');
  // ... but a report ccsim wrote is replaced, and a report it wrote and a user edited is not
  const rep = join(dir, 'rep.html');
  assert.equal(ccsim('report', run2, '-o', rep).code, 0);
  assert.equal(ccsim('report', run2, '-o', rep).code, 0);
  writeFileSync(rep, readFileSync(rep, 'utf8').replace('<body>', '<body><p>my note</p>'));
  assert.equal(ccsim('report', run2, '-o', rep).code, 2);
  assert.match(readFileSync(rep, 'utf8'), /my note/);
  // sweep: a hand-made sweep.json with a `points` array does not make a folder a sweep's
  const sw = join(dir, 'sw');
  mkdirSync(sw);
  writeFileSync(join(sw, 'sweep.json'), JSON.stringify({ ccsim: '0.1.0', kind: 'sweep', points: [] }));
  writeFileSync(join(sw, 'points.csv'), 'my,data\n');
  r = ccsim('sweep', write('own-sweep.yaml', `${TINY}sweep:\n  seed: [1, 2]\n`), '--out', sw);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /sweep\.json is not a sweep index written by ccsim/);
  assert.equal(readFileSync(join(sw, 'points.csv'), 'utf8'), 'my,data\n');
  assert.deepEqual(readdirSync(sw).sort(), ['points.csv', 'sweep.json']);
});

test('8. reproduce: a report folder ccsim did not write is refused before any sweep runs', () => {
  const root = join(dir, 'repro-root');
  const target = join(root, 'reproduce-sqcc-quick');
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, 'report.html'), 'my slides');
  const r = ccsim('reproduce', 'sqcc', '--quick', '--out', root, '--quiet');
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /cannot write results to .*reproduce-sqcc-quick: the folder is not empty and is not a ccsim result folder/);
  assert.equal(readFileSync(join(target, 'report.html'), 'utf8'), 'my slides');
  assert.deepEqual(readdirSync(root), ['reproduce-sqcc-quick'], 'no sweep folder was started');
  assert.equal(r.signal, null, 'timed out');
});

function ccsimAsync(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    c.on('exit', (code) => resolve({ code, stderr }));
  });
}

const POISSON = `name: conc
topology: { type: star, hosts: 8, rate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: poisson, cdf: websearch, load: 0.5, duration: 100us }
`;

test('3. concurrent runs into one --out: the folder is locked, never one run\'s manifest over the other\'s data', async () => {
  const spec = write('conc.yaml', POISSON);
  const out = join(dir, 'conc');
  // a live process holds the folder: refused, nothing written
  mkdirSync(out);
  writeFileSync(join(out, '.ccsim-staging-lock'), `${hostname()} ${process.pid}\n`);
  let r = ccsim('run', spec, '--out', out);
  assert.equal(r.code, 2);
  assert.match(r.stderr, new RegExp(`another ccsim process \\(pid ${process.pid}\\) is writing results there`));
  assert.deepEqual(readdirSync(out), ['.ccsim-staging-lock']);
  // a stale lock (its process is gone) is taken over and removed
  writeFileSync(join(out, '.ccsim-staging-lock'), `${hostname()} 999999999\n`);
  r = ccsim('run', spec, '--out', out);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!readdirSync(out).some((f) => f.startsWith('.ccsim')), readdirSync(out).join(' '));
  // references for two seeds, then both seeds at once into one folder, several times
  const ref = new Map<number, string>();
  for (const seed of [1, 2]) {
    const d = join(dir, `conc-ref-${seed}`);
    assert.equal(ccsim('run', spec, '--out', d, '--seed', String(seed)).code, 0);
    ref.set(seed, readFileSync(join(d, 'fct.csv'), 'utf8'));
  }
  for (let round = 0; round < 3; round++) {
    const both = await Promise.all([ccsimAsync('run', spec, '--out', out, '--seed', '1'), ccsimAsync('run', spec, '--out', out, '--seed', '2')]);
    for (const b of both) if (b.code !== 0) assert.match(b.stderr, /another ccsim process .* is writing results there/);
    assert.ok(both.some((b) => b.code === 0));
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { seed: number; incomplete?: boolean };
    assert.equal(m.incomplete, undefined);
    assert.equal(readFileSync(join(out, 'fct.csv'), 'utf8'), ref.get(m.seed), `round ${round}: manifest of seed ${m.seed}, data of the other`);
    assert.ok(!readdirSync(out).some((f) => f.startsWith('.ccsim')), readdirSync(out).join(' '));
  }
});

/** A 200 KiB tmpfs under the test folder (root only; undefined where mounting is not allowed). */
function smallDisk(name: string): string | undefined {
  const p = join(dir, name);
  mkdirSync(p, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', p], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  after(() => void spawnSync('umount', [p]));
  return p;
}

test('4. a full disk: exit 2 naming the folder, the previous result intact, no staging or temp file left; report refuses an incomplete result', (t) => {
  const disk = smallDisk('full');
  const big = write('big-out.yaml', `${POISSON}metrics:\n  queues: { ports: [{ link: [0, 8] }], interval: 10ns }\n`);
  if (disk !== undefined) {
    const out = join(disk, 'r');
    let r = ccsim('run', big, '--out', out);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /cannot write results to .*full\/r: ENOSPC: no space left on device.*nothing was changed there/);
    assertNoStack(r.stderr);
    assert.deepEqual(readdirSync(disk), []);
    // a finished small result, then a big run into it: the small result stays whole
    assert.equal(ccsim('run', write('small-out.yaml', TINY), '--out', out).code, 0);
    const before = readFileSync(join(out, 'manifest.json'), 'utf8');
    r = ccsim('run', big, '--out', out);
    assert.equal(r.code, 2);
    assert.equal(readFileSync(join(out, 'manifest.json'), 'utf8'), before);
    assert.ok(!readdirSync(out).some((f) => f.startsWith('.ccsim')), readdirSync(out).join(' '));
    // a report that does not fit: exit 2, no report.html.tmp-* left
    writeFileSync(join(disk, 'filler'), Buffer.alloc(150 * 1024));
    r = ccsim('report', out);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /ENOSPC/);
    assert.ok(!readdirSync(out).some((f) => f.includes('.tmp-')), readdirSync(out).join(' '));
  } else t.diagnostic('no tmpfs (not root): the full-disk part is skipped');
  // a result whose manifest is still marked incomplete (a commit that died half-way) is not reported
  const half = join(dir, 'half');
  assert.equal(ccsim('run', write('half.yaml', TINY), '--out', half).code, 0);
  const m = JSON.parse(readFileSync(join(half, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(half, 'manifest.json'), JSON.stringify({ ...m, incomplete: true }));
  const r = ccsim('report', half);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /manifest\.json is marked incomplete/);
  assert.ok(!existsSync(join(half, 'report.html')));
});

test('5. a run killed while simulating leaves nothing in the temp folder, and the next run there removes its staging', async () => {
  const tmp = join(dir, 'tmpdir');
  mkdirSync(tmp);
  const spec = write('long.yaml', POISSON.replace('duration: 100us', 'duration: 20ms').replace('name: conc', 'name: long'));
  for (const signal of ['SIGKILL', 'SIGTERM', 'SIGINT'] as const) {
    const out = join(dir, `killed-${signal}`);
    const child = spawn(process.execPath, [CLI, 'run', spec, '--out', out], { cwd: dir, env: { ...process.env, CI: '1', TMPDIR: tmp }, stdio: 'ignore' });
    // killed once its scratch FCT stream exists, i.e. while simulating
    for (let i = 0; i < 750 && !(existsSync(out) && readdirSync(out).some((f) => f.includes('fct-'))); i++) await new Promise((r) => setTimeout(r, 20));
    child.kill(signal);
    await new Promise((r) => child.once('exit', r));
    assert.deepEqual(readdirSync(tmp), [], `${signal}: files left in the temp folder`);
    assert.ok(!existsSync(join(out, 'manifest.json')), `${signal}: the run finished before it was killed`);
    // the next run into the folder removes the dead run's staging and succeeds
    const r = ccsim('run', write('tiny5.yaml', TINY), '--out', out);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readdirSync(out).filter((f) => f.startsWith('.ccsim')), [], signal);
  }
});

test('6. editing a CDF file a sweep uses re-runs its finished points (the point hash covers input files and the ccsim version)', () => {
  const cdf = write('sw6/my.cdf', '1000 0\n2000 0.5\n4000 1\n');
  const spec = write(
    'sw6/sweep.yaml',
    `name: sw6
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: poisson, cdf: my.cdf, load: 0.3, duration: 20us }
sweep:
  seed: [1, 2]
`,
  );
  const out = join(dir, 'sw6-out');
  let r = ccsim('sweep', spec, '--out', out, '--jobs', '1');
  assert.equal(r.code, 0, r.stderr);
  r = ccsim('sweep', spec, '--out', out, '--jobs', '1');
  assert.match(r.stdout, /2\/2 points finished, 2 skipped \(already finished\); 0 run/);
  const fct = readFileSync(join(out, 'points', 'seed=1', 'fct.csv'), 'utf8');
  writeFileSync(cdf, '100000 0\n200000 0.5\n400000 1\n');
  r = ccsim('sweep', spec, '--out', out, '--jobs', '1');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /2\/2 points finished; 2 run/);
  assert.notEqual(readFileSync(join(out, 'points', 'seed=1', 'fct.csv'), 'utf8'), fct);
});

test('6. a point hash does not depend on where the checkout lives: the same spec and CDF in another folder hash the same', async () => {
  const { planSweep } = await import('../src/experiment/run/sweep.js');
  const text = `name: sw6b
topology: { type: star, hosts: 4, rate: 100Gbps, delay: 1us }
cc: none
workload:
  - { type: poisson, cdf: cdf/my.cdf, load: 0.3, duration: 20us }
sweep:
  seed: [1, 2]
`;
  write('sw6b-a/cdf/my.cdf', '1000 0\n2000 0.5\n4000 1\n');
  write('elsewhere/sw6b-b/cdf/my.cdf', '1000 0\n2000 0.5\n4000 1\n');
  const a = planSweep(write('sw6b-a/s.yaml', text)).points.map((p) => p.hash);
  const b = planSweep(write('elsewhere/sw6b-b/s.yaml', text)).points.map((p) => p.hash);
  assert.equal(a.length, 2);
  assert.deepEqual(b, a);
  write('elsewhere/sw6b-b/cdf/my.cdf', '1000 0\n2000 0.6\n4000 1\n');
  assert.notDeepEqual(planSweep(join(dir, 'elsewhere/sw6b-b/s.yaml')).points.map((p) => p.hash), a);
});

test('7. values that map to one folder name get distinct point folders, and every point lands in flows.parquet', async () => {
  const { planSweep } = await import('../src/experiment/run/sweep.js');
  const spec = write('sw7.yaml', `${TINY.replace('name: tiny', 'name: sw7')}sweep:\n  workload[0].flows[0].tag: ['x_~2', 'x/', 'x?', 'X?', 'x_~1']\n`);
  const plan = planSweep(spec);
  const ids = plan.points.map((p) => p.id);
  assert.equal(new Set(ids.map((i) => i.toLowerCase())).size, ids.length, ids.join(' '));
  const out = join(dir, 'sw7-out');
  const r = ccsim('sweep', spec, '--out', out, '--jobs', '1');
  assert.equal(r.code, 0, r.stderr);
  const done = readdirSync(join(out, 'points')).filter((e) => existsSync(join(out, 'points', e, 'manifest.json')));
  assert.equal(done.length, 5, done.join(' '));
});

test('12. Slurm: a sweep folder with a space in its path reaches sbatch as single arguments and a quoted job script', () => {
  const bin = join(dir, 'fake-bin');
  mkdirSync(bin);
  const argsFile = join(dir, 'sbatch-args');
  // a stand-in sbatch: records its arguments one per line and answers a job id
  writeFileSync(join(bin, 'sbatch'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${argsFile}'\necho 4242\n`, { mode: 0o755 });
  const out = join(dir, 'my sweeps', 'run 1');
  const r = spawnSync(process.execPath, [CLI, 'sweep', write('sl12.yaml', `${TINY}sweep:\n  seed: [1, 2]\n`), '--slurm', '--out', out], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', PATH: `${bin}:${process.env['PATH'] ?? ''}` },
  });
  assert.equal(r.status, 0, r.stderr);
  const args = readFileSync(argsFile, 'utf8').split('\n');
  assert.ok(args.includes(`--output=${join(out, 'slurm', '%A_%a.out')}`), args.join(' | '));
  const script = readFileSync(join(out, 'slurm', 'job.sh'), 'utf8');
  // no #SBATCH value holds a path (they are split on white space), and the command quotes every path
  for (const l of script.split('\n').filter((x) => x.startsWith('#SBATCH'))) assert.doesNotMatch(l, /\//, l);
  assert.ok(script.includes(`--out '${out}'`), script);
  // the script runs as bash would run it: the quoted paths stay whole
  const dry = spawnSync('bash', ['-n', join(out, 'slurm', 'job.sh')], { encoding: 'utf8' });
  assert.equal(dry.status, 0, dry.stderr);
});

test('issue 29 / 9. units: 100GBps is not 100 Gb/s, 1Mb is not 1 MB, 1.0001KB is not rounded', async () => {
  const { parseRate, parseBytes } = await import('../src/engine/units.js');
  assert.throws(() => parseRate('100GBps'), /"100GBps" is bytes per second \(capital B\); rates are bits per second: write 800Gbps/);
  assert.throws(() => parseRate('100GB/s'), /bytes per second/);
  assert.equal(parseRate('100Gbps'), 100e9);
  assert.equal(parseRate('100gbps'), 100e9);
  assert.throws(() => parseBytes('1Mb'), /"1Mb" is bits \(lower-case b\); sizes are bytes: write 1MB for bytes, or 125000B/);
  assert.equal(parseBytes('1MB'), 1e6);
  assert.throws(() => parseBytes('1.0001KB'), /is 1000\.1 bytes: not a whole number of bytes/);
  assert.equal(parseBytes('1.5KB'), 1500);
  // through the command: the field is named
  const r = ccsim('validate', write('units.yaml', TINY.replace('rate: 100Gbps', 'rate: 100GBps').replace('size: 10KB', 'size: 1Mb')));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /topology\.rate: "100GBps" — .*bytes per second/);
  assert.match(r.stderr, /workload\[0\]\.flows\[0\]\.size: "1Mb" — .*is bits/);
});

test('10. crashes and unclear errors: huge sweeps, NaN, UTF-16, corrupt result files, a file named points', () => {
  // 10^6 points: a spec error, not "Maximum call stack size exceeded"
  const values = (n: number): string => `[${Array.from({ length: n }, (_, i) => i + 1).join(', ')}]`;
  let r = ccsim('validate', write('million.yaml', `${TINY}sweep:\n  seed: ${values(1000)}\n  workload[0].flows[0].start: ${values(1000).replace(/(\d+)/g, "$1ns")}\n`));
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /sweep: has 1,000,000 points, above the limit of 100,000/);
  assertNoStack(r.stderr);
  // seed: .nan names what is wrong
  r = ccsim('validate', write('nan.yaml', `${TINY}seed: .nan\n`));
  assert.match(r.stderr, /seed: NaN — must be a finite number, got NaN/);
  // a UTF-16 spec
  writeFileSync(join(dir, 'utf16.yaml'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TINY, 'utf16le')]));
  r = ccsim('validate', join(dir, 'utf16.yaml'));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is not UTF-8 text \(it looks like UTF-16/);
  // corrupt sweep.json / manifest.json / summary.json: exit 2 naming the file, no TypeError
  const run = join(dir, 'corrupt-run');
  assert.equal(ccsim('run', write('corrupt.yaml', TINY), '--out', run).code, 0);
  writeFileSync(join(run, 'summary.json'), '[1, 2');
  r = ccsim('report', run);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /summary\.json is corrupt \(not valid JSON/);
  writeFileSync(join(run, 'summary.json'), '{"x": 1}');
  r = ccsim('report', run);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /summary\.json is corrupt/);
  const sw = join(dir, 'corrupt-sweep');
  mkdirSync(sw);
  writeFileSync(join(sw, 'sweep.json'), '{"points": [null, 3]}');
  for (const args of [['report', sw], ['sweep', '--status', sw]]) {
    r = ccsim(...args);
    assert.equal(r.code, 2, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /sweep\.json is corrupt: points\[0\]/);
    assert.doesNotMatch(r.stderr, /TypeError/);
  }
  // a file named `points` where the sweep's folder goes
  const sp = join(dir, 'points-file');
  mkdirSync(sp);
  writeFileSync(join(sp, 'points'), 'x');
  r = ccsim('sweep', write('pf.yaml', `${TINY}sweep:\n  seed: [1]\n`), '--out', sp);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /not empty and is not a ccsim sweep|points exists and is not a folder/);
});

test('11. timer and sampling periods have lower bounds: 1 ps deadlock checks, 1 ps RTO, 1 ps queue samples are refused', () => {
  const r = ccsim(
    'validate',
    write(
      'bounds.yaml',
      `${TINY}stop: { maxTime: 1ms, deadlock: { checkEvery: 1ps } }\nnetwork: { transport: { rtoPs: 1 } }\nmetrics:\n  queues: { ports: [{ link: [0, 3] }], interval: 1ps }\n`,
    ),
  );
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /stop\.deadlock\.checkEvery: .* — must be >= 1us/);
  assert.match(r.stderr, /network\.transport\.rtoPs: 1 — must be 0 or >= 1us/);
  assert.match(r.stderr, /metrics\.queues\.interval: "1ps" — must be >= 1ns/);
});

test('9. validation gaps: __proto__ keys, 300-character names, absurd topology-file rates and delays', () => {
  let r = ccsim('validate', write('proto.yaml', `${TINY}__proto__: { x: 1 }\n`));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /__proto__: is not a spec field/);
  r = ccsim('validate', write('proto.json', JSON.stringify({ name: 'p', topology: { type: 'star', hosts: 3, rate: '100Gbps', delay: '1us', __proto__x: 1 } }).replace('__proto__x', '__proto__')));
  assert.match(r.stderr, /topology\.__proto__: is not a spec field/);
  r = ccsim('validate', write('longname.yaml', TINY.replace('name: tiny', `name: ${'n'.repeat(300)}`)));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /name: .* — must be at most 200 characters/);
  for (const [line, why] of [
    ['0 2 1e30 1us 0', /outside 1 kbps \.\. 100 Tbps/],
    ['0 2 1e-300 1us 0', /outside 1 kbps \.\. 100 Tbps|rate must be > 0/],
    ['0 2 100Gbps 1e10 0', /delay "1e10" is above 1 s/],
  ] as const) {
    write('absurd.txt', `3 1 2\n2\n${line}\n1 2 100Gbps 1us 0\n`);
    r = ccsim('validate', write('absurd.yaml', TINY.replace(/topology:.*\n/, 'topology: { type: file, path: absurd.txt, format: hpcc }\n')));
    assert.equal(r.code, 2, line);
    assert.match(r.stderr, why);
  }
});
