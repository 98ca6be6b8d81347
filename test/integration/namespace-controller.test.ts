/**
 * The namespace controller against a real API server: an in-process Manager (real clock, real
 * HTTP and watches) running registerNamespaceController, driven through the API as kubectl
 * would. No kubelet runs, so pods given a nodeName stay in their grace period until the test
 * confirms their deletion as a kubelet would (gracePeriodSeconds 0).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { type Namespace, namespaceDefinition } from '../../apiserver/api/core/namespace.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { secretDefinition } from '../../apiserver/api/core/secret.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import type { KubeObject, ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import { registerNamespaceController } from '../../controllers/namespace/index.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import type { ResourceClient } from '../../controllers/runtime/types.js';
import { serveWidgets, widgetDefinition } from '../support/custom-kind.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'team';
const HOLD = 'example.com/hold';

describe('namespace controller', () => {
  const cluster = useTestCluster({ userAgent: 'test' });
  const stops: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    const managerClient = createKubeClient({ server: cluster.url, userAgent: 'test' });
    const manager = createManager({ client: managerClient, clock: createRealClock(), logger: silentLogger, component: 'namespace-controller' });
    registerNamespaceController(manager, { recheckMs: 100 });
    const abort = new AbortController();
    const running = manager.start(abort.signal);
    stops.push(async () => {
      abort.abort();
      await running;
      managerClient.close();
    });
    await namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });

  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  const namespaces = () => cluster.client.resource(namespaceDefinition);
  const api = (def: ResourceDefinition<any>) => cluster.client.resource(def) as ResourceClient;
  const create = (def: ResourceDefinition<any>, object: KubeObject) => api(def).create({ ...object, metadata: { namespace: NS, ...object.metadata } });
  const names = async (def: ResourceDefinition<any>) => (await api(def).list({ namespace: NS })).items.map((o) => o.metadata.name);

  async function getNamespace(): Promise<Namespace | undefined> {
    try {
      return await namespaces().get('', NS);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  const labels = { app: 'web' };
  const podSpec = (extra: Record<string, unknown> = {}) => ({ containers: [{ name: 'app', image: 'busybox:1.36' }], ...extra });

  async function populate(): Promise<void> {
    await create(configMapDefinition, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { k: 'v' } });
    await create(secretDefinition, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token' }, type: 'Opaque' });
    await create(podDefinition, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'loose-pod', labels }, spec: podSpec() });
    await create(leaseDefinition, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lock' }, spec: { holderIdentity: 'me' } });
    const template = { metadata: { labels }, spec: podSpec() };
    await create(deploymentDefinition, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: labels }, template },
    });
  }

  it('leaves a live namespace Active', async () => {
    // The server defaults the phase too; the controller's own check is covered by reconcile.test.ts.
    await populate();
    expect((await getNamespace())?.status?.phase).toBe('Active');
    expect(await names(configMapDefinition)).toEqual(['settings']);
  });

  it('deletes everything in a deleted namespace, then the namespace', async () => {
    await populate();
    await namespaces().delete('', NS);
    await eventually(async () => expect(await getNamespace()).toBeUndefined());
    for (const def of [configMapDefinition, secretDefinition, podDefinition, leaseDefinition, deploymentDefinition]) {
      expect(await names(def)).toEqual([]);
    }
  });

  it('deletes objects of kinds served after the controller started', async () => {
    serveWidgets(cluster);
    await create(widgetDefinition, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', finalizers: [HOLD] } });
    await namespaces().delete('', NS);
    await eventually(async () => {
      const remaining = (await getNamespace())?.status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining');
      expect(remaining?.message).toBe('Some resources are remaining: widgets.example.com has 1 resource instances');
    });
    await api(widgetDefinition).patch(NS, 'w', { metadata: { finalizers: null } }, { type: 'merge' });
    await eventually(async () => expect(await getNamespace()).toBeUndefined());
    expect(await names(widgetDefinition)).toEqual([]);
  });

  it('reports remaining content in conditions until the last finalizer and grace period end', async () => {
    await populate();
    await create(configMapDefinition, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: [HOLD] } });
    for (const name of ['bound-1', 'bound-2']) {
      await create(podDefinition, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: podSpec({ nodeName: 'node-1' }) });
    }
    await namespaces().delete('', NS);

    const conditions = await eventually(async () => {
      const status = (await getNamespace())?.status;
      const remaining = status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining');
      expect(remaining?.message).toBe('Some resources are remaining: configmaps. has 1 resource instances, pods. has 2 resource instances');
      return status?.conditions ?? [];
    });
    expect((await getNamespace())?.status?.phase).toBe('Terminating');
    const byType = Object.fromEntries(conditions.map((c) => [c.type, c]));
    expect(byType['NamespaceContentRemaining']).toMatchObject({ status: 'True', reason: 'SomeResourcesRemain' });
    expect(byType['NamespaceFinalizersRemaining']).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${HOLD} in 1 resource instances`,
    });
    expect(byType['NamespaceDeletionDiscoveryFailure']).toMatchObject({ status: 'False', reason: 'ResourcesDiscovered' });
    expect(byType['NamespaceDeletionGroupVersionParsingFailure']).toMatchObject({ status: 'False', reason: 'ParsedGroupVersions' });
    expect(byType['NamespaceDeletionContentFailure']).toMatchObject({ status: 'False', reason: 'ContentDeleted' });
    expect(await names(configMapDefinition)).toEqual(['held']);

    // The kubelet confirms the pods' deletion; the finalizer's owner lets go.
    for (const name of ['bound-1', 'bound-2']) await api(podDefinition).delete(NS, name, { gracePeriodSeconds: 0 });
    await eventually(async () => {
      const remaining = (await getNamespace())?.status?.conditions?.find((c) => c.type === 'NamespaceContentRemaining');
      expect(remaining?.message).toBe('Some resources are remaining: configmaps. has 1 resource instances');
    });
    await api(configMapDefinition).patch(NS, 'held', { metadata: { finalizers: null } }, { type: 'merge' });
    await eventually(async () => expect(await getNamespace()).toBeUndefined());
  });

  it('a terminating namespace refuses new objects', async () => {
    await create(configMapDefinition, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: [HOLD] } });
    await namespaces().delete('', NS);
    await eventually(async () => expect((await getNamespace())?.status?.conditions?.length).toBeGreaterThan(0));
    const refused = await create(secretDefinition, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'late' } }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 403, reason: 'Forbidden' });
    await api(configMapDefinition).patch(NS, 'held', { metadata: { finalizers: null } }, { type: 'merge' });
    await eventually(async () => expect(await getNamespace()).toBeUndefined());
  });

  it('a namespace created again after deletion starts empty and Active', async () => {
    await populate();
    await namespaces().delete('', NS);
    await eventually(async () => expect(await getNamespace()).toBeUndefined());
    await namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    expect((await getNamespace())?.status?.phase).toBe('Active');
    expect(await names(configMapDefinition)).toEqual([]);
  });
});
