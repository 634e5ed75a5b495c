/**
 * `node dist/bench/compare.js [--rounds N] <scenario> <build> <build> ...`:
 * compares builds of ccsim on one bench scenario the way the tables in
 * docs/performance.md and docs/journal.md were measured. A build is a directory holding a built
 * checkout (`dist/bench/bench.js`), `.` for this one.
 *
 * The machines this project runs on change speed by 10-25 % over an hour, so
 * two builds' runs made minutes apart say little. Here the builds run one
 * child process at a time, alternating, with the order reversed every other
 * round (A B, B A, ...), so a drift affects both alike, and each build is
 * judged by the median over rounds of its time divided by the first build's
 * time in the same round. It also checks that every build executed the same
 * number of events as the first: a speed change must not change the results.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';

/** One bench child's result, as `bench.js --child` prints it. */
export interface BenchRun {
  wallS: number;
  cpuS: number;
  events: number;
}

export interface BuildSummary {
  build: string;
  walls: number[];
  medianWallS: number;
  minWallS: number;
  /** median over rounds of wall / the first build's wall in the same round */
  medianRatio: number;
  events: number;
  /** events equal to the first build's in every round */
  sameEvents: boolean;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `runs[b][r]`: build b's run in round r (every build has a run in every round). */
export function summarize(builds: readonly string[], runs: readonly (readonly BenchRun[])[]): BuildSummary[] {
  const base = runs[0]!;
  return builds.map((build, b) => {
    const rs = runs[b]!;
    if (rs.length !== base.length) throw new Error(`build ${build}: ${rs.length} runs, the first build has ${base.length}`);
    const walls = rs.map((r) => r.wallS);
    return {
      build,
      walls,
      medianWallS: median(walls),
      minWallS: Math.min(...walls),
      medianRatio: median(rs.map((r, i) => r.wallS / base[i]!.wallS)),
      events: rs[0]!.events,
      sameEvents: rs.every((r, i) => r.events === base[i]!.events),
    };
  });
}

/** A bench child's result, from the last line of its stdout (`bench.js --child` prints it; bench/instructions.ts reads it too). */
export function readChildResult(stdout: string): BenchRun {
  const line = stdout.trim().split('\n').pop() ?? '';
  let x: Partial<BenchRun>;
  try {
    x = JSON.parse(line) as Partial<BenchRun>;
  } catch {
    throw new Error(`the bench child printed no result line (got "${line.slice(0, 80)}")`);
  }
  if (typeof x.events !== 'number') throw new Error('the bench child result has no event count');
  return { wallS: Number(x.wallS), cpuS: Number(x.cpuS), events: x.events };
}

/** The bench script of a built checkout, or undefined (with `why`) when the checkout has not been built. */
export function benchScript(dir: string): { script: string; why?: string } {
  const script = join(dir, 'dist', 'bench', 'bench.js');
  return existsSync(script) ? { script } : { script, why: `${dir}: no dist/bench/bench.js (build that checkout first: npx tsc -p tsconfig.json)` };
}

function runChild(dir: string, scenario: string): BenchRun {
  const { script } = benchScript(dir);
  const r = spawnSync(process.execPath, [script, '--child', scenario], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    const why = r.stderr.split('\n').find((l) => /^[A-Za-z]*Error: /.test(l)) ?? `exit code ${r.status}`;
    throw new Error(`${script} --child ${scenario} failed: ${why.trim()}`);
  }
  return readChildResult(r.stdout);
}

function main(): void {
  const program = new Command()
    .name('compare')
    .description('alternate bench runs of several builds and compare them round by round')
    .argument('<scenario>', 'bench scenario (a, b, b2, c, d, e, s)')
    .argument('<builds...>', 'directories of built checkouts (. for this one); the first is the reference')
    .option('-r, --rounds <n>', 'rounds (each runs every build once)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`rounds must be a positive integer, got "${v}"`);
      return n;
    }, 6)
    .action((scenario: string, builds: string[], opts: { rounds: number }) => {
      if (builds.length < 2) program.error('give at least two builds');
      const dirs = builds.map((b) => resolve(b));
      for (const d of dirs) {
        const { why } = benchScript(d);
        if (why !== undefined) program.error(why);
      }
      const runs: BenchRun[][] = builds.map(() => []);
      for (let r = 0; r < opts.rounds; r++) {
        const order = dirs.map((_, i) => i);
        if (r % 2 === 1) order.reverse();
        for (const i of order) {
          let run: BenchRun;
          try {
            run = runChild(dirs[i]!, scenario);
          } catch (e) {
            program.error((e as Error).message);
            return;
          }
          runs[i]!.push(run);
          process.stderr.write(`round ${r + 1}/${opts.rounds} ${builds[i]}: ${run.wallS.toFixed(3)} s, ${run.events} events\n`);
        }
      }
      const width = Math.max(...builds.map((b) => b.length));
      console.log(`(${scenario}), ${opts.rounds} rounds, alternating; ratio = median of wall / ${builds[0]}'s wall in the same round`);
      for (const s of summarize(builds, runs)) {
        console.log(
          `${s.build.padEnd(width)}  median ${s.medianWallS.toFixed(3)} s  min ${s.minWallS.toFixed(3)} s  ratio ${s.medianRatio.toFixed(3)}  events ${s.events}${s.sameEvents ? '' : '  ** events differ from the first build **'}`,
        );
      }
    });
  program.parse();
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
