/**
 * The gate of connection upgrades (the live view's WebSocket): they reach the HTTP server's
 * 'upgrade' event, not fastify's routes, so its onRequest hooks never see them. The gate runs
 * the same authentication, impersonation and authorization on the upgrade request, and answers
 * with the Status to refuse it with (401, 403), or undefined to let it through.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../api/api-error.js';
import { type AuthenticationOptions, authenticate } from '../authn/authenticator.js';
import { forbiddenError } from './forbidden.js';
import { impersonate } from './impersonation.js';
import type { ServerAuthorization } from './register.js';
import { requestAttributes } from './request-info.js';

export type UpgradeGate = (request: IncomingMessage) => Promise<ApiError | undefined>;

export function upgradeGate(authentication: AuthenticationOptions, authorization: ServerAuthorization): UpgradeGate {
  return async (raw) => {
    if (authorization.mode !== 'RBAC') return undefined;
    const url = raw.url ?? '/';
    // What the authenticators read of a request: its headers, its socket, its URL and query.
    const query = Object.fromEntries(new URL(url, 'http://localhost').searchParams);
    const request = { raw, headers: raw.headers, socket: raw.socket, url, query } as unknown as FastifyRequest;
    try {
      const user = impersonate(authorization.authorizer, await authenticate(request, authentication), raw.headers);
      const attributes = requestAttributes(user, 'GET', url, query);
      const decision = authorization.authorizer.authorize(attributes);
      return decision.decision === 'allow' ? undefined : forbiddenError(attributes, decision.reason);
    } catch (err) {
      if (err instanceof ApiError) return err;
      throw err;
    }
  };
}
