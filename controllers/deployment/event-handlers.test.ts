/**
 * Which events wake which Deployment, with listers over plain arrays and a recording queue.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';
import { deploymentEventHandlers, type HandlerDeps, podEventHandlers, replicaSetEventHandlers } from './event-handlers.js';
import { controllerRefTo } from './new-replica-set.js';
import { oldPodsRunning } from './recreate.js';
import { deploymentFixture, replicaSetFixture } from './testing/fixtures.js';

function listerOf<T extends { metadata: { namespace?: string; name?: string } }>(items: T[]): Lister<T> {
  const all = items as unknown as DeepReadonly<T>[];
  return {
    get: (namespace, name) => all.find((item) => item.metadata.namespace === namespace && item.metadata.name === name),
    list: (namespace) => all.filter((item) => namespace === undefined || item.metadata.namespace === namespace),
    byIndex: () => [],
  };
}

function setup(deployments: Deployment[], replicaSets: ReplicaSet[] = []) {
  const woken: string[] = [];
  const deps: HandlerDeps = {
    deploymentLister: listerOf(deployments),
    replicaSetLister: listerOf(replicaSets),
    enqueue: (d) => woken.push(d.metadata.name ?? ''),
  };
  return { deps, woken };
}

const owned = (rs: ReplicaSet, d: Deployment) => {
  rs.metadata.ownerReferences = [controllerRefTo(d)];
  rs.metadata.labels = { app: 'foo' };
  return rs;
};

describe('deployment events', () => {
  it('enqueue the Deployment on add, update and delete', () => {
    const d = deploymentFixture();
    const { deps, woken } = setup([d]);
    const handlers = deploymentEventHandlers(deps);
    handlers.onAdd?.(d);
    handlers.onUpdate?.(d, d);
    handlers.onDelete?.(d);
    expect(woken).toEqual(['foo', 'foo', 'foo']);
  });
});

describe('replica set events', () => {
  it('wake the controlling Deployment only when it is the same object (uid)', () => {
    const d = deploymentFixture();
    const rs = owned(replicaSetFixture('foo-1', { replicas: 1 }), d);
    const impostor = owned(replicaSetFixture('foo-2', { replicas: 1 }), { ...d, metadata: { ...d.metadata, uid: 'other' } });
    const { deps, woken } = setup([d]);
    const handlers = replicaSetEventHandlers(deps);
    handlers.onAdd?.(rs);
    handlers.onAdd?.(impostor);
    handlers.onDelete?.(rs);
    expect(woken).toEqual(['foo', 'foo']);
  });

  it('wake every Deployment selecting an orphan, but not one with an empty selector', () => {
    const a = deploymentFixture({ name: 'foo' });
    const everything = deploymentFixture({ name: 'all' });
    everything.spec.selector = {};
    const orphan = replicaSetFixture('orphan', { replicas: 1 });
    orphan.metadata.labels = { app: 'foo' };
    const { deps, woken } = setup([a, everything]);
    replicaSetEventHandlers(deps).onAdd?.(orphan);
    expect(woken).toEqual(['foo']);
  });

  it('ignore resyncs, and wake the old owner when the controller reference moves', () => {
    const a = deploymentFixture({ name: 'a' });
    const b = deploymentFixture({ name: 'b' });
    const before = owned(replicaSetFixture('rs', { replicas: 1 }), a);
    before.metadata.resourceVersion = '1';
    const after = owned(structuredClone(before), b);
    after.metadata.resourceVersion = '2';
    const { deps, woken } = setup([a, b]);
    const handlers = replicaSetEventHandlers(deps);
    handlers.onUpdate?.(before, before);
    expect(woken).toEqual([]);
    handlers.onUpdate?.(before, after);
    expect(woken).toEqual(['a', 'b']);
  });

  it('treat a replica set first seen while being deleted as a delete', () => {
    const d = deploymentFixture();
    const rs = owned(replicaSetFixture('foo-1', { replicas: 1, deleting: true }), d);
    const { deps, woken } = setup([d]);
    replicaSetEventHandlers(deps).onAdd?.(rs);
    expect(woken).toEqual(['foo']);
  });
});

describe('pod events', () => {
  const podOf = (rs: ReplicaSet): Pod => ({
    metadata: {
      name: 'p',
      namespace: 'default',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name ?? '', uid: rs.metadata.uid ?? '', controller: true }],
    },
    spec: { containers: [{ name: 'app' }] },
  });

  it('wake a Recreate Deployment when one of its pods is deleted, not a rolling one', () => {
    const recreate = deploymentFixture({ name: 'foo', strategy: 'Recreate' });
    const rolling = deploymentFixture({ name: 'bar' });
    const rsA = owned(replicaSetFixture('foo-1', { replicas: 1 }), recreate);
    const rsB = owned(replicaSetFixture('bar-1', { replicas: 1 }), rolling);
    const { deps, woken } = setup([recreate, rolling], [rsA, rsB]);
    const handlers = podEventHandlers(deps);
    handlers.onDelete?.(podOf(rsA));
    handlers.onDelete?.(podOf(rsB));
    expect(woken).toEqual(['foo']);
  });
});

describe('oldPodsRunning', () => {
  const newRS = replicaSetFixture('new', { replicas: 1 });
  const oldRS = replicaSetFixture('old', { replicas: 0, statusReplicas: 0 });
  const pod = (phase: NonNullable<Pod['status']>['phase']): Pod => ({ metadata: { name: 'p' }, spec: { containers: [] }, status: { phase } });
  it.each([
    { name: 'no pods at all', pods: new Map(), want: false },
    { name: 'only new pods', pods: new Map([['uid-new', [pod('Running')]]]), want: false },
    { name: 'a running old pod', pods: new Map([['uid-old', [pod('Running')]]]), want: true },
    { name: 'an old pod in Unknown', pods: new Map([['uid-old', [pod('Unknown')]]]), want: true },
    { name: 'only finished old pods', pods: new Map([['uid-old', [pod('Succeeded'), pod('Failed')]]]), want: false },
  ])('$name → $want', ({ pods, want }) => {
    expect(oldPodsRunning(newRS, [oldRS], pods)).toBe(want);
  });

  it('is true while an old replica set still reports pods', () => {
    expect(oldPodsRunning(newRS, [replicaSetFixture('old', { replicas: 0, statusReplicas: 1 })], new Map())).toBe(true);
  });
});
