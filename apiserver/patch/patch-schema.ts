/**
 * Patch metadata lookup for strategic merge patch: the role k8s.io/apimachinery's
 * `LookupPatchMeta` plays, read from the JSON-schema view of a kind's zod schema
 * (see apiserver/api/schema-node.ts and apiserver/api/patch-meta.ts).
 */
import { refName, resolveSchema, type SchemaDocument, type SchemaNode } from '../api/schema-node.js';
import { invalid, type PatchError } from './errors.js';

/**
 * FieldSchema describes one position in an object being patched: the schema of the
 * value there plus the patch strategy the parent declares for it. `node` is undefined
 * when nothing is known (no schema, or below `x-kubernetes-preserve-unknown-fields`);
 * lists there are replaced and maps merged, as in JSON merge patch.
 */
export interface FieldSchema {
  readonly node: SchemaNode | undefined;
  readonly doc: SchemaDocument;
  /** Go-style type name for messages: the last segment of the definition id, else "Object". */
  readonly typeName: string;
  /** The comma-separated `x-kubernetes-patch-strategy`, split ("merge", "retainKeys", "replace"). */
  readonly strategies: readonly string[];
  readonly mergeKey: string | undefined;
}

/** rootField returns the FieldSchema of a whole object whose schema is `node`. */
export function rootField(node: SchemaNode | undefined, doc: SchemaDocument): FieldSchema {
  return resolveField(node, doc);
}

/** unknownField returns a FieldSchema with no schema: JSON merge semantics below it. */
export function unknownField(doc: SchemaDocument): FieldSchema {
  return { node: undefined, doc, typeName: 'Object', strategies: [], mergeKey: undefined };
}

/**
 * lookupProperty returns the FieldSchema of member `key` of an object at `parent`: a
 * declared property, else the map value schema (`additionalProperties`). Returns
 * undefined only when `parent` is a closed struct that does not declare `key`; an
 * unknown or open parent yields an unknown field.
 */
export function lookupProperty(parent: FieldSchema, key: string): FieldSchema | undefined {
  const node = parent.node;
  if (!node || node['x-kubernetes-preserve-unknown-fields'] === true) return unknownField(parent.doc);
  const declared = node.properties?.[key];
  if (declared) return resolveField(declared, parent.doc);
  if (typeof node.additionalProperties === 'object') return resolveField(node.additionalProperties, parent.doc);
  return isClosedStruct(node) ? undefined : unknownField(parent.doc);
}

/** itemField returns the FieldSchema of the items of a list at `list`. A merge list
 * declared on an object schema (Go: a pointer-to-struct field) uses that schema for its
 * elements, as Kubernetes does. */
export function itemField(list: FieldSchema): FieldSchema {
  const node = list.node;
  if (node?.items) return resolveField(node.items, list.doc);
  if (node?.properties && isMergeList(list)) return { ...list, strategies: [], mergeKey: undefined };
  return unknownField(list.doc);
}

/** isMergeList reports whether a list at `field` merges (by key, or as a set of scalars)
 * instead of being replaced. */
export function isMergeList(field: FieldSchema): boolean {
  return field.strategies.includes('merge');
}

/** isReplaceMap reports whether a map at `field` is replaced wholesale (`replace`). */
export function isReplaceMap(field: FieldSchema): boolean {
  return field.strategies.includes('replace');
}

/** unknownFieldError is the error for patching an undeclared member of a struct. */
export function unknownFieldError(parent: FieldSchema, key: string): PatchError {
  return invalid(`unable to find api field in struct ${parent.typeName} for the json field "${key}"`);
}

/** isClosedStruct: an object with declared properties that admits no others. */
function isClosedStruct(node: SchemaNode): boolean {
  const { properties, additionalProperties } = node;
  return properties !== undefined && (additionalProperties === undefined || additionalProperties === false);
}

/**
 * resolveField follows `$ref`s, lone `allOf`s and nullable `anyOf`/`oneOf` wrappers from
 * `raw` to a concrete node, collecting the patch metadata wherever along the way it is
 * declared (the use site wins over the definition).
 */
function resolveField(raw: SchemaNode | undefined, doc: SchemaDocument): FieldSchema {
  let strategy: string | undefined;
  let mergeKey: string | undefined;
  let typeName: string | undefined;
  const current = resolveSchema(raw, doc, {
    nullable: true,
    visit: (node) => {
      strategy ??= node['x-kubernetes-patch-strategy'];
      mergeKey ??= node['x-kubernetes-patch-merge-key'];
      typeName ??= refName(node)?.split('.').pop();
    },
  });
  return {
    node: current,
    doc,
    typeName: typeName ?? 'Object',
    strategies: strategy ? strategy.split(',').map((part) => part.trim()) : [],
    mergeKey,
  };
}
