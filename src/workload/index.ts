/** Workload layer: flow-size distributions and flow generators. */
export type { FlowSpec, FlowStream } from './types.js';
export type { Cdf } from './cdf.js';
export { parseCdf, sampleCdf, cdfQuantile, cdfAt, loadCdf, listWorkloads, workloadNames, DATA_DIR } from './cdf.js';
export type { PoissonOptions } from './poisson.js';
export { poissonFlows, poissonMeanGapPs, poissonStream } from './poisson.js';
export type { IncastOptions } from './incast.js';
export { incastFlows, incastEventRateForLoad } from './incast.js';
export type { ExplicitFlow } from './flows.js';
export { explicitFlows } from './flows.js';
export type { PtGenerator, PtQueryOptions, Racks, SourceGroup } from './powertcp.js';
export { PT_GENERATORS, racksOf, uplinkShareBps, ptBackgroundGroups, ptQueryFlows } from './powertcp.js';
