/**
 * Every response carries an Audit-Id, as kube-apiserver's outermost filter (WithAuditInit)
 * gives one whether or not an audit policy logs the request: the client's own when it sent
 * one, else a new UUID. The audit log (register.ts) records the same ID.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const AUDIT_ID_HEADER = 'audit-id';

/** registerAuditId adds the hook; call it before any other onRequest hook. */
export function registerAuditId(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    auditIdOf(request, reply);
    done();
  });
}

/** auditIdOf is the request's Audit-Id, assigned (on the raw response, so watches and log
 * streams, which write their own head, carry it too) the first time it is asked for. */
export function auditIdOf(request: FastifyRequest, reply: FastifyReply): string {
  const assigned = reply.raw.getHeader(AUDIT_ID_HEADER);
  if (typeof assigned === 'string') return assigned;
  const auditID = givenOrNewId(request.headers[AUDIT_ID_HEADER]);
  reply.raw.setHeader('Audit-Id', auditID);
  return auditID;
}

/** The Audit-Ids of upgrade requests, by connection: an upgrade owns its socket, and the
 * answers written on it (socket-answer.ts) carry the ID. */
const upgradeIds = new WeakMap<object, string>();

/** upgradeAuditId is an upgrade request's Audit-Id (fastify's hooks never see one), assigned
 * the first time it is asked for. */
export function upgradeAuditId(request: IncomingMessage): string {
  const assigned = upgradeIds.get(request.socket);
  if (assigned) return assigned;
  const auditID = givenOrNewId(request.headers[AUDIT_ID_HEADER]);
  upgradeIds.set(request.socket, auditID);
  return auditID;
}

/** socketAuditId is the Audit-Id assigned to the upgrade on `socket`, if any. */
export function socketAuditId(socket: object): string | undefined {
  return upgradeIds.get(socket);
}

/** givenOrNewId: the client's own Audit-Id when it sent one, else a new UUID. */
function givenOrNewId(given: string | string[] | undefined): string {
  return typeof given === 'string' && given !== '' ? given : randomUUID();
}
