/**
 * The garbage collector against a real API server: an in-process Manager (real clock, real
 * HTTP and watches) running registerGarbageCollector, driven through the API as kubectl
 * would. Owners and dependents are plain objects with hand-written ownerReferences
 * (ConfigMaps and Secrets owned by a ConfigMap; Deployment → ReplicaSet → Pods), so no other
 * controller is involved. Pods stay unscheduled, so their deletion is immediate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { secretDefinition } from '../../apiserver/api/core/secret.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import type { KubeObject, ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import { type GarbageCollector, type GarbageCollectorOptions, registerGarbageCollector } from '../../controllers/garbage-collector/index.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import { serveWidgets, widgetDefinition } from '../support/custom-kind.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
const NEVER_EXISTED = '00000000-0000-4000-8000-000000000000';

type OwnerRef = NonNullable<KubeObject['metadata']['ownerReferences']>[number];

describe('garbage collector', () => {
  const cluster = useTestCluster({ userAgent: 'test' });
  const stops: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  /** startGc runs a Manager with the garbage collector and waits until it collects. */
  async function startGc(options: GarbageCollectorOptions = {}): Promise<GarbageCollector> {
    const managerClient = createKubeClient({ server: cluster.url, userAgent: 'test' });
    const manager = createManager({ client: managerClient, clock: createRealClock(), logger: silentLogger, component: 'garbage-collector' });
    const gc = registerGarbageCollector(manager, options);
    const abort = new AbortController();
    const running = manager.start(abort.signal);
    stops.push(async () => {
      abort.abort();
      await running;
      managerClient.close();
    });
    await expectCollected(await create(secretDefinition, secret('probe', [danglingRef()])));
    return gc;
  }

  const api = <T extends KubeObject>(def: ResourceDefinition<T>) => cluster.client.resource(def) as unknown as ReturnType<KubeClient['resource']>;

  async function create(def: ResourceDefinition<any>, object: KubeObject): Promise<KubeObject> {
    return api(def).create({ ...object, metadata: { namespace: NS, ...object.metadata } });
  }

  async function get(def: ResourceDefinition<any>, name: string): Promise<KubeObject | undefined> {
    try {
      return await api(def).get(NS, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async function expectCollected(object: KubeObject, def: ResourceDefinition<any> = secretDefinition): Promise<void> {
    await eventually(async () => expect(await get(def, object.metadata.name ?? '')).toBeUndefined());
  }

  function refTo(owner: KubeObject, extra: Partial<OwnerRef> = {}): OwnerRef {
    return { apiVersion: owner.apiVersion ?? '', kind: owner.kind ?? '', name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', ...extra };
  }

  const danglingRef = (name = 'gone'): OwnerRef => ({ apiVersion: 'v1', kind: 'ConfigMap', name, uid: NEVER_EXISTED });
  const configMap = (name: string, ownerReferences?: OwnerRef[], finalizers?: string[]): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(ownerReferences ? { ownerReferences } : {}), ...(finalizers ? { finalizers } : {}) },
    data: { k: 'v' },
  });
  const secret = (name: string, ownerReferences: OwnerRef[]): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, ownerReferences },
    type: 'Opaque',
  });

  /** webChain creates Deployment web → ReplicaSet web-1 → Pods web-1-a, web-1-b, as the
   * deployment and replicaset controllers would (controller refs that block owner deletion). */
  async function webChain(podFinalizers: Record<string, string[]> = {}): Promise<{ deployment: KubeObject; replicaSet: KubeObject }> {
    const labels = { app: 'web' };
    const template = { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } };
    const controllerRef = (owner: KubeObject) => refTo(owner, { controller: true, blockOwnerDeletion: true });
    const deployment = await create(deploymentDefinition, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels },
      spec: { replicas: 2, selector: { matchLabels: labels }, template },
    });
    const rsMeta = { name: 'web-1', labels, ownerReferences: [controllerRef(deployment)] };
    const replicaSet = await create(replicaSetDefinition, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: rsMeta,
      spec: { replicas: 2, selector: { matchLabels: labels }, template },
    });
    for (const name of ['web-1-a', 'web-1-b']) {
      const finalizers = podFinalizers[name];
      const metadata = { name, labels, ownerReferences: [controllerRef(replicaSet)], ...(finalizers ? { finalizers } : {}) };
      await create(podDefinition, { apiVersion: 'v1', kind: 'Pod', metadata, spec: template.spec });
    }
    return { deployment, replicaSet };
  }

  async function removeFinalizers(def: ResourceDefinition<any>, name: string): Promise<void> {
    await api(def).patch(NS, name, { metadata: { finalizers: null } }, { type: 'merge' });
  }

  describe('discovery', () => {
    it('lists every served kind once, at its preferred version, as reusable definitions', async () => {
      const served = await cluster.client.discover();
      const ids = served.map((r) => `${r.group}/${r.version}/${r.plural}`);
      expect(ids).toEqual(expect.arrayContaining(['/v1/pods', '/v1/configmaps', 'apps/v1/deployments', 'autoscaling/v2/horizontalpodautoscalers']));
      expect(ids).not.toContain('autoscaling/v1/horizontalpodautoscalers');
      expect(new Set(ids).size).toBe(ids.length);
      const again = await cluster.client.discover();
      expect(again.find((r) => r.plural === 'pods')).toBe(served.find((r) => r.plural === 'pods'));
      expect((await cluster.client.resource(served.find((r) => r.plural === 'namespaces')!).list()).items.length).toBeGreaterThan(0);
    });
  });

  describe('background deletion', () => {
    it('collects ConfigMaps and Secrets owned by a deleted ConfigMap', async () => {
      await startGc();
      const owner = await create(configMapDefinition, configMap('owner'));
      const dependentMap = await create(configMapDefinition, configMap('dep-cm', [refTo(owner)]));
      const dependentSecret = await create(secretDefinition, secret('dep-secret', [refTo(owner)]));
      await api(configMapDefinition).delete(NS, 'owner', { propagationPolicy: 'Background' });
      await expectCollected(dependentMap, configMapDefinition);
      await expectCollected(dependentSecret);
    });

    it('kubectl delete deployment web removes its ReplicaSets and Pods', async () => {
      await startGc();
      await webChain();
      await api(deploymentDefinition).delete(NS, 'web', { propagationPolicy: 'Background' });
      await eventually(async () => {
        expect((await api(replicaSetDefinition).list({ namespace: NS })).items).toEqual([]);
        expect((await api(podDefinition).list({ namespace: NS })).items).toEqual([]);
      });
    });
  });

  describe('foreground deletion', () => {
    it('keeps the Deployment until its ReplicaSet and Pods are gone', async () => {
      await startGc();
      await webChain({ 'web-1-b': ['example.com/hold'] });
      await api(deploymentDefinition).delete(NS, 'web', { propagationPolicy: 'Foreground' });
      await eventually(async () => expect(await get(podDefinition, 'web-1-a')).toBeUndefined());
      // web-1-b is held by its finalizer, so its ReplicaSet, and the Deployment, must wait.
      const pod = await get(podDefinition, 'web-1-b');
      expect(pod?.metadata.deletionTimestamp).toBeDefined();
      const replicaSet = await get(replicaSetDefinition, 'web-1');
      expect(replicaSet?.metadata.deletionTimestamp).toBeDefined();
      expect(replicaSet?.metadata.finalizers).toContain('foregroundDeletion');
      const deployment = await get(deploymentDefinition, 'web');
      expect(deployment?.metadata.deletionTimestamp).toBeDefined();
      expect(deployment?.metadata.finalizers).toEqual(['foregroundDeletion']);

      await removeFinalizers(podDefinition, 'web-1-b');
      await eventually(async () => expect(await get(deploymentDefinition, 'web')).toBeUndefined());
      expect(await get(replicaSetDefinition, 'web-1')).toBeUndefined();
      expect(await get(podDefinition, 'web-1-b')).toBeUndefined();
    });

    it('does not wait for dependents that do not block owner deletion', async () => {
      await startGc();
      const owner = await create(configMapDefinition, configMap('owner'));
      await create(configMapDefinition, configMap('loose', [refTo(owner, { blockOwnerDeletion: false })], ['example.com/hold']));
      await api(configMapDefinition).delete(NS, 'owner', { propagationPolicy: 'Foreground' });
      await eventually(async () => expect(await get(configMapDefinition, 'owner')).toBeUndefined());
      // The dependent was deleted too (in the background), and is only held by its own finalizer.
      const loose = await get(configMapDefinition, 'loose');
      expect(loose?.metadata.deletionTimestamp).toBeDefined();
      await removeFinalizers(configMapDefinition, 'loose');
      await eventually(async () => expect(await get(configMapDefinition, 'loose')).toBeUndefined());
    });

    it('a blocking dependent with another live owner only loses its reference', async () => {
      await startGc();
      const owner = await create(configMapDefinition, configMap('owner'));
      const other = await create(configMapDefinition, configMap('other'));
      await create(secretDefinition, secret('shared', [refTo(owner, { blockOwnerDeletion: true }), refTo(other)]));
      await api(configMapDefinition).delete(NS, 'owner', { propagationPolicy: 'Foreground' });
      await eventually(async () => expect(await get(configMapDefinition, 'owner')).toBeUndefined());
      const shared = await get(secretDefinition, 'shared');
      expect(shared?.metadata.deletionTimestamp).toBeUndefined();
      expect(shared?.metadata.ownerReferences?.map((r) => r.uid)).toEqual([other.metadata.uid]);
    });
  });

  describe('orphan deletion', () => {
    it('removes the Deployment and leaves its ReplicaSet (and Pods) without the reference', async () => {
      await startGc();
      const { replicaSet } = await webChain();
      await api(deploymentDefinition).delete(NS, 'web', { propagationPolicy: 'Orphan' });
      await eventually(async () => expect(await get(deploymentDefinition, 'web')).toBeUndefined());
      const orphaned = await get(replicaSetDefinition, 'web-1');
      expect(orphaned?.metadata.deletionTimestamp).toBeUndefined();
      expect(orphaned?.metadata.ownerReferences).toBeUndefined();
      for (const name of ['web-1-a', 'web-1-b']) {
        const pod = await get(podDefinition, name);
        expect(pod?.metadata.ownerReferences?.map((r) => r.uid)).toEqual([replicaSet.metadata.uid]);
      }
    });
  });

  describe('dangling references', () => {
    it('deletes a dependent whose only owner never existed', async () => {
      await startGc();
      await expectCollected(await create(secretDefinition, secret('dangling', [danglingRef()])));
    });

    it('removes only the dangling reference when another owner is alive', async () => {
      await startGc();
      const owner = await create(configMapDefinition, configMap('owner'));
      await create(secretDefinition, secret('partial', [refTo(owner), danglingRef()]));
      await eventually(async () => {
        const partial = await get(secretDefinition, 'partial');
        expect(partial?.metadata.ownerReferences?.map((r) => r.uid)).toEqual([owner.metadata.uid]);
      });
    });

    it('deletes a dependent whose owner was replaced by a same-named object (old uid gone)', async () => {
      await startGc();
      const owner = await create(configMapDefinition, configMap('owner'));
      const oldOwner = { ...owner, metadata: { ...owner.metadata, uid: NEVER_EXISTED } };
      const dependent = await create(secretDefinition, secret('of-old-owner', [refTo(oldOwner)]));
      await expectCollected(dependent);
      expect(await get(configMapDefinition, 'owner')).toBeDefined();
    });
  });

  describe('kinds served later', () => {
    it('watches a kind that appears at run time and collects its objects', async () => {
      const gc = await startGc({ rediscoveryIntervalMs: 100 });
      expect(gc.monitors.monitoredKinds()).not.toContain('example.com/v1/widgets');
      serveWidgets(cluster);
      await eventually(() => expect(gc.monitors.monitoredKinds()).toContain('example.com/v1/widgets'));
      const owner = await create(widgetDefinition, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'owner' } });
      const ownedWidget = await create(widgetDefinition, {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'owned', ownerReferences: [refTo(owner)] },
      });
      const ownedMap = await create(configMapDefinition, configMap('owned-by-widget', [refTo(owner)]));
      await expectCollected(
        await create(widgetDefinition, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'dangling', ownerReferences: [danglingRef()] } }),
        widgetDefinition,
      );
      expect(await get(widgetDefinition, 'owned')).toBeDefined();
      await api(widgetDefinition).delete(NS, 'owner');
      await expectCollected(ownedWidget, widgetDefinition);
      await expectCollected(ownedMap, configMapDefinition);
    });
  });

  describe('owners the caches have not seen', () => {
    it('keeps a dependent created right after its owner, before any informer saw the owner', async () => {
      // ConfigMaps are not watched here, so every owner lookup misses the cache: only a live
      // read can tell that the owner exists. One worker keeps reconciles in creation order.
      await startGc({ workers: 1, ignoredResources: [{ group: '', resource: 'configmaps' }] });
      const owner = await create(configMapDefinition, configMap('fresh-owner'));
      await create(secretDefinition, secret('fresh-dependent', [refTo(owner)]));
      // Created after it, the marker is reconciled after it: once the marker is gone, the
      // dependent has been judged.
      await expectCollected(await create(secretDefinition, secret('marker', [danglingRef()])));
      expect(await get(secretDefinition, 'fresh-dependent')).toBeDefined();
    });

    it('keeps every dependent of a burst of owner/dependent pairs created back to back', async () => {
      await startGc();
      const pairs = Array.from({ length: 10 }, (_, i) => i);
      await Promise.all(
        pairs.map(async (i) => {
          const owner = await create(configMapDefinition, configMap(`burst-owner-${i}`));
          await create(configMapDefinition, configMap(`burst-dependent-${i}`, [refTo(owner)]));
        }),
      );
      await expectCollected(await create(secretDefinition, secret('marker', [danglingRef()])));
      for (const i of pairs) expect(await get(configMapDefinition, `burst-dependent-${i}`)).toBeDefined();
    });
  });
});
