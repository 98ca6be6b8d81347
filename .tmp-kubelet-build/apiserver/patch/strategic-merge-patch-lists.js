/**
 * List merging for strategic merge patch. A list whose schema says `merge` with a merge
 * key merges element by element (containers by name, ports by containerPort); `merge`
 * without a key merges scalars as an ordered set (finalizers); every other list is
 * replaced by the patch list.
 */
import { Directives, hasPatchDirective, requireMergeKey, unknownPatchType, withoutPatchDirective } from './directives.js';
import { formatGoValue, invalid } from './errors.js';
import { getOwn, isJsonObject, jsonKind } from './json-value.js';
import { isMergeList, itemField } from './patch-schema.js';
import { keyIdentity, orderByReference, scalarIdentity } from './strategic-merge-patch-order.js';
/**
 * mergeList merges patch list `patch` into live list `original` following the strategy
 * at `context.field`, and returns the new list. `original` is owned by the caller and may be
 * reused in the result; `patch` is never changed or aliased.
 * Throws PatchError for elements of differing JSON types, lists of lists, a keyed
 * element without its merge key, or a bad `$patch` element.
 */
export function mergeList(original, patch, context) {
    if (!isMergeList(context.field))
        return materializeList(patch, context);
    if (original.length === 0 && patch.length === 0)
        return [];
    if (elementKind(original, patch) !== 'object')
        return mergeScalarList(original, patch);
    return mergeKeyedList(original, patch, context);
}
/**
 * deleteFromPrimitiveList removes every element equal to one of `values` (the
 * `$deleteFromPrimitiveList/<list>` directive). Returns a new list.
 */
export function deleteFromPrimitiveList(current, values) {
    return current.filter((item) => !values.includes(item));
}
/**
 * materializeList turns a patch list that has no live counterpart, or that replaces the
 * live list, into a plain list: elements carrying `$patch` are dropped (as Kubernetes'
 * removeDirectives does) and the others cleaned. No merge keys are required or merged.
 */
export function materializeList(patch, { field, merger }) {
    const item = itemField(field);
    return patch.filter((element) => !hasPatchDirective(element)).map((element) => merger.materialize(element, item));
}
/**
 * elementKind returns the one JSON type all elements of the lists share. Throws
 * PatchError (Invalid) for lists of lists or mixed types, as Kubernetes does.
 */
function elementKind(...lists) {
    let kind;
    for (const item of lists.flat()) {
        const current = jsonKind(item);
        if (current === 'array')
            throw invalid('lists of lists are not supported');
        if (kind !== undefined && kind !== current) {
            throw invalid(`list element types are not identical: ${formatGoValue(lists)}`);
        }
        kind = current;
    }
    return kind ?? 'null';
}
/** mergeScalarList unions two scalar lists without duplicates, in patch-aware order. */
function mergeScalarList(original, patch) {
    const merged = [...new Set([...original, ...patch])];
    return orderByReference(merged, { patchOrder: patch, serverOrder: original, identify: scalarIdentity });
}
/**
 * mergeKeyedList applies `$patch` elements (delete by key, replace the whole list), then
 * merges each remaining patch element into the live element with the same merge key or
 * adds it, and orders the result.
 */
function mergeKeyedList(original, patch, { field, merger }) {
    const mergeKey = field.mergeKey;
    if (mergeKey === undefined)
        throw invalid(`cannot merge lists without merge key for ${field.typeName}`);
    const item = itemField(field);
    const { live, elements, replace } = splitSpecialElements(original, patch, mergeKey);
    if (replace)
        return elements.map((element) => merger.materialize(element, item));
    const merged = [...live];
    for (const element of elements)
        mergeElement(merged, element, { mergeKey, item, merger });
    for (const element of merged)
        requireMergeKey(element, mergeKey, 'Invalid');
    return orderByReference(merged, { patchOrder: elements, serverOrder: live, identify: keyIdentity(mergeKey) });
}
/** splitSpecialElements separates the `$patch` elements of a keyed patch list. */
function splitSpecialElements(original, patch, mergeKey) {
    const result = { live: original, elements: [], replace: false };
    for (const element of patch) {
        if (!isJsonObject(element))
            continue;
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
                if (Object.keys(element).length > 1)
                    result.elements.push(withoutPatchDirective(element));
                break;
            default:
                throw unknownPatchType(element);
        }
    }
    return result;
}
/** mergeElement merges one patch element into `merged` (in place) by merge key. */
function mergeElement(merged, element, { mergeKey, item, merger }) {
    const key = requireMergeKey(element, mergeKey, 'BadRequest');
    const index = merged.findIndex((live) => isJsonObject(live) && getOwn(live, mergeKey) === key);
    const live = merged[index];
    if (index >= 0 && isJsonObject(live)) {
        merged[index] = merger.mergeMap(live, element, item);
        return;
    }
    const created = merger.materialize(element, item);
    if (created !== undefined)
        merged.push(created);
}
//# sourceMappingURL=strategic-merge-patch-lists.js.map