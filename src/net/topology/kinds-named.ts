/**
 * The topology types that name a topology instead of sizing one, each as a
 * `TopologyDefinition` (kinds.ts): `preset`, a named topology of the papers (builders.ts,
 * docs/network-model.md §14), and `file`, a topology file in one of the formats files.ts
 * reads, checked for the shape a run needs (file-problems.ts).
 */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { z } from 'zod';
import { linkDelayField, rateField } from '../../engine/spec-fields.js';
import { TOPOLOGY_PRESETS, topologyPreset } from './builders.js';
import { topologyFileProblems } from './file-problems.js';
import { TOPOLOGY_FILE_FORMATS, loadTopologyFile, type OscarLinkConfig, type TopologyFileFormat } from './files.js';
import type { TopologyDefinition } from './kinds.js';

const presetTopo = z.object({ type: z.literal('preset'), preset: z.enum(TOPOLOGY_PRESETS.map((p) => p.name) as [string, ...string[]]) }).strict();

export const PRESET_TOPOLOGY: TopologyDefinition<z.output<typeof presetTopo>> = {
  type: 'preset',
  summary: 'a named topology: topology: { type: preset, preset: <name> } (the presets are listed below)',
  schema: presetTopo,
  build: (t, ctx) => ctx.guard(['preset'], () => topologyPreset(t.preset)),
};

const linkTypeConfig = z.object({ rate: rateField(), delay: linkDelayField() }).strict();

const fileTopo = z
  .object({
    type: z.literal('file'),
    /** resolved relative to the spec file's directory */
    path: z.string().min(1),
    format: z.enum(TOPOLOGY_FILE_FORMATS as [string, ...string[]]).default('ccsim'),
    /** oscar format: rate and delay per link type (host, switch, switch-oversub, ...) */
    linkConfig: z.record(z.string(), linkTypeConfig).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    if (t.format === 'oscar' && t.linkConfig === undefined) {
      ctx.addIssue({ code: 'custom', path: ['linkConfig'], message: 'required for format oscar (rate and delay per link type)' });
    }
  });

export const FILE_TOPOLOGY: TopologyDefinition<z.output<typeof fileTopo>> = {
  type: 'file',
  summary: `a topology file: path (relative to the spec), format (${TOPOLOGY_FILE_FORMATS.join(', ')}), linkConfig for oscar`,
  schema: fileTopo,
  build: (t, ctx) => {
    const path = isAbsolute(t.path) ? t.path : resolvePath(ctx.specDir, t.path);
    let linkConfig: OscarLinkConfig | undefined;
    if (t.linkConfig !== undefined) {
      linkConfig = Object.fromEntries(Object.entries(t.linkConfig).map(([k, v]) => [k, { rateBps: v.rate, delayPs: v.delay }]));
    }
    const { limits } = ctx;
    const loaded = ctx.guard(['path'], () => loadTopologyFile(path, t.format as TopologyFileFormat, linkConfig, limits.fileBytes, { hosts: limits.hosts, links: limits.links }));
    ctx.checkSize({ hosts: loaded.topology.hostCount, links: loaded.topology.links.length });
    for (const problem of topologyFileProblems(loaded, path)) ctx.error(['path'], problem, t.path);
    ctx.throwIfAny();
    const identity = loaded.newIds.every((v, i) => v === i);
    return identity ? { topology: loaded.topology } : { topology: loaded.topology, newIds: loaded.newIds };
  },
};
