import { describe, expect, it } from 'vitest';
import { type DeletionReport, failedConditions, hasContentLeft, mergeConditions } from './conditions.js';

const clean: DeletionReport = { contentErrors: [], remainingByResource: new Map(), remainingByFinalizer: new Map() };
const T0 = '2024-01-01T00:00:00Z';
const T1 = '2024-01-01T00:00:05Z';

describe('failedConditions', () => {
  it('is empty when everything was deleted', () => {
    expect(failedConditions(clean)).toEqual([]);
    expect(hasContentLeft(clean)).toBe(false);
  });

  it('names remaining kinds and finalizers the way Kubernetes does, sorted', () => {
    const report: DeletionReport = {
      ...clean,
      remainingByResource: new Map([
        ['pods.', 2],
        ['configmaps.', 1],
        ['deployments.apps', 0],
      ]),
      remainingByFinalizer: new Map([
        ['example.com/b', 1],
        ['example.com/a', 3],
      ]),
    };
    expect(failedConditions(report)).toEqual([
      {
        type: 'NamespaceContentRemaining',
        reason: 'SomeResourcesRemain',
        message: 'Some resources are remaining: configmaps. has 1 resource instances, pods. has 2 resource instances',
      },
      {
        type: 'NamespaceFinalizersRemaining',
        reason: 'SomeFinalizersRemain',
        message: 'Some content in the namespace has finalizers remaining: example.com/a in 3 resource instances, example.com/b in 1 resource instances',
      },
    ]);
    expect(hasContentLeft(report)).toBe(true);
  });

  it('reports discovery and content failures', () => {
    const report: DeletionReport = { ...clean, discoveryError: 'connection refused', contentErrors: ['pods.: boom', 'leases.coordination.k8s.io: bang'] };
    expect(failedConditions(report)).toEqual([
      { type: 'NamespaceDeletionDiscoveryFailure', reason: 'DiscoveryFailed', message: 'Discovery failed: connection refused' },
      {
        type: 'NamespaceDeletionContentFailure',
        reason: 'ContentDeletionFailed',
        message: 'Failed to delete all resource types, 2 remaining: leases.coordination.k8s.io: bang, pods.: boom',
      },
    ]);
    expect(hasContentLeft(report)).toBe(true);
  });
});

describe('mergeConditions', () => {
  it('writes all five types, False unless failed', () => {
    const { conditions, changed } = mergeConditions([], failedConditions({ ...clean, remainingByResource: new Map([['pods.', 1]]) }), T0);
    expect(changed).toBe(true);
    expect(conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain'],
      ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers'],
    ]);
    expect(conditions.every((c) => c.lastTransitionTime === T0)).toBe(true);
  });

  it('changes nothing when the report says the same again', () => {
    const failed = failedConditions({ ...clean, remainingByResource: new Map([['pods.', 1]]) });
    const first = mergeConditions([], failed, T0).conditions;
    expect(mergeConditions(first, failed, T1)).toEqual({ conditions: first, changed: false });
  });

  it('moves lastTransitionTime only when the status flips', () => {
    const first = mergeConditions([], failedConditions({ ...clean, remainingByResource: new Map([['pods.', 2]]) }), T0).conditions;
    const fewer = mergeConditions(first, failedConditions({ ...clean, remainingByResource: new Map([['pods.', 1]]) }), T1);
    const remaining = () => fewer.conditions.find((c) => c.type === 'NamespaceContentRemaining');
    expect(fewer.changed).toBe(true);
    expect(remaining()).toMatchObject({ status: 'True', message: 'Some resources are remaining: pods. has 1 resource instances', lastTransitionTime: T0 });
    const none = mergeConditions(fewer.conditions, [], T1).conditions.find((c) => c.type === 'NamespaceContentRemaining');
    expect(none).toMatchObject({ status: 'False', reason: 'ContentRemoved', lastTransitionTime: T1 });
  });

  it('keeps conditions of other types and does not mutate its input', () => {
    const existing = [{ type: 'example.com/Custom', status: 'True' as const, reason: 'Mine' }];
    const frozen = Object.freeze(existing.map((c) => Object.freeze({ ...c })));
    const { conditions } = mergeConditions(frozen, [], T0);
    expect(conditions[0]).toEqual(existing[0]);
    expect(conditions).toHaveLength(6);
  });
});
