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
 * most of what a faster hop is (README, Performance).
 *
 * How: each build's bench child runs the scenario twice under cachegrind, to
 * `--from` and to `--to` simulated ms (the two at once, one per core). The
 * difference of the two runs' totals divided by the difference of their
 * events is the cost of an event in the steady part of the run: start-up,
 * module loading, network construction and most JIT compilation cancel out.
 * Cachegrind counts every thread, so V8's background compiler and GC threads
 * are included; their share between the two cut-offs is small (under 3 % in
 * (c)). The L1 model is 48 KiB, 12-way, 64-byte lines, the data cache of the
 * machines this project is measured on; the counts of that model, not of the
 * hardware.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';

/** What one cachegrind run reports. */
export interface CachegrindRun {
  events: number;
  /** instructions executed */
  ir: number;
  /** data reads and writes */
  dRefs: number;
  /** L1 data-cache misses, reads and writes */
  d1Misses: number;
}

/** One build's cost per event between the two cut-offs. */
export interface PerEvent {
  events: number;
  instructions: number;
  dataRefs: number;
  d1Misses: number;
}

/** A count from cachegrind's summary line `label: 1,234 ...` (its words padded by spaces); throws if the line is missing. */
function summaryCount(text: string, label: string): number {
  const m = new RegExp(`==\\d+== ${label.split(' ').join('\\s+')}:\\s+([\\d,]+)`).exec(text);
  if (m === null) throw new Error(`cachegrind output has no "${label}" line`);
  return Number(m[1]!.replace(/,/g, ''));
}

/** Reads cachegrind's summary (its stderr) and the bench child's result line (its stdout). */
export function parseRun(stdout: string, stderr: string): CachegrindRun {
  const line = stdout.trim().split('\n').pop() ?? '';
  let events: unknown;
  try {
    events = (JSON.parse(line) as { events?: unknown }).events;
  } catch {
    throw new Error(`the bench child printed no result line (got "${line.slice(0, 80)}")`);
  }
  if (typeof events !== 'number') throw new Error('the bench child result has no event count');
  return {
    events,
    ir: summaryCount(stderr, 'I refs'),
    dRefs: summaryCount(stderr, 'D refs'),
    d1Misses: summaryCount(stderr, 'D1 misses'),
  };
}

/** The cost of an event between a short run and a longer one of the same scenario. */
export function perEvent(short: CachegrindRun, long: CachegrindRun): PerEvent {
  const events = long.events - short.events;
  if (!(events > 0)) throw new Error(`the longer run executed ${long.events} events, not more than the shorter run's ${short.events}`);
  return {
    events,
    instructions: (long.ir - short.ir) / events,
    dataRefs: (long.dRefs - short.dRefs) / events,
    d1Misses: (long.d1Misses - short.d1Misses) / events,
  };
}

const VALGRIND_ARGS = ['--tool=cachegrind', '--cache-sim=yes', '--D1=49152,12,64', '--cachegrind-out-file=/dev/null', '--smc-check=all-non-file'];

/**
 * V8 compiles and collects garbage on background threads, which cachegrind
 * counts too, and when a function's optimized code arrives depends on how
 * those threads were scheduled; its heap sizing also reads the clock. Two
 * identical runs of (c) then differed by 4 % (1-3 ms: 1,810 and 1,889
 * instructions per event), and by 1.4 % with `--single-threaded` alone.
 * `--predictable` (one thread, a fixed GC schedule, fixed hash seeds) makes
 * them agree: 1,564.3 and 1,564.7 (2-4 ms). It also changes how much of the
 * compiling lands on the measured thread, so its counts are only comparable
 * with each other.
 */
const NODE_ARGS = ['--predictable'];

function runUnderCachegrind(dir: string, scenario: string, untilMs: number): Promise<CachegrindRun> {
  const script = join(dir, 'dist', 'bench', 'bench.js');
  return new Promise((done, fail) => {
    const child = spawn('valgrind', [...VALGRIND_ARGS, process.execPath, ...NODE_ARGS, script, '--child', scenario, '--until-ms', String(untilMs)], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
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
        done(parseRun(out, err));
      } catch (e) {
        fail(e as Error);
      }
    });
  });
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
    .option('-s, --scenario <name>', 'bench scenario (a, b2, c, d; not b, e or s)', 'c')
    .option('--from <ms>', 'the shorter run stops at this simulated time', positive('--from'), 2)
    .option('--to <ms>', 'the longer run stops at this simulated time', positive('--to'), 4)
    .action(async (builds: string[], opts: { scenario: string; from: number; to: number }) => {
      if (!['a', 'b2', 'c', 'd'].includes(opts.scenario)) program.error(`--scenario must be one of a, b2, c, d, got "${opts.scenario}"`);
      if (opts.to <= opts.from) program.error(`--to (${opts.to}) must be later than --from (${opts.from})`);
      if (spawnSync('valgrind', ['--version']).error !== undefined) program.error('valgrind is not installed (Debian: apt-get install valgrind)');
      const dirs = builds.map((b) => resolve(b));
      for (const d of dirs) {
        if (!existsSync(join(d, 'dist', 'bench', 'bench.js'))) program.error(`${d}: no dist/bench/bench.js (build that checkout first: npx tsc -p tsconfig.json)`);
      }
      const rows: PerEvent[] = [];
      for (let i = 0; i < dirs.length; i++) {
        process.stderr.write(`${builds[i]}: (${opts.scenario}) to ${opts.from} and ${opts.to} ms under cachegrind...\n`);
        let pe: PerEvent;
        try {
          const [short, long] = await Promise.all([runUnderCachegrind(dirs[i]!, opts.scenario, opts.from), runUnderCachegrind(dirs[i]!, opts.scenario, opts.to)]);
          pe = perEvent(short, long);
        } catch (e) {
          program.error((e as Error).message);
          return;
        }
        rows.push(pe);
      }
      const width = Math.max(...builds.map((b) => b.length));
      console.log(`(${opts.scenario}), events between ${opts.from} and ${opts.to} simulated ms; per event; ratio = instructions / ${builds[0]}'s`);
      rows.forEach((r, i) => {
        const same = r.events === rows[0]!.events ? '' : '  ** events differ from the first build **';
        console.log(
          `${builds[i]!.padEnd(width)}  ${r.instructions.toFixed(1)} instructions  ${r.dataRefs.toFixed(1)} data refs  ${r.d1Misses.toFixed(2)} L1d misses  ratio ${(r.instructions / rows[0]!.instructions).toFixed(4)}  events ${r.events}${same}`,
        );
      });
    });
  await program.parseAsync();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
