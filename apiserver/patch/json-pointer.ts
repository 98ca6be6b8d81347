/**
 * JSON Pointer (RFC 6901) navigation for the JSON patch engine. Containers are walked
 * and changed in place: callers hand in a document they own.
 */
import { getOwn, hasOwn, isJsonObject, type JsonObject } from './json-value.js';

/** Container is a JSON object or array a pointer token can address into. */
export type Container = JsonObject | unknown[];

/** Lookup is what a pointer resolves to: the found value, or nothing. */
export type Lookup = { found: true; value: unknown } | { found: false };

/**
 * parsePointer splits a JSON pointer into unescaped reference tokens (`~1` → `/`,
 * `~0` → `~`). The empty pointer is the whole document (no tokens). Returns undefined
 * for a pointer that does not start with `/`.
 */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~[01]/g, (sequence) => (sequence === '~1' ? '/' : '~')));
}

/**
 * parseArrayIndex parses an array index token as evanphx/json-patch (and so
 * kube-apiserver) does: decimal digits with an optional leading `-`; negative indices
 * count from the end. Returns undefined when the token is not an integer.
 */
export function parseArrayIndex(token: string): number | undefined {
  if (!/^-?\d+$/.test(token)) return undefined;
  const index = Number(token);
  return Number.isSafeInteger(index) ? index : undefined;
}

/** isContainer reports whether `value` can hold children (object or array). */
function isContainer(value: unknown): value is Container {
  return isJsonObject(value) || Array.isArray(value);
}

/** getChild returns the child `token` of `container`; missing keys and indices outside
 * the array (after negative-index adjustment) are not found. */
export function getChild(container: Container, token: string): Lookup {
  if (!Array.isArray(container)) {
    return hasOwn(container, token) ? { found: true, value: getOwn(container, token) } : { found: false };
  }
  const index = normalizeIndex(parseArrayIndex(token), container.length);
  return index === undefined ? { found: false } : { found: true, value: container[index] };
}

/** resolveParent walks all tokens but the last and returns the container they reach, or
 * undefined when a step is missing or is not a container. */
export function resolveParent(document: unknown, tokens: readonly string[]): Container | undefined {
  let current: unknown = document;
  for (const token of tokens.slice(0, -1)) {
    if (!isContainer(current)) return undefined;
    const child = getChild(current, token);
    if (!child.found) return undefined;
    current = child.value;
  }
  return isContainer(current) ? current : undefined;
}

/** lookup resolves a whole pointer (as tokens) against `document`. */
export function lookup(document: unknown, tokens: readonly string[]): Lookup {
  if (tokens.length === 0) return { found: true, value: document };
  const parent = resolveParent(document, tokens);
  return parent ? getChild(parent, lastToken(tokens)) : { found: false };
}

/** lastToken returns the final token of a non-empty token list. */
export function lastToken(tokens: readonly string[]): string {
  return tokens[tokens.length - 1] ?? '';
}

/** normalizeIndex maps a possibly negative index into [0, length), or undefined. */
export function normalizeIndex(index: number | undefined, length: number): number | undefined {
  if (index === undefined) return undefined;
  const adjusted = index < 0 ? index + length : index;
  return adjusted >= 0 && adjusted < length ? adjusted : undefined;
}
