/**
 * The generic REST surface: every verb on every kind in the registry under /api/v1 and
 * /apis/{group}/{version}, resolved per request (so kinds added at run time are served at
 * once). The bare group-version path answers its APIResourceList.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, methodNotAllowed, pathNotFound } from '../api/api-error.js';
import { escapeFieldValue, parseFieldSelector } from '../api/fields.js';
import { WATCH_HANDOFF_HEADER } from '../api/machinery/watch-handoff.js';
import type { Registry } from '../api/registry.js';
import { ALL_VERBS } from '../api/resource-definition.js';
import { handleWithConversion, mayConvertThroughWebhook } from '../apiextensions/conversion-routing.js';
import { toApiError } from '../errors.js';
import { faultRequestOf, injectFaults } from '../faults/hooks.js';
import type { FaultInjector } from '../faults/injector.js';
import { deleteCollectionHandler, deleteHandler } from '../handlers/delete-handlers.js';
import { evictionHandler } from '../handlers/eviction-handler.js';
import { serveLog } from '../handlers/log-proxy.js';
import { bindingHandler } from '../handlers/pod-handlers.js';
import { getObject, listObjects } from '../handlers/read-handlers.js';
import { scaleHandler } from '../handlers/scale-handlers.js';
import { tokenRequestHandler } from '../handlers/token-request-handler.js';
import type { ApiRequest, ApiResponse, HandlerContext, MaybeAsyncResponse } from '../handlers/types.js';
import { serveWatch, type WatchSettings } from '../handlers/watch-handler.js';
import { createHandler, patchHandler, updateHandler } from '../handlers/write-handlers.js';
import { actorOf } from '../kubesim/actor.js';
import type { ApiServerMetrics, RouteSeries } from '../prometheus/apiserver-metrics.js';
import { metricsDryRun, metricsScope, metricsVerb } from '../prometheus/route-labels.js';
import { type Query, queryBool, queryString } from '../request/query.js';
import { warningHeaderValue } from '../request/warning-header.js';
import { resourceList } from './discovery.js';
import { resolveResourcePath } from './resource-path.js';

type Handler = (ctx: HandlerContext, request: ApiRequest) => MaybeAsyncResponse;

/** SUBRESOURCE_HANDLERS maps subresource → method → handler; 'status', 'finalize', 'approval' and 'ephemeralcontainers' use the
 * object handlers with a narrowed update scope. */
const SUBRESOURCE_HANDLERS: Record<string, Partial<Record<string, Handler>>> = {
  status: { GET: getObject, PUT: updateHandler, PATCH: patchHandler },
  finalize: { PUT: updateHandler },
  approval: { GET: getObject, PUT: updateHandler, PATCH: patchHandler },
  ephemeralcontainers: { GET: getObject, PUT: updateHandler, PATCH: patchHandler },
  scale: { GET: scaleHandler, PUT: scaleHandler, PATCH: scaleHandler },
  binding: { POST: bindingHandler },
  eviction: { POST: evictionHandler },
  token: { POST: tokenRequestHandler },
  // GET streams from the kubelet (serveLog, special-cased like watch); other verbs are 405.
  log: {},
};

const OBJECT_HANDLERS: Partial<Record<string, Handler>> = { GET: getObject, PUT: updateHandler, PATCH: patchHandler, DELETE: deleteHandler };
const COLLECTION_HANDLERS: Partial<Record<string, Handler>> = { GET: listObjects, POST: createHandler, DELETE: deleteCollectionHandler };
/** The all-namespaces collection of a namespaced kind (/api/v1/pods) only lists and watches,
 * as in kube-apiserver: no create without a namespace, no deletecollection across all of them. */
const ALL_NAMESPACES_HANDLERS: Partial<Record<string, Handler>> = { GET: listObjects };

function collectionHandlers(path: ApiRequest['path']): Partial<Record<string, Handler>> {
  return path.def.namespaced && path.namespace === '' ? ALL_NAMESPACES_HANDLERS : COLLECTION_HANDLERS;
}

function pickHandler(request: ApiRequest): Handler {
  const { name, subresource } = request.path;
  const table = subresource ? (SUBRESOURCE_HANDLERS[subresource] ?? {}) : name !== undefined ? OBJECT_HANDLERS : collectionHandlers(request.path);
  const handler = table[request.method];
  if (!handler) throw methodNotAllowed(request.method);
  return handler;
}

function send(reply: FastifyReply, response: ApiResponse): FastifyReply {
  const warned = (response.warnings?.length ?? 0) > 0;
  // One header line per warning, as kube-apiserver sends them (reply.header would keep the last).
  if (warned) reply.header('Warning', response.warnings!.map(warningHeaderValue));
  reply.code(response.status);
  if (response.contentType) return reply.type(response.contentType).send(response.body);
  const json = JSON.stringify(response.body);
  // Node writes the headers in the body's encoding when the body is a string: a Buffer body
  // keeps them Latin-1, so the warnings' UTF-8 bytes reach the client unchanged.
  return reply.type('application/json').send(warned ? Buffer.from(json) : json);
}

/** failHijacked answers an error on a hijacked (watch or log) response: as a Status if
 * nothing was sent yet, else by ending the stream (the client re-watches). */
function failHijacked(reply: FastifyReply, err: unknown, request: FastifyRequest): void {
  const raw = reply.raw;
  if (!raw.headersSent) {
    const status = toApiError(err, 0).toStatus();
    if (status.code >= 500) request.log.error({ err }, 'streaming request failed');
    raw.writeHead(status.code, { 'Content-Type': 'application/json' });
    raw.end(JSON.stringify(status));
    return;
  }
  request.log.warn({ err }, 'stream ended with an error');
  if (!raw.destroyed) raw.end();
}

/** collectionWatch turns a watch of one named object (the legacy /watch/.../{name} path) into
 * the collection watch kube-apiserver serves for it: one selected by `metadata.name`. A
 * fieldSelector given as well must select that same name. */
function collectionWatch(request: ApiRequest): ApiRequest {
  const { name, subresource } = request.path;
  if (name === undefined) return request;
  if (subresource !== undefined) throw pathNotFound();
  const given = queryString(request.query, 'fieldSelector') ?? '';
  if (given !== '') {
    let selected: string | undefined;
    try {
      selected = parseFieldSelector(given).requiresExactMatch('metadata.name');
    } catch (err) {
      throw badRequest((err as Error).message);
    }
    if (selected !== name) throw badRequest("fieldSelector metadata.name doesn't match requested name");
    return { ...request, path: { ...request.path, name: undefined } };
  }
  const query = { ...request.query, fieldSelector: `metadata.name=${escapeFieldValue(name)}` };
  return { ...request, query, path: { ...request.path, name: undefined } };
}

/** verbOf names the Kubernetes verb of a request; a subresource request (always of a named
 * object) takes its method's verb: get, update, patch, create (binding, eviction), delete. */
function verbOf(request: ApiRequest, isWatch: boolean): string | undefined {
  if (isWatch) return 'watch';
  const { name, subresource } = request.path;
  const verbs: Partial<Record<string, string>> =
    subresource !== undefined
      ? { GET: 'get', PUT: 'update', PATCH: 'patch', POST: 'create', DELETE: 'delete' }
      : name !== undefined
        ? { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' }
        : { GET: 'list', POST: 'create', DELETE: 'deletecollection' };
  return verbs[request.method];
}

/** checkVerb answers 405 for a verb the kind does not serve (read-only kinds such as
 * metrics.k8s.io PodMetrics), as kube-apiserver does for a verb it has no handler for.
 * Subresources have verbs of their own and are not checked here. */
function checkVerb(request: ApiRequest, verb: string | undefined): void {
  const served: readonly string[] = request.path.def.verbs ?? ALL_VERBS;
  if (request.path.subresource === undefined && verb !== undefined && !served.includes(verb)) throw methodNotAllowed(request.method);
}

/** ResourceRouteOptions: watch settings, the fault injector every resource request passes,
 * and the /metrics families requests are counted in. */
export interface ResourceRouteOptions extends WatchSettings {
  faults?: FaultInjector;
  metrics?: ApiServerMetrics;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The metrics series of the resource route serving this request, once it is known. */
    apiRoute: RouteSeries | null;
  }
}

/** countRequest records a finished resource request (watches included, when they end). */
function countRequest(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  request.apiRoute?.record(reply.statusCode, reply.elapsedTime / 1000);
  done();
}

/** whileOpen serves a long-running request (watch, log stream): counted in its gauge while it
 * runs, and in the request counters when it ends — here, not in onResponse, because a response
 * the client walked away from never finishes. `serve` must answer its own errors. */
async function whileOpen(request: FastifyRequest, reply: FastifyReply, serve: () => Promise<void>): Promise<void> {
  const route = request.apiRoute;
  request.apiRoute = null;
  const gauge = route?.longRunning();
  gauge?.inc();
  try {
    await serve();
  } finally {
    gauge?.dec();
    route?.record(reply.raw.statusCode, reply.elapsedTime / 1000);
  }
}

/** registerResourceRoutes mounts the REST surface for the registry's kinds. */
export function registerResourceRoutes(app: FastifyInstance, ctx: HandlerContext, registry: Registry, watch: ResourceRouteOptions): void {
  const { metrics } = watch;
  if (metrics) app.decorateRequest('apiRoute', null);
  const handle = (group: string, version: string, rest: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    // fastify has decoded the wildcard already: decoding again broke names holding `%` (a 500).
    const segments = rest.split('/').filter((s) => s !== '');
    const path = resolveResourcePath(registry, group, version, segments);
    if (!path) {
      if (request.method !== 'GET') throw methodNotAllowed(request.method);
      return send(reply, { status: 200, body: resourceList(registry, group, version) });
    }
    const query = request.query as Query;
    const apiRequest: ApiRequest = {
      method: request.method,
      path,
      query,
      accept: request.headers.accept,
      contentType: request.headers['content-type'],
      body: request.body as Buffer | undefined,
      userAgent: request.headers['user-agent'],
      watchHandoff: request.headers[WATCH_HANDOFF_HEADER] as string | undefined,
      actor: request.method === 'GET' ? undefined : actorOf(request.headers, query, request.user),
      user: request.user,
    };
    const isWatch = request.method === 'GET' && (path.watchPrefix || (!path.name && queryBool(query, 'watch') === true));
    const verb = verbOf(apiRequest, isWatch);
    if (metrics) {
      const metricsLabels = { verb: metricsVerb(request.method, path, isWatch, apiRequest.contentType), scope: metricsScope(request.method, path) };
      request.apiRoute = metrics.route({ def: path.def, subresource: path.subresource ?? '', dryRun: metricsDryRun(query['dryRun']), ...metricsLabels });
    }
    checkVerb(apiRequest, verb);
    const faults = watch.faults && verb !== undefined ? await injectFaults(watch.faults, faultRequestOf(request, apiRequest, verb), ctx.store) : undefined;
    if (isWatch) {
      const watchRequest = collectionWatch(apiRequest);
      reply.hijack();
      const events = metrics?.watchEventsOf(path.def);
      await whileOpen(request, reply, () =>
        serveWatch(ctx, watchRequest, reply.raw, watch, faults, events).catch((err: unknown) => failHijacked(reply, err, request)),
      );
      return reply;
    }
    if (request.method === 'GET' && path.subresource === 'log' && path.name !== undefined) {
      reply.hijack();
      await whileOpen(request, reply, () => serveLog(ctx, apiRequest, reply.raw).catch((err: unknown) => failHijacked(reply, err, request)));
      return reply;
    }
    const handlerCtx = { ...ctx, actor: apiRequest.actor, user: apiRequest.user, audit: request.audit };
    // A CRD's non-storage version may need its conversion webhook around the handler.
    const answer = mayConvertThroughWebhook(apiRequest)
      ? handleWithConversion(handlerCtx, apiRequest, async (c, r) => pickHandler(r)(c, r))
      : pickHandler(apiRequest)(handlerCtx, apiRequest);
    // Awaited only when an admission plugin answered asynchronously: the common write stays synchronous.
    const response = answer instanceof Promise ? await answer : answer;
    // kube-apiserver warns on every request to a deprecated resource (kubectl prints `Warning: …`).
    const { deprecationWarning } = apiRequest.path.def;
    if (deprecationWarning) response.warnings = [...(response.warnings ?? []), deprecationWarning];
    return send(reply, response);
  };
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
  // Only the resource routes pay for the hook; without metrics there is none.
  const onResponse = metrics ? { onResponse: countRequest } : {};
  app.route<{ Params: { version: string; '*': string } }>({
    method: [...methods],
    ...onResponse,
    url: '/api/:version/*',
    handler: (request, reply) => handle('', request.params.version, request.params['*'])(request, reply),
  });
  app.route<{ Params: { version: string } }>({
    method: [...methods],
    ...onResponse,
    url: '/api/:version',
    handler: (request, reply) => handle('', request.params.version, '')(request, reply),
  });
  app.route<{ Params: { group: string; version: string; '*': string } }>({
    method: [...methods],
    ...onResponse,
    url: '/apis/:group/:version/*',
    handler: (request, reply) => handle(request.params.group, request.params.version, request.params['*'])(request, reply),
  });
  app.route<{ Params: { group: string; version: string } }>({
    method: [...methods],
    ...onResponse,
    url: '/apis/:group/:version',
    handler: (request, reply) => handle(request.params.group, request.params.version, '')(request, reply),
  });
}
