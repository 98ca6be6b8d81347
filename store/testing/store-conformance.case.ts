/**
 * runStoreConformance is the behaviour every Store must show, as one vitest suite. Each
 * implementation's test file calls it with a factory; the factory must return a new,
 * empty store on every call (the suite closes it after each test).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConflict, StoreError, type StoreErrorCode } from '../errors.js';
import type { ObjectRef, SharedStoreEvent, SnapshotEntry, Store, StoredObject, StoreEvent, StoreWatch, WatchMessage } from '../types.js';

/** runStoreConformance registers the shared Store suite under `name`. */
export function runStoreConformance(name: string, makeStore: () => Store | Promise<Store>): void {
  describe(`Store conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(() => store.close());

    describe('create, get, update, delete', () => defineCrudCases(() => store));
    describe('list', () => defineListCases(() => store));
    describe('snapshot reads', () => defineSnapshotCases(() => store));
    describe('watch', () => defineWatchCases(() => store));
    describe('watch lifecycle', () => defineWatchLifecycleCases(() => store));
    describe('compaction', () => defineCompactionCases(() => store));
    describe('whole-store snapshots', () => defineWholeSnapshotCases(() => store));
  });
}

const pod = (namespace: string, name: string): ObjectRef => ({ resource: 'pods', namespace, name });
const configMap = (namespace: string, name: string): ObjectRef => ({
  resource: 'configmaps',
  namespace,
  name,
});

function body(ref: ObjectRef, spec: Record<string, unknown> = {}): StoredObject {
  return { metadata: { name: ref.name, namespace: ref.namespace }, spec };
}

function revisionOf(object: StoredObject): number {
  return Number(object.metadata.resourceVersion);
}

function expectStoreError(action: () => unknown, code: StoreErrorCode): StoreError {
  let caught: unknown;
  try {
    action();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(StoreError);
  expect((caught as StoreError).code).toBe(code);
  return caught as StoreError;
}

const iterators = new WeakMap<StoreWatch, AsyncIterator<WatchMessage>>();

// A watch is iterated once; tests pull from it piecemeal, so keep its one iterator.
function iteratorOf(watch: StoreWatch): AsyncIterator<WatchMessage> {
  let iterator = iterators.get(watch);
  if (iterator === undefined) {
    iterator = watch[Symbol.asyncIterator]();
    iterators.set(watch, iterator);
  }
  return iterator;
}

/** take pulls up to `count` messages, stopping early if the watch ends, and fails fast
 * rather than hanging until the test timeout. */
async function take(watch: StoreWatch, count: number): Promise<WatchMessage[]> {
  const messages: WatchMessage[] = [];
  while (messages.length < count) {
    const result = await withTimeout(iteratorOf(watch).next(), 2_000);
    if (result.done === true) break;
    messages.push(result.value);
  }
  return messages;
}

/** takeUntilBookmark proves a watch holds exactly these events: a bookmark is queued
 * behind everything already queued, so whatever precedes it is the whole backlog. */
async function takeUntilBookmark(watch: StoreWatch): Promise<StoreEvent[]> {
  watch.requestBookmark();
  const events: StoreEvent[] = [];
  for (;;) {
    const [message] = await take(watch, 1);
    if (message === undefined) throw new Error(`watch ended (${watch.endReason})`);
    if (message.type === 'BOOKMARK') return events;
    events.push(message);
  }
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no watch message in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const summary = (event: StoreEvent) => `${event.type} ${event.ref.resource}/${event.ref.namespace}/${event.ref.name}@${event.revision}`;

function defineCrudCases(getStore: () => Store): void {
  it('create stamps the new revision; get and list return the stored object', () => {
    const store = getStore();
    const input = body(pod('default', 'web'), { image: 'nginx' });
    const created = store.create(pod('default', 'web'), input);
    expect(created.metadata.resourceVersion).toBe(String(store.currentRevision));
    expect(input.metadata.resourceVersion).toBeUndefined();
    expect(store.get(pod('default', 'web'))).toEqual(created);
    expect(store.list({ resource: 'pods' }).items).toEqual([created]);
  });

  it('create of an existing key fails with AlreadyExists and writes nothing', () => {
    const store = getStore();
    store.create(pod('default', 'web'), body(pod('default', 'web')));
    const revision = store.currentRevision;
    expectStoreError(() => store.create(pod('default', 'web'), body(pod('default', 'web'))), 'AlreadyExists');
    expect(store.currentRevision).toBe(revision);
  });

  it('update replaces the object, with or without expectedRevision', () => {
    const store = getStore();
    const v1 = store.create(pod('default', 'web'), body(pod('default', 'web'), { n: 1 }));
    const v2 = store.update(pod('default', 'web'), body(pod('default', 'web'), { n: 2 }));
    const v3 = store.update(pod('default', 'web'), body(pod('default', 'web'), { n: 3 }), {
      expectedRevision: revisionOf(v2),
    });
    expect(revisionOf(v2)).toBeGreaterThan(revisionOf(v1));
    expect(revisionOf(v3)).toBeGreaterThan(revisionOf(v2));
    expect(store.get(pod('default', 'web'))).toEqual(v3);
    expect(v3.spec).toEqual({ n: 3 });
  });

  it('a stale expectedRevision fails with Conflict, reports the stored revision, writes nothing', () => {
    const store = getStore();
    const v1 = store.create(pod('default', 'web'), body(pod('default', 'web'), { n: 1 }));
    const v2 = store.update(pod('default', 'web'), body(pod('default', 'web'), { n: 2 }));
    const stale = { expectedRevision: revisionOf(v1) };
    const err = expectStoreError(() => store.update(pod('default', 'web'), body(pod('default', 'web')), stale), 'Conflict');
    expect(err.currentRevision).toBe(revisionOf(v2));
    expectStoreError(() => store.delete(pod('default', 'web'), stale), 'Conflict');
    expect(store.get(pod('default', 'web'))).toEqual(v2);
    expect(store.currentRevision).toBe(revisionOf(v2));
  });

  it('get, update and delete of a missing object fail with NotFound', () => {
    const store = getStore();
    expectStoreError(() => store.get(pod('default', 'nope')), 'NotFound');
    expectStoreError(() => store.update(pod('default', 'nope'), body(pod('default', 'nope'))), 'NotFound');
    expectStoreError(() => store.delete(pod('default', 'nope')), 'NotFound');
    expect(store.currentRevision).toBe(0);
  });

  it('delete returns the last state stamped with the deletion revision', () => {
    const store = getStore();
    const created = store.create(pod('default', 'web'), body(pod('default', 'web'), { n: 1 }));
    const deleted = store.delete(pod('default', 'web'), { expectedRevision: revisionOf(created) });
    const stamped = { ...created.metadata, resourceVersion: String(store.currentRevision) };
    expect(deleted).toEqual({ ...created, metadata: stamped });
    expect(revisionOf(deleted)).toBeGreaterThan(revisionOf(created));
    expectStoreError(() => store.get(pod('default', 'web')), 'NotFound');
  });

  it('revisions increase strictly across resources, namespaces and re-creation', () => {
    const store = getStore();
    const revisions = [
      store.create(pod('a', 'x'), body(pod('a', 'x'))),
      store.create(configMap('a', 'x'), body(configMap('a', 'x'))),
      store.create(pod('b', 'x'), body(pod('b', 'x'))),
      store.update(pod('a', 'x'), body(pod('a', 'x'))),
      store.delete(pod('a', 'x')),
      store.create(pod('a', 'x'), body(pod('a', 'x'))),
    ].map(revisionOf);
    expect(revisions).toEqual([...new Set(revisions)].sort((a, b) => a - b));
    expect(store.currentRevision).toBe(revisions.at(-1));
  });

  it('returned objects are copies the caller owns', () => {
    const store = getStore();
    const created = store.create(pod('default', 'web'), body(pod('default', 'web'), { n: 1 }));
    const pristine = structuredClone(created);
    created.spec = 'changed';
    store.get(pod('default', 'web')).spec = 'changed';
    const listed = store.list({ resource: 'pods' }).items[0];
    if (listed !== undefined) listed.metadata.name = 'changed';
    expect(store.get(pod('default', 'web'))).toEqual(pristine);
  });

  it('concurrent read-modify-write loops lose no update when they retry on Conflict', async () => {
    const store = getStore();
    store.create(pod('default', 'counter'), body(pod('default', 'counter'), { n: 0 }));
    const increment = async () => {
      for (;;) {
        const current = store.get(pod('default', 'counter'));
        await Promise.resolve();
        const spec = current.spec as { n: number };
        try {
          store.update(
            pod('default', 'counter'),
            { ...current, spec: { n: spec.n + 1 } },
            {
              expectedRevision: revisionOf(current),
            },
          );
          return;
        } catch (err) {
          if (!isConflict(err)) throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: 20 }, () => Promise.all([increment(), increment()])));
    expect(store.get(pod('default', 'counter')).spec).toEqual({ n: 40 });
  });
}

function defineListCases(getStore: () => Store): void {
  const seed = (store: Store) => {
    const entries = [
      ['b', 'p2'],
      ['a', 'p3'],
      ['b', 'p1'],
      ['a', 'p1'],
      ['', 'p0'],
    ] as const;
    for (const [namespace, name] of entries) {
      store.create(pod(namespace, name), body(pod(namespace, name), { n: name }));
    }
    store.create(configMap('a', 'p1'), body(configMap('a', 'p1')));
  };
  const keys = (items: StoredObject[]) => items.map((o) => `${String(o.metadata.namespace)}/${String(o.metadata.name)}`);

  it('filters by namespace; undefined means every namespace, and resources stay apart', () => {
    const store = getStore();
    seed(store);
    expect(keys(store.list({ resource: 'pods' }).items)).toEqual(['/p0', 'a/p1', 'a/p3', 'b/p1', 'b/p2']);
    expect(keys(store.list({ resource: 'pods', namespace: 'a' }).items)).toEqual(['a/p1', 'a/p3']);
    expect(keys(store.list({ resource: 'pods', namespace: '' }).items)).toEqual(['/p0']);
    expect(keys(store.list({ resource: 'configmaps' }).items)).toEqual(['a/p1']);
    const empty = { items: [], revision: store.currentRevision, more: false };
    expect(store.list({ resource: 'nodes' })).toEqual(empty);
  });

  it('pages with startAfter and limit, reporting more and remainingItemCount', () => {
    const store = getStore();
    seed(store);
    const page1 = store.list({ resource: 'pods', limit: 2 });
    expect([keys(page1.items), page1.more, page1.remainingItemCount]).toEqual([['/p0', 'a/p1'], true, 3]);
    const page2 = store.list({ resource: 'pods', limit: 2, startAfter: { namespace: 'a', name: 'p1' } });
    expect([keys(page2.items), page2.more, page2.remainingItemCount]).toEqual([['a/p3', 'b/p1'], true, 1]);
    const page3 = store.list({ resource: 'pods', limit: 2, startAfter: { namespace: 'b', name: 'p1' } });
    expect([keys(page3.items), page3.more, page3.remainingItemCount]).toEqual([['b/p2'], false, undefined]);
    const exact = store.list({ resource: 'pods', namespace: 'a', limit: 2 });
    expect([keys(exact.items), exact.more]).toEqual([['a/p1', 'a/p3'], false]);
    expect(store.list({ resource: 'pods', limit: 0 }).items).toHaveLength(5);
    expect(page1.revision).toBe(store.currentRevision);
  });

  it('limit counts only objects that pass the predicate', () => {
    const store = getStore();
    seed(store);
    const predicate = (o: StoredObject) => o.metadata.name === 'p1' || o.metadata.name === 'p2';
    const page1 = store.list({ resource: 'pods', limit: 2, predicate });
    expect([keys(page1.items), page1.more, page1.remainingItemCount]).toEqual([['a/p1', 'b/p1'], true, undefined]);
    const startAfter = { namespace: 'b', name: 'p1' };
    const page2 = store.list({ resource: 'pods', limit: 2, predicate, startAfter });
    expect([keys(page2.items), page2.more]).toEqual([['b/p2'], false]);
  });
}

function defineSnapshotCases(getStore: () => Store): void {
  it('list and get at a past revision see the state as of that revision', () => {
    const store = getStore();
    const a1 = store.create(pod('ns', 'a'), body(pod('ns', 'a'), { v: 1 }));
    const b1 = store.create(pod('ns', 'b'), body(pod('ns', 'b')));
    const d1 = store.create(pod('ns', 'd'), body(pod('ns', 'd'), { v: 1 }));
    const past = store.currentRevision;
    store.update(pod('ns', 'a'), body(pod('ns', 'a'), { v: 2 }));
    store.update(pod('ns', 'a'), body(pod('ns', 'a'), { v: 3 }));
    store.delete(pod('ns', 'b'));
    store.create(pod('ns', 'c'), body(pod('ns', 'c')));
    store.delete(pod('ns', 'd'));
    store.create(pod('ns', 'd'), body(pod('ns', 'd'), { v: 2 }));
    store.create(configMap('ns', 'a'), body(configMap('ns', 'a')));

    expect(store.list({ resource: 'pods', revision: past })).toEqual({
      items: [a1, b1, d1],
      revision: past,
      more: false,
    });
    expect(store.get(pod('ns', 'a'), { revision: past })).toEqual(a1);
    expect(store.get(pod('ns', 'b'), { revision: past })).toEqual(b1);
    expectStoreError(() => store.get(pod('ns', 'c'), { revision: past }), 'NotFound');
    expectStoreError(() => store.get(configMap('ns', 'a'), { revision: past }), 'NotFound');
    const now = store.list({ resource: 'pods', revision: store.currentRevision });
    expect(now).toEqual(store.list({ resource: 'pods' }));
  });

  it('snapshot lists filter by namespace and page like current ones', () => {
    const store = getStore();
    const objects = ['a', 'b', 'c', 'd'].map((name) => store.create(pod('ns', name), body(pod('ns', name))));
    store.create(pod('other', 'a'), body(pod('other', 'a')));
    const past = store.currentRevision;
    store.delete(pod('ns', 'b'));
    store.update(pod('ns', 'c'), body(pod('ns', 'c'), { changed: true }));
    const startAfter = { namespace: 'ns', name: 'a' };
    const page = store.list({ resource: 'pods', namespace: 'ns', revision: past, limit: 2, startAfter });
    expect(page).toEqual({ items: objects.slice(1, 3), revision: past, more: true, remainingItemCount: 1 });
  });

  it('revisions above the current one fail with TooLarge', () => {
    const store = getStore();
    store.create(pod('ns', 'a'), body(pod('ns', 'a')));
    const future = store.currentRevision + 1;
    expectStoreError(() => store.list({ resource: 'pods', revision: future }), 'TooLarge');
    expectStoreError(() => store.get(pod('ns', 'a'), { revision: future }), 'TooLarge');
    expectStoreError(() => store.watch({ resource: 'pods', afterRevision: future }), 'TooLarge');
  });
}

function defineWatchCases(getStore: () => Store): void {
  it('replays exactly the changes after afterRevision, in order, filtered', async () => {
    const store = getStore();
    store.create(pod('a', 'before'), body(pod('a', 'before')));
    const after = store.currentRevision;
    store.create(pod('a', 'x'), body(pod('a', 'x')));
    store.create(pod('b', 'x'), body(pod('b', 'x')));
    store.create(configMap('a', 'x'), body(configMap('a', 'x')));
    store.update(pod('a', 'x'), body(pod('a', 'x')));
    store.delete(pod('a', 'before'));
    const watch = store.watch({ resource: 'pods', namespace: 'a', afterRevision: after });
    expect((await takeUntilBookmark(watch)).map(summary)).toEqual([
      `ADDED pods/a/x@${after + 1}`,
      `MODIFIED pods/a/x@${after + 4}`,
      `DELETED pods/a/before@${after + 5}`,
    ]);
    const all = store.watch({ resource: 'pods', afterRevision: after + 1 });
    expect((await takeUntilBookmark(all)).map((e) => e.revision)).toEqual([after + 2, after + 4, after + 5]);
  });

  it('delivers live changes after the replay, still filtered', async () => {
    const store = getStore();
    store.create(pod('a', 'old'), body(pod('a', 'old')));
    const watch = store.watch({ resource: 'pods', namespace: 'a', afterRevision: 0 });
    store.create(pod('b', 'live'), body(pod('b', 'live')));
    store.create(configMap('a', 'live'), body(configMap('a', 'live')));
    const pending = take(watch, 2);
    store.create(pod('a', 'live'), body(pod('a', 'live')));
    const events = (await pending) as StoreEvent[];
    expect(events.map(summary)).toEqual(['ADDED pods/a/old@1', 'ADDED pods/a/live@4']);
  });

  it('MODIFIED and DELETED carry prevObject; DELETED carries the deletion revision', async () => {
    const store = getStore();
    const watch = store.watch({ resource: 'pods', afterRevision: 0 });
    const v1 = store.create(pod('a', 'x'), body(pod('a', 'x'), { v: 1 }));
    const v2 = store.update(pod('a', 'x'), body(pod('a', 'x'), { v: 2 }));
    const gone = store.delete(pod('a', 'x'));
    const [added, modified, deleted] = (await take(watch, 3)) as StoreEvent[];
    const ref = pod('a', 'x');
    expect(added).toEqual({ type: 'ADDED', revision: revisionOf(v1), ref, object: v1 });
    expect(modified).toEqual({
      type: 'MODIFIED',
      revision: revisionOf(v2),
      ref,
      object: v2,
      prevObject: v1,
    });
    expect(deleted).toEqual({
      type: 'DELETED',
      revision: revisionOf(gone),
      ref,
      object: gone,
      prevObject: v2,
    });
    expect(gone.metadata.resourceVersion).toBe(String(store.currentRevision));
  });

  it('a bookmark arrives behind the events already queued, at the current revision', async () => {
    const store = getStore();
    const watch = store.watch({ resource: 'pods', afterRevision: 0 });
    store.create(pod('a', 'x'), body(pod('a', 'x')));
    store.create(configMap('a', 'x'), body(configMap('a', 'x')));
    watch.requestBookmark();
    store.create(pod('a', 'y'), body(pod('a', 'y')));
    const messages = await take(watch, 3);
    expect(messages.map((m) => `${m.type}@${m.revision}`)).toEqual(['ADDED@1', 'BOOKMARK@2', 'ADDED@3']);
  });

  it('each watcher gets its own copy of an event', async () => {
    const store = getStore();
    const first = store.watch({ resource: 'pods', afterRevision: 0 });
    const second = store.watch({ resource: 'pods', afterRevision: 0 });
    const created = store.create(pod('a', 'x'), body(pod('a', 'x')));
    const [mine] = (await take(first, 1)) as StoreEvent[];
    if (mine !== undefined) mine.object.metadata.name = 'changed';
    const [theirs] = (await take(second, 1)) as StoreEvent[];
    expect(theirs?.object).toEqual(created);
    expect(store.get(pod('a', 'x'))).toEqual(created);
  });

  it('shared watchers of a change all receive one read-only event, in their namespace only', async () => {
    const store = getStore();
    const first = store.watchShared({ resource: 'pods', afterRevision: 0 })[Symbol.asyncIterator]();
    const second = store.watchShared({ resource: 'pods', afterRevision: 0 })[Symbol.asyncIterator]();
    const other = store.watchShared({ resource: 'pods', namespace: 'b', afterRevision: 0 });
    const created = store.create(pod('a', 'x'), body(pod('a', 'x')));
    const updated = store.update(pod('a', 'x'), body(pod('a', 'x'), { image: 'v2' }));
    const [mine, theirs] = [(await first.next()).value, (await second.next()).value] as SharedStoreEvent[];
    expect(mine).toBe(theirs);
    expect([mine?.type, mine?.revision, mine?.object, mine?.prevObject]).toEqual(['ADDED', 1, created, undefined]);
    expect(JSON.parse(mine?.body ?? '')).toEqual(created);
    expect(() => {
      if (mine) mine.object.metadata.name = 'changed';
    }).toThrow(TypeError);
    const change = (await first.next()).value as SharedStoreEvent;
    expect([change.type, change.object, change.prevObject]).toEqual(['MODIFIED', updated, created]);
    other.requestBookmark();
    expect((await other[Symbol.asyncIterator]().next()).value?.type).toBe('BOOKMARK');
  });

  it("objects returned by writes are the caller's own: changing one changes nothing stored or watched", async () => {
    const store = getStore();
    const watch = store.watch({ resource: 'pods', afterRevision: 0 });
    const created = store.create(pod('a', 'x'), body(pod('a', 'x'), { image: 'v1' }));
    (created['spec'] as Record<string, unknown>)['image'] = 'changed';
    created.metadata.name = 'changed';
    const [event] = (await take(watch, 1)) as StoreEvent[];
    expect(event?.object).toEqual({ metadata: { name: 'x', namespace: 'a', resourceVersion: '1' }, spec: { image: 'v1' } });
    expect(store.get(pod('a', 'x'))['spec']).toEqual({ image: 'v1' });
  });

  it('interleaved writes from many async tasks arrive in revision order, once each', async () => {
    const store = getStore();
    const watch = store.watch({ resource: 'pods', afterRevision: 0 });
    const writer = async (task: number) => {
      for (let i = 0; i < 10; i++) {
        const ref = pod(`ns${task % 3}`, `t${task}`);
        if (i === 0) store.create(ref, body(ref, { i }));
        else store.update(ref, body(ref, { i }));
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, task) => writer(task)));
    const events = await takeUntilBookmark(watch);
    expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(events.every((e) => e.object.metadata.resourceVersion === String(e.revision))).toBe(true);
  });
}

function defineWatchLifecycleCases(getStore: () => Store): void {
  it('close() ends the iteration with endReason closed; so does leaving for-await', async () => {
    const store = getStore();
    const watch = store.watch({ resource: 'pods', afterRevision: 0 });
    expect(watch.endReason).toBeUndefined();
    const pending = take(watch, 1);
    watch.close();
    expect(await pending).toEqual([]);
    expect(watch.endReason).toBe('closed');
    store.create(pod('a', 'x'), body(pod('a', 'x')));
    const looped = store.watch({ resource: 'pods', afterRevision: 0 });
    for await (const message of looped) {
      expect(message.type).toBe('ADDED');
      break;
    }
    expect(looped.endReason).toBe('closed');
  });

  it('a watcher that does not read is cut off as too-slow; writers and others go on', async () => {
    const store = getStore();
    const slow = store.watch({ resource: 'pods', afterRevision: 0, bufferSize: 3 });
    const healthy = store.watch({ resource: 'pods', afterRevision: 0 });
    for (let i = 0; i < 50; i++) store.create(pod('a', `p${i}`), body(pod('a', `p${i}`)));
    expect(store.currentRevision).toBe(50);
    expect(slow.endReason).toBe('too-slow');
    expect(await take(slow, 1)).toEqual([]);
    expect(await takeUntilBookmark(healthy)).toHaveLength(50);
  });

  it('the replay at the start of a watch does not count against bufferSize', async () => {
    const store = getStore();
    for (let i = 0; i < 10; i++) store.create(pod('a', `p${i}`), body(pod('a', `p${i}`)));
    const watch = store.watch({ resource: 'pods', afterRevision: 0, bufferSize: 2 });
    store.create(pod('a', 'live'), body(pod('a', 'live')));
    expect(await take(watch, 11)).toHaveLength(11);
    expect(watch.endReason).toBeUndefined();
    for (let i = 0; i < 3; i++) store.create(pod('a', `unread${i}`), body(pod('a', `unread${i}`)));
    expect(watch.endReason).toBe('too-slow');
  });

  it('closing the store ends watches with store-closed; later calls fail with Closed', async () => {
    const store = getStore();
    store.create(pod('a', 'x'), body(pod('a', 'x')));
    const watch = store.watch({ resource: 'pods', afterRevision: 0 });
    const pending = take(store.watch({ resource: 'pods', afterRevision: 1 }), 1);
    store.close();
    expect(await pending).toEqual([]);
    expect(watch.endReason).toBe('store-closed');
    expectStoreError(() => store.get(pod('a', 'x')), 'Closed');
    expectStoreError(() => store.create(pod('a', 'y'), body(pod('a', 'y'))), 'Closed');
    expectStoreError(() => store.watch({ resource: 'pods', afterRevision: 0 }), 'Closed');
    store.close();
  });
}

function defineCompactionCases(getStore: () => Store): void {
  const writeTen = (store: Store) => {
    store.create(pod('a', 'x'), body(pod('a', 'x'), { i: 0 }));
    for (let i = 1; i < 10; i++) store.update(pod('a', 'x'), body(pod('a', 'x'), { i }));
  };

  it('watches and snapshot reads below the compacted revision fail with Expired', async () => {
    const store = getStore();
    writeTen(store);
    expect(store.compact({ keepRevisions: 3, maxAgeMs: 0 })).toBe(7);
    expect(store.compactedRevision).toBe(7);
    const err = expectStoreError(() => store.watch({ resource: 'pods', afterRevision: 6 }), 'Expired');
    expect(err.currentRevision).toBe(10);
    expectStoreError(() => store.list({ resource: 'pods', revision: 6 }), 'Expired');
    expectStoreError(() => store.get(pod('a', 'x'), { revision: 6 }), 'Expired');
    const watch = store.watch({ resource: 'pods', afterRevision: 7 });
    expect((await takeUntilBookmark(watch)).map((e) => e.revision)).toEqual([8, 9, 10]);
    expect(store.get(pod('a', 'x'), { revision: 7 }).spec).toEqual({ i: 6 });
  });

  it('keeps keepRevisions of history and never lowers the compacted revision', () => {
    const store = getStore();
    writeTen(store);
    expect(store.compact({ keepRevisions: 100, maxAgeMs: 0 })).toBe(0);
    expect(store.compact({ keepRevisions: 0, maxAgeMs: 0 })).toBe(10);
    expect(store.compact({ keepRevisions: 100, maxAgeMs: 0 })).toBe(10);
    expect(store.get(pod('a', 'x')).spec).toEqual({ i: 9 });
    expect(revisionOf(store.create(pod('a', 'y'), body(pod('a', 'y'))))).toBe(11);
    expect(store.list({ resource: 'pods', revision: 10 }).items).toHaveLength(1);
  });
}

function defineWholeSnapshotCases(getStore: () => Store): void {
  const withUid = (ref: ObjectRef, spec: Record<string, unknown> = {}): StoredObject => {
    const object = body(ref, spec);
    object.metadata['uid'] = `uid-${ref.resource}-${ref.namespace}-${ref.name}`;
    return object;
  };
  const entry = (ref: ObjectRef, object: StoredObject): SnapshotEntry => ({ ...ref, object });
  // What a restore must reproduce: every object's body, resourceVersion aside.
  const bodies = (store: Store) =>
    store.exportObjects().objects.map((e) => ({ ...e, object: { ...e.object, metadata: { ...e.object.metadata, resourceVersion: undefined } } }));

  it('exportObjects returns every live object with its key, in key order, as JSON', () => {
    const store = getStore();
    const b = store.create(pod('ns', 'b'), withUid(pod('ns', 'b')));
    store.create(pod('ns', 'gone'), withUid(pod('ns', 'gone')));
    const a = store.create(pod('ns', 'a'), withUid(pod('ns', 'a'), { v: 1 }));
    const node = store.create({ resource: 'nodes', namespace: '', name: 'n1' }, withUid(pod('', 'n1')));
    const cm = store.create(configMap('ns', 'a'), withUid(configMap('ns', 'a')));
    store.delete(pod('ns', 'gone'));
    const snapshot = store.exportObjects();
    expect(snapshot).toEqual({
      formatVersion: 1,
      revision: store.currentRevision,
      objects: [
        entry(configMap('ns', 'a'), cm),
        entry({ resource: 'nodes', namespace: '', name: 'n1' }, node),
        entry(pod('ns', 'a'), a),
        entry(pod('ns', 'b'), b),
      ],
    });
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(getStore().exportObjects().objects).toHaveLength(4);
  });

  it('restoreObjects deletes, creates and updates by ordinary writes; watchers see each at a new revision', async () => {
    const store = getStore();
    store.create(pod('ns', 'same'), withUid(pod('ns', 'same'), { v: 1 }));
    store.create(pod('ns', 'changed'), withUid(pod('ns', 'changed'), { v: 1 }));
    store.create(pod('ns', 'removed'), withUid(pod('ns', 'removed'), { v: 1 }));
    const saved = JSON.parse(JSON.stringify(store.exportObjects())) as ReturnType<Store['exportObjects']>;
    const wanted = bodies(store);
    store.update(pod('ns', 'changed'), withUid(pod('ns', 'changed'), { v: 2 }));
    store.delete(pod('ns', 'removed'));
    store.create(pod('ns', 'added'), withUid(pod('ns', 'added')));
    store.create(configMap('ns', 'added'), withUid(configMap('ns', 'added')));
    const before = store.currentRevision;
    const same = store.get(pod('ns', 'same'));
    const pods = store.watch({ resource: 'pods', afterRevision: before });
    const configMaps = store.watch({ resource: 'configmaps', afterRevision: before });

    const result = store.restoreObjects(saved, { actor: { user: 'restorer' } });

    expect(result).toEqual({ created: 1, updated: 1, deleted: 2, revision: before + 4 });
    expect(store.currentRevision).toBe(before + 4);
    expect(bodies(store)).toEqual(wanted);
    expect(store.get(pod('ns', 'same'))).toEqual(same);
    const restored = store.get(pod('ns', 'removed'));
    expect(restored.metadata['uid']).toBe('uid-pods-ns-removed');
    expect(revisionOf(restored)).toBeGreaterThan(before);
    const events = [...(await takeUntilBookmark(pods)), ...(await takeUntilBookmark(configMaps))];
    expect(events.map((e) => `${e.type} ${e.ref.resource}/${e.ref.name}`).sort()).toEqual([
      'ADDED pods/removed',
      'DELETED configmaps/added',
      'DELETED pods/added',
      'MODIFIED pods/changed',
    ]);
    expect(events.map((e) => e.revision).sort((x, y) => x - y)).toEqual([before + 1, before + 2, before + 3, before + 4]);
    const recorded = store.history({ afterRevision: before }).events;
    expect(recorded.map((e) => e.actor)).toEqual(Array(4).fill({ user: 'restorer' }));
    const modified = events.find((e) => e.type === 'MODIFIED');
    expect(modified?.prevObject?.spec).toEqual({ v: 2 });
    expect(modified?.object.spec).toEqual({ v: 1 });
  });

  it('restoring a snapshot equal to the live objects writes nothing', async () => {
    const store = getStore();
    store.create(pod('ns', 'a'), withUid(pod('ns', 'a'), { list: [1, { deep: true }] }));
    store.create(configMap('ns', 'b'), withUid(configMap('ns', 'b')));
    const snapshot = store.exportObjects();
    // Key order and resourceVersion do not make a body different.
    const [first] = snapshot.objects;
    if (first !== undefined) first.object = { spec: first.object.spec, metadata: { ...first.object.metadata, resourceVersion: '999' } };
    const revision = store.currentRevision;
    const watch = store.watch({ resource: 'pods', afterRevision: revision });
    expect(store.restoreObjects(snapshot)).toEqual({ created: 0, updated: 0, deleted: 0, revision });
    expect(store.currentRevision).toBe(revision);
    expect(await takeUntilBookmark(watch)).toEqual([]);
  });

  it('restoring into an empty store creates everything; an empty snapshot deletes everything', () => {
    const source = getStore();
    source.create(pod('ns', 'a'), withUid(pod('ns', 'a')));
    source.create(configMap('', 'b'), withUid(configMap('', 'b')));
    const snapshot = source.exportObjects();
    source.create(pod('ns', 'z'), withUid(pod('ns', 'z')));
    expect(source.restoreObjects({ formatVersion: 1, revision: 0, objects: [] })).toEqual({
      created: 0,
      updated: 0,
      deleted: 3,
      revision: 6,
    });
    expect(source.restoreObjects(snapshot)).toEqual({ created: 2, updated: 0, deleted: 0, revision: 8 });
    expect(bodies(source)).toEqual(
      snapshot.objects.map((e) => ({ ...e, object: { ...e.object, metadata: { ...e.object.metadata, resourceVersion: undefined } } })),
    );
  });

  it('a malformed snapshot is refused before any write', () => {
    const store = getStore();
    store.create(pod('ns', 'a'), withUid(pod('ns', 'a')));
    const good = store.exportObjects();
    const revision = store.currentRevision;
    const extra = entry(pod('ns', 'b'), withUid(pod('ns', 'b')));
    const bad: unknown[] = [
      { ...good, formatVersion: 2 },
      { ...good, objects: undefined },
      { ...good, objects: [extra, { ...extra, name: '' }] },
      { ...good, objects: [extra, { ...extra, object: { spec: {} } }] },
      { ...good, objects: [extra, ...good.objects, extra] },
    ];
    const messages = bad.map((snapshot) => {
      try {
        store.restoreObjects(snapshot as ReturnType<Store['exportObjects']>);
        return 'accepted';
      } catch (err) {
        expect(err).toBeInstanceOf(RangeError);
        return (err as Error).message;
      }
    });
    expect(messages).toEqual([
      'snapshot formatVersion must be 1, got 2',
      'snapshot objects must be an array',
      'snapshot objects[1].name must be a non-empty string',
      'snapshot objects[1].object must be an object with metadata',
      'snapshot objects[2] repeats the key pods "ns/b"',
    ]);
    expect(store.currentRevision).toBe(revision);
    expect(store.list({ resource: 'pods' }).items).toEqual(good.objects.map((e) => e.object));
  });

  it('a write that fails part-way rolls the whole restore back and publishes nothing', async () => {
    const store = getStore();
    store.create(pod('ns', 'a'), withUid(pod('ns', 'a')));
    const revision = store.currentRevision;
    const watch = store.watch({ resource: 'pods', afterRevision: revision });
    const unserialisable = withUid(pod('ns', 'c'), { n: 1n });
    const snapshot = {
      formatVersion: 1 as const,
      revision,
      objects: [entry(pod('ns', 'b'), withUid(pod('ns', 'b'))), entry(pod('ns', 'c'), unserialisable)],
    };
    expect(() => store.restoreObjects(snapshot)).toThrow(/BigInt/);
    expect(store.currentRevision).toBe(revision);
    expect(store.list({ resource: 'pods' }).items.map((o) => o.metadata.name)).toEqual(['a']);
    expect(await takeUntilBookmark(watch)).toEqual([]);
    store.create(pod('ns', 'd'), withUid(pod('ns', 'd')));
    expect(store.currentRevision).toBe(revision + 1);
  });
}
