/**
 * PFC deadlock detection (ACC §6.3, Table 2; docs/network-model.md §11.3: there is
 * no PFC watchdog, so a cyclic buffer dependency can freeze the fabric).
 *
 * A deadlock is a cycle of switch egress (port, class) pairs, each paused
 * continuously for at least `minPausedPs` with packets queued in that class,
 * where each one's queue holds packets that arrived from the switch the next
 * one feeds: port P (A→B) is paused by B because B's ingress from A is over
 * its threshold, and those bytes wait in an egress queue P' of B that is
 * paused itself. A paused class cannot dequeue, so "no dequeue for the whole
 * pause" holds by construction.
 *
 * The check runs between scheduler slices at fixed simulated times (no
 * events of its own), so it changes neither event counts nor results.
 */
import type { Network } from './network.js';
import type { Port } from './port.js';

// the report's record types sit in engine/ so that readers of result files need no network code
export type { DeadlockPort, DeadlockReport } from '../engine/deadlock-report.js';
import type { DeadlockPort } from '../engine/deadlock-report.js';

export interface DeadlockOptions {
  /** each port of the cycle paused continuously at least this long (ACC: a flow never completes; 1 ms default) */
  minPausedPs: number;
  /** simulated time between checks */
  checkIntervalPs: number;
}

/** 1 ms of continuous pause, checked every 100 us of simulated time. */
export const DEFAULT_DEADLOCK: DeadlockOptions = { minPausedPs: 1_000_000_000, checkIntervalPs: 100_000_000 };

/** Returns a deadlock cycle if one exists at `nowPs`, else null. */
export function findDeadlockCycle(network: Network, nowPs: number, minPausedPs: number, frozen: boolean): DeadlockPort[] | null {
  // candidates: switch egress (port, class) paused long enough with packets queued
  const cand = new Map<number, { port: Port; cls: number }>();
  const key = (gid: number, cls: number): number => gid * 8 + cls;
  for (let n = 0; n < network.switches.length; n++) {
    if (network.switches[n] === null) continue;
    for (const p of network.nodePorts[n]!) {
      for (let c = 0; c < 8; c++) {
        if (p.paused[c] === 1 && p.queuePkts(c) > 0 && (frozen || nowPs - p.pauseStartPs[c]! >= minPausedPs)) cand.set(key(p.gid, c), { port: p, cls: c });
      }
    }
  }
  if (cand.size === 0) return null;
  // wait-for edges: (P: A→B, c) → (P': B→X, c) when P' queues packets that entered B from A
  const succ = (k: number): number[] => {
    const { port, cls } = cand.get(k)!;
    if (network.switches[port.peerNode] === null || network.switches[port.peerNode] === undefined) return [];
    const out: number[] = [];
    for (const q of network.nodePorts[port.peerNode]!) {
      const k2 = key(q.gid, cls);
      if (cand.has(k2) && q.queueHolds(cls, port.peerPort)) out.push(k2);
    }
    return out;
  };
  const state = new Map<number, number>(); // 1 on stack, 2 done
  const stack: number[] = [];
  const dfs = (k: number): number[] | null => {
    state.set(k, 1);
    stack.push(k);
    for (const k2 of succ(k)) {
      const s = state.get(k2);
      if (s === 1) return stack.slice(stack.indexOf(k2));
      if (s === undefined) {
        const r = dfs(k2);
        if (r !== null) return r;
      }
    }
    stack.pop();
    state.set(k, 2);
    return null;
  };
  for (const k of [...cand.keys()].sort((a, b) => a - b)) {
    if (state.has(k)) continue;
    const cyc = dfs(k);
    if (cyc !== null) {
      const names = network.topo.nodes;
      return cyc.map((k2) => {
        const { port, cls } = cand.get(k2)!;
        return {
          node: port.node,
          name: names[port.node]!.name,
          port: port.index,
          peer: port.peerNode,
          peerName: names[port.peerNode]!.name,
          cls,
          pausedSincePs: port.pauseStartPs[cls]!,
          queuedBytes: port.queueBytes(cls),
        };
      });
    }
  }
  return null;
}
