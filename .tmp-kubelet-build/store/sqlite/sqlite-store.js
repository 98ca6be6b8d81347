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
import Database from 'better-sqlite3';
import { StoreError } from '../errors.js';
import { WatchHub } from '../watch-hub.js';
import { ObjectReader } from './object-reader.js';
import { migrate } from './schema.js';
import { prepareStatements, toEncodedEvent } from './statements.js';
/** DefaultCompactionPolicy keeps 10 000 revisions and five minutes of history. */
export const DefaultCompactionPolicy = {
    keepRevisions: 10_000,
    maxAgeMs: 5 * 60_000,
};
/** openSqliteStore opens (creating and migrating if needed) a store at `options.path`.
 * Only one store may have a given file open: the revision counter lives in the process.
 * Throws if the file cannot be opened or has a newer schema. */
export function openSqliteStore(options = {}) {
    const path = options.path ?? ':memory:';
    const db = new Database(path);
    try {
        if (path !== ':memory:' && path !== '') {
            db.pragma('journal_mode = WAL');
            db.pragma('synchronous = NORMAL');
        }
        migrate(db);
        return new SqliteStore(db, options);
    }
    catch (err) {
        db.close();
        throw err;
    }
}
/**
 * SqliteStore implements Store (see its contract) on one better-sqlite3 connection.
 *
 * Invariants: `revision` equals the highest `events.rev` ever assigned (the AUTOINCREMENT
 * sequence), and is advanced only after a commit; `compacted` equals meta's
 * compacted_revision; every body in `objects` and `events` carries its own revision as
 * `metadata.resourceVersion`. Create it with openSqliteStore.
 */
export class SqliteStore {
    db;
    revision;
    compacted;
    isClosed = false;
    clock;
    policy;
    reader;
    hub;
    sql;
    commit;
    deleteHistory;
    constructor(db, options = {}) {
        this.db = db;
        this.clock = options.clock ?? Date.now;
        this.policy = { ...DefaultCompactionPolicy, ...definedOnly(options.compaction) };
        this.sql = prepareStatements(db);
        this.reader = new ObjectReader(db);
        this.revision = this.sql.sequence.get() ?? 0;
        this.compacted = this.sql.compactedRevision.get();
        this.hub = new WatchHub({
            currentRevision: () => this.revision,
            bufferSize: options.watchBufferSize,
        });
        this.commit = db.transaction((ref, decide) => this.write(ref, decide));
        this.deleteHistory = db.transaction((upTo) => {
            this.sql.deleteEvents.run(upTo);
            this.sql.setCompactedRevision.run(upTo);
        });
    }
    get currentRevision() {
        return this.revision;
    }
    get compactedRevision() {
        return this.compacted;
    }
    get(ref, options) {
        this.assertOpen();
        const revision = this.pastRevision(options?.revision);
        const body = this.reader.get(ref, revision);
        if (body === undefined) {
            const when = revision === undefined ? '' : ` at revision ${revision}`;
            throw new StoreError('NotFound', `${describe(ref)} not found${when}`);
        }
        return JSON.parse(body);
    }
    list(options) {
        this.assertOpen();
        const revision = this.pastRevision(options.revision);
        const page = this.reader.list(options, revision);
        return { ...page, revision: revision ?? this.revision };
    }
    create(ref, object) {
        return this.mutate(ref, (row) => {
            if (row !== undefined)
                throw new StoreError('AlreadyExists', `${describe(ref)} already exists`);
            return { type: 'ADDED', object };
        });
    }
    update(ref, object, options) {
        return this.mutate(ref, (row) => {
            checkPrecondition(ref, row, options);
            return { type: 'MODIFIED', object };
        });
    }
    delete(ref, options) {
        return this.mutate(ref, (row) => {
            const current = checkPrecondition(ref, row, options);
            return { type: 'DELETED', object: JSON.parse(current.body) };
        });
    }
    watch(options) {
        this.assertOpen();
        this.checkRevision(options.afterRevision);
        // NOTE: the read and subscribe below must stay in one synchronous block (no await):
        // that is what makes the replay and the live stream meet without gap or overlap.
        const rows = (options.namespace === undefined
            ? this.sql.replay.all(options.resource, options.afterRevision)
            : this.sql.replayNamespace.all(options.resource, options.namespace, options.afterRevision));
        const backlog = rows.map((row) => toEncodedEvent(options.resource, row));
        return this.hub.subscribe({ ...options, backlog });
    }
    /** compact discards every event up to C, the newest revision that is both more than
     * `keepRevisions` behind the current revision and older than `maxAgeMs` by the store's
     * clock (see CompactionPolicy). Nothing runs on a timer: the owner of the store (the API
     * server) calls this periodically. Returns the compacted revision, which never goes down. */
    compact(policy) {
        this.assertOpen();
        const { keepRevisions, maxAgeMs } = { ...this.policy, ...definedOnly(policy) };
        const newest = this.sql.newestCompactable.get(this.revision - keepRevisions, this.clock() - maxAgeMs);
        if (newest !== undefined && newest > this.compacted) {
            this.deleteHistory(newest);
            this.compacted = newest;
        }
        return this.compacted;
    }
    close() {
        if (this.isClosed)
            return;
        this.isClosed = true;
        this.hub.closeAll('store-closed');
        this.db.close();
    }
    mutate(ref, decide) {
        this.assertOpen();
        const event = this.commit(ref, decide);
        this.revision = event.revision;
        this.hub.publish(event);
        return JSON.parse(event.body);
    }
    // Runs inside the transaction. The revision is assigned explicitly (the sequence's next
    // value) rather than read back after the insert, so the body can carry it in one write.
    write(ref, decide) {
        const key = [ref.resource, ref.namespace, ref.name];
        const row = this.sql.selectObject.get(...key);
        const { type, object } = decide(row);
        const revision = this.revision + 1;
        const body = stamp(object, revision);
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
                throw new Error(`unknown event type ${type}`);
        }
        this.sql.insertEvent.run(revision, ...key, type, body, row?.body ?? null, this.clock());
        return { type, revision, ref: { ...ref }, body, prevBody: row?.body };
    }
    // Maps a requested read revision to the reader's argument: undefined means "current".
    pastRevision(revision) {
        if (revision === undefined)
            return undefined;
        this.checkRevision(revision);
        return revision === this.revision ? undefined : revision;
    }
    checkRevision(revision) {
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
    assertOpen() {
        if (this.isClosed)
            throw new StoreError('Closed', 'store is closed');
    }
}
// Copies the two levels it changes, so the caller's object is never mutated.
function stamp(object, revision) {
    return JSON.stringify({
        ...object,
        metadata: { ...object.metadata, resourceVersion: String(revision) },
    });
}
function checkPrecondition(ref, row, options) {
    if (row === undefined)
        throw new StoreError('NotFound', `${describe(ref)} not found`);
    const expected = options?.expectedRevision;
    if (expected !== undefined && expected !== row.rev) {
        throw new StoreError('Conflict', `${describe(ref)} is at revision ${row.rev}, not ${expected}`, row.rev);
    }
    return row;
}
function describe(ref) {
    const key = ref.namespace === '' ? ref.name : `${ref.namespace}/${ref.name}`;
    return `${ref.resource} "${key}"`;
}
// Drops keys explicitly set to undefined, so they do not erase a default when spread.
function definedOnly(partial) {
    return Object.fromEntries(Object.entries(partial ?? {}).filter(([, value]) => value !== undefined));
}
//# sourceMappingURL=sqlite-store.js.map