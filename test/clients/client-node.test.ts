/**
 * A small @kubernetes/client-node 1.4 script against kubesim, as an application would use
 * the library: typed create calls, patches with the library's default patch type (JSON patch
 * for every patch* call in 1.4) and with a merge / strategic merge patch chosen through
 * setHeaderOptions, server-side apply (PatchStrategy.ServerSideApply), and the Watch class
 * resuming from the last resourceVersion it saw — plus the 410 Expired it gets when that
 * version has been compacted. (Informers are covered by test/integration/client-node-informer.test.ts.)
 */

import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  type KubernetesObject,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Deployment,
  Watch,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { contentTypes, useRecordingCluster } from './request-log.js';

const NS = 'default';

const webDeployment: V1Deployment = {
  metadata: { name: 'node-web', labels: { app: 'node-web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'node-web' } },
    template: {
      metadata: { labels: { app: 'node-web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }] }] },
    },
  },
};

/** A watch event as the Watch class reports it: type, name and resourceVersion. */
interface Seen {
  type: string;
  name: string | undefined;
  rv: string | undefined;
  code?: number;
}

/** WatchRun is one Watch.watch call with everything it reported. */
interface WatchRun {
  events: Seen[];
  /** Resolves with the error passed to `done` (null for a clean end). */
  ended: Promise<unknown>;
  abort(): void;
}

describe('@kubernetes/client-node 1.4 script', () => {
  const recording = useRecordingCluster();
  let kc: KubeConfig;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  const aborts: AbortController[] = [];

  beforeAll(async () => {
    kc = new KubeConfig();
    // The kubeconfig sets insecure-skip-tls-verify: client-node refuses plain http without it.
    kc.loadFromString(recording.cluster.kubeconfig);
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
  });

  afterAll(async () => {
    for (const controller of aborts) controller.abort();
  });

  /** startWatch watches configmaps labelled suite=watch from `resourceVersion`. */
  const startWatch = async (resourceVersion: string): Promise<WatchRun> => {
    const events: Seen[] = [];
    let finish: (err: unknown) => void = () => {};
    const ended = new Promise<unknown>((resolve) => (finish = resolve));
    const controller = await new Watch(kc).watch(
      `/api/v1/namespaces/${NS}/configmaps`,
      { resourceVersion, labelSelector: 'suite=watch' },
      (type, object: KubernetesObject & { code?: number }) => {
        if (type === 'BOOKMARK') return;
        events.push({ type, name: object.metadata?.name, rv: object.metadata?.resourceVersion, ...(type === 'ERROR' ? { code: object.code } : {}) });
      },
      (err) => finish(err),
    );
    aborts.push(controller);
    return { events, ended, abort: () => controller.abort() };
  };
  const watched = (name: string, data: Record<string, string> = { n: name }): V1ConfigMap => ({ metadata: { name, labels: { suite: 'watch' } }, data });
  const names = (events: Seen[]) => events.map((e) => `${e.type} ${e.name}`);

  it('creates a ConfigMap and a Deployment with the typed API', async () => {
    const cm = await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'node-cm' }, data: { color: 'blue', size: 'L' } } });
    expect(cm.metadata?.uid).toBeTruthy();
    expect(cm.metadata?.creationTimestamp).toBeInstanceOf(Date);
    const deployment = await apps.createNamespacedDeployment({ namespace: NS, body: webDeployment });
    expect(deployment.metadata?.generation).toBe(1);
    // Server-side defaults come back deserialised into the typed model.
    expect(deployment.spec?.strategy?.type).toBe('RollingUpdate');
    expect(deployment.spec?.template.spec?.containers[0]?.ports?.[0]?.protocol).toBe('TCP');
    expect(contentTypes(recording.requests, 'POST')).toEqual([
      `POST /api/v1/namespaces/${NS}/configmaps → application/json`,
      `POST /apis/apps/v1/namespaces/${NS}/deployments → application/json`,
    ]);
  });

  it('patches with its default type (JSON patch), a merge patch and a strategic merge patch', async () => {
    const before = recording.requests.length;
    // The default: every patch* call of client-node 1.4 sends application/json-patch+json.
    const scaled = await apps.patchNamespacedDeployment({ namespace: NS, name: 'node-web', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] });
    expect(scaled.spec?.replicas).toBe(3);
    const scale = await apps.patchNamespacedDeploymentScale({ namespace: NS, name: 'node-web', body: [{ op: 'replace', path: '/spec/replicas', value: 4 }] });
    expect([scale.kind, scale.spec?.replicas, scale.status?.selector]).toEqual(['Scale', 4, 'app=node-web']);

    const merged = await core.patchNamespacedConfigMap(
      { namespace: NS, name: 'node-cm', body: { data: { color: null, size: 'M' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(merged.data).toEqual({ size: 'M' });

    // Strategic merge: containers merge by name, so the image stays.
    const env = { spec: { template: { spec: { containers: [{ name: 'nginx', env: [{ name: 'MODE', value: 'demo' }] }] } } } };
    const strategic = await apps.patchNamespacedDeployment(
      { namespace: NS, name: 'node-web', body: env },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(strategic.spec?.template.spec?.containers).toMatchObject([{ name: 'nginx', image: 'nginx:1.25', env: [{ name: 'MODE', value: 'demo' }] }]);
    expect(strategic.metadata?.generation).toBe(4);

    expect(contentTypes(recording.requests.slice(before), 'PATCH')).toEqual([
      `PATCH /apis/apps/v1/namespaces/${NS}/deployments/node-web → application/json-patch+json`,
      `PATCH /apis/apps/v1/namespaces/${NS}/deployments/node-web/scale → application/json-patch+json`,
      `PATCH /api/v1/namespaces/${NS}/configmaps/node-cm → application/merge-patch+json`,
      `PATCH /apis/apps/v1/namespaces/${NS}/deployments/node-web → application/strategic-merge-patch+json`,
    ]);
  });

  it('applies server-side (PatchStrategy.ServerSideApply with a fieldManager)', async () => {
    const before = recording.requests.length;
    const apply = (data: Record<string, string>) =>
      core.patchNamespacedConfigMap(
        {
          namespace: NS,
          name: 'node-ssa',
          fieldManager: 'client-node-script',
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'node-ssa' }, data },
        },
        setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
      );
    const created = await apply({ a: '1' });
    expect(created.data).toEqual({ a: '1' });
    const updated = await apply({ a: '1', b: '2' });
    expect(updated.data).toEqual({ a: '1', b: '2' });
    expect(updated.metadata?.uid).toBe(created.metadata?.uid);
    // The applier owns the fields it sent.
    expect(updated.metadata?.managedFields?.map((f) => [f.manager, f.operation, f.fieldsType])).toEqual([['client-node-script', 'Apply', 'FieldsV1']]);
    // Fields it stops sending are removed (it is their only manager).
    expect((await apply({ b: '2' })).data).toEqual({ b: '2' });
    const sent = recording.requests.slice(before).filter((r) => r.method === 'PATCH');
    expect(sent.map((r) => [r.contentType, r.query.get('fieldManager')])).toEqual([
      ['application/apply-patch+yaml', 'client-node-script'],
      ['application/apply-patch+yaml', 'client-node-script'],
      ['application/apply-patch+yaml', 'client-node-script'],
    ]);
  });

  it('resumes a watch from the last resourceVersion it saw and gets exactly the missed events', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'suite=watch' });
    const listRv = list.metadata?.resourceVersion ?? '';
    expect(listRv).toMatch(/^\d+$/);

    const first = await startWatch(listRv);
    await core.createNamespacedConfigMap({ namespace: NS, body: watched('w1') });
    await core.patchNamespacedConfigMap(
      { namespace: NS, name: 'w1', body: { data: { n: 'w1', changed: 'yes' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await core.createNamespacedConfigMap({ namespace: NS, body: watched('w2') });
    await eventually(() => expect(names(first.events)).toEqual(['ADDED w1', 'MODIFIED w1', 'ADDED w2']));
    first.abort();
    await first.ended;
    const lastRv = first.events.at(-1)?.rv ?? '';

    // Changes made while nobody watches.
    await core.deleteNamespacedConfigMap({ namespace: NS, name: 'w1' });
    await core.createNamespacedConfigMap({ namespace: NS, body: watched('w3') });
    await core.patchNamespacedConfigMap(
      { namespace: NS, name: 'w2', body: { data: { n: 'w2', changed: 'yes' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );

    const resumed = await startWatch(lastRv);
    // A change after the resume marks the end of what was missed.
    await core.createNamespacedConfigMap({ namespace: NS, body: watched('w4') });
    await eventually(() => expect(names(resumed.events)).toContain('ADDED w4'));
    expect(names(resumed.events)).toEqual(['DELETED w1', 'ADDED w3', 'MODIFIED w2', 'ADDED w4']);
    const rvs = resumed.events.map((e) => Number(e.rv));
    expect(rvs[0]).toBeGreaterThan(Number(lastRv));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
    resumed.abort();
    await resumed.ended;

    // The watch query client-node sends: watch=true and the resourceVersion, nothing else added.
    const watchRequests = recording.requests.filter((r) => r.query.get('watch') !== null);
    expect(watchRequests.map((r) => Object.fromEntries(r.query))).toEqual([
      { resourceVersion: listRv, labelSelector: 'suite=watch', watch: 'true' },
      { resourceVersion: lastRv, labelSelector: 'suite=watch', watch: 'true' },
    ]);
  });

  it('gets an ERROR 410 Expired event when it resumes from a compacted resourceVersion', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'suite=watch' });
    const stale = list.metadata?.resourceVersion ?? '';
    await core.createNamespacedConfigMap({ namespace: NS, body: watched('w5') });
    recording.cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });

    const expired = await startWatch(stale);
    // The server ends the stream after the ERROR event; client-node reports a clean end.
    expect(await expired.ended).toBeNull();
    expect(expired.events).toEqual([{ type: 'ERROR', name: undefined, rv: undefined, code: 410 }]);

    // Recovery as the documentation says: list again, watch from the new resourceVersion.
    const fresh = await core.listNamespacedConfigMap({ namespace: NS, labelSelector: 'suite=watch' });
    expect(fresh.items.map((cm) => cm.metadata?.name).sort()).toEqual(['w2', 'w3', 'w4', 'w5']);
    const again = await startWatch(fresh.metadata?.resourceVersion ?? '');
    await core.createNamespacedConfigMap({ namespace: NS, body: watched('w6') });
    await eventually(() => expect(names(again.events)).toEqual(['ADDED w6']));
    again.abort();
    await again.ended;
  });
});
