/**
 * The protobuf tables against the zod schemas, both ways: every JSON name a table can produce
 * must be a field the kind's schema knows (else a protobuf body would fail strict field
 * validation where the same JSON passes); every field the schema knows must have a number in
 * the table (else a protobuf body silently loses it); and every served kind kubectl's typed
 * clients write has a table.
 */
import { describe, expect, it } from 'vitest';
import { ScaleSchema } from './autoscaling/scale.js';
import { builtinDefinitions } from './builtin.js';
import { protobufMessageFor } from './builtin-protobuf.js';
import { type FieldSpec, isScalar, type MessageType } from './protobuf/message-type.js';
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

/** fieldsByJson maps every JSON name a message produces (inline fields flattened) to its field. */
function fieldsByJson(type: MessageType): Map<string, FieldSpec> {
  const out = new Map<string, FieldSpec>();
  for (const spec of Object.values(type.fields)) {
    if (spec.inline && !isScalar(spec.type)) for (const [name, inner] of fieldsByJson(spec.type)) out.set(name, inner);
    else out.set(spec.json, spec);
  }
  return out;
}

/** Schema fields no protobuf message carries, by path from the kind. Only TypeMeta: apiVersion
 * and kind travel in the envelope (runtime.Unknown), not in the kind's message. */
const NOT_IN_MESSAGES = (kind: string) => new Set([`${kind}.apiVersion`, `${kind}.kind`]);

/** missingNames lists schema paths the table has no field for: a protobuf body could not carry them. */
function missingNames(type: MessageType, node: SchemaNode | undefined, doc: SchemaDocument, path: string): string[] {
  const resolved = deref(node, doc);
  if (!resolved?.properties || type.toJson) return [];
  const fields = fieldsByJson(type);
  return Object.keys(resolved.properties).flatMap((name) => {
    const at = `${path}.${name}`;
    const spec = fields.get(name);
    if (!spec) return [at];
    if (isScalar(spec.type)) return [];
    const child = childSchema(resolved, name, doc);
    if (spec.cardinality === 'repeated') return missingNames(spec.type, itemSchema(child, doc), doc, `${at}[]`);
    if (spec.cardinality === 'map') {
      const values = child && typeof child.additionalProperties === 'object' ? child.additionalProperties : undefined;
      return missingNames(spec.type, values, doc, `${at}{}`);
    }
    return missingNames(spec.type, child, doc, at);
  });
}

const served = builtinDefinitions().filter((def) => def.protobuf);

describe('built-in protobuf tables', () => {
  it.each(served.map((def) => [`${apiVersionOf(def)} ${def.kind}`, def] as const))('%s: every field is one the schema knows', (_, def) => {
    const doc = schemaDocumentOf(def.schema);
    const table = def.protobuf!;
    expect(unknownNames(table, doc.root, doc, def.kind)).toEqual([]);
  });

  it.each(served.map((def) => [`${apiVersionOf(def)} ${def.kind}`, def] as const))('%s: every schema field has a protobuf field', (_, def) => {
    const doc = schemaDocumentOf(def.schema);
    const table = def.protobuf!;
    const excluded = NOT_IN_MESSAGES(def.kind);
    expect(missingNames(table, doc.root, doc, def.kind).filter((path) => !excluded.has(path))).toEqual([]);
  });

  it('autoscaling/v1 Scale (the /scale body): the table and the schema agree both ways', () => {
    const doc = schemaDocumentOf(ScaleSchema);
    const table = protobufMessageFor('autoscaling/v1', 'Scale')!;
    const excluded = NOT_IN_MESSAGES('Scale');
    expect(unknownNames(table, doc.root, doc, 'Scale')).toEqual([]);
    expect(missingNames(table, doc.root, doc, 'Scale').filter((path) => !excluded.has(path))).toEqual([]);
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

  it('are found by the envelope names of their kind, and of the /scale body', () => {
    for (const def of served) expect(protobufMessageFor(apiVersionOf(def), def.kind)).toBe(def.protobuf);
    expect(protobufMessageFor('autoscaling/v1', 'Scale')?.name).toBe('io.k8s.api.autoscaling.v1.Scale');
    expect(protobufMessageFor('apps/v1', 'DaemonSet')).toBeUndefined();
  });
});
