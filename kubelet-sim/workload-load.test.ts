import { describe, expect, it } from 'vitest';
import type { Pod } from '../apiserver/api/core/pod.js';
import type { KubeObject } from '../apiserver/api/resource-definition.js';
import { IndexStore } from '../controllers/runtime/index-store.js';
import { createLister } from '../controllers/runtime/lister.js';
import { podUsage } from './usage.js';
import { isServing, LOAD_CPU_ANNOTATION, LOAD_MEMORY_ANNOTATION, loadShares, ownerLookupFrom, parseLoad, workloadOf } from './workload-load.js';

const MI = 1024 * 1024;

function owner(kind: string, name: string, uid: string) {
  return { apiVersion: 'apps/v1', kind, name, uid, controller: true };
}

function deployment(annotations: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', uid: 'd-1', annotations } };
}

function replicaSet(name: string, uid: string, annotations: Record<string, string> = {}, ownedBy: KubeObject | undefined = deployment()): KubeObject {
  const ownerReferences = ownedBy ? [owner('Deployment', ownedBy.metadata.name ?? '', ownedBy.metadata.uid ?? '')] : undefined;
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'default', uid, annotations, ownerReferences } };
}

function pod(name: string, rs: KubeObject | undefined, state: { ready?: boolean; terminating?: boolean } = {}): Pod {
  const ready = state.ready ?? true;
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      ownerReferences: rs ? [owner('ReplicaSet', rs.metadata.name ?? '', rs.metadata.uid ?? '')] : undefined,
      ...(state.terminating ? { deletionTimestamp: '2024-01-01T00:00:00Z' } : {}),
    },
    spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      containerStatuses: [{ name: 'nginx', image: 'nginx', imageID: '', ready, restartCount: 0, state: { running: { startedAt: '2024-01-01T00:00:00Z' } } }],
    },
  };
}

function lookup(...objects: KubeObject[]) {
  const listers: Record<string, ReturnType<typeof createLister<KubeObject>>> = {};
  for (const kind of ['ReplicaSet', 'Deployment']) {
    const store = new IndexStore<KubeObject>();
    for (const o of objects.filter((o) => o.kind === kind)) store.upsert(o);
    listers[`apps/v1/${kind}`] = createLister(store);
  }
  return ownerLookupFrom(listers);
}

const rs = replicaSet('web-abc', 'rs-1');
const loaded = deployment({ [LOAD_CPU_ANNOTATION]: '1400m' });

describe('workloadOf', () => {
  it('follows pod → ReplicaSet → Deployment to the root of the controller chain', () => {
    expect(workloadOf(pod('p', rs), lookup(rs, loaded))?.metadata.uid).toBe('d-1');
  });

  it('stops where the chain leaves the caches or a uid does not match', () => {
    expect(workloadOf(pod('p', rs), lookup(rs))?.metadata.uid).toBe('rs-1');
    expect(workloadOf(pod('p', rs), lookup(rs, { ...loaded, metadata: { ...loaded.metadata, uid: 'other' } }))?.metadata.uid).toBe('rs-1');
    expect(workloadOf(pod('p', undefined), lookup(rs, loaded))).toBeUndefined();
  });

  it('survives an owner cycle', () => {
    const a = replicaSet('a', 'a', {}, undefined);
    const b = replicaSet('b', 'b', {}, undefined);
    a.metadata.ownerReferences = [owner('ReplicaSet', 'b', 'b')];
    b.metadata.ownerReferences = [owner('ReplicaSet', 'a', 'a')];
    expect(workloadOf(pod('p', a), lookup(a, b))).toBeDefined();
  });
});

describe('parseLoad', () => {
  it('reads CPU in millicores and memory in bytes', () => {
    expect(parseLoad({ [LOAD_CPU_ANNOTATION]: '1.5', [LOAD_MEMORY_ANNOTATION]: '512Mi' })).toEqual({
      demand: { cpuMillis: 1500, memoryBytes: 512 * MI },
      problems: [],
    });
    expect(parseLoad(undefined)).toEqual({ demand: {}, problems: [] });
  });

  it('reports and ignores unreadable or negative values', () => {
    const parsed = parseLoad({ [LOAD_CPU_ANNOTATION]: 'lots', [LOAD_MEMORY_ANNOTATION]: '-1Gi' });
    expect(parsed.demand).toEqual({});
    expect(parsed.problems).toHaveLength(2);
    expect(parsed.problems[0]).toContain('kubesim.io/load-cpu: "lots"');
  });
});

describe('loadShares', () => {
  it('divides the demand evenly over the serving pods', () => {
    const pods = ['a', 'b', 'c'].map((n) => pod(n, rs));
    const shares = loadShares(pods, lookup(rs, loaded));
    expect([...shares.byPodUid.values()].map((s) => s.cpuMillis)).toEqual([1400 / 3, 1400 / 3, 1400 / 3]);
  });

  it('lowers each pod’s share when the workload scales out', () => {
    const few = loadShares(
      ['a', 'b', 'c'].map((n) => pod(n, rs)),
      lookup(rs, loaded),
    );
    const many = loadShares(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => pod(n, rs)),
      lookup(rs, loaded),
    );
    const cpu = (shares: typeof few) =>
      podUsage({ pod: pod('a', rs), fixed: { cpu: '0' }, share: shares.byPodUid.get('uid-a'), capacity: { cpuMillis: 4000, memoryBytes: 16 * 1024 * MI } })[0]
        ?.cpuMillis;
    expect(cpu(few)).toBe(467);
    expect(cpu(many)).toBe(233);
  });

  it('counts the pods of every ReplicaSet of the workload (a rollout in progress)', () => {
    const old = replicaSet('web-old', 'rs-0');
    const shares = loadShares([pod('a', rs), pod('b', old)], lookup(rs, old, loaded));
    expect(shares.byPodUid.get('uid-b')).toEqual({ cpuMillis: 700 });
  });

  it('gives pods that are not ready or are terminating no share, and leaves them out of the count', () => {
    const pods = [pod('a', rs), pod('b', rs, { ready: false }), pod('c', rs, { terminating: true })];
    const shares = loadShares(pods, lookup(rs, loaded));
    expect([...shares.byPodUid.entries()]).toEqual([['uid-a', { cpuMillis: 1400 }]]);
    expect(pods.map(isServing)).toEqual([true, false, false]);
  });

  it('reads the load from the workload only, not from copies on its ReplicaSets', () => {
    const copied = replicaSet('web-abc', 'rs-1', { [LOAD_CPU_ANNOTATION]: '1400m' });
    expect(loadShares([pod('a', copied)], lookup(copied, deployment())).byPodUid.size).toBe(0);
    expect(loadShares([pod('a', copied)], lookup(copied)).byPodUid.get('uid-a')).toEqual({ cpuMillis: 1400 });
  });

  it('reports unreadable load annotations per workload', () => {
    const bad = deployment({ [LOAD_CPU_ANNOTATION]: 'lots' });
    const shares = loadShares([pod('a', rs)], lookup(rs, bad));
    expect(shares.byPodUid.size).toBe(0);
    expect(shares.problems.get('d-1')?.workload).toBe('Deployment default/web');
  });
});
