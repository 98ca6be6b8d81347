/**
 * The protobuf tables against the zod schemas: every JSON name a table can produce must be a
 * field the kind's schema knows (else a protobuf body would fail strict field validation
 * where the same JSON passes), and every served kind kubectl's typed clients write has a table.
 */
import { describe, expect, it } from 'vitest';
import { builtinDefinitions } from './builtin.js';
import { protobufMessageFor } from './builtin-protobuf.js';
import { isScalar, type MessageType } from './protobuf/message-type.js';
import { apiVersionOf } from './resource-definition.js';
import { childSchema, deref, itemSchema, type SchemaDocument, type SchemaNode, schemaDocumentOf } from './schema-node.js';

/** unknownNames lists table paths whose JSON name the schema node does not declare. */
function unknownNames(type: MessageType, node: SchemaNode | undefined, doc: SchemaDocument, path: string): string[] {
  const resolved = deref(node, doc);
  if (!resolved || resolved['x-kubernetes-preserve-unknown-fields'] || type.toJson) return [];
  return Object.values(type.fields).flatMap((spec) => {
    if (spec.inline) return isScalar(spec.type) ? [] : unknownNames(spec.type, resolved, doc, path);
    const at = `${path}.${spec.json}`;
    // A loose object (additionalProperties) takes any field it does not declare.
    if (!resolved.properties?.[spec.json]) return resolved.additionalProperties ? [] : [at];
    const child = childSchema(resolved, spec.json, doc);
    if (!child) return [at];
    if (isScalar(spec.type)) return [];
    if (spec.cardinality === 'repeated') return unknownNames(spec.type, itemSchema(child, doc), doc, `${at}[]`);
    if (spec.cardinality === 'map') {
      const values = typeof child.additionalProperties === 'object' ? child.additionalProperties : undefined;
      return unknownNames(spec.type, values, doc, `${at}{}`);
    }
    return unknownNames(spec.type, child, doc, at);
  });
}

const served = builtinDefinitions().filter((def) => protobufMessageFor(apiVersionOf(def), def.kind));

describe('built-in protobuf tables', () => {
  it.each(served.map((def) => [`${apiVersionOf(def)} ${def.kind}`, def] as const))('%s: every field is one the schema knows', (_, def) => {
    const doc = schemaDocumentOf(def.schema);
    const table = protobufMessageFor(apiVersionOf(def), def.kind)!;
    expect(unknownNames(table, doc.root, doc, def.kind)).toEqual([]);
  });

  it('cover the kinds kubectl ≥ 1.32 creates through typed clients', () => {
    const kinds = [
      'v1/Pod',
      'v1/Service',
      'v1/Namespace',
      'v1/ConfigMap',
      'v1/Secret',
      'v1/ServiceAccount',
      'apps/v1/Deployment',
      'autoscaling/v1/HorizontalPodAutoscaler',
      'autoscaling/v2/HorizontalPodAutoscaler',
    ];
    for (const kind of kinds) expect(served.map((def) => `${apiVersionOf(def)}/${def.kind}`)).toContain(kind);
  });
});
