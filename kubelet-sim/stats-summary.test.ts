import { describe, expect, it } from 'vitest';
import type { Pod } from '../apiserver/api/core/pod.js';
import { FakeClock } from '../apiserver/api/machinery/clock.js';
import type { KubeObject } from '../apiserver/api/resource-definition.js';
import { IndexStore } from '../controllers/runtime/index-store.js';
import { indexByNodeName, NODE_NAME_INDEX } from '../controllers/runtime/indexers.js';
import { createLister } from '../controllers/runtime/lister.js';
import { silentLogger } from '../controllers/runtime/logger.js';
import { DEFAULT_CAPACITY } from './node-object.js';
import { createStatsSummaries, type StatsNode } from './stats-summary.js';
import { LOAD_CPU_ANNOTATION, ownerLookupFrom } from './workload-load.js';

const RS: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web', namespace: 'default', uid: 'rs', annotations: { [LOAD_CPU_ANNOTATION]: '1' } },
};

function pod(name: string, node: string, running: boolean): Pod {
  return {
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      annotations: { 'kubesim.io/cpu': '0', 'kubesim.io/memory': '1Mi' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs', controller: true }],
    },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx' }] },
    status: {
      phase: running ? 'Running' : 'Pending',
      conditions: [{ type: 'Ready', status: running ? 'True' : 'False' }],
      containerStatuses: [
        {
          name: 'c',
          image: 'nginx',
          imageID: '',
          ready: running,
          restartCount: 0,
          state: running ? { running: { startedAt: '2024-01-01T00:00:00Z' } } : { waiting: { reason: 'ContainerCreating' } },
        },
      ],
    },
  };
}

function summaries(pods: Pod[], nodes: StatsNode[]) {
  const podStore = new IndexStore<Pod>();
  podStore.addIndexer(NODE_NAME_INDEX, indexByNodeName);
  for (const p of pods) podStore.upsert(p);
  const rsStore = new IndexStore<KubeObject>();
  rsStore.upsert(RS);
  const owners = ownerLookupFrom({ 'apps/v1/ReplicaSet': createLister(rsStore) });
  const clock = new FakeClock(Date.parse('2024-05-01T12:00:00Z'));
  return createStatsSummaries({ pods: createLister(podStore), owners, nodes: new Map(nodes.map((n) => [n.name, n])), clock, logger: silentLogger }).summaries();
}

const node = (name: string, on = true): StatsNode => ({ name, capacity: DEFAULT_CAPACITY, isPoweredOn: () => on });

describe('createStatsSummaries', () => {
  it('reports each powered-on node with its running pods; the load is shared cluster-wide', () => {
    const result = summaries(
      [pod('a', 'node-1', true), pod('b', 'node-2', true), pod('c', 'node-1', false)],
      [node('node-2'), node('node-1'), node('node-3', false)],
    );
    expect(result.map((s) => s.node.nodeName)).toEqual(['node-1', 'node-2']);
    const [one] = result;
    expect(one?.pods.map((p) => p.podRef.name)).toEqual(['a']);
    expect(one?.pods[0]?.containers).toEqual([
      {
        name: 'c',
        startTime: '2024-01-01T00:00:00Z',
        cpu: { time: '2024-05-01T12:00:00Z', usageNanoCores: 500_000_000 },
        memory: { time: '2024-05-01T12:00:00Z', workingSetBytes: 1024 * 1024, usageBytes: 1024 * 1024 },
      },
    ]);
    const nodeCpu = one?.node.cpu?.usageNanoCores ?? 0;
    expect(nodeCpu).toBeGreaterThanOrEqual(560_000_000);
    expect(nodeCpu).toBeLessThanOrEqual(600_000_000);
    expect(one?.node.memory?.availableBytes).toBe(16 * 1024 ** 3 - (one?.node.memory?.workingSetBytes ?? 0));
  });
});
