/**
 * toFieldSet: the fields a value sets, as structured-merge-diff's ToFieldSet computes them —
 * the set an applier owns after applying that value as its configuration.
 *
 * Members are: every leaf (scalars, atomic values, null, `{}`); every item of a granular
 * list (with the fields below it: a container's `image` is
 * `.spec.template.spec.containers[name="nginx"].image`, and the item itself is a member); and
 * every entry of a map that is not a declared struct field (labels.app, data.key). Struct
 * fields with content are not members themselves: only what they hold is.
 */
import { FieldSet } from './field-set.js';
import type { FieldType } from './field-type.js';
import { fieldElement, type Path } from './path-element.js';
import { indexItems, isEmptyValue, isJsonMap, type JsonMap, walkOf } from './values.js';

/** toFieldSet returns the set of fields `value` (of type `type`) sets. Pure. */
export function toFieldSet(value: unknown, type: FieldType): FieldSet {
  const set = new FieldSet();
  visit(value, type, [], set);
  return set;
}

function visit(value: unknown, type: FieldType, path: Path, set: FieldSet): void {
  switch (walkOf(type, value)) {
    case 'map':
      visitMap(value as JsonMap, type, path, set);
      return;
    case 'list':
      visitList(value as unknown[], type, path, set);
      return;
    case 'leaf':
      set.insert(path);
      return;
  }
}

function visitMap(map: JsonMap, type: FieldType, path: Path, set: FieldSet): void {
  for (const [key, child] of Object.entries(map)) {
    if (child === undefined) continue;
    const childPath = [...path, fieldElement(key)];
    visit(child, type.field(key), childPath, set);
    // An explicit null or {} is a value of its own; a map entry (not a struct field) is
    // owned as a whole as well as by its contents.
    const isEmptyMap = isJsonMap(child) && isEmptyValue(child);
    if (child === null || isEmptyMap || !type.isDeclaredField(key)) set.insert(childPath);
  }
}

function visitList(list: unknown[], type: FieldType, path: Path, set: FieldSet): void {
  const { order, byKey } = indexItems(type, list);
  for (const key of order) {
    const { element, items } = byKey.get(key)!;
    const itemPath = [...path, element];
    // Duplicated items cannot be told apart: only the element itself is tracked.
    if (items.length === 1) visit(items[0], type.item(), itemPath, set);
    set.insert(itemPath);
  }
}
