/**
 * Pruning, as kube-apiserver decodes a custom resource: fields the structural schema does not
 * specify are dropped (everything survives below `x-kubernetes-preserve-unknown-fields`, until
 * a nested schema specifies properties again), apiVersion/kind/metadata of the root and of
 * embedded resources are kept, null values of non-nullable fields without a default are
 * dropped, and embedded metadata is re-encoded as ObjectMeta (unknown fields dropped, empty
 * ones omitted).
 */
import { ObjectMetaSchema } from '../../api/meta.js';
import { metadataDecodeError } from './embedded-resource.js';
import { child, index, key } from './field-errors.js';
import {
  additionalPropertiesSchema,
  hasDefault,
  isEmbeddedResource,
  isObject,
  itemsSchema,
  type JSONSchemaProps,
  type JsonObject,
  META_FIELDS,
  preservesUnknownFields,
} from './types.js';

/** pruneUnknownFields prunes `value` in place and returns the dotted paths of the dropped
 * fields (sorted, then those dropped from embedded metadata), for fieldValidation messages. */
export function pruneUnknownFields(schema: JSONSchemaProps, value: unknown): string[] {
  const pruned = pruneStructural(value, schema, true);
  pruneNonNullableNullsWithoutDefaults(value, schema);
  const metadataFields: string[] = [];
  coerceEmbeddedMetadata(value, schema, '', metadataFields);
  return [...pruned, ...metadataFields.sort()];
}

/** pruneStructural drops unspecified fields (in place) and returns their sorted paths; with
 * `isResourceRoot` the value's own apiVersion/kind/metadata are kept. */
export function pruneStructural(value: unknown, schema: JSONSchemaProps, isResourceRoot: boolean): string[] {
  const root = isResourceRoot && !isEmbeddedResource(schema) ? { ...schema, 'x-kubernetes-embedded-resource': true } : schema;
  const pruned: string[] = [];
  prune(value, root, '', pruned);
  return pruned.sort();
}

const dotted = (path: string, name: string) => (path ? `${path}.${name}` : name);

function prune(value: unknown, schema: JSONSchemaProps | undefined, path: string, pruned: string[]): void {
  if (preservesUnknownFields(schema)) {
    skipPrune(value, schema!, path, pruned);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => prune(item, itemsSchema(schema), `${path}[${i}]`, pruned));
    return;
  }
  if (!isObject(value)) return;
  for (const k of Object.keys(value)) {
    if (schema && isEmbeddedResource(schema) && META_FIELDS.has(k)) continue;
    const next = childSchema(schema, k);
    if (next.known) {
      prune(value[k], next.schema, dotted(path, k), pruned);
    } else {
      if (!META_FIELDS.has(k) || path) pruned.push(dotted(path, k));
      delete value[k];
    }
  }
}

/** skipPrune walks a preserve-unknown-fields subtree, pruning only where it is specified again. */
function skipPrune(value: unknown, schema: JSONSchemaProps, path: string, pruned: string[]): void {
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    if (items) value.forEach((item, i) => skipPrune(item, items, `${path}[${i}]`, pruned));
    return;
  }
  if (!isObject(value)) return;
  for (const k of Object.keys(value)) {
    if (isEmbeddedResource(schema) && META_FIELDS.has(k)) continue;
    const next = childSchema(schema, k);
    if (next.known) prune(value[k], next.schema, dotted(path, k), pruned);
  }
}

/** childSchema: a declared property, else any key under additionalProperties (true keeps the
 * key but prunes below it, as a schema-less value). */
function childSchema(schema: JSONSchemaProps | undefined, k: string): { known: boolean; schema?: JSONSchemaProps } {
  const property = schema?.properties?.[k];
  if (property) return { known: true, schema: property };
  if (schema?.additionalProperties !== undefined) return { known: true, schema: additionalPropertiesSchema(schema) };
  return { known: false };
}

/** pruneNonNullableNullsWithoutDefaults drops `null` map values whose schema neither allows
 * null nor has a default (those with a default are defaulted later). */
function pruneNonNullableNullsWithoutDefaults(value: unknown, schema: JSONSchemaProps | undefined): void {
  if (Array.isArray(value)) {
    value.forEach((item) => pruneNonNullableNullsWithoutDefaults(item, itemsSchema(schema)));
    return;
  }
  if (!isObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    const fieldSchema = schema?.properties?.[k] ?? additionalPropertiesSchema(schema);
    if (v === null && fieldSchema && !fieldSchema.nullable && !hasDefault(fieldSchema)) delete value[k];
    else pruneNonNullableNullsWithoutDefaults(v, fieldSchema);
  }
}

/** OBJECT_META_FIELDS are the fields Go's ObjectMeta decodes (selfLink is deprecated but kept). */
const OBJECT_META_FIELDS: ReadonlySet<string> = new Set([...Object.keys(ObjectMetaSchema.shape), 'selfLink']);

/** coerceEmbeddedMetadata re-encodes the metadata of embedded resources as ObjectMeta would. */
function coerceEmbeddedMetadata(value: unknown, schema: JSONSchemaProps | undefined, path: string, dropped: string[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => coerceEmbeddedMetadata(item, itemsSchema(schema), index(path, i), dropped));
    return;
  }
  if (!isObject(value)) return;
  if (isEmbeddedResource(schema) && isObject(value['metadata']) && !metadataDecodeError(value['metadata'])) {
    normalizeObjectMeta(value['metadata'], child(path, 'metadata'), dropped);
  }
  const additional = additionalPropertiesSchema(schema);
  for (const [k, v] of Object.entries(value)) {
    const property = schema.properties?.[k];
    if (property) coerceEmbeddedMetadata(v, property, child(path, k), dropped);
    else if (additional) coerceEmbeddedMetadata(v, additional, key(path, k), dropped);
  }
}

/** normalizeObjectMeta drops unknown fields (recording them) and empty ones, except a zero
 * deletionGracePeriodSeconds: it is a pointer in Go, so omitempty keeps it. */
function normalizeObjectMeta(metadata: JsonObject, path: string, dropped: string[]): void {
  for (const [k, v] of Object.entries(metadata)) {
    if (!OBJECT_META_FIELDS.has(k)) {
      dropped.push(`${path}.${k}`);
      delete metadata[k];
    } else if (isEmpty(v) && !(k === 'deletionGracePeriodSeconds' && v === 0)) {
      delete metadata[k];
    }
  }
}

/** isEmpty: what Go's omitempty leaves out (and a zero creationTimestamp, which Kubernetes removes). */
function isEmpty(value: unknown): boolean {
  if (value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}
