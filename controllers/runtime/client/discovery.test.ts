import { describe, expect, it } from 'vitest';
import { parseAggregatedDiscovery } from './discovery.js';

const resource = (plural: string, kind: string, scope = 'Namespaced', verbs = ['get', 'list', 'watch', 'delete']) => ({
  resource: plural,
  responseKind: { group: '', version: '', kind },
  scope,
  verbs,
  subresources: [{ subresource: 'status', responseKind: { kind }, verbs: ['get'] }],
});

describe('parseAggregatedDiscovery', () => {
  it('keeps each group at its preferred (first) version only', () => {
    const body = {
      kind: 'APIGroupDiscoveryList',
      items: [
        {
          metadata: { name: 'autoscaling' },
          versions: [
            { version: 'v2', resources: [resource('horizontalpodautoscalers', 'HorizontalPodAutoscaler')] },
            { version: 'v1', resources: [resource('horizontalpodautoscalers', 'HorizontalPodAutoscaler')] },
          ],
        },
        { metadata: { name: 'apps' }, versions: [{ version: 'v1', resources: [resource('deployments', 'Deployment')] }] },
      ],
    };
    expect(parseAggregatedDiscovery(body)).toEqual([
      {
        group: 'autoscaling',
        version: 'v2',
        plural: 'horizontalpodautoscalers',
        kind: 'HorizontalPodAutoscaler',
        namespaced: true,
        verbs: ['get', 'list', 'watch', 'delete'],
      },
      { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true, verbs: ['get', 'list', 'watch', 'delete'] },
    ]);
  });

  it('reads the core group (no name) and cluster scope', () => {
    const body = { items: [{ metadata: {}, versions: [{ version: 'v1', resources: [resource('namespaces', 'Namespace', 'Cluster', ['list'])] }] }] };
    expect(parseAggregatedDiscovery(body)).toEqual([{ group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false, verbs: ['list'] }]);
  });

  it('skips malformed entries instead of throwing', () => {
    expect(parseAggregatedDiscovery(undefined)).toEqual([]);
    expect(parseAggregatedDiscovery({ items: [{ versions: [] }, { versions: [{ resources: [] }] }] })).toEqual([]);
    const body = {
      items: [{ metadata: { name: 'x' }, versions: [{ version: 'v1', resources: [{ resource: 'things' }, { responseKind: { kind: 'Thing' } }] }] }],
    };
    expect(parseAggregatedDiscovery(body)).toEqual([]);
  });
});
