/**
 * `ccsim compare` and `ccsim anchors`: the commands' options; their work (compare-run.ts) loads
 * only when one of them runs, so other commands start without the report modules.
 */
import type { Command } from 'commander';
import type { CompareOpts } from './compare-run.js';

export function addCompareCommands(program: Command): void {
  program
    .command('compare')
    .description("compare a ccsim run with another simulator's per-flow output on the same flows (ns-3 HPCC/PowerTCP fct.txt or a CSV): per size bin mean/p50/p95/p99 of both and their differences")
    .argument('<run>', 'a ccsim run folder (fct.csv)')
    .argument('<reference>', 'the other simulator\u2019s per-flow file')
    .option('--format <f>', 'auto | fct-txt | csv (default auto: whitespace-separated lines = fct-txt)')
    .option('--col-src <name>', 'CSV column of the source host (default src)')
    .option('--col-dst <name>', 'CSV column of the destination host (default dst)')
    .option('--col-size <name>', 'CSV column of the flow size in bytes (default size, size_B or bytes)')
    .option('--col-start <name>', 'CSV column of the start time (default start, start_ns, start_ps)')
    .option('--col-fct <name>', 'CSV column of the flow completion time (default fct, fct_ns, fct_ps)')
    .option('--col-ideal <name>', 'CSV column of the reference\u2019s ideal FCT (optional; for --ideal theirs)')
    .option('--time-unit <u>', 'unit of CSV time columns without a _ps/_ns/_us suffix: ps | ns | us | ms | s (default ns)')
    .option('--bins <edges>', 'size-bin edges, e.g. 10KB,100KB,1MB (the default)')
    .option('--metric <m>', 'slowdown | fct (default slowdown)')
    .option('--ideal <side>', 'slowdowns divide by ours (ccsim\u2019s ideal FCT, default) or theirs')
    .option('--label <name>', 'name of the other simulator in the output (default reference)')
    .option('--json <file>', 'also write the comparison as JSON')
    .option('--report <dir>', 'also write <dir>/report.html with the table and both CDFs')
    .action(async (run: string, reference: string, o: CompareOpts) => (await import('./compare-run.js')).compareAction(run, reference, o));

  program
    .command('anchors')
    .description("replay the PowerTCP authors' ns-3 reference runs (data/anchors/ns3-w10: W10, seven CCs) and compare each with its reference; --write records the agreement in docs/fidelity.md")
    .option('--cc <refs>', 'comma-separated reference CCs (default: all seven of data/anchors/ns3-w10)')
    .option('--write', 'record the agreement: data/anchors/ns3-w10/agreement.json and the generated block of docs/fidelity.md (all CCs only)')
    .option('--report <dir>', 'also write <dir>/report.html with every CC\u2019s table and CDFs')
    .option('--ecmp-seeds <seeds>', 'replay each CC on ccsim\u2019s own ECMP paths once per seed (e.g. 0-7 or 0,3,5; network.switch.ecmpSeed) instead of the reference run\u2019s paths, and print the range of its slowdowns: how much the paths alone move them')
    .action(async (o: { cc?: string; write?: boolean; report?: string; ecmpSeeds?: string }) => (await import('./compare-run.js')).anchorsAction(o));
}
