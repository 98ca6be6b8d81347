/**
 * Several API servers serving one cluster from one store (docs/architecture.md, "Several API
 * servers"): each keeps its Lease and the `kubernetes` endpoints list every live one; one that
 * stops renewing drops out; the clock and the fault rules steered through any server apply on
 * every server; settle on one waits for the work another still has. Run against two stores:
 * one SQLite store shared by servers in this process, and etcd (servers each with their own
 * client, as separate processes would be) when this build has the etcd store and the machine
 * has etcd.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
import { findEtcdBinary, startEtcdProcess } from '../../apiserver/etcd-process.js';
import { apiServerLeaseName } from '../../apiserver/shared-cluster/index.js';
import { type RunningApiServer, startApiServer } from '../../apiserver/start-api-server.js';
import type { StoreSpec } from '../../apiserver/store-spec.js';
import { openSqliteStore } from '../../store/index.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';

const ENDPOINTS = '/api/v1/namespaces/default/endpoints/kubernetes';
const SLICE = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes';
const SERVICE = '/api/v1/namespaces/default/services/kubernetes';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';
const KUBESIM = '/apis/kubesim.io/v1alpha1';
const START_MS = Date.parse('2030-01-01T00:00:00Z');

/** A store several servers can share, and how to let it go. */
interface SharedStore {
  spec: StoreSpec;
  close(): Promise<void>;
}

const sqliteInstance = async (): Promise<SharedStore> => {
  const store = openSqliteStore({ path: ':memory:' });
  return { spec: { kind: 'instance', store }, close: async () => store.close() };
};

const etcd = async (): Promise<SharedStore> => {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-test-'));
  const process = await startEtcdProcess({ dataDir: dir });
  return {
    spec: { kind: 'etcd', endpoints: process.endpoints },
    async close() {
      await process.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const etcdSkipReason = findEtcdBinary() ? undefined : 'no etcd binary on this machine (install etcd-server)';

severalServers('one SQLite store shared in process', sqliteInstance, undefined);
severalServers('etcd', etcd, etcdSkipReason);

function severalServers(storeName: string, openStore: () => Promise<SharedStore>, skipReason: string | undefined): void {
  const title = skipReason ? `several API servers on ${storeName} (skipped: ${skipReason})` : `several API servers on ${storeName}`;
  describe.skipIf(skipReason !== undefined)(title, () => {
    let shared: SharedStore | undefined;
    const servers: RunningApiServer[] = [];

    afterEach(async () => {
      for (const server of servers.splice(0)) await server.close();
      await shared?.close();
      shared = undefined;
    });

    /** start brings up `count` servers on a fresh store, at once, each with a virtual clock. */
    async function start(count: number): Promise<RunningApiServer[]> {
      shared ??= await openStore();
      const spec = shared.spec;
      const started = await Promise.all(
        Array.from({ length: count }, () => startApiServer({ port: 0, store: spec, clock: createClusterClock({ mode: 'virtual', startMs: START_MS }) })),
      );
      servers.push(...started);
      return started;
    }

    const get = async (server: RunningApiServer, path: string) => (await request(`${server.url}${path}`)).body;

    it('start together on an empty store, each keeps its Lease, and the kubernetes endpoints list both', async () => {
      const [a, b] = await start(2);
      const ports = [a!.port, b!.port].sort((x, y) => x - y);
      for (const server of [a!, b!]) {
        const lease = await get(server, `${LEASES}/${apiServerLeaseName(hostname(), { ip: '127.0.0.1', port: server.port })}`);
        expect(lease.metadata.labels['apiserver.kubernetes.io/identity']).toBe('kube-apiserver');
        expect(lease.metadata.annotations['kubernetes.io/peer-advertise-address']).toBe(`127.0.0.1:${server.port}`);
        expect(lease.spec.leaseDurationSeconds).toBe(15);
      }
      const subsets = ports.map((port) => ({ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port, protocol: 'TCP' }] }));
      await eventually(async () => expect((await get(a!, ENDPOINTS)).subsets).toEqual(subsets));
      await eventually(async () => expect((await get(b!, ENDPOINTS)).subsets).toEqual(subsets));
      // As kube-apiserver's reconciler: the slice mirrors the first subset, the Service targets its port.
      expect((await get(b!, SLICE)).ports).toEqual([{ name: 'https', port: ports[0], protocol: 'TCP' }]);
      expect((await get(b!, SERVICE)).spec.ports[0].targetPort).toBe(ports[0]);
      // Bootstrap ran twice on one store: each object once, neither server failed.
      const namespaces = (await get(a!, '/api/v1/namespaces')).items.map((ns: { metadata: { name: string } }) => ns.metadata.name);
      expect(namespaces.filter((name: string) => name === 'kube-system')).toHaveLength(1);
    });

    it('drop a server that stopped renewing its Lease once it expires', async () => {
      const [a, b] = await start(2);
      await eventually(async () => expect((await get(a!, ENDPOINTS)).subsets).toHaveLength(2));
      await b!.close();
      servers.splice(servers.indexOf(b!), 1);
      // Still listed until its Lease lapses (15 s of cluster time) and the survivor's next
      // renewal (every 10 s) shows it lapsed.
      expect((await get(a!, ENDPOINTS)).subsets).toHaveLength(2);
      await a!.clock!.advance(10_000);
      expect((await get(a!, ENDPOINTS)).subsets).toHaveLength(2);
      await a!.clock!.advance(10_000);
      await eventually(async () =>
        expect((await get(a!, ENDPOINTS)).subsets).toEqual([{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: a!.port, protocol: 'TCP' }] }]),
      );
    });

    it('share the clock: pause, speed and advance through one server apply on the other', async () => {
      const [a, b] = await start(2);
      const clockOf = (server: RunningApiServer) => get(server, `${KUBESIM}/clock`);
      expect((await request(`${a!.url}${KUBESIM}/clock/resume`, { method: 'POST' })).status).toBe(200);
      await eventually(async () => expect((await clockOf(b!)).paused).toBe(false));
      expect((await request(`${b!.url}${KUBESIM}/clock/speed`, { method: 'POST', body: { speed: 4 } })).status).toBe(200);
      await eventually(async () => expect((await clockOf(a!)).speed).toBe(4));
      expect((await request(`${b!.url}${KUBESIM}/clock/pause`, { method: 'POST' })).status).toBe(200);
      await eventually(async () => expect((await clockOf(a!)).paused).toBe(true));
      const before = (await clockOf(b!)).nowMs;
      expect((await request(`${a!.url}${KUBESIM}/clock/advance`, { method: 'POST', body: { duration: '1h' } })).status).toBe(200);
      await eventually(async () => expect((await clockOf(b!)).nowMs).toBeGreaterThanOrEqual(before + 3_600_000));
    });

    it('share fault rules: added through one server, they fire on the other; removed through either', async () => {
      const [a, b] = await start(2);
      const added = await request(`${a!.url}${KUBESIM}/faults`, {
        method: 'POST',
        body: { id: 'no-configmaps', verbs: ['create'], resource: 'configmaps', error: 503 },
      });
      expect(added.status).toBe(201);
      await eventually(async () => expect((await get(b!, `${KUBESIM}/faults`)).items.map((rule: { id: string }) => rule.id)).toEqual(['no-configmaps']));
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'refused' } };
      expect((await request(`${b!.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', body })).status).toBe(503);
      expect((await request(`${b!.url}${KUBESIM}/faults/no-configmaps`, { method: 'DELETE' })).status).toBe(200);
      await eventually(async () => expect((await get(a!, `${KUBESIM}/faults`)).items).toEqual([]));
      expect((await request(`${a!.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', body })).status).toBe(201);
    });

    it('settle on one server waits for work another server still has', async () => {
      const [a, b] = await start(2);
      await eventually(async () => expect((await get(a!, ENDPOINTS)).subsets).toHaveLength(2));
      const report = (queued: number) =>
        request(`${b!.url}${KUBESIM}/activity/remote-loops`, { method: 'PUT', body: { loops: [{ name: 'widgets', queued, active: 0, delayed: 0 }] } });
      expect((await report(3)).status).toBe(200);
      const busy = await request(`${a!.url}${KUBESIM}/settle`, { method: 'POST', body: { timeoutMs: 300 } });
      expect(busy.status).toBe(504);
      expect(busy.body.message).toContain(`apiserver 127.0.0.1:${b!.port}: remote-loops`);
      expect((await report(0)).status).toBe(200);
      expect((await request(`${a!.url}${KUBESIM}/settle`, { method: 'POST', body: { timeoutMs: 5_000 } })).status).toBe(200);
    });
  });
}
