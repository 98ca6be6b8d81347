/**
 * The SQLite schema of the store and its migrations.
 *
 * `objects` holds the current state, one row per key. `events` is the history: one row
 * per write, whose AUTOINCREMENT `rev` is the global revision (SQLite never hands out a
 * rowid at or below one it has used, even after the rows are deleted, so revisions survive
 * compaction and reopening). `prev_body` is the state before the change (NULL for ADDED);
 * it lets a watch report the old object and lets a snapshot read reconstruct the past.
 * `actor` is who made the change and why (docs/history.md), opaque JSON to the store.
 * `meta` holds single values such as the compacted revision.
 *
 * Migrations are keyed on PRAGMA user_version: entry i upgrades version i to i + 1.
 * Append new entries; never edit one that has shipped.
 */
import type Database from 'better-sqlite3';

const Migrations: readonly string[] = [
  `
  CREATE TABLE objects (
    resource  TEXT    NOT NULL,
    namespace TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    rev       INTEGER NOT NULL,
    body      TEXT    NOT NULL,
    PRIMARY KEY (resource, namespace, name)
  );
  CREATE TABLE events (
    rev        INTEGER PRIMARY KEY AUTOINCREMENT,
    resource   TEXT    NOT NULL,
    namespace  TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    type       TEXT    NOT NULL CHECK (type IN ('ADDED', 'MODIFIED', 'DELETED')),
    body       TEXT    NOT NULL,
    prev_body  TEXT,
    created_ms INTEGER NOT NULL
  );
  -- Watch replay and snapshot reads scan "changes to a resource after revision R",
  -- across all namespaces or within one; the primary key alone would scan every resource.
  CREATE INDEX events_by_resource ON events (resource, rev);
  CREATE INDEX events_by_namespace ON events (resource, namespace, rev);
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  );
  INSERT INTO meta (key, value) VALUES ('compacted_revision', 0);
  `,
  // 1 → 2: who made each change (JSON; NULL for changes written before, and for writers that
  // name no actor). Compaction drops it with the change.
  `
  ALTER TABLE events ADD COLUMN actor TEXT;
  `,
];

/** SchemaVersion is the user_version a fully migrated database has. */
export const SchemaVersion = Migrations.length;

/** migrate brings `db` to SchemaVersion, one transaction per step, so a crash leaves the
 * database at a whole version. Throws if the file was written by a newer kubesim, rather
 * than guess at a schema it does not know. */
export function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SchemaVersion) {
    throw new Error(`store schema version ${version} is newer than this kubesim supports (${SchemaVersion})`);
  }
  for (let from = version; from < SchemaVersion; from++) {
    const step = Migrations[from] ?? '';
    db.transaction(() => {
      db.exec(step);
      db.pragma(`user_version = ${from + 1}`);
    })();
  }
}
