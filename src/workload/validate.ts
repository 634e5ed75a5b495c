/** Small input checks shared by the workload generators. */

/** Throws unless v is an integer >= 0 (a host/node id). */
export function checkHostId(what: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new Error(`${what}: ${v} is not a host id (an integer >= 0)`);
}

/** Throws unless v is a safe integer >= 0. */
export function checkNonNegInt(what: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${what} must be an integer >= 0, got ${v}`);
}

/** Throws unless v is undefined or an integer priority class 0..7. */
export function checkPrio(what: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isInteger(v) && v >= 0 && v <= 7)) {
    throw new Error(`${what}: ${v} is not a priority class (an integer 0..7)`);
  }
}
