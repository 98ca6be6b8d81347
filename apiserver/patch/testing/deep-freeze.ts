/**
 * deepFreeze freezes a JSON value and everything in it and returns it, so tests can
 * prove that a patch engine never mutates its inputs (a write would throw).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
