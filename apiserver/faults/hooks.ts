/**
 * Where fault injection meets the request pipeline: the resource routes describe each
 * request (faultRequestOf) and apply what the injector decides (injectFaults) before the
 * handler runs. Only resource requests pass here; discovery and kubesim's own routes never do.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../store/index.js';
import { ApiError, conflict, internalError } from '../api/api-error.js';
import { managerName } from '../handlers/field-managers.js';
import type { ApiRequest } from '../handlers/types.js';
import { resumeRevisionOf, type WatchFaults } from '../handlers/watch-handler.js';
import type { FaultInjector } from './injector.js';
import type { FaultRequest, InjectedEffect } from './types.js';

/** ANONYMOUS_USER is who a request without a bearer token is, as in kube-apiserver. */
export const ANONYMOUS_USER = 'system:anonymous';

/** faultRequestOf describes a resolved resource request for rule matching. */
export function faultRequestOf(http: { url: string; headers: IncomingHttpHeaders }, api: ApiRequest, verb: string): FaultRequest {
  const { def, namespace, name, subresource } = api.path;
  return {
    method: api.method,
    url: http.url,
    ...(api.userAgent !== undefined && { userAgent: api.userAgent }),
    user: authenticatedUser(api) ?? userOf(http.headers.authorization),
    fieldManager: managerName(api),
    verb,
    resource: def.plural,
    group: def.group,
    ...(subresource !== undefined && { subresource }),
    namespace,
    ...(name !== undefined && { name }),
    ...(verb === 'watch' && { resumeRevision: resumeRevisionOf(api.query) }),
  };
}

/** authenticatedUser is who authentication found (a client certificate, a token), if anyone:
 * without authentication every request is anonymous and the bearer token names the user. */
function authenticatedUser(api: ApiRequest): string | undefined {
  const name = api.user?.username;
  return name && name !== ANONYMOUS_USER ? name : undefined;
}

/** userOf reads the user from `Authorization: Bearer <token>`: kubesim authenticates nobody,
 * so the token (kubesim's kubeconfig has `kubesim`) is taken as the user name. */
export function userOf(authorization: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? ANONYMOUS_USER;
}

/** injectFaults applies the rules that fire for `request`: waits out their latency, compacts
 * the store's history to the current revision, throws an injected error (an ApiError whose
 * retryAfterSeconds the server sends as Retry-After), and returns what a watch must do. */
export async function injectFaults(injector: FaultInjector, request: FaultRequest, store: Store): Promise<WatchFaults> {
  const effects = injector.fire(request).flatMap((firing) => firing.effects);
  const latencyMs = effects.reduce((sum, e) => sum + (e.type === 'latency' ? e.latencyMs : 0), 0);
  if (latencyMs > 0) await sleep(latencyMs);
  if (effects.some((e) => e.type === 'compact')) compactNow(store);
  const error = effects.find((e) => e.type === 'error');
  if (error) throw markInjected(withMessage(injectedError(error, request), error.message));
  const closeAfter = effects.flatMap((e) => (e.type === 'closeWatch' && e.afterEvents !== undefined ? [e.afterEvents] : []));
  return {
    refuseResume: effects.some((e) => e.type === 'refuseWatchResume'),
    withholdBookmarks: effects.some((e) => e.type === 'withholdBookmarks'),
    ...(closeAfter.length > 0 && { closeAfterEvents: Math.min(...closeAfter) }),
    track: (close) => injector.trackWatch(request, close),
  };
}

/** compactNow discards all history up to the current revision, whatever its age: a watch or
 * an exact list from any older revision then gets 410 Expired. */
function compactNow(store: Store): void {
  // The store keeps history younger than maxAgeMs; a negative age makes every change old enough.
  store.compact({ keepRevisions: 0, maxAgeMs: -Number.MAX_SAFE_INTEGER });
}

/** INJECTED marks errors a fault rule made: they are logged once as `fault injected`, not
 * again as a server failure. */
const INJECTED = Symbol('kubesim.faultInjected');

function markInjected(error: ApiError): ApiError {
  return Object.assign(error, { [INJECTED]: true });
}

/** isInjectedError tells whether a fault rule made `err`. */
export function isInjectedError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && INJECTED in err;
}

function withMessage(error: ApiError, message: string | undefined): ApiError {
  return message === undefined ? error : new ApiError(error.reason, error.code, message, error.details);
}

/** injectedError words the error as kube-apiserver would for the real cause. */
function injectedError(effect: Extract<InjectedEffect, { type: 'error' }>, request: FaultRequest): ApiError {
  const retry = effect.retryAfterSeconds !== undefined ? { retryAfterSeconds: effect.retryAfterSeconds } : undefined;
  switch (effect.code) {
    case 409: {
      const error = conflict({ group: request.group, resource: request.resource, name: request.name ?? '' });
      return retry ? new ApiError(error.reason, error.code, error.message, { ...error.details, ...retry }) : error;
    }
    case 429:
      return new ApiError('TooManyRequests', 429, 'Too many requests, please try again later.', retry);
    case 500: {
      const error = internalError('injected fault');
      return new ApiError(error.reason, error.code, error.message, retry);
    }
    case 503:
      return new ApiError('ServiceUnavailable', 503, 'The server is currently unable to handle the request', retry);
    default: {
      const unreachable: never = effect.code;
      return internalError(`unknown injected error ${String(unreachable)}`);
    }
  }
}
