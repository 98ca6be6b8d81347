/**
 * actorOf: who is making a write and why, read from the request (docs/history.md). The API
 * server records it with the change; the history API serves it back.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { badRequest } from '../api/api-error.js';
import { decodeCause, type HistoryActor } from '../api/kubesim/history.js';
import { CAUSE_HEADER } from '../api/machinery/cause.js';
import { ANONYMOUS_USER } from '../authn/authenticator.js';
import type { UserInfo } from '../authz/user.js';
import { type Query, queryString } from '../request/query.js';

const BEARER = /^Bearer\s+(.+)$/i;

/**
 * actorOf builds the actor of a write: its User-Agent, `fieldManager` parameter, user and,
 * when a control loop sent one, the Cause in X-Kubesim-Cause. The user is the authenticated
 * one (`user`, when the request authenticated as someone other than system:anonymous); on a
 * server that authenticates nobody, the bearer token's text stands for a user name. Fields
 * the request lacks are left out. Throws a 400 naming the problem when the cause header is
 * present but not a Cause.
 */
export function actorOf(headers: IncomingHttpHeaders, query: Query, user?: UserInfo): HistoryActor {
  const actor: HistoryActor = {};
  const userAgent = headers['user-agent'];
  if (userAgent) actor.userAgent = userAgent;
  const fieldManager = queryString(query, 'fieldManager');
  if (fieldManager) actor.fieldManager = fieldManager;
  const authenticated = user && user.username !== ANONYMOUS_USER.username ? user.username : undefined;
  const name = authenticated ?? BEARER.exec(headers.authorization ?? '')?.[1]?.trim();
  if (name) actor.user = name;
  const cause = headers[CAUSE_HEADER.toLowerCase()];
  if (typeof cause === 'string' && cause !== '') {
    try {
      Object.assign(actor, decodeCause(cause));
    } catch (err) {
      throw badRequest(`invalid ${CAUSE_HEADER} header: ${(err as Error).message}`);
    }
  }
  return actor;
}
