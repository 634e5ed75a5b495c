/**
 * Topology file loaders (docs/network-model.md §14): ccsim's own JSON format and
 * the three reference text formats ([H] HPCC, [P] PowerTCP, [O] OSCAR). The
 * reference formats may interleave switch ids with host ids; loaders renumber
 * so hosts come first (hosts, then switches, each in ascending original id)
 * and return the mapping. Errors name the source and, for text formats, the line.
 */
import { existsSync } from 'node:fs';
import { parseJsonBounded, readTextFileCapped } from '../../engine/io.js';
import { LINK_DELAY_MAX_PS, LINK_RATE_MAX_BPS, LINK_RATE_MIN_BPS, linkDelayProblem, linkRateProblem } from '../../engine/plausibility.js';
import { basename, extname } from 'node:path';
import { parseRate, parseTimePs } from '../../engine/units.js';
import type { Layer, NodeKind, TopoLink, TopoNode, Topology } from './types.js';
import { LAYERS, validateTopology } from './validate.js';

export type TopologyFileFormat = 'ccsim' | 'hpcc' | 'powertcp' | 'oscar';
export const TOPOLOGY_FILE_FORMATS: readonly TopologyFileFormat[] = ['ccsim', 'hpcc', 'powertcp', 'oscar'];

/** Rate and delay of each [O] link type (`host`, `switch`, `switch-oversub`, ...), from the experiment's linkConfig. */
export type OscarLinkConfig = Record<string, { rateBps: number; delayPs: number }>;

export interface LoadedTopology {
  topology: Topology;
  /** originalIds[newId] = the node's id in the file (ccsim JSON: its index in `nodes`) */
  originalIds: number[];
  /** newIds[originalId] = the node's id in `topology` */
  newIds: number[];
  /** [P] only: the ToR switches (the first `tors` ids of the switch line), as new ids */
  torIds?: number[];
  /** where each of `topology.links` is written in the file (`file:line`, or `file: links[i]` for JSON), for error messages */
  linkSources: string[];
}

// ---------------------------------------------------------------------------------------------
// shared helpers

/**
 * Layer labels from the shape: a switch's hop distance d to the nearest host
 * (through switches) gives 'tor' (d = 1), and then
 * - two-tier fabrics (max d = 2): d = 1 'leaf', d = 2 'spine';
 * - three-tier (max d = 3): 'tor', 'agg', 'core';
 * - otherwise d = 1 'tor' and deeper (or unreachable) switches 'switch'.
 */
export function inferSwitchLayers(nodeCount: number, hostCount: number, links: readonly { a: number; b: number }[]): Layer[] {
  const adj: number[][] = Array.from({ length: nodeCount }, () => []);
  for (const l of links) {
    adj[l.a]!.push(l.b);
    adj[l.b]!.push(l.a);
  }
  const dist = new Int32Array(nodeCount).fill(-1);
  const queue: number[] = [];
  for (let h = 0; h < hostCount; h++) {
    for (const nb of adj[h]!) {
      if (nb >= hostCount && dist[nb] === -1) {
        dist[nb] = 1;
        queue.push(nb);
      }
    }
  }
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const nb of adj[v]!) {
      if (nb >= hostCount && dist[nb] === -1) {
        dist[nb] = dist[v]! + 1;
        queue.push(nb);
      }
    }
  }
  let maxD = 0;
  for (let v = hostCount; v < nodeCount; v++) maxD = Math.max(maxD, dist[v]!);
  const layers: Layer[] = [];
  for (let v = 0; v < nodeCount; v++) {
    const d = dist[v]!;
    if (v < hostCount) layers.push('host');
    else if (maxD === 2) layers.push(d === 1 ? 'leaf' : d === 2 ? 'spine' : 'switch');
    else if (maxD === 3) layers.push(d === 1 ? 'tor' : d === 2 ? 'agg' : d === 3 ? 'core' : 'switch');
    else layers.push(d === 1 ? 'tor' : 'switch');
  }
  return layers;
}

function topologyNameOf(source: string): string {
  const b = basename(source);
  const ext = extname(b);
  const stem = ext.length > 0 && ext.length < b.length ? b.slice(0, -ext.length) : b;
  return stem.length > 0 ? stem : 'topology';
}

function errMsg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Order: hosts then switches, each ascending by original id. Returns [originalIds, newIds]. */
function renumber(isSwitch: readonly boolean[]): [number[], number[]] {
  const originalIds: number[] = [];
  for (let i = 0; i < isSwitch.length; i++) if (!isSwitch[i]) originalIds.push(i);
  for (let i = 0; i < isSwitch.length; i++) if (isSwitch[i]) originalIds.push(i);
  const newIds = new Array<number>(isSwitch.length);
  originalIds.forEach((orig, id) => (newIds[orig] = id));
  return [originalIds, newIds];
}

// ---------------------------------------------------------------------------------------------
// ccsim JSON

interface RawLink {
  a: number;
  b: number;
  rateBps: number;
  delayPs: number;
  /** where the link is written (for errors) */
  where: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkKeys(where: string, rec: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(rec)) {
    if (!known.includes(k)) throw new Error(`${where}.${k}: unknown field (known: ${known.join(', ')})`);
  }
}

/**
 * ccsim JSON topology:
 * `{ "name"?: string, "nodes": [{ "name", "kind": "host"|"switch", "layer"? }],
 *    "links": [{ "a": name|index, "b": name|index, "rate": "100Gbps"|bps, "delay": "1us"|seconds }] }`.
 * Link endpoints are node names or indices into `nodes`. Nodes are reordered
 * hosts first (relative order kept); names are kept. A missing switch layer is
 * inferred from the shape (see inferSwitchLayers).
 */
export function parseCcsimTopology(text: string, source: string): LoadedTopology {
  let doc: unknown;
  try {
    doc = parseJsonBounded(text, 'topology file', source);
  } catch (e) {
    const msg = errMsg(e);
    throw new Error(msg.startsWith('topology file') ? msg : `${source}: invalid JSON: ${msg}`);
  }
  if (!isRecord(doc)) throw new Error(`${source}: top level must be an object with "nodes" and "links"`);
  checkKeys(source, doc, ['name', 'nodes', 'links']);
  if (doc.name !== undefined && (typeof doc.name !== 'string' || doc.name.length === 0)) {
    throw new Error(`${source}.name: must be a non-empty string, got ${JSON.stringify(doc.name)}`);
  }
  if (!Array.isArray(doc.nodes) || doc.nodes.length === 0) throw new Error(`${source}.nodes: must be a non-empty array`);
  if (!Array.isArray(doc.links)) throw new Error(`${source}.links: must be an array`);

  const rawNodes: { name: string; kind: NodeKind; layer: Layer | undefined }[] = [];
  const byName = new Map<string, number>();
  doc.nodes.forEach((n: unknown, i: number) => {
    const where = `${source}: nodes[${i}]`;
    if (!isRecord(n)) throw new Error(`${where}: must be an object`);
    checkKeys(where, n, ['name', 'kind', 'layer']);
    if (typeof n.name !== 'string' || n.name.length === 0) throw new Error(`${where}.name: must be a non-empty string, got ${JSON.stringify(n.name)}`);
    if (byName.has(n.name)) throw new Error(`${where}.name: duplicate node name "${n.name}" (also nodes[${byName.get(n.name)}])`);
    if (n.kind !== 'host' && n.kind !== 'switch') throw new Error(`${where}.kind: must be "host" or "switch", got ${JSON.stringify(n.kind)}`);
    let layer: Layer | undefined;
    if (n.layer !== undefined) {
      if (typeof n.layer !== 'string' || !(LAYERS as readonly string[]).includes(n.layer)) {
        throw new Error(`${where}.layer: must be one of ${LAYERS.join(', ')}, got ${JSON.stringify(n.layer)}`);
      }
      layer = n.layer as Layer;
      if ((n.kind === 'host') !== (layer === 'host')) throw new Error(`${where}.layer: a ${n.kind} cannot have layer "${layer}"`);
    }
    byName.set(n.name, i);
    rawNodes.push({ name: n.name, kind: n.kind, layer });
  });

  const endpoint = (where: string, v: unknown): number => {
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || v < 0 || v >= rawNodes.length) {
        throw new Error(`${where}: node index ${v} out of range 0..${rawNodes.length - 1}`);
      }
      return v;
    }
    if (typeof v === 'string') {
      const id = byName.get(v);
      if (id === undefined) throw new Error(`${where}: unknown node "${v}"`);
      return id;
    }
    throw new Error(`${where}: must be a node name or index, got ${JSON.stringify(v)}`);
  };
  const rawLinks: RawLink[] = [];
  doc.links.forEach((l: unknown, i: number) => {
    const where = `${source}: links[${i}]`;
    if (!isRecord(l)) throw new Error(`${where}: must be an object`);
    checkKeys(where, l, ['a', 'b', 'rate', 'delay']);
    const a = endpoint(`${where}.a`, l.a);
    const b = endpoint(`${where}.b`, l.b);
    if (a === b) throw new Error(`${where}: connects node "${rawNodes[a]!.name}" to itself`);
    if (typeof l.rate !== 'number' && typeof l.rate !== 'string') throw new Error(`${where}.rate: must be a string like "100Gbps" or a number in bps`);
    if (typeof l.delay !== 'number' && typeof l.delay !== 'string') throw new Error(`${where}.delay: must be a string like "1us" or a number in seconds`);
    let rateBps: number;
    let delayPs: number;
    try {
      rateBps = parseRate(l.rate);
    } catch (e) {
      throw new Error(`${where}.rate: ${errMsg(e)}`);
    }
    try {
      delayPs = parseTimePs(l.delay);
    } catch (e) {
      throw new Error(`${where}.delay: ${errMsg(e)}`);
    }
    const rateProblem = linkRateProblem(rateBps);
    if (rateProblem !== undefined) throw new Error(`${where}.rate: ${JSON.stringify(l.rate)} ${rateProblem}`);
    const delayProblem = linkDelayProblem(delayPs);
    if (delayProblem !== undefined) throw new Error(`${where}.delay: ${JSON.stringify(l.delay)} ${delayProblem}`);
    rawLinks.push({ a, b, rateBps, delayPs, where });
  });

  const [originalIds, newIds] = renumber(rawNodes.map((n) => n.kind === 'switch'));
  const hostCount = rawNodes.filter((n) => n.kind === 'host').length;
  const links: TopoLink[] = rawLinks.map((l) => ({ a: newIds[l.a]!, b: newIds[l.b]!, rateBps: l.rateBps, delayPs: l.delayPs }));
  const inferred = inferSwitchLayers(rawNodes.length, hostCount, links);
  const nodes: TopoNode[] = originalIds.map((orig, id) => {
    const r = rawNodes[orig]!;
    return { id, kind: r.kind, name: r.name, layer: r.layer ?? inferred[id]! };
  });
  const topology: Topology = { name: typeof doc.name === 'string' ? doc.name : topologyNameOf(source), nodes, links, hostCount };
  validateTopology(topology);
  return { topology, originalIds, newIds, linkSources: rawLinks.map((l) => l.where) };
}

// ---------------------------------------------------------------------------------------------
// reference text formats

interface Line {
  no: number;
  tokens: string[];
}

/** Non-empty lines split on whitespace; lines starting with '#' are comments. */
function splitLines(text: string): Line[] {
  const out: Line[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const t = raw.trim();
    if (t.length === 0 || t.startsWith('#')) return;
    out.push({ no: i + 1, tokens: t.split(/\s+/) });
  });
  return out;
}

function parseIntToken(where: string, what: string, tok: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(tok)) throw new Error(`${where}: ${what} must be an integer, got "${tok}"`);
  const v = Number(tok);
  if (v < min || v > max) throw new Error(`${where}: ${what} ${v} out of range ${min}..${max}`);
  return v;
}

/**
 * Size bounds a topology file's header is checked against before anything is
 * allocated for its nodes (the spec's limits.hosts and limits.links), so a
 * 50-byte file declaring 10^8 nodes fails at once instead of using gigabytes.
 */
export interface TopologyFileBounds {
  readonly hosts: number;
  readonly links: number;
}

/** Rates and delays in a topology file: the plausibility bounds of every link (engine/plausibility.ts). */
const MAX_FILE_DELAY_PS = LINK_DELAY_MAX_PS;
const MIN_FILE_RATE_BPS = LINK_RATE_MIN_BPS;
const MAX_FILE_RATE_BPS = LINK_RATE_MAX_BPS;

interface Header {
  nodes: number;
  switches: number;
  tors: number;
  links: number;
  switchIds: number[];
  /** index into lines of the first link line */
  firstLink: number;
}

function parseHeader(lines: Line[], source: string, fields: readonly string[], bounds: TopologyFileBounds | undefined): Header {
  const first = lines[0];
  if (!first) throw new Error(`${source}: empty file (expected header "${fields.join(' ')}")`);
  const where = `${source}:${first.no}`;
  if (first.tokens.length !== fields.length) {
    throw new Error(`${where}: header must be "${fields.join(' ')}" (${fields.length} integers), got "${first.tokens.join(' ')}"`);
  }
  const vals = first.tokens.map((t, i) => parseIntToken(where, fields[i]!, t, 0, Number.MAX_SAFE_INTEGER));
  const get = (f: string): number => {
    const i = fields.indexOf(f);
    return i < 0 ? 0 : vals[i]!;
  };
  const nodes = get('nodes');
  const switches = get('switches');
  const tors = get('tors');
  if (nodes < 1) throw new Error(`${where}: nodes must be ≥ 1, got ${nodes}`);
  if (switches > nodes) throw new Error(`${where}: switches (${switches}) exceeds nodes (${nodes})`);
  if (tors > switches) throw new Error(`${where}: tors (${tors}) exceeds switches (${switches})`);
  if (bounds !== undefined) {
    if (nodes - switches > bounds.hosts) {
      throw new Error(`${where}: header declares ${(nodes - switches).toLocaleString('en-US')} hosts, above the limit of ${bounds.hosts.toLocaleString('en-US')} (raise limits.hosts to allow it)`);
    }
    if (get('links') > bounds.links) {
      throw new Error(`${where}: header declares ${get('links').toLocaleString('en-US')} links, above the limit of ${bounds.links.toLocaleString('en-US')} (raise limits.links to allow it)`);
    }
    // every switch needs a link: more switches than links cannot be a connected fabric
    if (switches > get('links')) throw new Error(`${where}: header declares ${switches} switches but only ${get('links')} links`);
  }
  const switchIds: number[] = [];
  const seen = new Set<number>();
  let li = 1;
  while (switchIds.length < switches) {
    const line = lines[li];
    if (!line) throw new Error(`${source}: expected ${switches} switch ids after the header, found ${switchIds.length} before end of file`);
    const w = `${source}:${line.no}`;
    if (switchIds.length + line.tokens.length > switches) {
      throw new Error(`${w}: switch id list has ${switchIds.length + line.tokens.length} ids, header says ${switches}`);
    }
    for (const t of line.tokens) {
      const id = parseIntToken(w, 'switch id', t, 0, nodes - 1);
      if (seen.has(id)) throw new Error(`${w}: switch id ${id} listed twice`);
      seen.add(id);
      switchIds.push(id);
    }
    li++;
  }
  const linkLines = lines.length - li;
  if (linkLines !== get('links')) {
    const at = lines[lines.length - 1];
    throw new Error(`${source}${at ? `:${at.no}` : ''}: header says ${get('links')} links, file has ${linkLines} link lines`);
  }
  return { nodes, switches, tors, links: get('links'), switchIds, firstLink: li };
}

function parseEndpoints(where: string, tokens: string[], nodes: number): [number, number] {
  const a = parseIntToken(where, 'src', tokens[0]!, 0, nodes - 1);
  const b = parseIntToken(where, 'dst', tokens[1]!, 0, nodes - 1);
  if (a === b) throw new Error(`${where}: link connects node ${a} to itself`);
  return [a, b];
}

function parseDelayToken(where: string, tok: string): number {
  let ps: number;
  try {
    // a bare number is seconds (ns-3 Time default unit)
    ps = /^[0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?$/i.test(tok) ? parseTimePs(Number(tok)) : parseTimePs(tok);
  } catch (e) {
    throw new Error(`${where}: bad delay: ${errMsg(e)}`);
  }
  if (!(Number.isFinite(ps) && ps >= 0)) throw new Error(`${where}: bad delay "${tok}"`);
  if (ps > MAX_FILE_DELAY_PS) throw new Error(`${where}: delay "${tok}" is above 1 s: not a datacenter link (a bare number is seconds)`);
  return ps;
}

function parseRateToken(where: string, tok: string): number {
  let r: number;
  try {
    r = parseRate(tok);
  } catch (e) {
    throw new Error(`${where}: bad rate: ${errMsg(e)}`);
  }
  if (!(Number.isFinite(r) && r > 0)) throw new Error(`${where}: rate must be > 0, got "${tok}"`);
  if (r < MIN_FILE_RATE_BPS || r > MAX_FILE_RATE_BPS) throw new Error(`${where}: rate "${tok}" is outside 1 kbps .. 100 Tbps: not a link rate`);
  return r;
}

function assemble(source: string, header: Header, rawLinks: RawLink[]): LoadedTopology {
  const isSwitch = new Array<boolean>(header.nodes).fill(false);
  for (const s of header.switchIds) isSwitch[s] = true;
  const [originalIds, newIds] = renumber(isSwitch);
  const hostCount = header.nodes - header.switches;
  const links: TopoLink[] = rawLinks.map((l) => ({ a: newIds[l.a]!, b: newIds[l.b]!, rateBps: l.rateBps, delayPs: l.delayPs }));
  const layers = inferSwitchLayers(header.nodes, hostCount, links);
  const nodes: TopoNode[] = originalIds.map((orig, id) => ({
    id,
    kind: id < hostCount ? 'host' : 'switch',
    name: `n${orig}`,
    layer: layers[id]!,
  }));
  const topology: Topology = { name: topologyNameOf(source), nodes, links, hostCount };
  validateTopology(topology);
  return { topology, originalIds, newIds, linkSources: rawLinks.map((l) => l.where) };
}

/** Parses `src dst rate delay err` lines ([H] and [P]); a non-zero loss rate is rejected. */
function parseRateDelayLinks(lines: Line[], source: string, header: Header): RawLink[] {
  const out: RawLink[] = [];
  for (let i = header.firstLink; i < lines.length; i++) {
    const line = lines[i]!;
    const where = `${source}:${line.no}`;
    if (line.tokens.length !== 5) {
      throw new Error(`${where}: link line must be "src dst rate delay err" (5 fields), got "${line.tokens.join(' ')}"`);
    }
    const [a, b] = parseEndpoints(where, line.tokens, header.nodes);
    const rateBps = parseRateToken(where, line.tokens[2]!);
    const delayPs = parseDelayToken(where, line.tokens[3]!);
    const errTok = line.tokens[4]!;
    const err = Number(errTok);
    if (!Number.isFinite(err) || err < 0 || err > 1) throw new Error(`${where}: error rate must be a number in [0, 1], got "${errTok}"`);
    if (err !== 0) throw new Error(`${where}: per-link loss rate ${errTok} is not supported (only 0)`);
    out.push({ a, b, rateBps, delayPs, where });
  }
  return out;
}

/**
 * [H] HPCC simulator format (`mix/*.txt`): header `nodes switches links`, a
 * line of switch ids, then `src dst rate delay err` per link (rate like
 * `100Gbps`, delay like `1000ns` / `0.001ms` or bare seconds, err must be 0).
 */
export function parseHpccTopology(text: string, source: string, bounds?: TopologyFileBounds): LoadedTopology {
  const lines = splitLines(text);
  const header = parseHeader(lines, source, ['nodes', 'switches', 'links'], bounds);
  return assemble(source, header, parseRateDelayLinks(lines, source, header));
}

/**
 * [P] PowerTCP format (`examples/PowerTCP/topology*.txt`): header
 * `nodes switches tors links`, a line of switch ids (the first `tors` are the
 * ToRs), then `src dst rate delay err` with rate as float bps (or with a unit).
 */
export function parsePowertcpTopology(text: string, source: string, bounds?: TopologyFileBounds): LoadedTopology {
  const lines = splitLines(text);
  const header = parseHeader(lines, source, ['nodes', 'switches', 'tors', 'links'], bounds);
  const loaded = assemble(source, header, parseRateDelayLinks(lines, source, header));
  loaded.torIds = header.switchIds.slice(0, header.tors).map((s) => loaded.newIds[s]!);
  return loaded;
}

/**
 * [O]/[PP] OSCAR format (`config/topo/*.txt`): header `nodes switches links`,
 * a line of switch ids, then `src dst type`; rate and delay of each type come
 * from `linkConfig` (the experiment JSON's linkConfig).
 */
export function parseOscarTopology(text: string, source: string, linkConfig: OscarLinkConfig, bounds?: TopologyFileBounds): LoadedTopology {
  if (!isRecord(linkConfig)) throw new Error(`${source}: linkConfig must be an object mapping link type to { rateBps, delayPs }`);
  for (const [type, c] of Object.entries(linkConfig)) {
    if (!isRecord(c)) throw new Error(`linkConfig.${type}: must be { rateBps, delayPs }`);
    if (typeof c.rateBps !== 'number' || !Number.isFinite(c.rateBps) || c.rateBps <= 0) {
      throw new Error(`linkConfig.${type}.rateBps: must be a positive rate in bps, got ${String(c.rateBps)}`);
    }
    if (typeof c.delayPs !== 'number' || !Number.isInteger(c.delayPs) || c.delayPs < 0) {
      throw new Error(`linkConfig.${type}.delayPs: must be a non-negative integer number of ps, got ${String(c.delayPs)}`);
    }
  }
  const lines = splitLines(text);
  const header = parseHeader(lines, source, ['nodes', 'switches', 'links'], bounds);
  const raw: RawLink[] = [];
  for (let i = header.firstLink; i < lines.length; i++) {
    const line = lines[i]!;
    const where = `${source}:${line.no}`;
    if (line.tokens.length !== 3) throw new Error(`${where}: link line must be "src dst type" (3 fields), got "${line.tokens.join(' ')}"`);
    const [a, b] = parseEndpoints(where, line.tokens, header.nodes);
    const type = line.tokens[2]!;
    const c = Object.prototype.hasOwnProperty.call(linkConfig, type) ? linkConfig[type] : undefined;
    if (!c) throw new Error(`${where}: link type "${type}" has no linkConfig entry (known: ${Object.keys(linkConfig).join(', ') || 'none'})`);
    raw.push({ a, b, rateBps: c.rateBps, delayPs: c.delayPs, where });
  }
  return assemble(source, header, raw);
}

/** Parses topology text in the given format; `source` names it in errors. */
export function parseTopology(text: string, source: string, format: TopologyFileFormat, linkConfig?: OscarLinkConfig, bounds?: TopologyFileBounds): LoadedTopology {
  switch (format) {
    case 'ccsim':
      return parseCcsimTopology(text, source);
    case 'hpcc':
      return parseHpccTopology(text, source, bounds);
    case 'powertcp':
      return parsePowertcpTopology(text, source, bounds);
    case 'oscar':
      if (!linkConfig) throw new Error(`${source}: the oscar topology format needs a linkConfig (rate and delay per link type)`);
      return parseOscarTopology(text, source, linkConfig, bounds);
    default: {
      const bad: unknown = format;
      throw new Error(`${source}: unknown topology format ${JSON.stringify(bad)} (known: ${TOPOLOGY_FILE_FORMATS.join(', ')})`);
    }
  }
}

/** Reads and parses a topology file. Throws "topology file not found: <path>" if it does not exist. */
export function loadTopologyFile(path: string, format: TopologyFileFormat, linkConfig?: OscarLinkConfig, maxBytes?: number, bounds?: TopologyFileBounds): LoadedTopology {
  if (!existsSync(path)) throw new Error(`topology file not found: ${path}`);
  let text: string;
  try {
    text = readTextFileCapped(path, 'topology file', maxBytes);
  } catch (e) {
    const msg = errMsg(e);
    throw new Error(msg.startsWith('topology file') ? msg : `cannot read topology file ${path}: ${msg}`);
  }
  return parseTopology(text, path, format, linkConfig, bounds);
}
