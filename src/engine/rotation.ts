/**
 * Circuit schedules of a rotor fabric as plain arithmetic (net/topology/rdcn.ts builds the fabric
 * from them; the PowerTCP Fig 8 analysis reads a point's schedule back with them).
 */

/**
 * The round-robin generator: tors-1 matchings, matching k (k = 1..tors-1) sends ToR i to
 * ToR (i+k) mod tors, so every ordered ToR pair has its circuit once per cycle (a week).
 * PowerTCP §5: 25 ToRs, 24 matchings.
 */
export function rotationMatchings(tors: number): number[][] {
  const out: number[][] = [];
  for (let k = 1; k < tors; k++) out.push(Array.from({ length: tors }, (_, i) => (i + k) % tors));
  return out;
}
