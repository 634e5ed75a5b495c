/**
 * What a congestion control needs from the switches, as one declarative table
 * (`SWITCH_FEATURES`), consulted once when the network is built: for each
 * feature, when it is on (from the CC's needs and the switch profile), which
 * dequeue or admission policy it installs (by registry name,
 * switch-registry.ts) and what it requires of the profile. The simulation
 * passes the CC's `needs` through unchanged; `unmetNeeds` (cc/types.ts) asks
 * the table why a run cannot go.
 *
 * The rows' order is the policies' run order within a phase: marking (RED
 * docs/network-model.md §11.4, TCD docs/algorithms.md §5) before the PFC
 * resume check, telemetry (INT §11.5, MPD §11.5) after it, as the references
 * order them (§11.1 "on dequeue").
 */
import type { CcEcnMarking, NetworkConfig, SwitchConfig } from './config.js';

/**
 * The part of a CC's needs (`CcNeeds`, cc/types.ts) that concerns switches;
 * `CcNeeds` is assignable to it. Every field is optional and absent = false.
 */
export interface SwitchNeeds {
  /** INT hops pushed into data packets (§11.5) */
  int?: boolean;
  /** ECN marking at switches (checked against the profile: it decides, §10.3) */
  ecn?: boolean;
  /** CNPs reach the sender: needs marking, like `ecn` */
  cnp?: boolean;
  /** TCD ternary marks (docs/algorithms.md §5) */
  tcd?: boolean;
  /** Poseidon's max per-hop delay stamp (§11.5) */
  mpd?: boolean;
  /** the CC's own RED thresholds, turning marking on (§11.4) */
  ecnMarking?: CcEcnMarking;
}

/** One row of the needs table. */
export interface SwitchFeature {
  /** the feature (a `SwitchNeeds` key, or the profile setting that turns it on) */
  readonly name: string;
  /** whether the switches of a network with these needs and this switch profile run it */
  on(needs: SwitchNeeds, sw: SwitchConfig): boolean;
  /** the dequeue policy it installs (registry name) and its phase */
  readonly dequeue?: { readonly policy: string; readonly phase: 'marking' | 'telemetry' };
  /** the admission policy it installs (registry name), run after `SwitchConfig.admission`'s */
  readonly admission?: string;
  /** why the profile cannot give it to CC `cc` (empty: it can) */
  unmet?(needs: SwitchNeeds, net: NetworkConfig, cc: string): string[];
}

export const SWITCH_FEATURES: readonly SwitchFeature[] = [
  {
    // the profile marks whatever the CC (D-OSCAR §10.3); a CC's own thresholds turn it on
    name: 'ecn',
    on: (n, sw) => sw.ecn.enabled || n.ecnMarking !== undefined,
    dequeue: { policy: 'red', phase: 'marking' },
    unmet: (n, net, cc) =>
      (n.ecn === true || n.cnp === true) && !net.switch.ecn.enabled && n.ecnMarking === undefined
        ? [`congestion control "${cc}" needs ECN marking, but network.switch.ecn.enabled is false`]
        : [],
  },
  {
    name: 'tcd',
    on: (n) => n.tcd === true,
    dequeue: { policy: 'tcd', phase: 'marking' },
    unmet: (n, net, cc) => {
      if (n.tcd !== true) return [];
      const out: string[] = [];
      if (!net.switch.tcd.enabled) {
        out.push(`congestion control "${cc}" needs TCD marks, but network.switch.tcd.enabled is false in profile "${net.profile}" (use profile acc or set network.switch.tcd.enabled: true)`);
      }
      if (!net.switch.pfcEnabled) {
        out.push(`congestion control "${cc}" needs TCD marks, which detect PFC ON/OFF states, but network.switch.pfcEnabled is false (lossy fabric)`);
      }
      return out;
    },
  },
  { name: 'int', on: (n) => n.int === true, dequeue: { policy: 'int', phase: 'telemetry' } },
  { name: 'mpd', on: (n) => n.mpd === true, dequeue: { policy: 'mpd', phase: 'telemetry' } },
];

/** The policies a switch runs for these needs: dequeue policy names by phase, and admission policy names, in run order. */
export function switchPolicyNames(needs: SwitchNeeds, sw: SwitchConfig): { marking: string[]; telemetry: string[]; admission: string[] } {
  const marking: string[] = [];
  const telemetry: string[] = [];
  const admission: string[] = [];
  for (const f of SWITCH_FEATURES) {
    if (!f.on(needs, sw)) continue;
    if (f.dequeue !== undefined) (f.dequeue.phase === 'marking' ? marking : telemetry).push(f.dequeue.policy);
    if (f.admission !== undefined) admission.push(f.admission);
  }
  return { marking, telemetry, admission };
}

/** Why the profile `net` cannot give CC `cc` what it needs of the switches (empty: it can). */
export function unmetSwitchNeeds(cc: string, needs: SwitchNeeds, net: NetworkConfig): string[] {
  const out: string[] = [];
  for (const f of SWITCH_FEATURES) if (f.unmet !== undefined) out.push(...f.unmet(needs, net, cc));
  return out;
}
