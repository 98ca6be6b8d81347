/**
 * The history API (docs/history.md), in kubesim's own group:
 *   GET /apis/kubesim.io/v1alpha1/history[?resource=&namespace=&name=|labelSelector=]
 *       [&fromRevision=&toRevision=&limit=&includeObject=true]   → HistoryList, oldest first
 *   … &watch=1   → one HistoryItem per line (JSON lines) for every later matching change, and
 *                  an empty line every 30 s while idle
 * A fromRevision whose history was compacted gets a 410 Status (a watch too: before it starts).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isExpired, isTooLarge, type StoreEvent, type StoreWatch } from '../../store/index.js';
import { HISTORY_API_VERSION, type HistoryActor, type HistoryItem, type HistoryList } from '../api/kubesim/history.js';
import type { Registry } from '../api/registry.js';
import { tooLargeResourceVersion, tooOldResourceVersion } from '../handlers/list-options.js';
import type { HandlerContext } from '../handlers/types.js';
import { waitForDrain } from '../handlers/watch-handler.js';
import type { Query } from '../request/query.js';
import { KUBESIM_API } from './cluster-routes.js';
import { type HistoryQuery, parseHistoryQuery } from './history-query.js';
import { diffObjects } from './object-diff.js';
import { redactChanges, redactObject } from './redact.js';

/** KEEPALIVE_MS is how often an idle stream gets an empty line (wall time), so clients and
 * proxies that time out silent responses keep it open. Readers skip empty lines. */
const KEEPALIVE_MS = 30_000;

/** registerHistoryRoutes mounts GET …/history on `app`. */
export function registerHistoryRoutes(app: FastifyInstance, ctx: HandlerContext): void {
  app.get(`${KUBESIM_API}/history`, async (request: FastifyRequest, reply: FastifyReply) => {
    const query = parseHistoryQuery(ctx.registry, request.query as Query);
    if (!query.watch) return reply.type('application/json').send(JSON.stringify(readHistory(ctx, query)));
    // Opened before the hijack, so a compacted fromRevision still gets its 410 Status.
    const watch = guarded(ctx, query, () => ctx.store.watch({ afterRevision: query.store.afterRevision ?? ctx.store.currentRevision }));
    reply.hijack();
    await streamHistory(ctx, query, watch, reply.raw).catch((err: unknown) => {
      request.log.warn({ err }, 'history stream ended with an error');
      if (!reply.raw.destroyed) reply.raw.end();
    });
    return reply;
  });
}

/** readHistory answers one page. */
function readHistory(ctx: HandlerContext, query: HistoryQuery): HistoryList {
  const page = guarded(ctx, query, () => ctx.store.history(query.store));
  const items = page.events.map((event) => toHistoryItem(ctx.registry, event, query.includeObject));
  const last = items[items.length - 1];
  const metadata: HistoryList['metadata'] = { resourceVersion: String(page.revision) };
  if (page.more && last) metadata.continue = String(last.revision + 1);
  return { apiVersion: HISTORY_API_VERSION, kind: 'HistoryList', metadata, items };
}

/** streamHistory writes every matching change after fromRevision − 1 (default: from now) as a
 * JSON line until the client leaves; the socket's back-pressure paces it, and a client too
 * slow for the store's buffer is cut off (it re-reads from its last revision). */
async function streamHistory(ctx: HandlerContext, query: HistoryQuery, watch: StoreWatch, raw: ServerResponse): Promise<void> {
  const { resource, namespace, name, predicate, toRevision } = query.store;
  raw.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  raw.flushHeaders();
  const stop = () => watch.close();
  raw.on('close', stop);
  const keepalive = setInterval(() => raw.write('\n'), KEEPALIVE_MS);
  try {
    for await (const message of watch) {
      if (message.type === 'BOOKMARK') continue;
      if (toRevision !== undefined && message.revision > toRevision) break;
      const { ref } = message;
      if ((resource !== undefined && ref.resource !== resource) || (namespace !== undefined && ref.namespace !== namespace)) continue;
      if ((name !== undefined && ref.name !== name) || (predicate && !predicate(message))) continue;
      if (!raw.write(`${JSON.stringify(toHistoryItem(ctx.registry, message, query.includeObject))}\n`)) await waitForDrain(raw);
      if (raw.destroyed) break;
    }
  } finally {
    clearInterval(keepalive);
    raw.off('close', stop);
    watch.close();
    if (!raw.destroyed) raw.end();
  }
}

/** guarded maps the store's revision errors to Kubernetes' 410 and 504. */
function guarded<T>(ctx: HandlerContext, query: HistoryQuery, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (isExpired(err)) throw tooOldResourceVersion(query.fromRevision ?? 0, ctx.store.compactedRevision);
    if (isTooLarge(err)) throw tooLargeResourceVersion(query.fromRevision ?? 0, ctx.store.currentRevision);
    throw err;
  }
}

/** toHistoryItem renders a stored change: its actor, its field diff and, when asked, the
 * object after it. */
export function toHistoryItem(registry: Registry, event: StoreEvent, includeObject: boolean): HistoryItem {
  const { ref, object } = event;
  const kind = typeof object['kind'] === 'string' ? object['kind'] : registry.storageDefinition(ref.resource)?.kind;
  const item: HistoryItem = {
    revision: event.revision,
    type: event.type,
    resource: ref.resource,
    kind,
    namespace: ref.namespace,
    name: ref.name,
    time: new Date(event.timeMs ?? 0).toISOString(),
    actor: (event.actor as HistoryActor | undefined) ?? null,
    diff: event.type === 'MODIFIED' && event.prevObject ? redactChanges(ref.resource, diffObjects(event.prevObject, object)) : [],
  };
  if (includeObject) item.object = redactObject(ref.resource, object);
  return item;
}
