/**
 * What a CC turns on in the network (`CcDefinition.network`, e.g. NDP's
 * trimming, spraying and lossy fabric): the settings are applied over the
 * profile (and the spec's own network fields) once, before the network is
 * built, and a spec field that contradicts one is reported with both names.
 */
import type { NetworkConfig } from '../net/config.js';
import type { CcDefinition, CcNetworkSetting } from './types.js';

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function at(root: unknown, path: readonly string[]): unknown {
  let v = root;
  for (const k of path) {
    if (!isObj(v)) return undefined;
    v = v[k];
  }
  return v;
}

function named(v: unknown): string | undefined {
  return isObj(v) && typeof v.name === 'string' ? v.name : undefined;
}

/** The settings CC `def` with parsed `params` requires of `net` (none for most CCs). */
export function ccNetworkSettings(def: CcDefinition, params: unknown, net: NetworkConfig): CcNetworkSetting[] {
  return def.network === undefined ? [] : def.network(params as never, net);
}

/** `net` with the settings applied (a copy; `net` is not changed). Applying twice changes nothing more. */
export function applyCcNetwork(net: NetworkConfig, settings: readonly CcNetworkSetting[]): NetworkConfig {
  if (settings.length === 0) return net;
  const out = structuredClone(net) as unknown as Obj;
  for (const s of settings) {
    let o: Obj = out;
    for (const k of s.path.slice(0, -1)) {
      if (!isObj(o[k])) o[k] = {};
      o = o[k] as Obj;
    }
    const last = s.path[s.path.length - 1]!;
    if (s.append === true) {
      const list = Array.isArray(o[last]) ? (o[last] as unknown[]) : [];
      if (!list.some((e) => named(e) === named(s.value))) list.push(structuredClone(s.value));
      o[last] = list;
    } else o[last] = structuredClone(s.value);
  }
  return out as unknown as NetworkConfig;
}

/**
 * The settings a spec's own `network:` block (as written, before the profile)
 * contradicts, with the value it gives. A list setting (`append`) is never
 * contradicted: an entry of the same name the spec lists keeps its parameters.
 */
export function contradictedSettings(specNetwork: unknown, settings: readonly CcNetworkSetting[]): { setting: CcNetworkSetting; value: unknown }[] {
  const out: { setting: CcNetworkSetting; value: unknown }[] = [];
  for (const s of settings) {
    if (s.append === true) continue;
    const v = at(specNetwork, s.path);
    if (v !== undefined && JSON.stringify(v) !== JSON.stringify(s.value)) out.push({ setting: s, value: v });
  }
  return out;
}
