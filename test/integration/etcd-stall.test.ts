/**
 * An API server on etcd outlives an etcd that stops answering for a while (a disk stall, a
 * frozen VM, a busy member under a 10,000-pod rollout): calls made meanwhile fail after the
 * store's request timeout — including the periodic compaction, which runs from a timer, where
 * an error thrown would end the process — and once etcd answers again the server serves as
 * before. etcd is frozen with SIGSTOP (its connections stay open; nothing answers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../apiserver/start-api-server.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import { openEtcdStore } from '../../store/etcd/etcd-store.js';
import { type RunningEtcd, startEtcd } from '../support/etcd.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';

describe('an API server on etcd while etcd stalls', () => {
  let etcd: RunningEtcd;
  let server: RunningApiServer;
  const logged: string[] = [];
  // The store's clock dates the changes that age-based compaction reads: moved on while etcd
  // is frozen, it makes the next compaction period find work, and call etcd.
  let storeNow = Date.now();

  beforeAll(async () => {
    etcd = await startEtcd();
    const store = openEtcdStore({
      endpoints: etcd.endpoints,
      requestTimeoutMs: 1_500,
      clock: () => storeNow,
      compaction: { keepRevisions: 1, maxAgeMs: 60_000 },
    });
    const logger = createLogger({ component: 'apiserver', level: 'warn', destination: { write: (line: string) => logged.push(line) } });
    server = await startApiServer({ port: 0, host: '127.0.0.1', logger, store: { kind: 'instance', store }, compactionIntervalMs: 50 });
  });
  afterAll(async () => {
    for (const member of etcd?.members ?? []) member.child.kill('SIGCONT');
    await server?.close();
    await etcd?.stop();
  });

  it('fails calls and compactions while etcd is frozen, then serves again', async () => {
    const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    const create = (name: string) => request(`${server.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', body: configMap(name) });
    expect((await create('before')).status).toBe(201);
    const member = etcd.members[0]!;
    member.child.kill('SIGSTOP');
    storeNow += 120_000;
    try {
      const during = await create('during');
      // The store's failure, named as such (not, say, "namespaces \"default\" not found").
      expect(during.status).toBe(500);
      expect(during.body).toMatchObject({
        reason: 'InternalError',
        message: expect.stringMatching(/^Internal error occurred: etcd at .* did not answer within 1500 ms$/),
      });
      // A compaction period passes with etcd frozen: the compaction fails, is logged, and the
      // server goes on (thrown from its timer, it would have ended the process).
      await eventually(() => expect(logged.join('')).toContain('compaction failed; trying again next period'));
    } finally {
      member.child.kill('SIGCONT');
    }
    await eventually(async () => expect((await create('after')).status).toBe(201), { timeoutMs: 10_000 });
    const names = (await request(`${server.url}/api/v1/namespaces/default/configmaps`)).body.items.map(
      (item: { metadata: { name: string } }) => item.metadata.name,
    );
    expect(names).toContain('before');
    expect(names).toContain('after');
  });
});
