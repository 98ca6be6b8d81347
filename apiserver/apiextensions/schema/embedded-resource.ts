/**
 * Embedded resources (`x-kubernetes-embedded-resource: true`): objects carrying their own
 * apiVersion, kind and metadata, checked as kube-apiserver's schema/objectmeta package does.
 * apiVersion and kind are required and must parse; metadata must decode as ObjectMeta and
 * validate like an object's (names as path segments, namespace as a DNS label, labels,
 * annotations). A missing metadata.name is fine: the embedded object is not stored by itself.
 */
import type { FieldError } from '../../api/resource-definition.js';
import { isDns1035Label, isDns1123Label, isQualifiedName, isValidPathSegmentName, required, validateLabels } from '../../api/validation.js';
import { child, index, key, tooLong } from './field-errors.js';
import { additionalPropertiesSchema, isEmbeddedResource, isObject, itemsSchema, type JSONSchemaProps, type JsonObject } from './types.js';

const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

/** validateEmbeddedResources checks every embedded resource in `value`; with `isResourceRoot`
 * the value itself is checked as one too (used for defaults of metadata fields). */
export function validateEmbeddedResources(schema: JSONSchemaProps | undefined, value: unknown, path = '', isResourceRoot = false): FieldError[] {
  if (!schema) return [];
  const node = isResourceRoot && !isEmbeddedResource(schema) ? { ...schema, 'x-kubernetes-embedded-resource': true } : schema;
  return walk(node, value, path);
}

function walk(schema: JSONSchemaProps | undefined, value: unknown, path: string): FieldError[] {
  if (!schema) return [];
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    return value.flatMap((item, i) => walk(items, item, index(path, i)));
  }
  if (!isObject(value)) return [];
  const errors = isEmbeddedResource(schema) ? validateEmbeddedResource(value, path) : [];
  const additional = additionalPropertiesSchema(schema);
  for (const [k, v] of Object.entries(value)) {
    const property = schema.properties?.[k];
    if (property) errors.push(...walk(property, v, child(path, k)));
    else if (additional) errors.push(...walk(additional, v, key(path, k)));
  }
  return errors;
}

/** coerceError is the first decoding problem of embedded TypeMeta/ObjectMeta (kube-apiserver's
 * objectmeta.Coerce): a non-string apiVersion or kind, or metadata that is no ObjectMeta. */
export function coerceError(schema: JSONSchemaProps | undefined, value: unknown, path: string, isResourceRoot: boolean): FieldError | undefined {
  if (!schema) return undefined;
  const node = isResourceRoot ? { ...schema, 'x-kubernetes-embedded-resource': true } : schema;
  if (Array.isArray(value)) {
    const items = itemsSchema(node);
    for (const [i, item] of value.entries()) {
      const error = coerceError(items, item, index(path, i), false);
      if (error) return error;
    }
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const additional = additionalPropertiesSchema(node);
  for (const [k, v] of Object.entries(value)) {
    if (isEmbeddedResource(node)) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v !== 'string')
        return { type: 'FieldValueInvalid', field: child(path, k), value: v, detail: 'must be a string' };
      const decodeError = k === 'metadata' ? metadataDecodeError(v) : undefined;
      if (decodeError) return { type: 'FieldValueInvalid', field: child(path, k), value: v, detail: decodeError };
    }
    const property = node.properties?.[k];
    const error = property ? coerceError(property, v, child(path, k), false) : additional ? coerceError(additional, v, key(path, k), false) : undefined;
    if (error) return error;
  }
  return undefined;
}

/** validateEmbeddedResource checks the TypeMeta and ObjectMeta of one embedded object. */
export function validateEmbeddedResource(object: JsonObject, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!('apiVersion' in object)) errors.push(required(child(path, 'apiVersion')));
  if (!('kind' in object)) errors.push(required(child(path, 'kind')));
  if ('apiVersion' in object) errors.push(...validateApiVersion(object['apiVersion'], child(path, 'apiVersion')));
  if ('kind' in object) errors.push(...validateKind(object['kind'], child(path, 'kind')));
  if ('metadata' in object) errors.push(...validateEmbeddedMetadata(object['metadata'], child(path, 'metadata')));
  return errors;
}

function validateApiVersion(value: unknown, field: string): FieldError[] {
  if (typeof value !== 'string') return [{ type: 'FieldValueInvalid', field, value, detail: 'must be a string' }];
  if (value === '') return [{ type: 'FieldValueInvalid', field, value, detail: 'must not be empty' }];
  if (value !== '/' && value.split('/').length > 2) return [{ type: 'FieldValueInvalid', field, value, detail: `unexpected GroupVersion string: ${value}` }];
  return [];
}

function validateKind(value: unknown, field: string): FieldError[] {
  if (typeof value !== 'string') return [{ type: 'FieldValueInvalid', field, value, detail: 'must be a string' }];
  if (value === '') return [{ type: 'FieldValueInvalid', field, value, detail: 'must not be empty' }];
  const problems = isDns1035Label(value.toLowerCase());
  return problems.length === 0
    ? []
    : [{ type: 'FieldValueInvalid', field, value, detail: `may have mixed case, but should otherwise match: ${problems.join(',')}` }];
}

/** STRING_FIELDS and MAP_FIELDS are the ObjectMeta fields whose JSON type is checked. */
const STRING_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'];
const MAP_FIELDS = ['labels', 'annotations'];

/** metadataDecodeError is the Go JSON decoding error for metadata that is not an ObjectMeta. */
export function metadataDecodeError(metadata: unknown): string | undefined {
  if (metadata === null) return undefined;
  if (!isObject(metadata)) return `json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`;
  for (const field of STRING_FIELDS) {
    const v = metadata[field];
    if (v !== undefined && v !== null && typeof v !== 'string') return goFieldError(v, field, 'string');
  }
  for (const field of MAP_FIELDS) {
    const v = metadata[field];
    if (v === undefined || v === null) continue;
    if (!isObject(v)) return goFieldError(v, field, 'map[string]string');
    const bad = Object.entries(v).find(([, entry]) => typeof entry !== 'string');
    if (bad) return goFieldError(bad[1], `${field}.${bad[0]}`, 'string');
  }
  const generation = metadata['generation'];
  if (generation !== undefined && generation !== null && !Number.isInteger(generation)) return goFieldError(generation, 'generation', 'int64');
  return undefined;
}

function goFieldError(value: unknown, field: string, goType: string): string {
  return `json: cannot unmarshal ${jsonKind(value)} into Go struct field ObjectMeta.${field} of type ${goType}`;
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** validateEmbeddedMetadata is ValidateObjectMeta for an embedded object: the name and
 * generateName as path segments, the namespace as a DNS label, labels and annotations. */
function validateEmbeddedMetadata(metadata: unknown, path: string): FieldError[] {
  const decodeError = metadataDecodeError(metadata);
  if (decodeError) return [{ type: 'FieldValueInvalid', field: path, value: metadata, detail: decodeError }];
  if (!isObject(metadata)) return [];
  const meta = metadata;
  const errors: FieldError[] = [];
  const generateName = meta['generateName'];
  if (typeof generateName === 'string' && generateName !== '') {
    for (const detail of isValidPathSegmentName(generateName).filter((d) => !d.startsWith('may not be '))) {
      errors.push({ type: 'FieldValueInvalid', field: child(path, 'generateName'), value: generateName, detail });
    }
  }
  const name = meta['name'];
  if (typeof name === 'string' && name !== '') {
    for (const detail of isValidPathSegmentName(name)) errors.push({ type: 'FieldValueInvalid', field: child(path, 'name'), value: name, detail });
  }
  const namespace = meta['namespace'];
  if (typeof namespace === 'string' && namespace !== '') {
    for (const detail of isDns1123Label(namespace)) errors.push({ type: 'FieldValueInvalid', field: child(path, 'namespace'), value: namespace, detail });
  }
  const generation = meta['generation'];
  if (typeof generation === 'number' && generation < 0) {
    errors.push({ type: 'FieldValueInvalid', field: child(path, 'generation'), value: generation, detail: 'must be greater than or equal to 0' });
  }
  errors.push(...validateLabels(meta['labels'] as Record<string, string> | undefined, child(path, 'labels')));
  errors.push(...validateAnnotations(meta['annotations'] as Record<string, string> | undefined, child(path, 'annotations')));
  return errors;
}

function validateAnnotations(annotations: Record<string, string> | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const detail of isQualifiedName(k.toLowerCase())) errors.push({ type: 'FieldValueInvalid', field, value: k, detail });
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errors.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errors;
}
