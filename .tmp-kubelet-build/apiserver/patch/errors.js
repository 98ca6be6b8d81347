/**
 * PatchError is the one error the patch engines throw. Messages keep the wording of the
 * Go libraries kube-apiserver uses (evanphx/json-patch, apimachinery strategicpatch and
 * mergepatch), so clients and people see the texts they already know, e.g.
 * `map: map[image:nginx] does not contain declared merge key: name`.
 */
/** PatchErrorReasons is the closed set of reasons, spelled as Kubernetes `Status.reason`. */
export const PatchErrorReasons = {
    /** The patch document itself is malformed (HTTP 400), whatever object it is applied to. */
    BadRequest: 'BadRequest',
    /** The patch is well formed but cannot be applied to this object (HTTP 422). */
    Invalid: 'Invalid',
};
/**
 * PatchError reports a patch that could not be decoded or applied. `reason` and
 * `httpCode` tell the API layer which Status to answer with; `message` is safe to show
 * to the client verbatim.
 *
 * NOTE: kube-apiserver answers some strategic-merge failures (missing merge key, unknown
 * `$patch` value) with a bare 500; we classify them as client errors (400/422) instead.
 */
export class PatchError extends Error {
    reason;
    constructor(reason, message) {
        super(message);
        this.reason = reason;
        this.name = 'PatchError';
    }
    /** httpCode is the status code matching `reason`: 400 for BadRequest, 422 for Invalid. */
    get httpCode() {
        switch (this.reason) {
            case 'BadRequest':
                return 400;
            case 'Invalid':
                return 422;
            default: {
                const unreachable = this.reason;
                return unreachable;
            }
        }
    }
}
/** isPatchError reports whether `err` is a PatchError. */
export function isPatchError(err) {
    return err instanceof PatchError;
}
/** badRequest creates a PatchError with reason BadRequest. */
export function badRequest(message) {
    return new PatchError('BadRequest', message);
}
/** invalid creates a PatchError with reason Invalid. */
export function invalid(message) {
    return new PatchError('Invalid', message);
}
/**
 * formatGoValue renders a decoded JSON value the way Go's `%v` prints an
 * `interface{}` (maps as `map[k:v]` with sorted keys, lists as `[a b]`, null as
 * `<nil>`), so error texts match kube-apiserver's. Never throws.
 */
export function formatGoValue(value) {
    if (value === null || value === undefined)
        return '<nil>';
    if (Array.isArray(value))
        return `[${value.map(formatGoValue).join(' ')}]`;
    if (typeof value === 'object') {
        const entries = Object.keys(value)
            .sort()
            .map((key) => `${key}:${formatGoValue(value[key])}`);
        return `map[${entries.join(' ')}]`;
    }
    return String(value);
}
//# sourceMappingURL=errors.js.map