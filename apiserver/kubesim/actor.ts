/**
 * actorOf: who is making a write and why, read from the request (docs/history.md). The API
 * server records it with the change; the history API serves it back.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { badRequest } from '../api/api-error.js';
import { decodeCause, type HistoryActor } from '../api/kubesim/history.js';
import { CAUSE_HEADER } from '../api/machinery/cause.js';
import { type Query, queryString } from '../request/query.js';

const BEARER = /^Bearer\s+(.+)$/i;

/**
 * actorOf builds the actor of a write: its User-Agent, `fieldManager` parameter, user (the
 * authenticated one; without authentication, the bearer token stands for a user name) and, when a control loop
 * sent one, the Cause in X-Kubesim-Cause. Fields the request lacks are left out. Throws a
 * 400 naming the problem when the cause header is present but not a Cause.
 */
export function actorOf(headers: IncomingHttpHeaders, query: Query, authenticatedUser?: string): HistoryActor {
  const actor: HistoryActor = {};
  const userAgent = headers['user-agent'];
  if (userAgent) actor.userAgent = userAgent;
  const fieldManager = queryString(query, 'fieldManager');
  if (fieldManager) actor.fieldManager = fieldManager;
  // Who authentication found (a client certificate, a token) when anyone; else the bearer token.
  const authenticated = authenticatedUser && authenticatedUser !== 'system:anonymous' ? authenticatedUser : undefined;
  const user = authenticated ?? BEARER.exec(headers.authorization ?? '')?.[1]?.trim();
  if (user) actor.user = user;
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
