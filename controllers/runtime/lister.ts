/**
 * Listers: read-only views of an informer's cache (client-go's generated listers, one for
 * every kind). They never call the API server; what they return is the cache's own object.
 */
import { type LabelSelectorQuery, parseLabelSelector } from '../../apiserver/api/labels.js';
import { cacheKey, type IndexStore, NAMESPACE_INDEX } from './index-store.js';
import type { DeepReadonly, Lister } from './types.js';

interface ListedShape {
  readonly metadata: { readonly namespace?: string; readonly name?: string; readonly labels?: Record<string, string> };
}

/**
 * createLister returns a Lister over `store`. get/list/byIndex return the shared cached
 * objects: NOTE never mutate them (structuredClone first). `list(ns, selector)` narrows by
 * the namespace index, then by the label selector text (Kubernetes' `?labelSelector=`
 * grammar); an invalid selector throws SelectorParseError, as it is a programming error.
 * byIndex throws for an index nobody added.
 */
export function createLister<T extends ListedShape>(store: IndexStore<T>): Lister<T> {
  return {
    get: (namespace, name) => store.get(cacheKey({ metadata: { namespace, name } })),
    list(namespace, labelSelector) {
      const candidates = namespace === undefined ? store.list() : store.byIndex(NAMESPACE_INDEX, namespace);
      const selector = labelSelector ? parseLabelSelector(labelSelector) : undefined;
      return selector ? candidates.filter((object) => matches(selector, object)) : candidates;
    },
    byIndex: (indexName, value) => store.byIndex(indexName, value),
  };
}

function matches<T extends ListedShape>(selector: LabelSelectorQuery, object: DeepReadonly<T>): boolean {
  return selector.matches((object as ListedShape).metadata.labels);
}
