/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), the server half of
 * k8s.io/apimachinery/pkg/util/strategicpatch: what `kubectl apply` (client-side),
 * `kubectl edit`, `kubectl patch` and `kubectl rollout restart` send.
 *
 * Semantics, per map level of the patch:
 * 1. `$patch: replace` replaces the map with the rest of the patch map, `$patch: delete`
 *    empties it, `$patch: merge` is the default (Kubernetes rejects it; we accept it).
 * 2. `$retainKeys: [..]` clears live keys not listed, wherever it appears: like
 *    Kubernetes we do not require the schema to declare the `retainKeys` strategy.
 * 3. `$setElementOrder/<list>` merges and orders that list (see the -set-element-order file).
 * 4. Each field: `null` deletes; a value with no live counterpart (or of another JSON
 *    type) is taken with its directives applied and removed; maps merge recursively
 *    unless the schema says `replace`; lists merge per their schema (see the -lists file).
 * 5. `$deleteFromPrimitiveList/<list>` removes values from that list, last.
 *
 * Differences from Kubernetes, all towards "directives never reach storage": a new
 * subtree is cleaned of every directive (Kubernetes strips only `$patch` maps there,
 * and drops a new map marked `$patch: replace` entirely; we keep its content), and a
 * replaced list's elements are cleaned too.
 */
import type { SchemaDocument, SchemaNode } from '../api/schema-node.js';
import { Directives, hasPatchDirective, isDirectiveKey, listDirectiveTarget, unknownPatchType, withoutPatchDirective } from './directives.js';
import { badRequest, invalid } from './errors.js';
import { cloneJson, getOwn, goTypeName, hasOwn, isJsonObject, type JsonObject, setOwn } from './json-value.js';
import { type FieldSchema, isReplaceMap, lookupProperty, rootField, unknownField, unknownFieldError } from './patch-schema.js';
import { deleteFromPrimitiveList, materializeList, mergeList, type ValueMerger } from './strategic-merge-patch-lists.js';
import { applySetElementOrders } from './strategic-merge-patch-set-element-order.js';

/** StrategicMergePatchSchema is the schema an object is patched against: the node of
 * the object (undefined when unknown: JSON merge semantics) and its document. */
export interface StrategicMergePatchSchema {
  node: SchemaNode | undefined;
  doc: SchemaDocument;
}

/**
 * applyStrategicMergePatch applies a Kubernetes strategic merge patch to `document` and
 * returns the result. List strategies and merge keys come from `schema`
 * (`x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`); where no schema is
 * known, lists are replaced. The result never contains a directive.
 *
 * Pure: never mutates `document` or `patch`; the result shares no objects with them.
 * A null/undefined `document` counts as `{}`.
 * Throws PatchError: BadRequest when `patch` is not an object or a directive is
 * malformed (bad `$patch` value, `$retainKeys`/`$setElementOrder`/`$deleteFromPrimitiveList`
 * not a list, a patch list element without its merge key, an order that contradicts
 * `$setElementOrder`); Invalid when the patch does not fit the object (a member the
 * schema does not declare, lists of lists or of mixed types, keys outside `$retainKeys`).
 */
export function applyStrategicMergePatch(document: unknown, patch: unknown, schema: StrategicMergePatchSchema): unknown {
  if (!isJsonObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${goTypeName(patch)} into Go value of type map[string]interface {}`);
  }
  if (document !== null && document !== undefined && !isJsonObject(document)) throw badRequest('invalid JSON document');
  const original: JsonObject = isJsonObject(document) ? cloneJson(document) : {};
  return mergeMap(original, patch, rootField(schema.node, schema.doc));
}

const merger: ValueMerger = { mergeMap, materialize };

/** mergeMap merges patch map `patch` into `original`, which it owns and may change. */
function mergeMap(original: JsonObject, patch: JsonObject, field: FieldSchema): JsonObject {
  if (hasPatchDirective(patch)) {
    switch (getOwn(patch, Directives.patch)) {
      case 'replace':
        return mergeMap({}, withoutPatchDirective(patch), field);
      case 'delete':
        return {};
      case 'merge':
        return mergeMap(original, withoutPatchDirective(patch), field);
      default:
        throw unknownPatchType(patch);
    }
  }
  const target = applyRetainKeys(original, patch);
  const handled = applySetElementOrders(target, patch, { field, merger });
  for (const [key, value] of Object.entries(patch)) {
    if (!isDirectiveKey(key) && !handled.has(key)) mergeField(target, key, value, field);
  }
  applyDeletionLists(target, patch);
  return target;
}

/**
 * materialize turns a patch value that has no live counterpart into a plain value: maps
 * lose nulls and directives, lists lose their `$patch` elements. Returns undefined for a
 * map marked `$patch: delete` (Kubernetes drops it).
 */
function materialize(value: unknown, field: FieldSchema): unknown {
  if (isJsonObject(value)) {
    return getOwn(value, Directives.patch) === 'delete' ? undefined : mergeMap({}, value, field);
  }
  if (Array.isArray(value)) return materializeList(value, { field, merger });
  return value;
}

/** mergeField merges the patch value of one field into `target`. */
function mergeField(target: JsonObject, key: string, value: unknown, parent: FieldSchema): void {
  if (value === undefined) return;
  if (value === null) {
    delete target[key];
    return;
  }
  const live = getOwn(target, key);
  const field = lookupProperty(parent, key);
  const bothMaps = isJsonObject(live) && isJsonObject(value);
  const bothLists = Array.isArray(live) && Array.isArray(value);
  if (!bothMaps && !bothLists) {
    setOrDelete(target, key, materialize(value, field ?? unknownField(parent.doc)));
    return;
  }
  // Kubernetes can only merge members its Go struct declares.
  if (field === undefined) throw unknownFieldError(parent, key);
  if (bothLists) {
    setOwn(target, key, mergeList(live, value, { field, merger }));
  } else if (isJsonObject(live) && isJsonObject(value)) {
    setOwn(target, key, isReplaceMap(field) ? (materialize(value, field) ?? {}) : mergeMap(live, value, field));
  }
}

function setOrDelete(target: JsonObject, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else setOwn(target, key, value);
}

/**
 * applyRetainKeys handles `$retainKeys`: every non-null field of the patch must be
 * listed, and live keys not listed are cleared. Returns `original`, changed in place.
 */
function applyRetainKeys(original: JsonObject, patch: JsonObject): JsonObject {
  if (!hasOwn(patch, Directives.retainKeys)) return original;
  const listed = getOwn(patch, Directives.retainKeys);
  if (!Array.isArray(listed)) throw badRequest('invalid patch format of retainKeys');
  const retained = new Set(listed.filter((key): key is string => typeof key === 'string'));
  for (const [key, value] of Object.entries(patch)) {
    if (value !== null && !isDirectiveKey(key) && !retained.has(key)) {
      throw invalid("patch content doesn't match retainKeys list");
    }
  }
  for (const key of Object.keys(original)) {
    if (!retained.has(key)) delete original[key];
  }
  return original;
}

/** applyDeletionLists applies every `$deleteFromPrimitiveList/<list>` of `patch`. */
function applyDeletionLists(target: JsonObject, patch: JsonObject): void {
  for (const [key, values] of Object.entries(patch)) {
    if (!key.startsWith(Directives.deleteFromPrimitiveList)) continue;
    const name = listDirectiveTarget(key, Directives.deleteFromPrimitiveList);
    if (!Array.isArray(values)) throw badRequest('invalid patch format of primitive list');
    const live = getOwn(target, name);
    if (Array.isArray(live)) setOwn(target, name, deleteFromPrimitiveList(live, values));
  }
}
