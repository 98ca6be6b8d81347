/**
 * The `$setElementOrder/<list>` directive: kubectl sends it with every client-side apply
 * that touches a merging list, listing the merge keys (or scalars) in the order the
 * user's manifest has them. The list is merged first, then ordered by it.
 */
import { Directives, hasPatchDirective, listDirectiveTarget, requireMergeKey } from './directives.js';
import { badRequest, formatGoValue } from './errors.js';
import { getOwn, hasOwn, type JsonObject, setOwn } from './json-value.js';
import { type FieldSchema, isMergeList, lookupProperty, unknownFieldError } from './patch-schema.js';
import { type MergeContext, materializeList, mergeList, type ValueMerger } from './strategic-merge-patch-lists.js';
import { type Identify, keyIdentity, orderByReference, scalarIdentity } from './strategic-merge-patch-order.js';

/**
 * applySetElementOrders merges and orders, in `target`, every list a
 * `$setElementOrder/<list>` directive of `patch` names, and returns the names of the
 * lists it fully handled (the caller must not merge them again). The directive is
 * ignored for lists that do not merge (they are replaced anyway) and when the live or
 * patch value is not a list.
 * Throws PatchError (BadRequest) for a malformed directive or a patch list whose order
 * contradicts it, and (Invalid) for a list the struct does not declare.
 */
export function applySetElementOrders(target: JsonObject, patch: JsonObject, context: MergeContext): Set<string> {
  const { field: parent, merger } = context;
  const handled = new Set<string>();
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(Directives.setElementOrder)) continue;
    const name = listDirectiveTarget(key, Directives.setElementOrder);
    if (!Array.isArray(order)) throw badRequest('invalid patch format of setElementOrder list');
    const field = lookupProperty(parent, name);
    if (field === undefined) throw unknownFieldError(parent, name);
    if (!isMergeList(field)) continue;
    const ordered = mergeAndOrder(target, patch, { name, order, field, merger });
    if (ordered === undefined) continue;
    setOwn(target, name, ordered);
    handled.add(name);
  }
  return handled;
}

interface OrderRequest {
  name: string;
  order: unknown[];
  field: FieldSchema;
  merger: ValueMerger;
}

/** mergeAndOrder returns the merged, ordered list, or undefined to leave the list to the
 * ordinary merge (a value that is not a list, or no list on either side). */
function mergeAndOrder(target: JsonObject, patch: JsonObject, request: OrderRequest): unknown[] | undefined {
  const { name, order, field, merger } = request;
  const live = getOwn(target, name);
  const patched = getOwn(patch, name);
  if ((hasOwn(target, name) && !Array.isArray(live)) || (hasOwn(patch, name) && !Array.isArray(patched))) {
    return undefined;
  }
  const identify = identityFor(field, order);
  validatePatchOrder(Array.isArray(patched) ? patched : [], order, { identify, mergeKey: field.mergeKey });
  const context = { field, merger };
  if (!Array.isArray(patched)) {
    return Array.isArray(live) ? orderByReference(live, { patchOrder: order, serverOrder: live, identify }) : undefined;
  }
  if (!Array.isArray(live)) {
    return orderByReference(materializeList(patched, context), { patchOrder: order, serverOrder: [], identify });
  }
  const merged = mergeList([...live], patched, context);
  const serverOrder = liveOrderSeenByKubernetes(live, patched, field.mergeKey);
  return orderByReference(merged, { patchOrder: order, serverOrder, identify });
}

/**
 * liveOrderSeenByKubernetes returns the live order kube-apiserver orders against.
 *
 * NOTE: this reproduces a Go slice-aliasing effect that Kubernetes' own tests pin down
 * ("add map and delete map from merging list"): `$patch: delete` compacts the live list
 * in place, and elements the patch adds are appended into the freed tail of that same
 * array, so the last live positions hold the new elements instead of stale copies.
 */
function liveOrderSeenByKubernetes(original: unknown[], patchList: readonly unknown[], mergeKey: string | undefined): unknown[] {
  const deletions = patchList.filter((item) => directiveOf(item) === 'delete');
  if (mergeKey === undefined || deletions.length === 0 || patchList.some((item) => directiveOf(item) === 'replace')) {
    return original;
  }
  const identify = keyIdentity(mergeKey);
  const backing = [...original];
  let length = backing.length;
  for (const deletion of deletions) length = compactOut(backing, length, identify(deletion), identify);
  const present = new Set(backing.slice(0, length).map(identify));
  for (const item of patchList) {
    if (directiveOf(item) !== undefined || present.has(identify(item))) continue;
    present.add(identify(item));
    // Go's append writes in place while the array has room (capacity = live length).
    if (length < backing.length) backing[length] = item;
    length++;
  }
  return backing;
}

/** compactOut removes, Go-style, every element identified as `key` from the first
 * `length` elements by shifting the rest left; returns the new length. */
function compactOut(backing: unknown[], length: number, key: unknown, identify: Identify): number {
  let remaining = length;
  let index = backing.findIndex((item, i) => i < remaining && identify(item) === key);
  while (index >= 0) {
    backing.copyWithin(index, index + 1, remaining);
    remaining--;
    index = backing.findIndex((item, i) => i < remaining && identify(item) === key);
  }
  return remaining;
}

function directiveOf(item: unknown): unknown {
  return hasPatchDirective(item) ? getOwn(item, Directives.patch) : undefined;
}

/** identityFor picks how elements are identified, checking that every entry of a keyed
 * list's order directive names a merge key. */
function identityFor(field: FieldSchema, order: readonly unknown[]): Identify {
  const { mergeKey } = field;
  if (mergeKey === undefined) return scalarIdentity;
  for (const entry of order) requireMergeKey(entry, mergeKey, 'BadRequest');
  return keyIdentity(mergeKey);
}

/**
 * validatePatchOrder checks that the patch list's elements (ignoring `$patch` elements)
 * appear in the order directive, in the same relative order.
 */
function validatePatchOrder(
  patchList: readonly unknown[],
  order: readonly unknown[],
  { identify, mergeKey }: { identify: Identify; mergeKey: string | undefined },
): void {
  const elements = patchList.filter((item) => !hasPatchDirective(item));
  if (mergeKey !== undefined) for (const item of elements) requireMergeKey(item, mergeKey, 'BadRequest');
  let matched = 0;
  for (const entry of order) {
    if (matched < elements.length && identify(elements[matched]) === identify(entry)) matched++;
  }
  if (matched < elements.length && order.length > 0) {
    const directive = Directives.setElementOrder;
    throw badRequest(`The order in patch list:\n${formatGoValue(patchList)}\n doesn't match ${directive} list:\n${formatGoValue(order)}\n`);
  }
}
