/**
 * StatefulSets end to end: the statefulset, persistentvolume-binder and garbage-collector
 * loops, the scheduler and kubelet-sim all in process against a real API server, cluster
 * time at SPEED× wall time. Checks ordered creation (web-1 only after web-0 is Ready),
 * claims bound to generated volumes, scaling both ways, a partitioned rolling update, and
 * `kubectl rollout status/history/undo statefulset` with the real kubectl.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { controllerRevisionDefinition } from '../../apiserver/api/apps/controller-revision.js';
import { type StatefulSet, statefulSetDefinition } from '../../apiserver/api/apps/stateful-set.js';
import { persistentVolumeDefinition } from '../../apiserver/api/core/persistent-volume.js';
import { persistentVolumeClaimDefinition } from '../../apiserver/api/core/persistent-volume-claim.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
const SPEED = 10;

function webSet(name: string, over: Partial<StatefulSet['spec']> = {}): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: NS },
    spec: {
      replicas: 3,
      serviceName: 'nginx',
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
      volumeClaimTemplates: [
        { metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } } },
      ],
      ...over,
    },
  };
}

const isReady = (pod: Pod) => pod.status?.phase === 'Running' && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

describe('statefulset controller', () => {
  const cluster = useTestCluster({
    lifetime: 'file',
    speed: SPEED,
    userAgent: 'statefulset-test/0.1',
    nodes: 2,
    controllers: ['statefulset', 'persistentvolume-binder', 'garbage-collector'],
    scheduler: true,
  });
  const sets = () => cluster.client.resource(statefulSetDefinition);
  const pods = () => cluster.client.resource(podDefinition);
  const podsOf = async (app: string) => (await pods().list({ namespace: NS, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
  const names = (items: Pod[]) => items.map((p) => p.metadata.name ?? '').sort();

  /** settled waits until the set reports every replica ready at its update revision. */
  const settled = (name: string, replicas: number) =>
    eventually(
      async () => {
        const set = await sets().get(NS, name);
        expect(set.status).toMatchObject({ observedGeneration: set.metadata.generation, replicas, readyReplicas: replicas });
        return set;
      },
      { timeoutMs: 20_000 },
    );

  it('creates web-0..2 in order, each only after the previous is Ready, with bound claims', async () => {
    // One watch stream delivers events in revision order: the pods' states as of each ADDED.
    const readyAtCreation = new Map<string, string[]>();
    const latest = new Map<string, Pod>();
    const { resourceVersion } = (await pods().list({ namespace: NS })).metadata;
    const watch = (async () => {
      for await (const event of pods().watch({ namespace: NS, labelSelector: 'app=web', resourceVersion, signal: AbortSignal.timeout(15_000) })) {
        const name = event.object.metadata.name ?? '';
        if (event.type === 'ADDED') readyAtCreation.set(name, names([...latest.values()].filter(isReady)));
        latest.set(name, event.object);
        if (readyAtCreation.size === 3) return;
      }
    })();
    await sets().create(webSet('web'));
    await settled('web', 3);
    await watch.catch(() => undefined);
    expect(readyAtCreation.get('web-0')).toEqual([]);
    expect(readyAtCreation.get('web-1')).toEqual(['web-0']);
    expect(readyAtCreation.get('web-2')).toEqual(['web-0', 'web-1']);
    const web1 = await pods().get(NS, 'web-1');
    expect(web1.metadata.labels).toMatchObject({ 'statefulset.kubernetes.io/pod-name': 'web-1', 'apps.kubernetes.io/pod-index': '1' });
    expect(web1.spec).toMatchObject({ hostname: 'web-1', subdomain: 'nginx' });
    await eventually(async () => {
      const claims = (await cluster.client.resource(persistentVolumeClaimDefinition).list({ namespace: NS })).items;
      expect(claims.map((c) => [c.metadata.name, c.status?.phase]).sort()).toEqual([
        ['www-web-0', 'Bound'],
        ['www-web-1', 'Bound'],
        ['www-web-2', 'Bound'],
      ]);
      const volume = await cluster.client.resource(persistentVolumeDefinition).get('', claims[0]!.spec.volumeName ?? '');
      expect(volume.spec).toMatchObject({ capacity: { storage: '1Gi' }, storageClassName: 'standard', claimRef: { name: claims[0]!.metadata.name } });
      expect(volume.status?.phase).toBe('Bound');
    });
  });

  it('scales to 5 and back to 2, removing the highest ordinals', async () => {
    await sets().patch(NS, 'web', { spec: { replicas: 5 } }, { type: 'merge' });
    await settled('web', 5);
    expect(names(await podsOf('web'))).toEqual(['web-0', 'web-1', 'web-2', 'web-3', 'web-4']);
    await sets().patch(NS, 'web', { spec: { replicas: 2 } }, { type: 'merge' });
    await settled('web', 2);
    await eventually(async () => expect(names(await podsOf('web'))).toEqual(['web-0', 'web-1']), { timeoutMs: 15_000 });
  });

  it('rolls out a new template only to ordinals >= partition', async () => {
    await sets().patch(NS, 'web', { spec: { replicas: 3 } }, { type: 'merge' });
    await settled('web', 3);
    const before = await sets().get(NS, 'web');
    const patch = {
      spec: {
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } },
        template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
      },
    };
    await sets().patch(NS, 'web', patch, { type: 'strategic' });
    const set = await eventually(
      async () => {
        const current = await sets().get(NS, 'web');
        expect(current.status).toMatchObject({ updatedReplicas: 2, readyReplicas: 3, observedGeneration: current.metadata.generation });
        return current;
      },
      { timeoutMs: 20_000 },
    );
    expect(set.status?.updateRevision).not.toBe(before.status?.updateRevision);
    expect(set.status?.currentRevision).toBe(before.status?.currentRevision);
    const images = Object.fromEntries((await podsOf('web')).map((p) => [p.metadata.name, p.spec.containers[0]?.image]));
    expect(images).toEqual({ 'web-0': 'nginx:1.25', 'web-1': 'nginx:1.27', 'web-2': 'nginx:1.27' });
    const revisions = (await cluster.client.resource(controllerRevisionDefinition).list({ namespace: NS })).items;
    expect(revisions.map((r) => r.revision).sort()).toEqual([1, 2]);
  });

  describe.each(
    findKubectlBinaries()
      .slice(0, 1)
      .map((binary) => [binary.label, binary] as const),
  )('%s', (_label, binary) => {
    const kubectl = (args: string[]) =>
      runKubectl(binary, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, 'kubectl-cache'), timeoutMs: 30_000 });

    it('rollout status, history and undo', async () => {
      await sets().patch(NS, 'web', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, { type: 'strategic' });
      const status = await kubectl(['rollout', 'status', 'statefulset/web', '-n', NS, '--timeout=25s']);
      expect(status.stderr).toBe('');
      expect(status.stdout).toContain('partitioned roll out complete: 3 new pods have been updated');
      const history = await kubectl(['rollout', 'history', 'statefulset/web', '-n', NS]);
      expect(history.stdout).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
      const two = await kubectl(['rollout', 'history', 'statefulset/web', '-n', NS, '--revision=2']);
      expect(two.stdout).toContain('nginx:1.27');
      const undo = await kubectl(['rollout', 'undo', 'statefulset/web', '-n', NS]);
      expect(undo.stderr).toBe('');
      expect(undo.stdout).toContain('statefulset.apps/web rolled back');
      await eventually(
        async () => {
          const images = (await podsOf('web')).map((p) => p.spec.containers[0]?.image);
          expect(images).toEqual(['nginx:1.25', 'nginx:1.25', 'nginx:1.25']);
          const set = await sets().get(NS, 'web');
          expect(set.status).toMatchObject({ updatedReplicas: 3, readyReplicas: 3, currentRevision: set.status?.updateRevision });
        },
        { timeoutMs: 20_000 },
      );
      const after = await kubectl(['rollout', 'history', 'statefulset/web', '-n', NS]);
      expect(after.stdout).toMatch(/2\s+<none>\n3\s+<none>/);
    });

    it("get statefulsets, pvc and pv print kube's columns", async () => {
      const sts = await kubectl(['get', 'statefulsets', '-n', NS]);
      expect(sts.stdout).toMatch(/^NAME\s+READY\s+AGE\nweb\s+3\/3\s+/);
      const pvc = await kubectl(['get', 'pvc', '-n', NS]);
      expect(pvc.stdout).toMatch(/^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE\n/);
      expect(pvc.stdout).toMatch(/www-web-0\s+Bound\s+pvc-\S+\s+1Gi\s+RWO\s+standard\s+<unset>/);
      const revisions = await kubectl(['get', 'controllerrevisions', '-n', NS]);
      expect(revisions.stdout).toMatch(/^NAME\s+CONTROLLER\s+REVISION\s+AGE\n/);
      expect(revisions.stdout).toContain('statefulset.apps/web');
    });
  });

  it('Parallel creates every pod at once; whenDeleted: Delete removes the claims with the set', async () => {
    const spec = {
      podManagementPolicy: 'Parallel' as const,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' as const, whenScaled: 'Delete' as const },
    };
    await sets().create(webSet('db', spec));
    await eventually(async () => expect(names(await podsOf('db'))).toEqual(['db-0', 'db-1', 'db-2']), { timeoutMs: 5_000 });
    await settled('db', 3);
    await sets().patch(NS, 'db', { spec: { replicas: 1 } }, { type: 'merge' });
    const claimNames = async () =>
      (await cluster.client.resource(persistentVolumeClaimDefinition).list({ namespace: NS, labelSelector: 'app=db' })).items
        .map((c) => c.metadata.name)
        .sort();
    await eventually(
      async () => {
        expect(await claimNames()).toEqual(['www-db-0']);
      },
      { timeoutMs: 20_000 },
    );
    await sets().delete(NS, 'db');
    await eventually(async () => expect(await claimNames()).toEqual([]), { timeoutMs: 20_000 });
  });
});
