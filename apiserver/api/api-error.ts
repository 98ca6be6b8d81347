/**
 * ApiError is the one error type on both sides of HTTP: the server turns it into a
 * Kubernetes `Status` body, clients rebuild it from one. Reasons and codes are
 * Kubernetes' own (metav1.StatusReason), so `kubectl` prints
 * `Error from server (<Reason>): <message>` exactly as for a real cluster.
 */
import { type FieldError, GoLiteral } from './resource-definition.js';

export const StatusReasons = [
  'BadRequest',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Expired',
  'Invalid',
  'MethodNotAllowed',
  'NotAcceptable',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'TooManyRequests',
  'InternalError',
  'Timeout',
  'ServiceUnavailable',
] as const;
export type StatusReason = (typeof StatusReasons)[number];

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** Status is metav1.Status as it travels on the wire. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason | string;
  details?: StatusDetails;
  code: number;
}

export class ApiError extends Error {
  constructor(
    readonly reason: StatusReason,
    readonly code: number,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** toStatus renders the error as the Status body Kubernetes returns. */
  toStatus(): Status {
    const status: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    if (this.details) status.details = this.details;
    return status;
  }

  /** fromStatus rebuilds an ApiError from a Status body received over HTTP. */
  static fromStatus(status: Partial<Status>, httpCode: number): ApiError {
    const reason = (StatusReasons as readonly string[]).includes(status.reason ?? '') ? (status.reason as StatusReason) : 'InternalError';
    return new ApiError(reason, status.code ?? httpCode, status.message ?? `HTTP ${httpCode}`, status.details);
  }
}

const hasReason =
  (reason: StatusReason) =>
  (err: unknown): err is ApiError =>
    err instanceof ApiError && err.reason === reason;
export const isNotFound = hasReason('NotFound');
export const isAlreadyExists = hasReason('AlreadyExists');
export const isConflict = hasReason('Conflict');
export const isInvalid = hasReason('Invalid');
export const isExpired = (err: unknown): err is ApiError => err instanceof ApiError && (err.reason === 'Expired' || err.code === 410);

/** ignoreNotFound rethrows anything but NotFound. */
export function ignoreNotFound(err: unknown): void {
  if (!isNotFound(err)) throw err;
}

/** ResourceName identifies the object an error is about, for Kubernetes-worded messages. */
export interface ResourceName {
  group: string;
  /** The plural resource name (`deployments`). */
  resource: string;
  kind: string;
  name: string;
}

const qualified = (r: Pick<ResourceName, 'group' | 'resource'>) => (r.group ? `${r.resource}.${r.group}` : r.resource);

export function notFound(r: Omit<ResourceName, 'kind'>): ApiError {
  return new ApiError('NotFound', 404, `${qualified(r)} "${r.name}" not found`, { name: r.name, group: r.group, kind: r.resource });
}

export function alreadyExists(r: Omit<ResourceName, 'kind'>): ApiError {
  return new ApiError('AlreadyExists', 409, `${qualified(r)} "${r.name}" already exists`, { name: r.name, group: r.group, kind: r.resource });
}

export function conflict(
  r: Omit<ResourceName, 'kind'>,
  why = 'the object has been modified; please apply your changes to the latest version and try again',
): ApiError {
  return new ApiError('Conflict', 409, `Operation cannot be fulfilled on ${qualified(r)} "${r.name}": ${why}`, {
    name: r.name,
    group: r.group,
    kind: r.resource,
  });
}

/** invalid is the 422 for validation failures, one cause per FieldError, worded as
 * `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`. */
export function invalid(r: ResourceName, errors: FieldError[]): ApiError {
  // Field paths hold map keys, which can be as large as the values: they are cut the same way.
  const causes = errors.map((e) => ({ reason: e.type, message: describeFieldError(e), field: truncateEcho(e.field) }));
  const groupKind = r.group ? `${r.kind}.${r.group}` : r.kind;
  const summary = causes.slice(0, MAX_LISTED_ERRORS).map((c) => `${c.field}: ${c.message}`);
  if (causes.length > MAX_LISTED_ERRORS) summary.push(`and ${causes.length - MAX_LISTED_ERRORS} more errors`);
  const joined = summary.length === 1 ? summary[0] : `[${summary.join(', ')}]`;
  return new ApiError('Invalid', 422, `${groupKind} "${r.name}" is invalid: ${joined}`, {
    name: r.name,
    group: r.group,
    kind: r.kind,
    causes,
  });
}

/** describeFieldError words one FieldError as Kubernetes' field.Error.ErrorBody(). */
export function describeFieldError(e: FieldError): string {
  const label = FIELD_ERROR_LABELS[e.type];
  const detail = e.detail ? `: ${e.detail}` : '';
  // No `value` key at all is Kubernetes' field.OmitValue (CEL rule failures on objects):
  // the label and detail alone, where an undefined value still prints as null.
  if (e.type === 'FieldValueRequired' || e.type === 'FieldValueForbidden' || e.type === 'FieldValueTooLong' || !('value' in e)) {
    return `${label}${detail}`;
  }
  return `${label}: ${formatValue(e.value)}${detail}`;
}

const FIELD_ERROR_LABELS: Record<FieldError['type'], string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  FieldValueNotFound: 'Not found',
};

/** MAX_ECHOED_VALUE bounds how much of a bad value an error message repeats back: a
 * megabyte-sized invalid field must not come back as a megabyte (or, once per error, many). */
export const MAX_ECHOED_VALUE = 1024;

/** MAX_LISTED_ERRORS bounds the errors spelled out in an Invalid message (all stay as causes). */
export const MAX_LISTED_ERRORS = 100;

/** formatValue quotes a value as Go's %#v does in Kubernetes' messages, cut to MAX_ECHOED_VALUE. */
function formatValue(value: unknown): string {
  return truncateEcho(formatWholeValue(value));
}

/** truncateEcho cuts text a client sent to MAX_ECHOED_VALUE characters, saying how much is left out. */
function truncateEcho(text: string): string {
  if (text.length <= MAX_ECHOED_VALUE) return text;
  return `${text.slice(0, MAX_ECHOED_VALUE)}...(${text.length - MAX_ECHOED_VALUE} more characters)`;
}

/** formatWholeValue quotes a value for the shapes that show up in Kubernetes' messages:
 * strings, string maps (label selectors), string lists; JSON otherwise. */
function formatWholeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof GoLiteral) return value.text;
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
  if (typeof value === 'object' && Object.values(value).every((v) => typeof v === 'string')) {
    const entries = Object.entries(value as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[string]string{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(', ')}}`;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function badRequest(message: string, causes?: StatusCause[]): ApiError {
  return new ApiError('BadRequest', 400, message, causes ? { causes } : undefined);
}

export function methodNotAllowed(method: string): ApiError {
  return new ApiError('MethodNotAllowed', 405, `the server does not allow this method on the requested resource (${method})`);
}

/** pathNotFound is the 404 for a path nothing serves. Its details are present but empty, as
 * kube-apiserver's are: `kubectl debug` tells an unserved subresource (no details.name) from a
 * missing pod by reading details.name, and kubectl 1.31–1.33 crash when details is absent. */
export function pathNotFound(): ApiError {
  return new ApiError('NotFound', 404, 'the server could not find the requested resource', {});
}

export function expired(message: string): ApiError {
  return new ApiError('Expired', 410, message);
}

export function forbidden(message: string, details?: StatusDetails): ApiError {
  return new ApiError('Forbidden', 403, message, details);
}

export function internalError(message: string): ApiError {
  return new ApiError('InternalError', 500, `Internal error occurred: ${message}`);
}
