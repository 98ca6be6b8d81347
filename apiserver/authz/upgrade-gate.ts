/**
 * The gate of connection upgrades (the live view's WebSocket, pods/exec, pods/attach,
 * pods/portforward): they reach the HTTP server's
 * 'upgrade' event, not fastify's routes, so its onRequest hooks never see them. The gate runs
 * the same authentication, impersonation and authorization on the upgrade request, and answers
 * with the Status to refuse it with (401, 403), or undefined to let it through.
 *
 * A WebSocket upgrade is a GET, which RBAC reads as `get`; for the streaming subresources of
 * pods the gate also requires `create` (the verb of the POST an SPDY client sends), as
 * kube-apiserver does with AuthorizePodWebsocketUpgradeCreatePermission (KEP-4006, beta and on
 * by default in 1.35; 1.33 asked for `get` only): `get pods/exec` alone must not run commands.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../api/api-error.js';
import { upgradeAuditId } from '../audit/audit-id.js';
import type { UpgradeAudit, UpgradeRecord } from '../audit/upgrade-audit.js';
import { type AuthenticationOptions, authenticate } from '../authn/authenticator.js';
import { isResourceRequest, type RequestAttributes } from './attributes.js';
import { forbiddenError } from './forbidden.js';
import { impersonate } from './impersonation.js';
import type { ServerAuthorization } from './register.js';
import { requestAttributes } from './request-info.js';
import type { UserInfo } from './user.js';

export type UpgradeGate = (request: IncomingMessage) => Promise<ApiError | undefined>;

/** upgradeGate authenticates every upgrade (a wrong credential is a 401 in any mode) and, in
 * RBAC mode, authorizes it; `audit`, when the server logs requests, hears of each stage. */
export function upgradeGate(authentication: AuthenticationOptions, authorization: ServerAuthorization, audit?: UpgradeAudit): UpgradeGate {
  return async (raw) => {
    const url = raw.url ?? '/';
    // What the authenticators read of a request: its headers, its socket, its URL and query.
    const query = Object.fromEntries(new URL(url, 'http://localhost').searchParams);
    const request = { raw, method: raw.method ?? 'GET', headers: raw.headers, socket: raw.socket, url, query } as unknown as FastifyRequest;
    const auditID = upgradeAuditId(raw);
    let authenticated: UserInfo;
    try {
      authenticated = await authenticate(request, authentication);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      audit?.failedAuthentication(request, auditID);
      return err;
    }
    const record = audit?.received(request, auditID, authenticated);
    try {
      const user = impersonate(authorization.authorizer, authenticated, raw.headers);
      record?.actingAs(user);
      return authorize(authorization, requestAttributes(user, request.method, url, query), record);
    } catch (err) {
      if (err instanceof ApiError) return err;
      throw err;
    }
  };
}

/** authorize asks the authorizer (in RBAC mode) for the upgrade and what it implies. */
function authorize(authorization: ServerAuthorization, attributes: RequestAttributes, record: UpgradeRecord | undefined): ApiError | undefined {
  if (authorization.mode !== 'RBAC') {
    record?.authorized({ decision: 'allow', reason: '' });
    return undefined;
  }
  for (const asked of [attributes, ...alsoCreate(attributes)]) {
    const decision = authorization.authorizer.authorize(asked);
    record?.authorized(decision);
    if (decision.decision !== 'allow') return forbiddenError(asked, decision.reason);
  }
  return undefined;
}

/** The pod subresources that run something in a container. */
const STREAMING_SUBRESOURCES = new Set(['exec', 'attach', 'portforward']);

/** alsoCreate is the extra `create` check of a WebSocket (GET) upgrade of a streaming subresource. */
function alsoCreate(attributes: RequestAttributes): RequestAttributes[] {
  if (!isResourceRequest(attributes) || attributes.verb !== 'get' || attributes.resource !== 'pods' || attributes.apiGroup !== '') return [];
  return STREAMING_SUBRESOURCES.has(attributes.subresource ?? '') ? [{ ...attributes, verb: 'create' }] : [];
}
