/**
 * FieldTracker: the part of a write that maintains `metadata.managedFields`, as
 * kube-apiserver's FieldManager does for Update operations (create, PUT, non-apply PATCH,
 * /status and /scale writes). The apply variant lives in apply-tracker.ts; both share the
 * WriteBase helpers here.
 */
import { deepEqual } from '../api/deep-equal.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { ManagedFieldsEntry } from '../api/meta.js';
import { apiVersionOf, type KubeObject, type ResourceDefinition } from '../api/resource-definition.js';
import { schemaDocumentFor } from '../api/schema-node.js';
import { type Comparison, compareValues } from './compare.js';
import { FieldType } from './field-type.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagerEntry,
  type ManagerIdentity,
  type Managers,
  managerId,
  type Operation,
  Operations,
} from './managed-fields.js';
import { type ComparisonAt, recordUpdate } from './ownership.js';
import type { VersionConverter } from './versions.js';
import { WriteScope, type WriteSubresource } from './write-scope.js';

/** FieldTracker knows how to record who owns which fields on one write. */
export interface FieldTracker {
  /** track sets `next.metadata.managedFields` for the write turning `current` (undefined on
   * create) into `next`. `next` is the object about to be stored; it is mutated. Throws
   * ApiError 409 when an unforced apply conflicts with other managers. */
  track(current: KubeObject | undefined, next: KubeObject): void;
}

export interface TrackerOptions {
  /** The served version the request addresses. */
  def: ResourceDefinition;
  /** The fieldManager query parameter, else the User-Agent's product (see managerName). */
  manager: string;
  subresource: WriteSubresource;
  /** Milliseconds since the epoch: the cluster clock. */
  now: () => number;
  /** Reaches managers that wrote through another version of the kind; without it, their
   * entries are kept but not compared. */
  versions?: VersionConverter;
}

/** MAX_UPDATE_MANAGERS: beyond this many Update entries the oldest are merged into one
 * `ancient-changes` entry per apiVersion (kube-apiserver's cap). */
const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';

/** WriteBase holds what every tracker needs about the request. */
export class WriteBase {
  readonly apiVersion: string;
  readonly type: FieldType;
  readonly scope: WriteScope;

  constructor(readonly options: TrackerOptions) {
    this.apiVersion = apiVersionOf(options.def);
    this.type = FieldType.root(schemaDocumentFor(options.def));
    this.scope = WriteScope.of(options.def, options.subresource);
  }

  identity(operation: Operation): ManagerIdentity {
    return { manager: this.options.manager, operation, apiVersion: this.apiVersion, subresource: this.options.subresource };
  }

  /** time is now as metav1.Time (RFC 3339, seconds). */
  time(): string {
    return rfc3339(this.options.now());
  }

  /** compare returns the write's comparison at the request's version (scoped) and a lookup
   * for other versions. Conversions are computed once per version. */
  compare(current: KubeObject | undefined, next: KubeObject): { comparison: Comparison; comparisonAt: ComparisonAt } {
    const live = current ? withoutManagedFields(current) : {};
    const after = withoutManagedFields(next);
    const comparison = this.scope.filterComparison(compareValues(this.scope.project(live), this.scope.project(after), this.type));
    const cache = new Map<string, Comparison | undefined>([[this.apiVersion, comparison]]);
    const comparisonAt: ComparisonAt = (apiVersion) => {
      if (!cache.has(apiVersion)) cache.set(apiVersion, this.compareAt(apiVersion, live as KubeObject, after));
      return cache.get(apiVersion);
    };
    return { comparison, comparisonAt };
  }

  private compareAt(apiVersion: string, live: KubeObject, after: KubeObject): Comparison | undefined {
    const convert = this.options.versions;
    if (!convert) return emptyComparison(this.type);
    try {
      const before = Object.keys(live).length > 0 ? convert(live, apiVersion) : undefined;
      const now = convert(after, apiVersion);
      if (!now) return undefined;
      return this.scope.filterComparison(compareValues(this.scope.project(before?.object ?? {}), this.scope.project(now.object), now.type));
    } catch {
      // A conversion that fails leaves that manager's fields as they were, rather than
      // failing a write over bookkeeping (kube-apiserver drops managedFields then).
      return emptyComparison(this.type);
    }
  }

  /** store encodes `managers` into `next` (dropping the field when none is left), capping
   * the number of Update entries. */
  store(next: KubeObject, managers: Managers): void {
    const entries = encodeManagedFields(capUpdateManagers(managers));
    if (entries.length === 0) delete next.metadata['managedFields'];
    else next.metadata['managedFields'] = entries;
  }
}

/** createUpdateTracker returns the tracker of an Update operation by `options.manager`. */
export function createUpdateTracker(options: TrackerOptions): FieldTracker {
  const base = new WriteBase(options);
  return {
    track(current, next) {
      const managers = liveOrGiven(current, next, options.subresource !== '');
      const { comparison, comparisonAt } = base.compare(current, next);
      const actor = base.identity(Operations.Update);
      base.store(next, recordUpdate({ managers, actor, comparison, comparisonAt, time: base.time() }));
    },
  };
}

/**
 * liveOrGiven picks the managers a write starts from, as kube-apiserver's decodeLiveOrNew:
 * managedFields sent with a main-resource write replace the live ones (so clients can edit
 * them; `[]` or `[{}]` resets them), anything undecodable or absent keeps the live ones.
 * Subresource writes always keep the live ones.
 */
export function liveOrGiven(current: KubeObject | undefined, next: KubeObject, isSubresource: boolean): Managers {
  const given = managedFieldsOf(next);
  if (!isSubresource && given !== undefined) {
    if (given.length === 0 || (given.length === 1 && Object.keys(given[0] ?? {}).length === 0)) return new Map();
    const decoded = tryDecode(given);
    if (decoded && decoded.size > 0) return decoded;
  }
  return tryDecode(managedFieldsOf(current)) ?? new Map();
}

/** managedFieldsOf reads an object's managedFields list (undefined when absent or not a list). */
export function managedFieldsOf(object: KubeObject | undefined): ManagedFieldsEntry[] | undefined {
  const value = object?.metadata['managedFields'];
  return Array.isArray(value) ? (value as ManagedFieldsEntry[]) : undefined;
}

/** tryDecode decodes entries; undefined when they are malformed (kube ignores such entries
 * and starts over rather than failing the write). */
export function tryDecode(entries: readonly ManagedFieldsEntry[] | undefined): Managers | undefined {
  try {
    return decodeManagedFields(entries);
  } catch {
    return undefined;
  }
}

/** withoutManagedFields is a shallow copy of `object` without metadata.managedFields. */
export function withoutManagedFields(object: KubeObject): KubeObject {
  const { managedFields: _ignored, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/** isSameObject compares two objects ignoring managedFields. */
export function isSameObject(a: KubeObject | undefined, b: KubeObject): boolean {
  return a !== undefined && deepEqual(withoutManagedFields(a), withoutManagedFields(b));
}

function emptyComparison(type: FieldType): Comparison {
  return compareValues({}, {}, type);
}

/** capUpdateManagers merges the oldest Update entries into `ancient-changes` entries until
 * at most MAX_UPDATE_MANAGERS remain. */
function capUpdateManagers(managers: Managers): Managers {
  const updates = [...managers.entries()].filter(([, e]) => e.operation === Operations.Update);
  if (updates.length <= MAX_UPDATE_MANAGERS) return managers;
  const out: Managers = new Map(managers);
  updates.sort(([, a], [, b]) => (a.time ?? '').localeCompare(b.time ?? ''));
  let count = updates.length;
  for (const [id, entry] of updates) {
    if (count <= MAX_UPDATE_MANAGERS) break;
    if (entry.manager === ANCIENT_CHANGES) continue;
    const bucketIdentity: ManagerIdentity = { manager: ANCIENT_CHANGES, operation: Operations.Update, apiVersion: entry.apiVersion, subresource: '' };
    const bucketId = managerId(bucketIdentity);
    const bucket: ManagerEntry | undefined = out.get(bucketId);
    out.delete(id);
    out.set(bucketId, { ...bucketIdentity, time: entry.time, fields: bucket ? bucket.fields.union(entry.fields) : entry.fields });
    // Merging into an existing bucket removes an entry; starting a bucket only renames one.
    if (bucket) count--;
  }
  return out;
}
