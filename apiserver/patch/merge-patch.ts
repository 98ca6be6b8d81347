/**
 * JSON merge patch (RFC 7386, `application/merge-patch+json`): what `kubectl label`,
 * `kubectl annotate`, `kubectl scale` and `kubectl patch --type=merge` send.
 */
import { cloneJson, getOwn, isJsonObject, type JsonObject, setOwn } from './json-value.js';

/**
 * applyMergePatch applies an RFC 7386 merge patch to `document` and returns the result:
 * objects merge recursively, a `null` member deletes that member, and any other patch
 * value (scalar, array, or a non-object patch as a whole) replaces the target. Nulls
 * inside a replacing array are kept, as the RFC says.
 *
 * Pure: never mutates `document` or `patch`, and the result shares no objects with
 * either. Never throws; deciding whether the result is an acceptable object is the
 * caller's job.
 */
export function applyMergePatch(document: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const target: JsonObject = isJsonObject(document) ? cloneJson(document) : {};
  mergeInto(target, patch);
  return target;
}

/** mergeInto merges `patch` into `target`, which the caller owns and may be changed. */
function mergeInto(target: JsonObject, patch: JsonObject): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete target[key];
    } else if (isJsonObject(value)) {
      const current = getOwn(target, key);
      const child: JsonObject = isJsonObject(current) ? current : {};
      mergeInto(child, value);
      setOwn(target, key, child);
    } else {
      setOwn(target, key, cloneJson(value));
    }
  }
}
