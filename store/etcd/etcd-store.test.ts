import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEtcd, startEtcd } from '../../test/support/etcd.js';
import { isConflict, isExpired, type StoreError } from '../errors.js';
import { runStoreConformance } from '../testing/store-conformance.case.js';
import type { ObjectRef, StoredObject, StoreWatch, WatchMessage } from '../types.js';
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
      expect(b.get(pod('ns', 'web'))).toEqual(created);
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
