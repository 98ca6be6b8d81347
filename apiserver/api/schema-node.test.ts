import { describe, expect, it } from 'vitest';
import { refName, resolveSchema, type SchemaDocument, type SchemaNode } from './schema-node.js';

const pod: SchemaNode = { type: 'object', properties: { spec: { type: 'object' } } };
const doc: SchemaDocument = {
  root: { $ref: '#/definitions/io.k8s.api.core.v1.Pod' },
  definitions: {
    'io.k8s.api.core.v1.Pod': pod,
    alias: { allOf: [{ $ref: '#/definitions/io.k8s.api.core.v1.Pod' }], description: 'an alias' },
    loop: { $ref: '#/definitions/loop' },
  },
};

describe('resolveSchema', () => {
  it('follows $refs and lone allOfs to the concrete node', () => {
    expect(resolveSchema(doc.root, doc)).toBe(pod);
    expect(resolveSchema({ $ref: '#/definitions/alias' }, doc)).toBe(pod);
    expect(resolveSchema(pod, doc)).toBe(pod);
  });

  it('steps into a nullable anyOf/oneOf only when asked', () => {
    const nullable: SchemaNode = { anyOf: [{ $ref: '#/definitions/io.k8s.api.core.v1.Pod' }, { type: 'null' }] };
    expect(resolveSchema(nullable, doc)).toBe(nullable);
    expect(resolveSchema(nullable, doc, { nullable: true })).toBe(pod);
    expect(resolveSchema({ oneOf: [{ type: 'string' }, { type: 'integer' }] }, doc, { nullable: true })?.oneOf).toHaveLength(2);
  });

  it('visits every node on the way, the concrete one last', () => {
    const seen: SchemaNode[] = [];
    resolveSchema({ $ref: '#/definitions/alias', 'x-kubernetes-patch-strategy': 'merge' }, doc, { visit: (node) => seen.push(node) });
    expect(seen.map((node) => refName(node) ?? node.description ?? node.type)).toEqual(['alias', 'an alias', 'io.k8s.api.core.v1.Pod', 'object']);
  });

  it('gives undefined for a dangling $ref and stops on a reference cycle', () => {
    expect(resolveSchema({ $ref: '#/definitions/missing' }, doc)).toBeUndefined();
    expect(resolveSchema({ $ref: '#/definitions/loop' }, doc)?.$ref).toBe('#/definitions/loop');
  });
});
