/**
 * What a ResourceQuota's namespace uses (Kubernetes' quota evaluators): object counts, the
 * compute requests and limits of its pods, NodePorts and LoadBalancers of its Services and
 * the storage its claims request. Pure: the resourcequota controller hands in a namespace's
 * objects, quota admission (apiserver/registry/quota-admission.ts) the one being created.
 */
import { addQuantities, type Quantity, tryParseQuantity } from '../quantity.js';
import type { KubeObject } from '../resource-definition.js';
import { podQOSClass } from './pod-qos.js';
import { podResourceTotals } from './pod-resources.js';
import type { PodSpec } from './pod-spec.js';
import type { ResourceQuota } from './resource-quota.js';

/** The part of a pod the accounting reads (pod.ts is not imported: it imports this module's users). */
interface Pod extends KubeObject {
  spec: PodSpec;
  status?: { phase?: string };
}

/** DeepReadonly marks the informers' shared objects the controller hands in. */
type DeepReadonly<T> = T extends (infer U)[] ? ReadonlyArray<DeepReadonly<U>> : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

type Objects = readonly DeepReadonly<KubeObject>[];

/** NamespaceObjects are the objects of one namespace, by storage resource (`pods`,
 * `deployments.apps`): what `count/<resource>` names. */
export type NamespaceObjects = ReadonlyMap<string, Objects>;

/** The short names of object counts and the resource they count (`count/<resource>` too). */
const COUNTED: Record<string, string> = {
  pods: 'pods',
  services: 'services',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
  secrets: 'secrets',
  configmaps: 'configmaps',
  persistentvolumeclaims: 'persistentvolumeclaims',
};

/** Compute resources of pods: quota name → which side of the pods' resources and which resource. */
const COMPUTE: Record<string, { side: 'requests' | 'limits'; resource: string }> = {
  cpu: { side: 'requests', resource: 'cpu' },
  memory: { side: 'requests', resource: 'memory' },
  'ephemeral-storage': { side: 'requests', resource: 'ephemeral-storage' },
  'requests.cpu': { side: 'requests', resource: 'cpu' },
  'requests.memory': { side: 'requests', resource: 'memory' },
  'requests.ephemeral-storage': { side: 'requests', resource: 'ephemeral-storage' },
  'limits.cpu': { side: 'limits', resource: 'cpu' },
  'limits.memory': { side: 'limits', resource: 'memory' },
  'limits.ephemeral-storage': { side: 'limits', resource: 'ephemeral-storage' },
};

/** countedResourceOf names the storage resource a quota resource counts, if it is a count. */
export function countedResourceOf(name: string): string | undefined {
  return name.startsWith('count/') ? name.slice('count/'.length) : COUNTED[name];
}

/**
 * isPodCounted: a pod uses quota until it has finished (Succeeded/Failed) or its deletion
 * grace period is over, as Kubernetes' QuotaV1Pod decides.
 */
export function isPodCounted(pod: DeepReadonly<Pod>, nowMs: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  if (deletionTimestamp === undefined || deletionGracePeriodSeconds === undefined) return true;
  return nowMs <= Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000;
}

/** podMatchesScopes applies the quota's scopes and scope selector to a pod (the scopes of
 * Kubernetes' pod evaluator; CrossNamespacePodAffinity and VolumeAttributesClass count every pod). */
export function podMatchesScopes(pod: DeepReadonly<Pod>, spec: DeepReadonly<ResourceQuota['spec']>): boolean {
  const requirements = [
    ...(spec?.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists', values: [] as readonly string[] })),
    ...(spec?.scopeSelector?.matchExpressions ?? []).map((r) => ({ ...r, values: r.values ?? [] })),
  ];
  return requirements.every(({ scopeName, operator, values }) => {
    switch (scopeName) {
      case 'Terminating':
        return pod.spec.activeDeadlineSeconds !== undefined;
      case 'NotTerminating':
        return pod.spec.activeDeadlineSeconds === undefined;
      case 'BestEffort':
        return podQOSClass(pod.spec as Pod['spec']) === 'BestEffort';
      case 'NotBestEffort':
        return podQOSClass(pod.spec as Pod['spec']) !== 'BestEffort';
      case 'PriorityClass':
        return matchesValue(pod.spec.priorityClassName, operator, values);
      default:
        return true;
    }
  });
}

function matchesValue(value: string | undefined, operator: string, values: readonly string[]): boolean {
  if (operator === 'Exists') return value !== undefined && value !== '';
  if (operator === 'DoesNotExist') return value === undefined || value === '';
  if (operator === 'In') return value !== undefined && values.includes(value);
  return value === undefined || !values.includes(value);
}

/** UsageInputs are what computeUsage reads. */
export interface UsageInputs {
  quota: DeepReadonly<ResourceQuota>;
  objects: NamespaceObjects;
  nowMs: number;
}

/** computeUsage returns status.used for every resource of spec.hard it can evaluate, as
 * canonical quantity strings; resources it cannot evaluate are left out (printed as 0). */
export function computeUsage({ quota, objects, nowMs }: UsageInputs): Record<string, string> {
  const pods = ((objects.get('pods') ?? []) as readonly DeepReadonly<Pod>[]).filter((pod) => isPodCounted(pod, nowMs) && podMatchesScopes(pod, quota.spec));
  const used: Record<string, string> = {};
  for (const name of Object.keys(quota.spec?.hard ?? {})) {
    const value = usageOf(name, objects, pods);
    if (value !== undefined) used[name] = value.toString();
  }
  return used;
}

function usageOf(name: string, objects: NamespaceObjects, pods: readonly DeepReadonly<Pod>[]): Quantity | undefined {
  const compute = COMPUTE[name];
  if (compute) return addQuantities(...pods.flatMap((pod) => podResourceTotals(pod.spec as Pod['spec'], compute.side).get(compute.resource) ?? []));
  const counted = countedResourceOf(name);
  if (counted === 'pods') return addQuantities(pods.length);
  if (counted !== undefined) return objects.has(counted) ? addQuantities(objects.get(counted)!.length) : undefined;
  if (name === 'services.loadbalancers') return addQuantities(servicesOf(objects).filter((s) => s.spec?.type === 'LoadBalancer').length);
  if (name === 'services.nodeports') return addQuantities(servicesOf(objects).reduce((total, s) => total + nodePortsOf(s), 0));
  if (name === 'requests.storage')
    return addQuantities(...claimsOf(objects).flatMap((c) => tryParseQuantity(c.spec?.resources?.requests?.storage ?? '') ?? []));
  return undefined;
}

interface ServiceShape {
  spec?: { type?: string; ports?: ReadonlyArray<{ nodePort?: number }> };
}
interface ClaimShape {
  spec?: { resources?: { requests?: Record<string, string> } };
}

const servicesOf = (objects: NamespaceObjects) => (objects.get('services') ?? []) as readonly ServiceShape[];
const claimsOf = (objects: NamespaceObjects) => (objects.get('persistentvolumeclaims') ?? []) as readonly ClaimShape[];

/** nodePortsOf counts the node ports a Service holds: every port of a NodePort Service, and
 * those of a LoadBalancer Service that allocates them. */
function nodePortsOf(service: ServiceShape): number {
  const type = service.spec?.type;
  if (type !== 'NodePort' && type !== 'LoadBalancer') return 0;
  return (service.spec?.ports ?? []).filter((port) => type === 'NodePort' || port.nodePort !== undefined).length;
}

/** What a container's own requests and limits make it use, by quota name (podComputeUsageHelper). */
const CONTAINER_USAGE: Record<string, (resources: { requests?: Record<string, string>; limits?: Record<string, string> }) => boolean> = {
  cpu: (r) => r.requests?.['cpu'] !== undefined,
  'requests.cpu': (r) => r.requests?.['cpu'] !== undefined,
  memory: (r) => r.requests?.['memory'] !== undefined,
  'requests.memory': (r) => r.requests?.['memory'] !== undefined,
  'limits.cpu': (r) => r.limits?.['cpu'] !== undefined,
  'limits.memory': (r) => r.limits?.['memory'] !== undefined,
};

/**
 * podConstraintError is the pod evaluator's Constraints check: a quota limiting cpu or memory
 * requires every container (init containers too) of a pod it counts to state them, or the
 * create fails with `must specify <resource> for: <containers>`. Undefined when satisfied.
 */
export function podConstraintError(pod: DeepReadonly<Pod>, quota: DeepReadonly<ResourceQuota>, nowMs: number): string | undefined {
  const required = Object.keys(quota.spec?.hard ?? {}).filter((name) => CONTAINER_USAGE[name] !== undefined);
  if (required.length === 0 || !isPodCounted(pod, nowMs) || !podMatchesScopes(pod, quota.spec)) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const container of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) {
    const resources = (container.resources ?? {}) as { requests?: Record<string, string>; limits?: Record<string, string> };
    for (const name of required.filter((name) => !CONTAINER_USAGE[name]!(resources))) {
      missing.set(name, (missing.get(name) ?? new Set()).add(container.name));
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...missing.get(name)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}
