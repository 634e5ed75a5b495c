/**
 * Problems found while resolving a spec, collected so that one error lists
 * them all, each naming its spec field (`workload[1].fanIn`) and value.
 */
import { SpecError, errorMessage, formatPath, valueAtPath, type PathSegment, type SpecIssue } from '../../engine/errors.js';

/** Collects issues during resolution; `fail()` throws them as one SpecError. */
export class Issues {
  readonly list: SpecIssue[] = [];
  constructor(
    private readonly raw: unknown,
    private readonly file: string | undefined,
  ) {}

  add(path: readonly PathSegment[], message: string, value?: unknown): void {
    this.list.push({ path: formatPath(path), value: value !== undefined ? value : valueAtPath(this.raw, path), message });
  }

  /** An issue about a whole section, printed without its value. */
  addNoValue(path: readonly PathSegment[], message: string): void {
    this.list.push({ path: formatPath(path), value: undefined, message, showValue: false });
  }

  fail(): never {
    throw new SpecError(this.list, this.file);
  }

  throwIfAny(): void {
    if (this.list.length > 0) this.fail();
  }

  /** Runs fn; an exception becomes an issue at `path` (and resolution stops). */
  guard<T>(path: readonly PathSegment[], fn: () => T, rewrite?: (msg: string) => string): T {
    try {
      return fn();
    } catch (e) {
      if (e instanceof SpecError) throw e;
      const msg = errorMessage(e);
      this.add(path, rewrite ? rewrite(msg) : msg);
      return this.fail();
    }
  }
}
