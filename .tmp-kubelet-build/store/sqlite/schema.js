const Migrations = [
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
];
/** SchemaVersion is the user_version a fully migrated database has. */
export const SchemaVersion = Migrations.length;
/** migrate brings `db` to SchemaVersion, one transaction per step, so a crash leaves the
 * database at a whole version. Throws if the file was written by a newer kubesim, rather
 * than guess at a schema it does not know. */
export function migrate(db) {
    const version = db.pragma('user_version', { simple: true });
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
//# sourceMappingURL=schema.js.map