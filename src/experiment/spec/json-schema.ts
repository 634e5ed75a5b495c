/**
 * The JSON Schema of a spec file (`ccsim schema`), generated from the zod
 * schemas (./spec.ts) so it cannot drift from what `ccsim validate` accepts:
 * a run spec plus the experiment keys (sweep, figure, quick). It describes
 * the input as written (`io: 'input'`: units as text such as "1us" or
 * "100Gbps", defaults optional); checks that zod does in code (refinements,
 * cross-field rules, file references) stay with `ccsim validate`, so a spec
 * the schema accepts can still be rejected there, never the other way round.
 * Editors pick it up from the first line of a spec:
 * `# yaml-language-server: $schema=<path>/ccsim.schema.json`.
 */
import { sealSchema } from '../results/ownership.js';
import { z } from 'zod';
import { ccDefinitions } from '../../cc/registry.js';
import { lossRecoveryRegistry, sendDriverRegistry } from '../../transport/strategies.js';
import { admissionPolicyRegistry } from '../../net/switch-registry.js';
import { experimentMetaSchema, specSchema } from './spec.js';

export const SCHEMA_ID = 'https://ccsim.invalid/spec.schema.json';

/**
 * `cc`: a CC name, or `{ name, params, byTag }` with the parameters (types,
 * ranges, defaults, descriptions) that the named CC declares in its file
 * (src/cc/<name>.ts); the spec schema itself takes any params and checks them
 * against the CC once the name is known.
 */
function ccJsonSchema(defs: Record<string, unknown>): Record<string, unknown> {
  const ccs = ccDefinitions();
  const names = ccs.map((c) => c.name);
  const perCc = ccs.map((c) => {
    const { $schema: _drop, ...params } = z.toJSONSchema(c.params, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
    const strict = params['type'] === 'object' ? { ...params, additionalProperties: false } : params;
    const { required, ...override } = strict;
    defs[`cc-params-${c.name}`] = strict;
    const ref = { $ref: `#/$defs/cc-params-${c.name}` };
    return {
      type: 'object',
      description: c.description,
      properties: {
        name: { const: c.name },
        params: ref,
        byTag: { type: 'object', description: 'per-workload-tag parameter overrides, merged over params', additionalProperties: required === undefined ? ref : override },
      },
      required: ['name'],
      additionalProperties: false,
    };
  });
  return { anyOf: [{ type: 'string', enum: names }, ...perCc] };
}

/** Sets `enum` on every property `key` of an object schema below `node`: the names registered now. */
function listNames(node: unknown, key: string, names: readonly string[]): void {
  if (node === null || typeof node !== 'object') return;
  const props = (node as Record<string, unknown>)['properties'] as Record<string, Record<string, unknown>> | undefined;
  if (props !== undefined && props[key] !== undefined) props[key] = { ...props[key], enum: [...names] };
  for (const v of Object.values(node)) listNames(v, key, names);
}

/**
 * `network.switch.admission` items: one alternative per registered admission policy, its
 * `params` from the policy's own schema (with units), or any object for a policy without one.
 */
function admissionItems(): Record<string, unknown> {
  return {
    anyOf: admissionPolicyRegistry.values().map((d) => {
      const params = d.params === undefined ? { type: 'object' } : (({ $schema: _drop, ...s }) => s)(z.toJSONSchema(d.params, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>);
      return { type: 'object', ...(d.description !== undefined ? { description: d.description } : {}), properties: { name: { const: d.name }, params }, required: ['name'], additionalProperties: false };
    }),
  };
}

/** Replaces the `items` of every array property `key` below `node`. */
function setItems(node: unknown, key: string, items: Record<string, unknown>): void {
  if (node === null || typeof node !== 'object') return;
  const props = (node as Record<string, unknown>)['properties'] as Record<string, Record<string, unknown>> | undefined;
  if (props !== undefined && props[key] !== undefined && props[key]['type'] === 'array') props[key] = { ...props[key], items };
  for (const v of Object.values(node)) setItems(v, key, items);
}

export function specJsonSchema(): Record<string, unknown> {
  const file = specSchema.extend(experimentMetaSchema.shape);
  const schema = z.toJSONSchema(file, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12', reused: 'ref' }) as Record<string, unknown>;
  const $defs = { ...(schema['$defs'] as Record<string, unknown> | undefined) };
  const properties = { ...(schema['properties'] as Record<string, unknown>), cc: ccJsonSchema($defs) };
  // the transport's strategies by registered name (transport/strategies.ts), plug-ins' included
  for (const [key, names] of [['sendDriver', sendDriverRegistry.names()], ['retxMode', lossRecoveryRegistry.names()]] as const) {
    listNames(properties, key, names);
    listNames($defs, key, names);
  }
  setItems(properties, 'admission', admissionItems());
  setItems($defs, 'admission', admissionItems());
  // sealed (experiment/results/ownership.ts), so `ccsim schema -o` may later replace the file it wrote and nothing else
  return sealSchema({ ...schema, properties, $defs, title: 'ccsim experiment spec', description: 'A ccsim run or experiment spec (docs/guide.md). Generated by `ccsim schema` from the zod schema.' });
}
