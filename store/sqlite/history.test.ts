/** Store.history, actors on writes, the every-resource watch, and the actor column's migration. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { isExpired, isTooLarge } from '../errors.js';
import type { ObjectRef, StoredObject, WatchMessage } from '../types.js';
import { openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ref = (resource: string, name: string, namespace = 'default'): ObjectRef => ({ resource, namespace, name });
const body = (name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}): StoredObject => ({ metadata: { name, labels }, spec });
const alice = { userAgent: 'kubectl/v1.32.0', user: 'alice' };
const loop = { controller: 'replicaset', key: 'default/web', reconcileId: 'r1', trigger: { kind: 'resync' } };

describe('Store.history', () => {
  it('returns every kept change oldest first, with its actor and commit time', () => {
    let nowMs = 1_000;
    const store = openSqliteStore({ clock: () => nowMs });
    store.create(ref('pods', 'a'), body('a'), { actor: alice });
    nowMs = 2_000;
    store.update(ref('pods', 'a'), body('a', { x: 1 }), { actor: loop });
    store.delete(ref('pods', 'a'), { actor: loop });
    store.create(ref('pods', 'b'), body('b'));
    const { events, revision, more } = store.history();
    expect(revision).toBe(4);
    expect(more).toBe(false);
    expect(events.map((e) => [e.revision, e.type, e.ref.name, e.actor, e.timeMs])).toEqual([
      [1, 'ADDED', 'a', alice, 1_000],
      [2, 'MODIFIED', 'a', loop, 2_000],
      [3, 'DELETED', 'a', loop, 2_000],
      [4, 'ADDED', 'b', undefined, 2_000],
    ]);
    expect(events[1]?.prevObject).toEqual({ ...body('a'), metadata: { ...body('a').metadata, resourceVersion: '1' } });
    store.close();
  });

  it('narrows by resource, namespace, name, revisions and predicate, and pages with `more`', () => {
    const store = openSqliteStore();
    store.create(ref('pods', 'a'), body('a', {}, { app: 'web' }));
    store.create(ref('pods', 'a', 'other'), body('a'));
    store.create(ref('deployments.apps', 'a'), body('a'));
    store.create(ref('pods', 'b'), body('b', {}, { app: 'web' }));
    store.update(ref('pods', 'a'), body('a', { x: 1 }, { app: 'web' }));
    const revisions = (options: Parameters<typeof store.history>[0]) => store.history(options).events.map((e) => e.revision);
    expect(revisions({ resource: 'pods', namespace: 'default', name: 'a' })).toEqual([1, 5]);
    expect(revisions({ namespace: 'other' })).toEqual([2]);
    expect(revisions({ afterRevision: 2, toRevision: 4 })).toEqual([3, 4]);
    expect(revisions({ predicate: (e) => (e.object.metadata['labels'] as Record<string, string>)['app'] === 'web' })).toEqual([1, 4, 5]);
    expect(store.history({ resource: 'pods', limit: 2 })).toMatchObject({ more: true, events: [{ revision: 1 }, { revision: 2 }] });
    expect(store.history({ resource: 'pods', limit: 4 }).more).toBe(false);
    store.close();
  });

  it('refuses history that was compacted away (Expired) and revisions not reached (TooLarge)', () => {
    const store = openSqliteStore();
    for (let i = 0; i < 5; i++) store.create(ref('pods', `p${i}`), body(`p${i}`), { actor: alice });
    store.compact({ keepRevisions: 2, maxAgeMs: 0 });
    expect(store.compactedRevision).toBe(3);
    expect(() => store.history({ afterRevision: 2 })).toThrow(expect.objectContaining({ code: 'Expired' }));
    expect(isExpired(catchError(() => store.history({ afterRevision: 2 })))).toBe(true);
    expect(isTooLarge(catchError(() => store.history({ afterRevision: 6 })))).toBe(true);
    // Compaction took the actors with their changes; the rest keep theirs.
    expect(store.history().events.map((e) => [e.revision, e.actor])).toEqual([
      [4, alice],
      [5, alice],
    ]);
    store.close();
  });
});

describe('watch of every resource', () => {
  it('replays and streams changes of all resources, with actors; per-resource watches stay as they were', async () => {
    const store = openSqliteStore();
    store.create(ref('pods', 'a'), body('a'), { actor: alice });
    const all = store.watch({ afterRevision: 0 });
    const pods = store.watch({ resource: 'pods', afterRevision: 0 });
    store.create(ref('deployments.apps', 'web'), body('web'), { actor: loop });
    const seen = await take(all, 2);
    expect(seen.map((m) => (m.type === 'BOOKMARK' ? m : [m.ref.resource, m.actor]))).toEqual([
      ['pods', alice],
      ['deployments.apps', loop],
    ]);
    const [podEvent] = await take(pods, 1);
    expect(podEvent).not.toHaveProperty('actor');
    all.close();
    pods.close();
    store.close();
  });
});

describe('actor column migration', () => {
  it('adds the column to a file written before it existed; old changes have no actor', () => {
    const path = join(dir, 'v1.db');
    const raw = new Database(path);
    raw.exec(`
      CREATE TABLE objects (resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, rev INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (resource, namespace, name));
      CREATE TABLE events (rev INTEGER PRIMARY KEY AUTOINCREMENT, resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('ADDED', 'MODIFIED', 'DELETED')), body TEXT NOT NULL, prev_body TEXT, created_ms INTEGER NOT NULL);
      CREATE INDEX events_by_resource ON events (resource, rev);
      CREATE INDEX events_by_namespace ON events (resource, namespace, rev);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT INTO meta (key, value) VALUES ('compacted_revision', 0);
      INSERT INTO objects VALUES ('pods', 'default', 'old', 1, '{"metadata":{"name":"old","resourceVersion":"1"}}');
      INSERT INTO events (rev, resource, namespace, name, type, body, prev_body, created_ms)
        VALUES (1, 'pods', 'default', 'old', 'ADDED', '{"metadata":{"name":"old","resourceVersion":"1"}}', NULL, 5);
    `);
    raw.pragma('user_version = 1');
    raw.close();
    const store = openSqliteStore({ path });
    store.update(ref('pods', 'old'), body('old', { x: 1 }), { actor: alice });
    expect(store.history().events.map((e) => [e.revision, e.actor])).toEqual([
      [1, undefined],
      [2, alice],
    ]);
    store.close();
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

async function take(watch: AsyncIterable<WatchMessage>, count: number): Promise<WatchMessage[]> {
  const out: WatchMessage[] = [];
  for await (const message of watch) {
    out.push(message);
    if (out.length === count) break;
  }
  return out;
}
