/**
 * Code-point helpers: CEL strings are sequences of Unicode code points, so `size('👑') == 1` and
 * indexes count code points, where JS strings count UTF-16 units.
 */

const SURROGATE = /[\uD800-\uDFFF]/;

/** hasAstral is true when a string holds characters outside the BMP (surrogate pairs). */
export function hasAstral(s: string): boolean {
  return SURROGATE.test(s);
}

/** codePoints splits a string into code points (one string per code point). */
export function codePoints(s: string): string[] {
  return hasAstral(s) ? Array.from(s) : s.split('');
}

/** codePointLength is the number of code points in s. */
export function codePointLength(s: string): number {
  if (!hasAstral(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** compareCodePoints orders strings by code point (as Go orders UTF-8 bytes). */
export function compareCodePoints(a: string, b: string): -1 | 0 | 1 {
  if (!hasAstral(a) && !hasAstral(b)) return a < b ? -1 : a > b ? 1 : 0;
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!.codePointAt(0)!;
    const q = y[i]!.codePointAt(0)!;
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
}

/** utf8Encode encodes a string as UTF-8. */
export function utf8Encode(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}

/** utf8Decode decodes UTF-8, or returns undefined when the bytes are not valid UTF-8. */
export function utf8Decode(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
