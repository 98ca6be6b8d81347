/**
 * The real @kubernetes/client-node 1.4 against kubesim: an informer (list, watch, re-list on
 * 410 Expired) and the typed API (create/read/merge-patch/delete, 404 as ApiException).
 * docs/kubectl-wire.md, "client-node and the Python client", says what the client sends and how it
 * reacts to stream ends and errors.
 */

import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  type Informer,
  KubeConfig,
  makeInformer,
  type ObjectCache,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Deployment,
} from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import type { TestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NAMESPACE = 'default';
const CONFIGMAPS_PATH = `/api/v1/namespaces/${NAMESPACE}/configmaps`;

/** What makeInformer returns: the informer and its cache. */
type ConfigMapInformer = Informer<V1ConfigMap> & ObjectCache<V1ConfigMap>;

interface Clients {
  kc: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
}

function makeClients(cluster: TestCluster): Clients {
  const kc = new KubeConfig();
  // The kubeconfig sets insecure-skip-tls-verify: client-node refuses plain http without it.
  kc.loadFromString(cluster.kubeconfig);
  return { kc, core: kc.makeApiClient(CoreV1Api), apps: kc.makeApiClient(AppsV1Api) };
}

/** RecordingInformer is a configmap informer plus everything it reported, in order. */
interface RecordingInformer {
  informer: ConfigMapInformer;
  /** "add a", "update a", "delete a", in callback order. */
  events: string[];
  errors: unknown[];
  /** How many times the informer called its list function (1 + one per re-list). */
  listCalls: () => number;
}

function recordInformer({ kc, core }: Clients): RecordingInformer {
  let listCalls = 0;
  const informer = makeInformer<V1ConfigMap>(kc, CONFIGMAPS_PATH, () => {
    listCalls++;
    return core.listNamespacedConfigMap({ namespace: NAMESPACE });
  });
  const events: string[] = [];
  const errors: unknown[] = [];
  informer.on('add', (cm) => events.push(`add ${cm.metadata?.name}`));
  informer.on('update', (cm) => events.push(`update ${cm.metadata?.name}`));
  informer.on('delete', (cm) => events.push(`delete ${cm.metadata?.name}`));
  // client-node stops an informer on any error but 410; the application decides when to
  // start() it again (the documented pattern). These tests restart it explicitly.
  informer.on('error', (err) => errors.push(err));
  return { informer, events, errors, listCalls: () => listCalls };
}

function configMap(name: string, data: Record<string, string> = { key: name }): V1ConfigMap {
  return { metadata: { name, namespace: NAMESPACE, labels: { app: 'informer-test' } }, data };
}

/** serverState maps each configmap name to its resourceVersion, as the server lists them. */
async function serverState(core: CoreV1Api): Promise<Record<string, string | undefined>> {
  const list = await core.listNamespacedConfigMap({ namespace: NAMESPACE });
  return Object.fromEntries(list.items.map((cm) => [cm.metadata?.name ?? '', cm.metadata?.resourceVersion]));
}

function cacheState(informer: ConfigMapInformer): Record<string, string | undefined> {
  return Object.fromEntries(informer.list(NAMESPACE).map((cm) => [cm.metadata?.name ?? '', cm.metadata?.resourceVersion]));
}

describe('@kubernetes/client-node informer', () => {
  const cluster = useTestCluster();
  let clients: Clients;
  let core: CoreV1Api;
  const informers: Array<Informer<V1ConfigMap>> = [];

  beforeEach(async () => {
    clients = makeClients(cluster);
    core = clients.core;
  });

  afterEach(async () => {
    for (const informer of informers.splice(0)) await informer.stop();
  });

  async function startRecording(): Promise<RecordingInformer> {
    const recording = recordInformer(clients);
    informers.push(recording.informer);
    await recording.informer.start();
    return recording;
  }

  it('lists existing objects as add events', async () => {
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('first') });
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('second') });

    const { informer, events, errors } = await startRecording();

    expect(events).toEqual(expect.arrayContaining(['add first', 'add second']));
    expect(cacheState(informer)).toEqual(await serverState(core));
    expect(errors).toEqual([]);
  });

  it('reports objects created, patched and deleted after the list', async () => {
    const { informer, events, errors } = await startRecording();

    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('live') });
    await eventually(() => expect(events).toContain('add live'));

    await core.patchNamespacedConfigMap(
      { namespace: NAMESPACE, name: 'live', body: { data: { key: 'changed' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await eventually(() => expect(informer.get('live', NAMESPACE)?.data).toEqual({ key: 'changed' }));
    expect(events).toContain('update live');

    await core.deleteNamespacedConfigMap({ namespace: NAMESPACE, name: 'live' });
    await eventually(() => expect(events).toContain('delete live'));
    expect(informer.get('live', NAMESPACE)).toBeUndefined();
    expect(events.filter((e) => e.endsWith(' live'))).toEqual(['add live', 'update live', 'delete live']);
    expect(errors).toEqual([]);
  });

  it('re-lists after its watch resumes from a compacted resourceVersion (410 Expired)', async () => {
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('kept') });
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('doomed') });
    const { informer, events, errors, listCalls } = await startRecording();
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('watched') });
    await eventually(() => expect(events).toContain('add watched'));
    // The newest event the informer has seen: its watch resumes after this revision.
    const lastSeen = informer.get('watched', NAMESPACE)?.metadata?.resourceVersion;

    // Cut the watch connection. client-node reports the truncated stream as an error and
    // stops; it keeps its resourceVersion, so the next start() resumes from there.
    cluster.server.app.server.closeAllConnections();
    await eventually(() => expect(errors).toHaveLength(1));

    // Changes the informer cannot see, then history compacted past its resourceVersion.
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('born-in-gap') });
    await core.deleteNamespacedConfigMap({ namespace: NAMESPACE, name: 'doomed' });
    cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });
    expect(cluster.server.store.compactedRevision).toBeGreaterThan(Number(lastSeen));

    // Watch from lastSeen → ERROR 410 → resourceVersion cleared → stream ends → re-list.
    await informer.start();
    await eventually(async () => expect(cacheState(informer)).toEqual(await serverState(core)));
    expect(listCalls()).toBe(2);
    expect(events).toContain('delete doomed');
    expect(events).toContain('add born-in-gap');
    expect(Object.keys(cacheState(informer)).sort()).toEqual(['born-in-gap', 'kept', 'watched']);
    expect(errors).toHaveLength(1);

    // The new watch is live again.
    await core.createNamespacedConfigMap({ namespace: NAMESPACE, body: configMap('after') });
    await eventually(() => expect(events).toContain('add after'));
  });
});

describe('@kubernetes/client-node typed API', () => {
  const cluster = useTestCluster();
  let apps: AppsV1Api;

  beforeEach(async () => {
    ({ apps } = makeClients(cluster));
  });

  afterEach(async () => {});

  const deployment: V1Deployment = {
    metadata: { name: 'web', namespace: NAMESPACE },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
      },
    },
  };

  it('creates, reads, merge-patches and deletes a Deployment', async () => {
    const created = await apps.createNamespacedDeployment({ namespace: NAMESPACE, body: deployment });
    expect(created.metadata?.uid).toBeTruthy();
    expect(created.metadata?.resourceVersion).toBeTruthy();

    const read = await apps.readNamespacedDeployment({ namespace: NAMESPACE, name: 'web' });
    expect(read.spec?.replicas).toBe(2);
    expect(read.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.27');

    const patched = await apps.patchNamespacedDeployment(
      { namespace: NAMESPACE, name: 'web', body: { spec: { replicas: 5 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect(patched.spec?.replicas).toBe(5);
    expect(Number(patched.metadata?.resourceVersion)).toBeGreaterThan(Number(read.metadata?.resourceVersion));
    expect(patched.metadata?.generation).toBe((read.metadata?.generation ?? 0) + 1);

    await apps.deleteNamespacedDeployment({ namespace: NAMESPACE, name: 'web' });
    await eventually(async () => {
      const error = await apps.readNamespacedDeployment({ namespace: NAMESPACE, name: 'web' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(ApiException);
      expect((error as ApiException<unknown>).code).toBe(404);
    });
  });

  it('reports a missing Deployment as ApiException 404 with a NotFound Status body', async () => {
    const error = await apps.readNamespacedDeployment({ namespace: NAMESPACE, name: 'missing' }).catch((err: unknown) => err);

    expect(error).toBeInstanceOf(ApiException);
    const apiError = error as ApiException<string>;
    expect(apiError.code).toBe(404);
    const status = JSON.parse(apiError.body) as { kind: string; reason: string; code: number; message: string };
    expect(status).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    expect(status.message).toBe('deployments.apps "missing" not found');
  });
});
