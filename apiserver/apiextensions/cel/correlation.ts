/**
 * Correlating new values with old ones, as Kubernetes' CorrelatedObject does: items of an
 * `x-kubernetes-list-type: map` list correlate by their map keys (order does not matter), items
 * of other lists do not correlate, and an unchanged value is one deeply equal to its old value.
 */
import { deepEqual } from '../../api/deep-equal.js';
import { additionalOf, isPlainObject, itemsOf, type StructuralLike } from './structural.js';

/** listMapKey is the identity of a map-list item: the values of its key fields. */
function listMapKey(keys: readonly string[], item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  return JSON.stringify(keys.map((k) => item[k] ?? null));
}

/** correlateListItem finds the old item with the same map keys as `item`, for map lists only. */
export function correlateListItem(list: StructuralLike, item: unknown, oldItems: readonly unknown[]): { value: unknown } | undefined {
  if (list['x-kubernetes-list-type'] !== 'map') return undefined;
  const keys = list['x-kubernetes-list-map-keys'] ?? [];
  const key = listMapKey(keys, item);
  if (key === undefined) return undefined;
  const old = oldItems.find((o) => listMapKey(keys, o) === key);
  return old === undefined ? undefined : { value: old };
}

/** isUnchanged reports whether a value equals its old value, comparing map-list items by key. */
export function isUnchanged(schema: StructuralLike | undefined, value: unknown, old: unknown): boolean {
  if (Array.isArray(value) && Array.isArray(old)) {
    if (value.length !== old.length) return false;
    if (schema?.['x-kubernetes-list-type'] !== 'map') return deepEqual(value, old);
    return value.every((item) => {
      const match = correlateListItem(schema, item, old);
      return match !== undefined && isUnchanged(itemsOf(schema), item, match.value);
    });
  }
  if (isPlainObject(value) && isPlainObject(old)) {
    if (Object.keys(value).length !== Object.keys(old).length) return false;
    return Object.entries(value).every(([k, v]) => {
      if (!Object.hasOwn(old, k)) return false;
      const child = schema?.properties?.[k] ?? additionalOf(schema);
      return isUnchanged(child, v, old[k]);
    });
  }
  return deepEqual(value, old);
}
