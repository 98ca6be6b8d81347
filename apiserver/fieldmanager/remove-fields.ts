/**
 * removeFields: a value without the fields of a set (structured-merge-diff's RemoveItems),
 * which is how server-side apply drops what an applier stopped applying. A removed path
 * takes everything below it; a map or list emptied by the removal disappears too, as
 * Kubernetes turns it into null.
 */
import type { FieldSet } from './field-set.js';
import type { FieldType } from './field-type.js';
import { fieldElement } from './path-element.js';
import { itemElement, type JsonMap, walkOf } from './values.js';

/** removeFields returns `value` without the paths in `set` (relative to `value`), or
 * undefined when nothing is left of a map or list it walked. Pure. */
export function removeFields(value: unknown, set: FieldSet, type: FieldType): unknown {
  if (set.isEmpty()) return value;
  switch (walkOf(type, value)) {
    case 'map':
      return removeFromMap(value as JsonMap, set, type);
    case 'list':
      return removeFromList(value as unknown[], set, type);
    case 'leaf':
      // Atomic values are owned whole: a path below one cannot be removed on its own.
      return value;
  }
}

function removeFromMap(map: JsonMap, set: FieldSet, type: FieldType): JsonMap | undefined {
  const out: JsonMap = {};
  for (const [key, child] of Object.entries(map)) {
    const element = fieldElement(key);
    if (set.has([element])) continue;
    const below = set.child(element);
    const kept = below ? removeFields(child, below, type.field(key)) : child;
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function removeFromList(list: unknown[], set: FieldSet, type: FieldType): unknown[] | undefined {
  const out: unknown[] = [];
  list.forEach((item, index) => {
    const element = itemElement(type, item, index);
    if (set.has([element])) return;
    const below = set.child(element);
    const kept = below ? removeFields(item, below, type.item()) : item;
    if (kept !== undefined) out.push(kept);
  });
  return out.length > 0 ? out : undefined;
}
