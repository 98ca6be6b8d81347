/**
 * The query of GET /apis/kubesim.io/v1alpha1/history (docs/history.md): which changes, from
 * which revision, in what form. Bad parameters get a 400 naming them.
 */
import type { HistoryOptions, StoreEvent } from '../../store/index.js';
import { ApiError, badRequest } from '../api/api-error.js';
import { parseLabelSelector } from '../api/labels.js';
import type { Registry } from '../api/registry.js';
import { type Query, queryBool, queryInt, queryString } from '../request/query.js';

/** HistoryQuery is a parsed history request. `store` is what to ask Store.history (or, for a
 * watch, how to filter the stream); `fromRevision` is the first revision asked for. */
export interface HistoryQuery {
  store: HistoryOptions;
  fromRevision: number | undefined;
  includeObject: boolean;
  watch: boolean;
}

/** parseHistoryQuery reads resource, namespace, name, labelSelector, fromRevision,
 * toRevision, limit, includeObject and watch. */
export function parseHistoryQuery(registry: Registry, query: Query): HistoryQuery {
  const resourceText = queryString(query, 'resource') || undefined;
  const name = queryString(query, 'name') || undefined;
  const namespace = queryString(query, 'namespace');
  if (name !== undefined && resourceText === undefined) throw badRequest('name requires resource: names are unique only within a resource');
  const fromRevision = queryInt(query, 'fromRevision');
  if (fromRevision !== undefined && fromRevision < 1) throw badRequest('fromRevision must be at least 1');
  const toRevision = queryInt(query, 'toRevision');
  const store: HistoryOptions = {
    resource: resourceText === undefined ? undefined : resolveResource(registry, resourceText),
    namespace: namespace === undefined ? undefined : namespace,
    name,
    afterRevision: fromRevision === undefined ? undefined : fromRevision - 1,
    toRevision,
    limit: queryInt(query, 'limit'),
    predicate: labelPredicate(queryString(query, 'labelSelector') ?? ''),
  };
  return { store, fromRevision, includeObject: queryBool(query, 'includeObject') === true, watch: queryBool(query, 'watch') === true };
}

/** resolveResource maps what a user may type — `deployments.apps`, `deployments`,
 * `deployment`, `deploy`, `Deployment` — to the storage resource. Throws a 400 for a name no
 * served kind has. */
export function resolveResource(registry: Registry, text: string): string {
  const lower = text.toLowerCase();
  const dot = lower.indexOf('.');
  const name = dot < 0 ? lower : lower.slice(0, dot);
  const group = dot < 0 ? undefined : lower.slice(dot + 1);
  const defs = registry.all().filter((d) => d.source !== 'virtual');
  const exact = defs.find((d) => d.storage.resource === lower);
  if (exact) return exact.storage.resource;
  const match = defs.find((d) => (group === undefined || d.group === group) && [d.plural, d.singular, d.kind.toLowerCase(), ...d.shortNames].includes(name));
  if (!match) throw badRequest(`the server doesn't have a resource type "${text}"`);
  return match.storage.resource;
}

/** labelPredicate selects changes whose object, before or after, has matching labels. */
function labelPredicate(text: string): ((event: StoreEvent) => boolean) | undefined {
  if (text === '') return undefined;
  let selector: ReturnType<typeof parseLabelSelector>;
  try {
    selector = parseLabelSelector(text);
  } catch (err) {
    throw err instanceof ApiError ? err : badRequest((err as Error).message);
  }
  const labelsOf = (object: StoreEvent['object'] | undefined) => object?.metadata['labels'] as Record<string, string> | undefined;
  return (event) => selector.matches(labelsOf(event.object)) || (event.prevObject !== undefined && selector.matches(labelsOf(event.prevObject)));
}
