import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createExpectations } from '../runtime/expectations.js';
import type { DeepReadonly, Lister, WorkQueue } from '../runtime/types.js';
import { podEventHandlers, replicaSetEventHandlers } from './event-handlers.js';

function replicaSet(name: string, app: string, minReadySeconds = 0): ReplicaSet {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { replicas: 1, minReadySeconds, selector: { matchLabels: { app } } },
  };
}

function pod(name: string, options: { app?: string; owner?: ReplicaSet; rv?: string; ready?: boolean; deleting?: boolean } = {}): Pod {
  const result: Pod = {
    metadata: { name, namespace: 'default', resourceVersion: options.rv ?? '1', labels: { app: options.app ?? 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
    status: { conditions: [{ type: 'Ready', status: options.ready ? 'True' : 'False' }] },
  };
  if (options.owner) {
    const { name: ownerName = '', uid = '' } = options.owner.metadata;
    result.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: ownerName, uid, controller: true }];
  }
  if (options.deleting) result.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
  return result;
}

function listerOf(items: ReplicaSet[]): Lister<ReplicaSet> {
  const all = items as DeepReadonly<ReplicaSet>[];
  return {
    get: (namespace, name) => all.find((rs) => rs.metadata.namespace === namespace && rs.metadata.name === name),
    list: (namespace) => all.filter((rs) => namespace === undefined || rs.metadata.namespace === namespace),
    byIndex: () => [],
  };
}

/** recordingQueue records add/addAfter; the handlers must not use anything else. */
function recordingQueue() {
  const added: string[] = [];
  const delayed: Array<[string, number]> = [];
  const queue = {
    add: (key: string) => void added.push(key),
    addAfter: (key: string, delayMs: number) => void delayed.push([key, delayMs]),
  } as unknown as WorkQueue;
  return { queue, added, delayed };
}

function setup(replicaSets: ReplicaSet[]) {
  const { queue, added, delayed } = recordingQueue();
  const expectations = createExpectations({ clock: new FakeClock() });
  const deps = { replicaSetLister: listerOf(replicaSets), expectations, queue };
  return { pods: podEventHandlers(deps), sets: replicaSetEventHandlers(deps), expectations, added, delayed };
}

const web = replicaSet('web', 'web');
const api = replicaSet('api', 'api');

describe('pod event handlers', () => {
  it('wake the controlling ReplicaSet of a new pod and count it as an observed creation', () => {
    const { pods, expectations, added } = setup([web, api]);
    expectations.expectCreations('default/web', 1);
    pods.onAdd?.(pod('a', { owner: web }));
    expect(added).toEqual(['default/web']);
    expect(expectations.satisfied('default/web')).toBe(true);
  });

  it('wake every ReplicaSet whose selector matches an orphan, without observing a creation', () => {
    const { pods, expectations, added } = setup([web, api, replicaSet('web-too', 'web')]);
    expectations.expectCreations('default/web', 1);
    pods.onAdd?.(pod('orphan'));
    expect(added.sort()).toEqual(['default/web', 'default/web-too']);
    expect(expectations.satisfied('default/web')).toBe(false);
  });

  it('ignore pods whose controller is another kind or a ReplicaSet that no longer exists', () => {
    const { pods, added } = setup([web]);
    const foreign = pod('a', { owner: web });
    foreign.metadata.ownerReferences![0]!.kind = 'StatefulSet';
    pods.onAdd?.(foreign);
    pods.onAdd?.(pod('b', { owner: { ...web, metadata: { ...web.metadata, uid: 'recreated' } } }));
    expect(added).toEqual([]);
  });

  it('skip resync updates (same resourceVersion)', () => {
    const { pods, added } = setup([web]);
    const same = pod('a', { owner: web });
    pods.onUpdate?.(same, same);
    expect(added).toEqual([]);
  });

  it('wake both the old and the new owner when a relabelled orphan changes hands', () => {
    const { pods, added } = setup([web, api]);
    pods.onUpdate?.(pod('a', { owner: web }), pod('a', { app: 'api', rv: '2' }));
    expect(added).toEqual(['default/web', 'default/api']);
  });

  it('count a graceful deletion once, whether seen as an update or as the delete', () => {
    const { pods, expectations, added } = setup([web]);
    expectations.expectDeletions('default/web', ['default/a', 'default/b']);
    pods.onUpdate?.(pod('a', { owner: web }), pod('a', { owner: web, rv: '2', deleting: true }));
    pods.onDelete?.(pod('a', { owner: web, rv: '3', deleting: true }));
    expect(expectations.satisfied('default/web')).toBe(false);
    pods.onDelete?.(pod('b', { owner: web }));
    expect(expectations.satisfied('default/web')).toBe(true);
    expect(added).toEqual(['default/web', 'default/web', 'default/web']);
  });

  it('look again after minReadySeconds (+1 s) when a pod becomes ready', () => {
    const slow = replicaSet('slow', 'slow', 10);
    const { pods, delayed } = setup([slow]);
    pods.onUpdate?.(pod('a', { app: 'slow', owner: slow }), pod('a', { app: 'slow', owner: slow, rv: '2', ready: true }));
    expect(delayed).toEqual([['default/slow', 11_000]]);
  });

  it('ignore deleted orphans', () => {
    const { pods, added } = setup([web]);
    pods.onDelete?.(pod('orphan'));
    expect(added).toEqual([]);
  });
});

describe('ReplicaSet event handlers', () => {
  it('enqueue on add and on every update, and drop expectations on delete or re-creation', () => {
    const { sets, expectations, added } = setup([web]);
    sets.onAdd?.(web);
    sets.onUpdate?.(web, web);
    expectations.expectCreations('default/web', 3);
    sets.onUpdate?.(web, { ...web, metadata: { ...web.metadata, uid: 'new-uid' } });
    expect(expectations.satisfied('default/web')).toBe(true);
    expectations.expectCreations('default/web', 3);
    sets.onDelete?.(web);
    expect(expectations.satisfied('default/web')).toBe(true);
    expect(added).toEqual(['default/web', 'default/web', 'default/web', 'default/web', 'default/web']);
  });
});
