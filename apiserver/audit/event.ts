/**
 * One audit event (audit.k8s.io/v1 Event) and its two log formats: `json`, one Event per
 * line with its fields in kube's order, and `legacy`, kube's one-line text summary. Logged
 * request and response bodies are kept as JSON text and spliced in, never parsed again.
 */
import type { UserInfo } from '../authz/user.js';
import type { Level, Stage } from './policy.js';

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  apiGroup?: string;
  apiVersion?: string;
  subresource?: string;
}

/** The response's metav1.Status as the event carries it (code always; the rest for a Status reply). */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: UserInfo;
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  /** JSON text of the request body (Request and RequestResponse levels). */
  requestObject?: string;
  /** JSON text of the response body (RequestResponse level). */
  responseObject?: string;
  /** Milliseconds since the epoch. */
  requestReceivedTimestamp: number;
  stageTimestamp: number;
  annotations?: Record<string, string>;
}

/** responseStatusOf is the event's responseStatus for a JSON answer: a Status reply's fields,
 * or the code alone. */
export function responseStatusOf(code: number, text: string): ResponseStatus {
  const status: ResponseStatus = { metadata: {}, code };
  if (!text.startsWith('{"kind":"Status"')) return status;
  try {
    const parsed = JSON.parse(text) as Partial<ResponseStatus>;
    return {
      ...status,
      status: parsed.status,
      message: parsed.message,
      reason: parsed.reason || undefined,
      details: parsed.details,
      code: parsed.code ?? code,
    };
  } catch {
    // Not JSON after all: the code alone is logged.
    return status;
  }
}

export type LogFormat = 'json' | 'legacy';

/** microTime is metav1.MicroTime's text: RFC 3339 with six fractional digits, in UTC. */
export function microTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
}

/** userJson is authentication/v1 UserInfo with its empty fields left out, as Go's omitempty does. */
function userJson(user: UserInfo): Record<string, unknown> {
  return {
    username: user.username,
    ...(user.uid ? { uid: user.uid } : {}),
    ...(user.groups.length ? { groups: user.groups } : {}),
    ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}),
  };
}

/** sortedAnnotations: a Go map is written with its keys sorted. */
function sortedAnnotations(annotations: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(annotations).sort()) sorted[key] = annotations[key]!;
  return sorted;
}

/** eventJson is one line of the `json` format. */
export function eventJson(event: AuditEvent): string {
  const head = JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: event.level,
    auditID: event.auditID,
    stage: event.stage,
    requestURI: event.requestURI,
    verb: event.verb,
    user: userJson(event.user),
    impersonatedUser: event.impersonatedUser && userJson(event.impersonatedUser),
    sourceIPs: event.sourceIPs,
    userAgent: event.userAgent || undefined,
    objectRef: event.objectRef,
    responseStatus: event.responseStatus,
  });
  let line = head.slice(0, -1);
  if (event.requestObject !== undefined) line += `,"requestObject":${event.requestObject}`;
  if (event.responseObject !== undefined) line += `,"responseObject":${event.responseObject}`;
  line += `,"requestReceivedTimestamp":"${microTime(event.requestReceivedTimestamp)}","stageTimestamp":"${microTime(event.stageTimestamp)}"`;
  if (event.annotations && Object.keys(event.annotations).length) line += `,"annotations":${JSON.stringify(sortedAnnotations(event.annotations))}`;
  return `${line}}\n`;
}

const quoted = (text: string) => JSON.stringify(text);
const quotedList = (list: readonly string[]) => list.map(quoted).join(',');

/** eventLegacy is one line of the `legacy` format (kube's audit.EventString). */
export function eventLegacy(event: AuditEvent): string {
  const username = event.user.username || '<none>';
  const groups = event.user.username && event.user.groups.length ? quotedList(event.user.groups) : '<none>';
  const as = event.impersonatedUser?.username ?? '<self>';
  const asGroups = event.impersonatedUser ? quotedList(event.impersonatedUser.groups) : '<lookup>';
  const fields = [
    `id=${quoted(event.auditID)}`,
    `stage=${quoted(event.stage)}`,
    `ip=${quoted(event.sourceIPs[0] ?? '<unknown>')}`,
    `method=${quoted(event.verb)}`,
    `user=${quoted(username)}`,
    `groups=${quoted(groups)}`,
    `as=${quoted(as)}`,
    `asgroups=${quoted(asGroups)}`,
    `user-agent=${quoted(event.userAgent ?? '')}`,
    `namespace=${quoted(event.objectRef?.namespace || '<none>')}`,
    `uri=${quoted(event.requestURI)}`,
    `response="${event.responseStatus ? event.responseStatus.code : '<deferred>'}"`,
  ];
  // RFC 3339 with nanoseconds, trailing zeros dropped (Go's RFC3339Nano).
  const received = new Date(event.requestReceivedTimestamp).toISOString().replace(/\.?0+Z$/, 'Z');
  return `${received} AUDIT: ${fields.join(' ')}\n`;
}
