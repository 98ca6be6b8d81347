/**
 * Builders for scheduler unit tests: nodes, pods and NodeInfos with only the fields a test
 * cares about. Objects are plain and owned by the test.
 */
import type { Node } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { NodeInfo } from '../framework.js';
import { createNodeInfo } from '../snapshot.js';

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: NonNullable<Node['spec']>['taints'];
  unschedulable?: boolean;
  extra?: Record<string, string>;
}

/** makeNode is a node with allocatable cpu 4, memory 8Gi, pods 110 unless told otherwise. */
export function makeNode(name: string, options: NodeOptions = {}): Node {
  const allocatable = { cpu: options.cpu ?? '4', memory: options.memory ?? '8Gi', pods: options.pods ?? '110', ...options.extra };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...options.labels } },
    spec: { taints: options.taints, unschedulable: options.unschedulable },
    status: { allocatable, capacity: allocatable },
  };
}

export interface PodOptions {
  namespace?: string;
  cpu?: string;
  memory?: string;
  labels?: Record<string, string>;
  nodeName?: string;
  ownerUid?: string;
  spec?: Partial<Pod['spec']>;
  phase?: string;
  deleting?: boolean;
}

/** makePod is a one-container pod; cpu/memory become its requests when given. */
export function makePod(name: string, options: PodOptions = {}): Pod {
  const requests: Record<string, string> = {};
  if (options.cpu) requests['cpu'] = options.cpu;
  if (options.memory) requests['memory'] = options.memory;
  const ownerReferences = options.ownerUid ? [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: options.ownerUid, controller: true }] : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      uid: `uid-${name}`,
      resourceVersion: '1',
      labels: options.labels,
      ownerReferences,
      deletionTimestamp: options.deleting ? '2024-01-01T00:00:00Z' : undefined,
    },
    spec: { containers: [{ name: 'app', image: 'nginx', resources: { requests } }], nodeName: options.nodeName, ...options.spec },
    status: options.phase ? { phase: options.phase as 'Running' } : undefined,
  };
}

/** makeNodeInfo is the NodeInfo of `node` with `pods` on it. */
export function makeNodeInfo(node: Node, pods: Pod[] = []): NodeInfo {
  return createNodeInfo(node, pods);
}
