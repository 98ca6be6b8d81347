/**
 * Query-string helpers. Kubernetes clients disagree on spelling (kubectl sends `watch=true`,
 * the Python client `watch=True`), so booleans are parsed as Go's strconv.ParseBool does,
 * and unknown parameters are ignored rather than rejected.
 */
import { badRequest } from '../api/api-error.js';
const TRUE_VALUES = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
const FALSE_VALUES = new Set(['0', 'f', 'F', 'false', 'FALSE', 'False']);
/** queryString returns the first value of a parameter. */
export function queryString(query, name) {
    const value = query[name];
    return Array.isArray(value) ? value[0] : value;
}
/** queryBool parses a boolean parameter leniently; absent or empty → undefined. */
export function queryBool(query, name) {
    const value = queryString(query, name);
    if (value === undefined || value === '')
        return undefined;
    if (TRUE_VALUES.has(value))
        return true;
    if (FALSE_VALUES.has(value))
        return false;
    throw badRequest(`invalid boolean value for parameter ${name}: ${JSON.stringify(value)}`);
}
/** queryInt parses a non-negative integer parameter; absent or empty → undefined. */
export function queryInt(query, name) {
    const value = queryString(query, name);
    if (value === undefined || value === '')
        return undefined;
    if (!/^-?\d+$/.test(value))
        throw badRequest(`invalid integer value for parameter ${name}: ${JSON.stringify(value)}`);
    return Number(value);
}
export const FieldValidations = ['Strict', 'Warn', 'Ignore'];
/** fieldValidation reads the fieldValidation parameter (default Warn, as kube-apiserver). */
export function fieldValidation(query) {
    const value = queryString(query, 'fieldValidation');
    if (value === undefined || value === '')
        return 'Warn';
    const match = FieldValidations.find((v) => v.toLowerCase() === value.toLowerCase());
    if (!match)
        throw badRequest(`fieldValidation must be one of Strict, Warn or Ignore, got ${JSON.stringify(value)}`);
    return match;
}
/** isDryRun reads dryRun=All; any other non-empty value is rejected as Kubernetes does. */
export function isDryRun(query) {
    const value = query['dryRun'];
    const values = Array.isArray(value) ? value : value ? [value] : [];
    for (const v of values)
        if (v !== 'All')
            throw badRequest(`Invalid dry run value: ${JSON.stringify(v)}, supported values: All`);
    return values.length > 0;
}
//# sourceMappingURL=query.js.map