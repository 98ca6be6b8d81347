/**
 * ObjectReader answers get and list, now or as of a past revision, straight from SQL.
 *
 * The state at revision R is reconstructed without a per-revision copy of each object:
 * a key whose `objects.rev` is <= R has not changed since R, so its current row is its
 * state at R; a key changed after R was, at R, whatever the FIRST later event replaced
 * (`prev_body`, NULL when that event created it). The two sets are disjoint, so a
 * UNION ALL of them, sorted by key, is the snapshot. It needs every event after R, which
 * is why the store refuses revisions below the compacted one before calling in here.
 */
import type Database from 'better-sqlite3';
import type { ListOptions, ListResult, ListTextResult, ObjectRef, StoredObject } from '../types.js';

/** ListPage is a ListResult before the store adds the revision it was read at. */
export type ListPage = Omit<ListResult, 'revision'>;

/** TextPage is a ListTextResult before the store adds the revision it was read at. */
export type TextPage = Omit<ListTextResult, 'revision'>;

interface ListShape {
  isSnapshot: boolean;
  isNamespaced: boolean;
  isPaged: boolean;
  isLimited: boolean;
}

interface ListParams {
  resource: string;
  namespace: string | undefined;
  revision: number | undefined;
  afterNamespace: string | undefined;
  afterName: string | undefined;
  limit: number | undefined;
}

type KeyedBody = ListTextResult['items'][number];

/**
 * ObjectReader knows how to read objects as JSON text, current or at a revision.
 *
 * Contract: `revision` undefined means current state; otherwise the caller has checked
 * that it lies within [compactedRevision, currentRevision]. Every returned object is
 * freshly parsed, so callers own it. Never writes.
 */
export class ObjectReader {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly currentBody: Database.Statement;
  private readonly firstChangeAfter: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.currentBody = db.prepare('SELECT body FROM objects WHERE resource = ? AND namespace = ? AND name = ?').pluck();
    // events_by_namespace walks the namespace in revision order; the first row with
    // this name is the first change after R.
    this.firstChangeAfter = db.prepare(
      `SELECT prev_body FROM events
       WHERE resource = ? AND namespace = ? AND name = ? AND rev > ? ORDER BY rev LIMIT 1`,
    );
  }

  /** get returns the object's JSON at `revision` (or now), or undefined if it did not exist. */
  get(ref: ObjectRef, revision: number | undefined): string | undefined {
    if (revision !== undefined) {
      const change = this.firstChangeAfter.get(ref.resource, ref.namespace, ref.name, revision) as { prev_body: string | null } | undefined;
      if (change !== undefined) return change.prev_body ?? undefined;
    }
    return this.currentBody.get(ref.resource, ref.namespace, ref.name) as string | undefined;
  }

  /** list returns one page in (namespace, name) order; see ListOptions for the fields. */
  list(options: ListOptions, revision: number | undefined): ListPage {
    const { shape, params, limit } = this.plan(options, revision);
    if (options.predicate !== undefined) {
      return this.scanFiltered(shape, params, { limit, predicate: options.predicate });
    }
    const page = this.scanAll(shape, params, limit);
    return { ...page, items: page.items.map(parse) };
  }

  /** listText is list without a predicate, returning each object's stored JSON text with its key. */
  listText(options: Omit<ListOptions, 'predicate'>, revision: number | undefined): TextPage {
    const { shape, params, limit } = this.plan(options, revision);
    return this.scanAll(shape, params, limit);
  }

  private plan(options: ListOptions, revision: number | undefined) {
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
    const shape: ListShape = {
      isSnapshot: revision !== undefined,
      isNamespaced: options.namespace !== undefined,
      isPaged: options.startAfter !== undefined,
      isLimited: limit !== undefined && options.predicate === undefined,
    };
    const params: ListParams = {
      resource: options.resource,
      namespace: options.namespace,
      revision,
      afterNamespace: options.startAfter?.namespace,
      afterName: options.startAfter?.name,
      // One row past the page tells whether more follow.
      limit: limit === undefined ? undefined : limit + 1,
    };
    return { shape, params, limit };
  }

  private scanAll(shape: ListShape, params: ListParams, limit: number | undefined): TextPage {
    const rows = this.statement(shape, 'rows').all(params) as KeyedBody[];
    if (limit === undefined || rows.length <= limit) return { items: rows, more: false };
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const remaining = this.statement({ ...shape, isPaged: true, isLimited: false }, 'count').get({
      ...params,
      afterNamespace: last?.namespace,
      afterName: last?.name,
    }) as number;
    return { items: page, more: true, remainingItemCount: remaining };
  }

  // With a predicate SQL cannot count matches, so scan in key order and stop one match
  // past the page: `more` is then exact rather than "maybe".
  private scanFiltered(shape: ListShape, params: ListParams, filter: { limit: number | undefined; predicate: (object: StoredObject) => boolean }): ListPage {
    const items: StoredObject[] = [];
    for (const row of this.statement(shape, 'rows').iterate(params) as Iterable<KeyedBody>) {
      const object = parse(row);
      if (!filter.predicate(object)) continue;
      if (items.length === filter.limit) return { items, more: true };
      items.push(object);
    }
    return { items, more: false };
  }

  private statement(shape: ListShape, mode: 'rows' | 'count'): Database.Statement {
    const key = `${mode}:${shape.isSnapshot}:${shape.isNamespaced}:${shape.isPaged}:${shape.isLimited}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(listSql(shape, mode));
      if (mode === 'count') statement.pluck();
      this.statements.set(key, statement);
    }
    return statement;
  }
}

function listSql(shape: ListShape, mode: 'rows' | 'count'): string {
  const scope = shape.isNamespaced ? 'resource = @resource AND namespace = @namespace' : 'resource = @resource';
  // MIN(rev) makes SQLite take the bare columns from the first event after R per key.
  // INDEXED BY: left alone, the planner may push a startAfter bound into the events scan
  // and walk all of a resource's history instead of only the changes after R.
  const eventsIndex = shape.isNamespaced ? 'events_by_namespace' : 'events_by_resource';
  const source = shape.isSnapshot
    ? `SELECT namespace, name, body FROM objects WHERE ${scope} AND rev <= @revision
       UNION ALL
       SELECT namespace, name, prev_body FROM (
         SELECT namespace, name, prev_body, MIN(rev) FROM events INDEXED BY ${eventsIndex}
         WHERE ${scope} AND rev > @revision GROUP BY namespace, name)
       WHERE prev_body IS NOT NULL`
    : `SELECT namespace, name, body FROM objects WHERE ${scope}`;
  const where = shape.isPaged ? 'WHERE (namespace, name) > (@afterNamespace, @afterName)' : '';
  if (mode === 'count') return `SELECT COUNT(*) FROM (${source}) ${where}`;
  const limit = shape.isLimited ? 'LIMIT @limit' : '';
  return `SELECT namespace, name, body FROM (${source}) ${where} ORDER BY namespace, name ${limit}`;
}

function parse(row: KeyedBody): StoredObject {
  return JSON.parse(row.body) as StoredObject;
}
