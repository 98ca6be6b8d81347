import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../resource-definition.js';
import type { Pod } from './pod.js';
import { computeUsage, isPodCounted } from './quota-usage.js';
import type { ResourceQuota } from './resource-quota.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function pod(name: string, resources: { requests?: Record<string, string>; limits?: Record<string, string> } = {}, extra: Partial<Pod['spec']> = {}): Pod {
  return { metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'app', image: 'nginx', resources }], ...extra } } as Pod;
}

const quota = (hard: Record<string, string>, spec: Partial<NonNullable<ResourceQuota['spec']>> = {}): ResourceQuota =>
  ({ metadata: { name: 'q', namespace: 'ns' }, spec: { hard, ...spec } }) as ResourceQuota;

const usage = (q: ResourceQuota, objects: Record<string, KubeObject[]>) => computeUsage({ quota: q, objects: new Map(Object.entries(objects)), nowMs: NOW });

describe('computeUsage', () => {
  it('sums the compute of counted pods, init containers taking their peak, and counts objects', () => {
    const withInit = pod(
      'b',
      { requests: { cpu: '100m' } },
      { initContainers: [{ name: 'init', image: 'busybox', resources: { requests: { cpu: '1', memory: '64Mi' } } }] },
    );
    const objects = {
      pods: [pod('a', { requests: { cpu: '250m', memory: '128Mi' }, limits: { memory: '256Mi' } }), withInit],
      configmaps: [{ metadata: { name: 'c' } }],
      'deployments.apps': [{ metadata: { name: 'd' } }, { metadata: { name: 'e' } }],
    };
    const hard = {
      pods: '10',
      'requests.cpu': '4',
      'requests.memory': '1Gi',
      'limits.memory': '1Gi',
      configmaps: '5',
      'count/deployments.apps': '3',
      gadgets: '1',
    };
    expect(usage(quota(hard), objects)).toEqual({
      pods: '2',
      'requests.cpu': '1250m',
      'requests.memory': '192Mi',
      'limits.memory': '256Mi',
      configmaps: '1',
      'count/deployments.apps': '2',
    });
  });

  it('applies scopes to pods: BestEffort counts only pods without requests or limits', () => {
    const objects = { pods: [pod('a', { requests: { cpu: '1' } }), pod('b')] };
    expect(usage(quota({ pods: '5' }, { scopes: ['BestEffort'] }), objects)).toEqual({ pods: '1' });
    expect(usage(quota({ pods: '5' }, { scopes: ['NotBestEffort'] }), objects)).toEqual({ pods: '1' });
    const priority = { pods: [pod('a', {}, { priorityClassName: 'high' }), pod('b')] };
    const selector = { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] };
    expect(usage(quota({ pods: '5' }, { scopeSelector: selector }), priority)).toEqual({ pods: '1' });
  });

  it('counts NodePorts, LoadBalancers and requested storage', () => {
    const objects = {
      services: [
        { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 443 }] } },
        { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080 }] } },
        { metadata: { name: 'ip' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }] } },
      ],
      persistentvolumeclaims: [{ metadata: { name: 'c' }, spec: { resources: { requests: { storage: '1Gi' } } } }],
    };
    expect(usage(quota({ 'services.nodeports': '9', 'services.loadbalancers': '9', services: '9', 'requests.storage': '9Gi' }), objects)).toEqual({
      'services.nodeports': '3',
      'services.loadbalancers': '1',
      services: '3',
      'requests.storage': '1Gi',
    });
  });
});

describe('isPodCounted', () => {
  it('stops counting finished pods and pods past their deletion grace period', () => {
    expect(isPodCounted(pod('a'), NOW)).toBe(true);
    expect(isPodCounted({ ...pod('a'), status: { phase: 'Succeeded' } } as Pod, NOW)).toBe(false);
    const deleting = (at: string) => ({ ...pod('a'), metadata: { name: 'a', deletionTimestamp: at, deletionGracePeriodSeconds: 30 } }) as Pod;
    expect(isPodCounted(deleting('2026-01-01T00:00:10Z'), NOW)).toBe(true);
    expect(isPodCounted(deleting('2025-12-31T23:59:00Z'), NOW)).toBe(false);
  });
});
