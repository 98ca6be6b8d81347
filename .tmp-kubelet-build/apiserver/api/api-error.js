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
];
export class ApiError extends Error {
    reason;
    code;
    details;
    constructor(reason, code, message, details) {
        super(message);
        this.reason = reason;
        this.code = code;
        this.details = details;
        this.name = 'ApiError';
    }
    /** toStatus renders the error as the Status body Kubernetes returns. */
    toStatus() {
        const status = {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: {},
            status: 'Failure',
            message: this.message,
            reason: this.reason,
            code: this.code,
        };
        if (this.details)
            status.details = this.details;
        return status;
    }
    /** fromStatus rebuilds an ApiError from a Status body received over HTTP. */
    static fromStatus(status, httpCode) {
        const reason = StatusReasons.includes(status.reason ?? '') ? status.reason : 'InternalError';
        return new ApiError(reason, status.code ?? httpCode, status.message ?? `HTTP ${httpCode}`, status.details);
    }
}
const hasReason = (reason) => (err) => err instanceof ApiError && err.reason === reason;
export const isNotFound = hasReason('NotFound');
export const isAlreadyExists = hasReason('AlreadyExists');
export const isConflict = hasReason('Conflict');
export const isInvalid = hasReason('Invalid');
export const isExpired = (err) => err instanceof ApiError && (err.reason === 'Expired' || err.code === 410);
/** ignoreNotFound rethrows anything but NotFound. */
export function ignoreNotFound(err) {
    if (!isNotFound(err))
        throw err;
}
const qualified = (r) => (r.group ? `${r.resource}.${r.group}` : r.resource);
export function notFound(r) {
    return new ApiError('NotFound', 404, `${qualified(r)} "${r.name}" not found`, { name: r.name, group: r.group, kind: r.resource });
}
export function alreadyExists(r) {
    return new ApiError('AlreadyExists', 409, `${qualified(r)} "${r.name}" already exists`, { name: r.name, group: r.group, kind: r.resource });
}
export function conflict(r, why = 'the object has been modified; please apply your changes to the latest version and try again') {
    return new ApiError('Conflict', 409, `Operation cannot be fulfilled on ${qualified(r)} "${r.name}": ${why}`, {
        name: r.name,
        group: r.group,
        kind: r.resource,
    });
}
/** invalid is the 422 for validation failures, one cause per FieldError, worded as
 * `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`. */
export function invalid(r, errors) {
    const causes = errors.map((e) => ({ reason: e.type, message: describeFieldError(e), field: e.field }));
    const groupKind = r.group ? `${r.kind}.${r.group}` : r.kind;
    const summary = causes.map((c) => `${c.field}: ${c.message}`);
    const joined = summary.length === 1 ? summary[0] : `[${summary.join(', ')}]`;
    return new ApiError('Invalid', 422, `${groupKind} "${r.name}" is invalid: ${joined}`, {
        name: r.name,
        group: r.group,
        kind: r.kind,
        causes,
    });
}
/** describeFieldError words one FieldError as Kubernetes' field.Error.ErrorBody(). */
export function describeFieldError(e) {
    const label = FIELD_ERROR_LABELS[e.type];
    const detail = e.detail ? `: ${e.detail}` : '';
    if (e.type === 'FieldValueRequired' || e.type === 'FieldValueForbidden' || e.type === 'FieldValueTooLong') {
        return `${label}${detail}`;
    }
    return `${label}: ${formatValue(e.value)}${detail}`;
}
const FIELD_ERROR_LABELS = {
    FieldValueRequired: 'Required value',
    FieldValueInvalid: 'Invalid value',
    FieldValueNotSupported: 'Unsupported value',
    FieldValueDuplicate: 'Duplicate value',
    FieldValueForbidden: 'Forbidden',
    FieldValueTooLong: 'Too long',
    FieldValueTypeInvalid: 'Invalid value',
};
/** formatValue quotes a value as Go's %#v does in Kubernetes' messages for the shapes that
 * show up there: strings, string maps (label selectors), string lists; JSON otherwise. */
function formatValue(value) {
    if (typeof value === 'string')
        return JSON.stringify(value);
    if (value === undefined || value === null)
        return 'null';
    if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
        return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
    if (typeof value === 'object' && Object.values(value).every((v) => typeof v === 'string')) {
        const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `map[string]string{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(', ')}}`;
    }
    if (typeof value === 'object')
        return JSON.stringify(value);
    return String(value);
}
export function badRequest(message, causes) {
    return new ApiError('BadRequest', 400, message, causes ? { causes } : undefined);
}
export function methodNotAllowed(method) {
    return new ApiError('MethodNotAllowed', 405, `the server does not allow this method on the requested resource (${method})`);
}
export function pathNotFound() {
    return new ApiError('NotFound', 404, 'the server could not find the requested resource');
}
export function expired(message) {
    return new ApiError('Expired', 410, message);
}
export function forbidden(message, details) {
    return new ApiError('Forbidden', 403, message, details);
}
export function internalError(message) {
    return new ApiError('InternalError', 500, `Internal error occurred: ${message}`);
}
//# sourceMappingURL=api-error.js.map