import { describe, expect, it } from 'vitest';
import type { PrintContext } from '../resource-definition.js';
import { NodeSchema, nodeDefinition } from './node.js';

const context: PrintContext = { nowMs: Date.parse('2026-01-10T12:00:00Z') };
const cells = (body: object) => {
  const node = NodeSchema.parse(body);
  return Object.fromEntries(nodeDefinition.printColumns.map((c) => [c.name, c.cell(node, context)]));
};

const registered = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name: 'node-1',
    creationTimestamp: '2026-01-08T11:00:00Z',
    labels: { 'kubernetes.io/hostname': 'node-1', 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/worker': 'true' },
  },
  spec: {
    podCIDR: '10.244.1.0/24',
    podCIDRs: ['10.244.1.0/24'],
    taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-01-10T11:59:00Z' }],
  },
  status: {
    capacity: { cpu: '4', memory: '8Gi', pods: 110 },
    allocatable: { cpu: '3800m', memory: '7Gi', pods: '110' },
    conditions: [
      { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' },
      { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: '2026-01-10T11:59:50Z' },
    ],
    addresses: [
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'node-1' },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      kubeletVersion: 'v1.31.0',
      osImage: 'kubesim',
      kernelVersion: '6.1.0',
      containerRuntimeVersion: 'sim://1.0',
      architecture: 'amd64',
      operatingSystem: 'linux',
    },
  },
};

describe('Node', () => {
  it('parses a registered node, keeping quantities as strings', () => {
    const node = NodeSchema.parse(registered);
    expect(node.status?.capacity).toEqual({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(nodeDefinition.validate?.(node)).toEqual([]);
    expect(nodeDefinition).toMatchObject({ namespaced: false, shortNames: ['no'], keepStatusOnCreate: true });
  });

  it('prints a ready node with roles', () => {
    expect(cells(registered)).toEqual({
      Name: 'node-1',
      Status: 'Ready',
      Roles: 'control-plane,worker',
      Age: '2d1h',
      Version: 'v1.31.0',
      'Internal-IP': '172.18.0.2',
      'External-IP': '<none>',
      'OS-Image': 'kubesim',
      'Kernel-Version': '6.1.0',
      'Container-Runtime': 'sim://1.0',
    });
  });

  it('prints NotReady,SchedulingDisabled for a cordoned node whose kubelet stopped', () => {
    const body = structuredClone(registered) as any;
    body.spec.unschedulable = true;
    body.status.conditions[1].status = 'Unknown';
    expect(cells(body)['Status']).toBe('NotReady,SchedulingDisabled');
  });

  it('prints Unknown and <none> for a bare node', () => {
    expect(cells({ metadata: { name: 'n', labels: { 'kubernetes.io/role': 'edge' } } })).toMatchObject({
      Status: 'Unknown',
      Roles: 'edge',
      Version: '',
      'Internal-IP': '<none>',
      'OS-Image': '<unknown>',
    });
    expect(cells({ metadata: { name: 'n' } })['Roles']).toBe('<none>');
  });

  it('rejects duplicate taints and bad keys', () => {
    const node = NodeSchema.parse({
      metadata: { name: 'n' },
      spec: {
        taints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'a', effect: 'NoSchedule' },
          { key: '-bad', effect: 'NoExecute' },
        ],
      },
    });
    expect(nodeDefinition.validate?.(node).map((e) => `${e.field}:${e.type}`)).toEqual([
      'spec.taints[1]:FieldValueDuplicate',
      'spec.taints[2].key:FieldValueInvalid',
    ]);
  });

  it('selects on spec.unschedulable', () => {
    const node = NodeSchema.parse({ metadata: { name: 'n' }, spec: { unschedulable: true } });
    expect(nodeDefinition.fieldSelectors?.['spec.unschedulable']?.(node)).toBe('true');
    expect(nodeDefinition.fieldSelectors?.['spec.unschedulable']?.(NodeSchema.parse({ metadata: {} }))).toBe('false');
  });
});
