/**
 * How objects and change records are stored as etcd values, and how etcd's key-values and
 * watch events become the store's objects and EncodedEvents.
 *
 * Like kube-apiserver, the stored JSON carries no resourceVersion: it is not known before the
 * transaction commits, and it is etcd's mod_revision anyway. Reads stamp it back in.
 */
import type { StoredActor, StoredObject, StoreEventType } from '../types.js';
import type { EncodedEvent } from '../watch-hub.js';
import type { EtcdKeys } from './keys.js';

/** RawKeyValue is etcd's mvccpb.KeyValue as etcd3 decodes it (int64 as decimal strings). Bytes
 * come across the worker boundary as Uint8Array. */
export interface RawKeyValue {
  key: Uint8Array;
  value: Uint8Array;
  create_revision: string;
  mod_revision: string;
}

/** RawWatchEvent is etcd's mvccpb.Event. */
export interface RawWatchEvent {
  type: string;
  kv: RawKeyValue;
  prev_kv?: RawKeyValue | null;
}

/** ChangeRecord is the value of `<prefix>/_kubesim/change` at each change's revision. */
export interface ChangeRecord {
  actor?: StoredActor;
  timeMs: number;
}

const decoder = new TextDecoder();

export function text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** bodyForEtcd is the value stored for an object: its JSON without resourceVersion. Throws
 * (e.g. for a BigInt) before anything is written. */
export function bodyForEtcd(object: StoredObject): string {
  return JSON.stringify({ ...object, metadata: { ...object.metadata, resourceVersion: undefined } });
}

/** stamp copies the two levels it changes, so the caller's object is never mutated. */
export function stamp(object: StoredObject, revision: number): StoredObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
}

/** decodeObject parses a stored value and stamps it with `revision`. */
export function decodeObject(value: Uint8Array, revision: number): StoredObject {
  const object = JSON.parse(text(value)) as StoredObject;
  object.metadata.resourceVersion = String(revision);
  return object;
}

/** stampedText is decodeObject as JSON text (the shape EncodedEvent and listText carry). */
export function stampedText(value: Uint8Array, revision: number): string {
  return JSON.stringify(decodeObject(value, revision));
}

/**
 * ChangeAssembler turns etcd watch events into the store's EncodedEvents. Each change is one
 * etcd revision holding two events: the object's put or delete and the put of the change
 * record. They are joined by revision; `origin` is subtracted from every revision.
 */
export class ChangeAssembler {
  private objectEvent: { revision: number; event: RawWatchEvent } | undefined;

  constructor(
    private readonly keys: EtcdKeys,
    private readonly origin: number,
  ) {}

  /** add takes one raw event; returns the change once both of its halves were seen. */
  add(raw: RawWatchEvent): EncodedEvent | undefined {
    const key = text(raw.kv.key);
    const revision = Number(raw.kv.mod_revision) - this.origin;
    if (key !== this.keys.change) {
      if (this.keys.parse(key) !== undefined) this.objectEvent = { revision, event: raw };
      return undefined;
    }
    const pending = this.objectEvent;
    if (pending === undefined || pending.revision !== revision) return undefined;
    this.objectEvent = undefined;
    return this.encode(pending.event, revision, JSON.parse(text(raw.kv.value)) as ChangeRecord);
  }

  private encode(raw: RawWatchEvent, revision: number, record: ChangeRecord): EncodedEvent | undefined {
    const ref = this.keys.parse(text(raw.kv.key));
    if (ref === undefined) return undefined;
    const prev = raw.prev_kv ?? undefined;
    const prevBody = prev === undefined ? undefined : stampedText(prev.value, Number(prev.mod_revision) - this.origin);
    const isDelete = raw.type.toUpperCase() === 'DELETE';
    if (isDelete && prev === undefined) return undefined; // the last state was compacted away
    const type: StoreEventType = isDelete ? 'DELETED' : raw.kv.create_revision === raw.kv.mod_revision ? 'ADDED' : 'MODIFIED';
    const body = stampedText(isDelete ? prev!.value : raw.kv.value, revision);
    const event: EncodedEvent = { type, revision, ref, body, prevBody: type === 'ADDED' ? undefined : prevBody, timeMs: record.timeMs };
    if (record.actor !== undefined) event.actor = JSON.stringify(record.actor);
    return event;
  }
}
