/**
 * The spec's `metrics:` resolved against the built topology:
 * every port, link and switch named must exist (`events:` and `schedule:` are
 * resolve-topology-change.ts's).
 */
import { SEC, US } from '../../engine/units.js';
import type { MetricsRequest, PortRef } from '../../sim/types.js';
import type { Racks } from '../../workload/powertcp.js';
import type { PathSegment } from '../../engine/errors.js';
import type { Issues } from './issues.js';
import type { TopoIndex } from './resolve-topology.js';
import { SPEC_DEFAULTS, type PortRefSpec, type Spec } from './spec.js';

function resolvePort(ref: PortRefSpec, path: readonly PathSegment[], ti: TopoIndex, issues: Issues): PortRef | undefined {
  if ('node' in ref) {
    const n = ti.node(ref.node);
    if (n === undefined) {
      issues.add([...path, 'node'], `no such node (${ti.nodeRangeText()})`, ref.node);
      return undefined;
    }
    const ports = ti.peers[n]!.length;
    if (ref.port >= ports) {
      issues.add([...path, 'port'], `node ${ref.node} has ${ports} port${ports === 1 ? '' : 's'} (0..${ports - 1})`, ref.port);
      return undefined;
    }
    return { node: n, port: ref.port };
  }
  const [a, b] = ref.link;
  const na = ti.node(a);
  const nb = ti.node(b);
  if (na === undefined || nb === undefined) {
    issues.add([...path, 'link', na === undefined ? 0 : 1], `no such node (${ti.nodeRangeText()})`, na === undefined ? a : b);
    return undefined;
  }
  const port = ti.peers[na]!.indexOf(nb);
  if (port < 0) {
    issues.add([...path, 'link'], `nodes ${a} and ${b} are not connected`, ref.link);
    return undefined;
  }
  return { node: na, port };
}

/** The metrics request, ports checked against the topology; flow ids are checked in checkFlowIds. */

/**
 * Smallest base RTT between two hosts of one rack: 2 x (both host links' delays) plus one
 * MTU's serialization on each host link (4 640 ns on powertcp256 with 1000 B packets, the
 * artifact's minRtt; docs/network-model.md §13.3).
 */
function minBaseRttPs(ti: TopoIndex, racks: Racks, mtuBytes: number): number {
  const delay = new Float64Array(ti.hostCount);
  for (const l of ti.topo.links) {
    if (l.a < ti.hostCount && delay[l.a] === 0) delay[l.a] = l.delayPs;
    if (l.b < ti.hostCount && delay[l.b] === 0) delay[l.b] = l.delayPs;
  }
  let best = Infinity;
  for (const hs of racks.hosts) {
    if (hs.length < 2) continue;
    const ser = (h: number): number => (mtuBytes * 8 * SEC) / ti.hostRate[h]!;
    const [a, b] = [hs[0]!, hs[1]!];
    best = Math.min(best, 2 * (delay[a]! + delay[b]!) + ser(a) + ser(b));
  }
  return Number.isFinite(best) ? best : 10 * US;
}

/** A spec size bin is (min, max]: with min >= max it holds no flow, which is a mistake, not a bin. */
function checkSizeBins(spec: Spec, issues: Issues): void {
  spec.metrics.bins?.forEach((b, i) => {
    if (b.max !== 'inf' && b.min >= b.max) {
      issues.add(['metrics', 'bins', i, 'max'], `must be above min (${b.min} B): a bin is (min, max], so this one (max ${b.max} B) holds no flow`);
    }
  });
}

export function resolveMetrics(spec: Spec, ti: TopoIndex, issues: Issues, mtuBytes: number): MetricsRequest {
  const m = spec.metrics;
  checkSizeBins(spec, issues);
  const queues = m.queues === 'auto' ? { ports: 'auto' as const, top: 4, interval: SPEC_DEFAULTS.queueIntervalPs } : m.queues;
  const ports = (list: readonly PortRefSpec[] | undefined, key: string): PortRef[] =>
    (list ?? []).flatMap((r, i) => {
      const p = resolvePort(r, ['metrics', key, 'ports', i], ti, issues);
      return p === undefined ? [] : [p];
    });
  let flowThroughput: number[] | null = null;
  if (m.flowThroughput !== undefined) {
    const sel = m.flowThroughput.flows;
    flowThroughput = sel === 'all' ? [] : [...sel];
  }
  let switchBuffer: MetricsRequest['switchBuffer'];
  if (m.switchBuffer !== undefined) {
    const sb = m.switchBuffer;
    const at: PathSegment[] = ['metrics', 'switchBuffer'];
    const racks = ti.racks();
    let nodes: number[] = [];
    if (sb.switches === 'firstTor' || sb.switches === 'allTors') {
      if (racks.tors.length === 0) issues.add([...at, 'switches'], 'the topology has no switch with hosts attached');
      nodes = sb.switches === 'firstTor' ? racks.tors.slice(0, 1) : [...racks.tors];
    } else {
      sb.switches.forEach((id, i) => {
        const n = ti.node(id);
        if (n === undefined) issues.add([...at, 'switches', i], `no such node (${ti.nodeRangeText()})`, id);
        else if (n < ti.hostCount) issues.add([...at, 'switches', i], 'is a host, not a switch', id);
        else nodes.push(n);
      });
    }
    const intervalPs = sb.interval ?? Math.round(1.5 * minBaseRttPs(ti, racks, mtuBytes));
    switchBuffer = { nodes, intervalPs, block: sb.block };
  }
  return {
    ...(switchBuffer !== undefined ? { switchBuffer } : {}),
    queuePorts: queues === undefined || queues.ports === 'auto' ? [] : ports(queues.ports, 'queues'),
    queueIntervalPs: queues?.interval ?? SPEC_DEFAULTS.queueIntervalPs,
    ...(queues?.ports === 'auto' ? { queueAuto: queues.top } : {}),
    throughputPorts: ports(m.throughput?.ports, 'throughput'),
    throughputIntervalPs: m.throughput?.interval ?? SPEC_DEFAULTS.throughputIntervalPs,
    flowThroughput,
    flowThroughputIntervalPs: m.flowThroughput?.interval ?? SPEC_DEFAULTS.flowThroughputIntervalPs,
    ccTrace: m.ccTrace === undefined ? null : m.ccTrace.flows === 'all' ? [] : [...m.ccTrace.flows],
    ccTraceIntervalPs: m.ccTrace?.interval ?? SPEC_DEFAULTS.ccTraceIntervalPs,
    ...(m.breakdown === true ? { breakdown: true } : {}),
  };
}

export function checkFlowIds(spec: Spec, flowCount: number, issues: Issues): void {
  for (const key of ['flowThroughput', 'ccTrace'] as const) {
    const sel = spec.metrics[key]?.flows;
    if (sel === undefined || sel === 'all') continue;
    sel.forEach((id, i) => {
      if (id >= flowCount) issues.add(['metrics', key, 'flows', i], `no such flow (flow ids are 0..${flowCount - 1})`, id);
    });
  }
}
