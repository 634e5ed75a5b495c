/**
 * The network settings a CC turns on (`CcDefinition.network`, e.g. Homa's
 * strict priority levels and grant-driven sending, docs/algorithms.md
 * "Homa"): applied over the profile when a spec is resolved, so choosing the
 * CC is enough and manifest.json's `resolved.net` shows what it set. A spec
 * that sets one of those fields to something else contradicts the CC: that
 * is a spec error naming both fields, never a silent override.
 */
import type { NetworkConfig } from '../net/config.js';
import type { CcDefinition, CcNetworkSetting } from './types.js';

/** A contradiction between the spec's network and the CC: the network field (path under `network`), its value, the message. */
export interface CcSettingConflict {
  path: ['network', string, string];
  value: unknown;
  message: string;
}

function fieldOf(net: NetworkConfig, s: CcNetworkSetting): unknown {
  return (net[s.path[0]] as unknown as Record<string, unknown>)[s.path[1]];
}

/**
 * Applies `def`'s settings to `net` (in place). `explicit` is the spec's own
 * `network` block (before the profile was merged in): a field it sets to
 * another value is a conflict, and the field keeps the spec's value.
 */
export function applyCcNetwork(def: CcDefinition, net: NetworkConfig, explicit: unknown): CcSettingConflict[] {
  const out: CcSettingConflict[] = [];
  for (const s of def.network ?? []) {
    const [section, key] = s.path;
    const block = isRecord(explicit) ? explicit[section] : undefined;
    const given = isRecord(block) ? block[key] : undefined;
    if (given !== undefined && given !== s.value) {
      out.push({
        path: ['network', section, key],
        value: given,
        message: `contradicts cc.name: ${def.name}, which needs network.${section}.${key}: ${String(s.value)} (${s.why})`,
      });
      continue;
    }
    (net[section] as unknown as Record<string, unknown>)[key] = s.value;
  }
  return out;
}

/** The settings of `def` that `net` does not have, one message each (a run built without spec resolution). */
export function unmetCcNetwork(def: CcDefinition, net: NetworkConfig): string[] {
  const out: string[] = [];
  for (const s of def.network ?? []) {
    const v = fieldOf(net, s);
    // an unset optional field (switch.discipline) is met by the setting its sibling gives (switch.service)
    if (v === undefined && s.path[1] === 'discipline') continue;
    if (v !== s.value) {
      out.push(`congestion control "${def.name}" needs network.${s.path[0]}.${s.path[1]}: ${String(s.value)} (${s.why}), got ${String(v)}`);
    }
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
