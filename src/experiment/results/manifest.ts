/**
 * manifest.json of a run folder, as a reader sees it (experiment/run/output.ts writes it; its
 * WrittenManifest extends this type, so the two cannot drift apart). Plain records, with no type
 * of the simulator: the result layer and the paper analyses that read manifests depend on the
 * files' contents, not on the code that produced them (test/layers.test.ts checks that they
 * reach no file of sim/ or net/).
 */

/** A spec's topology or workload entry as written: its `type` and its fields (experiment/spec/spec.ts has the schema). */
export type SpecEntry = { type: string } & Record<string, unknown>;

/** The spec a run ran, as validated (experiment/spec/spec.ts `Spec`), with the fields analyses read typed. */
export interface ManifestSpec {
  name: string;
  seed: number;
  topology: SpecEntry;
  workload: SpecEntry[];
  [field: string]: unknown;
}

export interface RunManifest {
  ccsim: string;
  /** the build the run ran on (./build-id.ts); absent in manifests written before issue 40 */
  build?: string;
  /** the model fingerprint of that build (data/measured/model.json); absent when it has none */
  model?: string;
  node: string;
  platform: string;
  startedAt: string;
  specPath: string | null;
  name: string;
  seed: number;
  seedFrom: 'spec' | 'override';
  run: {
    wallMs: number;
    totalWallMs: number;
    events: number;
    eventsPerSec: number | null;
    simulatedPs: number;
    peakRssBytes: number;
    /** engine.fastForward only: simulated time skipped (included in simulatedPs) and the events it would have run (not in events) */
    fastForward?: { skippedPs: number; skippedEventsEstimate: number; skips: number };
  };
  resolved: {
    topology: { name: string; hosts: number; switches: number; links: number };
    flows: number;
    cc: { name: string; params: Record<string, unknown>; byTag?: Record<string, Record<string, unknown>> };
    /** the network settings (net/config.ts NetConfig); typed here as far as analyses read them */
    net: { transport: { mtuBytes: number; dataHeaderBytes: number } };
    stopAtPs: number | null;
    maxTimePs: number;
    /** link changes (net/link-changes.ts), in time order */
    linkEvents: { atPs: number }[];
    /** what was sampled (sim/types.ts MetricsRequest) */
    metrics: object;
    /** what the CC turned on in the network (`CcDefinition.network`, e.g. ndp's trimming), already in `net`; absent for most CCs */
    ccNetwork?: { field: string; value: unknown; why: string }[];
  };
  sweep?: Record<string, unknown>;
  /** threads asked for and used (sim/parallel/threads.ts); absent in manifests written before issue 31 */
  threads?: Record<string, unknown>;
  spec: ManifestSpec;
  raw: unknown;
  files: string[];
  /** set while a run's files are being written (./outdir.ts) */
  incomplete?: boolean;
}
