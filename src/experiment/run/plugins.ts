/**
 * Plug-ins from a user's own files (issue 43; docs/extending.md, "Plug-ins in your own files").
 *
 * A plug-in module is an ES module whose default export is a function; `loadPlugins` imports
 * it and calls that function with the plug-in API (`PluginApi`): the `register*` functions of
 * every registry (engine/registry.ts), each recording the module's file as the source of
 * what it registers, plus zod and the spec-field and unit helpers a definition is written
 * with. The module needs no import of ccsim: the API it is handed is the running ccsim's own
 * (the CLI is one bundle, so a module importing the package would get a second copy whose
 * registries the CLI never reads), and its definitions then meet the same validation, JSON
 * schema and error messages as built-ins.
 *
 * A spec names its modules with `plugins: [./my-cc.mjs]`, relative to the spec's folder.
 * Loading is asynchronous and the spec checks are not, so every entry that takes a spec file
 * (`runExperiment`, `runSweep`, the CLI's validate) loads the file's plug-ins first
 * (`loadSpecPlugins`); a module is loaded once per thread. Worker threads (sweep points,
 * partitions of a parallel run) start with the files this thread loaded
 * (`loadedPluginFiles`) and load them before they run anything.
 *
 * A module that cannot be found or loaded, exports no function, throws, or registers a name
 * that is taken is a `UsageError` naming the file (the CLI: exit code 2, no stack trace).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { registerCc } from '../../cc/registry.js';
import type { CcDefinition } from '../../cc/types.js';
import * as specFields from '../../engine/spec-fields.js';
import * as units from '../../engine/units.js';
import { ADMIT, DROP, HOLD, MARK, RETURN, TRIM, type AdmissionPolicyDefinition } from '../../net/admission.js';
import type { DequeuePolicyDefinition } from '../../net/dequeue-policies.js';
import { DISC_CUSTOM, type QueueDisciplineDefinition } from '../../net/queue-discipline.js';
import { registerAdmissionPolicy, registerDequeuePolicy, registerQueueDiscipline } from '../../net/switch-registry.js';
import { Builder, registerTopology, type TopologyDefinition } from '../../net/topology/index.js';
import type { WorkloadDefinition } from '../../workload/plugin.js';
import { registerWorkload } from '../../workload/registry.js';
import { registerLossRecovery, registerSendDriver, type LossRecoveryDefinition, type SendDriverDefinition } from '../../transport/strategies.js';
import type { FigureAnalysis } from '../results/analysis.js';
import { SpecError, UsageError, errorMessage } from '../../engine/errors.js';
import { readSpecFile } from '../spec/resolve.js';

/** What a plug-in module's default export is called with. */
export interface PluginApi {
  /** the file being loaded (absolute) */
  readonly file: string;
  registerCc<S extends z.ZodType>(def: CcDefinition<S>): void;
  registerWorkload<E extends { type: string }>(def: WorkloadDefinition<E>): void;
  registerQueueDiscipline<P>(def: QueueDisciplineDefinition<P>): void;
  registerAdmissionPolicy(def: AdmissionPolicyDefinition): void;
  registerDequeuePolicy(def: DequeuePolicyDefinition): void;
  /** a transport send driver (`network.transport.sendDriver`; transport/strategies.ts) */
  registerSendDriver(def: SendDriverDefinition): void;
  /** a transport loss recovery (`network.transport.retxMode`; transport/strategies.ts) */
  registerLossRecovery(def: LossRecoveryDefinition): void;
  /** a topology type (`topology.type`; net/topology/kinds.ts) */
  registerTopology<E extends { type: string }>(def: TopologyDefinition<E>): void;
  registerFigure(...analyses: FigureAnalysis[]): void;
  /** the zod ccsim checks specs with: parameter schemas must be made with it */
  readonly z: typeof z;
  /** spec fields with units (`sizeField`, `rateField`, `durationField`, `hostId`, ...; engine/spec-fields.ts) */
  readonly fields: typeof specFields;
  /** unit constants and parsers (`US`, `MS`, `KB`, `parseBytes`, ...; engine/units.ts) */
  readonly units: typeof units;
  /** the node-and-link accumulator the built-in topologies use (hosts first, then switches; `finish` validates) */
  readonly TopologyBuilder: typeof Builder;
  /** `id` of a queue discipline implemented by an object (queue-discipline.ts) */
  readonly DISC_CUSTOM: number;
  /** admission verdicts (net/admission.ts) */
  readonly verdicts: { readonly ADMIT: number; readonly DROP: number; readonly TRIM: number; readonly MARK: number; readonly HOLD: number; readonly RETURN: number };
}

/** The default export of a plug-in module. */
export type PluginModule = (ccsim: PluginApi) => void | Promise<void>;

function apiFor(file: string, figures: { register(a: FigureAnalysis, source: string): void }): PluginApi {
  return {
    file,
    registerCc: (def) => registerCc(def, file),
    registerWorkload: (def) => registerWorkload(def, file),
    registerQueueDiscipline: (def) => registerQueueDiscipline(def, file),
    registerAdmissionPolicy: (def) => registerAdmissionPolicy(def, file),
    registerDequeuePolicy: (def) => registerDequeuePolicy(def, file),
    registerSendDriver: (def) => registerSendDriver(def, file),
    registerLossRecovery: (def) => registerLossRecovery(def, file),
    registerTopology: (def) => registerTopology(def, file),
    registerFigure: (...analyses) => {
      for (const a of analyses) figures.register(a, file);
    },
    z,
    fields: specFields,
    units,
    TopologyBuilder: Builder,
    DISC_CUSTOM,
    verdicts: { ADMIT, DROP, TRIM, MARK, HOLD, RETURN },
  };
}

/** Loads in this thread, by absolute path (a file is loaded once; a failed load fails again the same way). */
const loads = new Map<string, Promise<void>>();

async function loadOne(file: string): Promise<void> {
  if (!existsSync(file)) throw new UsageError(`plugin ${file}: file not found`);
  if (statSync(file).isDirectory()) throw new UsageError(`plugin ${file}: is a directory, not a module file`);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (e) {
    throw new UsageError(`plugin ${file}: cannot be loaded: ${errorMessage(e)}`);
  }
  if (typeof mod.default !== 'function') {
    throw new UsageError(`plugin ${file}: its default export must be a function that registers plug-ins (export default function (ccsim) { ccsim.registerCc(...) }; docs/extending.md)`);
  }
  // (the figure registry's module reaches the result reader: loaded only with a plug-in)
  const { figureRegistry } = await import('../results/analysis.js');
  try {
    await (mod.default as PluginModule)(apiFor(file, figureRegistry));
  } catch (e) {
    throw new UsageError(`plugin ${file}: ${errorMessage(e)}`);
  }
}

/**
 * Loads plug-in modules in order (paths relative to `baseDir`, default the working folder);
 * each is loaded once per thread. Returns their absolute paths.
 */
export async function loadPlugins(files: readonly string[], baseDir: string = process.cwd()): Promise<string[]> {
  const abs = files.map((f) => (isAbsolute(f) ? f : resolvePath(baseDir, f)));
  for (const file of abs) {
    let p = loads.get(file);
    if (p === undefined) {
      p = loadOne(file);
      loads.set(file, p);
    }
    await p;
  }
  return abs;
}

/** The plug-in files this thread loaded, in load order (worker threads load them too). */
export function loadedPluginFiles(): string[] {
  return [...loads.keys()];
}

/** The `plugins:` list of raw spec data (empty when absent); a value that is not a list of paths is a SpecError at `plugins`. */
export function specPluginList(raw: unknown, file?: string): string[] {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw) || !('plugins' in raw)) return [];
  const list = (raw as { plugins: unknown }).plugins;
  if (list === undefined) return [];
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && x !== '')) {
    throw new SpecError([{ path: 'plugins', value: list, message: 'expected a list of plug-in module paths (relative to the spec file)' }], file);
  }
  return list as string[];
}

/**
 * Loads the plug-ins a spec file names (`plugins:`, relative to its folder) and `extra` ones
 * (the API's `plugins` option, relative to the working folder). A spec file that cannot be
 * read is left for the spec loader to report.
 */
export async function loadSpecPlugins(specPath: string, extra: readonly string[] = []): Promise<void> {
  if (extra.length > 0) await loadPlugins(extra);
  let raw: unknown;
  try {
    // (not a regular file, e.g. a FIFO: the spec loader refuses it; most specs name no plug-ins: those are not parsed twice)
    if (!statSync(specPath).isFile() || !readFileSync(specPath, 'utf8').includes('plugins')) return;
    raw = readSpecFile(specPath);
  } catch {
    return;
  }
  const list = specPluginList(raw, specPath);
  if (list.length > 0) await loadPlugins(list, dirname(resolvePath(specPath)));
}
