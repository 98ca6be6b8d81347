/**
 * The contracts of kubesim's versioned store. See docs/architecture.md.
 *
 * The store is deliberately synchronous: better-sqlite3 is synchronous and only the
 * API server process opens the database, so "check the revision, then write" happens
 * inside one transaction with no `await` in between, and a watch can be registered in
 * the same tick as the read that precedes it (no gap, no duplicate).
 */

/** StoredObject is any JSON object with Kubernetes-style metadata. The store only reads
 * and stamps `metadata.resourceVersion`; every other field is opaque to it. Objects must
 * survive a JSON round trip (no `undefined` in arrays, no Dates, no cycles). */
export interface StoredObject {
  metadata: { resourceVersion?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** ObjectRef names one object. `resource` is the storage key of a kind
 * (e.g. `deployments.apps`, `pods`); `namespace` is '' for cluster-scoped objects. The ref
 * is the key: the store does not compare it with the body's metadata. */
export interface ObjectRef {
  resource: string;
  namespace: string;
  name: string;
}

/** StoredActor is who made a write and why, as the API server records it (docs/history.md).
 * The store keeps it with the change as opaque JSON and drops it with the change when
 * history is compacted. */
export type StoredActor = Record<string, unknown>;

/** StoreEventTypes lists the kinds of committed change, in Kubernetes watch spelling. */
export const StoreEventTypes = ['ADDED', 'MODIFIED', 'DELETED'] as const;
export type StoreEventType = (typeof StoreEventTypes)[number];

/** StoreEvent is one committed change. `object` carries the new resourceVersion (for
 * DELETED: the last state, stamped with the deletion revision). `prevObject` is the state
 * before the change (MODIFIED and DELETED), so watchers can tell when an object leaves a
 * filtered selection. Every watcher receives its own copy and may mutate it. */
export interface StoreEvent {
  type: StoreEventType;
  revision: number;
  ref: ObjectRef;
  object: StoredObject;
  prevObject?: StoredObject;
  /** Who made the change, when the writer said (WriteOptions.actor). Only history reads and
   * watches of every resource carry it (and timeMs). */
  actor?: StoredActor;
  /** When it was committed, by the store's clock (ms). */
  timeMs?: number;
}

/** BookmarkMessage tells a watcher that every change up to `revision` has been delivered. */
export interface BookmarkMessage {
  type: 'BOOKMARK';
  revision: number;
}

export type WatchMessage = StoreEvent | BookmarkMessage;

/** SharedStoreEvent is one committed change as every shared watcher receives it: the same
 * instance for all of them (see Store.watchShared), so whatever a consumer derives from it
 * once (an encoding, say) can serve every other consumer of the same change. */
export interface SharedStoreEvent {
  readonly type: StoreEventType;
  readonly revision: number;
  readonly ref: Readonly<ObjectRef>;
  /** The object as stored: JSON text, as `object` would serialise. */
  readonly body: string;
  /** The state before the change as JSON text (MODIFIED and DELETED). */
  readonly prevBody: string | undefined;
  /** `body` parsed on first use and deep-frozen: shared by every watcher, never to be mutated. */
  readonly object: StoredObject;
  /** `prevBody` parsed on first use and deep-frozen, like `object`. */
  readonly prevObject: StoredObject | undefined;
}

export type SharedWatchMessage = SharedStoreEvent | BookmarkMessage;

/** Why a watch stopped delivering: the consumer closed it, it fell too far behind
 * (its buffer overflowed; the client must re-watch from its last revision), or the
 * store was closed. */
export type WatchEndReason = 'closed' | 'too-slow' | 'store-closed';

export interface ListOptions {
  resource: string;
  /** Only objects in this namespace; undefined = all namespaces (and cluster-scoped). */
  namespace?: string;
  /** Resume after this key (exclusive), in (namespace, name) order: pagination. */
  startAfter?: { namespace: string; name: string };
  /** Stop after this many objects that pass `predicate`; undefined or <= 0 = no limit. */
  limit?: number;
  /** Filter applied while scanning, so `limit` counts matching objects only. Must not throw
   * and must not call the store. It receives a fresh copy that may end up in `items`. */
  predicate?: (object: StoredObject) => boolean;
  /** Read the state as of this past revision (snapshot read). Throws Expired if it was
   * compacted and TooLarge if it is above the current revision. Kubernetes'
   * resourceVersion "0" ("any") is the caller's to translate (to undefined). */
  revision?: number;
}

export interface ListResult {
  /** Matching objects in (namespace, name) order. */
  items: StoredObject[];
  /** The revision the list reflects; a watch from it sees exactly the later changes. */
  revision: number;
  /** True when `limit` stopped the scan and at least one more matching object follows. */
  more: boolean;
  /** How many objects follow the last item; only set when `more` and no predicate. */
  remainingItemCount?: number;
}

/** ListTextResult is a ListResult whose items are each object's stored JSON text, with its
 * key: for callers that serve the text as it is instead of parsing it. */
export interface ListTextResult extends Omit<ListResult, 'items'> {
  items: Array<{ namespace: string; name: string; body: string }>;
}

export interface WatchOptions {
  /** Only changes of this resource; undefined = every resource (the history stream, whose
   * events also carry actor and timeMs). */
  resource?: string;
  /** Only changes in this namespace; undefined = all namespaces. */
  namespace?: string;
  /** Deliver every change with revision > afterRevision, in order. Throws Expired when
   * afterRevision is older than the compacted revision and TooLarge when it is above the
   * current revision. */
  afterRevision: number;
  /** Maximum undelivered live messages before the watcher is cut off as too slow. The
   * replay of history read when the watch starts does not count against it. */
  bufferSize?: number;
}

/** StoreWatch is a live, ordered stream of changes. Iterate it with `for await` (once);
 * the iteration ends when the watch ends, and `endReason` then says why. Leaving a
 * `for await` loop early closes the watch. */
export interface StoreWatch<Message = WatchMessage> extends AsyncIterable<Message> {
  /** Queues a BOOKMARK at the current revision behind every change already queued.
   * Does nothing once the watch has ended. */
  requestBookmark(): void;
  /** Ends the watch with reason 'closed' and drops what is still queued. Idempotent. */
  close(): void;
  /** undefined while the watch is live; set once, at the moment it ends. */
  readonly endReason: WatchEndReason | undefined;
}

/** CreateOptions: `actor` is recorded with the change (StoreEvent.actor, history). */
export interface CreateOptions {
  actor?: StoredActor;
}

export interface WriteOptions extends CreateOptions {
  /** Compare-and-swap: fail with Conflict unless the stored object is at this revision.
   * The body's own `metadata.resourceVersion` is never used as a precondition. */
  expectedRevision?: number;
}

/** HistoryOptions select changes from the kept history, oldest first. */
export interface HistoryOptions {
  /** Only this resource; undefined = every resource. */
  resource?: string;
  /** Only this namespace ('' = cluster-scoped objects); undefined = all. */
  namespace?: string;
  /** Only objects of this name; undefined = all. */
  name?: string;
  /** Changes with revision > afterRevision (default: the oldest kept). Throws Expired when it
   * is older than the compacted revision. */
  afterRevision?: number;
  /** Changes with revision <= toRevision (default: all). */
  toRevision?: number;
  /** Stop after this many changes that pass `predicate`; undefined or <= 0 = no limit. */
  limit?: number;
  /** Filter applied while scanning, so `limit` counts matching changes only. Must not throw
   * and must not call the store. */
  predicate?: (event: StoreEvent) => boolean;
}

/** HistoryPage is what history() returns: the changes, the current revision, and whether the
 * limit cut the page short (more matching changes follow the last one). */
export interface HistoryPage {
  events: StoreEvent[];
  revision: number;
  more: boolean;
}

/** CompactionPolicy bounds the history kept for watches and snapshot reads. A change is
 * discarded only when BOTH limits allow it: it is more than `keepRevisions` behind the
 * current revision AND older than `maxAgeMs`. So at least the last `keepRevisions`
 * revisions are kept, and everything younger than `maxAgeMs`. */
export interface CompactionPolicy {
  /** Keep at least this many most recent revisions of history. */
  keepRevisions: number;
  /** Keep at least this much recent history (ms), whatever its size. */
  maxAgeMs: number;
}

/** StoreSnapshotFormatVersion is the `formatVersion` exportObjects writes and
 * restoreObjects accepts. Bump it when the shape of StoreSnapshot changes. */
export const StoreSnapshotFormatVersion = 1;

/** SnapshotEntry is one live object of a snapshot: its key and its body as stored (with the
 * resourceVersion it had when the snapshot was taken). */
export interface SnapshotEntry extends ObjectRef {
  object: StoredObject;
}

/** StoreSnapshot is every live object of a store at one revision: a plain JSON value, so it
 * can be saved to a file and restored later into the same or another store. */
export interface StoreSnapshot {
  formatVersion: typeof StoreSnapshotFormatVersion;
  /** The revision the snapshot was taken at (informational: a restore never rewinds). */
  revision: number;
  /** In (resource, namespace, name) order; keys are unique. */
  objects: SnapshotEntry[];
}

/** RestoreResult counts the writes a restore made and gives the revision after them (the
 * current revision, unchanged, when the store already equalled the snapshot). */
export interface RestoreResult {
  created: number;
  updated: number;
  deleted: number;
  revision: number;
}

/**
 * Store knows how to keep versioned objects and replay their changes.
 *
 * Guarantees: one global revision, strictly increasing with every write, never reused
 * (also across reopening a file-backed store); a write and its event commit atomically;
 * watchers receive events in revision order with no gaps or duplicates; slow watchers are
 * cut off instead of buffering without bound or blocking writers. Every object returned is
 * the caller's own (nothing the store or a watcher holds), except the read-only objects of
 * watchShared; objects passed in are never mutated.
 * Errors are StoreError with codes NotFound, AlreadyExists, Conflict, Expired, TooLarge,
 * Closed; every method except the two getters throws Closed after `close()`.
 */
export interface Store {
  /** The revision of the latest write (0 for an empty store). */
  readonly currentRevision: number;
  /** History at or below this revision has been discarded. Never decreases. */
  readonly compactedRevision: number;
  /** Changes committed and queued for watchers that have not taken them yet (settle counts a
   * cluster with changes in transit as busy). */
  readonly undeliveredEvents: number;
  /** Returns the object, or its state at `revision`; NotFound if it does not (did not) exist. */
  get(ref: ObjectRef, options?: { revision?: number }): StoredObject;
  list(options: ListOptions): ListResult;
  /** list without a predicate, as stored JSON text (see ListTextResult). */
  listText(options: Omit<ListOptions, 'predicate'>): ListTextResult;
  /** Stores a new object; AlreadyExists if the key is taken. Returns it stamped: a copy of
   * `object`'s top level and metadata that shares every other value with `object`, so the
   * caller owns both as one (the store keeps only the serialised text). */
  create(ref: ObjectRef, object: StoredObject, options?: CreateOptions): StoredObject;
  /** Replaces an existing object; NotFound or Conflict. Returns it stamped, sharing values
   * with `object` as create does. */
  update(ref: ObjectRef, object: StoredObject, options?: WriteOptions): StoredObject;
  /** Removes an object; NotFound or Conflict. Returns its last state stamped with the
   * deletion revision. */
  delete(ref: ObjectRef, options?: WriteOptions): StoredObject;
  watch(options: WatchOptions): StoreWatch;
  /** Like watch, but every watcher of a change receives one SharedStoreEvent, read-only and
   * parsed at most once: for fan-out to many consumers that only read (the API's watch
   * streams). The history stream (no `resource`) is not offered this way. */
  watchShared(options: WatchOptions & { resource: string }): StoreWatch<SharedWatchMessage>;
  /** Reads kept changes with their actors and commit times (see HistoryOptions). */
  history(options?: HistoryOptions): HistoryPage;
  /** Discards history according to the policy (merged over the store's default); returns
   * the new compacted revision. Never touches current objects, never lowers the
   * compacted revision. Watches already started keep what they have queued. */
  compact(policy?: Partial<CompactionPolicy>): number;
  /** Returns every live object, with its key, at the current revision. */
  exportObjects(): StoreSnapshot;
  /** Makes the live objects equal to the snapshot's by ordinary writes in one transaction:
   * deletes objects the snapshot lacks, creates the ones it adds, updates those whose body
   * differs (resourceVersion aside) and leaves equal ones alone. Watchers see the usual
   * ADDED/MODIFIED/DELETED events at new revisions (revisions never go back); restored
   * objects get new resourceVersions but keep every other field from the snapshot. All or
   * nothing: throws RangeError for a malformed snapshot (wrong formatVersion, bad or
   * duplicate keys) before writing, and rolls back if any write fails. `options.actor` is
   * recorded with every write it makes. */
  restoreObjects(snapshot: StoreSnapshot, options?: CreateOptions): RestoreResult;
  /** Ends every watch with 'store-closed' and releases the database. Idempotent. */
  close(): void;
}
