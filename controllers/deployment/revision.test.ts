import { describe, expect, it } from 'vitest';
import {
  byRevision,
  CHANGE_CAUSE_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  historyToDelete,
  MAX_REPLICAS_ANNOTATION,
  maxRevision,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  revisionOf,
  setDeploymentRevision,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from './revision.js';
import { deploymentFixture, replicaSetFixture } from './testing/fixtures.js';

const withRevision = (name: string, revision: string | undefined, created = '2016-05-20T00:00:00Z') =>
  replicaSetFixture(name, { replicas: 0, created, annotations: revision === undefined ? {} : { [REVISION_ANNOTATION]: revision } });

describe('revisions', () => {
  it('reads 0 for no annotation and skips unparseable ones in maxRevision', () => {
    expect(revisionOf(withRevision('a', undefined))).toBe(0);
    expect(revisionOf(withRevision('a', 'x'))).toBeUndefined();
    expect(maxRevision([withRevision('a', '3'), withRevision('b', 'x'), withRevision('c', '7'), withRevision('d', undefined)])).toBe(7);
    expect(maxRevision([])).toBe(0);
  });

  it('orders by revision, falling back to creation time', () => {
    const rss = [
      withRevision('c', '3', '2016-05-20T00:00:00Z'),
      withRevision('b', 'x', '2016-05-20T02:00:00Z'),
      withRevision('a', '1', '2016-05-20T01:00:00Z'),
    ];
    expect([...rss].sort(byRevision).map((rs) => rs.metadata.name)).toEqual(['a', 'c', 'b']);
  });

  it('sets the Deployment revision and reports changes', () => {
    const d = deploymentFixture();
    expect(setDeploymentRevision(d, '2')).toBe(true);
    expect(setDeploymentRevision(d, '2')).toBe(false);
    expect(d.metadata.annotations?.[REVISION_ANNOTATION]).toBe('2');
  });
});

describe('setNewReplicaSetAnnotations (TestAnnotationUtils)', () => {
  it('raises the revision and keeps a bounded history of the old ones', () => {
    const d = deploymentFixture();
    d.metadata.annotations = { [REVISION_ANNOTATION]: '1' };
    const rs = replicaSetFixture('foo-1', { replicas: 1 });
    for (let i = 10; i < 20; i++) {
      setNewReplicaSetAnnotations(d, rs, { newRevision: i + 1, exists: true, historyLimitChars: 5, maxSurge: 0 });
      expect(rs.metadata.annotations?.[REVISION_ANNOTATION]).toBe(String(i + 1));
      if (i >= 12) expect(rs.metadata.annotations?.[REVISION_HISTORY_ANNOTATION]).toBe(`${i - 1},${i}`);
    }
  });

  it('never lowers a revision (old ReplicaSets deleted after the bump)', () => {
    const rs = withRevision('foo-1', '5');
    expect(setNewReplicaSetAnnotations(deploymentFixture(), rs, { newRevision: 3, exists: true, maxSurge: 0 })).toBe(false);
    expect(rs.metadata.annotations?.[REVISION_ANNOTATION]).toBe('5');
  });

  it('leaves a non-numeric revision alone and reports no change', () => {
    const d = deploymentFixture();
    d.metadata.annotations = { team: 'a' };
    const rs = withRevision('foo-1', 'oops');
    expect(setNewReplicaSetAnnotations(d, rs, { newRevision: 3, exists: true, maxSurge: 0 })).toBe(false);
  });

  it('copies change-cause but not the annotations the controller owns', () => {
    const d = deploymentFixture({ replicas: 3 });
    d.metadata.annotations = {
      [CHANGE_CAUSE_ANNOTATION]: 'kubectl set image',
      [REVISION_ANNOTATION]: '9',
      [DESIRED_REPLICAS_ANNOTATION]: '99',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
    };
    const rs = withRevision('foo-1', undefined);
    expect(setNewReplicaSetAnnotations(d, rs, { newRevision: 1, exists: false, maxSurge: 1 })).toBe(true);
    expect(rs.metadata.annotations).toEqual({
      [CHANGE_CAUSE_ANNOTATION]: 'kubectl set image',
      [REVISION_ANNOTATION]: '1',
      [DESIRED_REPLICAS_ANNOTATION]: '3',
      [MAX_REPLICAS_ANNOTATION]: '4',
    });
  });

  it('sets replica annotations only when they differ', () => {
    const rs = withRevision('foo-1', '1');
    expect(setReplicasAnnotations(rs, 10, 11)).toBe(true);
    expect(setReplicasAnnotations(rs, 10, 11)).toBe(false);
    expect(rs.metadata.annotations?.[MAX_REPLICAS_ANNOTATION]).toBe('11');
  });
});

describe('historyToDelete (TestDeploymentController_cleanupDeployment)', () => {
  const rs = (name: string, replicas: number, statusReplicas: number, extra: { deleting?: boolean; revision?: number } = {}) =>
    replicaSetFixture(name, {
      replicas,
      statusReplicas,
      deleting: extra.deleting,
      annotations: { [REVISION_ANNOTATION]: String(extra.revision ?? Number(name.slice(-1))) },
    });
  it.each([
    { limit: 1, old: [rs('foo-1', 0, 0), rs('foo-2', 0, 0), rs('foo-3', 0, 0)], want: ['foo-1', 'foo-2'] },
    { limit: 0, old: [rs('foo-1', 0, 0), rs('foo-2', 0, 1), rs('foo-3', 1, 0), rs('foo-4', 1, 1)], want: ['foo-1'] },
    { limit: 0, old: [rs('foo-1', 0, 0), rs('foo-2', 0, 0)], want: ['foo-1', 'foo-2'] },
    { limit: 0, old: [rs('foo-1', 1, 1), rs('foo-2', 1, 1)], want: [] },
    { limit: 0, old: [rs('foo-1', 0, 0, { deleting: true })], want: [] },
    { limit: 2_147_483_647, old: [rs('foo-1', 0, 0), rs('foo-2', 0, 0), rs('foo-3', 0, 0)], want: [] },
  ])('limit $limit deletes $want', ({ limit, old, want }) => {
    const d = deploymentFixture({ revisionHistoryLimit: limit });
    expect(historyToDelete(d, old).map((r) => r.metadata.name)).toEqual(want);
  });

  it('deletes the lowest revisions first, whatever their creation order', () => {
    const old = [rs('foo-a', 0, 0, { revision: 5 }), rs('foo-b', 0, 0, { revision: 2 }), rs('foo-c', 0, 0, { revision: 4 })];
    expect(historyToDelete(deploymentFixture({ revisionHistoryLimit: 1 }), old).map((r) => r.metadata.name)).toEqual(['foo-b', 'foo-c']);
  });

  it('keeps a replica set its controller has not caught up with', () => {
    const stale = replicaSetFixture('foo-1', { replicas: 0, statusReplicas: 0, generation: 3, observedGeneration: 2 });
    expect(historyToDelete(deploymentFixture({ revisionHistoryLimit: 0 }), [stale])).toEqual([]);
  });

  it('keeps everything without a limit', () => {
    expect(historyToDelete(deploymentFixture(), [rs('foo-1', 0, 0)])).toEqual([]);
  });
});
