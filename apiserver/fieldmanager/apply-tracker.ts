/**
 * ApplyTracker: server-side apply (`PATCH` with `application/apply-patch+yaml`). One apply
 * runs in two steps around the registry's update flow:
 *
 *   merge(current, config)  → the object to decode: live ⊕ config, minus dropped fields
 *   track(current, next)    → conflicts (409) or the new managedFields
 *
 * Ownership is decided on `next` — the merged object after decoding and defaulting — so a
 * configuration saying `cpu: 1` does not conflict with a live `"1"`.
 */
import { badRequest } from '../api/api-error.js';
import { apiVersionOf, type KubeObject } from '../api/resource-definition.js';
import { applyConflictError } from './conflict-error.js';
import { FieldSet } from './field-set.js';
import { type FieldTracker, isSameObject, managedFieldsOf, type TrackerOptions, tryDecode, WriteBase, withoutManagedFields } from './field-tracker.js';
import type { FieldType } from './field-type.js';
import { KUBECTL_MANAGER, lastAppliedFields, syncLastApplied } from './last-applied.js';
import { type Managers, managerId, Operations } from './managed-fields.js';
import { mergeValues } from './merge.js';
import { ApplyConflictError, type ComparisonAt, pruneDropped, takeOwnership } from './ownership.js';
import { fieldElement, type Path, pathToString } from './path-element.js';
import { toFieldSet } from './to-field-set.js';
import { indexItems, isJsonMap, type JsonMap, missingKeyField, walkOf } from './values.js';

/** ApplyTracker is the FieldTracker of one server-side apply. */
export interface ApplyTracker extends FieldTracker {
  /** merge returns what applying `config` makes of `current` (undefined: the object is
   * created): the configuration merged into the live object, without the fields this
   * manager applied last time, omits now and nobody else owns. Must be called before track.
   * Throws ApiError 400 for a configuration that cannot be applied. */
  merge(current: KubeObject | undefined, config: JsonMap): JsonMap;
}

export interface ApplyTrackerOptions extends TrackerOptions {
  force: boolean;
}

interface MergeState {
  config: JsonMap;
  managers: Managers;
  applied: FieldSet;
}

/** createApplyTracker returns the tracker of an apply by `options.manager`. */
export function createApplyTracker(options: ApplyTrackerOptions): ApplyTracker {
  const base = new WriteBase(options);
  const applierId = managerId(base.identity(Operations.Apply));
  let state: MergeState | undefined;
  return {
    merge(current, config) {
      checkConfig(config, base);
      const managers = tryDecode(managedFieldsOf(current)) ?? new Map();
      const applied = base.scope.filter(toFieldSet(config, base.type));
      const merged = mergeValues(current ? withoutManagedFields(current) : {}, config, base.type) as JsonMap;
      state = { config, managers, applied };
      return pruneDropped({
        merged,
        type: base.type,
        lastApplied: managers.get(applierId)?.fields,
        applied,
        ownedByOthers: ownedAt(managers, applierId, base.apiVersion),
      }) as JsonMap;
    },
    track(current, next) {
      if (!state) throw new Error('ApplyTracker.track called before merge');
      const { managers, applied, config } = state;
      const previous = managers.get(applierId);
      managers.set(applierId, { ...base.identity(Operations.Apply), time: previous?.time, fields: applied, original: previous?.original });
      const { comparisonAt } = base.compare(current, next);
      const result = ownership({ managers, applierId, comparisonAt, force: options.force, current, type: base.type, manager: options.manager });
      // The apply's time moves only when it changed the object (a no-op apply stays a no-op).
      const entry = result.get(applierId);
      if (entry && !isSameObject(current, next)) result.set(applierId, { ...entry, time: base.time() });
      if (options.manager === KUBECTL_MANAGER) syncLastApplied(next, config);
      base.store(next, result);
    },
  };
}

interface OwnershipInput {
  managers: Managers;
  applierId: string;
  comparisonAt: ComparisonAt;
  force: boolean;
  current: KubeObject | undefined;
  type: FieldType;
  manager: string;
}

/** ownership takes the applied fields from other managers, failing on conflicts unless
 * forced — or unless `kubectl` takes fields its client-side apply listed (last-applied.ts). */
function ownership(input: OwnershipInput): Managers {
  const take = (force: boolean) => takeOwnership({ managers: input.managers, actorId: input.applierId, comparisonAt: input.comparisonAt, force });
  try {
    return take(input.force);
  } catch (err) {
    if (!(err instanceof ApplyConflictError)) throw err;
    const allowed = input.manager === KUBECTL_MANAGER ? lastAppliedFields(input.current, input.type) : undefined;
    const remaining = allowed ? err.conflicts.filter((c) => !allowed.has(c.path)) : err.conflicts;
    if (remaining.length > 0) throw applyConflictError(remaining);
    return take(true);
  }
}

/** ownedAt is the union of the fields managers other than `exceptId` own at `apiVersion`. */
function ownedAt(managers: Managers, exceptId: string, apiVersion: string): FieldSet {
  let owned = new FieldSet();
  for (const [id, entry] of managers) if (id !== exceptId && entry.apiVersion === apiVersion) owned = owned.union(entry.fields);
  return owned;
}

/** checkConfig rejects what kube-apiserver rejects in an applied configuration: another
 * type, managedFields, and list items that do not say which item they are. */
function checkConfig(config: JsonMap, base: WriteBase): void {
  const { def } = base.options;
  if (config['apiVersion'] !== apiVersionOf(def) || config['kind'] !== def.kind) {
    throw badRequest(`invalid object type: ${groupVersionKind(config['apiVersion'], config['kind'])}`);
  }
  const metadata = config['metadata'];
  if (isJsonMap(metadata) && metadata['managedFields'] !== undefined && metadata['managedFields'] !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
  checkListItems(config, base.type, []);
}

/** groupVersionKind prints a type as Go's schema.GroupVersionKind does: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
function groupVersionKind(apiVersion: unknown, kind: unknown): string {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  const groupVersion = text.includes('/') ? text : `/${text}`;
  return `${groupVersion}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

function checkListItems(value: unknown, type: FieldType, path: Path): void {
  const how = walkOf(type, value);
  if (how === 'map') {
    for (const [key, child] of Object.entries(value as JsonMap)) checkListItems(child, type.field(key), [...path, fieldElement(key)]);
  } else if (how === 'list') {
    const list = value as unknown[];
    list.forEach((item, index) => {
      const missing = missingKeyField(type, item);
      if (missing)
        throw badRequest(
          `failed to create typed patch object: ${pathToString(path)}: element ${index}: associative list with keys has an element that omits key field "${missing}" (and doesn't have default value)`,
        );
    });
    const { byKey } = indexItems(type, list);
    for (const { element, items } of byKey.values()) {
      if (items.length > 1)
        throw badRequest(`failed to create typed patch object: ${pathToString(path)}: duplicate entries for key ${pathToString([element])}`);
      checkListItems(items[0], type.item(), [...path, element]);
    }
  }
}
