import { describe, expect, it } from 'vitest';
import { childSchema, deref, itemSchema } from '../../api/schema-node.js';
import { FieldType } from '../../fieldmanager/field-type.js';
import { findUnknownFields } from '../../registry/unknown-fields.js';
import { objectWith } from './testing/render.js';
import { modelName, toSchemaDocument } from './to-schema-node.js';
import type { JSONSchemaProps } from './types.js';

const OBJECT_META = '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const gvk = { group: 'stable.example.com', version: 'v1', kind: 'CronTab' };

const schema: JSONSchemaProps = objectWith({
  spec: objectWith({
    cronSpec: { type: 'string', description: 'when' },
    port: { 'x-kubernetes-int-or-string': true },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: objectWith({ name: { type: 'string' }, port: { type: 'integer', default: 80 } }, { required: ['name'] }),
    },
    selector: objectWith({ app: { type: 'string' } }, { 'x-kubernetes-map-type': 'atomic' }),
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, required: ['spec'] },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    nothing: { type: 'string', default: null },
  }),
});

describe('toSchemaDocument', () => {
  const doc = toSchemaDocument(schema, gvk);
  const root = deref(doc.root, doc)!;

  it('names the kind as Kubernetes models do and carries the GVK', () => {
    expect(modelName(gvk)).toBe('com.example.stable.v1.CronTab');
    expect(doc.root).toEqual({ $ref: '#/definitions/com.example.stable.v1.CronTab' });
    expect(root['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
  });

  it('adds TypeMeta and an ObjectMeta reference at the root, with ObjectMeta defined', () => {
    expect(root.properties?.['apiVersion']).toMatchObject({ type: 'string', description: expect.stringContaining('APIVersion defines') });
    expect(root.properties?.['kind']).toMatchObject({ type: 'string', description: expect.stringContaining('Kind is a string value') });
    expect(root.properties?.['metadata']).toEqual({ $ref: OBJECT_META, description: expect.stringContaining("Standard object's metadata") });
    expect(childSchema(root, 'metadata', doc)?.properties?.['labels']).toBeDefined();
    expect(doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference']).toBeDefined();
  });

  it('keeps descriptions, defaults and x-kubernetes extensions, dropping null defaults', () => {
    const spec = childSchema(root, 'spec', doc)!;
    expect(spec.properties?.['cronSpec']).toEqual({ type: 'string', description: 'when' });
    expect(spec.properties?.['ports']).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    expect(itemSchema(spec.properties?.['ports'], doc)?.properties?.['port']).toEqual({ type: 'integer', default: 80 });
    expect(spec.properties?.['selector']?.['x-kubernetes-map-type']).toBe('atomic');
    expect(spec.properties?.['nothing']).toEqual({ type: 'string' });
  });

  it('unfolds int-or-string into anyOf', () => {
    const port = childSchema(childSchema(root, 'spec', doc), 'port', doc);
    expect(port).toEqual({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    const spelled = toSchemaDocument(objectWith({ p: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] } }), gvk);
    expect(childSchema(deref(spelled.root, spelled), 'p', spelled)?.anyOf).toHaveLength(2);
    const withAnyOf = toSchemaDocument(objectWith({ p: { 'x-kubernetes-int-or-string': true, anyOf: [{ maxLength: 3 }] } }), gvk);
    expect(deref(withAnyOf.root, withAnyOf)?.properties?.['p']).toEqual({
      'x-kubernetes-int-or-string': true,
      anyOf: [{ maxLength: 3 }],
      allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }],
    });
  });

  it('gives embedded resources TypeMeta, ObjectMeta and required kind/apiVersion', () => {
    const template = childSchema(childSchema(root, 'spec', doc), 'template', doc)!;
    expect(Object.keys(template.properties ?? {})).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(template.properties?.['metadata']?.$ref).toBe(OBJECT_META);
    expect(template.required).toEqual(['spec', 'kind', 'apiVersion']);
  });

  it('is walkable by server-side apply and unknown-field detection', () => {
    const ports = FieldType.root(doc).field('spec').field('ports');
    expect(ports.shape).toBe('list');
    expect(ports.listType).toBe('map');
    expect(ports.listKeys).toEqual(['name']);
    expect(FieldType.root(doc).field('spec').field('selector').isAtomic).toBe(true);
    expect(FieldType.root(doc).field('spec').field('port').shape).toBe('scalar');
    const unknown = findUnknownFields(
      { metadata: { name: 'x', bogus: 1 }, spec: { cronSpec: '*', extra: 1, free: { any: 1 }, template: { x: 1 } } },
      doc.root,
      doc,
    );
    expect(unknown.sort()).toEqual(['metadata.bogus', 'spec.extra']);
  });

  it('does not change the schema it converts', () => {
    const before = structuredClone(schema);
    toSchemaDocument(schema, gvk);
    expect(schema).toEqual(before);
  });
});
