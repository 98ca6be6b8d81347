import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runStoreConformance } from '../testing/store-conformance.case.js';
import type { ObjectRef, Store, StoredObject } from '../types.js';
import { SchemaVersion } from './schema.js';
import { openSqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-store-'));
let fileCount = 0;
const newPath = () => join(dir, `store-${++fileCount}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

runStoreConformance('SqliteStore :memory:', () => openSqliteStore());
runStoreConformance('SqliteStore file', () => openSqliteStore({ path: newPath() }));

const pod = (name: string): ObjectRef => ({ resource: 'pods', namespace: 'default', name });
const body = (name: string, spec: Record<string, unknown> = {}): StoredObject => ({
  metadata: { name, namespace: 'default' },
  spec,
});

function writeUpdates(store: Store, name: string, count: number): void {
  store.create(pod(name), body(name, { i: 0 }));
  for (let i = 1; i < count; i++) store.update(pod(name), body(name, { i }));
}

describe('SqliteStore files', () => {
  it('reopening keeps objects and history, and the revision continues', async () => {
    const path = newPath();
    const first = openSqliteStore({ path });
    writeUpdates(first, 'web', 3);
    const before = first.get(pod('web'));
    first.close();

    const second = openSqliteStore({ path });
    try {
      expect(second.currentRevision).toBe(3);
      expect(second.get(pod('web'))).toEqual(before);
      expect(second.get(pod('web'), { revision: 1 }).spec).toEqual({ i: 0 });
      expect(second.create(pod('db'), body('db')).metadata.resourceVersion).toBe('4');
    } finally {
      second.close();
    }
  });

  it('never reuses a revision, even when all history was compacted before reopening', () => {
    const path = newPath();
    const first = openSqliteStore({ path });
    writeUpdates(first, 'web', 5);
    first.delete(pod('web'));
    expect(first.compact({ keepRevisions: 0, maxAgeMs: 0 })).toBe(6);
    first.close();

    const second = openSqliteStore({ path });
    try {
      expect(second.currentRevision).toBe(6);
      expect(second.compactedRevision).toBe(6);
      expect(second.list({ resource: 'pods' }).items).toEqual([]);
      expect(second.create(pod('web'), body('web')).metadata.resourceVersion).toBe('7');
      expect(() => second.watch({ resource: 'pods', afterRevision: 5 })).toThrow(/too old/);
    } finally {
      second.close();
    }
  });

  it('uses WAL journaling for files', () => {
    const path = newPath();
    openSqliteStore({ path }).close();
    const raw = new Database(path);
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('refuses a file written with a newer schema', () => {
    const path = newPath();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SchemaVersion + 1}`);
    raw.close();
    expect(() => openSqliteStore({ path })).toThrow(/newer than this kubesim supports/);
  });
});

describe('SqliteStore options', () => {
  it('compacts only what is both beyond keepRevisions and older than maxAgeMs', () => {
    let nowMs = 0;
    const store = openSqliteStore({ clock: () => nowMs });
    try {
      writeUpdates(store, 'old', 3);
      nowMs = 10 * 60_000;
      writeUpdates(store, 'new', 3);
      expect(store.compact({ keepRevisions: 0, maxAgeMs: 60 * 60_000 })).toBe(0);
      expect(store.compact({ keepRevisions: 5 })).toBe(1);
      expect(store.compact({ keepRevisions: 0 })).toBe(3); // default maxAgeMs: 5 minutes
      nowMs += 5 * 60_000;
      expect(store.compact({ keepRevisions: 1 })).toBe(5);
    } finally {
      store.close();
    }
  });

  it('takes the default compaction policy and watch buffer size from its options', () => {
    const store = openSqliteStore({ compaction: { keepRevisions: 2, maxAgeMs: 0 }, watchBufferSize: 2 });
    try {
      const watch = store.watch({ resource: 'pods', afterRevision: 0 });
      writeUpdates(store, 'web', 5);
      expect(watch.endReason).toBe('too-slow');
      expect(store.compact()).toBe(3);
      expect(store.compact({ keepRevisions: undefined, maxAgeMs: 60_000 })).toBe(3);
    } finally {
      store.close();
    }
  });
});

describe('SqliteStore whole-store snapshots', () => {
  // A pod-sized body (~1.5 KB of JSON), so the timing says something about real clusters.
  const podLike = (name: string, generation: number): StoredObject => ({
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web', tier: 'frontend' }, generation },
    spec: {
      containers: Array.from({ length: 2 }, (_, i) => ({
        name: `c${i}`,
        image: 'nginx:1.27',
        ports: [{ containerPort: 80 + i, protocol: 'TCP' }],
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        env: Array.from({ length: 5 }, (_, j) => ({ name: `VAR_${j}`, value: `value-${j}` })),
      })),
      nodeName: 'node-1',
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });

  it('exports and restores ~200 objects in a few milliseconds (timings printed)', () => {
    const store = openSqliteStore({ path: newPath() });
    try {
      for (let i = 0; i < 200; i++) store.create(pod(`p${i}`), podLike(`p${i}`, 1));
      const exportStart = performance.now();
      const snapshot = store.exportObjects();
      const exportMs = performance.now() - exportStart;
      for (let i = 0; i < 50; i++) store.update(pod(`p${i}`), podLike(`p${i}`, 2));
      for (let i = 180; i < 200; i++) store.delete(pod(`p${i}`));
      for (let i = 0; i < 20; i++) store.create(pod(`extra${i}`), podLike(`extra${i}`, 1));

      const restoreStart = performance.now();
      const result = store.restoreObjects(snapshot);
      const restoreMs = performance.now() - restoreStart;
      const noopStart = performance.now();
      const noop = store.restoreObjects(snapshot);
      const noopMs = performance.now() - noopStart;

      console.log(
        `snapshot of 200 objects: export ${exportMs.toFixed(2)} ms, restore (90 writes) ${restoreMs.toFixed(2)} ms, no-op restore ${noopMs.toFixed(2)} ms`,
      );
      expect(result).toMatchObject({ created: 20, updated: 50, deleted: 20 });
      expect(noop).toMatchObject({ created: 0, updated: 0, deleted: 0, revision: result.revision });
      expect(store.list({ resource: 'pods' }).items.map((o) => o.metadata.generation)).toEqual(Array(200).fill(1));
    } finally {
      store.close();
    }
  });
});
