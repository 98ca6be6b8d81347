/**
 * Audit logging in the request path (kube-apiserver's --audit-policy-file and
 * --audit-log-*). Without a policy nothing is registered here (every response still carries an
 * Audit-Id: audit-id.ts). With one, a hook after authentication asks the policy for the
 * request's level, and logs it under that Audit-Id; a request logged at
 * all gets an AuditedRequest that writes RequestReceived now, ResponseStarted when a
 * long-running request (watch, log, proxy) starts answering, and ResponseComplete when the
 * response ends. Authorization (authz/register.ts), admission (through the handler context)
 * and the write handlers add what they know. Lines are queued and written off the request path.
 */
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthorizationDecision, AuthorizationMode } from '../authz/authorizer.js';
import { requestAttributes } from '../authz/request-info.js';
import type { UserInfo } from '../authz/user.js';
import type { Query } from '../request/query.js';
import { auditIdOf } from './audit-id.js';
import { AuditedRequest } from './audited-request.js';
import { type AuditEvent, eventJson, eventLegacy, type LogFormat, type ResponseStatus, responseStatusOf } from './event.js';
import { type AuditPolicy, CompiledPolicy } from './policy.js';
import { type UpgradeAudit, upgradeAudit } from './upgrade-audit.js';
import { type AuditLogOptions, AuditLogWriter } from './writer.js';

export interface AuditOptions {
  policy: AuditPolicy;
  /** Where events go: a file (rotated as its options say) or `-` for standard output. */
  log: AuditLogOptions;
  /** --audit-log-format: `json` (the default) or `legacy`. */
  format?: LogFormat;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's audit event, when the policy logs it. */
    audit?: AuditedRequest;
  }
}

/** kube-apiserver's long-running requests: watches, proxies and streaming subresources. */
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const NOBODY: UserInfo = { username: '', groups: [] };

export interface ServerAudit {
  writer: AuditLogWriter;
  /** The audit of connection upgrades, which the hooks here never see (upgrade-audit.ts). */
  upgrades: UpgradeAudit;
}

/** registerAudit adds the audit hooks; call it right after authentication's. */
export function registerAudit(app: FastifyInstance, options: AuditOptions, server: { now: () => number; mode: AuthorizationMode }): ServerAudit {
  const policy = new CompiledPolicy(options.policy);
  const writer = new AuditLogWriter(options.log);
  const format = options.format === 'legacy' ? eventLegacy : eventJson;
  const write = (event: AuditEvent) => writer.write(format(event));
  const alwaysAllow = server.mode !== 'RBAC';
  const begin = (request: AuditableRequest, auditID: string, user: UserInfo) => beginAudit(request, auditID, user, { policy, now: server.now, write });
  app.addHook('onRequest', (request, reply, done) => {
    const audited = begin(request, auditIdOf(request, reply), request.user);
    if (!audited) return done();
    const { attributes } = audited;
    request.audit = audited;
    audited.emit('RequestReceived');
    // AlwaysAllow allows everything, with no reason (after RequestReceived, as authorization comes after it).
    if (alwaysAllow) recordAuthorization(request, { decision: 'allow', reason: '' });
    if (
      attributes.verb === 'watch' ||
      attributes.verb === 'proxy' ||
      LONG_RUNNING_SUBRESOURCES.has((attributes as { subresource?: string }).subresource ?? '')
    ) {
      reportStart(request, reply, audited);
    }
    reply.raw.once('close', () => audited.complete(reply.raw.headersSent ? reply.raw.statusCode : undefined, request.user));
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const audited = request.audit;
    try {
      if (audited) audited.responded(...responseOf(reply, payload, audited.logsResponseBody));
      else if (reply.statusCode === 401 && !request.user) failedAuthentication(request, auditIdOf(request, reply), reply.statusCode, begin);
    } catch (err) {
      // The log must never cost the client its answer.
      request.log.error({ err }, 'audit: could not record the response');
    }
    done(null, payload);
  });
  app.addHook('onClose', async () => writer.close());
  return { writer, upgrades: upgradeAudit({ begin, failedAuthentication: (request, auditID, code) => failedAuthentication(request, auditID, code, begin) }) };
}

/** What auditing reads of a request: fastify's request, or the look-alike the upgrade gate builds. */
export type AuditableRequest = Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'query' | 'raw'>;

interface AuditSink {
  policy: CompiledPolicy;
  now: () => number;
  write: (event: AuditEvent) => void;
}

/** beginAudit is a request's audit record as `user` (no stage written yet: the caller writes
 * RequestReceived, or a 401's one ResponseStarted), or undefined when the policy logs it at
 * level None. */
function beginAudit(request: AuditableRequest, auditID: string, user: UserInfo, sink: AuditSink): AuditedRequest | undefined {
  const attributes = requestAttributes(user, request.method, request.url, request.query as Query);
  const config = sink.policy.evaluate(attributes);
  if (config.level === 'None') return undefined;
  return new AuditedRequest({
    auditID,
    config,
    attributes,
    url: request.url,
    sourceIPs: sourceIPs(request),
    userAgent: request.headers['user-agent'],
    received: sink.now(),
    now: sink.now,
    write: sink.write,
  });
}

/** recordAuthorization adds authorization's decision and reason to an audited request. */
export function recordAuthorization(request: FastifyRequest, decision: AuthorizationDecision): void {
  request.audit?.authorized(decision);
}

/** reportStart writes ResponseStarted when a long-running request sends its headers. */
function reportStart(request: FastifyRequest, reply: FastifyReply, audited: AuditedRequest): void {
  const raw = reply.raw;
  const writeHead = raw.writeHead;
  raw.writeHead = function (this: typeof raw, ...args: Parameters<typeof raw.writeHead>) {
    audited.started(args[0], request.user);
    return writeHead.apply(this, args);
  } as typeof raw.writeHead;
}

/** responseOf reads what the event needs from a response: its code, a Status reply's fields,
 * and (at RequestResponse) the JSON body. Other bodies (protobuf, text) are not logged. */
function responseOf(reply: FastifyReply, payload: unknown, wantsBody: boolean): [ResponseStatus, string | undefined] {
  const status: ResponseStatus = { metadata: {}, code: reply.statusCode };
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !type.startsWith('application/json')) return [status, undefined];
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) && (wantsBody || reply.statusCode >= 300) ? payload.toString() : undefined;
  if (text === undefined) return [status, undefined];
  return [responseStatusOf(reply.statusCode, text), wantsBody && looksLikeJson(text) ? text : undefined];
}

/** looksLikeJson: a cheap check that a body spliced into the line keeps it one JSON value
 * (the server's own JSON answers always pass; parsing them again would cost more). */
function looksLikeJson(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.trimEnd().slice(-1);
  return (first === 0x7b && last === '}') || (first === 0x5b && last === ']');
}

/** failedAuthentication logs a request refused with 401 as kube does: one ResponseStarted
 * event, with no user, saying which credentials were tried. */
function failedAuthentication(
  request: AuditableRequest,
  auditID: string,
  code: number,
  begin: (request: AuditableRequest, auditID: string, user: UserInfo) => AuditedRequest | undefined,
): void {
  const audited = begin(request, auditID, NOBODY);
  if (!audited) return;
  audited.event.responseStatus = { metadata: {}, message: authenticationMethods(request), code };
  audited.emit('ResponseStarted');
}

function authenticationMethods(request: AuditableRequest): string {
  const methods: string[] = [];
  const authorization = String(request.headers.authorization ?? '').trim();
  if (/^basic\s/i.test(authorization)) methods.push('basic');
  if (/^bearer\s+\S/i.test(authorization)) methods.push('bearer');
  if ((request.query as Record<string, unknown> | undefined)?.['access_token']) methods.push('access_token');
  const socket = request.raw.socket as { getPeerCertificate?: () => { raw?: Buffer } };
  if (socket.getPeerCertificate?.()?.raw) methods.push('x509');
  return methods.length ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

/** sourceIPs is kube's utilnet.SourceIPs: X-Forwarded-For, X-Real-Ip, then the peer's address. */
function sourceIPs(request: AuditableRequest): string[] {
  const ips: string[] = [];
  const add = (value: string | undefined) => {
    const ip = plainIp(value?.trim() ?? '');
    if (ip && !ips.includes(ip)) ips.push(ip);
  };
  const forwarded = request.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') for (const part of forwarded.split(',')) add(part);
  const real = request.headers['x-real-ip'];
  if (typeof real === 'string') add(real);
  add(request.raw.socket.remoteAddress);
  return ips;
}

/** plainIp: an address as Go prints it (an IPv4-mapped IPv6 address as IPv4), or '' when it is none. */
function plainIp(text: string): string {
  const ip = text.startsWith('::ffff:') && isIP(text.slice(7)) === 4 ? text.slice(7) : text;
  return isIP(ip) ? ip : '';
}
