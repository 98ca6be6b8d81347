/**
 * The prepared statements of SqliteStore's write, watch and compaction paths, and the
 * shapes of the rows they return. Reads live in object-reader.ts.
 */
import type Database from 'better-sqlite3';
import type { StoreEventType } from '../types.js';
import type { EncodedEvent } from '../watch-hub.js';

/** ObjectRow is the part of an `objects` row a write needs. */
export interface ObjectRow {
  rev: number;
  body: string;
}

/** EventRow is an `events` row as a watch replays it (and history reads it). */
export interface EventRow {
  rev: number;
  resource: string;
  namespace: string;
  name: string;
  type: StoreEventType;
  body: string;
  prev_body: string | null;
  created_ms: number;
  actor: string | null;
}

/** prepareStatements compiles every statement once per connection. */
export function prepareStatements(db: Database.Database) {
  const key = 'resource = ? AND namespace = ? AND name = ?';
  const replayColumns = 'rev, resource, namespace, name, type, body, prev_body, created_ms, actor';
  return {
    selectObject: db.prepare(`SELECT rev, body FROM objects WHERE ${key}`),
    insertObject: db.prepare('INSERT INTO objects (resource, namespace, name, rev, body) VALUES (?, ?, ?, ?, ?)'),
    updateObject: db.prepare(`UPDATE objects SET rev = ?, body = ? WHERE ${key}`),
    deleteObject: db.prepare(`DELETE FROM objects WHERE ${key}`),
    allObjects: db.prepare('SELECT resource, namespace, name, rev, body FROM objects ORDER BY resource, namespace, name'),
    insertEvent: db.prepare(
      `INSERT INTO events (rev, resource, namespace, name, type, body, prev_body, created_ms, actor)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    replay: db.prepare(`SELECT ${replayColumns} FROM events WHERE resource = ? AND rev > ? ORDER BY rev`),
    replayAll: db.prepare(`SELECT ${replayColumns} FROM events WHERE rev > ? ORDER BY rev`),
    replayNamespace: db.prepare(
      `SELECT ${replayColumns} FROM events
       WHERE resource = ? AND namespace = ? AND rev > ? ORDER BY rev`,
    ),
    newestCompactable: db.prepare('SELECT rev FROM events WHERE rev <= ? AND created_ms <= ? ORDER BY rev DESC LIMIT 1').pluck(),
    deleteEvents: db.prepare('DELETE FROM events WHERE rev <= ?'),
    setCompactedRevision: db.prepare("UPDATE meta SET value = ? WHERE key = 'compacted_revision'"),
    compactedRevision: db.prepare("SELECT value FROM meta WHERE key = 'compacted_revision'").pluck(),
    sequence: db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck(),
  };
}

/** Statements is what prepareStatements returns. */
export type Statements = ReturnType<typeof prepareStatements>;

/** toEncodedEvent turns a replayed row into what the hub carries. */
export function toEncodedEvent(row: EventRow): EncodedEvent {
  return {
    type: row.type,
    revision: row.rev,
    ref: { resource: row.resource, namespace: row.namespace, name: row.name },
    body: row.body,
    prevBody: row.prev_body ?? undefined,
    actor: row.actor ?? undefined,
    timeMs: row.created_ms,
  };
}
