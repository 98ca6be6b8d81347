/**
 * HistoryReader answers Store.history straight from the `events` table: the kept changes,
 * oldest first, with their actors and commit times (docs/history.md).
 */
import type Database from 'better-sqlite3';
import type { HistoryOptions, StoreEvent } from '../types.js';
import { decodeEvent } from '../watch-hub.js';
import { type EventRow, toEncodedEvent } from './statements.js';

/** HistoryScan is a HistoryOptions whose revision bounds the store has checked. */
export interface HistoryScan extends HistoryOptions {
  afterRevision: number;
  toRevision: number;
}

/**
 * HistoryReader knows how to read changes in revision order. Contract: the caller has checked
 * that `afterRevision` is not below the compacted revision. Never writes.
 */
export class HistoryReader {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** read returns the matching changes in (afterRevision, toRevision], up to `limit`, and
   * whether more matching ones follow. */
  read(scan: HistoryScan): { events: StoreEvent[]; more: boolean } {
    const limit = scan.limit !== undefined && scan.limit > 0 ? scan.limit : undefined;
    const params = { after: scan.afterRevision, to: scan.toRevision, resource: scan.resource, namespace: scan.namespace, name: scan.name };
    const events: StoreEvent[] = [];
    for (const row of this.statement(scan).iterate(params) as Iterable<EventRow>) {
      const event = decodeEvent(toEncodedEvent(row), { withActor: true });
      if (scan.predicate && !scan.predicate(event)) continue;
      // One match past the page makes `more` exact; leaving the loop ends the iteration.
      if (events.length === limit) return { events, more: true };
      events.push(event);
    }
    return { events, more: false };
  }

  private statement(scan: HistoryScan): Database.Statement {
    const parts = ['rev > @after', 'rev <= @to'];
    if (scan.resource !== undefined) parts.push('resource = @resource');
    if (scan.namespace !== undefined) parts.push('namespace = @namespace');
    if (scan.name !== undefined) parts.push('name = @name');
    const where = parts.join(' AND ');
    let statement = this.statements.get(where);
    if (statement === undefined) {
      statement = this.db.prepare(
        `SELECT rev, resource, namespace, name, type, body, prev_body, created_ms, actor
         FROM events WHERE ${where} ORDER BY rev`,
      );
      this.statements.set(where, statement);
    }
    return statement;
  }
}
