/** prepareStatements compiles every statement once per connection. */
export function prepareStatements(db) {
    const key = 'resource = ? AND namespace = ? AND name = ?';
    const replayColumns = 'rev, namespace, name, type, body, prev_body';
    return {
        selectObject: db.prepare(`SELECT rev, body FROM objects WHERE ${key}`),
        insertObject: db.prepare('INSERT INTO objects (resource, namespace, name, rev, body) VALUES (?, ?, ?, ?, ?)'),
        updateObject: db.prepare(`UPDATE objects SET rev = ?, body = ? WHERE ${key}`),
        deleteObject: db.prepare(`DELETE FROM objects WHERE ${key}`),
        insertEvent: db.prepare(`INSERT INTO events (rev, resource, namespace, name, type, body, prev_body, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
        replay: db.prepare(`SELECT ${replayColumns} FROM events WHERE resource = ? AND rev > ? ORDER BY rev`),
        replayNamespace: db.prepare(`SELECT ${replayColumns} FROM events
       WHERE resource = ? AND namespace = ? AND rev > ? ORDER BY rev`),
        newestCompactable: db
            .prepare('SELECT rev FROM events WHERE rev <= ? AND created_ms <= ? ORDER BY rev DESC LIMIT 1')
            .pluck(),
        deleteEvents: db.prepare('DELETE FROM events WHERE rev <= ?'),
        setCompactedRevision: db.prepare("UPDATE meta SET value = ? WHERE key = 'compacted_revision'"),
        compactedRevision: db.prepare("SELECT value FROM meta WHERE key = 'compacted_revision'").pluck(),
        sequence: db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'").pluck(),
    };
}
/** toEncodedEvent turns a replayed row of `resource` into what the hub carries. */
export function toEncodedEvent(resource, row) {
    return {
        type: row.type,
        revision: row.rev,
        ref: { resource, namespace: row.namespace, name: row.name },
        body: row.body,
        prevBody: row.prev_body ?? undefined,
    };
}
//# sourceMappingURL=statements.js.map