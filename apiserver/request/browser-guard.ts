/**
 * Keeps web pages in the user's browser from driving the cluster. The server listens on
 * loopback without authentication, and a browser will send requests there on any page's
 * behalf: simple cross-origin POSTs (no preflight), form posts, and — through DNS rebinding —
 * requests that look same-origin to the browser but carry the attacker's host name. So:
 *
 * - a request whose Host is a DNS name other than localhost (or the cluster's own service
 *   names) is refused: rebinding needs a name the attacker controls, IP literals are safe;
 * - a request that changes anything (any method but GET, HEAD and OPTIONS), or opens the live
 *   view's WebSocket, with an Origin (or Sec-Fetch-Site) naming another site is refused. kubectl
 *   and the client libraries send neither header; the live view's own page is same-origin.
 *
 * Bodies are never read as JSON without a JSON Content-Type (request/body.ts): a browser can
 * send text/plain or no type without a preflight, never application/json.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type ApiError, forbidden } from '../api/api-error.js';

/** The names a client on this machine (or, later, inside the cluster) reaches the server by. */
const OWN_HOST_NAMES = new Set(['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local']);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** hostnameOf reads the name part of a Host header (`[::1]:6443` → `::1`). */
function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!;
  const colon = host.lastIndexOf(':');
  return (colon >= 0 && host.indexOf(':') === colon ? host.slice(0, colon) : host).toLowerCase();
}

/** isOwnHost says whether a Host header names this server: an IP literal, localhost, or one of
 * the cluster's names for it. A missing Host (HTTP/1.0 tools) is no browser's request. */
export function isOwnHost(host: string | undefined): boolean {
  if (host === undefined || host === '') return true;
  const name = hostnameOf(host);
  return isIP(name) !== 0 || OWN_HOST_NAMES.has(name) || name.endsWith('.localhost');
}

/** isCrossSite says whether a browser marked the request as coming from another site's page. */
export function isCrossSite(headers: IncomingHttpHeaders): boolean {
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return true;
  const origin = headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== headers.host;
  } catch {
    return true; // `Origin: null` (sandboxed frames, redirects) and anything unreadable
  }
}

/** browserRefusal is the 403 for a request a web page must not make, or undefined. */
export function browserRefusal(method: string, headers: IncomingHttpHeaders, opensSocket = false): ApiError | undefined {
  if (!isOwnHost(headers.host)) {
    return forbidden(
      `requests for host ${JSON.stringify(headers.host)} are refused: this server answers to its IP addresses, localhost and the kubernetes service names only (a web page may be trying DNS rebinding)`,
    );
  }
  if ((opensSocket || !SAFE_METHODS.has(method)) && isCrossSite(headers)) {
    return forbidden(
      `cross-origin ${opensSocket ? 'WebSocket' : method} request from ${JSON.stringify(headers.origin ?? headers['sec-fetch-site'])} refused: web pages may not change the cluster`,
    );
  }
  return undefined;
}

/** registerBrowserGuard refuses, before routing, every request browserRefusal refuses. */
export function registerBrowserGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const refusal = browserRefusal(request.method, request.headers);
    if (refusal) throw refusal;
  });
}
