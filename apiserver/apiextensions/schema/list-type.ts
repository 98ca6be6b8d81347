/**
 * Uniqueness of `x-kubernetes-list-type: set` items and `map` keys, as kube-apiserver's
 * structural listtype validation: each value or key seen a second time is reported once, at
 * its second occurrence (`spec.ports[2]: Duplicate value: {"port":80}`).
 */
import type { FieldError } from '../../api/resource-definition.js';
import { child, index, key } from './field-errors.js';
import { additionalPropertiesSchema, isObject, itemsSchema, type JSONSchemaProps, type JsonObject } from './types.js';

/** validateListSetsAndMaps checks every set and map list in an object. */
export function validateListSetsAndMaps(schema: JSONSchemaProps | undefined, object: unknown, path = ''): FieldError[] {
  if (!schema || !isObject(object)) return [];
  const errors: FieldError[] = [];
  const additional = additionalPropertiesSchema(schema);
  for (const [k, v] of Object.entries(object)) {
    const property = schema.properties?.[k];
    if (property) errors.push(...validateValue(property, v, child(path, k)));
    else if (additional) errors.push(...validateValue(additional, v, key(path, k)));
  }
  return errors;
}

function validateValue(schema: JSONSchemaProps, value: unknown, path: string): FieldError[] {
  if (Array.isArray(value)) return validateArray(schema, value, path);
  return isObject(value) ? validateListSetsAndMaps(schema, value, path) : [];
}

function validateArray(schema: JSONSchemaProps, list: unknown[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of secondOccurrences(list)) errors.push({ type: 'FieldValueDuplicate', field: index(path, i), value: list[i] });
  } else if (listType === 'map') {
    errors.push(...validateListMap(schema['x-kubernetes-list-map-keys'] ?? [], list, path));
  }
  const items = itemsSchema(schema);
  if (items) list.forEach((item, i) => errors.push(...validateValue(items, item, index(path, i))));
  return errors;
}

function validateListMap(keyFields: readonly string[], list: unknown[], path: string): FieldError[] {
  const notObject = list.findIndex((item) => item !== null && !isObject(item));
  if (notObject >= 0) {
    return [{ type: 'FieldValueInvalid', field: index(path, notObject), value: list[notObject], detail: 'must be an object for an array of list-type map' }];
  }
  const keys = list.map((item) => {
    const entry: JsonObject = {};
    for (const field of keyFields) {
      if (isObject(item) && item[field] !== undefined) entry[field] = item[field];
    }
    return entry;
  });
  return secondOccurrences(keys).map((i) => ({ type: 'FieldValueDuplicate', field: index(path, i), value: keys[i] }));
}

/** secondOccurrences lists the index of each value's second appearance. */
function secondOccurrences(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const duplicates: number[] = [];
  values.forEach((value, i) => {
    const identity = canonicalJson(value);
    const times = seen.get(identity) ?? 0;
    if (times === 1) duplicates.push(i);
    seen.set(identity, times + 1);
  });
  return duplicates;
}

/** canonicalJson serializes with sorted keys, as Go's json.Marshal of a map does. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const entries = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
