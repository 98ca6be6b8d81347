/**
 * Field paths built as Kubernetes' field.Path prints them (`a.b`, `a[key]`, `a[0]`; the empty
 * string is the nil root path) and the field.Error constructors the schema engine needs
 * beyond apiserver/api/validation.ts.
 */
import type { FieldError } from '../../api/resource-definition.js';

/** child appends a named field: `spec` + `replicas` → `spec.replicas`. */
export const child = (path: string, name: string): string => (path ? `${path}.${name}` : name);

/** key appends a map key or an unusual property name: `properties` + `spec` → `properties[spec]`. */
export const key = (path: string, name: string): string => `${path}[${name}]`;

/** index appends a list index: `items` + 0 → `items[0]`. */
export const index = (path: string, i: number): string => `${path}[${i}]`;

/** tooLong is field.TooLong: the value is omitted, the limit is counted in bytes. */
export function tooLong(field: string, max: number): FieldError {
  return { type: 'FieldValueTooLong', field, detail: max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long' };
}

/**
 * tooMany is field.TooMany (`Too many: 4: must have at most 3 items`).
 */
export function tooMany(field: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: actual, detail: `must have at most ${max} ${max === 1 ? 'item' : 'items'}` };
}

/** typeInvalid is field.TypeInvalid (`Invalid value: "string": ... must be of type integer`). */
export function typeInvalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field, value, detail };
}
