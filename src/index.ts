/**
 * ccsim as a library: run experiments from spec files, or build a SimInput
 * programmatically and call `simulate` (or step it with `Simulation`).
 */

// simulator contract and entry points
export type * from './sim/types.js';
export { simulate, Simulation } from './sim/simulate.js';
export { runExperiment, defaultOutDir, specBinSets, type RunOptions, type RunResult } from './experiment/run/runner.js';

// specs
export {
  specSchema,
  topologySchema,
  workloadEntrySchema,
  networkSchema,
  ccSchema,
  SPEC_DEFAULTS,
  type Spec,
  type SpecInput,
  type TopologySpec,
  type WorkloadSpec,
  type MetricsSpec,
  type PortRefSpec,
  type NetworkOverrides,
  type ResolvedCc,
} from './experiment/spec/spec.js';
export {
  loadSpec,
  parseSpec,
  readSpecFile,
  resolveSpec,
  loadAndResolve,
  type LoadedSpec,
  type ResolveOverrides,
  type ResolveContext,
} from './experiment/spec/resolve.js';
export {
  SpecError,
  UsageError,
  formatIssue,
  formatIssues,
  formatPath,
  zodToSpecError,
  type SpecIssue,
} from './engine/errors.js';

// result files
export {
  writeResults,
  resultFileNames,
  buildManifest,
  ccsimVersion,
  formatNumber,
  FCT_COLUMNS,
  type OutputFormat,
  type ResultData,
  type RunInfo,
  type WrittenManifest,
} from './experiment/run/output.js';

export {
  prepareOutDir,
  commitResultFiles,
  readManifest,
  manifestFiles,
  isCompleteResultDir,
  MANIFEST_FILE,
  STAGING_PREFIX,
  type OutDirPlan,
} from './experiment/results/outdir.js';

// figure analyses: the contract and registry (the papers' analyses register
// themselves when experiments/index.js is imported, as the CLI does) and the
// typed reader of result folders they use
export {
  registerFigure,
  figureRegistry,
  findFigure,
  figureNames,
  sweptCcName,
  type FigureAnalysis,
  type FigureResult,
  type FigureTable,
  type MeasuredClaim,
  type PointResult,
  type Cell,
} from './experiment/results/analysis.js';
export {
  readTable,
  readColumns,
  readFctRecords,
  readResultJson,
  requireResultJson,
  readRunManifest,
  requireRunManifest,
  readRunSummary,
  requireRunSummary,
  type RunManifest,
  type ResultColumns,
  type FctRecord,
  type TableRow,
} from './experiment/results/results.js';

// metrics
export { percentileLinear, percentileNearestRank, mean, jainIndex, sortedCopy } from './metrics/stats.js';
export {
  summarize,
  statsOf,
  runSummary,
  BIN_SETS,
  DEFAULT_BIN_SETS,
  customBinSet,
  binSetsByName,
  flatBins,
  type BinSet,
  type BinSetStats,
  UNTAGGED,
  type SizeBin,
  type FctStats,
  type BinStats,
  type FctSummary,
  type RunSummary,
  type PercentileMethod,
  type SummarizeOptions,
} from './metrics/summary.js';

// congestion control
export { ccRegistry, registerCc, findCc, ccNames, ccDefinitions } from './cc/registry.js';
export type * from './cc/types.js';
export { TCD_NO, TCD_UE, TCD_CE, INT_MAX_HOPS } from './cc/types.js';

// network configuration and topologies
export * from './net/config.js';
export * from './net/topology/index.js';

// workloads
export * from './workload/index.js';

export { workloadRegistry, registerWorkload, findWorkload, workloadDefinitions } from './workload/registry.js';

// switch plug-ins: queue disciplines (DRR built in), admission and dequeue policies
export {
  disciplineRegistry,
  admissionPolicyRegistry,
  dequeuePolicyRegistry,
  registerQueueDiscipline,
  registerAdmissionPolicy,
  registerDequeuePolicy,
  findDiscipline,
  findAdmissionPolicy,
  findDequeuePolicy,
} from './net/switch-registry.js';
export { DISC_CUSTOM, type QueueDiscipline, type QueueDisciplineDefinition } from './net/queue-discipline.js';
export { drrDiscipline, type DrrParams } from './net/drr.js';
export { ADMIT, DROP, TRIM, MARK, HOLD, RETURN, type AdmissionPolicy, type AdmissionPolicyDefinition, type AdmissionContext } from './net/admission.js';
export type { DequeuePolicy, DequeuePolicyDefinition, DequeuePolicyContext } from './net/dequeue-policies.js';
export type { Port } from './net/port.js';

// transport strategies: send drivers and loss recoveries (issue 43)
export {
  sendDriverRegistry,
  lossRecoveryRegistry,
  registerSendDriver,
  registerLossRecovery,
  type SendDriverDefinition,
  type LossRecoveryDefinition,
  type StrategyBuild,
} from './transport/strategies.js';
export type { SendDriver, PullSource } from './transport/send-driver.js';
export type { LossRecovery, RecoveryHost } from './transport/loss-recovery.js';

// one registry type for every plug-in kind, and plug-ins from a user's own files (docs/extending.md)
export { Registry, BUILT_IN, type Capabilities, type RegistryOptions } from './engine/registry.js';
export { loadPlugins, loadSpecPlugins, loadedPluginFiles, type PluginApi, type PluginModule } from './experiment/run/plugins.js';
export type * from './workload/plugin.js';
export type * from './workload/driver.js';

// engine helpers
export * from './engine/spec-fields.js';
export * from './engine/units.js';
export { Rng, hashString } from './engine/rng.js';

// sweeps, reports and the tools around a spec (docs/api.md)
export { planSweep, type SweepPlan, type SweepPoint } from './experiment/run/sweep.js';
export { runSweep, type SweepOptions, type SweepOutcome } from './experiment/run/sweep-run.js';
export { loadResults, pointResults, type ResultSet, type RunData } from './experiment/results/results.js';
export { writeReport } from './report/html.js';
export { estimateCost, calibrate, type CostEstimate } from './experiment/run/estimate.js';
export { specJsonSchema } from './experiment/spec/json-schema.js';
