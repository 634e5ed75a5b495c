#!/usr/bin/env node
/**
 * The `ccsim` command line: run, sweep, validate, report, reproduce, claims,
 * list, schema. This module only parses the command line; each command loads
 * what it uses when it runs (./run.ts, ./commands.ts, ./list.ts, ./report.ts), so
 * `ccsim --help` does not load the simulator or the charting library.
 *
 * Exit codes: 0 ok; 2 invalid spec or other user error (message only, no
 * stack trace); 3 some sweep points failed (each reported); 1 unexpected
 * internal error (set CCSIM_DEBUG=1 for its stack).
 */
import { availableParallelism } from 'node:os';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { addCompareCommands } from './compare-commands.js';
import { packageVersion } from '../workload/package-root.js';

type Commands = typeof import('./commands.js');
type RunCommands = typeof import('./run.js');
const commands = (): Promise<Commands> => import('./commands.js');
const runCommands = (): Promise<RunCommands> => import('./run.js');

/** the papers `reproduce` and `claims` know (src/report/published.ts PAPERS; a test keeps the two equal) */
export const PAPERS = 'oscar | powertcp | acc | ccc | sqcc';

function parsePositive(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer >= 1');
  return n;
}

function parseSeed(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('must be an integer >= 0');
  return n;
}

function buildProgram(): Command {
  const program = new Command();
  program
    .name('ccsim')
    .description('Packet-level datacenter congestion-control simulator')
    .version(packageVersion())
    .showHelpAfterError()
    // usage errors come back as CommanderError (inherited by the subcommands below)
    .exitOverride();

  program
    .command('run')
    .description('run an experiment spec and write its result directory')
    .argument('<spec>', 'experiment spec (.yaml, .yml or .json)')
    .option('-o, --out <dir>', 'result folder (default results/<spec name>, or results/<name>-seed<n> with --seed n)')
    .option('-s, --seed <n>', "override the spec's seed", parseSeed)
    .option('-q, --quiet', 'no progress bar and no summary')
    .option('--quick', "apply the spec's `quick:` block (reduced sizes)")
    .option('-t, --threads <n>', "worker threads for this one run (overrides the spec's `threads`; at most one per partition and per core)", parsePositive)
    .option('--explain-partition', 'print how the topology would be split for --threads (partitions, hosts, links, cross links, lookahead) and exit without running')
    .option('--breakdown', 'record where each flow\'s time went (metrics.breakdown: fct.csv columns, breakdown_ports, `ccsim why`)')
    .option('--check-fast-forward', 'run the spec packet by packet and with engine.fastForward (its options, or the defaults), print the per-flow FCT error and the slowdown differences, write nothing')
    .action(async (spec: string, o: Parameters<RunCommands['runCommand']>[1]) => (await runCommands()).runCommand(spec, o));

  program
    .command('validate')
    .description('check a spec (and build its topology and flows) without running it')
    .argument('<spec>', 'experiment spec (.yaml, .yml or .json)')
    .option('-s, --seed <n>', "override the spec's seed", parseSeed)
    .option('--quick', "apply the spec's `quick:` block (reduced sizes)")
    .option('--no-estimate', 'skip the cost estimate (flows, packets, events, wall time; calibrated by a short built-in run, cached per machine)')
    .option('--recalibrate', "measure the estimate's calibration again instead of using the cached one (~/.cache/ccsim, or $CCSIM_CACHE_DIR)")
    .option('-j, --jobs <n>', `a sweep's estimated wall time on n workers, as \`ccsim sweep -j n\` (default cores - 1 = ${Math.max(1, availableParallelism() - 1)})`, parsePositive)
    .action(async (spec: string, o: Parameters<RunCommands['validateCommand']>[1]) => (await runCommands()).validateCommand(spec, o));

  program
    .command('sweep')
    .description('run every point of a spec with a `sweep:` block on worker threads or as a Slurm job array (resumes a killed sweep)')
    .argument('[spec]', 'experiment spec with a sweep block (.yaml, .yml or .json)')
    .option('-o, --out <dir>', 'sweep folder (default results/<spec name>, results/<spec name>-quick with --quick)')
    .option('-j, --jobs <n>', `worker threads (default cores - 1 = ${Math.max(1, availableParallelism() - 1)})`, parsePositive)
    .option('--quick', "apply the spec's `quick:` block (reduced sizes)")
    .option('-q, --quiet', 'print only the final summary')
    .option('--point <i>', 'run only point i, in this process (what each Slurm array task runs)', parseSeed)
    .option('--slurm', 'submit the unfinished points as one Slurm job array (sbatch) instead of running them here')
    .option('--partition <p>', 'with --slurm: sbatch --partition')
    .option('--time <t>', 'with --slurm: sbatch --time per point, e.g. 2:00:00')
    .option('--mem <m>', 'with --slurm: sbatch --mem per point, e.g. 8G')
    .option('--status <dir>', 'show done / running / queued / failed points of a sweep folder')
    .action(async (spec: string | undefined, o: Parameters<Commands['sweepCommand']>[1]) => (await commands()).sweepCommand(spec, o));

  program
    .command('report')
    .description('write one self-contained HTML report (interactive charts, downloadable as SVG, tables as CSV) of a run or sweep folder; --svg/--png write figure files')
    .argument('<dir>', 'a run folder (manifest.json) or a sweep folder (sweep.json)')
    .option('-o, --out <file>', 'HTML file (default <dir>/report.html)')
    .option('--svg <figdir>', 'also write each chart as <figdir>/<chart>.svg (rendered on the server side)')
    .option('--png <figdir>', 'also write each chart as <figdir>/<chart>.png (needs the optional dependency @resvg/resvg-js)')
    .action(async (dir: string, o: { out?: string; svg?: string; png?: string }) => {
      const { reportCommand } = await import('./report.js');
      await reportCommand(dir, o);
    });

  program
    .command('why')
    .description('where the flows of a run lost their time: the FCT breakdown of a flow, the slowest flows or a tag, and the worst ports (needs metrics: { breakdown: true })')
    .argument('<results>', 'a run result folder written with metrics.breakdown')
    .option('--flow <id>', 'one flow', parseSeed)
    .option('--slowest <n>', 'the n flows with the highest slowdown (default 3)', parsePositive)
    .option('--tag <tag>', 'only flows with this tag (e.g. incast)')
    .action(async (dir: string, o: { flow?: number; slowest?: number; tag?: string }) => {
      const { whyText } = await import('../report/why.js');
      for (const line of whyText(dir, o)) process.stdout.write(line + '\n');
    });

  program
    .command('reproduce')
    .description(`run a paper's experiments (experiments/<paper>/) as one sweep and write a report with the published numbers and a verdict per claim`)
    .argument('<paper>', PAPERS)
    .option('--quick', 'reduced sizes (each spec\'s `quick:` block): minutes on 2 cores')
    .option('-j, --jobs <n>', `worker threads (default cores - 1 = ${Math.max(1, availableParallelism() - 1)})`, parsePositive)
    .option('-o, --out <dir>', 'results root: sweep folders and reproduce-<paper>/ go under it (default results)')
    .option('-q, --quiet', 'print only the final summary')
    .action(async (paper: string, o: Parameters<Commands['reproduceCommand']>[1]) => (await commands()).reproduceCommand(paper, o));

  program
    .command('claims')
    .description("a paper's published numbers next to the latest results on disk (runs nothing); --write-readme regenerates the table in experiments/<paper>/README.md")
    .argument('<paper>', PAPERS)
    .option('--quick', 'use the --quick results')
    .option('-o, --out <dir>', 'results root (default results)')
    .option('--write-readme', 'rewrite the generated table in experiments/<paper>/README.md (and, at full size, the record data/measured/<paper>.json)')
    .action(async (paper: string, o: Parameters<Commands['claimsCommand']>[1]) => (await commands()).claimsCommand(paper, o));

  program
    .command('canary')
    .description('re-run the cheapest claim-bearing experiments (seconds) and compare their values with the model fingerprint data/measured/model.json; exit 1 when one moved')
    .option('--update', 'write the values and their fingerprint to data/measured/model.json (after a deliberate model change: records of the old model become stale)')
    .option('-j, --jobs <n>', 'worker threads (default 2)', parsePositive)
    .action(async (o: Parameters<Commands['canaryCommand']>[0]) => (await commands()).canaryCommand(o));

  program
    .command('schema')
    .description('write the JSON Schema of a spec file (for editors: first line `# yaml-language-server: $schema=<file>`)')
    .option('-o, --out <file>', 'write to this file (default: standard output)')
    .option('--plugins <files...>', 'plug-in modules to load first: what they register (CCs, workload and topology types, ...) is in the schema')
    .action(async (o: { out?: string; plugins?: string[] }) => {
      const { specJsonSchema } = await import('../experiment/spec/json-schema.js');
      if (o.plugins !== undefined) await (await import('../experiment/run/plugins.js')).loadPlugins(o.plugins);
      const text = JSON.stringify(specJsonSchema(), null, 2) + '\n';
      if (o.out === undefined) process.stdout.write(text);
      else {
        (await import('../experiment/results/write-owned.js')).writeOwnedJson(o.out, text, 'the schema');
        process.stdout.write(`schema: ${o.out}\n`);
      }
    });

  program
    .command('list')
    .description('list topologies, workloads, congestion-control algorithms, queue disciplines and transport strategies')
    .argument('[what]', 'topologies | workloads | ccs | disciplines | transport (default: all)')
    .option('--plugins <files...>', 'plug-in modules to load first: what they register (CCs, workload and topology types, disciplines, ...) is listed')
    .action(async (what: string | undefined, o: { plugins?: string[] }) => {
      const { listCommand, loadPlugins } = await import('./list.js');
      if (o.plugins !== undefined) await loadPlugins(o.plugins);
      listCommand(what);
    });

  addCompareCommands(program);
  return program;
}

async function main(argv: readonly string[] = process.argv): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return 0;
  } catch (e) {
    // commander has already printed its own errors (or the help / version text)
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    return (await import('./errors.js')).reportError(e);
  }
}

// `ccsim list | head`: a closed pipe ends the output quietly; any other failure to write the output
// (`ccsim list > /dev/full`: ENOSPC) is a clear error, exit 2
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`error: cannot write to standard output: ${e.code ?? ''} ${e.message.replace(/^\w+: /, '')}\n`);
  process.exit(2);
});

process.exitCode = await main();
