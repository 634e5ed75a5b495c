/**
 * The ACC paper's small topologies (ACC §5, Figs. 1 and 11; docs/network-model.md §14):
 * the cyclic-buffer-dependency unit and the congestion tree.
 */
import { Builder } from './builder.js';
import type { Topology } from './types.js';

// ---------------------------------------------------------------------------------------------
// ACC cyclic-buffer-dependency unit

export interface AccCbdOptions {
  hostsPerTor: number;
  /** host links */
  rateBps: number;
  /** ToR–upper links; default rateBps */
  fabricRateBps?: number;
  delayPs: number;
  /**
   * upper–ToR links removed, as pairs of switch labels L0, L1, T0..T3; default
   * the two of ACC Fig. 12, [[L0, T3], [L1, T0]]
   */
  failedLinks?: readonly (readonly [string, string])[];
  name?: string;
}

/** ACC Fig. 12: links L0–T3 and L1–T0 fail, creating the cyclic buffer dependency. */
export const ACC_CBD_FAILED_LINKS: readonly (readonly [string, string])[] = [
  ['L0', 'T3'],
  ['L1', 'T0'],
];

/**
 * ACC Fig12 CBD unit (§7.8): ToRs T0–T3 and upper switches L0, L1, fully
 * bipartite except the failed links (default L0–T3 and L1–T0). Node order:
 * hosts (T0's first), T0..T3 (layer 'leaf'), L0, L1 (layer 'spine'), as a
 * file loader would label this two-tier shape. Shortest paths T0→T3 bounce
 * through a ToR. Failed links that cut a host off the others are an error
 * naming `accCbd.failedLinks[i]`.
 */
export function accCbd(opts: AccCbdOptions): Topology {
  const o = opts;
  const hpt = o.hostsPerTor;
  const rate = o.rateBps;
  const fabric = o.fabricRateBps ?? rate;
  const delay = o.delayPs;
  const failedIn = (o.failedLinks ?? ACC_CBD_FAILED_LINKS) as readonly (readonly [string, string])[];
  if (!Array.isArray(failedIn)) throw new Error(`accCbd.failedLinks: must be a list of [upper, tor] pairs, got ${String(failedIn)}`);
  const failed = new Set<string>();
  failedIn.forEach((pair, i) => {
    const what = `accCbd.failedLinks[${i}]`;
    if (!Array.isArray(pair) || pair.length !== 2) throw new Error(`${what}: must be a pair of switch labels such as [L0, T3], got ${JSON.stringify(pair)}`);
    const [x, y] = pair.map((v) => String(v).toUpperCase());
    const up = [x, y].find((v) => v === 'L0' || v === 'L1');
    const tor = [x, y].find((v) => /^T[0-3]$/.test(v ?? ''));
    if (up === undefined || tor === undefined) throw new Error(`${what}: ${JSON.stringify(pair)} is not an upper–ToR link (uppers L0, L1; ToRs T0..T3)`);
    const key = `${up}-${tor}`;
    if (failed.has(key)) throw new Error(`${what}: ${JSON.stringify(pair)} is listed twice`);
    failed.add(key);
  });
  // every ToR must keep an upper link, and the uppers must still connect all ToRs
  const alive = (l: number, t: number): boolean => !failed.has(`L${l}-T${t}`);
  const reach = new Set<number>([0]);
  for (let changed = true; changed; ) {
    changed = false;
    for (let t = 0; t < 4; t++) {
      if (reach.has(t)) continue;
      for (let l = 0; l < 2; l++) {
        if (!alive(l, t)) continue;
        for (const r of reach) {
          if (alive(l, r)) {
            reach.add(t);
            changed = true;
            break;
          }
        }
        if (reach.has(t)) break;
      }
    }
  }
  if (reach.size < 4) {
    const cut = [0, 1, 2, 3].filter((t) => !reach.has(t));
    const i = failedIn.length - 1;
    throw new Error(
      `accCbd.failedLinks${i >= 0 ? `[${i}]` : ''}: the failed links ${JSON.stringify(failedIn)} disconnect the hosts of ${cut.map((t) => `T${t}`).join(', ')} from the others`,
    );
  }
  const b = new Builder();
  b.addHosts(4 * hpt);
  const tor0 = b.addSwitches(4, 'leaf');
  const up0 = b.addSwitches(2, 'spine');
  for (let h = 0; h < 4 * hpt; h++) b.link(h, tor0 + Math.floor(h / hpt), rate, delay);
  for (let t = 0; t < 4; t++) {
    for (let l = 0; l < 2; l++) {
      if (!alive(l, t)) continue;
      b.link(tor0 + t, up0 + l, fabric, delay);
    }
  }
  return b.finish(o.name ?? 'accCbd');
}

export interface AccTreeOptions {
  /** burst senders H1..HN on SW4 (ACC Fig. 2/3: 20, Fig. 11: 15, Fig. 4: 10) */
  burstHosts: number;
  rateBps: number;
  delayPs: number;
  name?: string;
}

/**
 * ACC Fig. 1 "typical scenario" congestion tree (ACC §3.1, §6.3; docs/network-model.md
 * §14, attachment points reconstructed from the text): a chain SW1–SW2–SW3–SW4;
 * S0 and S1 on SW1; R0 and R1 on SW4 (R1 behind the congested port P4); burst
 * senders H1..HN on SW4. F1 = S1→R1 and F0 = S0→R0 share P1–P3 (SW1→SW2,
 * SW2→SW3, SW3→SW4); the bursts meet F1 at P4 (SW4→R1).
 * Node ids: S0 0, S1 1, R0 2, R1 3, H1..HN 4..N+3, then SW1..SW4.
 */
export function accTree(opts: AccTreeOptions): Topology {
  const o = opts;
  const n = o.burstHosts;
  const rate = o.rateBps;
  const delay = o.delayPs;
  const b = new Builder();
  b.addHosts(4 + n);
  const sw = b.addSwitches(4, 'switch');
  b.link(0, sw, rate, delay); // S0 - SW1
  b.link(1, sw, rate, delay); // S1 - SW1
  b.link(2, sw + 3, rate, delay); // R0 - SW4
  b.link(3, sw + 3, rate, delay); // R1 - SW4 (P4)
  for (let i = 0; i < n; i++) b.link(4 + i, sw + 3, rate, delay);
  for (let k = 0; k < 3; k++) b.link(sw + k, sw + k + 1, rate, delay);
  const topo = b.finish(o.name ?? 'accTree');
  const names = ['S0', 'S1', 'R0', 'R1'];
  for (let i = 0; i < 4 + n; i++) topo.nodes[i]!.name = i < 4 ? names[i]! : `H${i - 3}`;
  for (let k = 0; k < 4; k++) topo.nodes[sw + k]!.name = `SW${k + 1}`;
  return topo;
}
