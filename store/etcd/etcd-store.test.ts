import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEtcd, startEtcd } from '../../test/support/etcd.js';
import { isConflict, isExpired, StoreError } from '../errors.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';
import { runStoreConformance } from '../testing/store-conformance.case.js';
import type { HistoryOptions, ObjectRef, Store, StoredObject, StoreWatch, WatchMessage } from '../types.js';
import { type EtcdStoreOptions, openEtcdStore } from './etcd-store.js';

// One etcd for the file; every store gets a prefix of its own, so each starts empty.
let etcd: RunningEtcd;
let prefixes = 0;
const freshPrefix = () => `/kubesim-test-${++prefixes}`;
beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(() => etcd?.stop());

const open = (options: Partial<EtcdStoreOptions> = {}) => openEtcdStore({ endpoints: etcd.endpoints, prefix: freshPrefix(), ...options });

runStoreConformance('etcd', () => open());

const pod = (namespace: string, name: string): ObjectRef => ({ resource: 'pods', namespace, name });
const body = (ref: ObjectRef, spec: Record<string, unknown> = {}): StoredObject => ({ metadata: { name: ref.name, namespace: ref.namespace }, spec });

async function next(watch: StoreWatch): Promise<WatchMessage> {
  const result = await watch[Symbol.asyncIterator]().next();
  if (result.done === true) throw new Error(`watch ended (${watch.endReason})`);
  return result.value;
}

// Reads keys as `etcdctl get --prefix` does, through etcd's JSON gateway (the same KV.Range).
async function getPrefix(prefix: string): Promise<Array<{ key: string; value: string }>> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const end = Buffer.from(prefix);
  end[end.length - 1]! += 1;
  const response = await fetch(`${etcd.endpoints[0]}/v3/kv/range`, {
    method: 'POST',
    body: JSON.stringify({ key: b64(prefix), range_end: end.toString('base64') }),
  });
  const { kvs = [] } = (await response.json()) as { kvs?: Array<{ key: string; value: string }> };
  const decode = (text: string) => Buffer.from(text, 'base64').toString();
  return kvs.map((kv) => ({ key: decode(kv.key), value: decode(kv.value) }));
}

describe('EtcdStore on a shared etcd', () => {
  it('two stores on one prefix serve one cluster, as two API servers would', async () => {
    const prefix = freshPrefix();
    const [a, b] = [open({ prefix }), open({ prefix })];
    try {
      const watchOnB = b.watch({ resource: 'pods', afterRevision: 0 });
      const created = a.create(pod('ns', 'web'), body(pod('ns', 'web'), { v: 1 }));
      // B has not heard of revision 1 yet (no await since): it asks etcd instead of saying TooLarge.
      expect(b.get(pod('ns', 'web'), { revision: 1 })).toEqual(created);
      expect(b.currentRevision).toBe(1);
      expect(await next(watchOnB)).toMatchObject({ type: 'ADDED', revision: 1, object: created });
      b.update(pod('ns', 'web'), body(pod('ns', 'web'), { v: 2 }));
      let conflict: unknown;
      try {
        a.update(pod('ns', 'web'), body(pod('ns', 'web'), { v: 3 }), { expectedRevision: 1 });
      } catch (err) {
        conflict = err;
      }
      expect(isConflict(conflict)).toBe(true);
      expect((conflict as StoreError).currentRevision).toBe(2);
      // A list on A sees B's write, and a watch on A from that list's revision starts after it.
      const listed = a.list({ resource: 'pods' });
      expect([listed.revision, listed.items.map((o) => o.spec)]).toEqual([2, [{ v: 2 }]]);
      const watchOnA = a.watch({ resource: 'pods', afterRevision: listed.revision });
      b.delete(pod('ns', 'web'));
      expect(await next(watchOnA)).toMatchObject({ type: 'DELETED', revision: 3 });
      expect(await next(watchOnB)).toMatchObject({ type: 'MODIFIED', revision: 2 });
    } finally {
      a.close();
      b.close();
    }
  });

  it('a replay on one store joins its live stream without a gap while another store writes', async () => {
    const prefix = freshPrefix();
    const [a, b] = [open({ prefix }), open({ prefix })];
    try {
      a.create(pod('ns', 'one'), body(pod('ns', 'one')));
      // No await between: B's change reaches A's watch while A is reading its replay.
      b.create(pod('ns', 'two'), body(pod('ns', 'two')));
      const watch = a.watch({ resource: 'pods', afterRevision: 0 });
      a.create(pod('ns', 'three'), body(pod('ns', 'three')));
      const revisions = [await next(watch), await next(watch), await next(watch)].map((m) => m.revision);
      expect(revisions).toEqual([1, 2, 3]);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a compaction by another store on the prefix makes older reads and watches Expired here too', () => {
    const prefix = freshPrefix();
    const [a, b] = [open({ prefix }), open({ prefix })];
    try {
      for (let i = 0; i < 5; i++) a.create(pod('ns', `p${i}`), body(pod('ns', `p${i}`)));
      expect(a.compact({ keepRevisions: 1, maxAgeMs: 0 })).toBe(4);
      const failure = (read: () => unknown) => {
        try {
          read();
          return 'read';
        } catch (err) {
          return err instanceof StoreError ? `${err.code}: ${err.message}` : String(err);
        }
      };
      // B learns the compaction from etcd's answer, and words it as the API's 410 needs.
      expect(failure(() => b.list({ resource: 'pods', revision: 2 }))).toBe('Expired: too old resource version: 2 (4)');
      expect(b.compactedRevision).toBe(4);
      expect(failure(() => b.watch({ resource: 'pods', afterRevision: 3 }))).toBe('Expired: too old resource version: 3 (4)');
      expect(failure(() => b.get(pod('ns', 'p0'), { revision: 1 }))).toBe('Expired: too old resource version: 1 (4)');
    } finally {
      a.close();
      b.close();
    }
  });

  it('compacts after another store compacted further than it knew, without failing', () => {
    const prefix = freshPrefix();
    const [a, b] = [open({ prefix }), open({ prefix })];
    try {
      for (let i = 0; i < 6; i++) a.create(pod('ns', `p${i}`), body(pod('ns', `p${i}`)));
      expect(a.compact({ keepRevisions: 2, maxAgeMs: 0 })).toBe(4);
      // B has seen every change (a current list waits for its watch) but believes nothing was
      // compacted: its search reads revisions A compacted away.
      expect(b.list({ resource: 'pods' }).revision).toBe(6);
      expect(b.compactedRevision).toBe(0);
      expect(b.compact({ keepRevisions: 1, maxAgeMs: 0 })).toBe(5);
      expect(b.compactedRevision).toBe(5);
    } finally {
      a.close();
      b.close();
    }
  });

  it("pages in the SQLite store's order where etcd's key order differs (team, team-a, team.b; cluster-scoped first)", () => {
    const pages = (store: Store, options: { namespace?: string; predicate?: (o: StoredObject) => boolean }) => {
      const seen: unknown[] = [];
      let startAfter: { namespace: string; name: string } | undefined;
      for (let more = true; more; ) {
        const page = store.list({ resource: 'pods', limit: 2, startAfter, ...options });
        seen.push([page.items.map((o) => `${String(o.metadata.namespace)}/${String(o.metadata.name)}`), page.more, page.remainingItemCount]);
        const last = page.items.at(-1);
        startAfter = last && { namespace: String(last.metadata.namespace), name: String(last.metadata.name) };
        more = page.more;
      }
      return seen;
    };
    const fill = (store: Store) => {
      for (const [namespace, name] of [
        ['team-a', 'x'],
        ['team', 'y'],
        ['', 'z'],
        ['team.b', 'w'],
        ['team', 'y-2'],
        ['team', 'y.3'],
        ['', 'a'],
      ]) {
        store.create(pod(namespace!, name!), body(pod(namespace!, name!)));
      }
    };
    const [etcdStore, sqlite] = [open(), openSqliteStore()];
    try {
      fill(etcdStore);
      fill(sqlite);
      const notY = (o: StoredObject) => o.metadata.name !== 'y';
      for (const options of [{}, { namespace: 'team' }, { namespace: '' }, { predicate: notY }]) {
        expect(pages(etcdStore, options)).toEqual(pages(sqlite, options));
      }
      expect(pages(etcdStore, {})[0]).toEqual([['/a', '/z'], true, 5]);
    } finally {
      etcdStore.close();
      sqlite.close();
    }
  });

  it("lays keys out as kube-apiserver does, values are the object's JSON without resourceVersion", async () => {
    const prefix = freshPrefix();
    const store = open({ prefix });
    try {
      store.create(pod('default', 'web'), body(pod('default', 'web')));
      store.create({ resource: 'nodes', namespace: '', name: 'n1' }, body(pod('', 'n1')));
      store.create({ resource: 'deployments.apps', namespace: 'default', name: 'web' }, body(pod('default', 'web')));
      const keys = async (under: string) => (await getPrefix(`${prefix}/${under}`)).map((kv) => kv.key);
      expect(await keys('pods/')).toEqual([`${prefix}/pods/default/web`]);
      expect(await keys('nodes/')).toEqual([`${prefix}/nodes/n1`]);
      expect(await keys('deployments.apps/')).toEqual([`${prefix}/deployments.apps/default/web`]);
      const [stored] = await getPrefix(`${prefix}/pods/default/web`);
      expect(JSON.parse(stored?.value ?? '')).toEqual(body(pod('default', 'web')));
    } finally {
      store.close();
    }
  });

  it('history joins each change with its actor and commit time, written in the same transaction', () => {
    let now = 1_000;
    const store = open({ clock: () => now });
    try {
      store.create(pod('ns', 'a'), body(pod('ns', 'a')), { actor: { user: 'alice' } });
      now = 2_000;
      store.delete(pod('ns', 'a'), { actor: { user: 'bob' } });
      const { events } = store.history();
      expect(events.map((e) => [e.type, e.revision, e.actor, e.timeMs])).toEqual([
        ['ADDED', 1, { user: 'alice' }, 1_000],
        ['DELETED', 2, { user: 'bob' }, 2_000],
      ]);
    } finally {
      store.close();
    }
  });

  it('history narrows by resource, namespace, name, revisions and predicate, and pages with more, as SQLite does', () => {
    const fill = (store: Store) => {
      store.create(pod('default', 'a'), { ...body(pod('default', 'a')), app: 'web' });
      store.create(pod('other', 'a'), body(pod('other', 'a')));
      store.create({ resource: 'deployments.apps', namespace: 'default', name: 'a' }, body(pod('default', 'a')));
      store.create(pod('default', 'b'), { ...body(pod('default', 'b')), app: 'web' });
      store.update(pod('default', 'a'), { ...body(pod('default', 'a'), { x: 1 }), app: 'web' });
    };
    const [etcdStore, sqlite] = [open(), openSqliteStore()];
    try {
      fill(etcdStore);
      fill(sqlite);
      const queries: HistoryOptions[] = [
        { resource: 'pods', namespace: 'default', name: 'a' },
        { namespace: 'other' },
        { afterRevision: 2, toRevision: 4 },
        { predicate: (e) => e.object['app'] === 'web' },
        { resource: 'pods', limit: 2 },
        { resource: 'pods', limit: 4 },
        { predicate: (e) => e.object['app'] === 'web', limit: 1 },
      ];
      const answers = (store: Store) => queries.map((query) => store.history(query)).map(({ events, more }) => [events.map((e) => e.revision), more]);
      expect(answers(etcdStore)).toEqual(answers(sqlite));
      expect(answers(etcdStore)[4]).toEqual([[1, 2], true]);
    } finally {
      etcdStore.close();
      sqlite.close();
    }
  });

  it('compacts by age with the commit times, and a reopened store knows the compacted revision', () => {
    let now = 0;
    const prefix = freshPrefix();
    const store = open({ prefix, clock: () => now });
    for (let i = 0; i < 6; i++) {
      now = i * 1_000;
      if (i === 0) store.create(pod('a', 'x'), body(pod('a', 'x'), { i }));
      else store.update(pod('a', 'x'), body(pod('a', 'x'), { i }));
    }
    // Changes 1..6 were committed at 0..5 s; at 5.5 s, keeping 2.6 s of history keeps 4, 5, 6.
    now = 5_500;
    expect(store.compact({ keepRevisions: 0, maxAgeMs: 2_600 })).toBe(3);
    store.close();
    const reopened = open({ prefix });
    try {
      expect([reopened.currentRevision, reopened.compactedRevision]).toEqual([6, 3]);
      let expired: unknown;
      try {
        reopened.watch({ resource: 'pods', afterRevision: 2 });
      } catch (err) {
        expired = err;
      }
      expect(isExpired(expired)).toBe(true);
      expect(reopened.get(pod('a', 'x'), { revision: 3 }).spec).toEqual({ i: 2 });
    } finally {
      reopened.close();
    }
  });

  it('a call etcd does not answer fails after the timeout instead of freezing the process; later calls work', async () => {
    const own = await startEtcd();
    const store = openEtcdStore({ endpoints: own.endpoints, prefix: '/registry', requestTimeoutMs: 1_000 });
    const member = own.members[0]!;
    try {
      store.create(pod('a', 'x'), body(pod('a', 'x')));
      member.child.kill('SIGSTOP'); // connections stay open, nothing answers
      expect(() => store.get(pod('a', 'x'))).toThrow('did not answer within 1000 ms');
      member.child.kill('SIGCONT');
      expect(store.get(pod('a', 'x')).metadata.name).toBe('x');
      await own.stop();
      // A stopped etcd refuses connections: that fails at once.
      expect(() => store.get(pod('a', 'x'))).toThrow(/UNAVAILABLE|circuit breaker/);
    } finally {
      member.child.kill('SIGCONT');
      store.close();
      await own.stop();
    }
  });
});

describe('EtcdStore’s window of recent changes (the watch cache)', () => {
  it('resumes a watch from a recent revision out of memory, even while etcd does not answer', async () => {
    const own = await startEtcd();
    const store = openEtcdStore({ endpoints: own.endpoints, prefix: '/registry', requestTimeoutMs: 1_000 });
    const member = own.members[0]!;
    try {
      for (const name of ['a', 'b', 'c']) store.create(pod('ns', name), body(pod('ns', name)));
      expect(store.currentRevision).toBe(3);
      member.child.kill('SIGSTOP'); // a replay read from etcd would now fail after 1 s
      const watch = store.watch({ resource: 'pods', afterRevision: 1 });
      expect(await next(watch)).toMatchObject({ type: 'ADDED', revision: 2, object: { metadata: { name: 'b' } } });
      expect(await next(watch)).toMatchObject({ type: 'ADDED', revision: 3, object: { metadata: { name: 'c' } } });
      watch.close();
    } finally {
      member.child.kill('SIGCONT');
      store.close();
      await own.stop();
    }
  });

  it('reads etcd for a watch from before the store opened, within a window’s length', async () => {
    const prefix = freshPrefix();
    const first = open({ prefix });
    for (const name of ['a', 'b']) first.create(pod('ns', name), body(pod('ns', name)));
    first.close();
    const store = open({ prefix, recentChanges: 10 });
    try {
      store.create(pod('ns', 'c'), body(pod('ns', 'c')));
      const watch = store.watch({ resource: 'pods', afterRevision: 0 });
      for (const [revision, name] of [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ] as const) {
        expect(await next(watch)).toMatchObject({ type: 'ADDED', revision, object: { metadata: { name } } });
      }
      watch.close();
    } finally {
      store.close();
    }
  });

  it('says Expired, as kube-apiserver’s watch cache does, for a watch further back than the window holds', () => {
    const store = open({ recentChanges: 4 });
    try {
      for (let i = 0; i < 12; i++) store.create(pod('ns', `p${i}`), body(pod('ns', `p${i}`)));
      let expired: unknown;
      try {
        store.watch({ resource: 'pods', afterRevision: 2 });
      } catch (err) {
        expired = err;
      }
      expect(isExpired(expired)).toBe(true);
      // The window holds the changes after 8 (the last 4), and 2 is 10 behind: more than a window.
      expect((expired as StoreError).message).toBe('too old resource version: 2 (8)');
      const recent = store.watch({ resource: 'pods', afterRevision: 10 });
      recent.close();
    } finally {
      store.close();
    }
  });
});
