/**
 * pods/proxy, services/proxy and nodes/proxy (docs/streaming.md, "Proxy"): every HTTP method,
 * under
 *
 *   /api/v1/namespaces/{namespace}/pods/{[scheme:]name[:port]}/proxy[/{path}]
 *   /api/v1/namespaces/{namespace}/services/{[scheme:]name[:port]}/proxy[/{path}]
 *   /api/v1/nodes/{[scheme:]name[:port]}/proxy[/{path}]
 *
 * Authentication and authorization are the server's hooks (RBAC: the `proxy` subresource
 * with the method's verb). The target is found as kube-apiserver finds it
 * (proxy-location.ts); a GET or HEAD of `…/proxy` without a trailing slash is redirected to
 * `…/proxy/` (kube's fix for relative links); everything else is forwarded (forward.ts). The
 * body is not read here: it streams to the target as the client sends it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toApiError } from '../errors.js';
import type { HandlerContext } from '../handlers/types.js';
import { forward } from './forward.js';
import { type ProxyKind, proxyTarget } from './proxy-location.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const ROUTES: Array<{ kind: ProxyKind; url: string }> = [
  { kind: 'pods', url: '/api/v1/namespaces/:namespace/pods/:name/proxy' },
  { kind: 'services', url: '/api/v1/namespaces/:namespace/services/:name/proxy' },
  { kind: 'nodes', url: '/api/v1/nodes/:name/proxy' },
];

type ProxyRequest = FastifyRequest<{ Params: { namespace?: string; name: string } }>;

/** registerProxy serves the three proxy subresources. */
export function registerProxy(app: FastifyInstance, ctx: HandlerContext): void {
  void app.register(async (scope) => {
    // The body is the target's to read: no parser consumes it (nor limits its size).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const { kind, url } of ROUTES) {
      for (const path of [url, `${url}/*`]) {
        scope.route({ method: METHODS, url: path, exposeHeadRoute: false, handler: (request: ProxyRequest, reply) => serve(ctx, kind, request, reply) });
      }
    }
  });
}

async function serve(ctx: HandlerContext, kind: ProxyKind, request: ProxyRequest, reply: FastifyReply): Promise<void> {
  const target = proxyTarget(ctx, kind, request.params.namespace ?? '', request.params.name);
  const raw = request.raw.url ?? '/';
  const queryAt = raw.indexOf('?');
  const rawPath = queryAt < 0 ? raw : raw.slice(0, queryAt);
  const query = queryAt < 0 ? '' : raw.slice(queryAt);
  const proxyAt = proxyIndex(rawPath);
  const pathPrepend = decodePath(rawPath.slice(0, proxyAt));
  const rest = rawPath.slice(proxyAt) || pathOption(query);
  if (rest === '' && (request.method === 'GET' || request.method === 'HEAD')) {
    await reply
      .code(301)
      .header('Location', `${decodePath(rawPath)}/${query}`)
      .send();
    return;
  }
  reply.hijack();
  try {
    await forward(target, request.raw, reply.raw, { pathAndQuery: `${rest === '' ? '/' : rest}${query}`, pathPrepend });
  } catch (err) {
    const status = toApiError(err, 0).toStatus();
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(status.code, { 'Content-Type': 'application/json' });
      reply.raw.end(JSON.stringify(status));
    }
  }
}

/** proxyIndex is where the path after `/proxy` starts (the route guarantees the segment). */
function proxyIndex(rawPath: string): number {
  const match = /^\/api\/v1\/(?:namespaces\/[^/]+\/)?(?:pods|services|nodes)\/[^/]+\/proxy/.exec(rawPath);
  return match ? match[0].length : rawPath.length;
}

/** pathOption is the PodProxyOptions `path` parameter (`…/proxy?path=/x`), which stands for a
 * path after /proxy when there is none; '' when absent. */
function pathOption(query: string): string {
  const path = new URLSearchParams(query).get('path') ?? '';
  return path === '' ? '' : encodeURI(`/${path.replace(/^\/+/, '')}`);
}

/** decodePath is the path as Go's url.Path holds it (percent-decoded), kept raw when malformed. */
function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
