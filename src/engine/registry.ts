/**
 * One registry type for every plug-in kind (issue 43; docs/extending.md): congestion
 * controls, workload types, admission and dequeue policies, queue disciplines and figure
 * analyses are each a `Registry<T>` of named definitions.
 *
 * - Names are unique: registering a name that is taken is an error naming both sources
 *   (`built-in`, the file of a user's plug-in module, a paper's analyses).
 * - Looking up an unknown name with `get` is an error listing the known names.
 * - Iteration is in registration order (built-ins first, in the order of their list), which
 *   is the order `ccsim list`, the JSON schema and error messages use.
 * - `version` changes at every registration, so a schema built from a registry (the
 *   workload union, src/experiment/spec/spec.ts) knows when to build itself again.
 *
 * Registries are filled when modules load and read while specs are checked and networks
 * built: never on the hot path.
 */

/** What a definition may declare about where it can run. */
export interface Capabilities {
  /**
   * The definition may run on the multi-threaded engine (docs/architecture.md, "Parallel
   * runs"): it reads no state of another node other than through packets. Absent: a run that
   * uses it stays on one thread.
   */
  readonly parallel?: boolean;
}

/** Where a definition came from, for messages: `built-in` unless its registration says. */
export const BUILT_IN = 'built-in';

export interface RegistryOptions<T> {
  /** what the registry holds, singular, for messages (`congestion control`, `queue discipline`) */
  readonly kind: string;
  /** the definition's name (its `name`, a workload's `type`, an analysis's `id`) */
  readonly key: (def: T) => string;
  /** registering the very same object again is a no-op instead of a clash (modules imported by two paths) */
  readonly sameObjectAgain?: boolean;
}

/** Named definitions of one plug-in kind. */
export class Registry<T> {
  readonly kind: string;
  private readonly key: (def: T) => string;
  private readonly sameObjectAgain: boolean;
  private readonly defs = new Map<string, { def: T; source: string }>();
  private changes = 0;

  constructor(opts: RegistryOptions<T>) {
    this.kind = opts.kind;
    this.key = opts.key;
    this.sameObjectAgain = opts.sameObjectAgain === true;
  }

  /** Adds `def`; `source` names where it comes from (a file, `built-in`). Throws on a clashing name. */
  register(def: T, source: string = BUILT_IN): void {
    const name = this.key(def);
    if (typeof name !== 'string' || name === '') throw new Error(`${this.kind} from ${source}: a definition needs a non-empty name, got ${JSON.stringify(name)}`);
    const known = this.defs.get(name);
    if (known !== undefined) {
      if (this.sameObjectAgain && known.def === def) return;
      throw new Error(`${this.kind} "${name}" from ${source} clashes with the one already registered from ${known.source} (choose another name)`);
    }
    this.defs.set(name, { def, source });
    this.changes++;
  }

  /** The definition named `name`; throws listing the known names. */
  get(name: string): T {
    const d = this.defs.get(name);
    if (d === undefined) throw new Error(`unknown ${this.kind} "${name}" (${this.knownText()})`);
    return d.def;
  }

  /** The definition named `name`, if registered. */
  find(name: string): T | undefined {
    return this.defs.get(name)?.def;
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  /** Where `name` was registered from, if it is. */
  sourceOf(name: string): string | undefined {
    return this.defs.get(name)?.source;
  }

  /** Registered names in registration order. */
  names(): string[] {
    return [...this.defs.keys()];
  }

  /** Registered definitions in registration order. */
  values(): T[] {
    return [...this.defs.values()].map((d) => d.def);
  }

  [Symbol.iterator](): Iterator<T> {
    return this.values()[Symbol.iterator]();
  }

  get size(): number {
    return this.defs.size;
  }

  /** Changes whenever a definition is registered. */
  get version(): number {
    return this.changes;
  }

  /** `known: a, b, c` (or `none registered`), for messages. */
  knownText(): string {
    return this.defs.size > 0 ? `known: ${this.names().join(', ')}` : 'none registered';
  }
}
