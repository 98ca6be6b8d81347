/**
 * Audit of connection upgrades: pods/exec, pods/attach, pods/portforward and the live view's
 * WebSocket reach the HTTP server's 'upgrade' event, so register.ts's hooks never see them. The
 * upgrade gate (authz/upgrade-gate.ts) reports here once authentication has answered; the rest
 * is read off the connection, whoever answers on it (the kubelet's 101 passed on, a refusal's
 * Status, the live view's own 101). As kube-apiserver logs a long-running request:
 * RequestReceived, ResponseStarted when the response head is written (with the Status of a
 * refusal), ResponseComplete when the connection closes.
 */
import type { Duplex } from 'node:stream';
import type { AuthorizationDecision } from '../authz/authorizer.js';
import type { UserInfo } from '../authz/user.js';
import type { AuditedRequest } from './audited-request.js';
import { type ResponseStatus, responseStatusOf } from './event.js';
import type { AuditableRequest } from './register.js';

export interface UpgradeAudit {
  /** received: the upgrade authenticated as `user`; its record, or undefined when the policy logs none. */
  received(request: AuditableRequest, auditID: string, user: UserInfo): UpgradeRecord | undefined;
  /** failedAuthentication: the upgrade is refused with 401 before anyone is known. */
  failedAuthentication(request: AuditableRequest, auditID: string): void;
}

/** The audit record of one upgrade the policy logs. */
export interface UpgradeRecord {
  /** actingAs: the user the request runs as once impersonation is applied. */
  actingAs(user: UserInfo): void;
  authorized(decision: AuthorizationDecision): void;
}

interface UpgradeAuditDeps {
  begin(request: AuditableRequest, auditID: string, user: UserInfo): AuditedRequest | undefined;
  failedAuthentication(request: AuditableRequest, auditID: string, code: number): void;
}

export function upgradeAudit(deps: UpgradeAuditDeps): UpgradeAudit {
  return {
    received(request, auditID, user) {
      const audited = deps.begin(request, auditID, user);
      if (!audited) return undefined;
      audited.emit('RequestReceived');
      let actingAs = user;
      const socket = request.raw.socket;
      let code: number | undefined;
      onResponseHead(socket, (status) => {
        code = status.code;
        audited.responded(status, undefined);
        audited.started(status.code, actingAs);
      });
      socket.once('close', () => audited.complete(code, actingAs));
      return {
        actingAs: (acting) => {
          actingAs = acting;
        },
        authorized: (decision) => audited.authorized(decision),
      };
    },
    failedAuthentication: (request, auditID) => deps.failedAuthentication(request, auditID, 401),
  };
}

/**
 * onResponseHead calls `listener` with the status of the HTTP response first written on an
 * upgrade's socket (a 101, or a refusal whose JSON Status body comes in the same write).
 */
function onResponseHead(socket: Duplex, listener: (status: ResponseStatus) => void): void {
  const { write, end } = socket;
  const restore = () => {
    socket.write = write;
    socket.end = end;
  };
  const look = (chunk: unknown) => {
    restore();
    const status = statusOfResponse(chunk);
    if (status) listener(status);
  };
  socket.write = function (this: Duplex, chunk: unknown, ...rest: unknown[]) {
    look(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Duplex['write'];
  socket.end = function (this: Duplex, chunk?: unknown, ...rest: unknown[]) {
    if (chunk !== undefined && typeof chunk !== 'function') look(chunk);
    else restore();
    return (end as (...args: unknown[]) => Duplex).call(this, chunk, ...rest);
  } as Duplex['end'];
}

/** statusOfResponse reads an HTTP/1.1 response's code and, for a JSON Status body, its fields. */
function statusOfResponse(chunk: unknown): ResponseStatus | undefined {
  const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('latin1') : undefined;
  const match = text && /^HTTP\/1\.[01] (\d{3})/.exec(text);
  if (!match) return undefined;
  const code = Number(match[1]);
  const bodyAt = text.indexOf('\r\n\r\n');
  const body = bodyAt < 0 ? '' : text.slice(bodyAt + 4);
  return body.startsWith('{') ? responseStatusOf(code, Buffer.isBuffer(chunk) ? chunk.subarray(bodyAt + 4).toString() : body) : { metadata: {}, code };
}
