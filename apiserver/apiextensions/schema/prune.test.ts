import { describe, expect, it } from 'vitest';
import { pruneUnknownFields } from './prune.js';
import { objectWith } from './testing/render.js';
import type { JSONSchemaProps } from './types.js';

interface Case {
  name: string;
  schema: JSONSchemaProps;
  value: unknown;
  pruned: unknown;
  paths: string[];
}

const preserve = { 'x-kubernetes-preserve-unknown-fields': true } as const;
const embedded = { type: 'object', 'x-kubernetes-embedded-resource': true } as const;

const cases: Case[] = [
  {
    name: 'drops unspecified fields at every level, keeping root TypeMeta and metadata',
    schema: objectWith({ spec: objectWith({ replicas: { type: 'integer' } }) }),
    value: { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x', anything: 1 }, spec: { replicas: 1, extra: true }, status: { s: 1 } },
    pruned: { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x', anything: 1 }, spec: { replicas: 1 } },
    paths: ['spec.extra', 'status'],
  },
  {
    name: 'walks list items and map values',
    schema: objectWith({
      list: { type: 'array', items: objectWith({ a: { type: 'string' } }) },
      map: { type: 'object', additionalProperties: objectWith({ b: { type: 'string' } }) },
    }),
    value: { list: [{ a: 'x', z: 1 }, { z: 2 }], map: { k1: { b: 'y', z: 3 } } },
    pruned: { list: [{ a: 'x' }, {}], map: { k1: { b: 'y' } } },
    paths: ['list[0].z', 'list[1].z', 'map.k1.z'],
  },
  {
    name: 'keeps everything under x-kubernetes-preserve-unknown-fields',
    schema: objectWith({ config: { type: 'object', ...preserve } }),
    value: { config: { any: { deep: [1, { x: 2 }] } }, other: 1 },
    pruned: { config: { any: { deep: [1, { x: 2 }] } } },
    paths: ['other'],
  },
  {
    name: 'prunes again where a preserved subtree specifies properties',
    schema: objectWith({ config: { type: 'object', ...preserve, properties: { strict: objectWith({ a: { type: 'string' } }) } } }),
    value: { config: { free: { x: 1 }, strict: { a: 'y', b: 'z' } } },
    pruned: { config: { free: { x: 1 }, strict: { a: 'y' } } },
    paths: ['config.strict.b'],
  },
  {
    name: 'preserves unknown fields at the root but prunes specified children',
    schema: { type: 'object', ...preserve, properties: { spec: objectWith({ a: { type: 'string' } }) } },
    value: { anything: 1, spec: { a: 'x', b: 'y' } },
    pruned: { anything: 1, spec: { a: 'x' } },
    paths: ['spec.b'],
  },
  {
    name: 'additionalProperties: true keeps keys but not what is below them',
    schema: objectWith({ m: { type: 'object', additionalProperties: true } }),
    value: { m: { a: 1, b: { c: 2 } } },
    pruned: { m: { a: 1, b: {} } },
    paths: ['m.b.c'],
  },
  {
    name: 'embedded resources keep their TypeMeta; their metadata is re-encoded as ObjectMeta',
    schema: objectWith({ template: { ...embedded, properties: { spec: objectWith({ x: { type: 'string' } }) } } }),
    value: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1, labels: {} }, spec: { x: 'a', y: 'b' }, extra: 1 } },
    pruned: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 'a' } } },
    paths: ['template.extra', 'template.spec.y', 'template.metadata.bogus'],
  },
  {
    name: 'embedded resources that preserve unknown fields',
    schema: objectWith({ items: { type: 'array', items: { ...embedded, ...preserve } } }),
    value: { items: [{ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' }, metadata: { name: 'c', creationTimestamp: null } }] },
    pruned: { items: [{ apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' }, metadata: { name: 'c' } }] },
    paths: [],
  },
  {
    name: 'nested objects named metadata are pruned like any field',
    schema: objectWith({ spec: objectWith({ a: { type: 'string' } }) }),
    value: { spec: { a: 'x', metadata: {}, kind: 'y' } },
    pruned: { spec: { a: 'x' } },
    paths: ['spec.kind', 'spec.metadata'],
  },
  {
    name: 'drops nulls of non-nullable fields without defaults, keeps the others',
    schema: objectWith({
      a: { type: 'string' },
      b: { type: 'string', nullable: true },
      c: { type: 'string', default: 'x' },
      m: { type: 'object', additionalProperties: { type: 'string' } },
      l: { type: 'array', items: { type: 'string' } },
    }),
    value: { a: null, b: null, c: null, m: { k: null }, l: [null] },
    pruned: { b: null, c: null, m: {}, l: [null] },
    paths: [],
  },
];

describe('pruneUnknownFields', () => {
  for (const c of cases) {
    it(c.name, () => {
      const value = structuredClone(c.value);
      expect(pruneUnknownFields(c.schema, value)).toEqual(c.paths);
      expect(value).toEqual(c.pruned);
    });
  }

  it('returns no paths and changes nothing for a value that fits', () => {
    const schema = objectWith({ spec: objectWith({ a: { type: 'string' } }) });
    const value = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec: { a: 'b' } };
    expect(pruneUnknownFields(schema, value)).toEqual([]);
    expect(value).toEqual({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec: { a: 'b' } });
  });
});
