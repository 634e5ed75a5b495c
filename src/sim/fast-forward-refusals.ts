/**
 * What fast-forward (./fast-forward.ts, docs/performance.md "Fast-forward") needs from a spec:
 * its default knobs and the configurations it refuses. Apart from the engine, so that a spec
 * can be checked (`ccsim validate`) without loading the simulator.
 */
import type { CcDefinition } from '../cc/types.js';
import type { NetworkConfig } from '../net/config.js';
import type { FastForwardOptions, SimInput } from './types.js';

export const DEFAULT_FAST_FORWARD: FastForwardOptions = {
  tolerance: 0.02,
  driftTolerance: 0.005,
  intervalRtts: 1,
  intervals: 4,
  marginRtts: 4,
  minSkipRtts: 8,
  queueSlackBytes: 3000,
  replay: false,
};

/**
 * Why `input` cannot be fast-forwarded, one message each naming the spec field (empty: it can).
 * Checked when a simulation is built (and by the spec's resolution, which names the same fields).
 */
export function fastForwardRefusals(input: SimInput, def: CcDefinition, net: NetworkConfig): string[] {
  const out: string[] = [];
  const why = (field: string, text: string): void => {
    out.push(`${field}: ${text}`);
  };
  if (def.fastForward !== true) why('cc', `${def.name} does not support fast-forward yet (its state must move with the sequence numbers: cc/types.ts shiftSeq)`);
  if (!net.switch.pfcEnabled) why('network.switch.pfcEnabled', 'false (a lossy fabric): drops, retransmissions and timeouts cannot be skipped');
  if (net.transport.retxMode !== 'gbn') why('network.transport.retxMode', `${net.transport.retxMode}: only go-back-N keeps no per-packet sender state`);
  if (net.transport.sendDriver !== 'sender') why('network.transport.sendDriver', `${net.transport.sendDriver}: receiver-driven and BFC sending keep per-packet credit`);
  if (net.switch.bfc !== undefined) why('network.switch.bfc', 'per-flow pauses are not steady state');
  if (input.linkEvents.length > 0) why('events', `${input.linkEvents.length} link event(s): a changing topology is not skipped`);
  if (input.circuitSchedule !== undefined || input.topology.rdcn !== undefined) why('schedule', 'circuit schedules change the topology every slot');
  const m = input.metrics;
  const series: string[] = [];
  if (m.queuePorts.length > 0 || m.queueAuto !== undefined) series.push('queues');
  if (m.throughputPorts.length > 0) series.push('throughput');
  if (m.flowThroughput !== null) series.push('flowThroughput');
  if (m.ccTrace !== null) series.push('ccTrace');
  if (m.switchBuffer !== undefined) series.push('switchBuffer');
  if (m.breakdown === true) series.push('breakdown');
  if (input.fastForward?.replay === true) {
    // docs/performance.md, "Reuse of recurring contention patterns": when a replay is valid
    const r = (text: string): void => why('engine.fastForward.replay', text);
    if (input.flows.length > 0 || input.flowStream !== undefined) r('listed or streamed flows: a replayed job must run alone');
    if ((input.drivers ?? []).length !== 1) r(`${(input.drivers ?? []).length} closed-loop workloads: a replayed job must run alone (one collective entry, one group)`);
    if (net.switch.loadBalancing === 'spray') r('per-packet spraying draws a path for every packet');
    const needs = def.needs;
    if (needs.ecn === true || needs.cnp === true) r(`${def.name} reacts to ECN marks, which switches draw at random`);
  }
  if (series.length > 0) why(`metrics.${series[0]!}`, `time series and the FCT breakdown inside skipped spans are not produced yet (asked: ${series.join(', ')})`);
  return out;
}
