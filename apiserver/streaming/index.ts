/**
 * Connection upgrades on the API server's port (docs/streaming.md). Upgrades reach the HTTP
 * server's 'upgrade' event, not fastify's routes; this listener answers every one the live
 * view (/kubesim/ui/ws, its own listener) does not take:
 *
 *   pods/exec, pods/attach, pods/portforward → authenticated and authorized (upgrade gate),
 *       checked as kube-apiserver checks them (stream-location.ts), then proxied to the pod's
 *       kubelet (upgrade-proxy.ts), which speaks the WebSocket channel protocols;
 *   anything else → a 400 Status with details naming what is served, never a bare EOF.
 *
 * A plain (not upgrading) request to one of the three gets the pod checks, then kube-apiserver's
 * 400 `Upgrade request required`.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError, badRequest } from '../api/api-error.js';
import { upgradeAuditId } from '../audit/audit-id.js';
import type { HandlerContext } from '../handlers/types.js';
import { LIVE_SOCKET_PATH } from '../ui/index.js';
import { answerError } from './socket-answer.js';
import { type StreamRequest, streamLocation, streamRequestOf } from './stream-location.js';
import { proxyUpgrade } from './upgrade-proxy.js';

export interface StreamingDeps {
  ctx: HandlerContext;
  /** Authenticates and authorizes an upgrade: the Status to refuse it with, or undefined. */
  admitUpgrade: (request: IncomingMessage) => Promise<ApiError | undefined>;
}

/** registerStreaming takes over the upgrade requests the live view leaves. */
export function registerStreaming(app: FastifyInstance, deps: StreamingDeps): void {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/v1/namespaces/:namespace/pods/:name/:subresource(^(exec|attach|portforward)$)',
    handler: async (request) => {
      const stream = streamRequestOf(new URL(request.url, 'http://localhost').pathname);
      if (stream) streamLocation(deps.ctx, stream, request.raw);
      throw badRequest('Upgrade request required');
    },
  });
  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (pathname === LIVE_SOCKET_PATH) return;
    upgradeAuditId(request);
    socket.on('error', () => socket.destroy());
    const stream = streamRequestOf(pathname);
    if (!stream) return answerError(socket, unservedUpgrade(pathname, request.headers.upgrade ?? ''));
    serve(deps, stream, request, socket, head).catch((err: unknown) => {
      answerError(socket, err instanceof ApiError ? err : new ApiError('InternalError', 500, `Internal error occurred: ${(err as Error).message}`));
    });
  });
}

async function serve(deps: StreamingDeps, stream: StreamRequest, request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const refusal = await deps.admitUpgrade(request);
  if (refusal) return answerError(socket, refusal);
  proxyUpgrade(request, socket, head, streamLocation(deps.ctx, stream, request));
}

/** unservedUpgrade is the answer to an upgrade of a path that does not stream. */
function unservedUpgrade(pathname: string, upgrade: string): ApiError {
  const served = ['exec', 'attach', 'portforward'].map((sub) => `/api/v1/namespaces/{namespace}/pods/{name}/${sub}`);
  return new ApiError(
    'BadRequest',
    400,
    `the server does not upgrade connections at ${pathname} (Upgrade: ${upgrade}): only pods/exec, pods/attach and pods/portforward stream`,
    {
      causes: served.map((path) => ({ reason: 'UpgradeServed', message: path, field: 'Upgrade' })),
    },
  );
}
