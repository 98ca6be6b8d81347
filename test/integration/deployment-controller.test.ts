/**
 * The Deployment controller against a real API server, with the ReplicaSet controller in the
 * same Manager and a fake kubelet making pods Running and Ready: what `kubectl create`,
 * `set image`, `scale`, `rollout status|undo|restart|pause|resume` see on a real cluster.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { type ReplicaSet, replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { eventDefinition } from '../../apiserver/api/core/event.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { computeHash } from '../../controllers/deployment/index.js';
import {
  type ControlPlane,
  controlledBy,
  deploymentManifest,
  expectRolledOut,
  type InvariantTracker,
  isAvailablePod,
  startControlPlane,
  trackInvariant,
} from '../support/deployment-harness.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
const HASH = 'pod-template-hash';
const REVISION = 'deployment.kubernetes.io/revision';

describe('Deployment controller', () => {
  const cluster = useTestCluster({ userAgent: 'deployment-controller-test' });
  const running: Array<ControlPlane | InvariantTracker> = [];
  const deployments = () => cluster.client.resource(deploymentDefinition);
  const replicaSets = () => cluster.client.resource(replicaSetDefinition);

  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
  });

  async function start(isReady?: (pod: { spec: { containers: ReadonlyArray<{ image?: string }> } }) => boolean): Promise<void> {
    running.push(await startControlPlane(cluster, { isReady }));
  }

  /** rolledOut waits for `kubectl rollout status` success and returns the Deployment. */
  const rolledOut = (name: string, timeoutMs = 15_000) =>
    eventually(
      async () => {
        const d = await deployments().get(NS, name);
        expectRolledOut(d);
        return d;
      },
      { timeoutMs },
    );
  const ownedReplicaSets = async (d: Deployment) => controlledBy((await replicaSets().list({ namespace: NS })).items, d);
  const byRevision = (rss: ReplicaSet[]) => new Map(rss.map((rs) => [rs.metadata.annotations?.[REVISION], rs]));
  const setImage = (name: string, image: string) =>
    deployments().patch(NS, name, { spec: { template: { spec: { containers: [{ name: 'nginx', image }] } } } }, { type: 'strategic' });
  const scalingEvents = async (name: string) =>
    (await cluster.client.resource(eventDefinition).list({ namespace: NS })).items.filter(
      (e) => e.involvedObject.name === name && e.reason === 'ScalingReplicaSet',
    );

  it('creates <name>-<pod-template-hash> with pods and reports what rollout status reads', async () => {
    await start();
    await deployments().create(deploymentManifest('web', { replicas: 3, annotations: { 'kubernetes.io/change-cause': 'first' } }));
    const d = await rolledOut('web');
    const [rs, ...others] = await ownedReplicaSets(d);
    expect(others).toEqual([]);
    const hash = computeHash(d.spec.template);
    expect(rs?.metadata.name).toBe(`web-${hash}`);
    expect(rs?.metadata.labels).toEqual({ app: 'web', [HASH]: hash });
    expect(rs?.spec.selector).toEqual({ matchLabels: { app: 'web', [HASH]: hash } });
    expect(rs?.spec.template?.metadata?.labels).toEqual({ app: 'web', [HASH]: hash });
    expect(rs?.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(rs?.metadata.annotations).toEqual({
      [REVISION]: '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
      'kubernetes.io/change-cause': 'first',
    });
    expect(d.metadata.annotations?.[REVISION]).toBe('1');
    const pods = controlledBy((await cluster.client.resource(podDefinition).list({ namespace: NS })).items, rs!);
    expect(pods.map((pod) => pod.metadata.labels?.[HASH])).toEqual([hash, hash, hash]);
    expect(d.status?.conditions?.map(({ type, status, reason, message }) => ({ type, status, reason, message }))).toEqual(
      expect.arrayContaining([
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
        { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: `ReplicaSet "web-${hash}" has successfully progressed.` },
      ]),
    );
    expect(d.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(d.status?.unavailableReplicas).toBeUndefined();
    await eventually(async () => {
      const events = await scalingEvents('web');
      expect(events.map((e) => [e.message, e.source?.component, e.involvedObject.kind])).toEqual([
        [`Scaled up replica set web-${hash} from 0 to 3`, 'deployment-controller', 'Deployment'],
      ]);
    });
  });

  it.each([
    { name: 'defaults (25% / 25%)', replicas: 4, maxSurge: '25%', maxUnavailable: '25%', surge: 1, unavailable: 1 },
    { name: 'surge only (2 / 0)', replicas: 4, maxSurge: 2, maxUnavailable: 0, surge: 2, unavailable: 0 },
  ])('rolls A → B within maxSurge and maxUnavailable at every event: $name', async ({ replicas, maxSurge, maxUnavailable, surge, unavailable }) => {
    await start();
    const strategy = { type: 'RollingUpdate' as const, rollingUpdate: { maxSurge, maxUnavailable } };
    const before = await deployments().create(deploymentManifest('web', { replicas, strategy }));
    await rolledOut('web');
    const tracker = await trackInvariant(cluster.client, NS, ({ pods, replicaSets: rss }) => {
      const specTotal = controlledBy([...rss] as ReplicaSet[], before).reduce((n, rs) => n + (rs.spec.replicas ?? 0), 0);
      if (specTotal > replicas + surge) return `ReplicaSets want ${specTotal} pods > ${replicas} + ${surge}`;
      const available = pods.filter((pod) => pod.metadata.labels?.['app'] === 'web' && isAvailablePod(pod)).length;
      if (available < replicas - unavailable) return `${available} available pods < ${replicas} - ${unavailable}`;
      return undefined;
    });
    running.push(tracker);
    await setImage('web', 'nginx:1.26');
    const d = await rolledOut('web');
    expect(tracker.violations).toEqual([]);
    expect(tracker.events).toBeGreaterThan(replicas * 2);
    const rss = byRevision(await ownedReplicaSets(d));
    expect([...rss.keys()].sort()).toEqual(['1', '2']);
    expect(rss.get('1')?.spec.replicas).toBe(0);
    expect(rss.get('2')?.spec.template?.spec.containers[0]?.image).toBe('nginx:1.26');
    expect(d.metadata.annotations?.[REVISION]).toBe('2');
  });

  it('Recreate stops every old pod before the first new one starts', async () => {
    await start();
    await deployments().create(deploymentManifest('web', { replicas: 3, strategy: { type: 'Recreate' } }));
    const before = await rolledOut('web');
    const oldHash = computeHash(before.spec.template);
    const tracker = await trackInvariant(cluster.client, NS, ({ pods }) => {
      const hashes = new Set(pods.map((pod) => pod.metadata.labels?.[HASH]));
      return hashes.size > 1 ? `old and new pods side by side: ${[...hashes].join(', ')}` : undefined;
    });
    running.push(tracker);
    await setImage('web', 'nginx:1.26');
    const d = await rolledOut('web');
    const newHash = computeHash(d.spec.template);
    expect(tracker.violations).toEqual([]);
    await eventually(async () => {
      const messages = (await scalingEvents('web')).map((e) => e.message);
      expect(messages).toEqual(
        expect.arrayContaining([`Scaled down replica set web-${oldHash} from 3 to 0`, `Scaled up replica set web-${newHash} from 0 to 3`]),
      );
    });
  });

  it('scales proportionally in the middle of a stuck rollout', async () => {
    await start((pod) => pod.spec.containers[0]?.image !== 'nginx:broken');
    const strategy = { type: 'RollingUpdate' as const, rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } };
    await deployments().create(deploymentManifest('web', { replicas: 10, strategy }));
    await rolledOut('web');
    await setImage('web', 'nginx:broken');
    const sizes = async () => {
      const d = await deployments().get(NS, 'web');
      const rss = byRevision(await ownedReplicaSets(d));
      return { old: rss.get('1'), new: rss.get('2') };
    };
    // 10 + 3 surge: the new ReplicaSet gets 5, the old keeps 8 (10 − 2 unavailable), then stops.
    await eventually(async () => {
      const { old, new: fresh } = await sizes();
      expect([old?.spec.replicas, fresh?.spec.replicas, fresh?.status?.replicas]).toEqual([8, 5, 5]);
    });
    await deployments().patch(NS, 'web', { spec: { replicas: 15 } }, { type: 'merge' });
    // 5 more (18 allowed − 13 present) split 8:5 → +3 old, +2 new.
    await eventually(async () => {
      const { old, new: fresh } = await sizes();
      expect([old?.spec.replicas, fresh?.spec.replicas]).toEqual([11, 7]);
      for (const rs of [old, fresh]) {
        expect(rs?.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/desired-replicas': '15', 'deployment.kubernetes.io/max-replicas': '18' });
      }
    });
  });

  it('rollout undo (a template JSON patch) makes the old ReplicaSet current with the next revision', async () => {
    await start();
    await deployments().create(deploymentManifest('web', { replicas: 2 }));
    await rolledOut('web');
    await setImage('web', 'nginx:1.26');
    const d = await rolledOut('web');
    const first = byRevision(await ownedReplicaSets(d)).get('1')!;
    // What `kubectl rollout undo` sends: the old template without its hash label, and the
    // Deployment's annotations with the old ReplicaSet's (minus the controller's own) on top.
    const { [HASH]: _hash, ...labels } = first.spec.template?.metadata?.labels ?? {};
    const template = { ...first.spec.template, metadata: { ...first.spec.template?.metadata, labels } };
    const skip = new Set([REVISION, 'deployment.kubernetes.io/desired-replicas', 'deployment.kubernetes.io/max-replicas']);
    const copied = Object.fromEntries(Object.entries(first.metadata.annotations ?? {}).filter(([key]) => !skip.has(key)));
    const undo = [
      { op: 'replace', path: '/spec/template', value: template },
      { op: 'replace', path: '/metadata/annotations', value: { ...d.metadata.annotations, ...copied } },
    ];
    await deployments().patch(NS, 'web', undo, { type: 'json' });
    const after = await rolledOut('web');
    const rss = await ownedReplicaSets(after);
    expect(rss).toHaveLength(2);
    const current = rss.find((rs) => rs.metadata.uid === first.metadata.uid);
    expect(current?.metadata.annotations).toMatchObject({ [REVISION]: '3', 'deployment.kubernetes.io/revision-history': '1' });
    expect(current?.spec.replicas).toBe(2);
    expect(after.metadata.annotations?.[REVISION]).toBe('3');
  });

  it('rollout restart (a template annotation) rolls out a new ReplicaSet', async () => {
    await start();
    await deployments().create(deploymentManifest('web', { replicas: 2 }));
    await rolledOut('web');
    const restartedAt = '2026-11-22T02:13:25Z';
    const patch = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': restartedAt } } } } };
    await deployments().patch(NS, 'web', patch, { type: 'strategic' });
    const d = await rolledOut('web');
    const rss = byRevision(await ownedReplicaSets(d));
    expect(rss.get('2')?.spec.template?.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toBe(restartedAt);
    expect(rss.get('1')?.spec.replicas).toBe(0);
  });

  it('a paused Deployment scales but does not roll out until resumed', async () => {
    await start();
    await deployments().create(deploymentManifest('web', { replicas: 2 }));
    await rolledOut('web');
    await deployments().patch(NS, 'web', { spec: { paused: true } }, { type: 'merge' });
    await setImage('web', 'nginx:1.26');
    await deployments().patch(NS, 'web', { spec: { replicas: 3 } }, { type: 'merge' });
    const paused = await eventually(async () => {
      const d = await deployments().get(NS, 'web');
      expect(d.status?.observedGeneration).toBe(d.metadata.generation);
      expect(d.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused' });
      expect((await ownedReplicaSets(d)).map((rs) => rs.spec.replicas)).toEqual([3]);
      return d;
    });
    expect((await ownedReplicaSets(paused))[0]?.spec.template?.spec.containers[0]?.image).toBe('nginx:1.25');
    await deployments().patch(NS, 'web', { spec: { paused: false } }, { type: 'merge' });
    const d = await rolledOut('web');
    expect(byRevision(await ownedReplicaSets(d)).get('2')?.spec.template?.spec.containers[0]?.image).toBe('nginx:1.26');
    await eventually(async () => {
      const progressing = (await deployments().get(NS, 'web')).status?.conditions?.find((c) => c.type === 'Progressing');
      expect(progressing?.reason).toBe('NewReplicaSetAvailable');
    });
  });

  it('keeps only revisionHistoryLimit old ReplicaSets', async () => {
    await start();
    await deployments().create(deploymentManifest('web', { replicas: 1, revisionHistoryLimit: 1 }));
    await rolledOut('web');
    for (const image of ['nginx:1.26', 'nginx:1.27']) {
      await setImage('web', image);
      await rolledOut('web');
    }
    await eventually(async () => {
      const rss = byRevision(await ownedReplicaSets(await deployments().get(NS, 'web')));
      expect([...rss.keys()].sort()).toEqual(['2', '3']);
    });
  });

  it('reports ProgressDeadlineExceeded when pods never become ready', async () => {
    await start((pod) => pod.spec.containers[0]?.image !== 'nginx:never-ready');
    await deployments().create(deploymentManifest('web', { replicas: 2, image: 'nginx:never-ready', progressDeadlineSeconds: 2 }));
    const d = await eventually(
      async () => {
        const current = await deployments().get(NS, 'web');
        expect(current.status?.conditions?.find((c) => c.type === 'Progressing')).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded' });
        return current;
      },
      { timeoutMs: 15_000 },
    );
    const hash = computeHash(d.spec.template);
    expect(d.status?.conditions?.find((c) => c.type === 'Progressing')?.message).toBe(`ReplicaSet "web-${hash}" has timed out progressing.`);
    expect(d.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
  });

  it('adopts a matching orphan ReplicaSet as an old revision and releases it once it stops matching', async () => {
    await start();
    const legacy: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web-legacy', namespace: NS, labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web', legacy: 'yes' } },
        template: { metadata: { labels: { app: 'web', legacy: 'yes' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.24' }] } },
      },
    };
    await replicaSets().create(legacy);
    await deployments().create(deploymentManifest('web', { replicas: 2 }));
    const d = await rolledOut('web');
    const adopted = await replicaSets().get(NS, 'web-legacy');
    expect(adopted.metadata.ownerReferences).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(adopted.spec.replicas).toBe(0);
    await replicaSets().patch(NS, 'web-legacy', { metadata: { labels: { app: 'other' } } }, { type: 'merge' });
    await eventually(async () => expect((await replicaSets().get(NS, 'web-legacy')).metadata.ownerReferences ?? []).toEqual([]));
  });

  it('resolves a pod-template-hash collision by bumping status.collisionCount', async () => {
    await start();
    const created = await deployments().create(deploymentManifest('web', { replicas: 1, paused: true }));
    const hash = computeHash(created.spec.template);
    const squatter: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: `web-${hash}`, namespace: NS, labels: { app: 'squatter' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'squatter' } },
        template: { metadata: { labels: { app: 'squatter' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
      },
    };
    await replicaSets().create(squatter);
    await deployments().patch(NS, 'web', { spec: { paused: false } }, { type: 'merge' });
    const d = await rolledOut('web');
    expect(d.status?.collisionCount).toBe(1);
    const [rs] = await ownedReplicaSets(d);
    expect(rs?.metadata.name).toBe(`web-${computeHash(d.spec.template, 1)}`);
    expect((await replicaSets().get(NS, `web-${hash}`)).metadata.ownerReferences).toBeUndefined();
  });
});
