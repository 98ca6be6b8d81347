/** GET of one object and of a collection (list), as JSON or as a server-side Table. */
import { isExpired, type ListOptions, type StoredObject } from '../../store/index.js';
import { expired } from '../api/api-error.js';
import { apiVersionOf, type KubeObject } from '../api/resource-definition.js';
import { asKube, readStored, storageDefinitionOf } from '../registry/context.js';
import { servedText, toServed } from '../registry/object-codec.js';
import { wantsTable } from '../request/accept.js';
import { EXPIRED_CONTINUE_MESSAGE, encodeContinue, type ListWindow, parseListWindow, parseSelection, tooOldResourceVersion } from './list-options.js';
import { buildTable, includeObjectOf } from './table.js';
import { type ApiRequest, type ApiResponse, type HandlerContext, listKind, targetOf } from './types.js';
import { getVirtual, isVirtual, listVirtual } from './virtual-read.js';

/** getObject answers GET on a single object. */
export function getObject(ctx: HandlerContext, request: ApiRequest): ApiResponse {
  if (isVirtual(request.path.def)) return getVirtual(ctx, request);
  const target = targetOf(request.path);
  const stored = readStored(ctx, target);
  const served = toServed(target.def, stored);
  if (!wantsTable(request.accept)) return { status: 200, body: served };
  const table = buildTable(storageDefinitionOf(ctx, target.def), [{ served, printed: stored }], {
    includeObject: includeObjectOf(request.query),
    nowMs: ctx.now(),
  });
  table.metadata.resourceVersion = served.metadata.resourceVersion;
  return { status: 200, body: table };
}

/** ListPage is one page of a selection: served objects with their stored originals. */
export interface ListPage {
  entries: Array<{ served: KubeObject; stored: KubeObject }>;
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

interface ListMetadata {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** readListPage selects the objects a list (or deletecollection) request addresses. */
export function readListPage(ctx: HandlerContext, request: ApiRequest): ListPage {
  const { def } = request.path;
  const selection = parseSelection(def, request.query);
  const window = parseListWindow(request.query, ctx.store.currentRevision);
  const result = readStore(ctx, request, window, selection.everything ? undefined : (o) => selection.matches(asKube(o)));
  const entries = result.items.map((item) => ({ served: toServed(def, asKube(item)), stored: asKube(item) }));
  const last = result.items.length > 0 ? asKube(result.items[result.items.length - 1]!).metadata : undefined;
  return { entries, ...pageOf(result, last && { namespace: last.namespace ?? '', name: last.name ?? '' }) };
}

/** pageOf is where a page read at `result.revision` ends: its continue token (after `last`)
 * and the count of what follows, when more follows. */
function pageOf(
  result: { revision: number; more: boolean; remainingItemCount?: number },
  last: { namespace: string; name: string } | undefined,
): Omit<ListPage, 'entries'> {
  const page: Omit<ListPage, 'entries'> = { resourceVersion: String(result.revision) };
  if (result.more && last) {
    page.continueToken = encodeContinue({ revision: result.revision, ...last });
    if (result.remainingItemCount !== undefined) page.remainingItemCount = result.remainingItemCount;
  }
  return page;
}

function readStore(ctx: HandlerContext, request: ApiRequest, window: ListWindow, predicate?: (o: StoredObject) => boolean) {
  return expiredAsApiError(ctx, window, () => ctx.store.list({ ...listScope(ctx, request, window), predicate }));
}

function listScope(ctx: HandlerContext, request: ApiRequest, window: ListWindow): ListOptions {
  const { def, namespace } = request.path;
  return {
    resource: def.storage.resource,
    namespace: def.namespaced && namespace ? namespace : undefined,
    limit: window.limit,
    startAfter: window.continueToken ? { namespace: window.continueToken.namespace, name: window.continueToken.name } : undefined,
    revision: window.revision !== undefined && window.revision < ctx.store.currentRevision ? window.revision : undefined,
  };
}

function expiredAsApiError<T>(ctx: HandlerContext, window: ListWindow, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!isExpired(err)) throw err;
    if (window.continueToken) throw expired(EXPIRED_CONTINUE_MESSAGE);
    throw tooOldResourceVersion(window.revision ?? 0, ctx.store.compactedRevision);
  }
}

function listMetadata(page: Omit<ListPage, 'entries'>): ListMetadata {
  return {
    resourceVersion: page.resourceVersion,
    ...(page.continueToken ? { continue: page.continueToken } : {}),
    ...(page.remainingItemCount !== undefined ? { remainingItemCount: page.remainingItemCount } : {}),
  };
}

/** listAsText answers a plain JSON list of every object in scope by splicing the stored texts
 * into the list: an item already in the served form (servedText) is neither parsed nor
 * serialised again; only the others are converted. The bytes equal JSON.stringify of the list
 * listObjects would build. */
function listAsText(ctx: HandlerContext, request: ApiRequest): ApiResponse {
  const { def } = request.path;
  const window = parseListWindow(request.query, ctx.store.currentRevision);
  const result = expiredAsApiError(ctx, window, () => ctx.store.listText(listScope(ctx, request, window)));
  const items = result.items.map(({ body }) => servedText(def, body) ?? JSON.stringify(toServed(def, JSON.parse(body) as KubeObject)));
  const last = result.items[result.items.length - 1];
  const page = pageOf(result, last && { namespace: last.namespace, name: last.name });
  const head = JSON.stringify({ kind: listKind(def), apiVersion: apiVersionOf(def), metadata: listMetadata(page) });
  return { status: 200, contentType: 'application/json', body: `${head.slice(0, -1)},"items":[${items.join(',')}]}` };
}

/** listObjects answers GET on a collection. */
export function listObjects(ctx: HandlerContext, request: ApiRequest): ApiResponse {
  const { def } = request.path;
  if (isVirtual(def)) return listVirtual(ctx, request);
  if (!wantsTable(request.accept) && parseSelection(def, request.query).everything) return listAsText(ctx, request);
  const page = readListPage(ctx, request);
  const metadata = listMetadata(page);
  if (wantsTable(request.accept)) {
    const printDef = storageDefinitionOf(ctx, def);
    const entries = page.entries.map((e) => ({ served: e.served, printed: e.stored }));
    const table = buildTable(printDef, entries, { includeObject: includeObjectOf(request.query), nowMs: ctx.now() });
    table.metadata = metadata;
    return { status: 200, body: table };
  }
  return {
    status: 200,
    body: { kind: listKind(def), apiVersion: apiVersionOf(def), metadata, items: page.entries.map((e) => e.served) },
  };
}
