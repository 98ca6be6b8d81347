import { describe, expect, it } from 'vitest';
import type { SummaryList } from '../api/metrics/stats-summary.js';
import type { KubeObject } from '../api/resource-definition.js';
import { groupByEndpoint, kubeletEndpointOf, mergeBatches, samplesFromSummaries } from './samples.js';

function node(name: string, address: string | undefined, port: number | undefined): KubeObject {
  return {
    metadata: { name },
    status: {
      addresses: address
        ? [
            { type: 'Hostname', address: name },
            { type: 'InternalIP', address },
          ]
        : [],
      daemonEndpoints: port ? { kubeletEndpoint: { Port: port } } : {},
    },
  };
}

const T = '2024-01-01T00:00:00Z';

function summary(nodeName: string, pods: Array<{ name: string; containers: Array<[string, number | undefined, number | undefined]> }>) {
  return {
    node: { nodeName, cpu: { time: T, usageNanoCores: 100_000_000 }, memory: { time: T, workingSetBytes: 1_000_000 } },
    pods: pods.map((p) => ({
      podRef: { name: p.name, namespace: 'default', uid: `uid-${p.name}` },
      containers: p.containers.map(([name, cpu, memory]) => ({
        name,
        ...(cpu !== undefined ? { cpu: { time: T, usageNanoCores: cpu } } : {}),
        ...(memory !== undefined ? { memory: { time: T, workingSetBytes: memory } } : {}),
      })),
    })),
  };
}

describe('kubelet endpoints', () => {
  it('reads InternalIP and the kubelet port, bracketing IPv6', () => {
    expect(kubeletEndpointOf(node('n', '127.0.0.1', 10250))).toBe('127.0.0.1:10250');
    expect(kubeletEndpointOf(node('n', '::1', 10250))).toBe('[::1]:10250');
    expect(kubeletEndpointOf(node('n', undefined, 10250))).toBeUndefined();
    expect(kubeletEndpointOf(node('n', '127.0.0.1', undefined))).toBeUndefined();
  });

  it('groups the nodes of one kubelet-sim process under its endpoint', () => {
    const groups = groupByEndpoint([node('a', '127.0.0.1', 1), node('b', '127.0.0.1', 1), node('c', '127.0.0.1', 2), node('d', undefined, 3)]);
    expect([...groups].map(([endpoint, names]) => [endpoint, [...names]])).toEqual([
      ['127.0.0.1:1', ['a', 'b']],
      ['127.0.0.1:2', ['c']],
    ]);
  });
});

describe('samplesFromSummaries', () => {
  it('keeps the expected nodes, and pods with at least one measured container', () => {
    const list: SummaryList = {
      items: [
        summary('a', [
          {
            name: 'web',
            containers: [
              ['nginx', 5_000_000, 12 * 1024 * 1024],
              ['half', 1, undefined],
            ],
          },
          { name: 'pending', containers: [] },
        ]),
        summary('elsewhere', [{ name: 'other', containers: [['c', 1, 1]] }]),
      ],
    };
    const batch = samplesFromSummaries(list, new Set(['a']), 42);
    expect(batch.nodes).toEqual([{ name: 'a', timestampMs: 42, cpuNanoCores: 100_000_000, memoryBytes: 1_000_000 }]);
    expect(batch.pods).toEqual([
      {
        namespace: 'default',
        name: 'web',
        uid: 'uid-web',
        timestampMs: 42,
        containers: [{ name: 'nginx', cpuNanoCores: 5_000_000, memoryBytes: 12 * 1024 * 1024 }],
      },
    ]);
  });

  it('merges the batches of a round into one snapshot', () => {
    const one = samplesFromSummaries({ items: [summary('a', [{ name: 'x', containers: [['c', 1, 1]] }])] }, new Set(['a']), 1);
    const two = samplesFromSummaries({ items: [summary('b', [{ name: 'y', containers: [['c', 1, 1]] }])] }, new Set(['b']), 2);
    const snapshot = mergeBatches([one, two]);
    expect([...snapshot.nodes.keys()]).toEqual(['a', 'b']);
    expect([...snapshot.pods.keys()]).toEqual(['default/x', 'default/y']);
  });
});
