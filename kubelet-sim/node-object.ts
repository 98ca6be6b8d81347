/**
 * The simulated node as API objects: the Node a kubelet registers (labels, capacity,
 * addresses, nodeInfo, conditions) and its heartbeat Lease. Pure builders; node-agent.ts
 * does the I/O.
 */
import type { Lease } from '../apiserver/api/coordination/lease.js';
import type { Node, NodeCondition } from '../apiserver/api/core/node.js';
import { deepEqual } from '../apiserver/api/deep-equal.js';
import { rfc3339, rfc3339Micro } from '../apiserver/api/machinery/time.js';
import { podCidrOfIndex } from './pod-cidr.js';

/** KUBELET_VERSION is what the simulated kubelets report (the API server's own version). */
export const KUBELET_VERSION = 'v1.33.0';

/** NODE_LEASE_NAMESPACE holds one heartbeat Lease per node, named after it. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** NODE_LEASE_DURATION_SECONDS is the kubelet's default lease duration. */
export const NODE_LEASE_DURATION_SECONDS = 40;

/** ZONES spread nodes round-robin by index (node 1 → zone-a, 2 → zone-b, ...). */
export const ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;

/** NodeCapacity is what a node offers (Quantity strings). */
export interface NodeCapacity {
  cpu: string;
  memory: string;
  pods: string;
  ephemeralStorage: string;
}

/** DEFAULT_CAPACITY is a modest 4-CPU, 16Gi machine. */
export const DEFAULT_CAPACITY: Readonly<NodeCapacity> = Object.freeze({ cpu: '4', memory: '16Gi', pods: '110', ephemeralStorage: '100Gi' });

/** NodeConfig describes one simulated node. */
export interface NodeConfig {
  name: string;
  /** 1-based position of the node; picks its zone and its pod CIDR (pod-cidr.ts). */
  index: number;
  capacity: NodeCapacity;
  /** The address the API server uses to reach this kubelet (InternalIP). */
  hostIP: string;
  /** The port of this process's kubelet HTTP server (daemonEndpoints.kubeletEndpoint). */
  kubeletPort: number;
}

/** podCidrOf is the node's pod range: 10.244.<index>.0/24 for the first 256 (pod-cidr.ts). */
export function podCidrOf(config: Pick<NodeConfig, 'index'>): string {
  return podCidrOfIndex(config.index);
}

/** nodeLabels are the well-known labels a kubelet sets on its Node. */
export function nodeLabels(config: NodeConfig): Record<string, string> {
  return {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': config.name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': `kubesim.${config.capacity.cpu}cpu`,
    'topology.kubernetes.io/region': 'kubesim',
    'topology.kubernetes.io/zone': ZONES[(((config.index - 1) % ZONES.length) + ZONES.length) % ZONES.length] ?? 'zone-a',
  };
}

const CONDITION_FACTS: ReadonlyArray<Omit<NodeCondition, 'lastHeartbeatTime' | 'lastTransitionTime'>> = [
  { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
  { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
];

/** nodeConditions are the kubelet's four conditions at nowMs, keeping a condition's
 * lastTransitionTime while its status is unchanged, and conditions others wrote. */
export function nodeConditions(previous: readonly NodeCondition[], nowMs: number): NodeCondition[] {
  const now = rfc3339(nowMs);
  const owned = CONDITION_FACTS.map((fact) => {
    const old = previous.find((c) => c.type === fact.type);
    const lastTransitionTime = old?.status === fact.status && old.lastTransitionTime ? old.lastTransitionTime : now;
    return { ...fact, lastHeartbeatTime: now, lastTransitionTime };
  });
  return [...owned, ...previous.filter((c) => !CONDITION_FACTS.some((fact) => fact.type === c.type))];
}

/** nodeStatus is the status the kubelet reports at nowMs, given the one the server holds. */
export function nodeStatus(config: NodeConfig, previous: Node['status'], nowMs: number): NonNullable<Node['status']> {
  const capacity = {
    cpu: config.capacity.cpu,
    'ephemeral-storage': config.capacity.ephemeralStorage,
    memory: config.capacity.memory,
    pods: config.capacity.pods,
  };
  return {
    ...previous,
    capacity,
    allocatable: { ...capacity },
    conditions: nodeConditions(previous?.conditions ?? [], nowMs),
    addresses: [
      { type: 'InternalIP', address: config.hostIP },
      { type: 'Hostname', address: config.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: config.kubeletPort } },
    nodeInfo: {
      machineID: idOf('machine', config.name),
      systemUUID: idOf('system', config.name),
      bootID: idOf('boot', config.name),
      kernelVersion: '6.8.0-kubesim',
      osImage: 'Ubuntu 24.04 LTS (kubesim)',
      containerRuntimeVersion: 'containerd://1.7.22-kubesim',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}

/** idOf makes a stable 32-hex-digit id from text (machine ids survive restarts). */
function idOf(kind: string, name: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const ch of `${kind}/${name}`) {
    a = Math.imul(a ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    b = Math.imul(b ^ ch.charCodeAt(0), 0x85ebca6b) >>> 0;
  }
  return [a, b, a ^ b, Math.imul(a, b) >>> 0].map((n) => n.toString(16).padStart(8, '0')).join('');
}

/** newNode is the Node a kubelet registers. */
export function newNode(config: NodeConfig, nowMs: number): Node {
  const podCIDR = podCidrOf(config);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: config.name,
      labels: nodeLabels(config),
      annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { podCIDR, podCIDRs: [podCIDR] },
    status: nodeStatus(config, undefined, nowMs),
  };
}

/** isStatusCurrent: the server already shows what the kubelet would report, heartbeat
 * times aside (so only a change, or the periodic report, causes a write). */
export function isStatusCurrent(current: Node['status'], desired: Node['status']): boolean {
  const strip = (status: Node['status']) => ({
    ...status,
    conditions: (status?.conditions ?? []).map(({ lastHeartbeatTime: _h, lastTransitionTime: _t, ...rest }) => rest),
  });
  return deepEqual(strip(current), strip(desired));
}

/** nodeLease is the node's heartbeat Lease renewed at nowMs, owned by the Node. */
export function nodeLease(node: Pick<Node, 'metadata'>, nowMs: number, previous?: Lease): Lease {
  const name = node.metadata.name ?? '';
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      ...previous?.metadata,
      name,
      namespace: NODE_LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid ?? '' }],
    },
    spec: { ...previous?.spec, holderIdentity: name, leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS, renewTime: rfc3339Micro(nowMs) },
  };
}
