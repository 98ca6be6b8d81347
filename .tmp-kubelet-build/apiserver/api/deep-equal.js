/** deepEqual compares two JSON values structurally, ignoring object key order. Used to
 * detect no-op writes (which must not bump resourceVersion) and spec changes. */
export function deepEqual(a, b) {
    if (a === b)
        return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
        return false;
    if (Array.isArray(a) !== Array.isArray(b))
        return false;
    if (Array.isArray(a)) {
        const other = b;
        return a.length === other.length && a.every((item, i) => deepEqual(item, other[i]));
    }
    const left = a;
    const right = b;
    const keys = Object.keys(left).filter((k) => left[k] !== undefined);
    if (keys.length !== Object.keys(right).filter((k) => right[k] !== undefined).length)
        return false;
    return keys.every((k) => deepEqual(left[k], right[k]));
}
//# sourceMappingURL=deep-equal.js.map