/**
 * Sends one proxied HTTP request on to its target and copies the answer back, as
 * kube-apiserver's UpgradeAwareHandler (a Go ReverseProxy with the proxy transport) does:
 *
 *  - the request keeps its method, headers, body and query; hop-by-hop headers and the
 *    client's credentials (Authorization, Impersonate-*, which kube-apiserver's filters
 *    remove once they are used) are dropped; X-Forwarded-For and X-Forwarded-Uri are added;
 *  - the answer keeps its status and headers (hop-by-hop and CORS headers dropped), with a
 *    redirect's Location and an HTML page's links rewritten under the proxy path
 *    (link-rewrite.ts);
 *  - when the target cannot be reached the client gets kube's 503 ServiceUnavailable Status
 *    `error trying to reach service: dial tcp …`.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ApiError } from '../api/api-error.js';
import { type RewriteContext, rewriteHtml, rewriteUrl } from './link-rewrite.js';
import { dialPodPort } from './pod-dialer.js';
import type { ProxyTarget } from './proxy-location.js';

/** Tells the kubelet-sim process (which runs every simulated node) which node a nodes/proxy
 * request is for. */
export const KUBESIM_NODE_HEADER = 'x-kubesim-node';

/** Headers that belong to one connection, never passed on (Go's ReverseProxy list). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const CORS = new Set(['access-control-allow-credentials', 'access-control-allow-headers', 'access-control-allow-methods', 'access-control-allow-origin']);
/** Go's built-in port names for a dial (`pods/x:http/proxy`). */
const NAMED_PORTS: Record<string, number> = { http: 80, https: 443 };

export interface ForwardRequest {
  /** Path (raw, as the client encoded it) and query to ask the target for. */
  pathAndQuery: string;
  /** The request path up to and including `/proxy`. */
  pathPrepend: string;
}

/** reachError is the 503 of a target that could not be reached. */
export function reachError(message: string): ApiError {
  return new ApiError('ServiceUnavailable', 503, `error trying to reach service: ${message}`);
}

/** forward proxies `client` to `target` and answers on `res`; rejects with an ApiError when
 * nothing was written yet, resolves when the answer is complete or either side went away. */
export function forward(target: ProxyTarget, client: IncomingMessage, res: ServerResponse, request: ForwardRequest): Promise<void> {
  const connect = connection(target);
  if (typeof connect === 'string') return Promise.reject(reachError(connect));
  return new Promise((resolve, reject) => {
    const headers = forwardedHeaders(client, request);
    if (target.kind === 'kubelet') headers[KUBESIM_NODE_HEADER] = target.node;
    const upstream = httpRequest({ ...connect, method: client.method, path: request.pathAndQuery, headers, setHost: false });
    const abandon = () => {
      res.destroy();
      resolve();
    };
    res.on('close', () => upstream.destroy());
    upstream.on('error', (err) => (res.headersSent ? abandon() : reject(reachError(err.message))));
    upstream.on('response', (answer) => {
      const context: RewriteContext = { pathPrepend: request.pathPrepend, backendHost: backendHost(target), requestHost: client.headers.host ?? '' };
      relay(answer, res, context, client.method === 'HEAD').then(resolve, abandon);
    });
    client.pipe(upstream);
  });
}

type Connect = { createConnection: () => Duplex } | { host: string; port: number };

/** connection says how to reach the target, or why it cannot be (a dial error). */
function connection(target: ProxyTarget): Connect | string {
  if (target.kind === 'closed') return `dial tcp ${target.address}: connect: connection refused`;
  if (target.kind === 'kubelet') {
    const at = target.kubelet.lastIndexOf(':');
    return { host: target.kubelet.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(target.kubelet.slice(at + 1)) };
  }
  const port = typeof target.port === 'number' ? target.port : NAMED_PORTS[target.port];
  if (port === undefined) return `dial tcp: lookup tcp/${target.port}: unknown port`;
  // kubesim's servers speak plain HTTP only: a TLS client would fail on their first answer.
  if (target.scheme === 'https') return 'tls: first record does not look like a TLS handshake';
  return { createConnection: () => dialPodPort({ ...target, port }) };
}

function backendHost(target: ProxyTarget): string {
  return target.kind === 'kubelet' ? target.kubelet : target.address;
}

function forwardedHeaders(client: IncomingMessage, request: ForwardRequest): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(client.headers)) {
    if (HOP_BY_HOP.has(name) || name === 'authorization' || name.startsWith('impersonate-')) continue;
    headers[name] = value;
  }
  headers['x-forwarded-uri'] = `${request.pathPrepend}${request.pathAndQuery.split('?')[0]}`;
  const from = client.socket.remoteAddress ?? '';
  headers['x-forwarded-for'] = client.headers['x-forwarded-for'] ? `${client.headers['x-forwarded-for']}, ${from}` : from;
  return headers;
}

/** relay writes the target's answer on `res`, links rewritten. */
async function relay(answer: IncomingMessage, res: ServerResponse, context: RewriteContext, head: boolean): Promise<void> {
  const contentType = (answer.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const encoding = answer.headers['content-encoding'] ?? '';
  const redirect = answer.headers.location !== undefined;
  const rewriteBody = !redirect && !head && contentType === 'text/html' && (encoding === '' || encoding === 'gzip');
  const headers: string[] = [];
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || CORS.has(lower) || (rewriteBody && lower === 'content-length')) continue;
    const value = lower === 'location' ? rewriteUrl(answer.rawHeaders[i + 1]!, context) : answer.rawHeaders[i + 1]!;
    headers.push(name, value);
  }
  if (!rewriteBody) {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
    answer.pipe(res);
    return new Promise((resolve, reject) => {
      answer.on('end', resolve);
      answer.on('error', reject);
    });
  }
  const body = await collect(answer);
  const page = rewriteHtml((encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8'), context);
  const out = encoding === 'gzip' ? gzipSync(page) : Buffer.from(page);
  res.writeHead(answer.statusCode ?? 502, answer.statusMessage, [...headers, 'Content-Length', String(out.length)]);
  res.end(out);
}

function collect(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}
