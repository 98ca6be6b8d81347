import { describe, expect, it } from 'vitest';
import { ApiError } from '../../apiserver/api/api-error.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createExpectations } from '../runtime/expectations.js';
import { silentLogger } from '../runtime/logger.js';
import type { EventRecorder, ResourceClient } from '../runtime/types.js';
import { type ManageContext, manageReplicas, podFromTemplate } from './manage-replicas.js';

const rs: ReplicaSet = {
  metadata: { name: 'web', namespace: 'default', uid: 'rs-uid' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' }, annotations: { note: 'x' } },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    },
  },
};

function pod(name: string, ready = false): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' } },
    spec: { containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: ready ? 'Running' : 'Pending', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

/** fakePods is the slice of ResourceClient<Pod> manageReplicas uses: create fails from the
 * `failFrom`-th call on; delete fails for the names in `failDelete`. */
function fakePods(options: { failFrom?: number; failDelete?: Record<string, ApiError> } = {}) {
  const created: Pod[] = [];
  const deleted: string[] = [];
  let calls = 0;
  const client = {
    async create(object: Pod) {
      calls++;
      if (options.failFrom !== undefined && calls >= options.failFrom) throw new ApiError('Forbidden', 403, 'exceeded quota');
      const result = { ...object, metadata: { ...object.metadata, name: `web-${calls}` } };
      created.push(result);
      return result;
    },
    async delete(_namespace: string, name: string) {
      const failure = options.failDelete?.[name];
      if (failure) throw failure;
      deleted.push(name);
      return undefined;
    },
  } as unknown as ResourceClient<Pod>;
  return { client, created, deleted, calls: () => calls };
}

function context(overrides: Partial<ManageContext> & Pick<ManageContext, 'pods'>) {
  const events: string[] = [];
  const recorder: EventRecorder = { event: (_object, type, reason, message) => void events.push(`${type} ${reason} ${message}`) };
  const expectations = createExpectations({ clock: new FakeClock() });
  const full: ManageContext = {
    rs,
    key: 'default/web',
    ownedPods: [],
    relatedPods: [],
    recorder,
    expectations,
    logger: silentLogger,
    nowMs: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
  return { context: full, events, expectations };
}

describe('manageReplicas', () => {
  it('creates the missing pods and expects them in the cache', async () => {
    const pods = fakePods();
    const { context: ctx, events, expectations } = context({ pods: pods.client, ownedPods: [pod('a')] });
    expect(await manageReplicas(ctx)).toBeUndefined();
    expect(pods.created).toHaveLength(2);
    expect(events).toEqual(['Normal SuccessfulCreate Created pod: web-1', 'Normal SuccessfulCreate Created pod: web-2']);
    expect(expectations.satisfied('default/web')).toBe(false);
    expectations.creationObserved('default/web');
    expectations.creationObserved('default/web');
    expect(expectations.satisfied('default/web')).toBe(true);
  });

  it('stops at the first failing batch, reports it, and stops expecting what was never created', async () => {
    const pods = fakePods({ failFrom: 2 });
    const { context: ctx, events, expectations } = context({ pods: pods.client, rs: { ...rs, spec: { ...rs.spec, replicas: 10 } } });
    const error = await manageReplicas(ctx);
    expect(error?.message).toBe('exceeded quota');
    expect(pods.calls()).toBe(3); // batch [1] ok, batch [2] fails, no batch of 4
    expect(events).toEqual([
      'Normal SuccessfulCreate Created pod: web-1',
      'Warning FailedCreate Error creating: exceeded quota',
      'Warning FailedCreate Error creating: exceeded quota',
    ]);
    expectations.creationObserved('default/web'); // the informer sees the one pod created
    expect(expectations.satisfied('default/web')).toBe(true);
  });

  it('deletes the surplus in rank order, tolerating pods that are already gone', async () => {
    const pods = fakePods({ failDelete: { b: new ApiError('NotFound', 404, 'pods "b" not found') } });
    const owned = [pod('ready-1', true), pod('a'), pod('ready-2', true), pod('b'), pod('ready-3', true)];
    const { context: ctx, events, expectations } = context({ pods: pods.client, ownedPods: owned });
    expect(await manageReplicas(ctx)).toBeUndefined();
    expect(pods.deleted).toEqual(['a']);
    expect(events).toEqual(['Normal SuccessfulDelete Deleted pod: a']);
    expect(expectations.satisfied('default/web')).toBe(false);
    expectations.deletionObserved('default/web', 'default/a');
    expect(expectations.satisfied('default/web')).toBe(true);
  });

  it('reports a failed delete with a FailedDelete event', async () => {
    const pods = fakePods({ failDelete: { a: new ApiError('InternalError', 500, 'disk full') } });
    const owned = [pod('a'), pod('ready-1', true), pod('ready-2', true), pod('ready-3', true)];
    const { context: ctx, events } = context({ pods: pods.client, ownedPods: owned });
    expect((await manageReplicas(ctx))?.message).toBe('disk full');
    expect(events).toEqual(['Warning FailedDelete Error deleting: disk full']);
  });

  it('does nothing when the count is right', async () => {
    const pods = fakePods();
    const { context: ctx, events } = context({ pods: pods.client, ownedPods: [pod('a'), pod('b'), pod('c')] });
    expect(await manageReplicas(ctx)).toBeUndefined();
    expect(pods.calls()).toBe(0);
    expect(events).toEqual([]);
  });
});

describe('podFromTemplate', () => {
  it('copies labels, annotations and spec, sets generateName and the controller reference', () => {
    const created = podFromTemplate(rs);
    expect(created).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'web-',
        namespace: 'default',
        labels: { app: 'web' },
        annotations: { note: 'x' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }],
      },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    });
    created.metadata.labels!['app'] = 'changed';
    expect(rs.spec.template?.metadata?.labels?.['app']).toBe('web');
  });
});
