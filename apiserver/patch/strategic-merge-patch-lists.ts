/**
 * List merging for strategic merge patch. A list whose schema says `merge` with a merge
 * key merges element by element (containers by name, ports by containerPort); `merge`
 * without a key merges scalars as an ordered set (finalizers); every other list is
 * replaced by the patch list.
 */
import { Directives, hasPatchDirective, requireMergeKey, unknownPatchType, withoutPatchDirective } from './directives.js';
import { formatGoValue, invalid } from './errors.js';
import { getOwn, isJsonObject, type JsonKind, type JsonObject, jsonKind } from './json-value.js';
import { type FieldSchema, isMergeList, itemField } from './patch-schema.js';
import { keyIdentity, orderByReference, scalarIdentity } from './strategic-merge-patch-order.js';

/**
 * ValueMerger knows how to merge a patch map into a live map and how to turn a patch
 * value with no live counterpart into a plain value. The list code calls back into it
 * for list elements.
 */
export interface ValueMerger {
  /** mergeMap merges `patch` into `original` (which it may change) and returns the result. */
  mergeMap(original: JsonObject, patch: JsonObject, field: FieldSchema): JsonObject;
  /** materialize returns `value` with directives applied and removed, or undefined when
   * the value deletes itself (`$patch: delete`). Never aliases `value`. */
  materialize(value: unknown, field: FieldSchema): unknown;
}

/** MergeContext is where a value is merged: the schema position of the value and the
 * merger to call back for its elements. */
export interface MergeContext {
  readonly field: FieldSchema;
  readonly merger: ValueMerger;
}

/**
 * mergeList merges patch list `patch` into live list `original` following the strategy
 * at `context.field`, and returns the new list. `original` is owned by the caller and may be
 * reused in the result; `patch` is never changed or aliased.
 * Throws PatchError for elements of differing JSON types, lists of lists, a keyed
 * element without its merge key, or a bad `$patch` element.
 */
export function mergeList(original: unknown[], patch: unknown[], context: MergeContext): unknown[] {
  if (!isMergeList(context.field)) return materializeList(patch, context);
  if (original.length === 0 && patch.length === 0) return [];
  if (elementKind(original, patch) !== 'object') return mergeScalarList(original, patch);
  return mergeKeyedList(original, patch, context);
}

/**
 * deleteFromPrimitiveList removes every element equal to one of `values` (the
 * `$deleteFromPrimitiveList/<list>` directive). Returns a new list.
 */
export function deleteFromPrimitiveList(current: readonly unknown[], values: readonly unknown[]): unknown[] {
  return current.filter((item) => !values.includes(item));
}

/**
 * materializeList turns a patch list that has no live counterpart, or that replaces the
 * live list, into a plain list: elements carrying `$patch` are dropped (as Kubernetes'
 * removeDirectives does) and the others cleaned. No merge keys are required or merged.
 */
export function materializeList(patch: readonly unknown[], { field, merger }: MergeContext): unknown[] {
  const item = itemField(field);
  return patch.filter((element) => !hasPatchDirective(element)).map((element) => merger.materialize(element, item));
}

/**
 * elementKind returns the one JSON type all elements of the lists share. Throws
 * PatchError (Invalid) for lists of lists or mixed types, as Kubernetes does.
 */
function elementKind(...lists: readonly unknown[][]): JsonKind {
  let kind: JsonKind | undefined;
  for (const item of lists.flat()) {
    const current = jsonKind(item);
    if (current === 'array') throw invalid('lists of lists are not supported');
    if (kind !== undefined && kind !== current) {
      throw invalid(`list element types are not identical: ${formatGoValue(lists)}`);
    }
    kind = current;
  }
  return kind ?? 'null';
}

/** mergeScalarList unions two scalar lists without duplicates, in patch-aware order. */
function mergeScalarList(original: unknown[], patch: unknown[]): unknown[] {
  const merged = [...new Set([...original, ...patch])];
  return orderByReference(merged, { patchOrder: patch, serverOrder: original, identify: scalarIdentity });
}

/**
 * mergeKeyedList applies `$patch` elements (delete by key, replace the whole list), then
 * merges each remaining patch element into the live element with the same merge key or
 * adds it, and orders the result.
 */
function mergeKeyedList(original: unknown[], patch: unknown[], { field, merger }: MergeContext): unknown[] {
  const mergeKey = field.mergeKey;
  if (mergeKey === undefined) throw invalid(`cannot merge lists without merge key for ${field.typeName}`);
  const item = itemField(field);
  const { live, elements, replace } = splitSpecialElements(original, patch, mergeKey);
  if (replace) return elements.map((element) => merger.materialize(element, item));
  const merged = [...live];
  for (const element of elements) mergeElement(merged, element, { mergeKey, item, merger });
  for (const element of merged) requireMergeKey(element, mergeKey, 'Invalid');
  return orderByReference(merged, { patchOrder: elements, serverOrder: live, identify: keyIdentity(mergeKey) });
}

interface SpecialElements {
  /** The live list after `$patch: delete` elements removed their matches. */
  live: unknown[];
  /** The patch elements that carry no directive. */
  elements: JsonObject[];
  /** Whether a `$patch: replace` element asked to replace the whole list. */
  replace: boolean;
}

/** splitSpecialElements separates the `$patch` elements of a keyed patch list. */
function splitSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): SpecialElements {
  const result: SpecialElements = { live: original, elements: [], replace: false };
  for (const element of patch) {
    if (!isJsonObject(element)) continue;
    if (!hasPatchDirective(element)) {
      result.elements.push(element);
      continue;
    }
    switch (getOwn(element, Directives.patch)) {
      case 'delete': {
        const key = requireMergeKey(element, mergeKey, 'BadRequest');
        result.live = result.live.filter((live) => !isJsonObject(live) || getOwn(live, mergeKey) !== key);
        break;
      }
      case 'replace':
        result.replace = true;
        break;
      case 'merge':
        // NOTE: Kubernetes rejects `$patch: merge` in a list; merge is the default, so a
        // bare marker is dropped and a marked element merges like an unmarked one.
        if (Object.keys(element).length > 1) result.elements.push(withoutPatchDirective(element));
        break;
      default:
        throw unknownPatchType(element);
    }
  }
  return result;
}

interface ElementContext {
  mergeKey: string;
  item: FieldSchema;
  merger: ValueMerger;
}

/** mergeElement merges one patch element into `merged` (in place) by merge key. */
function mergeElement(merged: unknown[], element: JsonObject, { mergeKey, item, merger }: ElementContext): void {
  const key = requireMergeKey(element, mergeKey, 'BadRequest');
  const index = merged.findIndex((live) => isJsonObject(live) && getOwn(live, mergeKey) === key);
  const live = merged[index];
  if (index >= 0 && isJsonObject(live)) {
    merged[index] = merger.mergeMap(live, element, item);
    return;
  }
  const created = merger.materialize(element, item);
  if (created !== undefined) merged.push(created);
}
