/**
 * Resolves the spec's topology over time (spec-topology-change.ts) against the built
 * topology: `events:` into `LinkEvent`s and `schedule:` into a `CircuitSchedule`
 * (net/link-changes.ts; docs/network-model.md §2.1, PowerTCP §5). Every node must
 * exist and every pair be linked; a down/up event may not name a circuit of the
 * schedule (the schedule owns its state).
 */
import { circuitLinks, type CircuitSchedule, type LinkEvent } from '../../net/link-changes.js';
import { roundRobinMatchings } from '../../net/topology/circuit.js';
import type { PathSegment } from '../../engine/errors.js';
import type { Issues } from './issues.js';
import type { TopoIndex } from './resolve-topology.js';
import type { Spec } from './spec.js';

/** The topology ids of spec link [a, b], or undefined after an issue (no such node, not linked). */
function resolveLink(link: readonly [number, number], at: readonly PathSegment[], ti: TopoIndex, issues: Issues): [number, number] | undefined {
  const [a, b] = link;
  const na = ti.node(a);
  const nb = ti.node(b);
  if (na === undefined || nb === undefined) {
    issues.add([...at, na === undefined ? 0 : 1], `no such node (${ti.nodeRangeText()})`, na === undefined ? a : b);
    return undefined;
  }
  if (!ti.peers[na]!.includes(nb)) {
    issues.add(at, `nodes ${a} and ${b} are not connected`, link);
    return undefined;
  }
  return [na, nb];
}

/** `schedule:` as a CircuitSchedule in topology ids, or undefined (none, or issues added). */
export function resolveSchedule(spec: Spec, ti: TopoIndex, issues: Issues): CircuitSchedule | undefined {
  const s = spec.schedule;
  if (s === undefined) return undefined;
  if (ti.topo.rdcn !== undefined) {
    issues.addNoValue(['schedule'], 'an rdcn topology runs its own circuit schedule (topology.circuits); remove schedule:');
    return undefined;
  }
  let matchings: [number, number][][];
  if (s.matchings === 'roundRobin') {
    const tors = ti.racks().tors;
    if (tors.length < 2) {
      issues.add(['schedule', 'matchings'], `needs at least two ToRs (switches with hosts); the topology has ${tors.length}`);
      return undefined;
    }
    matchings = roundRobinMatchings(0, tors.length).map((m) => m.map(([i, j]) => [tors[i]!, tors[j]!] as [number, number]));
    for (const m of matchings) {
      for (const [a, b] of m) {
        if (!ti.peers[a]!.includes(b)) {
          issues.add(['schedule', 'matchings'], `ToRs ${a} and ${b} are not linked (roundRobin needs a circuit between every two ToRs, e.g. topology type torMesh)`);
          return undefined;
        }
      }
    }
  } else {
    let ok = true;
    matchings = s.matchings.map((m, k) =>
      m.flatMap((p, j) => {
        const l = resolveLink(p, ['schedule', 'matchings', k, j], ti, issues);
        if (l === undefined) ok = false;
        return l === undefined ? [] : [l];
      }),
    );
    if (!ok) return undefined;
  }
  return { periodPs: s.period, reconfigurePs: s.reconfigure, matchings, startPs: s.start, untilPs: s.until ?? Infinity };
}

/** `events:` as LinkEvents in topology ids, sorted by time (ties in spec order). */
export function resolveLinkEvents(spec: Spec, ti: TopoIndex, issues: Issues, schedule: CircuitSchedule | undefined): LinkEvent[] {
  const circuits = new Set<string>();
  if (schedule !== undefined) for (const [a, b] of circuitLinks(schedule)) circuits.add(`${a},${b}`).add(`${b},${a}`);
  const out: LinkEvent[] = [];
  spec.events.forEach((ev, i) => {
    const at: PathSegment[] = ['events', i];
    const l = resolveLink(ev.link, [...at, 'link'], ti, issues);
    if (l === undefined) return;
    const [a, b] = l;
    const oneWay = ev.oneWay === true ? { oneWay: true } : {};
    if (ev.kind === undefined || ev.kind === 'rate') {
      out.push({ atPs: ev.at, a, b, rateBps: ev.rate!, ...oneWay });
      return;
    }
    if (ti.topo.rdcn !== undefined && ti.racks().tors.includes(a) && ti.racks().tors.includes(b)) {
      issues.add([...at, 'link'], `is a circuit of the rdcn topology (topology.circuits takes it down and up); a ${ev.kind} event would fight it`, ev.link);
      return;
    }
    if (circuits.has(`${a},${b}`)) {
      issues.add([...at, 'link'], `is a circuit of schedule (the schedule takes it down and up); a ${ev.kind} event would fight it`, ev.link);
      return;
    }
    out.push({ atPs: ev.at, a, b, kind: ev.kind, ...oneWay });
  });
  // stable by time: events at the same time apply in spec order
  return out.map((e, k) => ({ e, k })).sort((x, y) => x.e.atPs - y.e.atPs || x.k - y.k).map((x) => x.e);
}
