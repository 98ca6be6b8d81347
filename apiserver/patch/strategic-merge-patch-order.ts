/**
 * Element order of merged lists, as k8s.io/apimachinery strategicpatch decides it
 * ("preserve order in strategic merge patch"). Precedence: `$setElementOrder` list >
 * order in the patch list > order in the live list. Items only the server has keep their
 * live positions relative to the patched items they preceded; an item the live list
 * lacks is placed as soon as it comes up in patch order, so without `$setElementOrder`
 * a new item lands before the live items (Kubernetes prepends, it does not append).
 */
import { getOwn, isJsonObject } from './json-value.js';

/** Identify maps a list element to what identifies it: a keyed element to its merge key
 * value, a scalar to itself. Identities compare with `===` (Go's interface equality). */
export type Identify = (item: unknown) => unknown;

/** scalarIdentity identifies a scalar list element by its value. */
export const scalarIdentity: Identify = (item) => item;

/** keyIdentity identifies a map list element by its `mergeKey` value. */
export function keyIdentity(mergeKey: string): Identify {
  return (item) => (isJsonObject(item) ? getOwn(item, mergeKey) : undefined);
}

/** OrderReference is what a merged list is ordered by. */
export interface OrderReference {
  /** The order the patch asks for: the patch list, or the `$setElementOrder` list. */
  readonly patchOrder: readonly unknown[];
  /** The live list's order. */
  readonly serverOrder: readonly unknown[];
  readonly identify: Identify;
}

/**
 * orderByReference orders a merged list: elements whose identity occurs in `patchOrder`
 * follow that order; the others ("server-only") keep their order in `serverOrder` and
 * are interleaved where they stood in the live list. Returns a new array; never throws.
 */
export function orderByReference(merged: readonly unknown[], reference: OrderReference): unknown[] {
  const { patchOrder, serverOrder, identify } = reference;
  const inPatch = new Set(patchOrder.map(identify));
  const patchItems = merged.filter((item) => inPatch.has(identify(item)));
  const serverOnly = merged.filter((item) => !inPatch.has(identify(item)));
  return interleave(
    sortByReference(serverOnly, serverOrder, identify),
    sortByReference(patchItems, patchOrder, identify),
    positions(serverOrder, identify),
    identify,
  );
}

/** positions maps each identity to its first index in `reference`. */
function positions(reference: readonly unknown[], identify: Identify): Map<unknown, number> {
  const result = new Map<unknown, number>();
  reference.forEach((item, index) => {
    const identity = identify(item);
    if (!result.has(identity)) result.set(identity, index);
  });
  return result;
}

/** sortByReference stably sorts `items` by their first position in `reference`. */
function sortByReference(items: readonly unknown[], reference: readonly unknown[], identify: Identify): unknown[] {
  const position = positions(reference, identify);
  const rank = (item: unknown) => position.get(identify(item)) ?? Number.MAX_SAFE_INTEGER;
  return [...items].sort((a, b) => rank(a) - rank(b));
}

/**
 * interleave merges two sorted lists. A server-only item goes first only when both it
 * and the next patch item are in the live list and it stood before that item there.
 */
function interleave(serverOnly: readonly unknown[], patchItems: readonly unknown[], livePosition: Map<unknown, number>, identify: Identify): unknown[] {
  const result: unknown[] = [];
  let s = 0;
  let p = 0;
  while (s < serverOnly.length || p < patchItems.length) {
    if (p >= patchItems.length || (s < serverOnly.length && precedes(serverOnly[s], patchItems[p]))) {
      result.push(serverOnly[s++]);
    } else {
      result.push(patchItems[p++]);
    }
  }
  return result;

  function precedes(server: unknown, patched: unknown): boolean {
    const left = livePosition.get(identify(server));
    const right = livePosition.get(identify(patched));
    return left !== undefined && right !== undefined && left < right;
  }
}
