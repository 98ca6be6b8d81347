/** deepEqual compares two JSON values structurally, ignoring object key order. Used to
 * detect no-op writes (which must not bump resourceVersion) and spec changes. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const isArray = Array.isArray(a);
  if (isArray !== Array.isArray(b)) return false;
  if (isArray) {
    const [left, right] = [a as unknown[], b as unknown[]];
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!deepEqual(left[i], right[i])) return false;
    return true;
  }
  // Loops rather than Object.keys().filter(): this runs on every write, and the arrays were
  // most of what it allocated. JSON objects have no inherited enumerable keys.
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let defined = 0;
  for (const key in left) {
    const value = left[key];
    if (value === undefined) continue;
    defined++;
    if (!deepEqual(value, right[key])) return false;
  }
  for (const key in right) if (right[key] !== undefined) defined--;
  return defined === 0;
}
