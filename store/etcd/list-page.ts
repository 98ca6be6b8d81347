/**
 * pageOf cuts one list page out of every key of a resource read at one revision: the Store's
 * order, startAfter, predicate, limit and remainingItemCount, as the SQLite store answers them.
 */
import type { ObjectRef } from '../types.js';

export interface PageOptions<Item> {
  startAfter?: { namespace: string; name: string };
  limit?: number;
  predicate?: (item: Item) => boolean;
}

export interface Page<Item> {
  items: Item[];
  more: boolean;
  remainingItemCount?: number;
}

/** pageOf sorts `entries` by (namespace, name) (etcd's key order differs: a cluster-scoped
 * name sorts among the namespaces, and `a-b/x` before `a/x`), skips up to startAfter, decodes
 * and filters until `limit` items, and says whether more matching ones follow. */
export function pageOf<Entry extends { ref: ObjectRef }, Item>(entries: Entry[], options: PageOptions<Item>, decode: (entry: Entry) => Item): Page<Item> {
  const sorted = [...entries].sort((a, b) => compareNamespaced(a.ref, b.ref));
  const after = options.startAfter;
  const start = after === undefined ? 0 : firstAfter(sorted, after);
  const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
  const items: Item[] = [];
  for (let i = start; i < sorted.length; i++) {
    const item = decode(sorted[i]!);
    if (options.predicate && !options.predicate(item)) continue;
    if (items.length === limit) {
      return options.predicate ? { items, more: true } : { items, more: true, remainingItemCount: sorted.length - i };
    }
    items.push(item);
  }
  return { items, more: false };
}

function firstAfter(sorted: Array<{ ref: ObjectRef }>, after: { namespace: string; name: string }): number {
  const index = sorted.findIndex((entry) => compareNamespaced(entry.ref, after) > 0);
  return index === -1 ? sorted.length : index;
}

function compareNamespaced(a: { namespace: string; name: string }, b: { namespace: string; name: string }): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
