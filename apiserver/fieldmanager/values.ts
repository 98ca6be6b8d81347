/**
 * How the field walkers (to-field-set, compare, merge, remove) see a JSON value at a
 * FieldType: as a map to descend into, a granular list whose items have identities, or a
 * leaf compared as a whole.
 */
import type { FieldType } from './field-type.js';
import { indexElement, type JsonScalar, keyElement, type PathElement, serializePathElement, valueElement } from './path-element.js';

/** JsonMap is a decoded JSON object. */
export type JsonMap = Record<string, unknown>;

/** isJsonMap: a JSON object (not null, not a list). */
export function isJsonMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is JsonScalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Walk says how to treat a position holding `values` (one or two sides). */
export type Walk = 'map' | 'list' | 'leaf';

/** walkOf: maps of a granular struct/map (or untyped) are descended into, granular lists
 * are walked by item, everything else — scalars, atomic values, values whose JSON type does
 * not fit the schema — is a leaf. Undefined sides are ignored. */
export function walkOf(type: FieldType, ...values: unknown[]): Walk {
  const present = values.filter((v) => v !== undefined);
  const shape = type.shape;
  if ((shape === 'struct' || shape === 'map' || shape === 'untyped') && !type.isAtomic && present.every(isJsonMap)) return 'map';
  if (shape === 'list' && !type.isAtomic && present.every(Array.isArray)) return 'list';
  return 'leaf';
}

/** isEmptyValue: null, {} or [] — positions Kubernetes compares as leaves. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isJsonMap(value) && Object.keys(value).length === 0;
}

/**
 * itemElement names item `index` of a granular list: by its key fields (a missing key field
 * takes the schema default, else is left out), by its value in a set, and by position when
 * nothing else identifies it.
 */
export function itemElement(type: FieldType, item: unknown, index: number): PathElement {
  if (type.listType === 'set') return isScalar(item) ? valueElement(item) : indexElement(index);
  if (!isJsonMap(item)) return indexElement(index);
  const fields: Array<readonly [string, JsonScalar]> = [];
  for (const key of type.listKeys) {
    const value = item[key] ?? type.keyDefault(key);
    if (isScalar(value)) fields.push([key, value]);
  }
  return fields.length > 0 ? keyElement(fields) : indexElement(index);
}

/** missingKeyField names the first key field item `item` lacks (with no default), if any:
 * an applied configuration must identify every list item completely. */
export function missingKeyField(type: FieldType, item: unknown): string | undefined {
  if (type.listType !== 'map' || !isJsonMap(item)) return undefined;
  return type.listKeys.find((key) => !isScalar(item[key] ?? type.keyDefault(key)));
}

/** IndexedItems are a list's items grouped by element, in first-seen order. */
export interface IndexedItems {
  readonly order: string[];
  readonly byKey: Map<string, { element: PathElement; items: unknown[] }>;
}

/** indexItems groups the items of `list` by their element (duplicates share a group). */
export function indexItems(type: FieldType, list: readonly unknown[] | undefined): IndexedItems {
  const order: string[] = [];
  const byKey = new Map<string, { element: PathElement; items: unknown[] }>();
  (list ?? []).forEach((item, index) => {
    const element = itemElement(type, item, index);
    const key = serializePathElement(element);
    const group = byKey.get(key);
    if (group) group.items.push(item);
    else {
      byKey.set(key, { element, items: [item] });
      order.push(key);
    }
  });
  return { order, byKey };
}
