/**
 * Small helpers over decoded JSON values shared by the three patch engines.
 *
 * NOTE: keys come from clients. Reads and writes go through getOwn/setOwn so that a key
 * such as `__proto__` is an ordinary own property and never reaches Object.prototype.
 */

/** JsonObject is a decoded JSON object. */
export type JsonObject = { [key: string]: unknown };

/** isJsonObject reports whether `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** hasOwn reports whether `object` has its own property `key`. */
export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

/** getOwn returns own property `key` of `object`, or undefined; never inherited values. */
export function getOwn(object: JsonObject, key: string): unknown {
  return hasOwn(object, key) ? object[key] : undefined;
}

/** setOwn sets own property `key` of `object` to `value`, including `__proto__`. */
export function setOwn(object: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** cloneJson returns a deep copy of a JSON value; the copy shares nothing with `value`. */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

/** jsonEqual reports whether two JSON values are structurally equal (object key order
 * does not matter, array order does). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    return Array.isArray(right) && left.length === right.length && left.every((item, i) => jsonEqual(item, right[i]));
  }
  if (!isJsonObject(left) || !isJsonObject(right)) return false;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

/** JsonKind names the JSON type of a value, as the Go libraries distinguish them. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** jsonKind returns the JSON type of a decoded value (undefined counts as null). */
export function jsonKind(value: unknown): JsonKind {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

/** goTypeName names a JSON value's type as Go's encoding/json does in unmarshal errors
 * ("object", "array", "string", "number", "bool", "null"). */
export function goTypeName(value: unknown): string {
  const kind = jsonKind(value);
  return kind === 'boolean' ? 'bool' : kind;
}
