import { describe, expect, it } from 'vitest';
import { DEFAULT_CAPACITY, isStatusCurrent, type NodeConfig, newNode, nodeLabels, nodeLease, nodeStatus } from './node-object.js';

const config = (index: number): NodeConfig => ({ name: `node-${index}`, index, capacity: { ...DEFAULT_CAPACITY }, hostIP: '127.0.0.1', kubeletPort: 10250 });
const T0 = Date.parse('2024-05-01T12:00:00Z');

describe('node objects', () => {
  it('spreads zones round-robin by index', () => {
    expect([1, 2, 3, 4].map((i) => nodeLabels(config(i))['topology.kubernetes.io/zone'])).toEqual(['zone-a', 'zone-b', 'zone-c', 'zone-a']);
  });

  it('registers a node with its pod CIDR, kubelet endpoint and four conditions', () => {
    const node = newNode(config(2), T0);
    expect(node.spec).toEqual({ podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] });
    expect(node.status?.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
    expect(node.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual([
      'MemoryPressure=False',
      'DiskPressure=False',
      'PIDPressure=False',
      'Ready=True',
    ]);
  });

  it('keeps transition times, moves heartbeats, and notices real changes only', () => {
    const first = nodeStatus(config(1), undefined, T0);
    const later = nodeStatus(config(1), first, T0 + 60_000);
    expect(later.conditions?.[3]).toMatchObject({ lastTransitionTime: '2024-05-01T12:00:00Z', lastHeartbeatTime: '2024-05-01T12:01:00Z' });
    expect(isStatusCurrent(first, later)).toBe(true);
    const unknown = {
      ...first,
      conditions: first.conditions?.map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' as const, reason: 'NodeStatusUnknown' } : c)),
    };
    const recovered = nodeStatus(config(1), unknown, T0 + 120_000);
    expect(isStatusCurrent(unknown, recovered)).toBe(false);
    expect(recovered.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', lastTransitionTime: '2024-05-01T12:02:00Z' });
  });

  it('builds the heartbeat Lease owned by the Node', () => {
    const lease = nodeLease({ metadata: { name: 'node-1', uid: 'n-uid' } }, T0 + 123);
    expect(lease.metadata).toMatchObject({
      name: 'node-1',
      namespace: 'kube-node-lease',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: 'n-uid' }],
    });
    expect(lease.spec).toEqual({ holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2024-05-01T12:00:00.123000Z' });
  });
});
