/**
 * SqliteStore is the Store on better-sqlite3: the only implementation kubesim ships, in
 * memory by default and in a file for durability. Its schema is in schema.ts, its reads
 * in object-reader.ts, its fan-out in ../watch-hub.ts.
 *
 * Every public method runs to completion synchronously. That is the whole concurrency
 * story: a write checks its precondition, commits, advances the revision and publishes
 * to the hub without another line of JavaScript running in between, so watchers see
 * revisions in order and a watch registered right after reading history misses nothing.
 */
import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DefaultCompactionPolicy, mergePolicy } from '../compaction.js';
import { StoreError } from '../errors.js';
import { checkSnapshot, type LiveObject, planRestore } from '../snapshot.js';
import type {
  CompactionPolicy,
  CreateOptions,
  HistoryOptions,
  HistoryPage,
  ListOptions,
  ListResult,
  ListTextResult,
  ObjectRef,
  SharedWatchMessage,
  Store,
  StoredActor,
  StoredObject,
  StoreEventType,
  StoreWatch,
  WatchOptions,
  WriteOptions,
} from '../types.js';
import { type RestoreResult, type StoreSnapshot, StoreSnapshotFormatVersion } from '../types.js';
import { type EncodedEvent, WatchHub } from '../watch-hub.js';
import { HistoryReader } from './history-reader.js';
import { ObjectReader } from './object-reader.js';
import { migrate } from './schema.js';
import type { Statements } from './statements.js';
import { type EventRow, type ObjectRow, prepareStatements, toEncodedEvent } from './statements.js';

/** SqliteStoreOptions configures openSqliteStore. `path` defaults to ':memory:'; a file
 * path gets WAL with synchronous=NORMAL (a crash of the machine may lose the last commits,
 * never corrupt the file). `clock` (ms) stamps events for age-based compaction.
 * `compaction` is the default policy of `compact()` (see DefaultCompactionPolicy);
 * `watchBufferSize` the default WatchOptions.bufferSize. */
export interface SqliteStoreOptions {
  path?: string;
  clock?: () => number;
  compaction?: Partial<CompactionPolicy>;
  watchBufferSize?: number;
}

export { DefaultCompactionPolicy } from '../compaction.js';

/** createPrivately makes sure a database file exists readable by its owner only (it holds
 * Secrets in clear); SQLite gives its -wal and -shm files the same permissions. An existing
 * file is narrowed too: a store from an older kubesim was created 0644. */
function createPrivately(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

/** openSqliteStore opens (creating and migrating if needed) a store at `options.path`.
 * Only one store may have a given file open: the revision counter lives in the process.
 * Throws if the file cannot be opened or has a newer schema. */
export function openSqliteStore(options: SqliteStoreOptions = {}): SqliteStore {
  const path = options.path ?? ':memory:';
  if (path !== ':memory:' && path !== '') createPrivately(path);
  const db = new Database(path);
  try {
    if (path !== ':memory:' && path !== '') {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    migrate(db);
    return new SqliteStore(db, options);
  } catch (err) {
    db.close();
    throw err;
  }
}

/** What a write decided, given the stored row: the event type and the new body
 * (for DELETED, the last state, to be stamped with the deletion revision). */
interface WriteDecision {
  type: StoreEventType;
  object: StoredObject;
  actor?: StoredActor;
}

type Decide = (row: ObjectRow | undefined) => WriteDecision;

/** What a write committed: the event to publish and the stamped object for the caller. */
interface Written {
  event: EncodedEvent;
  object: StoredObject;
}

/**
 * SqliteStore implements Store (see its contract) on one better-sqlite3 connection.
 *
 * Invariants: `revision` equals the highest `events.rev` ever assigned (the AUTOINCREMENT
 * sequence), and is advanced only after a commit; `compacted` equals meta's
 * compacted_revision; every body in `objects` and `events` carries its own revision as
 * `metadata.resourceVersion`. Create it with openSqliteStore.
 */
export class SqliteStore implements Store {
  private revision: number;
  private compacted: number;
  private isClosed = false;
  private readonly clock: () => number;
  private readonly policy: CompactionPolicy;
  private readonly reader: ObjectReader;
  private readonly historyReader: HistoryReader;
  private readonly hub: WatchHub;
  private readonly sql: Statements;
  private readonly commit: (ref: ObjectRef, decide: Decide) => Written;
  private readonly commitRestore: (snapshot: StoreSnapshot, actor: StoredActor | undefined) => EncodedEvent[];
  private readonly deleteHistory: (upTo: number) => void;

  constructor(
    private readonly db: Database.Database,
    options: SqliteStoreOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.policy = mergePolicy(DefaultCompactionPolicy, options.compaction);
    this.sql = prepareStatements(db);
    this.reader = new ObjectReader(db);
    this.historyReader = new HistoryReader(db);
    this.revision = (this.sql.sequence.get() as number | undefined) ?? 0;
    this.compacted = this.sql.compactedRevision.get() as number;
    this.hub = new WatchHub({
      currentRevision: () => this.revision,
      bufferSize: options.watchBufferSize,
    });
    this.commit = db.transaction((ref: ObjectRef, decide: Decide) => this.write(ref, decide));
    this.commitRestore = db.transaction((snapshot: StoreSnapshot, actor: StoredActor | undefined) => {
      const writes = planRestore(this.sql.allObjects.all() as LiveObject[], snapshot, (object, revision) => JSON.stringify(stamp(object, revision)));
      return writes.map((w, i) => this.write(w.ref, () => ({ ...w, actor }), this.revision + 1 + i).event);
    });
    this.deleteHistory = db.transaction((upTo: number) => {
      this.sql.deleteEvents.run(upTo);
      this.sql.setCompactedRevision.run(upTo);
    });
  }

  get currentRevision(): number {
    return this.revision;
  }

  get compactedRevision(): number {
    return this.compacted;
  }

  get undeliveredEvents(): number {
    return this.hub.undelivered;
  }

  get(ref: ObjectRef, options?: { revision?: number }): StoredObject {
    this.assertOpen();
    const revision = this.pastRevision(options?.revision);
    const body = this.reader.get(ref, revision);
    if (body === undefined) {
      const when = revision === undefined ? '' : ` at revision ${revision}`;
      throw new StoreError('NotFound', `${describe(ref)} not found${when}`);
    }
    return JSON.parse(body) as StoredObject;
  }

  list(options: ListOptions): ListResult {
    this.assertOpen();
    const revision = this.pastRevision(options.revision);
    const page = this.reader.list(options, revision);
    return { ...page, revision: revision ?? this.revision };
  }

  listText(options: Omit<ListOptions, 'predicate'>): ListTextResult {
    this.assertOpen();
    const revision = this.pastRevision(options.revision);
    const page = this.reader.listText(options, revision);
    return { ...page, revision: revision ?? this.revision };
  }

  create(ref: ObjectRef, object: StoredObject, options?: CreateOptions): StoredObject {
    return this.mutate(ref, (row) => {
      if (row !== undefined) throw new StoreError('AlreadyExists', `${describe(ref)} already exists`);
      return { type: 'ADDED', object, actor: options?.actor };
    });
  }

  update(ref: ObjectRef, object: StoredObject, options?: WriteOptions): StoredObject {
    return this.mutate(ref, (row) => {
      checkPrecondition(ref, row, options);
      return { type: 'MODIFIED', object, actor: options?.actor };
    });
  }

  delete(ref: ObjectRef, options?: WriteOptions): StoredObject {
    return this.mutate(ref, (row) => {
      const current = checkPrecondition(ref, row, options);
      return { type: 'DELETED', object: JSON.parse(current.body) as StoredObject, actor: options?.actor };
    });
  }

  watch(options: WatchOptions): StoreWatch {
    // NOTE: the read and subscribe must stay in one synchronous block (no await): that is
    // what makes the replay and the live stream meet without gap or overlap.
    const backlog = this.replay(options);
    return this.hub.subscribe({ ...options, backlog });
  }

  watchShared(options: WatchOptions & { resource: string }): StoreWatch<SharedWatchMessage> {
    const backlog = this.replay(options);
    return this.hub.subscribeShared({ ...options, backlog });
  }

  history(options: HistoryOptions = {}): HistoryPage {
    this.assertOpen();
    const afterRevision = options.afterRevision ?? this.compacted;
    this.checkRevision(afterRevision);
    const toRevision = Math.min(options.toRevision ?? this.revision, this.revision);
    const page = this.historyReader.read({ ...options, afterRevision, toRevision });
    return { ...page, revision: this.revision };
  }

  /** compact discards every event up to C, the newest revision that is both more than
   * `keepRevisions` behind the current revision and older than `maxAgeMs` by the store's
   * clock (see CompactionPolicy). Nothing runs on a timer: the owner of the store (the API
   * server) calls this periodically. Returns the compacted revision, which never goes down. */
  compact(policy?: Partial<CompactionPolicy>): number {
    this.assertOpen();
    const { keepRevisions, maxAgeMs } = mergePolicy(this.policy, policy);
    const newest = this.sql.newestCompactable.get(this.revision - keepRevisions, this.clock() - maxAgeMs) as number | undefined;
    if (newest !== undefined && newest > this.compacted) {
      this.deleteHistory(newest);
      this.compacted = newest;
    }
    return this.compacted;
  }

  exportObjects(): StoreSnapshot {
    this.assertOpen();
    const rows = this.sql.allObjects.all() as LiveObject[];
    return {
      formatVersion: StoreSnapshotFormatVersion,
      revision: this.revision,
      objects: rows.map(({ resource, namespace, name, body }) => ({
        resource,
        namespace,
        name,
        object: JSON.parse(body) as StoredObject,
      })),
    };
  }

  restoreObjects(snapshot: StoreSnapshot, options?: CreateOptions): RestoreResult {
    this.assertOpen();
    checkSnapshot(snapshot);
    // Nothing is published until the whole restore committed: a failed write rolls all back.
    const events = this.commitRestore(snapshot, options?.actor);
    const counts = { ADDED: 0, MODIFIED: 0, DELETED: 0 };
    for (const event of events) {
      this.revision = event.revision;
      this.hub.publish(event);
      counts[event.type]++;
    }
    return { created: counts.ADDED, updated: counts.MODIFIED, deleted: counts.DELETED, revision: this.revision };
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.hub.closeAll('store-closed');
    this.db.close();
  }

  private mutate(ref: ObjectRef, decide: Decide): StoredObject {
    this.assertOpen();
    const { event, object } = this.commit(ref, decide);
    this.revision = event.revision;
    this.hub.publish(event);
    return object;
  }

  // Runs inside the transaction. The revision is assigned explicitly (the sequence's next
  // value) rather than read back after the insert, so the body can carry it in one write;
  // a restore passes the next one for each of its writes.
  // The stamped object is returned beside the event: it is the caller's, as the body is
  // serialised from it and nothing else holds it, so no parse is needed to hand one back.
  private write(ref: ObjectRef, decide: Decide, revision = this.revision + 1): Written {
    const key = [ref.resource, ref.namespace, ref.name] as const;
    const row = this.sql.selectObject.get(...key) as ObjectRow | undefined;
    const { type, object: unstamped, actor } = decide(row);
    const object = stamp(unstamped, revision);
    const body = JSON.stringify(object);
    switch (type) {
      case 'ADDED':
        this.sql.insertObject.run(...key, revision, body);
        break;
      case 'MODIFIED':
        this.sql.updateObject.run(revision, body, ...key);
        break;
      case 'DELETED':
        this.sql.deleteObject.run(...key);
        break;
      default:
        throw new Error(`unknown event type ${type satisfies never}`);
    }
    const timeMs = this.clock();
    const actorJson = actor === undefined ? undefined : JSON.stringify(actor);
    this.sql.insertEvent.run(revision, ...key, type, body, row?.body ?? null, timeMs, actorJson ?? null);
    return { event: { type, revision, ref: { ...ref }, body, prevBody: row?.body, actor: actorJson, timeMs }, object };
  }

  // The kept changes a new watch replays before its live events.
  private replay(options: WatchOptions): EncodedEvent[] {
    this.assertOpen();
    this.checkRevision(options.afterRevision);
    const rows = (
      options.resource === undefined
        ? this.sql.replayAll.all(options.afterRevision)
        : options.namespace === undefined
          ? this.sql.replay.all(options.resource, options.afterRevision)
          : this.sql.replayNamespace.all(options.resource, options.namespace, options.afterRevision)
    ) as EventRow[];
    return rows.map(toEncodedEvent);
  }

  // Maps a requested read revision to the reader's argument: undefined means "current".
  private pastRevision(revision: number | undefined): number | undefined {
    if (revision === undefined) return undefined;
    this.checkRevision(revision);
    return revision === this.revision ? undefined : revision;
  }

  private checkRevision(revision: number): void {
    if (!Number.isSafeInteger(revision) || revision < 0) {
      throw new RangeError(`revision must be a non-negative integer, got ${revision}`);
    }
    if (revision < this.compacted) {
      throw new StoreError('Expired', `too old resource version: ${revision} (${this.compacted})`, this.revision);
    }
    if (revision > this.revision) {
      throw new StoreError('TooLarge', `too large resource version: ${revision}, current: ${this.revision}`, this.revision);
    }
  }

  private assertOpen(): void {
    if (this.isClosed) throw new StoreError('Closed', 'store is closed');
  }
}

// Copies the two levels it changes, so the caller's object is never mutated.
function stamp(object: StoredObject, revision: number): StoredObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
}

function checkPrecondition(ref: ObjectRef, row: ObjectRow | undefined, options: WriteOptions | undefined): ObjectRow {
  if (row === undefined) throw new StoreError('NotFound', `${describe(ref)} not found`);
  const expected = options?.expectedRevision;
  if (expected !== undefined && expected !== row.rev) {
    throw new StoreError('Conflict', `${describe(ref)} is at revision ${row.rev}, not ${expected}`, row.rev);
  }
  return row;
}

function describe(ref: ObjectRef): string {
  const key = ref.namespace === '' ? ref.name : `${ref.namespace}/${ref.name}`;
  return `${ref.resource} "${key}"`;
}
