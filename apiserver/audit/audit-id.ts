/**
 * Every response carries an Audit-Id, as kube-apiserver's outermost filter (WithAuditInit)
 * gives one whether or not an audit policy logs the request: the client's own when it sent
 * one, else a new UUID. The audit log (register.ts) records the same ID.
 */
import { randomUUID } from 'node:crypto';
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
  const given = request.headers[AUDIT_ID_HEADER];
  const auditID = typeof given === 'string' && given !== '' ? given : randomUUID();
  reply.raw.setHeader('Audit-Id', auditID);
  return auditID;
}
