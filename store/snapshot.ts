/**
 * Whole-store snapshots: checking one before a restore, and planning the writes that make the
 * live objects equal to it. Pure functions; the store runs the plan in one transaction.
 */
import { isDeepStrictEqual } from 'node:util';
import { type ObjectRef, type StoredObject, type StoreEventType, type StoreSnapshot, StoreSnapshotFormatVersion } from './types.js';

/** LiveObject is a current object as the store holds it: its key, revision and JSON body. */
export interface LiveObject extends ObjectRef {
  rev: number;
  body: string;
}

/** RenderBody is how the store writes a body at a revision (JSON with the resourceVersion set). */
export type RenderBody = (object: StoredObject, revision: number) => string;

/** RestoreWrite is one write of a restore. For DELETED, `object` is the last state. */
export interface RestoreWrite {
  type: StoreEventType;
  ref: ObjectRef;
  object: StoredObject;
}

/** checkSnapshot throws a RangeError naming the first problem of a snapshot that is not a
 * StoreSnapshot of this format: the caller may have read it from a file. */
export function checkSnapshot(snapshot: unknown): asserts snapshot is StoreSnapshot {
  if (!isRecord(snapshot)) throw new RangeError('snapshot must be an object');
  if (snapshot['formatVersion'] !== StoreSnapshotFormatVersion) {
    throw new RangeError(`snapshot formatVersion must be ${StoreSnapshotFormatVersion}, got ${JSON.stringify(snapshot['formatVersion'])}`);
  }
  const objects = snapshot['objects'];
  if (!Array.isArray(objects)) throw new RangeError('snapshot objects must be an array');
  const seen = new Set<string>();
  objects.forEach((entry: unknown, i) => {
    const where = `snapshot objects[${i}]`;
    if (!isRecord(entry)) throw new RangeError(`${where} must be an object`);
    for (const field of ['resource', 'namespace', 'name'] as const) {
      const value = entry[field];
      if (typeof value !== 'string' || (value === '' && field !== 'namespace')) {
        throw new RangeError(`${where}.${field} must be a${field === 'namespace' ? '' : ' non-empty'} string`);
      }
    }
    if (!isRecord(entry['object']) || !isRecord(entry['object']['metadata'])) {
      throw new RangeError(`${where}.object must be an object with metadata`);
    }
    const key = keyOf(entry as unknown as ObjectRef);
    if (seen.has(key)) throw new RangeError(`${where} repeats the key ${describeKey(entry as unknown as ObjectRef)}`);
    seen.add(key);
  });
}

/**
 * planRestore returns the writes that turn `live` into the snapshot's objects: first the
 * deletions (in `live` order), then creations and updates (in snapshot order). An object
 * whose body equals the snapshot's, resourceVersion aside, gets no write.
 */
export function planRestore(live: Iterable<LiveObject>, snapshot: StoreSnapshot, render: RenderBody): RestoreWrite[] {
  const wanted = new Set(snapshot.objects.map(keyOf));
  const current = new Map<string, LiveObject>();
  const writes: RestoreWrite[] = [];
  for (const row of live) {
    const ref = { resource: row.resource, namespace: row.namespace, name: row.name };
    if (wanted.has(keyOf(ref))) current.set(keyOf(ref), row);
    else writes.push({ type: 'DELETED', ref, object: JSON.parse(row.body) as StoredObject });
  }
  for (const { resource, namespace, name, object } of snapshot.objects) {
    const ref = { resource, namespace, name };
    const existing = current.get(keyOf(ref));
    if (existing === undefined) writes.push({ type: 'ADDED', ref, object });
    else if (!isUnchanged(existing, object, render)) writes.push({ type: 'MODIFIED', ref, object });
  }
  return writes;
}

// The fast path is a string comparison: an object saved from this store and not changed
// since renders to exactly its stored body. Anything else (a changed object, or one whose
// keys were reordered on the way through a file) is compared as a value.
function isUnchanged(live: LiveObject, object: StoredObject, render: RenderBody): boolean {
  if (render(object, live.rev) === live.body) return true;
  const strip = (o: StoredObject) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return isDeepStrictEqual(strip(JSON.parse(live.body) as StoredObject), strip(object));
}

// NUL cannot occur in a Kubernetes name, namespace or resource, so the key is unambiguous.
function keyOf(ref: ObjectRef): string {
  return `${ref.resource}\u0000${ref.namespace}\u0000${ref.name}`;
}

/** describeKey names an object as store messages do: `pods "ns/name"`. */
export function describeKey(ref: ObjectRef): string {
  return `${ref.resource} "${ref.namespace === '' ? ref.name : `${ref.namespace}/${ref.name}`}"`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
