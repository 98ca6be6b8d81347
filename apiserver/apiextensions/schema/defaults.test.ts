import { describe, expect, it } from 'vitest';
import { applyDefaults } from './defaults.js';
import { objectWith } from './testing/render.js';
import type { JSONSchemaProps } from './types.js';

const schema: JSONSchemaProps = objectWith({
  spec: objectWith(
    {
      replicas: { type: 'integer', default: 1 },
      mode: { type: 'string', default: 'auto' },
      nullableMode: { type: 'string', nullable: true, default: 'n' },
      resources: objectWith({ cpu: { type: 'string', default: '100m' } }, { default: {} }),
      strategy: objectWith({ type: { type: 'string', default: 'Rolling' }, limits: objectWith({ max: { type: 'integer', default: 3 } }) }),
      ports: { type: 'array', items: objectWith({ protocol: { type: 'string', default: 'TCP' }, port: { type: 'integer' } }, { default: { port: 80 } }) },
      env: { type: 'object', additionalProperties: objectWith({ value: { type: 'string', default: 'v' } }, { default: { value: 'null-default' } }) },
    },
    { default: {} },
  ),
  status: objectWith({ phase: { type: 'string', default: 'Pending' } }),
});

/** base is what defaulting adds to an empty spec. */
const base = { replicas: 1, mode: 'auto', nullableMode: 'n', resources: { cpu: '100m' } };

describe('applyDefaults', () => {
  it.each<[string, unknown, unknown]>([
    ['creates a defaulted parent and fills its children top-down', {}, { spec: base }],
    ['keeps values that are set', { spec: { replicas: 3, mode: 'manual' } }, { spec: { ...base, replicas: 3, mode: 'manual' } }],
    [
      'replaces null of non-nullable fields, keeps null where nullable',
      { spec: { replicas: null, nullableMode: null } },
      { spec: { ...base, nullableMode: null } },
    ],
    ['defaults inside objects only when they exist', { spec: { strategy: {} } }, { spec: { ...base, strategy: { type: 'Rolling' } } }],
    [
      'defaults list items, and replaces null items with the item default',
      { spec: { ports: [{ port: 8080 }, null] } },
      {
        spec: {
          ...base,
          ports: [
            { port: 8080, protocol: 'TCP' },
            { port: 80, protocol: 'TCP' },
          ],
        },
      },
    ],
    [
      'defaults map values, and replaces null values with the map default',
      { spec: { env: { A: {}, B: null } } },
      { spec: { ...base, env: { A: { value: 'v' }, B: { value: 'null-default' } } } },
    ],
    ['does not create status (no default of its own)', { status: undefined }, { status: undefined, spec: base }],
    ['fills status fields once status exists', { status: {} }, { status: { phase: 'Pending' }, spec: base }],
  ])('%s', (_name, input, expected) => {
    const value = structuredClone(input);
    applyDefaults(schema, value);
    expect(value).toEqual(expected);
  });

  it('copies defaults, so objects never share them', () => {
    const a: Record<string, any> = {};
    const b: Record<string, any> = {};
    applyDefaults(schema, a);
    applyDefaults(schema, b);
    a['spec'].resources.cpu = 'changed';
    expect(b['spec'].resources.cpu).toBe('100m');
    expect(schema.properties?.['spec']?.properties?.['resources']?.default).toEqual({});
  });

  it('leaves null items without a default alone, and ignores default: null', () => {
    const s = objectWith({ l: { type: 'array', items: { type: 'string' } }, n: { type: 'string', default: null } });
    const value = { l: [null] };
    applyDefaults(s, value);
    expect(value).toEqual({ l: [null] });
  });

  it('is idempotent', () => {
    const value = { spec: { ports: [{}] } };
    applyDefaults(schema, value);
    const once = structuredClone(value);
    applyDefaults(schema, value);
    expect(value).toEqual(once);
  });
});
