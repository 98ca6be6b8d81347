/**
 * The static CEL type of a structural schema node, as Kubernetes' SchemaDeclType derives it:
 * int-or-string is dyn, `format: byte|duration|date|date-time` strings are bytes, duration and
 * timestamp, additionalProperties objects are maps, objects with properties are objects whose
 * fields are the escapable property names. Nodes without a usable type (untyped
 * x-kubernetes-preserve-unknown-fields data, arrays without items) have no type: they are
 * invisible to rules, so selecting them is an "undefined field" error.
 */
import { escapeName } from './escaping.js';
import { additionalOf, itemsOf, type StructuralLike, withTypeAndObjectMeta } from './structural.js';
import { type CelType, T } from './types.js';

/** schemaType is the CEL type of a schema node, or undefined when rules cannot see it.
 * `isResourceRoot` adds apiVersion, kind and metadata.name/generateName (CR root or embedded). */
export function schemaType(schema: StructuralLike | undefined, isResourceRoot = false): CelType | undefined {
  if (schema === undefined) return undefined;
  if (schema['x-kubernetes-int-or-string']) return T.dyn;
  const s = isResourceRoot ? withTypeAndObjectMeta(schema) : schema;
  switch (s.type) {
    case 'array': {
      const items = itemsOf(s);
      const elem = items && schemaType(items, items['x-kubernetes-embedded-resource'] === true);
      return elem && T.list(elem);
    }
    case 'object':
      return objectType(s);
    case 'string':
      return stringType(s.format);
    case 'boolean':
      return T.bool;
    case 'number':
      return T.double;
    case 'integer':
      return T.int;
    default:
      return undefined;
  }
}

function objectType(s: StructuralLike): CelType | undefined {
  const additional = additionalOf(s);
  if (additional !== undefined) {
    const value = schemaType(additional, additional['x-kubernetes-embedded-resource'] === true);
    return value && T.map(T.string, value);
  }
  const fields = new Map<string, CelType>();
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const escaped = escapeName(name);
    const type = schemaType(prop, prop['x-kubernetes-embedded-resource'] === true);
    if (escaped !== undefined && type !== undefined) fields.set(escaped, type);
  }
  return { kind: 'object', fields };
}

function stringType(format: string | undefined): CelType {
  switch (format) {
    case 'byte':
      return T.bytes;
    case 'duration':
      return T.duration;
    case 'date':
    case 'date-time':
      return T.timestamp;
    default:
      return T.string;
  }
}
