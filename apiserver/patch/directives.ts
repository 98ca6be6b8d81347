/**
 * The strategic merge patch directives (keys starting with `$`) and the errors about
 * them, worded as k8s.io/apimachinery/pkg/util/mergepatch words them.
 */
import { badRequest, formatGoValue, invalid, type PatchError, type PatchErrorReason } from './errors.js';
import { getOwn, hasOwn, isJsonObject, type JsonObject } from './json-value.js';

/** Directives are the reserved keys of a strategic merge patch. */
export const Directives = {
  /** `$patch: replace | delete | merge` on a map or as a list element. */
  patch: '$patch',
  /** `$retainKeys: [..]` on a map: clear the keys not listed. */
  retainKeys: '$retainKeys',
  /** `$setElementOrder/<list>: [..]`: the order of a merging list after the patch. */
  setElementOrder: '$setElementOrder',
  /** `$deleteFromPrimitiveList/<list>: [..]`: values to remove from a list of scalars. */
  deleteFromPrimitiveList: '$deleteFromPrimitiveList',
} as const;

/** isDirectiveKey reports whether a map key is a directive rather than a field. */
export function isDirectiveKey(key: string): boolean {
  return (
    key === Directives.patch ||
    key === Directives.retainKeys ||
    key.startsWith(Directives.setElementOrder) ||
    key.startsWith(Directives.deleteFromPrimitiveList)
  );
}

/** hasPatchDirective reports whether a value is a map carrying `$patch`. */
export function hasPatchDirective(value: unknown): value is JsonObject {
  return isJsonObject(value) && hasOwn(value, Directives.patch);
}

/**
 * listDirectiveTarget returns the list field a `<prefix>/<field>` directive key names.
 * Throws PatchError (BadRequest) when the key is not of that form.
 */
export function listDirectiveTarget(key: string, prefix: string): string {
  if (key.startsWith(`${prefix}/`) && key.length > prefix.length + 1) return key.slice(prefix.length + 1);
  throw badRequest(prefix === Directives.setElementOrder ? 'invalid patch format of setElementOrder list' : 'invalid patch format of primitive list');
}

/** unknownPatchType is the error for a `$patch` value other than replace/delete/merge. */
export function unknownPatchType(map: JsonObject): PatchError {
  const directive = formatGoValue(getOwn(map, Directives.patch));
  return badRequest(`unknown patch type: ${directive} in map: ${formatGoValue(map)}`);
}

/**
 * requireMergeKey returns the merge key value of a list element. Throws PatchError with
 * `reason` (BadRequest for patch elements, Invalid for live ones) when it has none.
 */
export function requireMergeKey(item: unknown, mergeKey: string, reason: PatchErrorReason): unknown {
  if (isJsonObject(item) && hasOwn(item, mergeKey)) return getOwn(item, mergeKey);
  const message = `map: ${formatGoValue(item)} does not contain declared merge key: ${mergeKey}`;
  throw reason === 'BadRequest' ? badRequest(message) : invalid(message);
}

/** withoutPatchDirective returns a shallow copy of `map` without its `$patch` key. */
export function withoutPatchDirective(map: JsonObject): JsonObject {
  const copy = { ...map };
  delete copy[Directives.patch];
  return copy;
}
