/**
 * AuditedRequest is one request the policy logs: the event kube-apiserver builds for it, filled
 * in as the request goes (received, authorized, admitted, answered) and written at each stage
 * the policy does not omit.
 */

import type { RequestAttributes } from '../authz/attributes.js';
import type { AuthorizationDecision } from '../authz/authorizer.js';
import type { UserInfo } from '../authz/user.js';
import type { AuditEvent, ObjectReference, ResponseStatus } from './event.js';
import { levelAtLeast, type RequestAuditConfig, type Stage } from './policy.js';
import type { AuditRecorder } from './recorder.js';

export interface AuditedRequestInit {
  auditID: string;
  config: RequestAuditConfig;
  attributes: RequestAttributes;
  url: string;
  sourceIPs: string[];
  userAgent: string | undefined;
  received: number;
  now: () => number;
  write: (event: AuditEvent) => void;
}

const MAX_USER_AGENT = 1024;

export class AuditedRequest implements AuditRecorder {
  readonly annotations: Record<string, string> = {};
  readonly event: AuditEvent;
  /** What the policy was asked about: the authenticated user's request. */
  readonly attributes: RequestAttributes;
  private readonly config: RequestAuditConfig;
  private readonly now: () => number;
  private readonly write: (event: AuditEvent) => void;
  private completed = false;

  constructor(init: AuditedRequestInit) {
    const { attributes } = init;
    this.attributes = attributes;
    this.config = init.config;
    this.now = init.now;
    this.write = init.write;
    const userAgent = init.userAgent && init.userAgent.length > MAX_USER_AGENT ? `${init.userAgent.slice(0, MAX_USER_AGENT)}...TRUNCATED` : init.userAgent;
    this.event = {
      level: init.config.level,
      auditID: init.auditID,
      stage: 'RequestReceived',
      requestURI: init.url,
      verb: attributes.verb,
      user: attributes.user,
      sourceIPs: init.sourceIPs,
      userAgent,
      objectRef: objectRefOf(attributes, init.url),
      requestReceivedTimestamp: init.received,
      stageTimestamp: init.received,
      annotations: this.annotations,
    };
  }

  get logsRequestBody(): boolean {
    return levelAtLeast(this.config.level, 'Request');
  }

  get logsResponseBody(): boolean {
    return levelAtLeast(this.config.level, 'RequestResponse');
  }

  get omitManagedFields(): boolean {
    return this.config.omitManagedFields;
  }

  /** annotate adds an annotation unless it is already set (kube keeps the first value). */
  annotate(key: string, value: string): void {
    if (!(key in this.annotations)) this.annotations[key] = value;
  }

  /** authorized adds authorization's decision and reason. */
  authorized(decision: AuthorizationDecision): void {
    this.annotate('authorization.k8s.io/decision', decision.decision === 'allow' ? 'allow' : 'forbid');
    this.annotate('authorization.k8s.io/reason', decision.reason);
  }

  requestObject(object: unknown): void {
    const meta = (object as { metadata?: { name?: unknown; namespace?: unknown } } | null)?.metadata;
    const ref = this.event.objectRef;
    if (ref && meta) {
      if (!ref.namespace && typeof meta.namespace === 'string' && meta.namespace) ref.namespace = meta.namespace;
      if (!ref.name && typeof meta.name === 'string' && meta.name) ref.name = meta.name;
    }
    if (this.logsRequestBody) this.event.requestObject = JSON.stringify(this.omitManagedFields ? withoutManagedFields(object) : object);
  }

  responded(status: ResponseStatus, body: string | undefined): void {
    this.event.responseStatus = status;
    if (body === undefined || !this.logsResponseBody) return;
    try {
      this.event.responseObject = this.omitManagedFields ? JSON.stringify(withoutManagedFields(JSON.parse(body))) : body;
    } catch {
      // Not JSON after all: the body is left out.
    }
  }

  /** emit writes the event at `stage` unless the policy omits that stage. `user` is who the
   * request runs as by now: another user than the authenticated one is the impersonated user. */
  emit(stage: Stage, user?: UserInfo): void {
    if (this.config.omitStages.has(stage)) return;
    const event = this.event;
    event.stage = stage;
    event.stageTimestamp = stage === 'RequestReceived' ? event.requestReceivedTimestamp : this.now();
    if (user && user !== event.user) event.impersonatedUser = user;
    this.write(event);
  }

  /** started is ResponseStarted of a long-running request (a watch, a log stream). */
  started(code: number, user: UserInfo): void {
    this.event.responseStatus ??= { metadata: {}, code };
    this.emit('ResponseStarted', user);
  }

  /** complete is ResponseComplete, once; a client gone before any answer is kube's "Connection closed early". */
  complete(code: number | undefined, user: UserInfo): void {
    if (this.completed) return;
    this.completed = true;
    this.event.responseStatus ??=
      code === undefined ? { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 } : { metadata: {}, code };
    this.emit('ResponseComplete', user);
  }
}

/** objectRefOf names what a resource request addresses (no objectRef for a non-resource one). */
function objectRefOf(attributes: RequestAttributes, url: string): ObjectReference | undefined {
  if (!('resource' in attributes)) return undefined;
  return {
    resource: attributes.resource || undefined,
    namespace: attributes.namespace || undefined,
    name: attributes.name || undefined,
    apiGroup: attributes.apiGroup || undefined,
    apiVersion: apiVersionOf(url),
    subresource: attributes.subresource || undefined,
  };
}

/** apiVersionOf reads the version from /api/{v}/… or /apis/{group}/{v}/…. */
function apiVersionOf(url: string): string | undefined {
  const parts = url.split('?', 1)[0]!.split('/');
  if (parts[1] === 'api') return parts[2] || undefined;
  if (parts[1] === 'apis') return parts[3] || undefined;
  return undefined;
}

/** withoutManagedFields copies an object, a list's items or a table's row objects without
 * metadata.managedFields (the policy's omitManagedFields). */
function withoutManagedFields(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const object = value as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...object };
  const meta = object['metadata'];
  if (meta && typeof meta === 'object' && 'managedFields' in meta) {
    const { managedFields: _dropped, ...rest } = meta as Record<string, unknown>;
    copy['metadata'] = rest;
  }
  if (Array.isArray(object['items'])) copy['items'] = object['items'].map(withoutManagedFields);
  if (Array.isArray(object['rows']))
    copy['rows'] = object['rows'].map((row: Record<string, unknown>) => ({ ...row, object: withoutManagedFields(row['object']) }));
  return copy;
}
