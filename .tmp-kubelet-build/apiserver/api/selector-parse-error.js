/**
 * The one error type of the selector libraries (labels.ts, fields.ts).
 */
/** SelectorParseError is thrown for a label or field selector that cannot be parsed or is
 * invalid. Its message is worded exactly as k8s.io/apimachinery words the same failure, so the
 * API server can return it unchanged as the message of a 400 BadRequest Status. */
export class SelectorParseError extends Error {
    constructor(message) {
        super(message);
        this.name = 'SelectorParseError';
    }
}
/** isSelectorParseError reports whether `err` is a SelectorParseError. */
export function isSelectorParseError(err) {
    return err instanceof SelectorParseError;
}
//# sourceMappingURL=selector-parse-error.js.map