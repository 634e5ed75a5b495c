/**
 * `npm run bench:instr -- [-s c] [--from 2] [--to 4] [build...]`: counts the
 * machine instructions and L1 data-cache misses that one simulated event costs,
 * under valgrind's cachegrind, for one or more builds of ccsim.
 *
 * Why: this machine's speed drifts by 10-25 % within an hour, so a wall-time
 * comparison needs many alternating rounds (bench/compare.ts) and still cannot
 * see a 2 % change. An instruction count does not drift. The JIT-compiled hot
 * path of (c) runs at about three instructions per cycle (about 1,500
 * instructions in 150-180 ns per event), so fewer instructions per event is
 * most of what a faster hop is (docs/performance.md).
 *
 * How: each build's bench child runs the scenario twice under cachegrind, to
 * `--from` and to `--to` simulated ms (the two at once, one per core). The
 * difference of the two runs' totals divided by the difference of their
 * events is the cost of an event in the steady part of the run: start-up,
 * module loading and network construction cancel out. The instructions of
 * generated code (JIT-compiled JavaScript and V8's builtins) are counted
 * apart from the rest (the compiler, the garbage collector, Node's C++):
 * they are the steady-state cost and repeat to 0.2 %. The L1 model is 48 KiB, 12-way, 64-byte lines, the data cache of the
 * machines this project is measured on; the counts of that model, not of the
 * hardware.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { benchScript, readChildResult } from './compare.js';

/** What one cachegrind run reports. */
export interface CachegrindRun {
  events: number;
  /** instructions executed, all threads and all code */
  ir: number;
  /**
   * instructions in generated code: JIT-compiled JavaScript and V8's builtins
   * (cachegrind's "???" and "Builtins_*" functions), not the compiler, the
   * garbage collector or other C++. The steady-state cost of the simulation's
   * code, without the compiling that a change of that code also moves.
   */
  codeIr: number;
  /** data reads and writes */
  dRefs: number;
  /** L1 data-cache misses, reads and writes */
  d1Misses: number;
}

/** One build's cost per event between the two cut-offs. */
export interface PerEvent {
  events: number;
  instructions: number;
  codeInstructions: number;
  dataRefs: number;
  d1Misses: number;
}

/**
 * Totals of a cachegrind output file (`--cachegrind-out-file`): an `events:`
 * line names the count columns, `fn=` lines open a function, and each cost
 * line is a source line number followed by the counts in that order.
 */
export function parseCachegrindOut(text: string): Omit<CachegrindRun, 'events'> {
  let cols: string[] | null = null;
  let generated = false;
  let ir = 0;
  let codeIr = 0;
  let dRefs = 0;
  let d1Misses = 0;
  const at = (name: string): number => {
    const i = cols!.indexOf(name);
    if (i < 0) throw new Error(`cachegrind output has no "${name}" column (run it with --cache-sim=yes)`);
    return i + 1;
  };
  let iIr = 0;
  let iDr = 0;
  let iDw = 0;
  let iD1r = 0;
  let iD1w = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('events:')) {
      cols = line.slice(7).trim().split(/\s+/);
      [iIr, iDr, iDw, iD1r, iD1w] = [at('Ir'), at('Dr'), at('Dw'), at('D1mr'), at('D1mw')];
    } else if (line.startsWith('fn=')) {
      const fn = line.slice(3);
      generated = fn === '???' || fn.startsWith('Builtins_');
    } else if (cols !== null && line.length > 0 && line.charCodeAt(0) >= 48 && line.charCodeAt(0) <= 57) {
      const v = line.split(' ');
      const n = (i: number): number => (i < v.length ? Number(v[i]) : 0);
      ir += n(iIr);
      if (generated) codeIr += n(iIr);
      dRefs += n(iDr) + n(iDw);
      d1Misses += n(iD1r) + n(iD1w);
    }
  }
  if (cols === null) throw new Error('cachegrind output has no "events:" line');
  return { ir, codeIr, dRefs, d1Misses };
}

/** The cost of an event between a short run and a longer one of the same scenario. */
export function perEvent(short: CachegrindRun, long: CachegrindRun): PerEvent {
  const events = long.events - short.events;
  if (!(events > 0)) throw new Error(`the longer run executed ${long.events} events, not more than the shorter run's ${short.events}`);
  return {
    events,
    instructions: (long.ir - short.ir) / events,
    codeInstructions: (long.codeIr - short.codeIr) / events,
    dataRefs: (long.dRefs - short.dRefs) / events,
    d1Misses: (long.d1Misses - short.d1Misses) / events,
  };
}

const VALGRIND_ARGS = ['--tool=cachegrind', '--cache-sim=yes', '--D1=49152,12,64', '--smc-check=all-non-file'];

/**
 * V8 compiles and collects garbage on background threads, which cachegrind
 * counts too, and when a function's optimized code arrives depends on how
 * those threads were scheduled; its heap sizing also reads the clock. Two
 * identical runs of (c) then differed by 4 % (1-3 ms: 1,810 and 1,889
 * instructions per event). `--predictable` (one thread, a fixed GC schedule,
 * fixed hash seeds) narrows that, but the simulation still slices its run by
 * wall time (Simulation.runUntil), so how much compiling falls between the
 * two cut-offs varies: totals of identical runs of (c) came out 1,519.9,
 * 1,530.7 and 1,565.0. Generated code alone came out 1,514.1, 1,514.2 and
 * 1,517.4 (0.2 %): that is the count to compare builds by.
 */
const NODE_ARGS = ['--predictable'];

function runUnderCachegrind(dir: string, scenario: string, untilMs: number, nodeArgs: readonly string[]): Promise<CachegrindRun> {
  const { script } = benchScript(dir);
  const tmp = mkdtempSync(join(tmpdir(), 'ccsim-instr-'));
  const outFile = join(tmp, 'cachegrind.out');
  return new Promise<CachegrindRun>((done, fail) => {
    const child = spawn('valgrind', [...VALGRIND_ARGS, `--cachegrind-out-file=${outFile}`, process.execPath, ...NODE_ARGS, ...nodeArgs, script, '--child', scenario, '--until-ms', String(untilMs)], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0) {
        const why = err.split('\n').find((l) => /Error: /.test(l)) ?? `exit code ${code}`;
        fail(new Error(`${script} --child ${scenario} --until-ms ${untilMs} under cachegrind failed: ${why.trim()}`));
        return;
      }
      try {
        done({ events: readChildResult(out).events, ...parseCachegrindOut(readFileSync(outFile, 'utf8')) });
      } catch (e) {
        fail(e as Error);
      }
    });
  }).finally(() => rmSync(tmp, { recursive: true, force: true }));
}

function positive(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!(n > 0) || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a positive number of simulated ms, got "${v}"`);
    return n;
  };
}

async function main(): Promise<void> {
  const program = new Command()
    .name('instructions')
    .description('instructions and L1 data misses per simulated event under cachegrind, for one or more builds')
    .argument('[builds...]', 'directories of built checkouts (. for this one); the first is the reference', ['.'])
    .option('-s, --scenario <name>', 'bench scenario (a, b2, c, d, p, r; not b, e or s), with +bd: the FCT breakdown on', 'c')
    .option('--from <ms>', 'the shorter run stops at this simulated time', positive('--from'), 2)
    .option('--to <ms>', 'the longer run stops at this simulated time', positive('--to'), 4)
    .option('--node-arg <flag>', 'a further node or V8 flag for every run (repeatable), e.g. --node-arg=--max-inlined-bytecode-size=920', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .action(async (builds: string[], opts: { scenario: string; from: number; to: number; nodeArg: string[] }) => {
      if (!['a', 'b2', 'c', 'd', 'p', 'r'].includes(opts.scenario.replace(/\+bd$/, ''))) program.error(`--scenario must be one of a, b2, c, d, p, r, got "${opts.scenario}"`);
      if (opts.to <= opts.from) program.error(`--to (${opts.to}) must be later than --from (${opts.from})`);
      if (spawnSync('valgrind', ['--version']).error !== undefined) program.error('valgrind is not installed (Debian: apt-get install valgrind)');
      const dirs = builds.map((b) => resolve(b));
      for (const d of dirs) {
        const { why } = benchScript(d);
        if (why !== undefined) program.error(why);
      }
      const rows: PerEvent[] = [];
      for (let i = 0; i < dirs.length; i++) {
        process.stderr.write(`${builds[i]}: (${opts.scenario}) to ${opts.from} and ${opts.to} ms under cachegrind...\n`);
        let pe: PerEvent;
        try {
          const [short, long] = await Promise.all([runUnderCachegrind(dirs[i]!, opts.scenario, opts.from, opts.nodeArg), runUnderCachegrind(dirs[i]!, opts.scenario, opts.to, opts.nodeArg)]);
          pe = perEvent(short, long);
        } catch (e) {
          program.error((e as Error).message);
          return;
        }
        rows.push(pe);
      }
      const width = Math.max(...builds.map((b) => b.length));
      const flags = opts.nodeArg.length > 0 ? ` (node ${opts.nodeArg.join(' ')})` : '';
      console.log(`(${opts.scenario})${flags}, events between ${opts.from} and ${opts.to} simulated ms; per event; ratio to ${builds[0]}; compare the generated-code counts (0.2 % between identical runs; the totals vary by a few per cent with the compiling that falls in the window)`);
      rows.forEach((r, i) => {
        const same = r.events === rows[0]!.events ? '' : '  ** events differ from the first build **';
        console.log(
          `${builds[i]!.padEnd(width)}  ${r.codeInstructions.toFixed(1)} instructions in generated code (ratio ${(r.codeInstructions / rows[0]!.codeInstructions).toFixed(4)}), ${r.instructions.toFixed(1)} in all  ${r.dataRefs.toFixed(1)} data refs  ${r.d1Misses.toFixed(2)} L1d misses  events ${r.events}${same}`,
        );
      });
    });
  await program.parseAsync();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
